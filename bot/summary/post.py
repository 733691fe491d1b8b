"""Posting the summary to a chat: the text card, the chart (sendPhoto) and the CSV (sendDocument), as the
ledger's state of that summary says (`bot.ledger.summaries`): each part marked as it goes out, a failed
send due again later, a group that became a supergroup followed."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from telegram import Bot, InputFile, Message
from telegram.error import TelegramError

from bot.i18n import t
from bot.ledger import DueSummary, LedgerService
from bot.sender import edit_text, send_text, to_group
from bot.summary import chart as charts
from bot.summary.card import chart_data, history_chart_data, render_card
from bot.summary.csvfile import csv_filename, ledger_csv, local_day
from bot.summary.settlement import settle_markup
from bot.summary.tally import SessionReport, build_report
from bot.weekly import DEFAULT_TIMEZONE

log = logging.getLogger(__name__)

CARD, CHART, CSV = 1, 2, 3  # the parts out once each has gone (`DueSummary.sent`)


@dataclass(frozen=True, slots=True)
class PostedSummary:
    """What this post sent: the card, the chart and the CSV messages (None: out before, by an earlier try,
    or not sent: the session had no row, or the chart or CSV could not be made)."""

    report: SessionReport
    card: Message | None
    chart: Message | None
    document: Message | None


def chart_png(report: SessionReport, lang: str | None) -> bytes:
    """The session chart as PNG bytes (imports matplotlib on first use; run it in a thread)."""
    return charts.render_chart(chart_data(report, lang))


def chart_filename(report: SessionReport, timezone: str = DEFAULT_TIMEZONE) -> str:
    """`mahjong-session-<n>-<yyyymmdd>.png` (the local date the session opened)."""
    return f"mahjong-session-{report.session.number}-{local_day(report, timezone)}.png"


async def _language(ledger: LedgerService, chat_id: int, lang: str | None) -> str:
    if lang:
        return lang
    group = await asyncio.to_thread(ledger.get_group, chat_id)
    return group.language


async def _timezone(ledger: LedgerService, chat_id: int) -> str:
    group = await asyncio.to_thread(ledger.get_group, chat_id)
    return group.timezone or DEFAULT_TIMEZONE


class _Post:
    """One claimed summary going out, part by part, from the first not out yet."""

    def __init__(
        self, bot: Bot, ledger: LedgerService, due: DueSummary, lang: str | None, idle_hours: float | None
    ) -> None:
        self.bot, self.ledger, self.due, self.lang = bot, ledger, due, lang
        self.idle_hours = idle_hours if due.end_reason == "idle" else None
        self.sent = due.sent
        self.sent_now: dict[int, Message] = {}

    async def _mark(self, part: int, message: Message | None, card_message_id: int | None = None) -> bool:
        if message is not None:
            self.sent_now[part] = message
        self.sent = part
        return await asyncio.to_thread(
            self.ledger.summary_sent, self.due, part, card_message_id=card_message_id
        )

    async def run(self, chat_id: int) -> PostedSummary | None:
        """Send what is not out yet to `chat_id`; None when another poster's claim took over."""
        due, bot, ledger = self.due, self.bot, self.ledger
        lang = await _language(ledger, chat_id, self.lang)
        report = await asyncio.to_thread(build_report, ledger, due.session_id)
        if self.sent < CARD:
            text = render_card(report, lang, idle_hours=self.idle_hours)
            markup = settle_markup(lang, report.transfers, bot.username)
            card = await send_text(bot, chat_id, text, markup, topic=due.thread_id)
            self.sent_now[CARD] = card  # with no row the card is the whole summary
            if not await self._mark(CARD if report.rows else CSV, None, card.message_id):
                return None
            for earlier in await asyncio.to_thread(ledger.carried_from, due.session_id):  # "carried" lines
                await refresh_summary(bot, ledger, earlier, lang=lang)
        zone = await _timezone(ledger, chat_id)
        number = report.session.number
        if self.sent < CHART:
            chart: Message | None = None
            try:
                png = await asyncio.to_thread(chart_png, report, lang)
            except (OSError, ValueError, RuntimeError):  # a chart that cannot be drawn is left out
                log.exception("could not draw the chart of session %s", due.session_id)
            else:
                chart = await bot.send_photo(
                    chat_id,
                    InputFile(png, filename=chart_filename(report, zone)),
                    caption=t(lang, "summary.chart_caption", number=number),
                    message_thread_id=due.thread_id,
                )
            if not await self._mark(CHART, chart):
                return None
        if self.sent < CSV:
            document: Message | None = None
            try:
                data = await asyncio.to_thread(ledger_csv, report, lang, timezone=zone)
            except (OSError, ValueError):
                log.exception("could not write the CSV of session %s", due.session_id)
            else:
                document = await bot.send_document(
                    chat_id,
                    InputFile(data, filename=csv_filename(report, zone)),
                    caption=t(lang, "summary.csv_caption", number=number),
                    message_thread_id=due.thread_id,
                )
            if not await self._mark(CSV, document):
                return None
        return PostedSummary(report, *(self.sent_now.get(part) for part in (CARD, CHART, CSV)))


