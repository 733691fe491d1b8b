"""Reading the ledger, open to anyone in the group: /score, /ledger, /history, /stats."""

from __future__ import annotations

from bot.handlers.common import Refusal, Turn, command
from bot.render import history_text, ledger_text, signed, standings_text, stats_text


@command("score")
async def score(turn: Turn) -> None:
    """/score: session standings and all-time totals; /score <player>: that player's line."""
    ledger = turn.ledger
    report = await turn.run(ledger.standings, turn.chat_id)
    if not turn.text:
        await turn.say(standings_text(turn.lang, report.session, report.session_rows, report.alltime_rows))
        return
    player = await turn.run(ledger.find_player, turn.chat_id, turn.text)
    session_net = next((r.net for r in report.session_rows if r.player.id == player.id), 0)
    alltime_net = next((r.net for r in report.alltime_rows if r.player.id == player.id), 0)
    await turn.reply("score.player", name=player.name, session=signed(session_net),
                     alltime=signed(alltime_net))


@command("ledger")
async def ledger(turn: Turn) -> None:
    """/ledger: the hand-by-hand table of the open session (or the last one)."""
    if turn.text:
        raise Refusal("err.too_many_args", usage=True, value=turn.text)
    session = await turn.run(turn.ledger.current_session, turn.chat_id)
    if session is None:
        past = await turn.run(turn.ledger.history, turn.chat_id, limit=1)
        if not past:
            raise Refusal("err.no_session")
        session = past[0].session
    rows = await turn.run(turn.ledger.ledger, session.id)
    for chunk in ledger_text(turn.lang, session, rows):
        await turn.say(chunk)


@command("history")
async def history(turn: Turn) -> None:
    """/history: the group's past sessions, newest first, with each player's net."""
    if turn.text:
        raise Refusal("err.too_many_args", usage=True, value=turn.text)
    summaries = await turn.run(turn.ledger.history, turn.chat_id)
    ids = {pid for s in summaries for pid in s.totals}
    get_player = turn.ledger.get_player
    names = await turn.run(lambda: {pid: get_player(pid).name for pid in ids})
    await turn.say(history_text(turn.lang, summaries, names))


@command("stats")
async def stats(turn: Turn) -> None:
    """/stats: lifetime statistics of every player of the group; /stats <player> for one."""
    ledger = turn.ledger
    player_id = None
    if turn.text:
        player_id = (await turn.run(ledger.find_player, turn.chat_id, turn.text)).id
    rows = await turn.run(ledger.player_stats, turn.chat_id, player_id=player_id)
    if not rows:
        await turn.reply("stats.empty")
        return
    await turn.say(stats_text(turn.lang, rows))
