"""Plain-text rendering of previews, one-line results, the pinned table card, ledgers and standings."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from bot.i18n import has, t
from bot.ledger.values import (
    SEATS,
    CardView,
    HandPreview,
    HandRecord,
    LedgerRow,
    PlayerStats,
    SessionInfo,
    SessionSummary,
    Standing,
    Transfer,
)
from bot.render.items import (
    doubling_marks,
    item_lines,
    join_words,
    term_name,
)

MINUS = "−"  # U+2212: reads as a minus sign next to CJK text, unlike a hyphen
MESSAGE_LIMIT = 4000  # Telegram allows 4096 characters per message
EXEMPT_SHOWN = 3  # a refusal names this many exempt patterns, then 等 / …


def wind(lang: str | None, seat: object) -> str:
    """东 / 東 / E for a seat letter; anything else as given."""
    return t(lang, f"wind.{seat}") if seat in SEATS else str(seat)


def signed(amount: int) -> str:
    """`+600`, `−200`, `0`.

    >>> signed(600), signed(-200), signed(0)
    ('+600', '−200', '0')
    """
    if amount > 0:
        return f"+{amount}"
    if amount < 0:
        return f"{MINUS}{-amount}"
    return "0"


def rules_name(lang: str | None, rules: str) -> str:
    """苏州麻将 / 宿州麻将 in the chat's language."""
    return t(lang, f"rules_name.{rules}")


def player_name(session: SessionInfo, seat: str) -> str:
    """The seated player's name, or the seat letter for an empty seat."""
    player = session.seats.get(seat)
    return player.name if player else seat


def seat_and_name(lang: str | None, session: SessionInfo, seat: str) -> str:
    """`东 张强`: the wind and the seated player's name."""
    return f"{wind(lang, seat)} {player_name(session, seat)}"


def payments_text(lang: str | None, payments: Mapping[str, int], first: Sequence[str] = ()) -> str:
    """`南 +600 · 东 −200 · 西 −200 · 北 −200`: the winners first, then seat order; zero amounts left out.

    >>> payments_text("zh-Hans", {"E": -200, "S": 600, "W": -200, "N": -200}, ["S"])
    '南 +600 · 东 −200 · 西 −200 · 北 −200'
    """
    order = [s for s in first if s in payments] + [s for s in SEATS if s not in first]
    parts = [f"{wind(lang, s)} {signed(payments[s])}" for s in order if payments.get(s)]
    return " · ".join(parts) if parts else "0"


def refusal_text(lang: str | None, reason: Mapping[str, Any], winner: str | None = None) -> str:
    """Why one win was refused, with its numbers: `refusal.<reason>` (below_threshold: what the hand has,
    what it needs, and the first few patterns exempt from the threshold, 等 for the rest). `reason` is a
    refused win of the scoring core's response (or of `HandPreview.reasons`); `winner` names the winner
    instead of its wind alone.

    >>> refusal_text("zh-Hans", {"winner": "W", "reason": "self_draw_only"})
    '西：本桌只许自摸，不能和冲。'
    """
    code = str(reason.get("reason") or "other")
    key = f"refusal.{code}" if has(f"refusal.{code}") else "refusal.other"
    threshold = reason.get("threshold") or {}
    exempt = [term_name(lang, str(p)) for p in threshold.get("exempt") or ()]
    patterns = join_words(lang, exempt[:EXEMPT_SHOWN])
    if len(exempt) > EXEMPT_SHOWN:
        patterns = t(lang, "refusal.exempt_more", patterns=patterns)
    return t(
        lang,
        key,
        winner=winner or wind(lang, reason.get("winner")),
        have=threshold.get("have", 0),
        need=threshold.get("need", 0),
        exempt=t(lang, "refusal.exempt", patterns=patterns) if exempt else "",
    )


def _times(lang: str | None, win: Mapping[str, Any]) -> str:
    """` ×2` after a result's 花 when the win was multiplied; "" otherwise."""
    factor = int(win.get("multiplier") or 1)
    return t(lang, "result.times", factor=factor) if factor != 1 else ""


def _streak(lang: str | None, streak: int) -> str:
    return t(lang, "result.streak", streak=streak) if streak > 0 else ""


