"""Reading the ledger, open to anyone in the group: /score, /ledger, /history, /stats (with the chart)."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import Literal
from zoneinfo import ZoneInfo

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import TelegramError

from bot.buttons import LedgerCsvPress, ViewPress
from bot.handlers.callbacks import button, command
from bot.handlers.turn import Turn
from bot.ledger import Ledger, PlayerInfo, SessionInfo, SessionSummary
from bot.ledger.errors import AmbiguousPlayer, ForeignButton, UnknownPlayer
from bot.ledger.play import books, groups, sessions
from bot.render import history_text, ledger_page, person_name, signed, standings_text, stats_text
from bot.render.errors import Refusal
from bot.sender import send_text
from bot.summary.post import send_csv, send_history_chart
from bot.weekly import aware

log = logging.getLogger(__name__)

CHART_SESSIONS = 50  # the newest sessions drawn in the all-time chart
LEDGER_PAGE = 120  # the newest rows /ledger reads; it shows as many as fit one message


CAPTION_LIMIT = 1024  # Telegram's limit for a photo's caption


async def send_chart_if_any(
    bot: Bot,
    ledger: Ledger,
    chat_id: int,
    lang: str,
    *,
    player_id: int | None = None,
    caption: str | None = None,
    text: str | None = None,
    topic: int | None = None,
) -> bool:
    """Send the group's all-time running totals by session (one player's line with `player_id`) when
    there is a finished session to draw (one the player played in); True if a chart went out. `text` is
    the answer the chart goes with, sent as its caption: one message; on its own when there is no chart. Both
    go to the forum topic the answer was asked in (`topic`).

    The PNG is rendered in a worker thread (bot.summary.post). A chart that cannot be drawn or sent is
    logged and left out: the text is still given."""
    sent = None
    try:
        summaries = await asyncio.to_thread(ledger.read, books.history, chat_id, limit=CHART_SESSIONS)
        if any(
            s.session.status == "ended" and (s.totals if player_id is None else player_id in s.totals)
            for s in summaries
        ):
            sent = await send_history_chart(
                bot,
                ledger,
                chat_id,
                lang=lang,
                player_id=player_id,
                limit=CHART_SESSIONS,
                caption=text or caption,
                topic=topic,
            )
    except (TelegramError, OSError, ValueError, RuntimeError):
        log.exception("could not send the history chart of chat %s", chat_id)
    if sent is None and text:
        await send_text(bot, chat_id, text, topic=topic)
    return sent is not None


async def answer_with_chart(turn: Turn, text: str, *, player: PlayerInfo | None = None) -> None:
    """The answer and its chart: one photo with the answer as caption where it fits one, else the text now
    and the chart after it. The chart is drawn in a task of the application: a slow first matplotlib
    import never holds up the next update."""
    fits = len(text) <= CAPTION_LIMIT
    if not fits:
        await turn.say(text)
    caption = turn.t("stats.chart_caption", name=player.name) if player else None
    player_id = player.id if player else None
    turn.context.application.create_task(
        send_chart_if_any(
            turn.context.bot,
            turn.ledger,
            turn.chat_id,
            turn.lang,
            player_id=player_id,
            caption=caption,
            text=text if fits else None,
            topic=turn.thread_id,
        ),
        update=turn.update,
        name=f"history-chart:{turn.chat_id}",
    )


@command("score")
async def score(turn: Turn) -> None:
    """/score: session standings and all-time totals; /score <player>: that player's line."""
    if not turn.text:
        report = await turn.read(books.standings, turn.chat_id)
        await turn.say(standings_text(turn.lang, report.session, report.session_rows, report.alltime_rows))
        return
    player = await known_player(turn, "score")
    if player is not None:
        await score_of(turn, player)


async def score_of(turn: Turn, player: PlayerInfo) -> None:
    """/score <player>: this session's points and the money of the ended sessions."""
    report = await turn.read(books.standings, turn.chat_id)
    session_net = next((r.net for r in report.session_rows if r.player.id == player.id), None)
    alltime_net = next((r.net for r in report.alltime_rows if r.player.id == player.id), None)
    if session_net is None and alltime_net is None:
        raise Refusal("score.never_played", name=player.name)
    await turn.reply(
        "score.player",
        name=person_name(turn.lang, player),
        session=signed(session_net or 0),
        alltime=signed(alltime_net or 0),
    )


