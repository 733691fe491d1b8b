"""Posting the summary to a chat: the text card, the chart (sendPhoto) and the CSV (sendDocument), built
in the worker process (`bot.summary.worker`), as the ledger's state of that summary says
(`bot.ledger.summaries`): each part sent under the claim's lease renewed right before it and marked once
out, a failed post due again later, a group that became a supergroup followed; and the /history and /stats
charts."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from telegram import Bot, InputFile, Message
from telegram.error import TelegramError

from bot.i18n import t
from bot.ledger import DueSummary, LedgerService
from bot.sender import edit_text, send_text, to_group
from bot.summary import chart as charts
from bot.summary import worker
from bot.summary.card import history_chart_data
from bot.summary.settling import settle_markup
from bot.summary.worker import SummaryFiles
from bot.weekly import DEFAULT_TIMEZONE

log = logging.getLogger(__name__)

CARD, CHART, CSV = 1, 2, 3  # the parts out once each has gone (`DueSummary.sent`)


@dataclass(frozen=True, slots=True)
class PostedSummary:
    """What this post sent: the card, the chart and the CSV messages (None: out before, by an earlier try,
    or not sent: the session had no row, or the chart could not be drawn)."""

    files: SummaryFiles
    card: Message | None
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


class _Post:
    """One claimed summary going out, part by part, from the first not out yet."""

    def __init__(
        self, bot: Bot, ledger: LedgerService, due: DueSummary, lang: str | None, idle_hours: float | None
    ) -> None:
        self.bot, self.ledger, self.due, self.lang, self.idle_hours = bot, ledger, due, lang, idle_hours
        self.sent = due.sent
        self.sent_now: dict[int, Message] = {}

    async def _hold(self) -> bool:
        """Right before a send: the claim still this poster's, its lease renewed (False: another poster's
        claim took over, send nothing)."""
        return await asyncio.to_thread(self.ledger.renew_summary, self.due)

    async def _mark(self, part: int, card_message_id: int | None = None) -> bool:
        self.sent = part
        return await asyncio.to_thread(
            self.ledger.summary_sent, self.due, part, card_message_id=card_message_id
        )

    async def run(self, chat_id: int) -> PostedSummary | None:
        """Send what is not out yet to `chat_id`; None when another poster's claim took over."""
        due, bot, ledger = self.due, self.bot, self.ledger
        lang = await _language(ledger, chat_id, self.lang)
        files = await summary_files(
            ledger, chat_id, due.session_id, lang=lang, idle_hours=self.idle_hours,
            chart=self.sent < CHART, csv=self.sent < CSV,
        )  # fmt: skip
        if self.sent < CARD:
            if not await self._hold():
                return None
            markup = settle_markup(lang, files.transfers, bot.username)
            card = await send_text(bot, chat_id, files.card, markup, topic=due.thread_id)
            self.sent_now[CARD] = card  # with no row the card is the whole summary
            if not await self._mark(CARD if files.has_rows else CSV, card.message_id):
                return None
            for earlier in await asyncio.to_thread(ledger.carried_from, due.session_id):  # "carried" lines
                await refresh_summary(bot, ledger, earlier, lang=lang)
        if self.sent < CHART:
            if files.chart is not None:  # None: it could not be drawn (logged), left out
                if not await self._hold():
                    return None
                self.sent_now[CHART] = await bot.send_photo(
                    chat_id,
                    InputFile(files.chart, filename=files.chart_name),
                    caption=t(lang, "summary.chart_caption", number=files.number),
                    message_thread_id=due.thread_id,
                )
            if not await self._mark(CHART):
                return None
        if self.sent < CSV:
            if not await self._hold():
                return None
            self.sent_now[CSV] = await _send_csv(bot, chat_id, files, lang, due.thread_id)
            if not await self._mark(CSV):
                return None
        return PostedSummary(files, *(self.sent_now.get(part) for part in (CARD, CHART, CSV)))


