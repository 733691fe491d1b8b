"""The hand entry: what is said about one hand (docs/rules.md §4's event, discarder, escaper and wins), typed.

`build_entry` is the one place an entry is assembled: /hu's words, the button flow's presses, /calc's short
form and the tile picker all say the way of winning (`How`: 自摸 冲 抢杠 包 送杠) and each winner's part
(`Claim`), and get the same `EntryJSON`. The tile picker posts the builder's own arguments (`EntryArgs`, read
by `entry_args_from_json`); `entry_from_json` reads an entry sent as JSON (the picker's API takes one too)
back into the builder's arguments. Both name the field in their errors, so an entry from outside is built by
the same code. `request_for(table, entry)` is the scoring core's request of an entry at a table.

>>> e = build_entry("bao", [Claim("S", hard_flowers=5, patterns=("qingyise",))], other="W")
>>> e["wins"][0]["type"], e["wins"][0]["flags"]["after_kong"], e["wins"][0]["flags"]["kong_fed_by"]
('self_draw', True, 'W')
>>> e["wins"][0]["declared"]["patterns"]  # 包's 杠开 is a flag; its pattern only when said
['qingyise']
>>> build_entry("self_draw", [Claim("S", flags=frozenset({"last_tile"}))])["wins"][0]["declared"]["patterns"]
['haidi']
>>> entry_from_json(e) == e
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Literal, NotRequired, TypedDict, get_args

from scoring.errors import ScoringError
from scoring.hand import Hand
from scoring.hand_json import hand_from_json
from scoring.patterns import WinType
from scoring.reading import (
    Event,
    check_keys,
    opt_seat,
    read_bool,
    read_int,
    read_one_tile,
    read_patterns,
    read_seat,
)
from scoring.rules import OptionValue, RuleSetId
from scoring.seats import Seat
from scoring.tiles import render_tiles, tile_name

How = Literal["self_draw", "discard", "rob_kong", "bao", "songgang", "draw", "escape"]
"""The way a hand ended as a player says it: a win (自摸, 冲, 抢杠, 包 = 杠开 on a fed kong, 送杠 = a fed
kong without 杠开), 荒庄 or 逃跑. Each but 自摸 and 荒庄 names another seat (`other`)."""

FlagName = Literal["after_kong", "after_flower", "last_tile", "heavenly", "earthly", "shangpai"]
FLAG_NAMES: Final[tuple[FlagName, ...]] = get_args(FlagName)
FLAG_PATTERN: Final[Mapping[FlagName, str | None]] = {
    "after_kong": "gangkai",
    "after_flower": "huakai",
    "last_tile": "haidi",
    "heavenly": "tianhu",
    "earthly": "dihu",
    "shangpai": None,  # 上牌 (宿州) doubles the settlement; it is a flag only
}
"""Each flag, and the pattern it scores in the declared (quick) form."""
PATTERN_FLAG: Final[Mapping[str, FlagName]] = {p: f for f, p in FLAG_PATTERN.items() if p is not None}
NEEDS_OTHER: Final[frozenset[How]] = frozenset({"discard", "rob_kong", "bao", "songgang", "escape"})
_TYPE: Final[Mapping[How, WinType]] = {
    "self_draw": "self_draw",
    "bao": "self_draw",
    "songgang": "self_draw",
    "discard": "discard",
    "rob_kong": "rob_kong",
}

MeldJSON = TypedDict(
    "MeldJSON",
    {
        "type": str,
        "tiles": str,
        "exposed": bool,
        "kind": NotRequired[str],
        "from": NotRequired[str],
    },
)
"""One meld of a hand object: pung or kong, its tiles, exposed, the kong's kind, the seat it came from."""


class HandJSON(TypedDict):
    """The hand object of docs/rules.md §4 (tiles in shorthand, canonical order)."""

    concealed: str
    winning_tile: str | None
    melds: list[MeldJSON]
    flowers: list[str]