def _wins(entry: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return list(entry.get("wins") or [])


def _how(
    lang: str | None,
    prefix: str,
    entry: Mapping[str, Any],
    win: Mapping[str, Any],
    name: Callable[[str], str] | None = None,
) -> str:
    """Who won and how, in the tables' words: 南 自摸 / 东 点炮，西 胡 / 西 抢 东 的杠 / 南 包饺子（北 包）.
    `name` names a seat (the wind alone by default; the preview adds the player)."""
    who = name or (lambda seat: wind(lang, seat))
    winner = who(str(win.get("winner")))
    flags = win.get("flags") or {}
    fed = flags.get("kong_fed_by")
    if fed:  # 包饺子 on the replacement tile; 送杠 a later self-draw (option songgang)
        key = "kong_fed" if flags.get("after_kong") else "songgang"
        return t(lang, f"{prefix}.{key}", winner=winner, discarder=who(str(fed)))
    kind = win.get("type", "self_draw")
    discarder = who(str(entry.get("discarder")))
    if kind == "discard":
        return t(lang, f"{prefix}.discard", winner=winner, discarder=discarder)
    if kind == "rob_kong":
        return t(lang, f"{prefix}.rob_kong", winner=winner, discarder=discarder)
    return t(lang, f"{prefix}.self_draw", winner=winner)


def scored_win(response: Mapping[str, Any], seat: str) -> Mapping[str, Any]:
    """The scoring core's answer for one winner ({} if it has none)."""
    return next((w for w in response.get("wins", []) if w.get("winner") == seat), {})


def _hua_by_winner(response: Mapping[str, Any]) -> dict[str, int]:
    return {w["winner"]: int(w.get("hua") or 0) for w in response.get("wins", [])}


def hand_summary(lang: str | None, hand: HandRecord | HandPreview) -> str:
    """A short description of one row: `南 自摸 40花`, `荒庄`, `北 逃跑`, `调账 东→西 50`."""
    entry, response = hand.entry, hand.response
    if hand.kind == "draw":
        return t(lang, "row.draw")
    if hand.kind == "escape":
        return t(lang, "row.escape", player=wind(lang, entry.get("escaper")))
    if hand.kind == "adjust":
        payer = next((s for s, a in hand.payments.items() if a < 0), "?")
        payee = next((s for s, a in hand.payments.items() if a > 0), "?")
        return t(
            lang,
            "row.adjust",
            payer=wind(lang, payer),
            payee=wind(lang, payee),
            amount=max(hand.payments.values(), default=0),
        )
    hua = _hua_by_winner(response)
    wins = _wins(entry)
    if len(wins) == 1:
        win = wins[0]
        return t(
            lang,
            "row.win",
            how=_how(lang, "result", entry, win),
            hua=hua.get(win["winner"], 0),
        )
    seats = [w["winner"] for w in wins]
    winners = join_words(
        lang, (t(lang, "result.winner_hua", winner=wind(lang, w), hua=hua.get(w, 0)) for w in seats)
    )
    return t(lang, "row.multi", winners=winners, discarder=wind(lang, entry.get("discarder")))


def result_line(lang: str | None, hand: HandRecord) -> str:
    """The one line after a commit:
    `第7局 南 自摸 40花 → 南 +600 · 东 −200 · 西 −200 · 北 −200 · 下局庄 南 (连庄1)`."""
    entry, after = hand.entry, hand.after
    streak = _streak(lang, after.streak)
    dealer = wind(lang, after.dealer)
    if hand.kind == "adjust":
        payer = next((s for s, a in hand.payments.items() if a < 0), "?")
        payee = next((s for s, a in hand.payments.items() if a > 0), "?")
        note = t(lang, "result.note", note=hand.note) if hand.note else ""
        return t(
            lang,
            "result.adjust",
            payer=wind(lang, payer),
            payee=wind(lang, payee),
            amount=max(hand.payments.values(), default=0),
            note=note,
        )
    if hand.kind == "draw":
        return t(lang, "result.draw", n=hand.number, dealer=dealer, streak=streak)
    if hand.kind == "escape":
        escaper = entry.get("escaper")
        return t(
            lang,
            "result.escape",
            n=hand.number,
            player=wind(lang, escaper),
            payments=payments_text(lang, hand.payments),
            dealer=dealer,
            streak=streak,
        )
    # the allowed winners: a refused one of a 一炮多响 is paid nothing (its preview said why)
    wins = [w for w in _wins(entry) if scored_win(hand.response, w["winner"]).get("allowed", True)]
    winners = [w["winner"] for w in wins]
    payments = payments_text(lang, hand.payments, winners)
    hua = _hua_by_winner(hand.response)
    if len(wins) == 1:
        win = wins[0]
        return t(
            lang,
            "result.win",
            n=hand.number,
            how=_how(lang, "result", entry, win),
            hua=hua.get(win["winner"], 0),
            times=_times(lang, scored_win(hand.response, win["winner"])),
            payments=payments,
            dealer=dealer,
            streak=streak,
        )
    listed = join_words(
        lang, (t(lang, "result.winner_hua", winner=wind(lang, w), hua=hua.get(w, 0)) for w in winners)
    )
    return t(
        lang,
        "result.multi",
        n=hand.number,
        winners=listed,
        discarder=wind(lang, entry.get("discarder")),
        payments=payments,
        dealer=dealer,
        streak=streak,
    )


def preview_text(
    lang: str | None,
    preview: HandPreview,
    session: SessionInfo,
    *,
    number: int | None = None,
    note: str | None = None,
) -> str:
    """The itemized preview: each 花 item, T, multipliers, every player's amount, the next dealer."""
    n = number if number is not None else preview.before.hand_number
    lines = [t(lang, "preview.title_adjust") if preview.kind == "adjust" else t(lang, "preview.title", n=n)]
    entry, response = preview.entry, preview.response
    if preview.kind == "draw":
        lines.append(t(lang, "preview.draw"))
    elif preview.kind == "escape":
        escaper = str(entry.get("escaper"))
        who = f"{wind(lang, escaper)} {player_name(session, escaper)}"
        lines.append(t(lang, "preview.escape", player=who))
    elif preview.kind == "adjust":
        payer = next((s for s, a in preview.payments.items() if a < 0), "?")
        payee = next((s for s, a in preview.payments.items() if a > 0), "?")
        lines.append(
            t(
                lang,
                "preview.adjust",
                payer=f"{wind(lang, payer)} {player_name(session, payer)}",
                payee=f"{wind(lang, payee)} {player_name(session, payee)}",
                amount=max(preview.payments.values(), default=0),
                note=t(lang, "result.note", note=preview.note) if preview.note else "",
            )
        )
    else:
        by_winner = {w.get("winner"): w for w in response.get("wins", [])}
        for win in _wins(entry):
            seat = win["winner"]
            scored = by_winner.get(seat, {})
            who = seat_and_name(lang, session, seat)
            if not scored.get("allowed", True):
                lines.append(t(lang, "preview.not_allowed", reason=refusal_text(lang, scored or win, who)))
                continue
            lines.append(
                t(
                    lang,
                    "preview.win_line",
                    how=_how(lang, "preview", entry, win, lambda s: seat_and_name(lang, session, s)),
                    hua=scored.get("hua", 0),
                )
            )
            lines += item_lines(lang, scored, win)
    if preview.kind != "draw":
        winners = [w["winner"] for w in _wins(entry)]
        lines.append(t(lang, "preview.payments", payments=payments_text(lang, preview.payments, winners)))
    if preview.kind != "adjust":
        after = preview.after
        next_dealer = wind(lang, after.dealer)
        lines.append(t(lang, "preview.next", dealer=next_dealer, streak=_streak(lang, after.streak)))
        if preview.after.diling:
            lines.append(t(lang, "preview.next_diling"))
    if note:
        lines.append(note)
    return "\n".join(lines)


def seats_block(lang: str | None, session: SessionInfo, totals: Mapping[str, int] | None = None) -> list[str]:
    """One line per seat: wind, name, dealer mark, and the running total when given."""
    lines = []
    for seat in SEATS:
        player = session.seats.get(seat)
        name = player.name if player else t(lang, "lobby.empty")
        mark = t(lang, "seat.dealer_mark") if session.dealer_known and session.state.dealer == seat else ""
        line = t(lang, "seat.line", wind=wind(lang, seat), name=name, dealer_mark=mark)
        if totals is not None and player is not None:
            line += f"  {signed(totals.get(seat, 0))}"
        lines.append(line)
    return lines


def state_line(lang: str | None, session: SessionInfo) -> str:
    """`第 8 局 · 庄 南 · 连庄 1 · 圈风 东`, plus 豹子 / 滴零 marks for the coming hand."""
    state = session.state
    if not session.dealer_known:
        line = t(lang, "seat.state_no_dealer", hand=state.hand_number)
    else:
        line = t(
            lang,
            "seat.state",
            hand=state.hand_number,
            dealer=wind(lang, state.dealer),
            streak=state.streak,
            round_wind=wind(lang, state.round_wind),
        )
    return " · ".join([line, *doubling_marks(lang, session)])


def row_amounts(payments: Mapping[str, int]) -> str:
    """Every seat's amount in seat order: `+600 −200 −200 −200`."""
    return " ".join(signed(payments.get(s, 0)) for s in SEATS)


def card_row(lang: str | None, hand: HandRecord) -> str:
    """One row of the pinned card: `7  南 自摸 40花  +600 −200 −200 −200`."""
    return t(
        lang,
        "book.row",
        n=_row_label(lang, hand),
        what=hand_summary(lang, hand),
        amounts=row_amounts(hand.payments),
    )


def substitutes_line(lang: str | None, seat: str, people: Sequence[Standing]) -> str | None:
    """Under a seat more than one person sat at (/sub): each of them with their own net, earlier first:
    `  Dan −30 → Eve +10`; None for a seat of one person."""
    here = [p for p in people if p.seat == seat]
    if len(here) < 2:
        return None
    return "  " + " → ".join(f"{p.player.name} {signed(p.net)}" for p in here)


def table_card(lang: str | None, card: CardView) -> str:
    """The pinned message of a session: seats with totals, the coming hand, the latest rows (`card.recent`,
    the newest live rows; `card.rows` how many live rows there are). A seat taken over (/sub) shows the
    seat's total and, under it, everyone who sat there with their own net."""
    session, rows = card.session, card.rows
    title_key = "lobby.title" if not rows and session.hands_played == 0 else "book.title"
    lines = [t(lang, title_key, rules=rules_name(lang, session.rules), stake=session.stake)]
    for seat, line in zip(SEATS, seats_block(lang, session, card.totals if rows else None), strict=True):
        lines.append(line)
        under = substitutes_line(lang, seat, card.people)
        if under is not None:
            lines.append(under)
    if len(session.seats) < 4 and not rows:
        lines.append(t(lang, "lobby.waiting"))
    elif not session.is_open:
        lines.append(t(lang, "end.ended"))
    else:
        lines.append(state_line(lang, session))
    lines += owed_lines(lang, card.owed)
    if rows:
        lines.append("—")
        if rows > len(card.recent):
            lines.append("…")
        lines += [card_row(lang, hand) for hand in card.recent]
    return "\n".join(lines)


def owed_lines(lang: str | None, owed: Sequence[Transfer]) -> list[str]:
    """上次欠的 on an open table's card: each earlier transfer still open (what is left of it), which goes
    into this table's transfers at its end."""
    if not owed:
        return []
    lines = [t(lang, "settle.owed_header")]
    lines += [t(lang, "settle.owed_line", number=tr.session_number, payer=tr.payer.name,
                payee=tr.payee.name, amount=tr.open) for tr in owed]  # fmt: skip
    return lines


def _row_label(lang: str | None, hand: HandRecord) -> str:
    return t(lang, "book.adjust_label") if hand.kind == "adjust" else str(hand.number)


def ledger_page(
    lang: str | None, session: SessionInfo, rows: Sequence[LedgerRow], *, complete: bool = True
) -> tuple[str, bool]:
    """The /ledger table in one message: the newest rows that fit under Telegram's limit, with the
    session's totals under them; True when older rows were left out (`complete` False: `rows` is already
    only the newest page), which the message then says."""
    header = [
        t(lang, "book.title", rules=rules_name(lang, session.rules), stake=session.stake),
        t(lang, "book.header", names=" ".join(f"{wind(lang, s)}{player_name(session, s)}" for s in SEATS)),
    ]
    if not rows:
        return "\n".join([*header, t(lang, "book.empty")]), False
    total = t(lang, "book.total", amounts=row_amounts(rows[-1].running))
    body: list[str] = []
    size = sum(len(line) + 1 for line in (*header, total)) + len(t(lang, "book.recent", shown=len(rows)))
    for row in reversed(rows):  # newest first, until the message is full
        line = t(
            lang, "book.row", n=_row_label(lang, row.hand), what=hand_summary(lang, row.hand),
            amounts=row_amounts(row.hand.payments),
        )  # fmt: skip
        if size + len(line) + 1 > MESSAGE_LIMIT:
            break
        body.append(line)
        size += len(line) + 1
    cut = not complete or len(body) < len(rows)
    note = [t(lang, "book.recent", shown=len(body))] if cut else []
    return "\n".join([*header, *note, *reversed(body), total]), cut


def split_messages(lines: Iterable[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Group lines into messages of at most `limit` characters."""
    chunks: list[str] = []
    current: list[str] = []
    size = 0
    for line in lines:
        if current and size + len(line) + 1 > limit:
            chunks.append("\n".join(current))
            current, size = [], 0
        current.append(line[:limit])
        size += len(line) + 1
    if current:
        chunks.append("\n".join(current))
    return chunks


def standings_text(
    lang: str | None,
    session: SessionInfo | None,
    session_rows: Sequence[Standing],
    alltime_rows: Sequence[Standing],
) -> str:
    """/score: the session's standings by seat, then the group's all-time totals."""
    lines = []
    if session is not None:
        lines.append(t(lang, "score.header", rules=rules_name(lang, session.rules), stake=session.stake))
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
    order = {seat: i for i, seat in enumerate(SEATS)}
    ranked = sorted(enumerate(rows), key=lambda ir: (order.get(ir[1].seat or "", len(SEATS)), ir[0]))
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
                biggest=row.biggest_hua,
                net=signed(row.net),
                sessions=row.sessions,
                streak=row.longest_streak,
            )
        )
    return "\n".join(lines)
