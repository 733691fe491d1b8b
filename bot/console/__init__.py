"""Console mode: a Telegram group chat in the terminal, with the real bot behind the in-process Bot API."""

from __future__ import annotations

import asyncio
import json
import re
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO
from urllib.parse import urlencode

from bot.app import build_application
from bot.console.driver import AnyApplication, deliver, start_application, stop_application
from bot.console.state import JSON, BotAPIState, Call
from bot.console.transport import InProcessBotAPI
from bot.i18n import DEFAULT_LANGUAGE, t
from bot.ledger.errors import LedgerError
from bot.ledger.play import groups
from bot.services import ledger_in
from bot.webapp.server import LocalServer, build_web
from bot.webauth import group_token, sign_init_data, table_token

if TYPE_CHECKING:
    from bot.ledger import SessionInfo
    from bot.settings import Settings

__all__ = ["CONSOLE_CHAT_ID", "InProcessBotAPI", "run_console", "run_console_async"]

CONSOLE_CHAT_ID = -1001000000001
_LINE = re.compile(r"^\s*@?(?P<name>[A-Za-z0-9_\u3400-\u9fff]{1,32})\s*[:：]\s?(?P<text>.*)$")
_PRESS = re.compile(r"^\[(?P<label>.+)\]$")
# More message ids than the bot sends while handling one update (a result, card, chart, CSV, ...).
LOST_MESSAGE_IDS = 1000


def group_language(app: AnyApplication) -> str:
    """The console group's language as the ledger has it (/lang), for the lines the console prints about
    the bot's pins and deletions; the default before the group is known."""
    try:
        return groups.chat_state(ledger_in(app.bot_data), CONSOLE_CHAT_ID).group.language
    except LedgerError:
        return DEFAULT_LANGUAGE


class ConsolePrinter:
    """Prints what the bot does in the chat: texts, [buttons], edits, pins, dice, saved files."""

    def __init__(
        self, out: TextIO, files_dir: Path, chat_id: int, language: Callable[[], str] | None = None
    ) -> None:
        self.out = out
        self.files_dir = files_dir
        self.chat_id = chat_id
        self.language = language or (lambda: DEFAULT_LANGUAGE)  # the group's, for the bot's own lines

    def __call__(self, kind: str, payload: Any) -> None:
        if kind == "call":
            self.show(payload)

    def _print(self, head: str, body: str = "", markup: JSON | None = None) -> None:
        lines = body.splitlines() or [""]
        pad = " " * (len(head) + 1)
        text = f"{head} {lines[0]}".rstrip() + "".join(f"\n{pad}{line}" for line in lines[1:])
        rows = (markup or {}).get("inline_keyboard") or []
        for row in rows:
            text += "\n" + pad + " ".join(f"[{b.get('text', '')}]" for b in row)
        print(text, file=self.out, flush=True)

    def _save(self, call: Call, part: str, message: JSON) -> Path:
        upload = call.files.get(part) or next(iter(call.files.values()), None)
        self.files_dir.mkdir(parents=True, exist_ok=True)
        filename = Path(upload.filename if upload else f"{part}.bin").name
        if part == "photo":  # PTB names an unnamed upload after its MIME type; a chat shows a picture
            content = upload.content if upload else b""
            ext = ".png" if content.startswith(b"\x89PNG") else Path(filename).suffix or ".jpg"
            filename = "photo" + ext
        path = self.files_dir / f"{message['message_id']}-{filename}"
        path.write_bytes(upload.content if upload else b"")
        return path

    def show(self, call: Call) -> None:
        method, result = call.method, call.result
        if not call.ok:
            if method not in ("getChatMember", "getChatAdministrators", "getChat"):
                self._print("bot ✗", f"{method}: {call.description}")
            return
        if not isinstance(result, dict) or "message_id" not in result:
            if method == "pinChatMessage":
                self._print(f"bot 📌 #{call.params.get('message_id')}", t(self.language(), "console.pinned"))
            elif method == "unpinChatMessage":
                message_id = call.params.get("message_id", "")
                self._print(f"bot 📌 #{message_id}", t(self.language(), "console.unpinned"))
            elif method == "answerCallbackQuery" and call.params.get("text"):
                self._print("bot 💬", str(call.params["text"]))
            elif method == "deleteMessage":
                self._print(f"bot 🗑 #{call.params.get('message_id')}", t(self.language(), "console.deleted"))
            return
        head = f"bot #{result['message_id']}"
        if method.startswith("edit"):
            self._print(
                f"bot ✎ #{result['message_id']}",
                result.get("text") or result.get("caption") or "",
                result.get("reply_markup"),
            )
        elif "dice" in result:
            dice = result["dice"]
            self._print(f"bot 🎲 #{result['message_id']}", f"{dice['emoji']} {dice['value']}")
        elif "photo" in result:
            path = self._save(call, "photo", result)
            self._print(
                f"bot 🖼 #{result['message_id']}",
                f"{path}\n{result.get('caption', '')}".rstrip(),
                result.get("reply_markup"),
            )
        elif "document" in result:
            path = self._save(call, "document", result)
            self._print(
                f"bot 📎 #{result['message_id']}",
                f"{path}\n{result.get('caption', '')}".rstrip(),
                result.get("reply_markup"),
            )
        else:
            self._print(head, result.get("text", ""), result.get("reply_markup"))


