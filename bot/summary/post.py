"""Posting the summary to a chat: the text card, the chart (sendPhoto) and the CSV (sendDocument)."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from telegram import Bot, InputFile, Message
from telegram.error import TelegramError

from bot.i18n import t
from bot.ledger import LedgerService
from bot.sender import edit_text, send_text
from bot.summary import chart as charts
from bot.summary.card import chart_data, history_chart_data, render_card
from bot.summary.csvfile import csv_filename, ledger_csv, local_day
from bot.summary.settlement import settle_markup
from bot.summary.tally import SessionReport, build_report
from bot.weekly import DEFAULT_TIMEZONE

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PostedSummary:
    """What was sent: the card message, and the chart and CSV messages when the session had rows."""

    report: SessionReport
    card: Message
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


async def post_summary(
    bot: Bot,
    ledger: LedgerService,
    chat_id: int,
    session_id: int,
    *,
    lang: str | None = None,
    idle_hours: float | None = None,
    report: SessionReport | None = None,
) -> PostedSummary:
    """Send the end-of-session card, then the chart and the CSV ledger, to `chat_id`.

    Used by /end and by the idle auto-end job. The card goes first so a failing upload never hides the
    result; chart or CSV failures are logged and leave that message out. With no recorded row the card
    says so and nothing else is sent.
    """
    lang = await _language(ledger, chat_id, lang)
    if report is None:
        report = await asyncio.to_thread(build_report, ledger, session_id)
    text = render_card(report, lang, idle_hours=idle_hours)
    markup = settle_markup(lang, report.transfers, bot.username)
    card = await send_text(bot, chat_id, text, markup)
    await asyncio.to_thread(ledger.set_summary, session_id, card.message_id)
    for earlier in await asyncio.to_thread(ledger.carried_from, session_id):  # their "carried" lines
        await refresh_summary(bot, ledger, earlier, lang=lang)
    if not report.rows:
        return PostedSummary(report, card, None, None)
    number = report.session.number
    zone = await _timezone(ledger, chat_id)
    chart: Message | None = None
    document: Message | None = None
    try:
        png = await asyncio.to_thread(chart_png, report, lang)
        chart = await bot.send_photo(
            chat_id,
            InputFile(png, filename=chart_filename(report, zone)),
            caption=t(lang, "summary.chart_caption", number=number),
        )
    except (TelegramError, OSError, ValueError, RuntimeError):
        log.exception("could not send the chart of session %s", session_id)
    try:
        data = await asyncio.to_thread(ledger_csv, report, lang, timezone=zone)
        document = await bot.send_document(
            chat_id,
            InputFile(data, filename=csv_filename(report, zone)),
            caption=t(lang, "summary.csv_caption", number=number),
        )
    except (TelegramError, OSError, ValueError):
        log.exception("could not send the CSV of session %s", session_id)
    return PostedSummary(report, card, chart, document)


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
