"""The network and the output: the token never printed, start-up waits for the Bot API, a
press on a photo is answered, every reply fits in a Telegram message, the CSV runs no formula."""

from __future__ import annotations

import csv
import io
import logging
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from harness import PLAYERS, Table, ledger
from telegram import Update
from telegram.error import NetworkError

from bot.buttons import HuFlow
from bot.console.transport import InProcessBotAPI
from bot.handlers.errors import RedactingFilter, redact
from bot.handlers.turn import Turn
from bot.ledger.play import books, groups, recording, seating, sessions
from bot.summary.csvfile import ledger_csv
from bot.summary.tally import build_report
from scoring.entry import Claim, build_entry

TOKEN = "4242424242:AAH-secret-token_value-abcdefghijklmn"
LIMIT = 4096


# ---- the token is never printed ---------------------------------------------------------------------


class EchoingUpstream(BaseHTTPRequestHandler):
    """A proxy's error page that echoes the request URL: 502 first (retried), then 404 (the end)."""

    hits = 0

    def do_POST(self) -> None:
        EchoingUpstream.hits += 1
        status = 502 if EchoingUpstream.hits == 1 else 404
        body = f"<html><h1>{status}</h1><p>upstream failed for {self.path}</p></html>".encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


@pytest.fixture
def upstream() -> Iterator[str]:
    EchoingUpstream.hits = 0
    server = ThreadingHTTPServer(("127.0.0.1", 0), EchoingUpstream)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/bot"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.slow
def test_the_token_is_not_in_the_output_when_upstream_echoes_the_url(upstream: str, tmp_path: Path) -> None:
    """`python -m bot` against an error page that echoes `/bot<token>/getMe`: the 502 is retried (logged),
    the 404 ends the bot (a rejected token, whose text names it) with exit 1; the token is printed nowhere."""
    env = {
        **os.environ,
        "TELEGRAM_BOT_TOKEN": TOKEN,
        "TELEGRAM_BASE_URL": upstream,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'bot.db'}",
        "DATA_DIR": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, "-m", "bot"], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    output = done.stdout + done.stderr
    assert EchoingUpstream.hits >= 2, output
    assert done.returncode == 1, output
    assert "Bot API unreachable" in output and "<token>/getMe" in output, output
    secret_part = TOKEN.split(":")[1]
    assert TOKEN not in output and secret_part not in output, output


def test_log_records_and_tracebacks_lose_the_token() -> None:
    try:
        try:
            raise NetworkError(f"Bad Gateway. Parsing the server response b'/bot{TOKEN}/getMe' failed")
        except NetworkError as exc:
            raise RuntimeError(f"start-up failed ({TOKEN.replace(':', '%3A')})") from exc
    except RuntimeError:
        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed: %s", (TOKEN,), sys.exc_info())
    RedactingFilter(TOKEN).filter(record)
    text = record.getMessage()
    assert TOKEN not in text and "%3A" not in text.split("<token>")[-1] and text.count("<token>") >= 3
    assert redact(f"https://api.telegram.org/bot{TOKEN}/getMe", TOKEN).endswith("/bot<token>/getMe")


# ---- start-up with the Bot API unreachable ----------------------------------------------------------


