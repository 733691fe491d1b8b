"""The pinned card's rows are the table's own: another worker's hand, undo or edit shows on this worker's
next card, and a hand whose write failed never shows, even where the database hands its id to the next
hand."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from ledger_helpers import CHAT, DRAW, Table, discard, self_draw

from bot.ledger import CardView, Ledger
from bot.ledger.play import books, recording
from bot.ledger.storage.db import open_database


@pytest.fixture
def other(db_url: str) -> Iterator[Ledger]:
    """A second worker on the same database: its own engine and pool."""
    engine = open_database(db_url)
    yield Ledger(engine)
    engine.dispose()


def rows(card: CardView) -> list[tuple[int, str, dict[str, int]]]:
    """What a person reads on the card: each row's number, who won (or 荒庄) and what each seat got."""
    return [
        (hand.number, ",".join(w["winner"] for w in hand.entry.get("wins") or []) or hand.kind, hand.payments)
        for hand in card.recent
    ]


def test_another_workers_hands_and_undo_show_on_this_workers_card(table: Table, other: Ledger) -> None:
    ledger, session = table.ledger, table.session.id
    recording.commit(ledger, CHAT, self_draw("S", 5))  # 第1局: South's self-draw, 南 +
    recording.commit(ledger, CHAT, discard("W", "N", 4))  # 第2局: West off North
    assert [(n, who) for n, who, _ in rows(ledger.read(books.session_card, session))] == [(1, "S"), (2, "W")]
    recording.undo(other, CHAT)  # the other worker takes 第2局 back and records 荒庄 as 第2局
    recording.commit(other, CHAT, DRAW)
    card = ledger.read(books.session_card, session)
    assert [(n, who) for n, who, _ in rows(card)] == [(1, "S"), (2, "draw")]
    assert card == other.read(books.session_card, session)
    assert rows(card)[0][2]["S"] > 0 and not any(rows(card)[1][2].values())  # a 荒庄 moves no money


def test_an_edit_by_another_worker_replaces_the_row_on_this_workers_card(table: Table, other: Ledger) -> None:
    ledger, session = table.ledger, table.session.id
    recording.commit(ledger, CHAT, self_draw("S", 5))
    ledger.read(books.session_card, session)
    recording.edit(other, CHAT, 1, discard("E", "W", 5))  # 第1局 was East off West, not South's self-draw
    card = ledger.read(books.session_card, session)
    assert [(n, who) for n, who, _ in rows(card)] == [(1, "E")]
    east_gets, west_pays = rows(card)[0][2]["E"], rows(card)[0][2]["W"]
    assert east_gets > 0 and west_pays < 0 and card.totals["S"] <= 0
    assert card == other.read(books.session_card, session)


def test_a_hand_whose_write_failed_never_shows_on_the_card(
    table: Table, other: Ledger, monkeypatch: pytest.MonkeyPatch
) -> None:
    ledger, session = table.ledger, table.session.id
    recording.commit(ledger, CHAT, DRAW)
    real = books.card_view

    def fails_after_reading(*args: object, **kwargs: object) -> CardView:
        real(*args, **kwargs)  # type: ignore[arg-type]  # the card read, the failed hand's row on it
        raise RuntimeError("the write fails after its card was read")

    monkeypatch.setattr(books, "card_view", fails_after_reading)
    with pytest.raises(RuntimeError):
        recording.commit(ledger, CHAT, self_draw("S", 5))  # rolled back: South's self-draw was never recorded
    monkeypatch.setattr(books, "card_view", real)
    recording.commit(
        other, CHAT, discard("W", "N", 4)
    )  # the next hand, by another worker: on SQLite, the same id
    card = ledger.read(books.session_card, session)
    assert [(n, who) for n, who, _ in rows(card)] == [(1, "draw"), (2, "W")]
    assert card == other.read(books.session_card, session)
