"""The five sweeps over ledger state: overdue previews expire, idle sessions end, due summaries post,
weekly boards post, open transfers are reminded.

Each sweep asks the ledger for the work that is due and claims it there with a compare-and-set on the row
(`expire_pending`, `end_idle`, `summaries.claim_next`, `claim_weekly`, `reminders.claim_reminder`): every
item is handed to exactly one caller, whichever worker sweeps first, so several workers on one database each
post or edit once. The due times are ledger data (an entry's `expires_at`, a session's last activity, a
summary's `due_at`, a group's weekly day/time and last post, a transfer's `reminded_at`): a sweep after a
restart finds whatever fell due meanwhile. A group that became a supergroup is followed (`to_group`).

Every ledger call is blocking and runs in a worker thread. `now` is for tests; the jobs pass None (the
ledger's clock, and the real time for the weekly slot).
"""

from __future__ import annotations

import asyncio
import datetime as dtm
import logging
from functools import partial
from zoneinfo import ZoneInfo

from telegram import Bot, Message
from telegram.error import ChatMigrated, TelegramError

from bot.i18n import t
from bot.ledger import Ledger, PendingInfo, SessionInfo
from bot.ledger.claims import reminders, summaries
from bot.ledger.errors import LedgerError
from bot.ledger.play import books, groups, pending, sessions
from bot.render import closed_preview_text, signed
from bot.sender import edit_text, follow_migration, send_text, to_group
from bot.summary.post import post_ended, post_summary
from bot.summary.settling import transfer_line
from bot.weekly import DEFAULT_TIMEZONE, aware, due_post

log = logging.getLogger(__name__)

WEEKLY_ALLTIME_ROWS = 10


# --- overdue previews ----------------------------------------------------------------------------------


def expired_text(lang: str, pending: PendingInfo, session: SessionInfo) -> str:
    """An expired entry's preview as it was shown (without the Confirm hint), and the "expired" line."""
    return closed_preview_text(lang, pending, session, t(lang, "err.expired"))


def _expired_message(ledger: Ledger, pending: PendingInfo) -> str:
    group = groups.chat_state(ledger, pending.chat_id).group
    return expired_text(group.language, pending, ledger.read(sessions.get_session, pending.session_id))


async def expire_previews(bot: Bot, ledger: Ledger, now: dtm.datetime | None = None) -> int:
    """Expire every overdue pending entry and edit the preview of each that this call expired: the
    buttons go, an "expired, not recorded" line comes. Returns how many the ledger handed to this call."""
    expired = await asyncio.to_thread(ledger.write_once, None, pending.expire, now or ledger.now())
    for entry in expired:
        if entry.message_id is None:
            continue
        try:
            text = await asyncio.to_thread(_expired_message, ledger, entry)
            await edit_text(bot, entry.chat_id, entry.message_id, text)
        except ChatMigrated as moved:  # the preview stays in the old chat; the ledger follows the group
            await follow_migration(ledger, entry.chat_id, moved.new_chat_id)
        except TelegramError as exc:  # deleted, not modified, bot removed: the entry is expired anyway
            log.info("could not mark the preview of %s expired: %s", entry.id, exc)
        except Exception:  # claimed already: never let one entry keep the others' messages unedited
            log.exception("could not mark the preview of %s expired", entry.id)
    return len(expired)


# --- idle sessions and due summaries -------------------------------------------------------------------


async def end_idle_sessions(bot: Bot, ledger: Ledger, hours: float, now: dtm.datetime | None = None) -> int:
    """End every open session without a hand for `hours` and post the summary of each that this call
    ended (due in the ledger from the end on: a failed post is retried by `post_due_summaries`). Returns
    how many."""
    ended = await asyncio.to_thread(sessions.end_idle, ledger, dtm.timedelta(hours=hours), now=now)
    for summary in ended:  # a post that fails is logged and left due (`post_ended`)
        await post_ended(bot, ledger, summary.session.id, idle_hours=hours)
    return len(ended)


SUMMARY_BATCH = 50  # summaries one sweep posts at most (the next sweep, 30 s later, goes on)


async def post_due_summaries(bot: Bot, ledger: Ledger, hours: float, now: dtm.datetime | None = None) -> int:
    """Post every summary that is due (its session ended but no poster finished it, or its retry time
    came), one at a time: each claimed (`summaries.claim_next`, by exactly one worker) just before it is
    posted, so its lease starts with its post, never while this sweep posts the ones before it. A post
    that fails is logged and due again later (`post_summary`). `hours` titles an idle-ended session's
    card. Returns how many this call posted whole."""
    posted = 0
    for _ in range(SUMMARY_BATCH):
        due = await asyncio.to_thread(summaries.claim_next, ledger, now=now)
        if due is None:
            break
        if await post_summary(bot, ledger, due, idle_hours=hours) is not None:
            posted += 1
    return posted


async def _send_text(bot: Bot, text: str, chat_id: int) -> Message:
    return await send_text(bot, chat_id, text)


