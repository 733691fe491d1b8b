"""The text of the end-of-session card and the chart's labels, in the group's language (plain text)."""

from __future__ import annotations

from bot.i18n import t
from bot.ledger import SessionSummary
from bot.render import join_words, rules_name, signed, term_name, wind
from bot.summary.chart import ChartData, ChartSeries
from bot.summary.settlement import transfer_lines
from bot.summary.tally import SessionReport


def render_card(report: SessionReport, lang: str | None, *, idle_hours: float | None = None) -> str:
    """The summary card: title, one line per player, biggest hand, longest 连庄, transfers.

    `idle_hours` set means the session was ended by the idle job after that many hours.
    """
    s = report.session
    title_key = "summary.title_idle" if idle_hours is not None else "summary.title"
    lines = [
        t(
            lang,
            title_key,
            number=s.number,
            rules=rules_name(lang, s.rules),
            stake=s.stake,
            hands=report.hands_played,
            hours=f"{idle_hours:g}" if idle_hours is not None else "",
        )
    ]
    if report.hands_played == 0 and not report.rows:
        lines.append(t(lang, "summary.no_hands"))
        return "\n".join(lines)
    lines.append("")
    for line in sorted(report.people or report.players, key=lambda p: -p.net):  # each person (/sub)
        lines.append(
            t(
                lang,
                "summary.player",
                seat=wind(lang, line.seat),
                name=line.player.display_name,
                net=signed(line.net),
                hands=line.hands,
                wins=line.wins,
                self_draws=line.self_draws,
                dealt_in=line.dealt_in,
            )
        )
    lines.append("")
    bigs = report.biggest
    if not bigs:
        lines.append(t(lang, "summary.no_biggest"))
    for big in bigs:  # every hand of a tie, each with its player
        names = [term_name(lang, term_id, name) for term_id, name in big.items]
        items = join_words(lang, names)
        lines.append(
            t(
                lang,
                "summary.biggest",
                number=big.number,
                seat=wind(lang, big.seat),
                name=big.player.display_name,
                how=t(lang, f"summary.how_{big.win_type}"),
                hua=big.hua,
                amount=signed(big.amount),
                items=t(lang, "summary.items", items=items) if items else "",
            )
        )
    streaks = report.longest_streaks
    if not streaks:
        lines.append(t(lang, "summary.no_streak"))
    else:
        who = list(dict.fromkeys(f"{wind(lang, s.seat)} {s.player.display_name}" for s in streaks))
        lines.append(
            t(
                lang,
                "summary.streak",
                players=join_words(lang, who),
                count=streaks[0].count,
                number=join_words(lang, [str(s.number) for s in streaks]),
            )
        )
    lines.append("")
    lines += transfer_lines(lang, report.transfers, report.figures)
    return "\n".join(lines)


def chart_data(report: SessionReport, lang: str | None) -> ChartData:
    """The running total of every seated player after each live ledger row."""
    s = report.session
    seats = [line.seat for line in report.players]
    return ChartData(
        title=t(lang, "summary.chart_title", number=s.number, rules=rules_name(lang, s.rules), stake=s.stake),
        xlabel=t(lang, "summary.chart_x"),
        ylabel=t(lang, "summary.chart_y"),
        hands=tuple(str(row.hand.number) for row in report.rows),
        series=tuple(
            ChartSeries(
                name=f"{wind(lang, seat)} {report.seat_name(seat)}",
                totals=tuple(int(row.running.get(seat, 0)) for row in report.rows),
            )
            for seat in seats
        ),
    )


def history_chart_data(
    summaries: list[SessionSummary], lang: str | None, *, player_id: int | None = None
) -> ChartData | None:
    """Each player's all-time running net after each session (oldest first), from `LedgerService.history`
    (newest first, as it returns them); one player's line with `player_id`. None without a session."""
    ordered = [s for s in reversed(summaries) if s.totals]
    if not ordered:
        return None
    names: dict[int, str] = {}
    for summary in ordered:
        for player in summary.session.seats.values():
            names[player.id] = player.display_name
    players = sorted({pid for s in ordered for pid in s.totals}, key=lambda pid: names.get(pid, str(pid)))
    if player_id is not None:
        players = [pid for pid in players if pid == player_id]
        if not players:
            return None
    running = dict.fromkeys(players, 0)
    lines: dict[int, list[int]] = {pid: [] for pid in players}
    for summary in ordered:
        for pid in players:
            running[pid] += summary.totals.get(pid, 0)
            lines[pid].append(running[pid])
    return ChartData(
        title=t(lang, "summary.history_chart_title"),
        xlabel=t(lang, "summary.history_chart_x"),
        ylabel=t(lang, "summary.chart_y"),
        hands=tuple(str(s.session.number) for s in ordered),
        series=tuple(ChartSeries(name=names.get(pid, str(pid)), totals=tuple(lines[pid])) for pid in players),
    )
