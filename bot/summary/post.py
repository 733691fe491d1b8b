"""Posting the summary to a chat: the text card, the chart (sendPhoto) and the CSV (sendDocument), built
in the worker process (`bot.summary.worker`); and the /history and /stats charts."""

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
from bot.summary import worker
from bot.summary.card import history_chart_data
from bot.summary.settlement import settle_markup
from bot.summary.worker import SummaryFiles
from bot.weekly import DEFAULT_TIMEZONE

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PostedSummary:
    """What was sent: the card message, and the chart and CSV messages when the session had rows."""

    files: SummaryFiles
    card: Message
    chart: Message | None
    document: Message | None


async def _language(ledger: LedgerService, chat_id: int, lang: str | None) -> str:
    if lang:
        return lang
    group = await asyncio.to_thread(ledger.get_group, chat_id)
    return group.language


async def _timezone(ledger: LedgerService, chat_id: int) -> str:
    group = await asyncio.to_thread(ledger.get_group, chat_id)
    return group.timezone or DEFAULT_TIMEZONE


async def summary_files(
    ledger: LedgerService,
    chat_id: int,
    session_id: int,
    *,
    lang: str,
    idle_hours: float | None = None,
    chart: bool = True,
    csv: bool = True,
) -> SummaryFiles:
    """The session's card, and its chart and CSV as asked, built in the worker process
    (`bot.summary.worker`): a long session's summary never slows the other tables down."""
    zone = await _timezone(ledger, chat_id)
    url = worker.database_url(ledger)
    return await worker.run(
        worker.build_files, url, session_id, lang, zone, idle_hours=idle_hours, chart=chart, csv=csv
    )


async def post_summary(
    bot: Bot,
    ledger: LedgerService,
    chat_id: int,
    session_id: int,
    *,
    lang: str | None = None,
    idle_hours: float | None = None,
) -> PostedSummary:
    """Send the end-of-session card, then the chart and the CSV ledger, to `chat_id`.

    Used by /end and by the idle auto-end job. The card goes first so a failing upload never hides the
    result; chart or CSV failures are logged and leave that message out. With no recorded row the card
    says so and nothing else is sent.
    """
    lang = await _language(ledger, chat_id, lang)
    files = await summary_files(ledger, chat_id, session_id, lang=lang, idle_hours=idle_hours)
    markup = settle_markup(lang, files.transfers, bot.username)
    card = await send_text(bot, chat_id, files.card, markup)
    await asyncio.to_thread(ledger.set_summary, session_id, card.message_id)
    for earlier in await asyncio.to_thread(ledger.carried_from, session_id):  # their "carried" lines
        await refresh_summary(bot, ledger, earlier, lang=lang)
    if not files.has_rows:
        return PostedSummary(files, card, None, None)
    chart: Message | None = None
    document: Message | None = None
    if files.chart is not None:
        try:
            chart = await bot.send_photo(
                chat_id,
                InputFile(files.chart, filename=files.chart_name),
                caption=t(lang, "summary.chart_caption", number=files.number),
            )
        except TelegramError:
            log.exception("could not send the chart of session %s", session_id)
    if files.csv is not None:
        try:
            document = await bot.send_document(
                chat_id,
                InputFile(files.csv, filename=files.csv_name),
                caption=t(lang, "summary.csv_caption", number=files.number),
            )
        except TelegramError:
            log.exception("could not send the CSV of session %s", session_id)
    return PostedSummary(files, card, chart, document)


async def send_csv(
    bot: Bot, ledger: LedgerService, chat_id: int, session_id: int, *, lang: str | None = None
) -> Message:
    """Send one session's whole ledger as the CSV (/ledger's button under a long session), built in the
    worker process."""
    lang = await _language(ledger, chat_id, lang)
    files = await summary_files(ledger, chat_id, session_id, lang=lang, chart=False)
    assert files.csv is not None or not files.has_rows
    return await bot.send_document(
        chat_id,
        InputFile(files.csv or b"", filename=files.csv_name),
        caption=t(lang, "summary.csv_caption", number=files.number),
    )


async def refresh_summary(
    bot: Bot, ledger: LedgerService, session_id: int, *, lang: str, idle_hours: float | None = None
) -> None:
    """Edit an ended session's summary in place: its transfers' states now, buttons for those still open
    (a summary that cannot be edited, deleted or too old, is left as it is)."""
    session = await asyncio.to_thread(ledger.get_session, session_id)
    if session.summary_message_id is None:
        return
    files = await summary_files(
        ledger, session.chat_id, session_id, lang=lang, idle_hours=idle_hours, chart=False, csv=False
    )
    try:
        markup = settle_markup(lang, files.transfers, bot.username)
        await edit_text(bot, files.chat_id, session.summary_message_id, files.card, markup)
    except TelegramError as exc:
        log.info("summary %s of session %s not edited: %s", session.summary_message_id, session_id, exc)


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
