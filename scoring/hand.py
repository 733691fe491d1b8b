"""Hands and melds: the one-line hand shorthand, its canonical rendering, validation (the JSON hand object:
`scoring.hand_json`).

One-line form, read left to right::

    123456m789s9p+9p [555p] (7777m) [3333z:direct:S] 中春菊

- **Concealed tiles** in any form of `scoring.tiles` (``123m``, ``五筒``, ``🀝``, ``E``), spaces optional.
- **The winning tile**: ``+`` before a tile marks it as the winning tile and adds it to the concealed tiles
  (``…9p+9p`` is 9p twice, the second one won). Without ``+`` the last concealed tile typed is the winning
  tile (``11223355778899p`` won on 9p). ``+?`` says there is none (天胡, the dealer's first 14 tiles:
  ``11223355778899p+?``). A waiting hand (``tiles=13``) has no winning tile and no ``+``.
- **Melds** in brackets, anywhere among the tiles: ``[555p]`` exposed pung (碰), ``[7777s]`` exposed kong
  (明杠), ``(7777s)`` concealed kong (暗杠). Optional qualifiers after a colon: ``:direct`` (直杠, also
  ``:直``) or ``:added`` (补杠, also ``:补``) for an exposed kong, and the seat it came from, ``:N``
  (``E S W N`` or 东南西北): ``[555p:N]``, ``[7777s:added:W]``. Full-width brackets 【】（） work too.
- **Flowers** after the tiles, by name or glyph: ``中发白百搭春夏秋冬梅兰竹菊老鼠财神猫聚宝盆`` and the
  traditional forms (發 蘭 財神 貓 聚寶盆), 🀄 🀅 🀆 🀢…🀪. The flower section starts at the first flower name or
  at ``|``; from there on every wind (东, 東, 🀀, E, 1z) is a flower, the 令风 of 宿州: ``… 中东东`` or
  ``… | 东东``. No tile or meld may follow the flowers.

`render_hand` writes the canonical form: concealed tiles without the winning tile, ``+`` the winning tile,
the melds in the order given, then the flowers (after ``| `` when the first one is a wind), so that
``parse_hand(render_hand(h)) == h``:

>>> h = parse_hand("[555p] 9p 123m 456m 789s +9p 發 春")
>>> render_hand(h)
'123456m9p789s+9p [555p] 发春'
>>> parse_hand(render_hand(h)) == h
True
>>> parse_hand("11223355778899p 中发春梅百搭").winning_tile == 17
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from scoring.errors import ScoringError
from scoring.seats import SEATS, parse_seat
from scoring.tiles import (
    FLOWER_COPIES,
    WIND_FLOWERS,
    Tile,
    Token,
    canonical_flower,
    is_wind,
    parse_tiles,
    render_tiles,
    scan,
    tile_name,
)

MeldKind = Literal["pung", "kong"]
KongKind = Literal["direct", "added"]

_OPEN: dict[str, str] = {"[": "]", "(": ")", "【": "】", "（": "）"}
_CLOSE: frozenset[str] = frozenset("])】）")
_KONG_WORDS: dict[str, KongKind] = {
    "direct": "direct",
    "直": "direct",
    "直杠": "direct",
    "added": "added",
    "补": "added",
    "補": "added",
    "补杠": "added",
    "補槓": "added",
    "加": "added",
}


@dataclass(frozen=True, slots=True)
class Meld:
    """A 碰 or 杠 set aside from the hand. `source` is the seat the claimed tile came from, if known."""

    kind: MeldKind
    tile: Tile
    exposed: bool
    kong_kind: KongKind | None = None
    source: str | None = None

    @property
    def size(self) -> int:
        """How many tiles the meld holds: 3 for a pung, 4 for a kong."""
        return 4 if self.kind == "kong" else 3

    def tiles(self) -> tuple[Tile, ...]:
        """The meld's tiles."""
        return (self.tile,) * self.size


@dataclass(frozen=True, slots=True)
class Hand:
    """A hand: concealed tiles (sorted, including the winning tile), melds, flowers, the winning tile."""

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    flowers: tuple[str, ...] = ()
    winning_tile: Tile | None = None


