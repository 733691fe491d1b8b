"""Random tables of hands, undos, edits and adjustments keep the ledger whole; threads share one service."""

from __future__ import annotations

import itertools
import threading
from typing import Any

from budget import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ledger_helpers import DRAW, check_invariants, discard, seat_table, self_draw

from bot.ledger import Ledger, errors
from bot.ledger.play import books, recording, sessions

_chats = itertools.count(-5000, -1)

entries = st.one_of(
    st.builds(lambda w, h: self_draw(w, h, "清一色"), st.sampled_from("ESWN"), st.integers(0, 8)),
    st.builds(
        lambda w, d, h: discard(w, d, h), st.sampled_from("ESWN"), st.sampled_from("ESWN"), st.integers(0, 9)
    ),
    st.just(DRAW),
    st.builds(lambda e: {"event": "escape", "escaper": e}, st.sampled_from("ESWN")),
)
operations = st.lists(
    st.one_of(
        st.tuples(st.just("commit"), entries),
        st.tuples(st.just("undo"), st.none()),
        st.tuples(st.just("edit"), st.tuples(st.integers(1, 6), entries)),
        st.tuples(
            st.just("adjust"), st.tuples(st.sampled_from("ESWN"), st.sampled_from("ESWN"), st.integers(1, 50))
        ),
        st.tuples(st.just("baozi"), st.none()),
    ),
    min_size=1,
    max_size=8,
)


@settings(max_examples=examples(15), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=operations)
def test_any_sequence_of_operations_keeps_the_books_balanced(sqlite_ledger: Ledger, ops: list[Any]) -> None:
    chat = next(_chats)
    table = seat_table(sqlite_ledger, chat_id=chat, stake=2)
    ids = table.ids
    for kind, arg in ops:
        try:
            if kind == "commit":
                recording.commit(sqlite_ledger, chat, arg)
            elif kind == "undo":
                recording.undo(sqlite_ledger, chat)
            elif kind == "edit":
                recording.edit(sqlite_ledger, chat, arg[0], arg[1])
            elif kind == "adjust":
                recording.adjust(sqlite_ledger, chat, ids[arg[0]], ids[arg[1]], arg[2], note="random")
            else:
                sessions.mark_baozi(sqlite_ledger, chat)
        except (
            errors.InvalidEntry,
            errors.WinNotAllowed,
            errors.NothingToUndo,
            errors.HandNotFound,
            errors.InvalidValue,
        ):
            pass  # refused operations write nothing; the invariants below still hold
    check_invariants(sqlite_ledger, table.session.id)
    live = sqlite_ledger.read(books.hands, table.session.id)
    session = sessions.require_session(sqlite_ledger, chat)
    assert session.hands_played == sum(1 for h in live if h.kind != "adjust")
    if live:
        assert session.state.dealer == live[-1].after.dealer
        assert session.state.hand_number == live[-1].after.hand_number


def test_threads_committing_through_one_service(sqlite_ledger: Ledger) -> None:
    table = seat_table(sqlite_ledger, chat_id=-77)
    failures: list[BaseException] = []

    def worker(name: str) -> None:
        try:
            for k in range(5):
                recording.commit(
                    sqlite_ledger, -77, self_draw("ESWN"[k % 4], 5, "清一色"), source_key=f"{name}-{k}"
                )
                recording.commit(sqlite_ledger, -77, DRAW, source_key=f"shared-{k}")
        except BaseException as exc:  # pragma: no cover - reported below
            failures.append(exc)

    threads = [threading.Thread(target=worker, args=(f"t{i}",)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert len(sqlite_ledger.read(books.hands, table.session.id)) == 4 * 5 + 5
    check_invariants(sqlite_ledger, table.session.id)