class ConsoleChat:
    """Turns console lines into Updates for the application, one at a time, in order."""

    def __init__(
        self, app: AnyApplication, transport: InProcessBotAPI, chat_id: int, out: TextIO, snapshot_path: Path
    ) -> None:
        self.app = app
        self.transport = transport
        self.state = transport.state
        self.chat_id = chat_id
        self.out = out
        self.snapshot_path = snapshot_path
        self.picker_url: str | None = None  # the local picker page, once its server runs

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    async def handle_line(self, line: str) -> None:
        line = line.strip()
        if not line or line.startswith("#"):
            return
        if line.startswith(":"):
            self.control(line[1:].split())
            return
        match = _LINE.match(line)
        if not match:
            self.say(t(DEFAULT_LANGUAGE, "console.bad_line"))
            return
        name, text = match.group("name"), match.group("text").strip()
        chat = self.state.chat(self.chat_id)
        if chat.creator is None:  # whoever speaks first created the group, as in a real chat
            chat.creator = self.state.user(name)["id"]
        press = _PRESS.match(text)
        if press:
            try:
                update = self.state.press(self.chat_id, name, None, press.group("label").strip())
            except (KeyError, ValueError) as exc:
                self.say(f"？ {exc.args[0] if exc.args else exc}")
                return
        elif text:
            update = self.state.message(self.chat_id, name, text)
        else:
            return
        # Saved before the bot sees the update: after a kill -9 at any point the next line gets a new
        # update id and message id, never the one of an update the bot may already have handled (and keyed
        # its writes by), which it would take for a redelivery and drop.
        self.save(delivering=update["update_id"])
        await deliver(self.app, update)
        self.save()

    def control(self, words: list[str]) -> None:
        if not words or words[0] == "help":
            self.say(t(DEFAULT_LANGUAGE, "console.help"))
        elif words[0] == "admin" and len(words) == 2:
            chat = self.state.chat(self.chat_id)
            admins = [self.state.users_by_id[uid] for uid in chat.admins if uid in self.state.users_by_id]
            self.state.set_admins(self.chat_id, [*admins, words[1]])
            self.say(t(DEFAULT_LANGUAGE, "console.admin", name=words[1]))
        elif words[0] == "app" and len(words) == 2:
            self.say(self.picker_line(words[1]))
        elif words[0] == "season" and len(words) == 2:
            self.say(self.season_line(words[1]))
        elif words[0] == "pin" and len(words) == 2 and words[1] in ("on", "off"):
            self.state.set_can_pin(self.chat_id, words[1] == "on")
            self.say(t(DEFAULT_LANGUAGE, "console.pin_on" if words[1] == "on" else "console.pin_off"))
        else:
            self.say(t(DEFAULT_LANGUAGE, "console.control_usage"))

    def picker_line(self, name: str) -> str:
        """The picker page's local URL for `name`, with initData signed as Telegram would for that user
        (and the open table's token as its start parameter)."""
        if self.picker_url is None:
            return t(DEFAULT_LANGUAGE, "console.no_picker")
        ledger = ledger_in(self.app.bot_data)
        state = groups.chat_state(ledger, self.chat_id)
        url = picker_url(self.picker_url, self.app.bot.token, self.state.user(name), state.session)
        return t(state.group.language, "webapp.console_url", name=name, url=url)

    def season_line(self, name: str) -> str:
        """The season page's local URL for `name`, signed in as that user, with the group's token."""
        if self.picker_url is None:
            return t(DEFAULT_LANGUAGE, "console.no_picker")
        lang = group_language(self.app)
        url = season_url(self.picker_url, self.app.bot.token, self.state.user(name), self.chat_id)
        return t(lang, "webapp.season_console_url", name=name, url=url)

    def save(self, *, delivering: int | None = None) -> None:
        """Writes the chat snapshot atomically; `delivering` marks it as taken while the bot handles that
        update (see load_state)."""
        data = self.state.snapshot()
        if delivering is not None:
            data["delivering"] = delivering
        self.snapshot_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.snapshot_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        tmp.replace(self.snapshot_path)


def picker_port(settings: Settings) -> int:
    """The console's picker port: WEBAPP_PORT when it is set, else any free one (several consoles and
    test runs share a machine)."""
    return settings.webapp_port if "webapp_port" in settings.model_fields_set else 0


