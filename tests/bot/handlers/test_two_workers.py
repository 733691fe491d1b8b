"""Two webhook workers on one PostgreSQL database, one Telegram: a /hu goes to one worker and its Confirm
to the other at once, as soon as the preview is in the chat (before the first worker is done with it).
Every hand is recorded (an entry exists before its Confirm can be seen on any worker), and every table's
pinned card ends on the ledger's last state however the workers' edits reach Telegram."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from harness import GROUP_ID, Table, make_settings, seat_four

from bot.app import build_application
from bot.console.driver import deliver, settle
from bot.console.transport import InProcessBotAPI
from bot.ledger import Ledger
from bot.ledger.play import books, groups
from bot.render import table_card

CONFIRM = "✅ 确认"
TABLES, HANDS = 3, 4
HUS = ["/hu 东 自摸 5花", "/hu 南 冲 西 6花", "/hu 西 自摸 4花", "/hu 北 冲 东 7花", "/hu 南 自摸 8花"]


class Worker(InProcessBotAPI):
    """One worker's Bot API connection: its card edits take `card_delay` seconds to reach Telegram, and a
    preview with Confirm it sends is pressed by Bob at once, on the worker `confirm_on` names."""

    def __init__(self, state: Any, card_delay: float) -> None:
        super().__init__(state)
        self.card_delay = card_delay
        self.confirm_on: dict[int, Any] = {}  # chat -> the application its next Confirm is delivered to
        self.presses: dict[int, list[asyncio.Task[Any]]] = {}

    async def do_request(self, url: str, method: str, request_data: Any = None, *args: Any, **kw: Any) -> Any:
        name = url.rstrip("/").rsplit("/", 1)[-1]
        params = request_data.json_parameters if request_data is not None else {}
        if name.startswith("edit") and self.is_card(params):
            await asyncio.sleep(self.card_delay)
        status, body = await super().do_request(url, method, request_data, *args, **kw)
        if name == "sendMessage" and status == 200:
            sent = json.loads(body)["result"]
            labels = [
                b["text"] for row in sent.get("reply_markup", {}).get("inline_keyboard", []) for b in row
            ]
            if CONFIRM in labels:
                chat = sent["chat"]["id"]
                press = self.state.press(chat, "bob", sent["message_id"], CONFIRM)
                target = self.confirm_on[chat]
                self.presses.setdefault(chat, []).append(asyncio.create_task(deliver(target, press)))
        return status, body

    def is_card(self, params: Any) -> bool:
        chat_id, message_id = params.get("chat_id"), params.get("message_id")
        if chat_id is None or message_id is None:
            return False
        return int(message_id) in self.state.chat(int(chat_id)).pinned


@pytest.mark.slow
async def test_confirms_on_the_other_worker_record_every_hand_and_cards_end_on_the_last_state(
    pg_url: str, tmp_path: Path
) -> None:
    first = Worker(None, card_delay=0.0)
    second = Worker(first.state, card_delay=0.0)
    apps = [
        build_application(make_settings(pg_url, tmp_path), request=t, get_updates_request=t)
        for t in (first, second)
    ]
    chats = [GROUP_ID - n for n in range(TABLES)]
    for chat in chats[1:]:
        first.add_group(chat, f"桌{chat}", creator="zoe")
    started = [await Table.start(apps[0], first, chat_id=chats[0]), await Table.start(apps[1], second)]
    try:
        tables = {
            chat: [Table(app, t, chat) for app, t in zip(apps, (first, second), strict=True)]
            for chat in chats
        }
        for chat in chats:
            await seat_four(tables[chat][0])
        first.card_delay = 0.6  # from now on its card edits reach Telegram after the next hand's

        async def play(chat: int) -> None:
            ledger: Ledger = apps[0].bot_data["ledger"]
            session = groups.chat_state(ledger, chat).session
            assert session is not None
            for n in range(HANDS):
                # Every /hu on the second worker; every other Confirm on the first, at once (its card
                # edit slow), the others on the second, whose next card edit then lands first.
                second.confirm_on[chat] = apps[0] if n % 2 == 0 else apps[1]
                await tables[chat][1].say("ann", HUS[n])
                # Players wait for the result (the Confirm, on the other worker), not for its card edit.
                while len(await asyncio.to_thread(ledger.read, books.hands, session.id)) < n + 1:
                    await asyncio.sleep(0.005)

        await asyncio.gather(*(play(chat) for chat in chats))
        while any(not t.done() for w in (first, second) for ts in w.presses.values() for t in ts):
            await asyncio.sleep(0.01)
        for app in apps:
            await settle(app)
        ledger: Ledger = apps[0].bot_data["ledger"]
        for chat in chats:
            session = groups.chat_state(ledger, chat).session
            assert session is not None
            assert len(ledger.read(books.hands, session.id)) == HANDS, chat
            card = tables[chat][0].pinned()
            assert card is not None
            assert card.text == table_card("zh-Hans", ledger.read(books.session_card, session.id)), chat
        refused = [c for c in first.state.calls if not c.ok and c.method.startswith("edit")]
        not_modified = [c for c in refused if "not modified" in json.dumps(c.result, ensure_ascii=False)]
        assert len(not_modified) <= TABLES * HANDS // 4, len(not_modified)
    finally:
        for table in started:
            await table.stop()
