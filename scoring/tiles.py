"""Tiles as ints, flower names, and the tile shorthand (ASCII, Chinese, Unicode) with parse and render.

A tile is an int 0-33: 0-8 = 1m-9m (万), 9-17 = 1p-9p (筒), 18-26 = 1s-9s (条),
27-33 = 1z-7z = 东 南 西 北 白 发 中. Flower tiles (中 发 白 百搭 春 夏 秋 冬 梅 兰 竹 菊
老鼠 财神 猫 聚宝盆, and the 令风 winds of 宿州) are not ints: they are canonical simplified
names (strings).

Tile forms accepted by `parse_tiles`, freely mixed and separated by spaces or commas or nothing:

- ASCII digit runs with a suit letter: ``123m456p789s``, honours ``1z``-``7z``; winds also ``E S W N``.
- Chinese: ``一万`` … ``九万`` (also 萬), ``1万``, numeral runs ``一二三万`` / ``123万``, ``一筒``/``一饼``,
  ``一条``/``一索``, winds ``东南西北`` / ``東南西北`` (``东风`` also works).
- Unicode mahjong tiles: 🀇…🀏 = 1m-9m, 🀙…🀡 = 1p-9p, 🀐…🀘 = 1s-9s, 🀀🀁🀂🀃 = 东南西北.

The names and glyphs of flower tiles (中 发 白 🀄 🀅 🀆 春 🀦 …) are flowers, never playing tiles: the only
way to type a dragon as a playing tile is ``5z``/``6z``/``7z``.

>>> parse_tiles("123m 五筒 🀀 E")
[0, 1, 2, 13, 27, 27]
>>> render_tiles(parse_tiles("东 9s 一万 1z"))
'1m9s11z'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple

from scoring.errors import ScoringError

Tile = int

EAST: Final = 27
SOUTH: Final = 28
WEST: Final = 29
NORTH: Final = 30
WHITE: Final = 31
GREEN: Final = 32
RED: Final = 33
WINDS: Final[tuple[Tile, ...]] = (EAST, SOUTH, WEST, NORTH)
DRAGONS: Final[tuple[Tile, ...]] = (WHITE, GREEN, RED)
SEAT_WIND: Final[dict[str, Tile]] = {"E": EAST, "S": SOUTH, "W": WEST, "N": NORTH}
ALL_TILES: Final[tuple[Tile, ...]] = tuple(range(34))
SUITS: Final = "mps"
# "5p" -> 13 for the 34 canonical ASCII names.
TILE_BY_NAME: Final[dict[str, Tile]] = {
    f"{t % 9 + 1 if t < 27 else t - 26}{'mpsz'[t // 9]}": t for t in range(34)
}

# Canonical simplified flower names, in the order of docs/rules.md §1 (the winds are 宿州's 令风).
FLOWER_NAMES: Final[tuple[str, ...]] = (
    "中",
    "发",
    "白",
    "百搭",
    "春",
    "夏",
    "秋",
    "冬",
    "梅",
    "兰",
    "竹",
    "菊",
    "老鼠",
    "财神",
    "猫",
    "聚宝盆",
)
WIND_FLOWERS: Final[tuple[str, ...]] = ("东", "南", "西", "北")
# How many physical copies of each flower tile a set holds.
FLOWER_COPIES: Final[dict[str, int]] = {
    **{name: 4 for name in ("中", "发", "白", "百搭", *WIND_FLOWERS)},
    **{name: 1 for name in ("春", "夏", "秋", "冬", "梅", "兰", "竹", "菊", "老鼠", "财神", "猫", "聚宝盆")},
}

_FLOWER_ALIASES: Final[dict[str, str]] = {
    **{name: name for name in FLOWER_NAMES},
    **{name: name for name in WIND_FLOWERS},
    "發": "发",
    "蘭": "兰",
    "財神": "财神",
    "貓": "猫",
    "聚寶盆": "聚宝盆",
    "東": "东",
    "红中": "中",
    "紅中": "中",
    "白板": "白",
}
# Flower words by first character, longest first (so that 聚宝盆 wins over a shorter prefix).
_FLOWER_WORDS: Final[dict[str, tuple[str, ...]]] = {}
_NOT_WORDS: Final = frozenset("东南西北東")
for _word in sorted((k for k in _FLOWER_ALIASES if k not in _NOT_WORDS), key=len, reverse=True):
    _FLOWER_WORDS[_word[0]] = (*_FLOWER_WORDS.get(_word[0], ()), _word)
del _word

ZH_NUMERALS: Final[dict[str, int]] = {
    "〇": 0,
    "零": 0,
    "一": 1,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
"""The one table of Chinese digits (the bot's number parser adds 两 and the units to it)."""
ZH_TILE_RANKS: Final = "".join(char for char, value in ZH_NUMERALS.items() if value)  # 一 … 九, by rank
_NUMERALS: Final[dict[str, int]] = {**{str(d): d for d in range(10)}, **ZH_NUMERALS}
_SUIT_CHARS: Final[dict[str, str]] = {
    "m": "m",
    "万": "m",
    "萬": "m",
    "p": "p",
    "筒": "p",
    "饼": "p",
    "餅": "p",
    "s": "s",
    "条": "s",
    "條": "s",
    "索": "s",
    "z": "z",
}
_WIND_CHARS: Final[dict[str, Tile]] = {
    "东": EAST,
    "東": EAST,
    "南": SOUTH,
    "西": WEST,
    "北": NORTH,
    "E": EAST,
    "S": SOUTH,
    "W": WEST,
    "N": NORTH,
}
_SEPARATORS: Final = frozenset(" \t\r\n,，、;；\ufe0f\ufe0e")
_PUNCT: Final[dict[str, str]] = {
    "[": "[",
    "]": "]",
    "(": "(",
    ")": ")",
    "+": "+",
    "|": "|",
    ":": ":",
    "【": "[",
    "】": "]",
    "（": "(",
    "）": ")",
    "＋": "+",
    "｜": "|",
    "：": ":",
}
_ZH_SUITS: Final[dict[str, str]] = {"m": "万", "p": "筒", "s": "条"}
_ZH_HONOURS: Final = ("东", "南", "西", "北", "白", "发", "中")


def suit(t: Tile) -> str | None:
    """The suit letter of a tile: "m", "p", "s", or None for winds and dragons.

    >>> suit(13), suit(EAST)
    ('p', None)
    """
    return SUITS[t // 9] if t < 27 else None


def rank(t: Tile) -> int:
    """The rank 1-9 of a suited tile, 1-7 for honours (1z = 东 … 7z = 中).

    >>> rank(13), rank(RED)
    (5, 7)
    """
    return t % 9 + 1 if t < 27 else t - 26


def is_wind(t: Tile) -> bool:
    """True for 东 南 西 北 (1z-4z)."""
    return EAST <= t <= NORTH


def tile_name(t: Tile) -> str:
    """The canonical ASCII name of a tile.

    >>> tile_name(13), tile_name(EAST)
    ('5p', '1z')
    """
    if not 0 <= t < 34:
        raise ScoringError(f"not a tile: {t!r}")
    return f"{rank(t)}{suit(t) or 'z'}"


def tile_name_zh(t: Tile) -> str:
    """The Chinese name of a tile: 五筒, 东.

    >>> tile_name_zh(13), tile_name_zh(EAST)
    ('五筒', '东')
    """
    s = suit(t)
    return _ZH_HONOURS[t - 27] if s is None else ZH_TILE_RANKS[rank(t) - 1] + _ZH_SUITS[s]


def tile_unicode(t: Tile) -> str:
    """The Unicode mahjong glyph of a tile: 🀝 for 5p.

    >>> tile_unicode(0) == "\\U0001F007"
    True
    """
    return chr(_UNICODE_OF[t])


def canonical_flower(name: str) -> str | None:
    """The canonical simplified flower name, or None when `name` is not a flower.

    Traditional forms and the wind characters (the 令风 of 宿州) are accepted.

    >>> canonical_flower("聚寶盆"), canonical_flower("東"), canonical_flower("5p")
    ('聚宝盆', '东', None)
    """
    return _FLOWER_ALIASES.get(name.strip())


class Token(NamedTuple):
    """One item of tile shorthand: a tile, a flower name or a punctuation mark, at a 1-based position."""

    kind: str  # "tile" | "flower" | "punct"
    value: int | str
    pos: int
    text: str


# Unicode block U+1F000 (Mahjong Tiles): winds, dragons, 1-9m, 1-9s, 1-9p, flowers, seasons, joker.
_UNICODE_BASE: Final = 0x1F000
_UNICODE_TILES: Final[dict[int, Tile]] = {
    **{_UNICODE_BASE + i: EAST + i for i in range(4)},
    **{_UNICODE_BASE + 7 + i: i for i in range(9)},
    **{_UNICODE_BASE + 16 + i: 18 + i for i in range(9)},
    **{_UNICODE_BASE + 25 + i: 9 + i for i in range(9)},
}
_UNICODE_OF: Final[dict[Tile, int]] = {
    **{t: cp for cp, t in _UNICODE_TILES.items()},
    WHITE: 0x1F006,
    GREEN: 0x1F005,
    RED: 0x1F004,
}
_UNICODE_FLOWERS: Final[dict[int, str]] = {
    0x1F004: "中",
    0x1F005: "发",
    0x1F006: "白",
    0x1F022: "梅",
    0x1F023: "兰",
    0x1F024: "竹",
    0x1F025: "菊",
    0x1F026: "春",
    0x1F027: "夏",
    0x1F028: "秋",
    0x1F029: "冬",
    0x1F02A: "百搭",
}


def _fail(prefix: str, what: str, text: str, pos: int, hint: str = "") -> ScoringError:
    return ScoringError(
        f"{prefix}{what} '{text}' at position {pos}" + (f": {hint}" if hint else ""),
        code="unknown_token",
        token=text,
        position=pos,
    )


def scan(text: str, start: int = 0, end: int | None = None, *, field: str = "tiles") -> list[Token]:
    """Split `text[start:end]` into tokens; positions are 1-based in the whole `text`.

    Raises ScoringError naming the first token it cannot read and its position.
    """
    end = len(text) if end is None else end
    out: list[Token] = []
    i = start
    prefix = f"{field}: " if field else ""
    while i < end:
        ch = text[i]
        if ch in _SEPARATORS:
            i += 1
        elif ch in _PUNCT:
            out.append(Token("punct", _PUNCT[ch], i + 1, ch))
            i += 1
        elif ch in _NUMERALS:
            i = _scan_ranks(text, i, end, prefix, out)
        elif ch in _WIND_CHARS and not ch.isascii():
            i = _scan_wind(text, i, end, out)
        elif ch.isascii() and ch.isalpha():
            i = _scan_letters(text, i, end, prefix, out)
        else:
            i = _scan_symbol(text, i, end, prefix, out)
    return out


def _scan_ranks(text: str, i: int, end: int, prefix: str, out: list[Token]) -> int:
    """A run of ranks and its suit (``123m``, ``一二三万``) from `i`; the index after the suit."""
    j = i
    while j < end and text[j] in _NUMERALS:
        j += 1
    suit_ch = text[j] if j < end else ""
    if suit_ch not in _SUIT_CHARS:
        raise ScoringError(
            f"{prefix}'{text[i:j]}' at position {i + 1} has no suit: "
            "follow the ranks with m, p, s, z (or 万, 筒, 条)",
            code="no_suit",
            token=text[i:j],
            position=i + 1,
        )
    letter = _SUIT_CHARS[suit_ch]
    for k in range(i, j):
        value = _NUMERALS[text[k]]
        name = text[k] + suit_ch
        if letter == "z" and not 1 <= value <= 7:
            raise _fail(prefix, "unknown tile", name, k + 1, "honours run 1z-7z")
        if value == 0:
            raise _fail(prefix, "unknown tile", name, k + 1, "ranks run 1-9")
        tile = 27 + value - 1 if letter == "z" else SUITS.index(letter) * 9 + value - 1
        out.append(Token("tile", tile, k + 1, name))
    return j + 1


def _scan_wind(text: str, i: int, end: int, out: list[Token]) -> int:
    """A Chinese wind (东, 東风) at `i`; the index after it."""
    j = i + 1
    if j < end and text[j] in "风風":
        j += 1
    out.append(Token("tile", _WIND_CHARS[text[i]], i + 1, text[i:j]))
    return j


def _scan_letters(text: str, i: int, end: int, prefix: str, out: list[Token]) -> int:
    """A word of ASCII letters at `i`, which must be winds (``E``, ``SW``); the index after it."""
    j = i
    while j < end and text[j].isascii() and text[j].isalpha():
        j += 1
    word = text[i:j]
    if not all(c in "ESWN" for c in word):
        raise _fail(prefix, "unknown token", word, i + 1)
    out.extend(Token("tile", _WIND_CHARS[c], i + 1 + k, c) for k, c in enumerate(word))
    return j


def _scan_symbol(text: str, i: int, end: int, prefix: str, out: list[Token]) -> int:
    """A tile glyph (🀝), a flower glyph or a flower word (聚宝盆) at `i`; the index after it."""
    ch = text[i]
    cp = ord(ch)
    if cp in _UNICODE_TILES:
        out.append(Token("tile", _UNICODE_TILES[cp], i + 1, ch))
        return i + 1
    if cp in _UNICODE_FLOWERS:
        out.append(Token("flower", _UNICODE_FLOWERS[cp], i + 1, ch))
        return i + 1
    for word in _FLOWER_WORDS.get(ch, ()):
        if text.startswith(word, i) and i + len(word) <= end:
            out.append(Token("flower", _FLOWER_ALIASES[word], i + 1, word))
            return i + len(word)
    raise _fail(prefix, "unknown token", ch, i + 1)


def parse_tiles(text: str, *, field: str = "tiles") -> list[Tile]:
    """Parse tile shorthand into tiles, in the order typed.

    `field` names the input in error messages. Flowers and brackets are not tiles here.

    >>> parse_tiles("19m 一筒 9索 南风 🀃")
    [0, 8, 9, 26, 28, 30]
    >>> parse_tiles("1230m")
    Traceback (most recent call last):
    ...
    scoring.errors.ScoringError: tiles: unknown tile '0m' at position 4: ranks run 1-9
    """
    if not isinstance(text, str):
        raise ScoringError(f"{field}: expected a string of tiles, got {type(text).__name__}")
    fast = parse_plain(text)
    if fast is not None:
        return fast
    tiles: list[Tile] = []
    for tok in scan(text, field=field):
        if tok.kind == "flower":
            raise ScoringError(
                f"{field}: '{tok.text}' at position {tok.pos} is a flower, not a playing tile "
                "(list flowers separately; a dragon as a playing tile is 5z, 6z or 7z)",
                code="flower_in_hand",
                tile=tok.text,
                position=tok.pos,
            )
        if tok.kind != "tile":
            raise ScoringError(
                f"{field}: unexpected '{tok.text}' at position {tok.pos}",
                code="unknown_token",
                token=tok.text,
                position=tok.pos,
            )
        assert isinstance(tok.value, int)
        tiles.append(tok.value)
    return tiles


_PLAIN_BASE: Final[dict[str, int]] = {"m": 0, "p": 9, "s": 18, "z": 27}
_PLAIN_FINDALL = re.compile(r"[1-9]+[mps]|[1-7]+z").findall


def parse_plain(text: str) -> list[Tile] | None:
    """The common case, plain ASCII like "123m 456p 77z", quickly; None means "use the full scanner"."""
    groups: list[str] = _PLAIN_FINDALL(text)
    if "".join(groups) != (text.replace(" ", "") if " " in text else text):
        return None
    out: list[Tile] = []
    for group in groups:
        base = _PLAIN_BASE[group[-1]] - 1
        out.extend(base + int(digit) for digit in group[:-1])
    return out


def tile_from_name(s: str) -> Tile:
    """Parse exactly one tile in any accepted form.

    >>> tile_from_name("5p"), tile_from_name("北"), tile_from_name("九万")
    (13, 30, 8)
    """
    tiles = parse_tiles(s, field="tile")
    if len(tiles) != 1:
        raise ScoringError(f"tile: expected exactly one tile, got {len(tiles)} in '{s}'")
    return tiles[0]


def render_tiles(tiles: Iterable[Tile]) -> str:
    """Canonical ASCII shorthand: sorted, grouped by suit in the order m p s z.

    >>> render_tiles([27, 0, 26, 1, 13])
    '12m5p9s1z'
    """
    groups: dict[str, list[str]] = {"m": [], "p": [], "s": [], "z": []}
    for t in sorted(tiles):
        if not 0 <= t < 34:
            raise ScoringError(f"not a tile: {t!r}")
        groups[suit(t) or "z"].append(str(rank(t)))
    return "".join("".join(ranks) + letter for letter, ranks in groups.items() if ranks)


def counts34(tiles: Sequence[Tile]) -> list[int]:
    """The 34-entry count array of some tiles; ScoringError names the first one that is not a tile.

    >>> counts34([0, 0, 33])[0], counts34([0, 0, 33])[33]
    (2, 1)
    """
    counts = [0] * 34
    try:
        for t in tiles:
            counts[t] += 1
        if tiles and min(tiles) < 0:
            raise IndexError
    except (IndexError, TypeError):
        bad = next(t for t in tiles if not isinstance(t, int) or not 0 <= t < 34)
        raise ScoringError(f"not a tile: {bad!r}") from None
    return counts