def make_meld(
    tiles: Sequence[Tile],
    *,
    exposed: bool,
    kong_kind: str | None = None,
    source: str | None = None,
    where: str = "meld",
) -> Meld:
    """Build and check a meld from its tiles: 3 equal tiles = pung (exposed), 4 equal tiles = kong."""
    kind = _meld_kind(tiles, exposed, where)
    if kong_kind is not None and (kong_kind not in ("direct", "added") or kind != "kong" or not exposed):
        if kong_kind not in ("direct", "added"):
            raise ScoringError(f"{where}: unknown kong kind '{kong_kind}' (direct or added)")
        raise ScoringError(f"{where}: '{kong_kind}' applies only to an exposed kong, not '{_shown(tiles)}'")
    if source is not None:
        if source not in SEATS:
            raise ScoringError(f"{where}: unknown seat '{source}' (E, S, W or N)")
        if not exposed:
            raise ScoringError(f"{where}: a concealed kong comes from no other seat")
    kk: KongKind | None = "direct" if kong_kind == "direct" else "added" if kong_kind == "added" else None
    return Meld(kind, tiles[0], exposed, kk, source)


def _shown(tiles: Sequence[Tile]) -> str:
    """A meld's tiles as an error message shows them."""
    return render_tiles(tiles) if tiles else "nothing"


def _meld_kind(tiles: Sequence[Tile], exposed: bool, where: str) -> MeldKind:
    """Pung or kong: 3 or 4 equal tiles, a pung always exposed (a concealed one is concealed tiles)."""
    if len(set(tiles)) != 1 or len(tiles) not in (3, 4):
        raise ScoringError(
            f"{where}: malformed meld '{_shown(tiles)}': a meld is 3 (碰) or 4 (杠) equal tiles",
            code="bad_meld",
            meld=_shown(tiles),
        )
    if len(tiles) == 3 and not exposed:
        raise ScoringError(
            f"{where}: '{_shown(tiles)}' is a concealed pung, not a meld: write it among the concealed tiles",
            code="bad_meld",
            meld=_shown(tiles),
        )
    return "kong" if len(tiles) == 4 else "pung"


def validate_hand(
    concealed: Sequence[Tile],
    melds: Sequence[Meld],
    flowers: Sequence[str],
    winning_tile: Tile | None,
    *,
    tiles: int = 14,
    field: str = "hand",
) -> Hand:
    """Check the rule-set independent facts of a hand and return it in canonical form (sorted concealed,
    canonical flower names)."""
    if tiles not in (13, 14):
        raise ScoringError(f"{field}: a hand has 14 tiles (13 when waiting), not {tiles}")
    _check_tile_count(concealed, melds, tiles, field)
    _check_copies(concealed, melds, field)
    if winning_tile is not None:
        if tiles == 13:
            raise ScoringError(f"{field}: a waiting hand (13 tiles) has no winning tile")
        if winning_tile not in concealed:
            raise ScoringError(
                f"{field}: winning tile {tile_name(winning_tile)} is not among the concealed tiles"
            )
    return Hand(tuple(sorted(concealed)), tuple(melds), _canonical_flowers(flowers, field), winning_tile)


def _check_tile_count(concealed: Sequence[Tile], melds: Sequence[Meld], tiles: int, field: str) -> None:
    count = len(concealed) + 3 * len(melds)
    if count != tiles:
        kongs = sum(1 for m in melds if m.kind == "kong")
        raise ScoringError(
            f"{field}: wrong tile count: {len(concealed)} concealed + {len(melds)} meld(s) × 3 = {count}, "
            f"expected {tiles}" + (" (a kong counts as 3)" if kongs else ""),
            code="tile_count",
            concealed=len(concealed),
            melds=len(melds),
            total=count,
            expected=tiles,
        )


def _check_copies(concealed: Sequence[Tile], melds: Sequence[Meld], field: str) -> None:
    """Every concealed tile is a tile, and no tile is held 5 times (melds included)."""
    held = [0] * 34
    for t in concealed:
        if not 0 <= t < 34:
            raise ScoringError(f"{field}: not a tile: {t!r}")
        held[t] += 1
    for m in melds:
        held[m.tile] += m.size
    if max(held) > 4:
        t = next(t for t in range(34) if held[t] > 4)
        raise ScoringError(
            f"{field}: {held[t]} copies of {tile_name(t)}: a set has only 4 (a fifth copy)",
            code="too_many_copies",
            tile=tile_name(t),
            count=held[t],
        )


def _canonical_flowers(flowers: Sequence[str], field: str) -> tuple[str, ...]:
    """The flowers by their canonical names, each no more often than the set holds it."""
    seen: dict[str, int] = {}
    canon: list[str] = []
    for name in flowers:
        flower = canonical_flower(name) if isinstance(name, str) else None
        if flower is None:
            raise ScoringError(f"{field}: unknown flower {name!r}", code="unknown_flower", flower=str(name))
        seen[flower] = seen.get(flower, 0) + 1
        if seen[flower] > FLOWER_COPIES[flower]:
            copies = FLOWER_COPIES[flower]
            raise ScoringError(
                f"{field}: too many {flower}: the set has {copies} {'copy' if copies == 1 else 'copies'}",
                code="too_many_flowers",
                flower=flower,
                count=seen[flower],
                copies=copies,
            )
        canon.append(flower)
    return tuple(canon)


