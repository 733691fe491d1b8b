"""A played table session in the ledger, and a bare Application on the in-process Bot API, shared by the
summary and job tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from telegram.ext import Application, ApplicationBuilder

from bot.console.transport import InProcessBotAPI
from bot.ledger import Ledger, UserRef
from bot.ledger.play import groups, recording, seating, sessions
from scoring.entry import Claim, EntryJSON, How, build_entry

CHAT = -100777
PLAYERS = [
    UserRef(1, "张三", "zhangsan"),
    UserRef(2, "李四", "lisi"),
    UserRef(3, "王五", "wangwu"),
    UserRef(4, "Ann", "ann"),
]


def win(
    winner: str, how: str, patterns: list[str], *, hard: int = 5, discarder: str | None = None
) -> EntryJSON:
    """A quick-form entry: winner seat, self_draw/discard, 硬花 count and pattern words."""
    said: How = "discard" if how == "discard" else "self_draw"
    return build_entry(said, [Claim(winner, hard_flowers=hard, patterns=tuple(patterns))], other=discarder)


# 南 wins three in a row (连庄 after the first), a 荒庄, then 北 wins big on 东's discard, and a side payment.
HANDS = [
    win("S", "self_draw", ["清一色"]),
    win("S", "discard", ["清一色"], discarder="W"),
    win("S", "self_draw", ["七对"]),
    {"event": "draw"},
    win("N", "discard", ["清一色", "七对"], discarder="E"),
]


@dataclass
class Table:
    """A session played in the ledger: the service, the group and the session id."""

    ledger: Ledger
    chat_id: int
    session_id: int


def play(
    ledger: Ledger,
    chat_id: int = CHAT,
    hands: list[dict[str, Any]] | None = None,
    *,
    adjust: bool = True,
) -> Table:
    """Open a session with four players, E deals first, record `hands` (default HANDS) and a 茶水 payment."""
    session = sessions.open_session(ledger, chat_id, by=PLAYERS[0], stake=5)
    for user in PLAYERS:
        seating.join(ledger, chat_id, user)
    sessions.set_dealer(ledger, chat_id, "E")
    for i, entry in enumerate(HANDS if hands is None else hands):
        recording.commit(ledger, chat_id, entry, source_key=f"test:{session.id}:{i}")
    if adjust:
        east, west = (
            ledger.read(groups.find_player, chat_id, "E")[0],
            ledger.read(groups.find_player, chat_id, "W")[0],
        )
        recording.adjust(ledger, chat_id, east.id, west.id, 7, note="茶水")
    return Table(ledger, chat_id, session.id)


def build_app(api: InProcessBotAPI, **bot_data: Any) -> Application[Any, Any, Any, Any, Any, Any]:
    """A PTB Application (no updater) on the in-process Bot API (bot/console), with `bot_data` filled in."""
    builder = ApplicationBuilder().token("123456:TEST").request(api).get_updates_request(api)
    app = builder.updater(None).build()
    app.bot_data.update(bot_data)
    return app
