"""The hand object of the JSON interface (docs/rules.md §4): `hand_from_json` reads it into a
`scoring.hand.Hand`, `hand_to_json` writes one.

>>> h = hand_from_json({"concealed": "123m456m789s99p[555p]", "winning_tile": "9s", "flowers": ["中发"]})
Traceback (most recent call last):
...
scoring.errors.ScoringError: hand.concealed: unexpected '[' at position 16
>>> h = hand_from_json({"concealed": "123m456m789s11z999p", "winning_tile": "9s", "flowers": ["中发"]})
>>> h.flowers, hand_to_json(h)["concealed"]
(('中', '发'), '123456m999p789s11z')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scoring.errors import ScoringError
from scoring.hand import Hand, Meld, make_meld, validate_hand
from scoring.seats import parse_seat
from scoring.tiles import (
    TILE_BY_NAME,
    WIND_FLOWERS,
    Tile,
    canonical_flower,
    is_wind,
    parse_plain,
    parse_tiles,
    render_tiles,
    scan,
    tile_name,
)

__all__ = ["hand_from_json", "hand_to_json"]

_HAND_KEYS: frozenset[str] = frozenset({"concealed", "winning_tile", "melds", "flowers"})
_MELD_KEYS: frozenset[str] = frozenset({"type", "tiles", "exposed", "from", "kind"})


def _json_tiles(obj: Mapping[str, Any], key: str, where: str) -> list[Tile]:
    value = obj.get(key)
    if type(value) is str:
        tiles = parse_plain(value)  # the common plain ASCII form; anything else gets the full parser
        if tiles is not None:
            return tiles
    if not isinstance(value, str):
        raise ScoringError(f"{where}.{key}: expected a string of tiles such as '555p'")
    return parse_tiles(value, field=f"{where}.{key}")


def hand_from_json(obj: Any, *, field: str = "hand", tiles: int = 14) -> Hand:
    """Read the docs/rules.md §4 `hand` object (concealed, winning_tile, melds, flowers) into a Hand.

    >>> h = hand_from_json({"concealed": "123m456m789s99p", "winning_tile": "9s",
    ...                     "melds": [{"type": "pung", "tiles": "555p", "exposed": True, "from": "N"}],
    ...                     "flowers": ["發"]})
    >>> h.concealed == (0, 1, 2, 3, 4, 5, 17, 17, 24, 25, 26) and h.winning_tile == 26
    True
    >>> h.melds, h.flowers
    ((Meld(kind='pung', tile=13, exposed=True, kong_kind=None, source='N'),), ('发',))
    """
    if type(obj) is not dict and not isinstance(obj, Mapping):
        raise ScoringError(f"{field}: expected an object with 'concealed', 'melds', 'flowers'")
    if not obj.keys() <= _HAND_KEYS:
        unknown = sorted(str(k) for k in obj if k not in _HAND_KEYS)
        raise ScoringError(f"{field}: unknown key '{unknown[0]}'")
    concealed = _json_tiles(obj, "concealed", field)
    winning = _json_winning_tile(obj.get("winning_tile"), field)
    melds = _json_melds(obj.get("melds") or [], field)
    flowers = _json_flowers(obj.get("flowers") or [], field)
    return validate_hand(concealed, melds, flowers, winning, tiles=tiles, field=field)


def _json_winning_tile(value: Any, field: str) -> Tile | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ScoringError(f"{field}.winning_tile: expected one tile such as '9p'")
    winning = TILE_BY_NAME.get(value)
    if winning is None:
        got = parse_tiles(value, field=f"{field}.winning_tile")
        if len(got) != 1:
            raise ScoringError(f"{field}.winning_tile: expected exactly one tile, got '{value}'")
        winning = got[0]
    return winning


def _json_melds(raw_melds: Any, field: str) -> list[Meld]:
    if not isinstance(raw_melds, list):
        raise ScoringError(f"{field}.melds: expected a list of melds")
    return [_json_meld(raw, f"{field}.melds[{idx}]") for idx, raw in enumerate(raw_melds)]


def _json_meld(raw: Any, where: str) -> Meld:
    """One meld object (type, tiles, exposed, from, kind) as a Meld."""
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise ScoringError(f"{where}: expected an object with 'type', 'tiles', 'exposed'")
    if not raw.keys() <= _MELD_KEYS:
        extra = sorted(str(k) for k in raw if k not in _MELD_KEYS)
        raise ScoringError(f"{where}: unknown key '{extra[0]}'")
    meld_tiles = _json_tiles(raw, "tiles", where)
    exposed = raw.get("exposed", True)
    if not isinstance(exposed, bool):
        raise ScoringError(f"{where}.exposed: expected true or false")
    kind = raw.get("type")
    if kind not in ("pung", "kong"):
        raise ScoringError(f"{where}.type: expected 'pung' or 'kong', got {kind!r}")
    source = raw.get("from")
    if source is not None:
        if not isinstance(source, str):
            raise ScoringError(f"{where}.from: expected a seat E, S, W or N")
        source = parse_seat(source) or source  # an unknown word: make_meld names it
    kong_kind = raw.get("kind")
    if kong_kind is not None and not isinstance(kong_kind, str):
        raise ScoringError(f"{where}.kind: expected 'direct' or 'added'")
    meld = make_meld(meld_tiles, exposed=exposed, kong_kind=kong_kind, source=source, where=where)
    if meld.kind != kind:
        raise ScoringError(f"{where}: type '{kind}' but {len(meld_tiles)} tiles")
    return meld


def _json_flowers(flowers: Any, field: str) -> list[str]:
    """The flower list: names, each one flower or several run together ("中发春")."""
    if not isinstance(flowers, list) or not all(isinstance(f, str) for f in flowers):
        raise ScoringError(f"{field}.flowers: expected a list of flower names such as ['中', '春']")
    return _split_flowers(flowers, field)


def hand_to_json(hand: Hand) -> dict[str, Any]:
    """The docs/rules.md §4 `hand` object of a Hand; `hand_from_json` reads it back to an equal Hand.

    >>> obj = hand_to_json(Hand((0, 1, 2, 17, 17), (Meld("pung", 13, True, None, "N"),), ("中",), 17))
    >>> obj["concealed"], obj["winning_tile"], obj["flowers"]
    ('123m99p', '9p', ['中'])
    >>> obj["melds"]
    [{'type': 'pung', 'tiles': '555p', 'exposed': True, 'from': 'N'}]
    """
    melds: list[dict[str, Any]] = []
    for m in hand.melds:
        meld: dict[str, Any] = {"type": m.kind, "tiles": render_tiles(m.tiles()), "exposed": m.exposed}
        if m.kong_kind is not None:
            meld["kind"] = m.kong_kind
        if m.source is not None:
            meld["from"] = m.source
        melds.append(meld)
    obj: dict[str, Any] = {"concealed": render_tiles(hand.concealed)}
    if hand.winning_tile is not None:
        obj["winning_tile"] = tile_name(hand.winning_tile)
    obj["melds"] = melds
    obj["flowers"] = list(hand.flowers)
    return obj


def _split_flowers(names: Iterable[str], field: str) -> list[str]:
    """Accept each list item as one flower name, or as several run together ("中发春")."""
    out: list[str] = []
    for name in names:
        if canonical_flower(name) is not None:
            out.append(name)
            continue
        try:
            tokens = scan(name, field=f"{field}.flowers")
        except ScoringError:
            raise ScoringError(f"{field}.flowers: unknown flower {name!r}") from None
        for tok in tokens:
            if tok.kind == "flower":
                assert isinstance(tok.value, str)
                out.append(tok.value)
            elif tok.kind == "tile" and isinstance(tok.value, int) and is_wind(tok.value):
                out.append(WIND_FLOWERS[tok.value - 27])
            else:
                raise ScoringError(f"{field}.flowers: '{tok.text}' in {name!r} is not a flower")
    return out
