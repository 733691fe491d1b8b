"""The pinned table card: the seats, the dealer and round, the last hands, who still owes whom."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.i18n import t
from bot.ledger.values import (
    SEATS,
    CardView,
    HandRecord,
    SessionInfo,
    Standing,
    Transfer,
)
from bot.render.hands import hand_summary
from bot.render.items import (
    doubling_marks,
    join_words,
)
from bot.render.words import person_name, rules_name, signed, stake_text, wind
from scoring.rules import SUZHOU_ANHUI
from scoring.seats import Seat


def seats_block(
    lang: str | None, session: SessionInfo, totals: Mapping[Seat, int] | None = None
) -> list[str]:
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
    """`第8局 · 庄 南 · 连庄1`, the 连庄 only while the dealer keeps the deal, the 圈风 only where the rule
    set has one (宿州: `· 圈风 东`; 苏州 has no round wind), plus 豹子 / 滴零 marks for the coming hand."""
    state = session.state
    if not session.dealer_known:
        return " · ".join(
            [t(lang, "seat.state_no_dealer", hand=state.hand_number), *doubling_marks(lang, session)]
        )
    parts = [t(lang, "seat.state", hand=state.hand_number, dealer=wind(lang, state.dealer))]
    if state.streak:
        parts.append(t(lang, "seat.state_streak", streak=state.streak))
    if session.rules == SUZHOU_ANHUI:
        parts.append(t(lang, "seat.state_round", round_wind=wind(lang, state.round_wind)))
    return " · ".join([*parts, *doubling_marks(lang, session)])


def row_amounts(payments: Mapping[Seat, int]) -> str:
    """Every seat's amount in seat order: `+600 −200 −200 −200`."""
    return " ".join(signed(payments.get(s, 0)) for s in SEATS)


def card_row(lang: str | None, hand: HandRecord) -> str:
    """One row of the pinned card: `7  南 自摸 40花  +600 −200 −200 −200`."""
    return t(
        lang,
        "book.row",
        n=row_label(lang, hand),
        what=hand_summary(lang, hand),
        amounts=row_amounts(hand.payments),
    )


def substitutes_line(
    lang: str | None,
    seat: Seat,
    people: Sequence[Standing],
    now: int | None = None,
    total: int | None = None,
) -> str | None:
    """Under a seat more than one person sat at (/sub): each of them with their own net, the one sitting
    there now (`now`, a player id) last, and, given, the seat's total labelled as such:
    `  北位先后：Dan −30、Eve +10 · 座位合计 −20` (→ means pays on the card, so it is not used here); None for
    a seat of one person."""
    here = sorted((p for p in people if p.seat == seat), key=lambda p: p.player.id == now)
    if len(here) < 2:
        return None
    people_text = join_words(lang, [f"{p.player.name} {signed(p.net)}" for p in here])
    line = t(lang, "seat.substitutes", wind=wind(lang, seat), people=people_text)
    return line + t(lang, "seat.seat_total", total=signed(total)) if total is not None else line


def own_totals(
    session: SessionInfo, totals: Mapping[Seat, int], people: Sequence[Standing]
) -> dict[Seat, int]:
    """Each seat's figure for its seat line: the seat's total, or, at a seat someone took over (/sub), the
    own net of the person sitting there now (the seat's total is labelled apart, `substitutes_line`)."""
    out = dict(totals)
    for seat in SEATS:
        here = [p for p in people if p.seat == seat]
        sitter = session.seats.get(seat)
        if len(here) > 1 and sitter is not None:
            out[seat] = sum(p.net for p in here if p.player.id == sitter.id)
    return out


def table_card(lang: str | None, card: CardView) -> str:
    """The pinned message of a session: seats with totals, the coming hand, the latest rows (`card.recent`,
    the newest live rows; `card.rows` how many live rows there are). A seat taken over (/sub) shows the
    seat's total and, under it, everyone who sat there with their own net."""
    session, rows = card.session, card.rows
    title_key = "lobby.title" if not rows and session.hands_played == 0 else "book.title"
    lines = [
        t(
            lang,
            title_key,
            rules=rules_name(lang, session.rules),
            stake=stake_text(lang, session.rules, session.stake),
        )
    ]
    shown = own_totals(session, card.totals, card.people) if rows else None
    for seat, line in zip(SEATS, seats_block(lang, session, shown), strict=True):
        lines.append(line)
        sitting = session.seats.get(seat)
        total = card.totals.get(seat, 0) if rows else None
        under = substitutes_line(lang, seat, card.people, sitting.id if sitting else None, total)
        if under is not None:
            lines.append(under)
    if len(session.seats) < 4 and not rows:
        lines.append(t(lang, "lobby.waiting"))
    elif not session.is_open:
        lines.append(t(lang, "end.ended"))
    else:
        lines.append(state_line(lang, session))
    lines += owed_lines(lang, card.owed)
    lines += owed_lines(lang, card.owed_kept, kept=True)
    if rows:
        lines.append("—")
        if rows > len(card.recent):
            lines.append("…")
        lines += [card_row(lang, hand) for hand in card.recent]
    return "\n".join(lines)


def owed_lines(lang: str | None, owed: Sequence[Transfer], *, kept: bool = False) -> list[str]:
    """上次欠的 on an open table's card: each earlier transfer still open (what is left of it, and what its
    payer said is paid and waits for the payee), under the header of those that go into this table's
    transfers at its end, or (`kept`) of those that stay between their two people."""
    if not owed:
        return []
    lines = [t(lang, "settle.owed_kept_header" if kept else "settle.owed_header")]
    for tr in owed:
        line = t(
            lang,
            "settle.owed_line",
            number=tr.session_number,
            payer=person_name(lang, tr.payer),
            payee=person_name(lang, tr.payee),
            amount=tr.open,
        )
        if tr.claimed:
            line += t(lang, "settle.state_claimed", claimed=tr.claimed)
        lines.append(line)
    return lines


def row_label(lang: str | None, hand: HandRecord) -> str:
    return t(lang, "book.adjust_label") if hand.kind == "adjust" else str(hand.number)