async def post_summary(
    bot: Bot,
    ledger: LedgerService,
    due: DueSummary,
    *,
    lang: str | None = None,
    idle_hours: float | None = None,
) -> PostedSummary | None:
    """Post the claimed summary `due` (`LedgerService.claim_summary` / `claim_due_summaries`): the card,
    then the chart and the CSV ledger, each marked in the ledger as it goes out, from the first part not
    out yet (in the /end's forum topic). The card goes first so a failing upload never hides the result;
    with no recorded row the card says so and nothing else is sent. `idle_hours` titles the card of a
    session the idle sweep ended.

    A send Telegram refuses leaves the rest due again later (`retry_summary`: the pause doubles, given up
    days later) and returns None, as does a claim another poster took over; a group that became a
    supergroup is followed there (the ledger moves, the parts go to the new chat)."""
    post = _Post(bot, ledger, due, lang, idle_hours)
    try:
        return await to_group(ledger, due.chat_id, post.run)
    except TelegramError as exc:
        again = await asyncio.to_thread(ledger.retry_summary, due)
        log.warning(
            "summary of session %s: a send to chat %s failed (%s); %s",
            due.session_id, due.chat_id, exc, f"due again at {again:%H:%M:%S}" if again else "not retried",
        )  # fmt: skip
        return None


async def post_ended(
    bot: Bot,
    ledger: LedgerService,
    session_id: int,
    *,
    lang: str | None = None,
    idle_hours: float | None = None,
) -> PostedSummary | None:
    """The summary of a session this caller just ended (/end's Confirm, the idle sweep), at once: claimed
    and posted (`post_summary`); nothing when another poster has it already."""
    due = await asyncio.to_thread(ledger.claim_summary, session_id)
    if due is None:
        return None
    return await post_summary(bot, ledger, due, lang=lang, idle_hours=idle_hours)


async def send_csv(
    bot: Bot, ledger: LedgerService, chat_id: int, session_id: int, *, lang: str | None = None
) -> Message:
    """Send one session's whole ledger as the CSV (/ledger's button under a long session): read and
    written in a worker thread."""
    lang = await _language(ledger, chat_id, lang)
    zone = await _timezone(ledger, chat_id)
    report = await asyncio.to_thread(build_report, ledger, session_id)
    data = await asyncio.to_thread(ledger_csv, report, lang, timezone=zone)
    return await bot.send_document(
        chat_id,
        InputFile(data, filename=csv_filename(report, zone)),
        caption=t(lang, "summary.csv_caption", number=report.session.number),
    )


async def refresh_summary(
    bot: Bot, ledger: LedgerService, session_id: int, *, lang: str, idle_hours: float | None = None
) -> None:
    """Edit an ended session's summary in place: its transfers' states now, buttons for those still open
    (a summary that cannot be edited, deleted or too old, is left as it is)."""
    report = await asyncio.to_thread(build_report, ledger, session_id)
    message_id = report.session.summary_message_id
    if message_id is None:
        return
    idle = idle_hours if report.session.end_reason == "idle" else None
    text = render_card(report, lang, idle_hours=idle)
    try:
        markup = settle_markup(lang, report.transfers, bot.username)
        await edit_text(bot, report.session.chat_id, message_id, text, markup)
    except TelegramError as exc:
        log.info("summary %s of session %s not edited: %s", message_id, session_id, exc)


async def send_chart(
    bot: Bot,
    ledger: LedgerService,
    chat_id: int,
    session_id: int,
    *,
    lang: str | None = None,
    caption: str | None = None,
    reply_to_message_id: int | None = None,
) -> Message | None:
    """Send one session's running-total chart (for /history and /stats); None if the session has no row."""
    lang = await _language(ledger, chat_id, lang)
    report = await asyncio.to_thread(build_report, ledger, session_id)
    if not report.rows:
        return None
    png = await asyncio.to_thread(chart_png, report, lang)
    if caption is None:
        caption = t(lang, "summary.chart_caption", number=report.session.number)
    return await bot.send_photo(
        chat_id,
        InputFile(png, filename=chart_filename(report)),
        caption=caption,
        reply_to_message_id=reply_to_message_id,
    )


async def send_history_chart(
    bot: Bot,
    ledger: LedgerService,
    chat_id: int,
    *,
    lang: str | None = None,
    player_id: int | None = None,
    limit: int = 50,
    caption: str | None = None,
) -> Message | None:
    """Send the group's all-time running net by session (for /history, or /stats with one player's line
    via `player_id`), every line named (a player no longer seated too); None when the group has no session
    with a result yet. `caption` may be the whole answer (/history's list under its chart)."""
    lang = await _language(ledger, chat_id, lang)
    summaries = await asyncio.to_thread(ledger.history, chat_id, limit=limit)
    ids = {pid for summary in summaries for pid in summary.totals}
    names = await asyncio.to_thread(lambda: {pid: ledger.get_player(pid).name for pid in ids})
    data = history_chart_data(summaries, lang, player_id=player_id, names=names)
    if data is None:
        return None
    png = await asyncio.to_thread(charts.render_chart, data)
    if caption is None:
        caption = t(lang, "summary.history_chart_caption")
    return await bot.send_photo(chat_id, InputFile(png, filename="mahjong-history.png"), caption=caption)
