"""A hand's statements spell the values the partial indexes name (`status = 'open'`, `kind <> 'adjust'`)
into their SQL instead of binding them: SQLite re-prepares a statement on every execution when a bound
value in its WHERE clause could let it choose a partial index, which cost about 50 µs a look-up (ten
times the look-up) on each of a hand's three transactions."""

from __future__ import annotations

import re
from typing import Any

from ledger_helpers import CHAT, Table, pend, self_draw
from sqlalchemy import Engine, Index, event

from bot.ledger.play import groups, recording
from bot.ledger.storage.rows import HAND, SESSION


def partial_columns() -> set[str]:
    """`table.column` of every column a partial index's WHERE clause names."""
    named = set()
    for table in (SESSION, HAND):
        for index in table.indexes:
            assert isinstance(index, Index)
            where = index.dialect_options["sqlite"]["where"]
            if where is not None:
                named |= {
                    f"{table.name}.{word}" for word in re.findall(r"[a-z_]+", str(where)) if word in table.c
                }
    return named


def test_partial_indexes_are_known() -> None:
    assert {"table_session.status", "hand.voided", "hand.kind"} <= partial_columns()


def test_no_statement_of_a_hand_binds_a_value_a_partial_index_names(table: Table, engine: Engine) -> None:
    said: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        said.append(" ".join(statement.split()))

    event.listen(engine, "before_cursor_execute", record)
    try:
        ledger = table.ledger
        groups.chat_state(ledger, CHAT, table.users[1], people=True)
        entry = pend(ledger, CHAT, "hand", dict(self_draw("S", 5)), message_id=7)
        pressed = recording.press(
            ledger,
            entry.id,
            "confirm",
            chat_id=CHAT,
            message_id=7,
            by=table.users[1],
            as_admin=True,  # an entry stored with no pressers: pressed as an admin
        )
        assert pressed.done and pressed.result is not None and pressed.result.hand.number == 1
        recording.edit(ledger, CHAT, 1, self_draw("E", 5))  # 第1局 was East's self-draw
        recording.undo(ledger, CHAT)
    finally:
        event.remove(engine, "before_cursor_execute", record)
    # what chooses the plan: the WHERE clause (up to ORDER BY, GROUP BY, LIMIT) and the joins' ON clauses
    where = [
        re.split(r" (?:ORDER BY|GROUP BY|LIMIT) ", s.split(" WHERE ", 1)[1])[0] if " WHERE " in s else ""
        for s in said
    ]
    joins = [" ".join(re.findall(r" ON (.*?)(?: WHERE | JOIN |$)", s)) for s in said]
    bound = {
        column
        for column in partial_columns()
        for clause in (*where, *joins)
        if re.search(rf"{re.escape(column)} (=|!=|<>|IS|IS NOT) (\?|%\(|\$)", clause)
    }
    culprits = [c for c in (*where, *joins) if any(column in c for column in bound)]
    assert len(said) > 10 and bound == set(), culprits
