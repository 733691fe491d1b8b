"""The numbers of an end-of-session summary, read from the ledger service (no Telegram, no matplotlib)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from bot.ledger import Ledger, LedgerRow, PlayerInfo, SessionInfo, SettleFigures, Transfer
from bot.ledger.money import settling
from bot.ledger.play import books, sessions
from bot.ledger.values import SEATS, HandRecord, wins_of
from scoring.seats import Seat


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """One player's line on the card: seat ("" for none), net result and counts over the session."""

    seat: Seat | Literal[""]
    player: PlayerInfo
    net: int
    hands: int
    wins: int
    self_draws: int
    dealt_in: int  # 放冲


@dataclass(frozen=True, slots=True)
class BiggestHand:
    """The win that brought its winner the most in one hand."""

    number: int  # 第n局
    seat: Seat
    player: PlayerInfo
    amount: int  # what the winner received, stake applied
    hua: int  # 花 (T per payer for suzhou, f for suzhou-anhui)
    win_type: str  # self_draw / discard / rob_kong
    items: tuple[tuple[str, str], ...]  # (id, name) of each scoring item and pattern, as scored


@dataclass(frozen=True, slots=True)
class LongestStreak:
    """The longest 连庄: the dealer kept the deal `count` times in a row, reached after hand `number`."""

    number: int
    seat: Seat
    player: PlayerInfo
    count: int


@dataclass(frozen=True, slots=True)
class SessionReport:
    """Everything the end-of-session card, chart and CSV show."""

    session: SessionInfo
    players: tuple[PlayerLine, ...]  # seat order E S W N, the one seated there now
    hands_played: int  # wins, draws and escapes; adjustments are not hands
    # Every win as big as the biggest, every 连庄 as long as the longest (ties), earliest first; () if none.
    biggest: tuple[BiggestHand, ...]
    longest_streaks: tuple[LongestStreak, ...]
    transfers: tuple[Transfer, ...]
    rows: tuple[LedgerRow, ...]  # live ledger rows with running totals by seat
    # Everyone who played, seat order, a seat's earlier player before its substitute (/sub): own totals.
    people: tuple[PlayerLine, ...] = ()
    # Each person's settle figures (net, carried in, before and after 抹零) once the session has ended.
    figures: tuple[SettleFigures, ...] = ()
    # The earlier transfers whose open rest went into this session's transfers (上次欠的, carried).
    carried_in: tuple[Transfer, ...] = ()


def _said(entry: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The wins an entry says (an adjustment's: none)."""
    return list(entry.get("wins") or [])


def _wins(hand: HandRecord) -> list[dict[str, Any]]:
    """The allowed wins of a hand, each with its type from the entry."""
    types = {w["winner"]: w["type"] for w in _said(hand.entry)}
    return [{**w, "type": types.get(w.get("winner"))} for w in wins_of(hand.response) if w["allowed"]]


def _player(
    session: SessionInfo, hand: HandRecord, seat: Seat, people: Mapping[int, PlayerInfo]
) -> PlayerInfo:
    """Who sat at `seat` when `hand` was recorded (`seat_players`: an earlier player after a /sub), else the
    seat's current holder."""
    pid = hand.seat_players.get(seat)
    if pid is not None and pid in people:
        return people[pid]
    return session.seats[seat]


def biggest_hands(
    session: SessionInfo, hands: list[HandRecord], people: Mapping[int, PlayerInfo] | None = None
) -> tuple[BiggestHand, ...]:
    """The live wins with the largest amount received by their winner, earliest first (several on a tie),
    each naming the one who played it."""
    best: list[BiggestHand] = []
    for hand in hands:
        if hand.kind != "win" or hand.voided:
            continue
        for win in _wins(hand):
            seat = win["winner"]
            amount = int(hand.payments.get(seat, 0))
            if best and amount < best[0].amount:
                continue
            items = tuple(
                (str(item.get("id") or ""), str(item.get("name") or item.get("id")))
                for item in win.get("items", [])
            )
            found = BiggestHand(
                number=hand.number,
                seat=seat,
                player=_player(session, hand, seat, people or {}),
                amount=amount,
                hua=int(win.get("hua") or 0),
                win_type=str(win.get("type") or ""),
                items=items,
            )
            best = [*best, found] if best and amount == best[0].amount else [found]
    return tuple(best)


def longest_streaks(
    session: SessionInfo, hands: list[HandRecord], people: Mapping[int, PlayerInfo] | None = None
) -> tuple[LongestStreak, ...]:
    """The longest 连庄 of the session, from the dealer state after each live hand, earliest first (every
    dealer who reached it on a tie), each naming the one who dealt; () if nobody kept the deal."""
    best: list[LongestStreak] = []
    for hand in hands:
        if hand.voided or hand.kind == "adjust":
            continue
        count = hand.after.streak
        if count <= 0 or (best and count < best[0].count):
            continue
        seat = hand.after.dealer
        found = LongestStreak(
            number=hand.number, seat=seat, player=_player(session, hand, seat, people or {}), count=count
        )
        best = [*best, found] if best and count == best[0].count else [found]
    return tuple(best)


def build_report(ledger: Ledger, session_id: int) -> SessionReport:
    """Read one session (open or ended) from the ledger and gather the summary's numbers.

    Synchronous (database reads): call it through `asyncio.to_thread` from a handler.
    """
    session = ledger.read(sessions.get_session, session_id)
    rows = ledger.read(books.ledger_rows, session_id)
    hands = [row.hand for row in rows]
    stats = {s.player.id: s for s in ledger.read(books.player_stats, session.chat_id, session_id=session_id)}
    nets: dict[int, int] = {}
    for hand in hands:
        for player_id, amount in hand.player_payments.items():
            nets[player_id] = nets.get(player_id, 0) + amount
    lines = []
    for seat in SEATS:
        player = session.seats.get(seat)
        if player is None:
            continue
        st = stats.get(player.id)
        lines.append(
            PlayerLine(
                seat=seat,
                player=player,
                net=nets.get(player.id, 0),
                hands=st.hands if st else 0,
                wins=st.wins if st else 0,
                self_draws=st.self_draws if st else 0,
                dealt_in=st.dealt_in if st else 0,
            )
        )
    order: dict[Seat | None, int] = {seat: i for i, seat in enumerate(SEATS)}
    standings = ledger.read(books.standings, session.chat_id, session_id=session_id).session_rows
    people = tuple(
        PlayerLine(
            seat=row.seat or "",
            player=row.player,
            net=row.net,
            hands=row.hands,
            wins=row.wins,
            self_draws=row.self_draws,
            dealt_in=row.dealt_in,
        )
        for _, row in sorted(enumerate(standings), key=lambda ir: (order.get(ir[1].seat, 4), ir[0]))
    )
    by_id = {row.player.id: row.player for row in standings}
    return SessionReport(
        session=session,
        players=tuple(lines),
        people=people or tuple(lines),
        hands_played=sum(1 for h in hands if h.kind != "adjust"),
        biggest=biggest_hands(session, hands, by_id),
        longest_streaks=longest_streaks(session, hands, by_id),
        transfers=tuple(ledger.read(books.transfers, session_id)),
        figures=tuple(ledger.read(settling.figures, session_id)),
        carried_in=tuple(ledger.read(settling.carried_into, session_id)),
        rows=tuple(rows),
    )