def picker_url(page: str, token: str, user: JSON, session: SessionInfo | None) -> str:
    """The page's URL with `tgWebAppData` in its fragment, as Telegram opens a Mini App: initData signed
    for `user` now, naming the open table (if any) as its start parameter."""
    start = table_token(token, session.chat_id, session.id) if session is not None else None
    return _signed_url(page, token, user, start)


def season_url(page: str, token: str, user: JSON, chat_id: int) -> str:
    """The season page's URL (beside the picker's `page`), signed for `user` now, the group's token as
    its start parameter (as the /season button opens it)."""
    return _signed_url(page.rstrip("/") + "/season/", token, user, group_token(token, chat_id))


def _signed_url(page: str, token: str, user: JSON, start: str | None) -> str:
    person = {"id": user["id"], "first_name": user.get("first_name") or str(user["id"])}
    if user.get("username"):
        person["username"] = user["username"]
    fields = {"auth_date": str(int(time.time())), "user": json.dumps(person, ensure_ascii=False)}
    if start is not None:
        fields["start_param"] = start
    return f"{page}#" + urlencode({"tgWebAppData": sign_init_data(token, fields), "tgWebAppVersion": "8.0"})


def load_state(snapshot_path: Path) -> BotAPIState:
    """The console's chat as the last run left it (a fresh state without a snapshot).

    A snapshot marked `delivering` is from a run that died while the bot handled an update: the messages
    the bot sent meanwhile are not in it, so each chat's message ids skip LOST_MESSAGE_IDS ahead rather
    than hand out again ids the bot may have stored (its pinned card, a preview) for messages now gone."""
    state = BotAPIState()
    if snapshot_path.exists():
        data = json.loads(snapshot_path.read_text(encoding="utf-8"))
        state.restore(data)
        if data.get("delivering") is not None:
            with state.lock:
                for chat in state.chats.values():
                    chat.next_message_id += LOST_MESSAGE_IDS
    return state


def _read_lines(stream: TextIO, loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[str | None]) -> None:
    try:
        for line in iter(stream.readline, ""):
            loop.call_soon_threadsafe(queue.put_nowait, line)
    finally:
        loop.call_soon_threadsafe(queue.put_nowait, None)


async def run_console_async(
    settings: Settings,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    transport: InProcessBotAPI | None = None,
    build: Callable[..., AnyApplication] | None = None,
) -> int:
    """Runs console mode until end of input; returns the exit status (0).

    `build(settings, request=..., get_updates_request=...)` defaults to `bot.app.build_application`.
    """
    if build is None:
        build = build_application

    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    console_dir = Path(settings.data_dir) / "console"
    snapshot_path = console_dir / "chat.json"
    if transport is None:
        transport = InProcessBotAPI(load_state(snapshot_path))
    if CONSOLE_CHAT_ID not in transport.state.chats:
        transport.add_group(CONSOLE_CHAT_ID, t(DEFAULT_LANGUAGE, "console.group_title"))
    app = build(settings, request=transport, get_updates_request=transport)
    # Telegram's flood limits (20 messages a minute in a group) would only stall a terminal session.
    app.bot._rate_limiter = None
    chat = ConsoleChat(app, transport, CONSOLE_CHAT_ID, out, snapshot_path)
    printer = ConsolePrinter(out, console_dir / "files", CONSOLE_CHAT_ID, lambda: group_language(app))
    unsubscribe = transport.state.subscribe(printer)
    interactive = stdin.isatty()
    if interactive:
        chat.say(t(DEFAULT_LANGUAGE, "console.help"))
    await start_application(app)
    web = LocalServer(build_web(app, settings, console=True), picker_port(settings))
    try:
        chat.picker_url = await web.start()
    except OSError as exc:
        chat.say(t(DEFAULT_LANGUAGE, "console.picker_failed", error=exc))
    # A daemon thread reads stdin: a blocked readline must not keep the process alive after Ctrl-C.
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    loop = asyncio.get_running_loop()
    reader = threading.Thread(target=_read_lines, args=(stdin, loop, lines), daemon=True)
    reader.start()
    try:
        while True:
            line = await lines.get()
            if line is None:
                break
            if not interactive and line.strip():
                chat.say(line.rstrip("\n"))
            await chat.handle_line(line)
    finally:
        await web.stop()
        await stop_application(app)
        unsubscribe()
        chat.save()
    return 0


def run_console(settings: Settings, *, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Console mode (no TELEGRAM_BOT_TOKEN): each line `name: message` goes to the bot as that user's group
    message, `name: [label]` presses a button; replies print as text with [buttons]. Ends at end of input."""
    try:
        return asyncio.run(run_console_async(settings, stdin=stdin, stdout=stdout))
    except KeyboardInterrupt:
        print(file=stdout or sys.stdout)
        return 0
