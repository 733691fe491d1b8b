"""Posting the summary to a chat: the text card, the chart (sendPhoto) and the CSV (sendDocument), as the
ledger's state of that summary says (`bot.ledger.claims.summaries`): each part sent under the claim's lease
renewed right before it and marked once out, a failed post due again later, a group that became a
supergroup followed; and the /history and /stats charts.

Everything is built in this process, its blocking parts in worker threads: the session's numbers are
read and the card goes out at once; the chart (`chart.draw`, the one path of every chart) and the CSV are
built after it. A payment edits the card's settling-up lines under the head this process kept
(`CardHeads`): the session's rows are not read again."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from cachetools import LRUCache
from telegram import Bot, InputFile, Message
from telegram.error import TelegramError

from bot.i18n import t
from bot.ledger import DueSummary, Ledger, SessionInfo
from bot.ledger.claims import summaries
from bot.ledger.money import settling
from bot.ledger.play import books, groups, sessions
from bot.sender import edit_text, send_text, to_group
from bot.summary import chart as charts
from bot.summary.card import CardHead, card_head, card_text, chart_data, history_chart_data
from bot.summary.csvfile import csv_filename, ledger_csv
from bot.summary.offload import OFFLOAD_HANDS, Offloaded, card_parts, shareable_url
from bot.summary.settling import settle_markup
from bot.summary.tally import SessionReport, build_report
from bot.weekly import DEFAULT_TIMEZONE

log = logging.getLogger(__name__)

CARD, CHART, CSV = 1, 2, 3  # the parts out once each has gone (`DueSummary.sent`)
HEADS_KEPT = 512  # card heads kept per ledger for the payments' edits (each at most one message: ~2 MB)


@dataclass(frozen=True, slots=True)
class PostedSummary:
    """What this post sent: the card, the chart and the CSV messages (None: out before, by an earlier try,
    or not sent: the session had no row, or the chart could not be drawn)."""

    card: Message | None
    chart: Message | None
    document: Message | None


class CardHeads:
    """The heads of the summary cards (`CardHead`: fixed once the session ended) this process built, the
    newest HEADS_KEPT per ledger, by session, language and idle title. A payment's edit takes its head
    from here and renders only the transfer lines; a head not kept (after a restart, or posted by another
    process on the same database) is built from the session's rows once, then kept. Used on the event
    loop only (no lock)."""

    def __init__(self) -> None:
        self._kept: WeakKeyDictionary[Ledger, LRUCache[tuple[int, str, float | None], CardHead]]
        self._kept = WeakKeyDictionary()

    def keep(self, ledger: Ledger, key: tuple[int, str, float | None], head: CardHead) -> CardHead:
        kept = self._kept.get(ledger)
        if kept is None:
            kept = self._kept[ledger] = LRUCache(maxsize=HEADS_KEPT)
        kept[key] = head
        return head

    def get(self, ledger: Ledger, key: tuple[int, str, float | None]) -> CardHead | None:
        kept = self._kept.get(ledger)
        return kept.get(key) if kept is not None else None


HEADS = CardHeads()


async def _language(ledger: Ledger, chat_id: int, lang: str | None) -> str:
    if lang:
        return lang
    state = await asyncio.to_thread(groups.chat_state, ledger, chat_id)
    return state.group.language


async def _timezone(ledger: Ledger, chat_id: int) -> str:
    state = await asyncio.to_thread(groups.chat_state, ledger, chat_id)
    return state.group.timezone or DEFAULT_TIMEZONE


def _idle(session: SessionInfo, idle_hours: float | None) -> float | None:
    """The idle hours a card is titled with: only for a session the idle sweep ended."""
    return idle_hours if session.end_reason == "idle" else None


async def read_report(ledger: Ledger, session_id: int) -> SessionReport:
    """The session's numbers: every live row read (in a worker thread), the card's, chart's and CSV's."""
    return await asyncio.to_thread(build_report, ledger, session_id)


def _head(ledger: Ledger, report: SessionReport, lang: str, idle_hours: float | None) -> CardHead:
    """The card's head of `report`, kept for the payments' edits."""
    idle = _idle(report.session, idle_hours)
    head = card_head(report, lang, idle_hours=idle)
    return HEADS.keep(ledger, (report.session.id, lang, idle), head)


async def _chart(report: SessionReport, lang: str) -> bytes | None:
    """The session chart as PNG, drawn in a worker thread; None when it could not be drawn (logged)."""
    try:
        return await charts.draw(await asyncio.to_thread(chart_data, report, lang))
    except (OSError, ValueError, RuntimeError):
        log.exception("could not draw the chart of session %s", report.session.id)
        return None


class _Post:
    """One claimed summary going out, part by part, from the first not out yet."""

    def __init__(
        self, bot: Bot, ledger: Ledger, due: DueSummary, lang: str | None, idle_hours: float | None
    ) -> None:
        self.bot, self.ledger, self.due, self.lang, self.idle_hours = bot, ledger, due, lang, idle_hours
        self.sent = due.sent
        self.sent_now: dict[int, Message] = {}

    async def _hold(self, part: int) -> bool:
        """Right before the send of `part`: the claim still this poster's, its lease renewed and the part
        marked in flight (False: another poster's claim took over, send nothing)."""
        return await asyncio.to_thread(
            self.ledger.write_once, None, summaries.renew, self.due, self.ledger.now(), part
        )

    def _maybe_out(self, part: int) -> bool:
        """Whether an earlier poster began to send `part` and never heard back (it stopped, or failed
        before marking it): the part may be in the chat already. A chart or CSV is then not sent again
        (nothing said twice); the card is, since it carries the result (a stale copy's buttons are taken
        away when pressed: `handlers.settling`)."""
        return self.due.sending >= part > self.due.sent

    async def _mark(self, part: int, card_message_id: int | None = None) -> bool:
        self.sent = part
        return await asyncio.to_thread(
            self.ledger.write_once,
            None,
            summaries.mark_sent,
            self.due,
            part,
            self.ledger.now(),
            card_message_id=card_message_id,
        )

    async def run(self, chat_id: int) -> PostedSummary | None:
        """Send what is not out yet to `chat_id`; None when another poster's claim took over."""
        due, bot, ledger = self.due, self.bot, self.ledger
        lang = await _language(ledger, chat_id, self.lang)
        zone = await _timezone(ledger, chat_id) if self.sent < CSV else DEFAULT_TIMEZONE
        idle = self.idle_hours if due.end_reason == "idle" else None
        away = await _offloaded(ledger, due.session_id)
        report: SessionReport | None = None
        if away is None:
            report = await read_report(ledger, due.session_id)
            parts = await asyncio.to_thread(card_parts, report, lang, idle, zone)
        else:
            parts = await away.card(lang, idle, zone)
        head = HEADS.keep(ledger, (due.session_id, lang, idle), parts.head)
        if self.sent < CARD:
            if not await self._hold(CARD):
                return None
            markup = settle_markup(lang, parts.transfers, bot.username)
            text = card_text(head, lang, parts.transfers, parts.figures)
            card = await send_text(bot, chat_id, text, markup, topic=due.thread_id)
            self.sent_now[CARD] = card  # with no row the card is the whole summary
            if not await self._mark(CARD if parts.has_rows else CSV, card.message_id):
                return None
            for earlier in await asyncio.to_thread(
                ledger.read, settling.carried_from, due.session_id
            ):  # "carried" lines
                await refresh_summary(bot, ledger, earlier, lang=lang)
        if self.sent < CHART and self._maybe_out(CHART):
            log.info("summary of session %s: its chart may be out already; not sent again", due.session_id)
        elif self.sent < CHART:
            png = await (_chart(report, lang) if report is not None else _offloaded_chart(away, lang))
            if png is not None:  # None: it could not be drawn (logged), left out
                if not await self._hold(CHART):
                    return None
                self.sent_now[CHART] = await bot.send_photo(
                    chat_id,
                    InputFile(png, filename=parts.chart_name),
                    caption=t(lang, "summary.chart_caption", number=parts.number),
                    message_thread_id=due.thread_id,
                )
        if self.sent < CHART and not await self._mark(CHART):
            return None
        if self.sent < CSV and self._maybe_out(CSV):
            log.info("summary of session %s: its CSV may be out already; not sent again", due.session_id)
            if not await self._mark(CSV):
                return None
        if self.sent < CSV:
            if report is not None:
                data = await asyncio.to_thread(ledger_csv, report, lang, timezone=zone)
            else:
                assert away is not None
                data = await away.csv(lang, zone)
            if not await self._hold(CSV):
                return None
            self.sent_now[CSV] = await bot.send_document(
                chat_id,
                InputFile(data, filename=parts.csv_name),
                caption=t(lang, "summary.csv_caption", number=parts.number),
                message_thread_id=due.thread_id,
            )
            if not await self._mark(CSV):
                return None
        return PostedSummary(*(self.sent_now.get(part) for part in (CARD, CHART, CSV)))


async def _offloaded(ledger: Ledger, session_id: int) -> Offloaded | None:
    """The worker process's builder of a long session's summary (`offload`); None: built here."""
    url = shareable_url(ledger)
    if url is None:
        return None
    session = await asyncio.to_thread(ledger.read, sessions.get_session, session_id)
    return Offloaded(url, session_id) if session.hands_played >= OFFLOAD_HANDS else None


async def _offloaded_chart(away: Offloaded | None, lang: str) -> bytes | None:
    """A long session's chart, drawn in the worker process; None when it could not be drawn (logged)."""
    assert away is not None
    try:
        return await away.chart(lang)
    except (OSError, ValueError, RuntimeError):
        log.exception("could not draw the chart of session %s", away.session_id)
        return None


async def post_summary(
    bot: Bot,
    ledger: Ledger,
    due: DueSummary,
    *,
    lang: str | None = None,
    idle_hours: float | None = None,
) -> PostedSummary | None:
    """Post the claimed summary `due` (`bot.ledger.claims.summaries.claim` / `claim_next`): the card,
    then the chart and the CSV ledger, each marked in the ledger as it goes out, from the first part not
    out yet (in the /end's forum topic). The card goes first so a failing upload never hides the result;
    with no recorded row the card says so and nothing else is sent. `idle_hours` titles the card of a
    session the idle sweep ended.

    A send Telegram refuses, or any other failure (reading or building it, the storage), leaves the rest
    due again later (`summaries.retry`: the pause doubles, given up days later) and returns None, logged;
    nothing is raised (the caller's /end or sweep went well: the summary sweep tries again). None too when
    a claim another poster took over; a group that became a supergroup is followed there (the ledger
    moves, the parts go to the new chat)."""
    post = _Post(bot, ledger, due, lang, idle_hours)
    try:
        return await to_group(ledger, due.chat_id, post.run)
    except TelegramError as exc:  # answered: the part in flight goes again
        log.warning("summary of session %s: a send to chat %s failed (%s)", due.session_id, due.chat_id, exc)
        await _retry(ledger, due, answered=True)
        return None
    except Exception:
        log.exception("summary of session %s for chat %s failed", due.session_id, due.chat_id)
    await _retry(ledger, due)
    return None


async def _retry(ledger: Ledger, due: DueSummary, *, answered: bool = False) -> None:
    """The post of `due` failed: due again after a pause (or given up), as the ledger says."""
    try:
        again = await asyncio.to_thread(
            ledger.write_once, None, summaries.retry, due, ledger.now(), answered=answered
        )
    except Exception as exc:  # the storage again, most likely: the claim's lease runs out instead
        log.warning("summary of session %s not rescheduled (%s): due as its lease ends", due.session_id, exc)
        return
    log.info(
        "summary of session %s %s",
        due.session_id,
        f"due again at {again:%H:%M:%S}" if again else "not retried",
    )


async def post_ended(
    bot: Bot,
    ledger: Ledger,
    session_id: int,
    *,
    lang: str | None = None,
    idle_hours: float | None = None,
) -> PostedSummary | None:
    """The summary of a session this caller just ended (/end's Confirm, the idle sweep), at once: claimed
    and posted (`post_summary`); nothing when another poster has it already, or when the claim fails (the
    storage, logged: the summary is due, the sweep posts it)."""
    try:
        due = await asyncio.to_thread(
            ledger.write_once, None, summaries.claim, session_id, ledger.now(), ender=True
        )
    except Exception:
        log.exception("summary of session %s not claimed; it is due, left to the summary sweep", session_id)
        return None
    if due is None:
        return None
    return await post_summary(bot, ledger, due, lang=lang, idle_hours=idle_hours)


async def _send_csv(
    bot: Bot, chat_id: int, report: SessionReport, lang: str, zone: str, thread_id: int | None = None
) -> Message:
    """The session's CSV ledger, written in a worker thread (its header alone when it has no row)."""
    data = await asyncio.to_thread(ledger_csv, report, lang, timezone=zone)
    return await bot.send_document(
        chat_id,
        InputFile(data, filename=csv_filename(report, zone)),
        caption=t(lang, "summary.csv_caption", number=report.session.number),
        message_thread_id=thread_id,
    )


async def send_csv(
    bot: Bot,
    ledger: Ledger,
    chat_id: int,
    session_id: int,
    *,
    lang: str | None = None,
    topic: int | None = None,
) -> Message:
    """Send one session's whole ledger as the CSV (/ledger's button under a long session), in the forum
    topic of the button's message (`topic`)."""
    lang = await _language(ledger, chat_id, lang)
    report = await read_report(ledger, session_id)
    return await _send_csv(bot, chat_id, report, lang, await _timezone(ledger, chat_id), topic)


async def refresh_summary(
    bot: Bot, ledger: Ledger, session_id: int, *, lang: str, idle_hours: float | None = None
) -> None:
    """Edit an ended session's summary in place after a payment: its head as it was built (`CardHeads`),
    its transfers' states now, buttons for those still open (a summary that cannot be edited, deleted or
    too old, is left as it is). A failure to read it is logged: the payment stands, the card catches up at
    the next one."""
    session = await asyncio.to_thread(ledger.read, sessions.get_session, session_id)
    if session.summary_message_id is None:
        return
    idle = _idle(session, idle_hours)
    try:
        head = HEADS.get(ledger, (session_id, lang, idle))
        if head is None:
            head = _head(ledger, await read_report(ledger, session_id), lang, idle_hours)
        transfers = await asyncio.to_thread(ledger.read, books.transfers, session_id)
        figures = await asyncio.to_thread(ledger.read, settling.figures, session_id)
    except Exception:
        log.exception("summary of session %s not read for its edit", session_id)
        return
    try:
        markup = settle_markup(lang, transfers, bot.username)
        text = card_text(head, lang, transfers, figures)
        await edit_text(bot, session.chat_id, session.summary_message_id, text, markup)
    except TelegramError as exc:
        log.info("summary %s of session %s not edited: %s", session.summary_message_id, session_id, exc)


async def send_history_chart(
    bot: Bot,
    ledger: Ledger,
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
    summaries = await asyncio.to_thread(ledger.read, books.history, chat_id, limit=limit)
    ids = {pid for summary in summaries for pid in summary.totals}
    names = await asyncio.to_thread(lambda: {pid: ledger.read(groups.get_player, pid).name for pid in ids})
    data = history_chart_data(summaries, lang, player_id=player_id, names=names)
    if data is None:
        return None
    png = await charts.draw(data)
    if caption is None:
        caption = t(lang, "summary.history_chart_caption")
    photo = InputFile(png, filename="mahjong-history.png")
    return await bot.send_photo(chat_id, photo, caption=caption, message_thread_id=topic)