# --- weekly leaderboards ---------------------------------------------------------------------------------


def weekly_text(
    ledger: Ledger,
    chat_id: int,
    lang: str,
    *,
    now: dtm.datetime | None = None,
    timezone: str = DEFAULT_TIMEZONE,
) -> str | None:
    """The weekly leaderboard: each player's net over sessions ended in the 7 days before `now`, then the
    group's all-time top. None when the group never played (nothing worth posting)."""
    now = aware(now or dtm.datetime.now(dtm.UTC))
    start = now - dtm.timedelta(days=7)
    week: dict[int, int] = {}
    names: dict[int, str] = {}
    for summary in ledger.read(books.history, chat_id, limit=200):
        ended = summary.session.ended_at
        if ended is None or aware(ended) > now:
            continue
        if aware(ended) < start:
            break  # newest first
        for player in summary.session.seats.values():
            names[player.id] = player.display_name
        for player_id, net in summary.totals.items():
            week[player_id] = week.get(player_id, 0) + net
    alltime = ledger.read(books.standings, chat_id).alltime_rows
    if not week and not alltime:
        return None
    zone = ZoneInfo(timezone)
    first, last = start.astimezone(zone), now.astimezone(zone)
    lines = [t(lang, "jobs.weekly_title", start=f"{first:%m-%d}", end=f"{last:%m-%d}")]
    if week:
        ranked = sorted(week.items(), key=lambda item: -item[1])
        for rank, (player_id, net) in enumerate(ranked, 1):
            name = names.get(player_id) or ledger.read(groups.get_player, player_id).display_name
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


async def post_weekly_boards(bot: Bot, ledger: Ledger, now: dtm.datetime | None = None) -> int:
    """Post the leaderboard of every group whose weekly slot is due (at most a day late) and not posted
    yet; `claim_weekly` lets exactly one sweep post each slot. Returns how many this call claimed."""
    moment = aware(now or dtm.datetime.now(dtm.UTC))
    posted = 0
    for group in await asyncio.to_thread(ledger.read, groups.list_groups, weekly_schedule=True):
        chat_id = group.chat_id
        try:
            due = due_post(
                group.weekly_day, group.weekly_time, group.timezone, group.weekly_last_post_at, moment
            )
            if due is None or not await asyncio.to_thread(
                ledger.write_once, None, groups.claim_weekly, chat_id, due, moment
            ):
                continue
            posted += 1
            text = await asyncio.to_thread(
                weekly_text, ledger, chat_id, group.language, now=due, timezone=group.timezone
            )
            if text is not None:
                await to_group(ledger, chat_id, partial(_send_text, bot, text))
        except (TelegramError, LedgerError) as exc:
            log.info("weekly post to chat %s failed: %s", chat_id, exc)
        except Exception:  # a bad stored day, time or zone: the other groups still get theirs
            log.exception("weekly post to chat %s failed", chat_id)
    return posted


# --- reminders of open transfers ------------------------------------------------------------------------

DAYTIME = (9, 22)  # reminders go out from 09:00 to 22:00 in the group's time zone, never at night


def daytime(moment: dtm.datetime, timezone: str) -> bool:
    """Whether `moment` is day (not night) in `timezone`."""
    hour = aware(moment).astimezone(ZoneInfo(timezone or DEFAULT_TIMEZONE)).hour
    return DAYTIME[0] <= hour < DAYTIME[1]


async def post_reminders(bot: Bot, ledger: Ledger, now: dtm.datetime | None = None) -> int:
    """Remind every group with reminders on of its open transfers that are due (`claim_reminder`: each at
    most once a day, each handed to exactly one worker), by day in the group's time zone. Returns how many
    groups this call reminded."""
    moment = aware(now or dtm.datetime.now(dtm.UTC))
    sent = 0
    for group in await asyncio.to_thread(ledger.read, reminders.reminder_groups):
        try:
            if not daytime(moment, group.timezone):
                continue
            due = await asyncio.to_thread(
                ledger.write_once, None, reminders.claim_reminder, group.chat_id, moment
            )
            if not due:
                continue
            lines = [t(group.language, "jobs.remind_title")]
            lines += [transfer_line(group.language, tr, session=True) for tr in due]
            lines.append(t(group.language, "jobs.remind_footer"))
            try:
                await to_group(ledger, group.chat_id, partial(_send_text, bot, "\n".join(lines)))
            except TelegramError:  # not sent: due again, for a later sweep the same day
                ids = [tr.id for tr in due]
                await asyncio.to_thread(
                    ledger.write_once, None, reminders.release_reminder, group.chat_id, ids, moment
                )
                raise
            sent += 1
        except (TelegramError, LedgerError) as exc:
            log.info("reminder to chat %s failed: %s", group.chat_id, exc)
        except Exception:  # one group's bad zone must not keep the others from theirs
            log.exception("reminder to chat %s failed", group.chat_id)
    return sent