class FlagsJSON(TypedDict):
    """A win's flags: every one given, false (or None) when not said."""

    after_kong: bool
    after_flower: bool
    kong_fed_by: Seat | None
    last_tile: bool
    heavenly: bool
    earthly: bool
    shangpai: bool


class DeclaredJSON(TypedDict):
    """The declared (quick) form: 花 counts and pattern ids; the tile won on when it matters (a 混子)."""

    hard_flowers: int
    soft_flowers: int
    patterns: list[str]
    winning_tile: NotRequired[str]


class WinJSON(TypedDict):
    """One win of an entry: the tiles (`hand`) or the declared form (`declared`), never both."""

    winner: Seat
    type: WinType
    hand: NotRequired[HandJSON]
    declared: NotRequired[DeclaredJSON]
    flags: FlagsJSON
    wild: str | None


class EntryJSON(TypedDict):
    """An entry: the partial request of docs/rules.md §4 that says what happened in one hand."""

    event: Event
    discarder: Seat | None
    escaper: Seat | None
    wins: list[WinJSON]


class TableJSON(TypedDict):
    """The table's part of a request: rule set, options, stake and the dealer state."""

    rules: RuleSetId
    options: dict[str, OptionValue]
    stake: int
    dealer: Seat
    round_wind: Seat
    baozi: NotRequired[bool]
    diling: NotRequired[bool]
    streak: NotRequired[int]
    hand_number: NotRequired[int]
    first_dealer: NotRequired[str]


class RequestJSON(TableJSON):
    """A scoring request: a table's keys and an entry."""

    event: Event
    discarder: Seat | None
    escaper: Seat | None
    wins: list[WinJSON]


@dataclass(frozen=True, slots=True)
class Claim:
    """One winner's part of a win as said: the tiles (`hand`), or 花 counts and patterns (declared), the
    flags said for it (杠开 花开 海底 天胡 地胡 上牌) and, in the declared form, the tile won on."""

    winner: Seat
    hand: HandJSON | None = None
    hard_flowers: int = 0
    soft_flowers: int = 0
    patterns: tuple[str, ...] = ()
    flags: frozenset[FlagName] = frozenset()
    winning_tile: str | None = None


def build_entry(
    how: How, claims: Sequence[Claim] = (), *, other: Seat | None = None, wild: str | None = None
) -> EntryJSON:
    """The entry of a hand said as `how` (with `other`: the discarder, robbed player, kong's feeder or the
    one who left) and each winner's claim; wins share one 混子 (`wild`). Patterns come each once, in the order
    said; a flag with a pattern (杠开 …) also scores it in the declared form."""
    if how in ("draw", "escape"):
        escaper = other if how == "escape" else None
        return {"event": how, "discarder": None, "escaper": escaper, "wins": []}
    win_type = _TYPE[how]
    fed_by = other if how in ("bao", "songgang") else None
    discarder = other if win_type != "self_draw" else None
    wins: list[WinJSON] = []
    for claim in claims:
        said = claim.flags | {PATTERN_FLAG[p] for p in claim.patterns if p in PATTERN_FLAG}
        if how == "bao":  # 杠开 on the fed kong: the flag, not the pattern (that is said, or not)
            said |= {"after_kong"}
        flags: FlagsJSON = {
            "after_kong": "after_kong" in said,
            "after_flower": "after_flower" in said,
            "kong_fed_by": fed_by,
            "last_tile": "last_tile" in said,
            "heavenly": "heavenly" in said,
            "earthly": "earthly" in said,
            "shangpai": "shangpai" in said,
        }
        win: WinJSON = {"winner": claim.winner, "type": win_type, "flags": flags, "wild": wild}
        if claim.hand is not None:
            win = {"winner": claim.winner, "type": win_type, "hand": claim.hand, "flags": flags, "wild": wild}
        else:
            implied = [p for f in FLAG_NAMES if f in claim.flags and (p := FLAG_PATTERN[f]) is not None]
            declared: DeclaredJSON = {
                "hard_flowers": claim.hard_flowers,
                "soft_flowers": claim.soft_flowers,
                "patterns": pattern_order((*claim.patterns, *implied)),
            }
            if claim.winning_tile is not None:
                declared["winning_tile"] = claim.winning_tile
            win["declared"] = declared
        wins.append(win)
    return {"event": "win", "discarder": discarder, "escaper": None, "wins": wins}


