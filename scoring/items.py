"""花 items and the flower count f: which tiles are flowers in a rule set, and what each meld is worth."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

from scoring.errors import ScoringError
from scoring.rules import SUZHOU, SUZHOU_ANHUI, RuleSetId, is_playing_tile
from scoring.seats import Seat

if TYPE_CHECKING:
    from scoring.hand import Hand, Meld

WINDS = (27, 28, 29, 30)
DRAGONS = (31, 32, 33)
SEAT_WIND = {"E": 27, "S": 28, "W": 29, "N": 30}
WIND_FLOWER_NAME = {"E": "东", "S": "南", "W": "西", "N": "北"}
_DRAGON_FLOWER = {31: "白", 32: "发", 33: "中"}

# Flower tiles of each rule set and how many copies of each the set holds.
_SEASONS_PLANTS = ("春", "夏", "秋", "冬", "梅", "兰", "竹", "菊")
SUZHOU_FLOWERS: Mapping[str, int] = {
    "中": 4,
    "发": 4,
    "白": 4,
    "百搭": 4,
    **{name: 1 for name in _SEASONS_PLANTS},
    "老鼠": 1,
    "财神": 1,
    "猫": 1,
    "聚宝盆": 1,
}
ANHUI_FLOWERS: Mapping[str, int] = {"中": 4, "发": 4, "白": 4, **{name: 1 for name in _SEASONS_PLANTS}}


class Item(NamedTuple):
    """One line of a breakdown: a 花 item, a pattern or a settlement term, its 花, and the factor it puts on
    the settlement (`times`: 2 for 清一色 "x2", 3 for 包饺子 …; 1 for most)."""

    id: str
    hua: int
    times: int = 1


def _tile_label(tile: int) -> str:
    if tile >= 27:
        return f"{tile - 26}z"
    return f"{tile % 9 + 1}{'mps'[tile // 9]}"


@cache
def flower_copies(rules: RuleSetId, round_wind: Seat) -> Mapping[str, int]:
    """The flower tiles of a rule set (宿州: with the 令风 of the round) and their number of copies."""
    if rules == SUZHOU_ANHUI:
        return MappingProxyType({**ANHUI_FLOWERS, WIND_FLOWER_NAME[round_wind]: 4})
    return SUZHOU_FLOWERS


def check_hand_tiles(rules: RuleSetId, hand: Hand, round_wind: Seat, *, field: str) -> None:
    """Reject flower tiles among the playing tiles and flowers the rule set does not have."""
    limit = SEAT_WIND[round_wind] if rules == SUZHOU_ANHUI else DRAGONS[0]
    concealed = hand.concealed
    melds = hand.melds
    # Every tile below the first possible flower tile (the common case) is a playing tile: no tile loop.
    below = not concealed or max(concealed) < limit
    if not (below and (not melds or all(meld.tile < limit for meld in melds))):
        tiles: list[tuple[str, int]] = [("concealed", tile) for tile in hand.concealed]
        tiles += [("melds", meld.tile) for meld in hand.melds]
        for where, tile in tiles:
            if not is_playing_tile(rules, tile, round_wind):
                name = _DRAGON_FLOWER.get(tile) or WIND_FLOWER_NAME[_seat_of_wind(tile)]
                what = "令风 (round wind)" if tile in WINDS else "flower"
                raise ScoringError(
                    f"{field}.{where}: tile {_tile_label(tile)} ({name}) is a {what} tile in {rules}, "
                    f"list it under flowers",
                    code="flower_in_hand",
                    tile=_tile_label(tile),
                )
    flowers = hand.flowers
    if type(flowers) is tuple:  # the common case (check_flowers' first look): flowers of the set, none twice
        if not flowers:
            return
        distinct = set(flowers)
        if len(distinct) == len(flowers) and flower_copies(rules, round_wind).keys() >= distinct:
            return
    check_flowers(rules, flowers, round_wind, field=f"{field}.flowers")


def _seat_of_wind(tile: int) -> str:
    return "ESWN"[tile - 27]


def check_flowers(rules: RuleSetId, flowers: Iterable[str], round_wind: Seat, *, field: str) -> None:
    """Every flower must exist in the rule set, no more copies than the set holds."""
    copies = flower_copies(rules, round_wind)
    if type(flowers) is tuple:  # the common case: each one a flower of the rule set, none twice
        distinct = set(flowers)
        if len(distinct) == len(flowers) and copies.keys() >= distinct:
            return
    seen: dict[str, int] = {}
    for name in flowers:
        seen[name] = seen.get(name, 0) + 1
    for name, count in seen.items():
        if name not in copies:
            if rules == SUZHOU_ANHUI and name in WIND_FLOWER_NAME.values():
                raise ScoringError(
                    f"{field}: {name} is not the 令风 of this round (round wind "
                    f"{WIND_FLOWER_NAME[round_wind]}); it is a playing tile",
                    code="not_wind_flower",
                    flower=name,
                    wind=round_wind,
                )
            raise ScoringError(
                f"{field}: {name} is not a flower tile of {rules}",
                code="not_flower",
                flower=name,
                rules=rules,
            )
        if count > copies[name]:
            raise ScoringError(
                f"{field}: {count} × {name}, the set has only {copies[name]}",
                code="too_many_flowers",
                flower=name,
                count=count,
                copies=copies[name],
            )


def check_wild(rules: RuleSetId, wild: int | None, round_wind: Seat, *, field: str) -> None:
    """A 混子 exists only in 宿州 and must be a playing tile."""
    if wild is None:
        return
    if rules != SUZHOU_ANHUI:
        raise ScoringError(
            f"{field}: {rules} has no wild tile (混子); leave it null", code="no_wild", rules=rules
        )
    if not is_playing_tile(rules, wild, round_wind):
        raise ScoringError(
            f"{field}: {_tile_label(wild)} is a flower in this round, not a wild tile",
            code="wild_is_flower",
            tile=_tile_label(wild),
        )


def meld_item(rules: RuleSetId, meld: Meld) -> str | None:
    """The 花 item a meld scores (None for a plain suited pung)."""
    wind = meld.tile in WINDS
    if meld.kind == "pung":
        if not wind:
            return None
        return "fengpeng" if meld.exposed else "feng_anke"
    if rules == SUZHOU and wind:
        return "feng_minggang" if meld.exposed else "feng_angang"
    return "minggang" if meld.exposed else "angang"


def meld_item_counts(rules: RuleSetId, hand: Hand) -> dict[str, int]:
    """How many of each 花 item the flowers and melds of a hand give (the same for every decomposition)."""
    counts: dict[str, int] = {}
    if hand.flowers:
        counts["yinghua"] = len(hand.flowers)
    for meld in hand.melds:
        item = meld_item(rules, meld)
        if item:
            counts[item] = counts.get(item, 0) + 1
    return counts


ITEM_ORDER = (
    "di",
    "yinghua",
    "ruanhua",
    "minggang",
    "angang",
    "fengpeng",
    "feng_anke",
    "feng_minggang",
    "feng_angang",
)


def item_list(
    values: Mapping[str, int], counts: Mapping[str, int], *, yinghua_factor: int = 1, base: bool
) -> list[Item]:
    """The 花 items in table order: count × value (硬花 × factor for 七对), 底 first when it applies."""
    items = [Item("di", values["di"])] if base else []
    if counts:
        for item_id in sorted(counts, key=_RANK.__getitem__) if len(counts) > 1 else counts:
            count = counts[item_id]
            if count:
                factor = yinghua_factor if item_id == "yinghua" else 1
                items.append(Item(item_id, count * values[item_id] * factor))
    return items


_RANK = {item_id: rank for rank, item_id in enumerate(ITEM_ORDER)}


def soft_hua(items: Iterable[Item]) -> int:
    """The 花 of the meld items (everything but 底 and 硬花): what `threshold_counts_soft` adds."""
    return sum(item.hua for item in items if item.id not in ("di", "yinghua") and item.id in ITEM_ORDER)
