"""The HTTP Bot API test server, driven by PTB's own HTTP client and a small polling Application."""

from __future__ import annotations

import asyncio
import io
import threading
from collections.abc import Iterator

import httpx
import pytest
from botapi_server import BotAPIServer, ControlClient, parse_body
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import BadRequest, InvalidToken
from telegram.ext import ApplicationBuilder, CallbackQueryHandler, CommandHandler, ContextTypes

CHAT = -1001000000001


@pytest.fixture
def server() -> Iterator[BotAPIServer]:
    with BotAPIServer(token="123:TEST") as running:
        running.state.add_group(CHAT, "牌桌", creator="zoe")
        yield running


async def lobby(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None and update.effective_chat is not None
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("✅ 确认", callback_data="hand:1")]])
    await update.effective_message.reply_text("预览 第1局", reply_markup=keyboard)
    await context.bot.send_document(
        update.effective_chat.id, io.BytesIO("局,东\n1,+30\n".encode()), filename="账本.csv"
    )


async def confirmed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None
    await query.answer()
    await query.edit_message_text(f"已确认 {query.data}")


@pytest.mark.slow
async def test_polling_bot_over_http(server: BotAPIServer) -> None:
    builder = ApplicationBuilder().token("123:TEST").base_url(server.base_url)
    application = builder.build()
    application.add_handler(CommandHandler("hu", lobby))
    application.add_handler(CallbackQueryHandler(confirmed))
    control = ControlClient(server.url, CHAT)
    async with application:
        assert application.updater is not None
        await application.start()
        await application.updater.start_polling(poll_interval=0, timeout=2)
        try:
            await asyncio.to_thread(control.say, "ann", "/hu 南 自摸 5花")
            # (the waits' bounds are only how long a broken bot may hang the test)
            preview = await asyncio.to_thread(control.wait_sent, "预览 第1局", timeout=60)
            document = await asyncio.to_thread(
                control.wait_for, lambda c: c["method"] == "sendDocument", timeout=60
            )
            await asyncio.to_thread(control.press, "bob", "确认")
            edited = await asyncio.to_thread(control.wait_sent, "已确认", timeout=60)
        finally:
            await application.updater.stop()
            await application.stop()
    assert preview["result"]["reply_to_message"]["text"] == "/hu 南 自摸 5花"
    assert edited["result"]["text"] == "已确认 hand:1"
    assert document["files"]["document"] == {"filename": "账本.csv", "size": 14, "mime_type": "text/csv"}
    stored = server.state.files[document["result"]["document"]["file_id"]]
    assert stored.content.decode() == "局,东\n1,+30\n"
    assert [m["text"] for m in control.messages() if "text" in m] == ["已确认 hand:1"]
    control.close()


async def test_bad_token_and_bad_requests_answer_json(server: BotAPIServer) -> None:
    wrong = ApplicationBuilder().token("999:WRONG").base_url(server.base_url).build()
    with pytest.raises(InvalidToken):
        await wrong.bot.get_me()
    bot = ApplicationBuilder().token("123:TEST").base_url(server.base_url).build().bot
    async with bot:
        with pytest.raises(BadRequest, match="Message to edit not found"):
            await bot.edit_message_text("x", chat_id=CHAT, message_id=42)
    response = httpx.post(f"{server.url}/bot123:TEST/noSuchMethod", json={})
    assert response.status_code == 400 and response.json()["ok"] is False
    assert "noSuchMethod" in response.json()["description"]


def test_get_updates_long_poll_waits_for_an_injected_update(server: BotAPIServer) -> None:
    control = ControlClient(server.url, CHAT)
    with httpx.Client(base_url=f"{server.url}/bot123:TEST", timeout=90) as http:
        assert http.post("/getUpdates", data={"timeout": "0"}).json() == {"ok": True, "result": []}
        pending = []

        def poll() -> None:
            pending.append(http.post("/getUpdates", data={"timeout": "60"}).json())

        poller = threading.Thread(target=poll)
        poller.start()
        update = control.say("dan", "/score")  # ends the 60 s poll at once, whether it came before or after
        poller.join(60)
        assert not poller.is_alive()
        assert pending[0]["result"][0]["message"]["text"] == "/score"
        after = http.post("/getUpdates", data={"offset": str(update["update_id"] + 1), "timeout": "0"})
        assert after.json()["result"] == []
    control.close()


def test_parse_body_reads_json_form_and_multipart() -> None:
    as_json = parse_body("application/json", b'{"chat_id": -5, "text": "x"}')
    assert as_json == ({"chat_id": -5, "text": "x"}, {})
    assert parse_body("application/x-www-form-urlencoded", b"text=%E5%8D%97") == ({"text": "南"}, {})
    body = (
        b'--XX\r\nContent-Disposition: form-data; name="chat_id"\r\n\r\n-5\r\n'
        b'--XX\r\nContent-Disposition: form-data; name="document"; filename="a.csv"\r\n'
        b"Content-Type: text/csv\r\n\r\nE,S\n1,2\n\r\n--XX--\r\n"
    )
    params, files = parse_body("multipart/form-data; boundary=XX", body)
    assert params == {"chat_id": "-5"}
    assert files["document"].filename == "a.csv" and files["document"].content == b"E,S\n1,2\n"
