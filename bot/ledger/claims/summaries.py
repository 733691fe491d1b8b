"""The end-of-session summary as ledger state (`summary_post`): due when the session ends, claimed by one
poster at a time, its parts (the card, the chart, the CSV) marked as each goes out, retried with a growing
pause after a failed send, given up when still not out days later.

A claim is a compare-and-set on the row (still due, not posted): `due_at` moves a lease ahead, so a poster
that dies holding it is replaced once the lease runs out, and `attempts` grows, so the marks of a poster
whose lease ran out (a later claim holds the row) change nothing. The poster renews its lease right before
each send by the same compare-and-set (`renew`): a poster whose claim another took over sends nothing more.

A summary falls due ENDER_GRACE after its session ended: the ender claims it at once (its first claim
ignores that wait), the sweep only when the ender has not (it stopped, or it is slow past the grace)."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlmodel import Session, col, select

from bot.ledger.storage.models import SummaryPost, TableSession
from bot.ledger.storage.rows import aware, chat_of, row_id
from bot.ledger.storage.store import Ledger
from bot.ledger.values import DueSummary

log = logging.getLogger(__name__)

PARTS = 3  # the card, the chart, the CSV
# A claimed summary goes out in seconds; its poster keeps it this long (renewed by each part out), far
# longer than building any part takes (bot.summary.post): then another may try.
LEASE = timedelta(minutes=10)
FIRST_RETRY = timedelta(seconds=30)  # after the first failed send; doubling up to MAX_RETRY
MAX_RETRY = timedelta(hours=1)
GIVE_UP = timedelta(days=2)  # a summary still not out this long after its session ended is given up
# The summary sweep leaves a just-ended session's summary to its ender this long (its card and unpin round
# trips come before the post).
ENDER_GRACE = timedelta(seconds=60)
CANDIDATES = 8  # due summaries one claim tries, oldest first, when other workers take the first ones


def mark_due(s: Session, ts: TableSession, thread_id: int | None, now: datetime) -> None:
    """The session just ended: its summary is due, to the sweep after ENDER_GRACE (in the transaction that
    ends it)."""
    row = SummaryPost(session_id=row_id(ts), thread_id=thread_id, due_at=now + ENDER_GRACE, created_at=now)
    s.add(row)


def _locked(s: Session, session_id: int) -> SummaryPost | None:
    query = select(SummaryPost).where(SummaryPost.session_id == session_id).with_for_update()
    return s.scalars(query).first()


def _given_up(s: Session, row: SummaryPost, now: datetime) -> bool:
    """Whether the summary is still not out GIVE_UP after its session ended: then it is given up (logged)."""
    if now - aware(row.created_at) < GIVE_UP:
        return False
    row.due_at = None
    s.add(row)
    log.warning("summary of session %s given up after %d attempts", row.session_id, row.attempts)
    return True


def claim(s: Session, session_id: int, now: datetime, *, ender: bool = False) -> DueSummary | None:
    """The session's summary for this caller to post, if it is due (not posted, not held by another
    poster's lease, not given up): the lease starts now. None otherwise. The `ender` (the caller that just
    ended the session) gets it before ENDER_GRACE is over, if nobody claimed it yet. A summary still due
    GIVE_UP after its session ended is given up here (logged), whatever failed before."""
    row = _locked(s, session_id)
    if row is None or row.due_at is None:
        return None
    if aware(row.due_at) > now and not (ender and row.attempts == 0):
        return None
    if _given_up(s, row, now):
        return None
    row.attempts += 1
    row.due_at = now + LEASE
    s.add(row)
    ts = s.get(TableSession, session_id)
    assert ts is not None
    return DueSummary(
        session_id=session_id,
        chat_id=chat_of(s, ts.group_id),
        thread_id=row.thread_id,
        sent=row.sent,
        attempt=row.attempts,
        end_reason=ts.end_reason,
        sending=row.sending,
    )


def due_ids(s: Session, now: datetime, limit: int) -> list[int]:
    """Sessions whose summary is due by `now`, the longest waiting first."""
    query = (
        select(SummaryPost.session_id)
        .where(col(SummaryPost.due_at).is_not(None), col(SummaryPost.due_at) <= now)
        .order_by(col(SummaryPost.due_at), col(SummaryPost.session_id))
        .limit(limit)
    )
    return list(s.scalars(query))


def _held(s: Session, due: DueSummary) -> SummaryPost | None:
    """The summary's row, locked, while `due` is its latest claim and it is not posted or given up."""
    row = _locked(s, due.session_id)
    if row is None or row.attempts != due.attempt or row.due_at is None:
        return None
    return row


def renew(s: Session, due: DueSummary, now: datetime, part: int = 0) -> bool:
    """Right before a send (of `part`, marked as in flight): the lease of `due` runs LEASE from now. False
    when another poster's claim superseded it (or the summary is posted or given up): the caller sends
    nothing."""
    row = _held(s, due)
    if row is None:
        return False
    row.due_at = now + LEASE
    row.sending = max(row.sending, part)
    s.add(row)
    return True


def mark_sent(
    s: Session, due: DueSummary, sent: int, now: datetime, *, card_message_id: int | None = None
) -> bool:
    """`sent` parts are out (the card's message id stored with the first): the last marks it posted, any
    other renews the lease. False when the claim was superseded (the caller stops: another poster has it)."""
    row = _held(s, due)
    if row is None:
        return False
    row.sent = sent
    if sent >= PARTS:
        row.due_at, row.posted_at = None, now
    else:
        row.due_at = now + LEASE
    s.add(row)
    if card_message_id is not None:
        ts = s.get(TableSession, due.session_id)
        assert ts is not None
        ts.summary_message_id = card_message_id
        s.add(ts)
    return True


def retry(s: Session, due: DueSummary, now: datetime, *, answered: bool = False) -> datetime | None:
    """A send of this claim failed: the summary is due again after a pause that doubles with each attempt
    (FIRST_RETRY up to MAX_RETRY); the time it is due, or None when it is given up (GIVE_UP after its
    session ended) or the claim was superseded. `answered`: Telegram answered the failed send with an
    error, so the part in flight is sent again; otherwise it stays marked as in flight."""
    row = _held(s, due)
    if row is None:
        return None
    if answered:
        row.sending = row.sent
    if _given_up(s, row, now):
        return None
    row.due_at = now + min(FIRST_RETRY * 2 ** (row.attempts - 1), MAX_RETRY)
    s.add(row)
    return row.due_at


def forget_messages(s: Session, session_ids: list[int]) -> None:
    """The chat moved (a supergroup): the forum topics of its due summaries are the old chat's."""
    if not session_ids:
        return
    for row in s.scalars(select(SummaryPost).where(col(SummaryPost.session_id).in_(session_ids))):
        row.thread_id = None
        s.add(row)


def claim_next(ledger: Ledger, *, now: datetime | None = None) -> DueSummary | None:
    """The summary due longest by now (its session ended and its ender did not post it, its poster
    died, or its retry time came), claimed by one compare-and-set: the first this caller got, or None
    when none is due. One at a time, just before posting it: a claim's lease starts when its post
    does."""
    moment = now or ledger.now()
    # Each claim that fails takes its row out of the due ones (claimed by another, posted, given up).
    while candidates := ledger.read(due_ids, moment, CANDIDATES):
        for session_id in candidates:
            due = ledger.write(claim, session_id, moment)
            if due is not None:
                return due
    return None