@dataclass(frozen=True, slots=True)
class EntryArgs:
    """The arguments of `build_entry`, as a value: what the tile picker posts (`entry_args_from_json`)."""

    how: How
    claims: tuple[Claim, ...] = ()
    other: Seat | None = None
    wild: str | None = None

    def build(self) -> EntryJSON:
        """The entry these arguments build."""
        return build_entry(self.how, self.claims, other=self.other, wild=self.wild)


def pattern_order(patterns: Sequence[str]) -> list[str]:
    """Pattern ids each once, in the order said (the response lists items in that order)."""
    return list(dict.fromkeys(patterns))


def request_for(table: TableJSON, entry: EntryJSON) -> RequestJSON:
    """The scoring core's request (docs/rules.md §4) of an entry at a table."""
    request: RequestJSON = {**table, **entry}
    return request


def hand_json(hand: Hand) -> HandJSON:
    """The hand object of a Hand (canonical: tiles in order, every key given)."""
    melds: list[MeldJSON] = []
    for meld in hand.melds:
        obj: MeldJSON = {"type": meld.kind, "tiles": render_tiles(meld.tiles()), "exposed": meld.exposed}
        if meld.kong_kind is not None:
            obj["kind"] = meld.kong_kind
        if meld.source is not None:
            obj["from"] = meld.source
        melds.append(obj)
    return {
        "concealed": render_tiles(hand.concealed),
        "winning_tile": tile_name(hand.winning_tile) if hand.winning_tile is not None else None,
        "melds": melds,
        "flowers": list(hand.flowers),
    }


# ---------------------------------------------------------------- reading an entry sent as JSON

_ENTRY_KEYS = frozenset({"event", "discarder", "escaper", "wins"})
_WIN_KEYS = frozenset({"winner", "type", "hand", "declared", "flags", "wild"})
_FLAG_KEYS = frozenset({*FLAG_NAMES, "kong_fed_by"})
_DECLARED_KEYS = frozenset({"hard_flowers", "soft_flowers", "patterns", "winning_tile"})
MOST_WINS = 3  # 一炮多响: at most three winners on one discard


def entry_from_json(obj: object) -> EntryJSON:
    """An entry sent as JSON, read into the builder's arguments and built again (so it has the builder's
    shape whoever sent it). Each problem is a ScoringError naming the field as the scoring core does."""
    if not isinstance(obj, Mapping):
        raise ScoringError("entry: expected a JSON object")
    check_keys(obj, _ENTRY_KEYS, "entry")
    event = obj.get("event", "win")
    if event == "draw":
        return build_entry("draw")
    if event == "escape":
        return build_entry("escape", other=read_seat(obj.get("escaper"), "escaper"))
    if event != "win":
        raise ScoringError(f"event: expected win, draw or escape, got {event!r}")
    raw_wins = obj.get("wins")
    if not isinstance(raw_wins, list) or not 1 <= len(raw_wins) <= MOST_WINS:
        raise ScoringError(f"wins: expected a list of 1 to {MOST_WINS} wins")
    read = [_read_win(raw, f"wins[{i}]") for i, raw in enumerate(raw_wins)]
    types = {win_type for win_type, _, _, _ in read}
    if len(types) > 1:
        raise ScoringError("wins: several winners only on one discard (all 'discard') or one robbed kong")
    (win_type,) = types
    fed = {fed_by for _, _, fed_by, _ in read}
    wilds = {wild for _, _, _, wild in read}
    if len(fed) > 1 or len(wilds) > 1:
        raise ScoringError("wins: every win of a hand has the same kong_fed_by and wild")
    (fed_by,), (wild,) = fed, wilds
    discarder = opt_seat(obj.get("discarder"), "discarder")
    claims = [claim for _, claim, _, _ in read]
    if win_type != "self_draw":
        if fed_by is not None:
            raise ScoringError("wins[0].flags.kong_fed_by: a fed kong is won by self-draw")
        return build_entry(win_type, claims, other=discarder, wild=wild)
    if discarder is not None:
        raise ScoringError("discarder: a self-draw has no discarder")
    if fed_by is None:
        return build_entry("self_draw", claims, wild=wild)
    if not all("after_kong" in claim.flags for claim in claims):
        return build_entry("songgang", claims, other=fed_by, wild=wild)
    # 包: 杠开 comes with the way of winning; the claim keeps only what was said besides (the pattern)
    unsaid = [replace(claim, flags=claim.flags - {"after_kong"}) for claim in claims]
    return build_entry("bao", unsaid, other=fed_by, wild=wild)


