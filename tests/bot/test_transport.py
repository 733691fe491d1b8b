"""The in-process Bot API transport, driven by a small PTB Application of its own."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from harness import HandlerError, Table, seat_four
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import BadRequest
from telegram.ext import Application, ApplicationBuilder, CallbackQueryHandler, CommandHandler, ContextTypes

from bot.console import run_console_async
from bot.console.markup import incoming_entities, visible_text
from bot.console.state import BotAPIState, decode_params
from bot.console.transport import InProcessBotAPI
from bot.ledger.play import groups

CHAT = -1001000000001
AppT = tuple[Application, InProcessBotAPI]


async def lobby(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    keyboard = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton("加入", callback_data="join:1"),
                InlineKeyboardButton("取消", callback_data="x"),
            ]
        ]
    )
    assert update.effective_message is not None
    await update.effective_message.reply_text(
        "<b>新牌局</b> 苏州 5", parse_mode="HTML", reply_markup=keyboard
    )


async def on_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None and query.from_user is not None
    await query.answer(f"{query.from_user.first_name} {query.data!r}")
    await query.edit_message_text(f"已加入: {query.from_user.username} {query.data!r}")


async def roll(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_chat is not None
    first = await context.bot.send_dice(update.effective_chat.id)
    second = await context.bot.send_dice(update.effective_chat.id)
    assert first.dice is not None and second.dice is not None
    await context.bot.send_message(update.effective_chat.id, f"{first.dice.value}+{second.dice.value}")


async def pin(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_chat is not None and update.effective_message is not None
    sent = await context.bot.send_message(update.effective_chat.id, "账本")
    try:
        await sent.pin()
    except BadRequest as exc:
        await update.effective_message.reply_text(f"不能置顶: {exc.message}")


async def files(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_chat is not None
    await context.bot.send_photo(update.effective_chat.id, io.BytesIO(b"\x89PNG\r\n fake"), caption="走势")
    await context.bot.send_document(update.effective_chat.id, b"hand,E\n1,600\n", filename="ledger.csv")


async def whoami(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_chat is not None and update.effective_user is not None
    member = await context.bot.get_chat_member(update.effective_chat.id, update.effective_user.id)
    admins = await context.bot.get_chat_administrators(update.effective_chat.id)
    names = sorted(a.user.username or "" for a in admins)
    await context.bot.send_message(update.effective_chat.id, f"{member.status} {' '.join(names)}")


@pytest.fixture
async def app() -> AsyncIterator[AppT]:
    transport = InProcessBotAPI(seed=7)
    transport.add_group(CHAT, "牌桌", admins=["ann"], creator="zoe")
    application = (
        ApplicationBuilder().token("123:TEST").request(transport).get_updates_request(transport).build()
    )
    handlers = {"newgame": lobby, "roll": roll, "pin": pin, "files": files, "whoami": whoami}
    for name, callback in handlers.items():
        application.add_handler(CommandHandler(name, callback))
    application.add_handler(CallbackQueryHandler(on_button))
    async with application:
        yield application, transport


async def deliver(application: Application, update: dict) -> None:
    parsed = Update.de_json(update, application.bot)
    application.bot.insert_callback_data(parsed)
    await application.process_update(parsed)


async def test_get_me_and_commands(app: AppT) -> None:
    application, _ = app
    assert application.bot.username == "suzhou_mahjong_bot"
    await application.bot.set_my_commands([("newgame", "开新局"), ("hu", "记胡")])
    commands = await application.bot.get_my_commands()
    assert [(c.command, c.description) for c in commands] == [("newgame", "开新局"), ("hu", "记胡")]
    with pytest.raises(BadRequest, match="Bot_command_invalid"):
        await application.bot.set_my_commands([("新局", "中文命令名不合法")])


async def test_message_reply_with_keyboard_and_press(app: AppT) -> None:
    application, transport = app
    await deliver(application, transport.message(CHAT, "ann", "/newgame 苏州 5"))
    (sent,) = transport.sent(CHAT)
    assert sent.method == "sendMessage" and sent.result["text"] == "新牌局 苏州 5"
    assert sent.result["reply_to_message"]["text"] == "/newgame 苏州 5"
    # PTB replaced the tuple with a UUID string; the press carries exactly that string back.
    labels = [b["text"] for b in sent.result["reply_markup"]["inline_keyboard"][0]]
    assert labels == ["加入", "取消"]
    await deliver(application, transport.press(CHAT, "bob", sent.result["message_id"], "加入"))
    answer, edit = transport.calls_of("answerCallbackQuery", "editMessageText")
    assert answer.ok and answer.params["text"] == "Bob 'join:1'"
    assert edit.ok and edit.result["text"] == "已加入: bob 'join:1'"
    stored = transport.state.stored_message(CHAT, sent.result["message_id"])
    assert "reply_markup" not in stored and "edit_date" in stored


async def test_press_by_latest_label_index_and_unknown(app: AppT) -> None:
    application, transport = app
    await deliver(application, transport.message(CHAT, "ann", "/newgame"))
    await deliver(application, transport.message(CHAT, "ann", "/newgame"))
    newest = transport.sent(CHAT)[-1].result["message_id"]
    update = transport.press(CHAT, "cat", None, "取消")
    assert update["callback_query"]["message"]["message_id"] == newest
    by_index = transport.press(CHAT, "cat", newest, 1)
    assert by_index["callback_query"]["data"] == update["callback_query"]["data"]
    assert transport.press(CHAT, "cat", newest, (0, 0))["callback_query"]["message"]["message_id"] == newest
    with pytest.raises(KeyError, match="no button labelled '开始'"):
        transport.press(CHAT, "cat", None, "开始")


async def test_answer_twice_and_not_modified_are_errors(app: AppT) -> None:
    application, transport = app
    await deliver(application, transport.message(CHAT, "ann", "/newgame"))
    update = Update.de_json(transport.press(CHAT, "ann", None, "加入"), application.bot)
    application.bot.insert_callback_data(update)
    assert update.callback_query is not None
    await update.callback_query.answer()
    with pytest.raises(BadRequest, match="Query is too old"):
        await update.callback_query.answer()
    message_id = transport.sent(CHAT)[-1].result["message_id"]
    await application.bot.edit_message_text("新牌局 苏州 5", chat_id=CHAT, message_id=message_id)
    with pytest.raises(BadRequest, match="Message is not modified"):
        await application.bot.edit_message_text("新牌局 苏州 5", chat_id=CHAT, message_id=message_id)
    with pytest.raises(BadRequest, match="Message to edit not found"):
        await application.bot.edit_message_text("x", chat_id=CHAT, message_id=999)
    user_message = transport.message(CHAT, "ann", "hello")["message"]["message_id"]
    with pytest.raises(BadRequest, match="Message can't be edited"):
        await application.bot.edit_message_text("x", chat_id=CHAT, message_id=user_message)


async def test_dice_are_seedable_and_forceable(app: AppT) -> None:
    application, transport = app
    transport.state.force_dice(3, 3)
    await deliver(application, transport.message(CHAT, "ann", "/roll"))
    dice = [c.result["dice"]["value"] for c in transport.calls_of("sendDice")]
    assert dice == [3, 3]
    assert transport.sent(CHAT)[-1].result["text"] == "3+3"
    await deliver(application, transport.message(CHAT, "ann", "/roll"))
    values = [c.result["dice"]["value"] for c in transport.calls_of("sendDice")][2:]
    assert all(1 <= v <= 6 for v in values)
    again = BotAPIState(seed=7)
    chat = again.add_group()
    answers = [again.handle("sendDice", {"chat_id": str(chat)})[1] for _ in range(2)]
    replay = [body["result"]["dice"]["value"] for body in answers]
    assert replay == values


async def test_pin_allowed_and_refused(app: AppT) -> None:
    application, transport = app
    await deliver(application, transport.message(CHAT, "ann", "/pin"))
    pinned_id = transport.sent(CHAT)[-1].result["message_id"]
    chat = await application.bot.get_chat(CHAT)
    assert chat.pinned_message is not None and chat.pinned_message.message_id == pinned_id
    transport.state.set_can_pin(CHAT, False)
    await deliver(application, transport.message(CHAT, "ann", "/pin"))
    refused = transport.calls_of("pinChatMessage")[-1]
    assert refused.status == 400
    assert refused.description == "Bad Request: not enough rights to manage pinned messages in the chat"
    reply = transport.sent(CHAT)[-1].result["text"]
    assert reply == "不能置顶: Not enough rights to manage pinned messages in the chat"


async def test_uploads_are_stored(app: AppT) -> None:
    application, transport = app
    await deliver(application, transport.message(CHAT, "ann", "/files"))
    photo, document = transport.calls_of("sendPhoto", "sendDocument")
    assert photo.files["photo"].content == b"\x89PNG\r\n fake" and photo.result["caption"] == "走势"
    assert document.files["document"].filename == "ledger.csv"
    stored = transport.state.files[document.result["document"]["file_id"]]
    assert stored.content == b"hand,E\n1,600\n" and stored.mime_type == "text/csv"


async def test_members_and_admins(app: AppT) -> None:
    application, transport = app
    await deliver(application, transport.message(CHAT, "ann", "/whoami"))
    await deliver(application, transport.message(CHAT, "bob", "/whoami"))
    await deliver(application, transport.message(CHAT, "zoe", "/whoami"))
    texts = [c.result["text"] for c in transport.sent(CHAT)]
    admins = "ann suzhou_mahjong_bot zoe"
    assert texts == [f"administrator {admins}", f"member {admins}", f"creator {admins}"]
    transport.state.set_admins(CHAT, ["bob"])
    await deliver(application, transport.message(CHAT, "bob", "/whoami"))
    assert transport.sent(CHAT)[-1].result["text"] == "administrator bob suzhou_mahjong_bot zoe"


@pytest.mark.filterwarnings("ignore:Please use 'Bot.sendMessage'")
async def test_unknown_method_and_chat_are_json_errors(app: AppT) -> None:
    application, transport = app
    with pytest.raises(BadRequest, match="Method 'sendpoll' is not implemented"):
        await application.bot.do_api_request("sendpoll", {"chat_id": CHAT})
    with pytest.raises(BadRequest, match="Chat not found"):
        await application.bot.send_message(-42, "x")
    with pytest.raises(BadRequest, match="Message text is empty"):
        await application.bot.send_message(CHAT, " ")
    with pytest.raises(BadRequest, match="Can't parse entities"):
        await application.bot.send_message(CHAT, "<b>未闭合", parse_mode="HTML")
    with pytest.raises(BadRequest, match="Button_data_invalid"):
        # Raw request: PTB's arbitrary callback data would have shortened the data to a UUID.
        markup = {"inline_keyboard": [[{"text": "长", "callback_data": "x" * 65}]]}
        await application.bot.do_api_request(
            "sendMessage", {"chat_id": CHAT, "text": "x", "reply_markup": markup}
        )
    assert [c.status for c in transport.calls[-5:]] == [400] * 5


async def until_called(transport: InProcessBotAPI, method: str) -> None:
    """Returns once the bot has called `method`: woken by the transport's own call event, not by a clock
    (the minute is only how long a broken bot may hang the test)."""
    loop = asyncio.get_running_loop()
    called = asyncio.Event()

    def listen(kind: str, payload: object) -> None:
        if kind == "call" and getattr(payload, "method", None) == method:
            loop.call_soon_threadsafe(called.set)

    unsubscribe = transport.state.subscribe(listen)
    try:
        if not transport.calls_of(method):
            await asyncio.wait_for(called.wait(), 60)
    finally:
        unsubscribe()


async def test_get_updates_long_poll_serves_queued_updates(app: AppT) -> None:
    application, transport = app
    waiting = asyncio.create_task(application.bot.get_updates(timeout=60))
    while transport.state.polls_started == 0:  # the poll has arrived and now waits for an update
        await asyncio.sleep(0)
    assert not waiting.done()
    transport.message(CHAT, "ann", "/newgame", enqueue=True)
    updates = await waiting  # the update ends the 60 s poll at once
    assert [u.message.text for u in updates if u.message] == ["/newgame"]
    assert await application.bot.get_updates(offset=updates[-1].update_id + 1, timeout=0) == ()


async def test_polling_application_processes_enqueued_updates(app: AppT) -> None:
    application, transport = app
    assert application.updater is not None
    await application.start()
    await application.updater.start_polling(poll_interval=0, timeout=1)
    try:
        transport.message(CHAT, "ann", "/newgame", enqueue=True)
        await until_called(transport, "sendMessage")
        transport.press(CHAT, "bob", None, "加入", enqueue=True)
        await until_called(transport, "editMessageText")
    finally:
        await application.updater.stop()
        await application.stop()
    assert transport.calls_of("deleteWebhook")
    assert transport.calls_of("editMessageText")[-1].result["text"] == "已加入: bob 'join:1'"


def test_incoming_entities_use_utf16_offsets() -> None:
    text = "🀄 /hu@suzhou_mahjong_bot 南 冲 @bobby"
    entities = incoming_entities(text)
    assert [(e["type"], e["offset"], e["length"]) for e in entities] == [
        ("bot_command", 3, 22),
        ("mention", 30, 6),
    ]


def test_visible_text_follows_telegram_parsers() -> None:
    assert visible_text("<b>南</b> &lt;+600&gt;", "HTML") == "南 <+600>"
    assert visible_text("*第7局* 南 \\+600", "MarkdownV2") == "第7局 南 +600"
    with pytest.raises(ValueError, match="Character '\\+' is reserved"):
        visible_text("南 +600", "MarkdownV2")
    with pytest.raises(ValueError, match='Unsupported start tag "br"'):
        visible_text("a<br>b", "HTML")


def test_decode_params_keeps_text_fields_as_strings() -> None:
    assert decode_params({"chat_id": "-5", "text": "123", "reply_markup": '{"inline_keyboard": []}'}) == {
        "chat_id": -5,
        "text": "123",
        "reply_markup": {"inline_keyboard": []},
    }


def test_snapshot_round_trip_keeps_messages_and_pins() -> None:
    first = BotAPIState()
    chat = first.add_group(title="牌桌")
    sent = first.handle("sendMessage", {"chat_id": str(chat), "text": "账本"})[1]["result"]
    first.handle("pinChatMessage", {"chat_id": str(chat), "message_id": str(sent["message_id"])})
    last = first.message(chat, "ann", "/score")["update_id"]
    second = BotAPIState()
    second.restore(first.snapshot())
    assert second.chat(chat).pinned == [sent["message_id"]]
    assert second.message(chat, "bob", "/score")["update_id"] == last + 1
    status, body = second.handle("sendMessage", {"chat_id": str(chat), "text": "下一条"})
    assert status == 200 and body["result"]["message_id"] == sent["message_id"] + 3


async def boom(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    raise RuntimeError("handler bug")


async def test_harness_table_reads_turns_replies_edits_and_pins() -> None:
    transport = InProcessBotAPI(seed=1)
    builder = ApplicationBuilder().token("123:TEST").request(transport)
    application = builder.build()
    for name, callback in {"newgame": lobby, "pin": pin, "roll": roll, "boom": boom}.items():
        application.add_handler(CommandHandler(name, callback))
    application.add_handler(CallbackQueryHandler(on_button))
    table = await Table.start(application, transport)
    try:
        turn = await table.say("ann", "/newgame")
        assert turn.texts == ["新牌局 苏州 5"] and table.buttons() == ["加入", "取消"]
        assert table.user("ann")["id"] == 1001
        pressed = await table.press("bob", "加入")
        assert pressed.answers == ["Bob 'join:1'"]
        assert [e.text for e in pressed.edits] == ["已加入: bob 'join:1'"]
        assert table.last_reply().edited and table.buttons() == []
        await table.say("ann", "/pin")
        assert table.pinned() is not None and table.pinned().text == "账本"
        table.set_can_pin(False)
        refused = await table.say("ann", "/pin")
        assert [c.method for c in refused.failed] == ["pinChatMessage"]
        table.force_dice(6, 6)
        rolled = await table.say("cat", "/roll")
        assert [r.dice for r in rolled.sent[:2]] == [6, 6] and rolled.texts[-1] == "6+6"
        with pytest.raises(HandlerError, match="handler bug"):
            await table.say("dan", "/boom")
    finally:
        await table.stop()


def tiny_application(
    settings: object,
    *,
    request: InProcessBotAPI,
    get_updates_request: InProcessBotAPI,
) -> Application:
    builder = ApplicationBuilder().token("123:TEST").request(request).get_updates_request(get_updates_request)
    application = builder.build()
    for name, callback in {"newgame": lobby, "files": files, "roll": roll, "pin": pin}.items():
        application.add_handler(CommandHandler(name, callback))
    application.add_handler(CallbackQueryHandler(on_button))
    return application


async def test_console_prints_replies_buttons_edits_and_saves_files(tmp_path: Path) -> None:
    from bot.settings import Settings

    settings = Settings(_env_file=None, data_dir=tmp_path, telegram_bot_token=None)  # type: ignore[call-arg]
    script = "ann: /newgame\nbob: [加入]\nbob: [开始]\nnonsense\n:pin off\ncat: /pin\nann: /files\n"
    out = io.StringIO()
    status = await run_console_async(settings, stdin=io.StringIO(script), stdout=out, build=tiny_application)
    assert status == 0
    text = out.getvalue()
    assert "ann: /newgame\nbot #2 新牌局 苏州 5\n       [加入] [取消]\n" in text
    assert "bot 💬 Bob 'join:1'\nbot ✎ #2 已加入: bob 'join:1'\n" in text
    assert "？ no button labelled '开始'" in text and "？ 格式：名字: 消息" in text
    assert "bot ✗ pinChatMessage: Bad Request: not enough rights" in text
    files_dir = tmp_path / "console" / "files"
    assert sorted(p.name for p in files_dir.iterdir()) == ["7-photo.png", "8-ledger.csv"]
    assert (files_dir / "8-ledger.csv").read_bytes() == b"hand,E\n1,600\n"
    photo, document = files_dir / "7-photo.png", files_dir / "8-ledger.csv"
    assert f"bot 🖼 #7 {photo}\n         走势\nbot 📎 #8 {document}" in text
    # The chat survives a restart: message ids go on where they stopped.
    again = io.StringIO()
    more = io.StringIO("dan: /newgame\n")
    await run_console_async(settings, stdin=more, stdout=again, build=tiny_application)
    assert "bot #10 新牌局 苏州 5" in again.getvalue()


@pytest.mark.postgres
async def test_real_bot_records_a_confirmed_hand_on_postgresql(pg_table: Table) -> None:
    table = await seat_four(pg_table)
    await table.say("ann", "/dealer 东")
    preview = await table.say("ann", "/hu 南 自摸 5花")
    assert preview.sent and preview.sent[-1].buttons
    done = await table.press("bob", preview.sent[-1].buttons[0])
    assert done.edits[0].text.startswith("第1局"), done.edits  # the preview became the result
    session = groups.chat_state(table.app.bot_data["ledger"], table.chat_id).session
    assert session is not None and session.seats["S"].username == "bob"


def test_users_get_ascii_usernames_and_chinese_names_none() -> None:
    api = BotAPIState()
    assert api.user("ann")["username"] == "ann" and api.user("ann")["first_name"] == "Ann"
    wang = api.user("小王")
    assert "username" not in wang and wang["first_name"] == "小王"
    assert api.user("小王")["id"] == wang["id"] == BotAPIState().user("小王")["id"]
