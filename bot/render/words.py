"""The words every reply shares: a wind, a signed amount, a rule set's name, a player, payments; long text
cut into messages that fit."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from bot.i18n import t
from bot.ledger.values import (
    SEATS,
    PlayerInfo,
    SessionInfo,
)
from scoring.rules import RuleSetId
from scoring.seats import Seat

MINUS = "−"  # U+2212: reads as a minus sign next to CJK text, unlike a hyphen


MESSAGE_LIMIT = 4000  # Telegram allows 4096 characters per message


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


def rules_name(lang: str | None, rules: RuleSetId) -> str:
    """苏州麻将 / 宿州麻将 in the chat's language."""
    return t(lang, f"rules_name.{rules}")


def stake_text(lang: str | None, rules: RuleSetId, stake: int) -> str:
    """What the table's stake is called at its rule set: 苏州's `每花 5`, 宿州's `底分 5`.

    >>> stake_text("zh-Hans", "suzhou", 5), stake_text("zh-Hans", "suzhou-anhui", 2)
    ('每花 5', '底分 2')
    """
    return t(lang, f"stake_label.{rules}", stake=stake)


def person_name(lang: str | None, player: PlayerInfo) -> str:
    """A person where money is shown: the display name, or "Fay（1）" when others of the group share it
    (`PlayerInfo.twin`)."""
    if player.twin:
        return t(lang, "summary.legend_twin", name=player.display_name, n=player.twin)
    return player.display_name


def player_name(session: SessionInfo, seat: Seat) -> str:
    """The seated player's name, or the seat letter for an empty seat."""
    player = session.seats.get(seat)
    return player.name if player else seat


def seat_and_name(lang: str | None, session: SessionInfo, seat: Seat) -> str:
    """`东 张强`: the wind and the seated player's name."""
    return f"{wind(lang, seat)} {player_name(session, seat)}"


def payments_text(lang: str | None, payments: Mapping[Seat, int], first: Sequence[Seat] = ()) -> str:
    """`南 +600 · 东 −200 · 西 −200 · 北 −200`: the winners first, then seat order; zero amounts left out.

    >>> payments_text("zh-Hans", {"E": -200, "S": 600, "W": -200, "N": -200}, ["S"])
    '南 +600 · 东 −200 · 西 −200 · 北 −200'
    """
    order = [s for s in first if s in payments] + [s for s in SEATS if s not in first]
    parts = [f"{wind(lang, s)} {signed(payments[s])}" for s in order if payments.get(s)]
    return " · ".join(parts) if parts else "0"


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
