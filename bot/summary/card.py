"""The text of the end-of-session card and the chart's labels, in the group's language (plain text)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.i18n import t
from bot.ledger import SessionSummary, SettleFigures, Transfer
from bot.render import MESSAGE_LIMIT, person_name, rules_name, signed, stake_text, wind
from bot.render.items import is_pattern, join_words, term_name
from bot.summary.chart import ChartData, ChartSeries
from bot.summary.csvfile import local_day
from bot.summary.settling import transfer_lines
from bot.summary.tally import SessionReport
from bot.text import shorten
from bot.weekly import DEFAULT_TIMEZONE
from scoring.rules import SUZHOU_ANHUI

TIES_SHOWN = 3  # hands of a tie the card names; the CSV has every hand


@dataclass(frozen=True, slots=True)
class CardHead:
    """The summary card above its settling-up block: title, one line per player, biggest hand, longest
    连庄. Fixed once the session has ended; a payment changes only the lines under it (`card_text`)."""

    text: str
    played: bool  # False: the session had no hand, the head is the whole card (nothing to settle)
    carried_in: tuple[Transfer, ...] = ()  # the earlier transfers this session's replace (fixed at its end)


def card_head(report: SessionReport, lang: str | None, *, idle_hours: float | None = None) -> CardHead:
    """The card's head (`idle_hours` set: the session was ended by the idle job after that many hours)."""
    title = _title(report, lang, idle_hours)
    if report.hands_played == 0 and not report.rows:
        return CardHead("\n".join([title, t(lang, "summary.no_hands")]), played=False)
    lines = [title, "", *_people(report, lang), "", *_biggest(report, lang), _streak(report, lang)]
    return CardHead("\n".join(lines), played=True, carried_in=report.carried_in)


def card_text(
    head: CardHead, lang: str | None, transfers: Sequence[Transfer], figures: Iterable[SettleFigures] = ()
) -> str:
    """The whole card: its head, then the transfers as they stand now (and the settle figures)."""
    if not head.played:
        return head.text
    text = "\n".join([head.text, "", *transfer_lines(lang, transfers, figures, head.carried_in)])
    # bounded by the people and the transfers; cut as a last resort only
    return shorten(text, MESSAGE_LIMIT)


def render_card(report: SessionReport, lang: str | None, *, idle_hours: float | None = None) -> str:
    """The summary card: title, one line per player, biggest hand, longest 连庄, transfers.

    `idle_hours` set means the session was ended by the idle job after that many hours.
    """
    head = card_head(report, lang, idle_hours=idle_hours)
    return card_text(head, lang, report.transfers, report.figures)


def _title(report: SessionReport, lang: str | None, idle_hours: float | None) -> str:
    s = report.session
    return t(
        lang,
        "summary.title_idle" if idle_hours is not None else "summary.title",
        number=s.number,
        rules=rules_name(lang, s.rules),
        stake=stake_text(lang, s.rules, s.stake),
        hands=report.hands_played,
        hours=f"{idle_hours:g}" if idle_hours is not None else "",
    )


def _people(report: SessionReport, lang: str | None) -> list[str]:
    """One line per person who played (after a /sub, the one who left too), best first."""
    return [
        t(
            lang,
            "summary.player",
            seat=wind(lang, line.seat),
            name=person_name(lang, line.player),
            net=signed(line.net),
            hands=line.hands,
            wins=line.wins,
            self_draws=line.self_draws,
            dealt_in=line.dealt_in,
        )
        for line in sorted(report.people or report.players, key=lambda p: -p.net)
    ]


def _biggest(report: SessionReport, lang: str | None) -> list[str]:
    """The biggest hand: the first hands of a tie, each with its player; the rest counted."""
    bigs = report.biggest
    if not bigs:
        return [t(lang, "summary.no_biggest")]
    lines = []
    for big in bigs[:TIES_SHOWN]:
        names = [term_name(lang, term_id, name) for term_id, name in big.items if is_pattern(term_id)]
        items = join_words(lang, names)  # what the hand was: 清一色、七对, never its 底 or 硬花
        lines.append(
            t(
                lang,
                "summary.biggest_count" if report.session.rules == SUZHOU_ANHUI else "summary.biggest",
                number=big.number,
                seat=wind(lang, big.seat),
                name=person_name(lang, big.player),
                how=t(lang, f"summary.how_{big.win_type}"),
                hua=big.hua,
                amount=signed(big.amount),
                items=t(lang, "summary.items", items=items) if items else "",
            )
        )
    if len(bigs) > TIES_SHOWN:
        lines.append(t(lang, "summary.more_ties", count=len(bigs) - TIES_SHOWN))
    return lines


