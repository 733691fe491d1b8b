"""The books: a session's ledger pages, the standings, /history and /stats."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.i18n import t
from bot.ledger.values import (
    SEATS,
    LedgerRow,
    PlayerStats,
    SessionInfo,
    SessionSummary,
    Standing,
)
from bot.render.card import row_amounts, row_label, substitutes_line
from bot.render.hands import hand_summary
from bot.render.items import join_words
from bot.render.words import MESSAGE_LIMIT, player_name, rules_name, signed, stake_text, wind
from scoring.rules import SUZHOU_ANHUI, RuleSetId
from scoring.seats import Seat


def _seat_names(session: SessionInfo, seat: Seat, people: Sequence[Standing]) -> str:
    """Whoever sat at a seat this session, earlier first (`Bob/Eve` after a /sub), else its sitter."""
    names = [p.player.name for p in people if p.seat == seat]
    return "/".join(names) if len(names) > 1 else player_name(session, seat)


def ledger_page(
    lang: str | None,
    session: SessionInfo,
    rows: Sequence[LedgerRow],
    *,
    complete: bool = True,
    people: Sequence[Standing] = (),
) -> tuple[str, bool]:
    """The /ledger table in one message: the newest rows that fit under Telegram's limit, with the
    session's totals under them; True when older rows were left out (`complete` False: `rows` is already
    only the newest page), which the message then says. The columns are seats: a seat someone took over
    (/sub, `people`) is headed by everyone who sat there, and each person's own net is listed under the
    totals."""
    names = " ".join(
        t(lang, "book.column", wind=wind(lang, s), names=_seat_names(session, s, people)) for s in SEATS
    )
    header = [
        t(
            lang,
            "book.title",
            rules=rules_name(lang, session.rules),
            stake=stake_text(lang, session.rules, session.stake),
        ),
        t(lang, "book.header", names=names),
    ]
    if not rows:
        return "\n".join([*header, t(lang, "book.empty")]), False
    own = [line.strip() for s in SEATS if (line := substitutes_line(lang, s, people))]  # 南位先后：…
    total = "\n".join([t(lang, "book.total", amounts=row_amounts(rows[-1].running)), *own])
    body: list[str] = []
    size = sum(len(line) + 1 for line in (*header, total)) + len(t(lang, "book.recent", shown=len(rows)))
    for row in reversed(rows):  # newest first, until the message is full
        line = t(
            lang,
            "book.row",
            n=row_label(lang, row.hand),
            what=hand_summary(lang, row.hand),
            amounts=row_amounts(row.hand.payments),
        )
        if size + len(line) + 1 > MESSAGE_LIMIT:
            break
        body.append(line)
        size += len(line) + 1
    cut = not complete or len(body) < len(rows)
    note = [t(lang, "book.recent", shown=len(body))] if cut else []
    return "\n".join([*header, *note, *reversed(body), total]), cut


def standings_text(
    lang: str | None,
    session: SessionInfo | None,
    session_rows: Sequence[Standing],
    alltime_rows: Sequence[Standing],
) -> str:
    """/score: the session's standings by seat, then the group's all-time totals."""
    lines = []
    if session is not None:
        lines.append(
            t(
                lang,
                "score.header",
                rules=rules_name(lang, session.rules),
                stake=stake_text(lang, session.rules, session.stake),
            )
        )
        lines += session_standings(lang, session_rows)
    lines.append(t(lang, "score.alltime"))
    if not alltime_rows:
        lines.append(t(lang, "score.none"))
    for row in alltime_rows:
        lines.append(t(lang, "score.line", name=row.player.name, amount=signed(row.net)))
    return "\n".join(lines)


def session_standings(lang: str | None, rows: Sequence[Standing]) -> list[str]:
    """One line per person of a session, in seat order (everyone who sat at a seat under it, earlier
    first: /sub), each with their own net: `东 Ann +10`."""
    order: dict[Seat | None, int] = {seat: i for i, seat in enumerate(SEATS)}
    ranked = sorted(enumerate(rows), key=lambda ir: (order.get(ir[1].seat, len(SEATS)), ir[0]))
    lines = []
    for _, row in ranked:
        name = f"{wind(lang, row.seat)} {row.player.name}" if row.seat else row.player.name
        lines.append(t(lang, "score.line", name=name, amount=signed(row.net)))
    return lines


def history_text(lang: str | None, summaries: Sequence[SessionSummary], names: Mapping[int, str]) -> str:
    """/history: one line per session, newest first."""
    if not summaries:
        return t(lang, "history.none")
    lines = [t(lang, "history.header")]
    for summary in summaries:
        s = summary.session
        results = " · ".join(
            f"{names.get(pid, str(pid))} {signed(net)}"
            for pid, net in sorted(summary.totals.items(), key=lambda kv: -kv[1])
        )
        status = "" if s.status == "ended" else t(lang, "history.open")
        lines.append(
            t(
                lang,
                "history.line",
                n=s.number,
                date=f"{s.opened_at:%Y-%m-%d}",
                rules=rules_name(lang, s.rules),
                hands=summary.hands_played,
                results=results or "—",
            )
            + status
        )
    return "\n".join(lines)


def biggest_text(lang: str | None, biggest: Sequence[tuple[RuleSetId, int]]) -> str:
    """`苏州麻将 10花、宿州麻将 花数 6`: the most 花 of one win per rule set, each in its own words (苏州's
    花 are T, 宿州's its flower count f), never one number over both."""
    parts = [
        t(
            lang,
            "stats.biggest_count" if rules == SUZHOU_ANHUI else "stats.biggest_hua",
            rules=rules_name(lang, rules),
            hua=hua,
        )
        for rules, hua in biggest
    ]
    return join_words(lang, parts) if parts else t(lang, "stats.biggest_none")


def stats_text(lang: str | None, stats: Sequence[PlayerStats]) -> str:
    """/stats: lifetime statistics, one block per player."""
    lines = []
    for row in stats:
        lines.append(t(lang, "stats.header", name=row.player.name))
        lines.append(
            t(
                lang,
                "stats.body",
                hands=row.hands,
                wins=row.wins,
                self_draws=row.self_draws,
                discards=row.dealt_in,
                biggest=biggest_text(lang, row.biggest),
                net=signed(row.net),
                sessions=row.sessions,
                streak=row.longest_streak,
            )
        )
    return "\n".join(lines)