class FlakyStart(InProcessBotAPI):
    """The Bot API that is unreachable for the first `failures` getMe calls."""

    def __init__(self, failures: int) -> None:
        super().__init__(seed=0)
        self.failures = failures
        self.get_me_tries = 0

    async def do_request(self, url: str, method: str, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        if url.rstrip("/").endswith("/getMe"):
            self.get_me_tries += 1
            if self.get_me_tries <= self.failures:
                raise NetworkError("connection refused")
        return await super().do_request(url, method, *args, **kwargs)


async def test_start_up_waits_for_the_bot_api_with_backoff(
    bot_settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.app import BotApplication, build_application

    waits: list[float] = []

    async def no_wait(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr("bot.app.asyncio.sleep", no_wait)
    transport = FlakyStart(failures=4)
    app = build_application(bot_settings, request=transport, get_updates_request=transport)
    assert isinstance(app, BotApplication)
    table = await Table.start(app, transport)
    try:
        assert transport.get_me_tries == 5
        assert waits == [1.0, 2.0, 4.0, 8.0]  # doubling, capped at STARTUP_MAX_DELAY
        turn = await table.say("ann", "/help")
        assert turn.texts
    finally:
        await table.stop()


async def test_start_up_gives_up_after_the_set_attempts(
    bot_settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.app import build_application

    async def no_wait(_seconds: float) -> None:
        return None

    monkeypatch.setattr("bot.app.asyncio.sleep", no_wait)
    transport = FlakyStart(failures=100)
    app = build_application(bot_settings, request=transport, get_updates_request=transport)
    app.startup_attempts = 3  # type: ignore[attr-defined]
    with pytest.raises(NetworkError):
        await app.initialize()
    assert transport.get_me_tries == 3


# ---- lost answers -----------------------------------------------------------------------------------


async def test_a_press_on_a_photo_is_answered(seated_table: Table) -> None:
    table = seated_table
    session = groups.chat_state(ledger(table), table.chat_id).session
    chat = table.state.chat(table.chat_id)
    with table.state.lock:
        photo = table.state.new_message(
            chat,
            table.state.bot_user,
            photo=[{"file_id": "p", "file_unique_id": "p", "width": 1, "height": 1}],
        )
    turn = await table.say("bob", "/hu")
    flow = HuFlow(session.id, "how", winner="S").data
    update = table.state.press(table.chat_id, "bob", turn.sent[0].message_id, 0)
    update["callback_query"]["message"] = dict(photo)
    update["callback_query"]["data"] = flow
    done = await table._run(update)
    assert done.answers == ["这个按钮已经过期了，请重新发 /hu。"]
    assert table.handler_errors == []


class LosesResults(InProcessBotAPI):
    """Sending a hand's one-line result fails (the request times out); everything else goes through."""

    async def do_request(self, url: str, method: str, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        data = args[0] if args else kwargs.get("request_data")
        params = data.json_parameters if data is not None else {}
        if url.endswith("/sendMessage") and str(params.get("text", "")).startswith("第1局"):
            raise NetworkError("timed out")
        return await super().do_request(url, method, *args, **kwargs)


async def test_a_lost_result_still_brings_the_card_up_to_date(bot_settings: Any) -> None:
    from bot.app import build_application

    transport = LosesResults(seed=0)
    app = build_application(bot_settings, request=transport, get_updates_request=transport)
    table = await Table.start(app, transport, strict=False)
    try:
        await table.say("ann", "/newgame 苏州 1")
        for name in PLAYERS:
            await table.say(name, "/join")
        await table.say("ann", "/rules instant on")
        await table.say("ann", "/dealer 东")
        await table.say("bob", "/hu 南 自摸 5花")
        assert (
            len(ledger(table).read(books.hands, groups.chat_state(ledger(table), table.chat_id).session.id))
            == 1
        )
        pinned = table.pinned()
        assert pinned is not None and "1 南 自摸" in pinned.text and "第2局" in pinned.text
    finally:
        await table.stop()


# ---- every reply fits -------------------------------------------------------------------------------


def sent_texts(table: Table) -> list[str]:
    """Every text the bot sent or edited in, as requested (refused ones too)."""
    return [
        str(c.params.get("text") or c.params.get("caption") or "")
        for c in table.state.calls
        if c.method in ("sendMessage", "editMessageText", "sendPhoto", "sendDocument")
    ]


@pytest.mark.slow
async def test_a_long_bad_input_is_quoted_as_a_short_excerpt(seated_table: Table) -> None:
    long_word = "x" * 4000
    commands = (
        "hu",
        "newgame",
        "draw",
        "rules",
        "join",
        "dealer",
        "",
        "schedule weekly",
        "adjust 东 南",
        "stats",
    )
    for text in [f"/{command} {long_word}".replace("/ ", "/") for command in (*commands, "edit", "score")]:
        turn = await seated_table.say("ann", text)
        assert turn.texts, text
        assert all(len(t) < 600 for t in turn.texts), (text[:20], [len(t) for t in turn.texts])
    assert not seated_table.failed()


@pytest.mark.slow
async def test_long_views_are_split_into_messages_that_fit(table: Table) -> None:
    """64 players with 16-character names over 16 sessions (and one long session): /stats, /history,
    /score, /ledger and /seat all answer, in messages of at most 4,096 characters."""
    book = ledger(table)
    chat = table.chat_id
    win = build_entry("self_draw", [Claim("S", hard_flowers=5)])
    for number in range(16):
        sessions.open_session(book, chat, stake=1_000_000)
        for seat in range(4):
            seating.join(book, chat, guest_name=f"{'长名字玩家' * 3}{number:02d}{seat}"[-16:])
        sessions.set_dealer(book, chat, "E")
        for _ in range(40 if number == 15 else 1):
            recording.commit(book, chat, win)
        if number < 15:
            sessions.end_session(book, chat)
    for text in ("/stats", "/history", "/score", "/ledger", "/seat", "/rules"):
        turn = await table.say("zoe", text)
        assert turn.texts, text
    assert len(book.read(books.player_stats, chat)) == 64
    assert not table.failed(), [c.description for c in table.failed()]
    assert max(len(t) for t in sent_texts(table)) <= LIMIT


async def test_one_very_long_reply_goes_out_in_pieces(seated_table: Table) -> None:
    """`Turn.say` is the one place: a text over the bound is split at line ends, buttons on the last."""
    update = seated_table.state.message(seated_table.chat_id, "ann", "/score")
    parsed = Update.de_json(update, seated_table.app.bot)
    context = type("Ctx", (), {"bot": seated_table.app.bot, "bot_data": seated_table.app.bot_data})()
    turn = await Turn.start(parsed, context, "score")  # type: ignore[arg-type]
    before = len(seated_table.state.calls)
    text = "\n".join(f"第{i}行 " + "字" * 50 for i in range(300))
    await turn.say(text)
    sent = [c for c in seated_table.state.calls[before:] if c.method == "sendMessage"]
    assert len(sent) >= 4 and all(c.ok for c in sent)
    assert "\n".join(str(c.params["text"]) for c in sent) == text


# ---- CSV runs no formula ----------------------------------------------------------------------------


async def test_csv_text_cells_that_look_like_formulas_are_escaped(table: Table) -> None:
    book = ledger(table)
    chat = table.chat_id
    sessions.open_session(book, chat)
    for name in ("=HYPERLINK(1)", "+SUM(A1)", "-2+3", "@cmd"):
        seating.join(book, chat, guest_name=name)
    sessions.set_dealer(book, chat, "E")
    seats = groups.chat_state(book, chat).session.seats
    recording.adjust(book, chat, seats["E"].id, seats["S"].id, 50, note="=1+1")
    recording.adjust(book, chat, seats["W"].id, seats["N"].id, 7, note="\rnote")
    session = groups.chat_state(book, chat).session
    data = ledger_csv(build_report(book, session.id), "en").decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(data)))
    players = {row[6] for row in rows[1:]}  # the columns: ... player, player id, amount, ... note (13)
    assert players == {"'=HYPERLINK(1)", "'+SUM(A1)", "'-2+3", "'@cmd"}
    notes = {row[13] for row in rows[1:]}
    assert notes == {"'=1+1", "'\rnote"}
    amounts = {row[8] for row in rows[1:]}
    assert {"-50", "50", "-7", "7", "0"} <= amounts  # numbers stay numbers, a minus sign unescaped
