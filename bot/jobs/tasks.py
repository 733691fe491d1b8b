"""The persistent job callbacks: expire a pending entry, end an idle session, post the weekly leaderboard.

Each is registered under a stable name (`@persistent`) and is idempotent against the ledger: a job that
finds its work already done (entry confirmed, session ended by /end or by another process) does nothing.
"""

from __future__ import annotations

import asyncio
import datetime as dtm
import logging
from typing import Any

from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import CallbackContext

from bot.i18n import t
from bot.jobs.scheduling import touch_session, utcnow
from bot.jobs.store import persistent
from bot.ledger import LedgerService, PendingInfo
from bot.ledger.errors import LedgerError, NotFound, SessionNotOpen
from bot.summary.card import signed

log = logging.getLogger(__name__)

Context = CallbackContext[Any, Any, Any, Any]
WEEKLY_ALLTIME_ROWS = 10


def _ledger(context: Context) -> LedgerService:
    return context.bot_data["ledger"]  # type: ignore[no-any-return]


def _aware(value: dtm.datetime) -> dtm.datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=dtm.UTC)


async def _language(ledger: LedgerService, chat_id: int) -> str:
    group = await asyncio.to_thread(ledger.get_group, chat_id)
    return group.language


@persistent("expire_pending")
async def expire_pending_job(context: Context) -> None:
    """Expire one pending entry: the ledger marks it expired, its preview loses its buttons and says so."""
    job = context.job
    assert job is not None and job.chat_id is not None
    pending_id = str(job.data["pending_id"])  # type: ignore[index]
    ledger = _ledger(context)
    # The ledger expires every overdue entry in one sweep; this job then looks only at its own entry
    # (the others' messages are edited by their own jobs).
    await asyncio.to_thread(ledger.expire_pending)
    try:
        pending = await asyncio.to_thread(ledger.get_pending, pending_id)
    except NotFound:
        log.info("pending entry %s is gone; nothing to expire", pending_id)
        return
    if pending.status == "pending":
        # Fired early (clocks, or the timeout was extended): try again at the ledger's own expiry time.
        from bot.jobs.scheduling import schedule_expiry

        schedule_expiry(
            context.application,
            job.chat_id,
            pending_id,
            max(_aware(pending.expires_at), utcnow() + dtm.timedelta(seconds=1)),
        )
        return
    if pending.status != "expired" or pending.message_id is None:
        return
    await close_preview(context, pending)


async def close_preview(context: Context, pending: PendingInfo) -> None:
    """Edit an expired entry's preview: the handlers' own rendering (preview + "expired" line, no buttons)
    when they provide it, else a short line with the entry as typed."""
    try:
        from bot.handlers.recording import close_expired
    except ImportError:
        close_expired = None
    if close_expired is not None:
        await close_expired(context, pending)
        return
    assert pending.message_id is not None
    lang = await _language(_ledger(context), pending.chat_id)
    try:
        await context.bot.edit_message_text(
            t(lang, "jobs.pending_expired", text=pending.text or ""),
            chat_id=pending.chat_id,
            message_id=pending.message_id,
        )
    except BadRequest as exc:
        # "message is not modified" (already edited) or "message to edit not found" (deleted): done.
        log.info("could not edit the expired preview %s: %s", pending.id, exc)
    except Forbidden as exc:
        log.info("bot removed from chat %s: %s", pending.chat_id, exc)


@persistent("idle_end")
async def idle_end_job(context: Context) -> None:
    """End the group's session when no hand was recorded for `hours`, and post its summary."""
    from bot.summary.post import post_summary

    job = context.job
    assert job is not None and job.chat_id is not None
    chat_id = job.chat_id
    session_id = int(job.data["session_id"])  # type: ignore[index]
    hours = float(job.data["hours"])  # type: ignore[index]
    ledger = _ledger(context)
    try:
        session = await asyncio.to_thread(ledger.get_session, session_id)
    except NotFound:
        return
    if not session.is_open:
        return
    due = _aware(session.last_activity_at) + dtm.timedelta(hours=hours)
    if due > utcnow():
        # A hand was recorded since this job was scheduled: wait for the idle time after it.
        touch_session(
            context.application, chat_id, session_id, last_activity=session.last_activity_at, hours=hours
        )
        return
    try:
        await asyncio.to_thread(ledger.end_session, chat_id, session_id=session_id, reason="idle")
    except SessionNotOpen:
        return  # /end, or another bot process, got there first: it posts the summary
    try:
        await post_summary(context.bot, ledger, chat_id, session_id, idle_hours=hours)
    except (Forbidden, BadRequest) as exc:
        log.info("session %s ended for idleness but chat %s refuses messages: %s", session_id, chat_id, exc)


