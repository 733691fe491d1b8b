"""One group's failing idle end never keeps another group's table open: each table's end is its own, the
failure is logged and tried again after a back-off. Through the real Application and its idle sweep, on
SQLite and PostgreSQL; each group's money by hand."""

from __future__ import annotations

from typing import Any

import pytest
from harness import Clock, Table, seat_four

from bot.ledger import errors
from bot.ledger.money import settling
from bot.ledger.play import groups, sessions

OTHER = -1001000000777


def money(table: Table, chat_id: int) -> dict[str, int]:
    report = table.app.bot_data["ledger"].read(settling.balance, chat_id)
    names = {tr.payer.id: tr.payer.display_name for tr in report.transfers}
    names |= {tr.payee.id: tr.payee.display_name for tr in report.transfers}
    return {names[pid]: amount for pid, amount in report.totals.items()}


@pytest.mark.slow
async def test_a_failing_table_does_not_stop_the_idle_end_of_another_group(
    clocked: tuple[Table, Clock], monkeypatch: pytest.MonkeyPatch
) -> None:
    """In both groups Ann (东) self-draws 5 花, T = 10: Ann +30, Bob/Cat/Dan −10. Six idle hours later the
    first group's end fails (a broken ledger state); the other group's table ends and settles all the same.
    The failing one is not tried again within the minute, then it is; once it works, it settles too."""
    table, clock = clocked
    await seat_four(table)
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/hu 东 自摸 5花")
    table.transport.add_group(OTHER, "另一桌", creator="zoe")
    for name, text in [
        ("ann", "/newgame 苏州 1"),
        ("ann", "/join"),
        ("bob", "/join"),
        ("cat", "/join"),
        ("dan", "/join"),
        ("ann", "/dealer 东"),
        ("ann", "/rules instant on"),
        ("ann", "/hu 东 自摸 5花"),
    ]:
        await table._run(table.state.message(OTHER, name, text))
    ledger = table.app.bot_data["ledger"]
    broken = groups.chat_state(ledger, table.chat_id).session.id
    ending = sessions.end_if_idle
    tried: list[int] = []

    def failing(s: Any, session_id: int, *args: Any) -> Any:
        if session_id == broken:
            tried.append(session_id)
            raise errors.ZeroSumViolation("a broken table", total=10)
        return ending(s, session_id, *args)

    monkeypatch.setattr(sessions, "end_if_idle", failing)
    clock.advance(hours=6, minutes=1)
    await table.run_jobs("jobs:idle-end")
    assert tried == [broken]
    assert groups.chat_state(ledger, OTHER).session is None  # the other group's table ended
    assert money(table, OTHER) == {"Ann": 30, "Bob": -10, "Cat": -10, "Dan": -10}
    assert groups.chat_state(ledger, table.chat_id).session is not None
    await table.run_jobs("jobs:idle-end")
    assert tried == [broken]  # within the back-off: not tried again
    clock.advance(minutes=1, seconds=1)
    await table.run_jobs("jobs:idle-end")
    assert tried == [broken, broken]  # tried again, failing again: the wait doubles
    monkeypatch.setattr(sessions, "end_if_idle", ending)
    clock.advance(minutes=2, seconds=1)
    await table.run_jobs("jobs:idle-end")
    assert groups.chat_state(ledger, table.chat_id).session is None
    assert money(table, table.chat_id) == {"Ann": 30, "Bob": -10, "Cat": -10, "Dan": -10}