def _parse_meld(text: str, open_at: int, close_at: int, field: str) -> Meld:
    """Parse the bracket text[open_at..close_at] (inclusive) into a meld."""
    exposed = text[open_at] in "[【"
    where = f"{field}: meld at position {open_at + 1}"
    inner_start = open_at + 1
    parts: list[tuple[int, int]] = []
    k = inner_start
    for j in range(inner_start, close_at + 1):
        if j == close_at or text[j] in ":：":
            parts.append((k, j))
            k = j + 1
    tiles = parse_tiles(text[parts[0][0] : parts[0][1]], field=where)
    kong_kind: str | None = None
    source: str | None = None
    for a, b in parts[1:]:
        word = text[a:b].strip()
        seat = None if word in _KONG_WORDS else parse_seat(word)
        if word in _KONG_WORDS:
            kong_kind = _KONG_WORDS[word]
        elif seat is not None:
            source = seat
        else:
            raise ScoringError(
                f"{where}: unknown qualifier '{word}' at position {a + 1} "
                "(direct/直, added/补, or a seat E S W N)",
                code="unknown_token",
                token=word,
                position=a + 1,
            )
    return make_meld(tiles, exposed=exposed, kong_kind=kong_kind, source=source, where=where)


def parse_hand(text: str, *, tiles: int = 14, field: str = "hand") -> Hand:
    """Parse the one-line hand shorthand (see the module docstring).

    >>> h = parse_hand("123m456m789s99p [555p] 中春菊")
    >>> h.melds, h.flowers, h.winning_tile == 17
    ((Meld(kind='pung', tile=13, exposed=True, kong_kind=None, source=None),), ('中', '春', '菊'), True)
    >>> parse_hand("123m456m789s1230p")
    Traceback (most recent call last):
    ...
    scoring.errors.ScoringError: hand: unknown tile '0p' at position 16: ranks run 1-9
    """
    if not isinstance(text, str):
        raise ScoringError(f"{field}: expected a string, got {type(text).__name__}")
    reader = _HandReader(text, tiles, field)
    reader.read()
    return reader.hand()


