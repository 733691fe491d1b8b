"""The live rows the pinned card shows, kept in memory by id once their transaction has committed.

Every hand re-renders the card from the session's newest live rows (`queries.card_view`). Decoding a row
(six JSON columns, two timestamps) is most of what that read costs, and eleven of the twelve rows are the
ones the previous card decoded. A live row never changes: `/undo` and `/edit` void it (and a voided row
is never on the card again, since which rows are live is asked of the database every time), and its id is
never reused once committed. So the card asks the database which rows are live, in which order, and
decodes only the ones this process has not seen.

Rows are kept per database (per connection pool) and only after the transaction that read them commits:
SQLite reuses the id of a row whose insert was rolled back, so a row read or written inside a transaction
that fails is never kept. At most `KEPT` rows per database, the least recently shown dropped first.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence

from sqlalchemy import Engine, Pool, bindparam, event
from sqlalchemy import select as select_columns
from sqlmodel import Session

from bot.ledger.storage.mappers import hand_records
from bot.ledger.storage.rows import HAND
from bot.ledger.values import HandRecord

KEPT = 4096  # rows per database: the twelve newest of about 340 tables (a row is a few kB)
_STAGED = "recent.staged"  # Session.info key: rows read in this transaction, kept once it commits

_BY_ID = select_columns(HAND).where(HAND.c.id.in_(bindparam("ids", expanding=True)))

_kept: weakref.WeakKeyDictionary[Pool, OrderedDict[int, HandRecord]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def live_rows(s: Session, ids: Sequence[int], held: Iterable[HandRecord] = ()) -> list[HandRecord]:
    """The rows `ids` (live rows of one session, in the order given), each decoded once per process: the
    ones kept or `held` (written by this transaction) as they are, the others read in one statement."""
    pool = _database(s)
    found = {record.id: record for record in held}
    with _lock:
        kept: Mapping[int, HandRecord] = _kept.get(pool, {})
        found.update((hand_id, kept[hand_id]) for hand_id in ids if hand_id in kept and hand_id not in found)
    missing = [hand_id for hand_id in ids if hand_id not in found]
    if missing:
        found.update((r.id, r) for r in hand_records(s.connection().execute(_BY_ID, {"ids": missing})))
    shown = [found[hand_id] for hand_id in ids]
    s.info.setdefault(_STAGED, {}).update((record.id, record) for record in shown)
    return shown


def _database(s: Session) -> Pool:
    """What tells one database from another in this process: its connection pool (an engine made from
    another by `execution_options` shares it)."""
    bind = s.get_bind()
    return bind.pool if isinstance(bind, Engine) else bind.engine.pool


@event.listens_for(Session, "after_commit")
def _keep(session: Session) -> None:
    """The rows a committed transaction read or wrote for the card, kept for the next card."""
    staged: dict[int, HandRecord] | None = session.info.pop(_STAGED, None)
    if not staged:
        return
    pool = _database(session)
    with _lock:
        kept = _kept.get(pool)
        if kept is None:
            kept = _kept[pool] = OrderedDict()
        for hand_id, record in staged.items():
            kept[hand_id] = record
            kept.move_to_end(hand_id)
        while len(kept) > KEPT:
            kept.popitem(last=False)


@event.listens_for(Session, "after_rollback")
def _drop(session: Session) -> None:
    """A transaction that failed keeps nothing it read (its rows may not exist, their ids reused)."""
    session.info.pop(_STAGED, None)