def weekly_text(
    ledger: LedgerService, chat_id: int, lang: str, *, now: dtm.datetime | None = None
) -> str | None:
    """The weekly leaderboard: each player's net over sessions ended in the last 7 days, then the group's
    all-time top. None when the group never played (nothing worth posting)."""
    now = now or utcnow()
    start = now - dtm.timedelta(days=7)
    week: dict[int, int] = {}
    names: dict[int, str] = {}
    for summary in ledger.history(chat_id, limit=200):
        ended = summary.session.ended_at
        if ended is None:
            continue
        if _aware(ended) < start:
            break  # newest first
        for player in summary.session.seats.values():
            names[player.id] = player.display_name
        for player_id, net in summary.totals.items():
            week[player_id] = week.get(player_id, 0) + net
    alltime = ledger.standings(chat_id).alltime_rows
    if not week and not alltime:
        return None
    lines = [t(lang, "jobs.weekly_title", start=f"{start:%m-%d}", end=f"{now:%m-%d}")]
    if week:
        ranked = sorted(week.items(), key=lambda item: -item[1])
        for rank, (player_id, net) in enumerate(ranked, 1):
            name = names.get(player_id) or ledger.get_player(player_id).display_name
            lines.append(t(lang, "jobs.weekly_line", rank=rank, name=name, amount=signed(net)))
    else:
        lines.append(t(lang, "jobs.weekly_none"))
    if alltime:
        lines.append("")
        lines.append(t(lang, "jobs.weekly_alltime"))
        for rank, row in enumerate(alltime[:WEEKLY_ALLTIME_ROWS], 1):
            lines.append(
                t(lang, "jobs.weekly_line", rank=rank, name=row.player.display_name, amount=signed(row.net))
            )
    return "\n".join(lines)


@persistent("weekly_board")
async def weekly_board_job(context: Context) -> None:
    """Post the group's weekly leaderboard (if the group still wants it)."""
    job = context.job
    assert job is not None and job.chat_id is not None
    chat_id = job.chat_id
    ledger = _ledger(context)
    group = await asyncio.to_thread(ledger.get_group, chat_id)
    if not group.weekly_schedule:
        job.schedule_removal()
        return
    text = await asyncio.to_thread(weekly_text, ledger, chat_id, group.language)
    if text is None:
        return
    try:
        await context.bot.send_message(chat_id, text)
    except Forbidden as exc:
        log.info("weekly post refused by chat %s: %s", chat_id, exc)
    except TelegramError:
        log.exception("weekly post to chat %s failed", chat_id)


async def reconcile_job(context: Context) -> None:
    """At start-up and then every few minutes: give every open session an idle-end job and every group
    that asked for it a weekly job, when the database has none (a session opened without `touch_session`,
    by an older version, or a job store wiped by hand)."""
    from bot.jobs.scheduling import get_persistent_job, idle_job_id, set_weekly, weekly_job_id

    if "ledger" not in context.bot_data:
        return
    ledger = _ledger(context)
    application = context.application
    try:
        sessions = await asyncio.to_thread(ledger.open_sessions)
        groups = await asyncio.to_thread(ledger.list_groups, weekly_schedule=True)
    except LedgerError:
        log.exception("cannot read open sessions and groups to restore their jobs")
        return
    for session in sessions:
        if get_persistent_job(application, idle_job_id(session.chat_id)) is None:
            touch_session(application, session.chat_id, session.id, last_activity=session.last_activity_at)
            log.info("restored the idle-end job of session %s", session.id)
    for group in groups:
        if get_persistent_job(application, weekly_job_id(group.chat_id)) is None:
            set_weekly(application, group.chat_id, enabled=True)
            log.info("restored the weekly job of chat %s", group.chat_id)