class _HandReader:
    """Reads the shorthand left to right: runs of tokens (`scoring.tiles.scan`) between the melds' brackets
    and the '?' of '+?', each token taken in turn."""

    def __init__(self, text: str, tiles: int, field: str) -> None:
        self.text, self.tiles, self.field = text, tiles, field
        self.concealed: list[Tile] = []
        self.melds: list[Meld] = []
        self.flowers: list[str] = []
        self.winning: Tile | None = None
        self.marker_at: int | None = None  # position of a pending '+'
        self.no_winning = False  # '+?': a 14-tile hand without a winning tile (天胡)
        self.in_flowers = False
        self.scanned = 0  # the text before this index is read

    def read(self) -> None:
        text = self.text
        i, n = 0, len(text)
        while i < n:
            ch = text[i]
            if ch in _OPEN:
                i = self.meld(i)
                continue
            if ch in _CLOSE:
                raise ScoringError(
                    f"{self.field}: malformed meld: '{ch}' at position {i + 1} closes nothing",
                    code="bad_meld",
                    meld=ch,
                )
            if ch in "?？":
                self.no_winning_tile(i)
            i += 1
        self.scan_to(n)
        self.no_pending_marker()

    def hand(self) -> Hand:
        """The hand read (a 14-tile hand without '+' won on its last concealed tile), validated."""
        winning = self.winning
        if winning is None and self.tiles == 14 and self.concealed and not self.no_winning:
            winning = self.concealed[-1]
        if not self.concealed and not self.melds:
            raise ScoringError(f"{self.field}: no tiles", code="no_tiles")
        return validate_hand(
            self.concealed, self.melds, self.flowers, winning, tiles=self.tiles, field=self.field
        )

    def scan_to(self, end: int) -> None:
        """Take the tokens of the text not read yet, up to `end` (all of them scanned first)."""
        for tok in scan(self.text, self.scanned, end, field=self.field):
            self.take(tok)

    def meld(self, i: int) -> int:
        """The meld whose bracket opens at `i`; the index after its closing bracket."""
        text, field = self.text, self.field
        ch = text[i]
        self.scan_to(i)
        self.no_pending_marker()
        if self.in_flowers:
            raise ScoringError(
                f"{field}: meld at position {i + 1} comes after the flowers: write the tiles first",
                code="after_flowers",
                token=ch,
                position=i + 1,
            )
        j = i + 1
        while j < len(text) and text[j] not in _CLOSE and text[j] not in _OPEN:
            j += 1
        if j >= len(text) or text[j] != _OPEN[ch]:
            raise ScoringError(
                f"{field}: malformed meld: '{ch}' at position {i + 1} is not closed",
                code="bad_meld",
                meld=text[i:],
            )
        self.melds.append(_parse_meld(text, i, j, field))
        self.scanned = j + 1
        return j + 1

    def no_winning_tile(self, i: int) -> None:
        """The '?' at `i`, which only '+?' may have (a hand without a winning tile)."""
        ch = self.text[i]
        self.scan_to(i)
        if self.marker_at is None or self.no_winning:
            raise ScoringError(
                f"{self.field}: unexpected '{ch}' at position {i + 1} (only '+?' means it)",
                code="unknown_token",
                token=ch,
                position=i + 1,
            )
        self.no_winning = True
        self.marker_at = None
        self.scanned = i + 1

    def no_pending_marker(self) -> None:
        if self.marker_at is not None:
            raise ScoringError(
                f"{self.field}: '+' at position {self.marker_at} must be followed by a tile",
                code="bad_marker",
                position=self.marker_at,
            )

    def take(self, tok: Token) -> None:
        if tok.kind == "punct":
            self.punct(tok)
        elif tok.kind == "flower":
            self.no_pending_marker()
            self.in_flowers = True
            assert isinstance(tok.value, str)
            self.flowers.append(tok.value)
        else:
            self.tile(tok)

    def punct(self, tok: Token) -> None:
        """'|' starts the flowers, '+' marks the winning tile; any other mark is out of place here."""
        if tok.value == "|":
            self.in_flowers = True
        elif tok.value == "+":
            self.marker(tok)
        else:
            raise ScoringError(
                f"{self.field}: unexpected '{tok.text}' at position {tok.pos}",
                code="unknown_token",
                token=tok.text,
                position=tok.pos,
            )

    def marker(self, tok: Token) -> None:
        field = self.field
        if self.in_flowers:
            raise ScoringError(
                f"{field}: '+' at position {tok.pos} comes after the flowers",
                code="bad_marker",
                position=tok.pos,
            )
        if self.tiles == 13:
            raise ScoringError(
                f"{field}: '+' at position {tok.pos}: a waiting hand (13 tiles) has no winning tile"
            )
        if self.winning is not None or self.marker_at is not None or self.no_winning:
            raise ScoringError(
                f"{field}: a second winning-tile marker '+' at position {tok.pos}",
                code="bad_marker",
                position=tok.pos,
            )
        self.marker_at = tok.pos

    def tile(self, tok: Token) -> None:
        """A concealed tile (the winning tile after '+'); after the flowers only a wind, as a flower."""
        assert isinstance(tok.value, int)
        if self.in_flowers:
            if is_wind(tok.value):
                self.flowers.append(WIND_FLOWERS[tok.value - 27])
                return
            raise ScoringError(
                f"{self.field}: tile '{tok.text}' at position {tok.pos} comes after the flowers: "
                "write the tiles first",
                code="after_flowers",
                token=tok.text,
                position=tok.pos,
            )
        self.concealed.append(tok.value)
        if self.marker_at is not None:
            self.winning = tok.value
            self.marker_at = None


def render_meld(meld: Meld) -> str:
    """Canonical shorthand of one meld: ``[555p]``, ``(7777m)``, ``[3333z:direct:S]``.

    >>> render_meld(Meld("kong", 27, True, "added", "N"))
    '[1111z:added:N]'
    """
    body = tile_name(meld.tile)[0] * meld.size + tile_name(meld.tile)[1]
    quals = "".join(f":{q}" for q in (meld.kong_kind, meld.source) if q is not None)
    return f"[{body}{quals}]" if meld.exposed else f"({body}{quals})"


def render_hand(hand: Hand) -> str:
    """The canonical one-line form of a hand; `parse_hand` reads it back to an equal Hand.

    >>> render_hand(parse_hand("(EEEE) 123m 456m 78s 99p 9s"))
    '123456m99p78s+9s (1111z)'
    """
    rest = list(hand.concealed)
    if hand.winning_tile is not None:
        rest.remove(hand.winning_tile)
        tiles = render_tiles(rest) + "+" + tile_name(hand.winning_tile)
    elif len(rest) + 3 * len(hand.melds) == 14:
        tiles = render_tiles(rest) + "+?"
    else:
        tiles = render_tiles(rest)
    parts = [tiles] if tiles else []
    parts.extend(render_meld(m) for m in hand.melds)
    if hand.flowers:
        flowers = "".join(hand.flowers)
        parts.append(("| " if hand.flowers[0] in WIND_FLOWERS else "") + flowers)
    return " ".join(parts)
