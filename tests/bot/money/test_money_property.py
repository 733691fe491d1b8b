"""Whose money is this? Random sequences of hands, substitutions, edits, undos and adjustments, typed into
the real Application, leave every person's net equal to a recomputation of our own: the rows the table
should hold, each with the seating it was played at, scored by the scoring core and added up by person.
On SQLite and PostgreSQL (one group chat per example on one running bot)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import pytest
from budget import examples
from harness import Table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scoring
from bot.ledger.play import books

SEAT_WORDS = {"E": "东", "S": "南", "W": "西", "N": "北"}
MEMBERS = ("ann", "bob", "cat", "dan", "eve")  # Telegram users: /sub names them by @username
GUESTS = ("老王", "小李")
_chats = itertools.count(-1002000000001, -1)

seat = st.sampled_from("ESWN")
win = st.tuples(seat, st.booleans(), st.integers(1, 3), st.integers(4, 9))  # winner, 自摸, discarder, 花
entry = st.one_of(win, st.just("draw"))
hand = st.tuples(st.just("hand"), entry)
sub = st.tuples(st.just("sub"), st.tuples(seat, st.sampled_from(MEMBERS + GUESTS)))
edit = st.tuples(st.just("edit"), st.tuples(st.integers(0, 9), entry))
undo = st.tuples(st.just("undo"), st.none())
adjust = st.tuples(st.just("adjust"), st.tuples(seat, st.integers(1, 3), st.integers(1, 50)))
# Corrections after a change of seats are the point: a few hands, then seats change, then anything.
operations = st.tuples(
    st.lists(st.one_of(hand, adjust), min_size=1, max_size=4),
    st.lists(sub, min_size=1, max_size=2),
    st.lists(st.one_of(hand, hand, sub, edit, edit, undo, adjust), min_size=1, max_size=8),
).map(lambda parts: [op for part in parts for op in part])


def words(spec: Any) -> str:
    """An entry as a table types it: `南 自摸 5花`, `南 冲 西 5花`, `荒庄`."""
    if spec == "draw":
        return "荒庄"
    winner, self_draw, offset, hua = spec
    if self_draw:
        return f"{SEAT_WORDS[winner]} 自摸 {hua}花"
    return f"{SEAT_WORDS[winner]} 冲 {SEAT_WORDS[_after(winner, offset)]} {hua}花"


def _after(seat_letter: str, offset: int) -> str:
    return "ESWN"[("ESWN".index(seat_letter) + offset) % 4]


def request_entry(spec: Any) -> dict[str, Any]:
    """The same entry as docs/rules.md §4 writes it."""
    if spec == "draw":
        return {"event": "draw"}
    winner, self_draw, offset, hua = spec
    declared = {"hard_flowers": hua}
    if self_draw:
        return {"event": "win", "wins": [{"winner": winner, "type": "self_draw", "declared": declared}]}
    discarder = _after(winner, offset)
    wins = [{"winner": winner, "type": "discard", "declared": declared}]
    return {"event": "win", "discarder": discarder, "wins": wins}


@dataclass
class Model:
    """The rows the table should hold: (entry or adjustment, the seating it was played at)."""

    seating: dict[str, str] = field(default_factory=lambda: {"E": "Ann", "S": "Bob", "W": "Cat", "N": "Dan"})
    rows: list[tuple[str, Any, dict[str, str]]] = field(default_factory=list)

    def hands(self) -> list[int]:
        return [i for i, (kind, _spec, _seating) in enumerate(self.rows) if kind == "hand"]

    def money(self) -> dict[str, int]:
        """Each person's net: every row scored (the dealer state carried row to row) and paid to the
        people of its own seating."""
        state: dict[str, Any] = {
            "dealer": "E",
            "streak": 0,
            "diling": False,
            "round_wind": "E",
            "hand_number": 1,
            "first_dealer": "E",
        }
        nets: dict[str, int] = {}
        for kind, spec, seating in self.rows:
            if kind == "adjust":
                payer, offset, amount = spec
                payments = {payer: -amount, _after(payer, offset): amount}
            else:
                request = {"rules": "suzhou", "stake": 1, **state, **request_entry(spec)}
                response = scoring.score_request(request)
                payments = response["payments"]
                state = {
                    **state,
                    "dealer": response["next_dealer"],
                    "streak": response["next_streak"],
                    "diling": response["next_diling"],
                    "round_wind": response["next_round_wind"],
                    "hand_number": response["next_hand_number"],
                }
            for seat_letter, amount in payments.items():
                nets[seating[seat_letter]] = nets.get(seating[seat_letter], 0) + amount
        return nets


def display(name: str) -> str:
    return name.capitalize() if name in MEMBERS else name


async def play(table: Table, model: Model, op: str, arg: Any) -> None:
    """One step, typed by the group's admin (zoe, never seated) in an `instant` group, and its effect on
    the model when the bot accepts it."""
    if op == "hand":
        await table.say("zoe", f"/hu {words(arg)}" if arg != "draw" else "/draw")
        model.rows.append(("hand", arg, dict(model.seating)))
    elif op == "sub":
        where, who = arg
        name = display(who)
        turn = await table.say("zoe", f"/sub {SEAT_WORDS[where]} {'@' + who if who in MEMBERS else who}")
        label = f"按客人 {who} 入座"  # a guest the group has not had yet: asked first, and answered
        if any(label in reply.buttons for reply in turn.sent):
            await table.press("zoe", label)
        if name not in model.seating.values():
            model.seating[where] = name
    elif op == "edit":
        hands = model.hands()
        if hands:
            index, spec = arg
            number = index % len(hands) + 1
            await table.say("zoe", f"/edit {number} {words(spec)}")
            row = hands[number - 1]
            model.rows[row] = ("hand", spec, model.rows[row][2])
    elif op == "undo":
        if model.rows:
            await table.say("zoe", "/undo")
            await table.press("zoe", "撤销")
            model.rows.pop()
    else:
        payer, offset, amount = arg
        await table.say("zoe", f"/adjust {SEAT_WORDS[payer]} {SEAT_WORDS[_after(payer, offset)]} {amount}")
        model.rows.append(("adjust", arg, dict(model.seating)))


async def new_table(table: Table) -> Table:
    chat = next(_chats)
    table.transport.add_group(chat, "属性桌", creator="zoe")
    group = Table(table.app, table.transport, chat)
    await group.say("ann", "/newgame 苏州 1")
    for name in ("ann", "bob", "cat", "dan"):
        await group.say(name, "/join")
    await group.say("eve", "/score")  # eve is known to the group: /sub can name her
    await group.say("zoe", "/dealer 东")
    await group.say("zoe", "/rules instant on")
    return group


@pytest.mark.slow
@settings(max_examples=examples(15), suppress_health_check=list(HealthCheck))
@given(ops=operations)
async def test_everyone_keeps_their_own_money(db_table: Table, ops: list[tuple[str, Any]]) -> None:
    table = await new_table(db_table)
    model = Model()
    for op, arg in ops:
        await play(table, model, op, arg)
    report = table.app.bot_data["ledger"].read(books.standings, table.chat_id)
    ledger = {row.player.name: row.net for row in report.session_rows if row.net}
    expected = {name: net for name, net in model.money().items() if net}
    assert ledger == expected, f"{ops}\n{table.last_text()}"