_ARGS_KEYS = frozenset({"how", "claims", "other", "wild"})
_CLAIM_KEYS = frozenset({"winner", "hand", "declared", "flags"})
HOWS: Final[tuple[How, ...]] = get_args(How)


def entry_args_from_json(obj: object) -> EntryArgs:
    """The builder's arguments sent as JSON, read and checked field by field (the tile picker's: `how`,
    `other`, `wild` and `claims`, each `{"winner", "hand" or "declared", "flags": [names]}`); each problem
    is a ScoringError naming the field. What the arguments say together is the scoring core's to check.

    >>> hand = {"concealed": "11223355778899p", "winning_tile": "9p", "melds": [], "flowers": []}
    >>> args = entry_args_from_json({"how": "bao", "other": "W", "claims": [{"winner": "S", "hand": hand}]})
    >>> args.how, args.other, args.claims[0].flags, args.build()["wins"][0]["flags"]["kong_fed_by"]
    ('bao', 'W', frozenset(), 'W')
    """
    if not isinstance(obj, Mapping):
        raise ScoringError("args: expected a JSON object")
    check_keys(obj, _ARGS_KEYS, "args")
    how = obj.get("how")
    if how not in HOWS:
        raise ScoringError(f"args.how: expected one of {', '.join(HOWS)}, got {how!r}")
    other = opt_seat(obj.get("other"), "args.other")
    if (other is not None) != (how in NEEDS_OTHER):
        said = "names another seat" if how in NEEDS_OTHER else "names no other seat"
        raise ScoringError(f"args.other: {how} {said}")
    wild = obj.get("wild")
    wild = None if wild is None else tile_name(read_one_tile(wild, "args.wild"))
    raw_claims = obj.get("claims", [])
    least = 0 if how in ("draw", "escape") else 1
    most = 0 if how in ("draw", "escape") else MOST_WINS
    if not isinstance(raw_claims, list) or not least <= len(raw_claims) <= most:
        raise ScoringError(f"args.claims: expected a list of {least} to {most} claims")
    claims = tuple(_read_claim(raw, f"args.claims[{i}]") for i, raw in enumerate(raw_claims))
    return EntryArgs(how, claims, other, wild)