def _streak(report: SessionReport, lang: str | None) -> str:
    """The longest 连庄, its players and hands (the first of a tie)."""
    streaks = report.longest_streaks
    if not streaks:
        return t(lang, "summary.no_streak")
    each = [  # each player with the hand their streak reached: 南 Bob（到第2局）
        t(
            lang,
            "summary.streak_who",
            who=f"{wind(lang, s.seat)} {person_name(lang, s.player)}",
            number=s.number,
        )
        for s in streaks[:TIES_SHOWN]
    ]
    more = t(lang, "summary.and_more") if len(streaks) > TIES_SHOWN else ""
    return t(lang, "summary.streak", players=join_words(lang, each) + more, count=streaks[0].count)


def chart_data(report: SessionReport, lang: str | None) -> ChartData:
    """One line per person who played (a seat's earlier player and its substitute apart, each ending at
    their own net), one point per hand: an adjustment moves the totals at the next hand's point (after the
    last hand, at the last one); the x-axis counts hands only."""
    s = report.session
    people = report.people or report.players
    running = dict.fromkeys((person.player.id for person in people), 0)
    labels: list[str] = []
    points: list[dict[int, int]] = []
    for row in report.rows:
        for pid, amount in row.hand.player_payments.items():
            running[pid] = running.get(pid, 0) + amount
        if row.hand.kind != "adjust":
            labels.append(str(row.hand.number))
            points.append(dict(running))
    if not points or points[-1] != running:  # adjustments after the last hand (or only adjustments)
        if not points:
            labels.append(t(lang, "book.adjust_label"))
            points.append({})
        points[-1] = dict(running)
    names = legend_names(lang, [(person.seat, person_name(lang, person.player)) for person in people])
    return ChartData(
        title=t(
            lang,
            "summary.chart_title",
            number=s.number,
            rules=rules_name(lang, s.rules),
            stake=stake_text(lang, s.rules, s.stake),
        ),
        xlabel=t(lang, "summary.chart_x"),
        ylabel=t(lang, "summary.chart_y"),
        hands=tuple(labels),
        series=tuple(
            ChartSeries(name=name, totals=tuple(point.get(person.player.id, 0) for point in points))
            for person, name in zip(people, names, strict=True)
        ),
    )


def chart_filename(report: SessionReport, timezone: str = DEFAULT_TIMEZONE) -> str:
    """`mahjong-session-<n>-<yyyymmdd>.png` (the local date the session opened)."""
    return f"mahjong-session-{report.session.number}-{local_day(report, timezone)}.png"


def legend_names(lang: str | None, people: list[tuple[str, str]]) -> list[str]:
    """`西 张强` for each (seat, name); two alike get a number each, `西 张强（2）`, never a database id."""
    plain = [f"{wind(lang, seat)} {name}".strip() for seat, name in people]
    seen: dict[str, int] = {}
    names = []
    for name in plain:
        seen[name] = seen.get(name, 0) + 1
        twin = plain.count(name) > 1
        names.append(t(lang, "summary.legend_twin", name=name, n=seen[name]) if twin else name)
    return names


def history_chart_data(
    summaries: list[SessionSummary],
    lang: str | None,
    *,
    player_id: int | None = None,
    names: Mapping[int, str] | None = None,
) -> ChartData | None:
    """Each player's all-time running net after each session (oldest first), from `books.history`
    (newest first, as it returns them); one player's line, titled for them, with `player_id`. `names`
    gives every player's name (also one no longer seated); None without a session."""
    ordered = [s for s in reversed(summaries) if s.totals]
    if not ordered:
        return None
    known: dict[int, str] = dict(names or {})
    for summary in ordered:
        for player in summary.session.seats.values():
            known.setdefault(player.id, player.display_name)
    players = sorted({pid for s in ordered for pid in s.totals}, key=lambda pid: (known.get(pid, ""), pid))
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
    legend = legend_names(lang, [("", known.get(pid, "")) for pid in players])
    title = (
        t(lang, "stats.chart_title", name=known.get(player_id, ""))
        if player_id is not None
        else t(lang, "summary.history_chart_title")
    )
    return ChartData(
        title=title,
        xlabel=t(lang, "summary.history_chart_x"),
        ylabel=t(lang, "summary.chart_y"),
        hands=tuple(str(s.session.number) for s in ordered),
        series=tuple(
            ChartSeries(name=name, totals=tuple(lines[pid]))
            for pid, name in zip(players, legend, strict=True)
        ),
    )
