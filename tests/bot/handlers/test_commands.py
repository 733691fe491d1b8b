"""The command table drives registration, /help and the Telegram menu; unknown commands; the error handler."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from harness import Table
from telegram.ext import CommandHandler

from bot.commands import COMMANDS, bot_commands
from bot.i18n import t
from bot.ledger.play import books, groups

PRODUCT_COMMANDS = {
    "newgame",
    "join",
    "seat",
    "dealer",
    "roll",
    "hu",
    "draw",
    "escape",
    "adjust",
    "undo",
    "edit",
    "score",
    "ledger",
    "end",
    "history",
    "stats",
    "rules",
    "calc",
    "ting",
    "help",
    "lang",
}


def test_the_table_has_every_command_of_the_product_once() -> None:
    names = [c.name for c in COMMANDS]
    assert len(names) == len(set(names))
    assert set(names) >= PRODUCT_COMMANDS


def test_every_command_is_registered_from_the_table(bot_settings: Any) -> None:
    from bot.app import build_application

    app = build_application(bot_settings)
    registered = {
        name
        for handlers in app.handlers.values()
        for h in handlers
        if isinstance(h, CommandHandler)
        for name in h.commands
    }
    assert registered == {c.name for c in COMMANDS}


def test_application_has_rate_limiter_string_buttons_and_base_url(bot_settings: Any) -> None:
    from bot.app import TelegramRateLimiter, build_application

    settings = bot_settings.model_copy(update={"telegram_base_url": "http://127.0.0.1:8081/bot"})
    app = build_application(settings)
    assert isinstance(app.bot.rate_limiter, TelegramRateLimiter)
    assert app.bot.callback_data_cache is None  # buttons carry short strings: nothing to keep
    assert app.bot.base_url == "http://127.0.0.1:8081/bot123:TEST"
    assert app.bot.base_file_url == "http://127.0.0.1:8081/file/bot123:TEST"
    assert app.job_queue is not None
    assert app.bot_data["ledger"] is not None


async def test_menu_is_set_from_the_table_in_two_languages(table: Table) -> None:
    calls = table.calls("setMyCommands")
    by_language = {c.params.get("language_code"): c.params["commands"] for c in calls}
    assert set(by_language) == {None, "en"}
    for code, lang in ((None, "zh-Hans"), ("en", "en")):
        commands = by_language[code]
        if isinstance(commands, str):
            import json

            commands = json.loads(commands)
        assert [c["command"] for c in commands] == [c.name for c in COMMANDS if c.menu]
        assert [c["description"] for c in commands] == [b.description for b in bot_commands(lang)]


async def test_help_lists_every_command_with_examples(table: Table) -> None:
    turn = await table.say("eve", "/help")
    for command in (c for c in COMMANDS if c.menu):  # /start is a deep link's, not a menu's
        assert f"/{command.name} — {t('zh-Hans', f'cmd.{command.name}')}" in turn.text
    assert "/hu 南 自摸 5花 清一色" in turn.text


async def test_unknown_command_says_so_and_records_nothing(seated_table: Table) -> None:
    turn = await seated_table.say("bob", "/hulala 南 自摸")
    assert turn.text == "没有 /hulala 这个命令。发 /help 看所有命令。"
    turn = await seated_table.say("bob", "/hulala@some_other_bot 南 自摸")
    assert turn.calls == []


async def test_commands_addressed_to_this_bot_work(seated_table: Table) -> None:
    me = seated_table.app.bot.username
    turn = await seated_table.say("bob", f"/score@{me}")
    assert turn.text.startswith("本场积分")


async def test_plain_chat_is_ignored(seated_table: Table) -> None:
    turn = await seated_table.say("bob", "南 自摸 5花 清一色")
    assert turn.calls == []


async def test_error_handler_logs_without_the_token_and_tells_the_chat(
    bot_settings: Any, transport: Any, caplog: pytest.LogCaptureFixture
) -> None:
    from bot.app import build_application

    app = build_application(bot_settings, request=transport, get_updates_request=transport)

    async def broken(update: Any, context: Any) -> None:
        raise RuntimeError(f"request to https://api.telegram.org/bot{context.bot.token}/sendMessage failed")

    app.add_handler(CommandHandler("broken", broken), group=-2)
    table = await Table.start(app, transport, strict=False)
    try:
        with caplog.at_level(logging.ERROR):
            turn = await table.say("ann", "/broken")
        assert turn.texts[0] == "出错了，已记录。请稍后再试。"
        logged = "\n".join(r.getMessage() for r in caplog.records)
        assert "RuntimeError" in logged and "<token>" in logged
        assert "123:TEST" not in logged
    finally:
        await table.stop()


def test_redacting_filter_scrubs_messages_and_tracebacks() -> None:
    from bot.handlers.errors import RedactingFilter

    try:
        raise ValueError("https://api.telegram.org/bot42:SECRET/getUpdates")
    except ValueError:
        import sys

        record = logging.LogRecord(
            "x", logging.ERROR, __file__, 1, "token %s", ("42:SECRET",), sys.exc_info()
        )
    RedactingFilter("42:SECRET").filter(record)
    assert "42:SECRET" not in record.getMessage()
    assert "bot<token>/getUpdates" in record.getMessage()


async def test_a_button_whose_data_the_bot_does_not_know_says_so(seated_table: Table) -> None:
    await seated_table.say("bob", "/hu 南 自摸 5花 清一色")
    for data in ("pc:nothex", "garbage", "f:1:zzzz:0:0"):
        update = seated_table.state.press(seated_table.chat_id, "cat", None, "✅ 确认")
        update["callback_query"]["data"] = data
        turn = await seated_table._run(update)
        assert turn.answers == ["这个按钮已经过期了，请重新发 /hu。"], data
    # Well-formed data that the pressed message does not carry acts on nothing.
    update = seated_table.state.press(seated_table.chat_id, "cat", None, "✅ 确认")
    update["callback_query"]["data"] = "pc:" + "0" * 32
    turn = await seated_table._run(update)
    assert turn.answers == ["这个按钮不属于这个群。"]
    ledger = seated_table.app.bot_data["ledger"]
    assert ledger.read(books.hands, groups.chat_state(ledger, seated_table.chat_id).session.id) == []