async def post_summary(
    bot: Bot,
    ledger: LedgerService,
    due: DueSummary,
    *,
    lang: str | None = None,
    idle_hours: float | None = None,
) -> PostedSummary | None:
    """Post the claimed summary `due` (`LedgerService.claim_summary` / `claim_next_summary`): the card,
    then the chart and the CSV ledger, each marked in the ledger as it goes out, from the first part not
    out yet (in the /end's forum topic). The card goes first so a failing upload never hides the result;
    with no recorded row the card says so and nothing else is sent. `idle_hours` titles the card of a
    session the idle sweep ended.

    A send Telegram refuses, or any other failure (building it in the worker process, the worker dying or
    timing out, the storage), leaves the rest due again later (`retry_summary`: the pause doubles, given
    up days later) and returns None, logged; nothing is raised (the caller's /end or sweep went well: the
    summary sweep tries again). None too when a claim another poster took over; a group that became a
    supergroup is followed there (the ledger moves, the parts go to the new chat)."""
    post = _Post(bot, ledger, due, lang, idle_hours)
    try:
        return await to_group(ledger, due.chat_id, post.run)
    except TelegramError as exc:
        log.warning("summary of session %s: a send to chat %s failed (%s)", due.session_id, due.chat_id, exc)
    except Exception:
        log.exception("summary of session %s for chat %s failed", due.session_id, due.chat_id)
    await _retry(ledger, due)
    return None


async def _retry(ledger: LedgerService, due: DueSummary) -> None:
    """The post of `due` failed: due again after a pause (or given up), as the ledger says."""
    try:
        again = await asyncio.to_thread(ledger.retry_summary, due)
    except Exception as exc:  # the storage again, most likely: the claim's lease runs out instead
        log.warning("summary of session %s not rescheduled (%s): due as its lease ends", due.session_id, exc)
        return
    log.info(
        "summary of session %s %s",
        due.session_id, f"due again at {again:%H:%M:%S}" if again else "not retried",
    )  # fmt: skip


async def post_ended(
    bot: Bot,
    ledger: LedgerService,
    session_id: int,
    *,
    lang: str | None = None,
    idle_hours: float | None = None,
) -> PostedSummary | None:
    """The summary of a session this caller just ended (/end's Confirm, the idle sweep), at once: claimed
    and posted (`post_summary`); nothing when another poster has it already, or when the claim fails (the
    storage, logged: the summary is due, the sweep posts it)."""
    try:
        due = await asyncio.to_thread(ledger.claim_summary, session_id)
    except Exception:
        log.exception("summary of session %s not claimed; it is due, left to the summary sweep", session_id)
        return None
    if due is None:
        return None
    return await post_summary(bot, ledger, due, lang=lang, idle_hours=idle_hours)


async def _send_csv(
    bot: Bot, chat_id: int, files: SummaryFiles, lang: str, thread_id: int | None = None
) -> Message:
    """The session's CSV ledger (built whenever asked for: its header alone when it has no row)."""
    if files.csv is None:
        raise ValueError(f"no CSV was built for session {files.number} of chat {files.chat_id}")
    return await bot.send_document(
        chat_id,
        InputFile(files.csv, filename=files.csv_name),
        caption=t(lang, "summary.csv_caption", number=files.number),
        message_thread_id=thread_id,
    )


async def send_csv(
    bot: Bot,
    ledger: LedgerService,
    chat_id: int,
    session_id: int,
    *,
    lang: str | None = None,
    topic: int | None = None,
) -> Message:
    """Send one session's whole ledger as the CSV (/ledger's button under a long session), built in the
    worker process, in the forum topic of the button's message (`topic`)."""
    lang = await _language(ledger, chat_id, lang)
    files = await summary_files(ledger, chat_id, session_id, lang=lang, chart=False)
    return await _send_csv(bot, chat_id, files, lang, topic)


async def refresh_summary(
    bot: Bot, ledger: LedgerService, session_id: int, *, lang: str, idle_hours: float | None = None
) -> None:
    """Edit an ended session's summary in place: its transfers' states now, buttons for those still open
    (a summary that cannot be edited, deleted or too old, is left as it is)."""
    session = await asyncio.to_thread(ledger.get_session, session_id)
    if session.summary_message_id is None:
        return
    try:
        files = await summary_files(
            ledger, session.chat_id, session_id, lang=lang, idle_hours=idle_hours, chart=False, csv=False
        )
    except (TimeoutError, BrokenProcessPool):  # the payment stands; the card catches up at the next one
        log.exception("summary of session %s not rebuilt for its edit", session_id)
        return
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
    topic: int | None = None,
) -> Message | None:
    """Send the group's all-time running net by session (for /history, or /stats with one player's line
    via `player_id`), every line named (a player no longer seated too); None when the group has no session
    with a result yet. `caption` may be the whole answer (/history's list under its chart); `topic` the forum
    topic it was asked in."""
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
    photo = InputFile(png, filename="mahjong-history.png")
    return await bot.send_photo(chat_id, photo, caption=caption, message_thread_id=topic)