def _read_claim(raw: object, field: str) -> Claim:
    """One winner's claim: the tiles (`hand`) or the declared form, and the flags said, by name."""
    if not isinstance(raw, Mapping):
        raise ScoringError(f"{field}: expected an object with winner and hand or declared")
    check_keys(raw, _CLAIM_KEYS, field)
    winner = read_seat(raw.get("winner"), f"{field}.winner")
    names = raw.get("flags", [])
    if not isinstance(names, list) or any(name not in FLAG_NAMES for name in names):
        raise ScoringError(f"{field}.flags: expected a list of {', '.join(FLAG_NAMES)}")
    flags = frozenset(name for name in FLAG_NAMES if name in names)
    raw_hand, raw_declared = raw.get("hand"), raw.get("declared")
    if (raw_hand is None) == (raw_declared is None):
        raise ScoringError(f"{field}: give exactly one of 'hand' (the tiles) or 'declared' (the quick entry)")
    if raw_hand is not None:
        return Claim(winner, hand_json(hand_from_json(raw_hand, field=f"{field}.hand")), flags=flags)
    return _read_declared(raw_declared, winner, flags, f"{field}.declared")


def _read_win(raw: object, field: str) -> tuple[WinType, Claim, Seat | None, str | None]:
    """One win: its type, the claim, the kong's feeder and the 混子."""
    if not isinstance(raw, Mapping):
        raise ScoringError(f"{field}: expected an object with winner, type, hand or declared")
    check_keys(raw, _WIN_KEYS, field)
    winner = read_seat(raw.get("winner"), f"{field}.winner")
    win_type = raw.get("type")
    if win_type not in ("self_draw", "discard", "rob_kong"):
        raise ScoringError(f"{field}.type: expected self_draw, discard or rob_kong, got {win_type!r}")
    flags, fed_by = _read_flags(raw.get("flags"), f"{field}.flags")
    wild = raw.get("wild")
    wild = None if wild is None else tile_name(read_one_tile(wild, f"{field}.wild"))
    raw_hand, raw_declared = raw.get("hand"), raw.get("declared")
    if (raw_hand is None) == (raw_declared is None):
        raise ScoringError(f"{field}: give exactly one of 'hand' (the tiles) or 'declared' (the quick entry)")
    if raw_hand is not None:
        hand = hand_json(hand_from_json(raw_hand, field=f"{field}.hand"))
        return win_type, Claim(winner, hand, flags=flags), fed_by, wild
    claim = _read_declared(raw_declared, winner, flags, f"{field}.declared")
    return win_type, claim, fed_by, wild


def _read_flags(raw: object, field: str) -> tuple[frozenset[FlagName], Seat | None]:
    if raw is None:
        return frozenset(), None
    if not isinstance(raw, Mapping):
        raise ScoringError(f"{field}: expected an object of flags")
    check_keys(raw, _FLAG_KEYS, field)
    said = frozenset(f for f in FLAG_NAMES if read_bool(raw, f, f"{field}."))
    return said, opt_seat(raw.get("kong_fed_by"), f"{field}.kong_fed_by")


def _read_declared(raw: Any, winner: Seat, flags: frozenset[FlagName], field: str) -> Claim:
    if not isinstance(raw, Mapping):
        raise ScoringError(f"{field}: expected an object with hard_flowers, soft_flowers, patterns")
    check_keys(raw, _DECLARED_KEYS, field)
    hard = read_int(raw, "hard_flowers", f"{field}.", 0, 0, 200)
    soft = read_int(raw, "soft_flowers", f"{field}.", 0, 0, 200)
    patterns = read_patterns(raw, field)
    tile = raw.get("winning_tile")
    winning = None if tile is None else tile_name(read_one_tile(tile, f"{field}.winning_tile"))
    return Claim(winner, None, hard, soft, tuple(patterns), flags, winning)


__all__ = [
    "FLAG_NAMES",
    "FLAG_PATTERN",
    "HOWS",
    "MOST_WINS",
    "NEEDS_OTHER",
    "PATTERN_FLAG",
    "Claim",
    "DeclaredJSON",
    "EntryArgs",
    "EntryJSON",
    "FlagName",
    "FlagsJSON",
    "HandJSON",
    "How",
    "MeldJSON",
    "RequestJSON",
    "TableJSON",
    "WinJSON",
    "build_entry",
    "entry_args_from_json",
    "entry_from_json",
    "hand_json",
    "pattern_order",
    "request_for",
]