async def known_player(turn: Turn, view: Literal["score", "stats"]) -> PlayerInfo | None:
    """The player `/score <name>` or `/stats <name>` asks about; a name nobody in the group goes by has
    never played here (said so, not "not found"); a name several people go by is asked, a button per
    person ("Fay（1）", "Fay（2）": a guest too), and None returned."""
    try:
        return (await turn.read(groups.find_player, turn.chat_id, turn.text))[0]
    except UnknownPlayer:
        raise Refusal("score.never_played", name=turn.text) from None
    except AmbiguousPlayer:
        people = await turn.read(groups.players_named, turn.chat_id, turn.text)
        rows = [
            [InlineKeyboardButton(person_name(turn.lang, p), callback_data=ViewPress(p.id, view).data)]
            for p in people
        ]
        await turn.reply("score.which", InlineKeyboardMarkup(rows), name=turn.text)
        return None


@button(ViewPress.parse)
async def view_pressed(turn: Turn, press: ViewPress) -> None:
    """The person /score or /stats meant, pressed: that person's answer, for anyone in the group."""
    player = await turn.read(groups.get_player, press.player_id)
    if player.chat_id != turn.chat_id:
        raise ForeignButton("a player of another group")
    await turn.answer()
    player = next(
        (p for p in await turn.read(groups.players_named, turn.chat_id, player.name) if p.id == player.id),
        player,
    )
    await (score_of(turn, player) if press.view == "score" else stats_of(turn, player))


@command("ledger")
async def ledger(turn: Turn) -> None:
    """/ledger: the hand-by-hand table of the open session (or the last one)."""
    if turn.text:
        raise Refusal("err.too_many_args", usage=True, value=turn.text)
    session = turn.session
    if session is None:
        past = await turn.read(books.history, turn.chat_id, limit=1)
        if not past:
            raise Refusal("err.no_session")
        session = past[0].session
    rows = await turn.read(books.ledger_rows, session.id, last=LEDGER_PAGE)
    people = (await turn.read(books.standings, turn.chat_id, session_id=session.id)).session_rows
    text, cut = ledger_page(turn.lang, session, rows, complete=len(rows) < LEDGER_PAGE, people=people)
    markup = None
    if cut:
        whole = InlineKeyboardButton(turn.t("book.csv_button"), callback_data=LedgerCsvPress(session.id).data)
        markup = InlineKeyboardMarkup([[whole]])
    await turn.say(text, markup)


@button(LedgerCsvPress.parse)
async def ledger_csv_pressed(turn: Turn, press: LedgerCsvPress) -> None:
    """/ledger's button: the whole ledger of that session as the CSV (read and written in a worker
    thread), for anyone in the group; a button of another chat's session does nothing."""
    session = await turn.read(sessions.get_session, press.session_id)
    if session.chat_id != turn.chat_id:
        await turn.answer(turn.t("err.foreign_button"), alert=True)
        return
    await turn.answer()
    await send_csv(
        turn.context.bot, turn.ledger, turn.chat_id, session.id, lang=turn.lang, topic=turn.thread_id
    )


def local_dates(summaries: list[SessionSummary], timezone: str) -> list[SessionSummary]:
    """The sessions with their times in the group's time zone (a session opened at 23:30 in Shanghai is
    listed under that day, not the UTC one)."""
    zone = ZoneInfo(timezone)

    def local(session: SessionInfo) -> SessionInfo:
        ended = aware(session.ended_at).astimezone(zone) if session.ended_at else None
        return replace(session, opened_at=aware(session.opened_at).astimezone(zone), ended_at=ended)

    return [replace(summary, session=local(summary.session)) for summary in summaries]


@command("history")
async def history(turn: Turn) -> None:
    """/history: the group's past sessions, newest first, with each player's net; then the all-time chart
    when a session has ended."""
    if turn.text:
        raise Refusal("err.too_many_args", usage=True, value=turn.text)
    summaries = local_dates(await turn.read(books.history, turn.chat_id), turn.state.group.timezone)
    ids = {pid for s in summaries for pid in s.totals}
    ledger = turn.ledger
    names = await turn.run(lambda: {pid: ledger.read(groups.get_player, pid).name for pid in ids})
    text = history_text(turn.lang, summaries, names)
    if any(s.status == "ended" for s in (summary.session for summary in summaries)):
        await answer_with_chart(turn, text)
    else:
        await turn.say(text)


@command("stats")
async def stats(turn: Turn) -> None:
    """/stats: lifetime statistics of every player of the group and the all-time chart; /stats <player>
    for one, with that player's line of the chart."""
    player = None
    if turn.text:
        player = await known_player(turn, "stats")
        if player is None:
            return
    await stats_of(turn, player)


async def stats_of(turn: Turn, player: PlayerInfo | None) -> None:
    """/stats for one person (None: everyone) with the chart."""
    rows = await turn.read(books.player_stats, turn.chat_id, player_id=player.id if player else None)
    if player is not None and not any(row.hands or row.sessions for row in rows):
        raise Refusal("score.never_played", name=player.name)
    if not rows:
        await turn.reply("stats.empty")
        return
    await answer_with_chart(turn, stats_text(turn.lang, rows), player=player)
