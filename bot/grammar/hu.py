"""/hu: the typed recording grammar of a win → the entry, the partial docs/rules.md §4 request.

`/hu <winner> <how> [details]`, details either a 花 count and pattern words (the declared form) or the
hand in tile shorthand then its flowers (the tile form). Several winners on one discard each carry
their own details: `/hu 东 8花 西 清一色 冲 北`. Words may also be typed without spaces (南自摸5花).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar, cast

from bot.grammar import vocab
from bot.grammar.errors import GrammarError
from bot.grammar.lexer import Token, parse_count, tokenize
from bot.grammar.shorthand import hand_object, lower_suits
from scoring import ScoringError, find_pattern
from scoring.entry import Claim, EntryJSON, FlagName, How, build_entry
from scoring.seats import Seat
from scoring.tiles import scan, tile_from_name, tile_name

T = TypeVar("T")
Resolve = Callable[[str], T | None]
"""Maps a typed player word (@username, E/S/W/N, 东南西北, a seated name) to a seat, else None."""

_ENGLISH_WORD = re.compile(r"^[A-Za-z0-9][A-Za-z0-9'_\-]*$")
_LONGEST_GLUED = 32  # longest word we try to split into several (南自摸5花清一色七对)
_MULTIWORD = 6  # most ASCII words an English term spans ("single wait on the last tile")

# Labels of a recognized word.
HOW, WILD, WILD_GLUED, PLAYER, TILES, HUA, FLAG, PATTERN, STATE, FLOWERS, FILLER = (
    "how",
    "wild",
    "wild_glued",
    "player",
    "tiles",
    "hua",
    "flag",
    "pattern",
    "state",
    "flowers",
    "filler",
)
# Flags that only happen on a self-draw: with one of them the way of winning may be left out (南 杠开 5花).
_SELF_DRAW_FLAGS = ("after_kong", "after_flower", "last_tile", "heavenly", "earthly")


@dataclass
class _Winner:
    seat: Seat
    token: Token
    hand: list[Token] = field(default_factory=list)
    hand_closed: bool = False
    counts: dict[str, tuple[int, Token]] = field(default_factory=dict)
    # (word, pattern id or None, flag or None) in typed order
    words: list[tuple[Token, str | None, str | None]] = field(default_factory=list)

    def bare(self) -> bool:
        return not (self.hand or self.counts or self.words)

    def in_hand(self) -> bool:
        return bool(self.hand) and not self.hand_closed


@dataclass
class _How:
    kind: str
    token: Token
    other: Seat | None = None
    other_token: Token | None = None


def _find_pattern_id(word: str) -> str | None:

    pattern = find_pattern(word)
    return pattern.id if pattern is not None else None


def _scan_kinds(text: str) -> tuple[str, ...] | None:
    """The kinds ("tile", "flower", "punct") of tile shorthand, or None when it is not shorthand."""

    try:
        return tuple(tok.kind for tok in scan(lower_suits(text)))
    except ScoringError:
        return None


def _flower_count(text: str) -> int | None:
    """The number of flower tiles in a word made only of flower names (中发春梅百搭 → 5).

    As in the hand shorthand, winds after the first flower are flowers too (宿州's 令风): 中东东 → 3.
    """

    try:
        tokens = scan(text)
    except ScoringError:
        return None
    if not tokens or tokens[0].kind != "flower":
        return None
    if any(tok.kind != "flower" and tok.text not in _WIND_FLOWER_TEXT for tok in tokens):
        return None
    return len(tokens)


_WIND_FLOWER_TEXT = frozenset("东東南西北")


def _several_winds(text: str) -> bool:
    """西北: two different winds typed as one word are players, never 令风 flowers (one round wind)."""
    return set(text) <= _WIND_FLOWER_TEXT and len(set(text.replace("東", "东"))) > 1


def _wild_tile(text: str) -> str | None:
    """The canonical name of exactly one typed tile (五筒 → 5p), else None."""

    try:
        return tile_name(tile_from_name(lower_suits(text)))
    except ScoringError:
        return None


def _word_label(text: str) -> str | None:
    """The label of a grammar word (looked up before player names), else None. Pure: cached."""
    word = text.casefold()
    if word in vocab.HOW_WORDS:
        return HOW
    if word in vocab.WILD_WORDS:
        return WILD
    if word in vocab.FLAG_WORDS:
        return FLAG
    if word in vocab.TABLE_STATE_WORDS:
        return STATE
    if word in vocab.FILLER_WORDS:
        return FILLER
    glued = vocab.split_wild(text)
    if glued is not None and _wild_tile(glued) is not None:
        return WILD_GLUED
    return None


def _unit_label(text: str, in_hand: bool) -> str | None:
    """The label of a word that is neither a grammar word nor a player (tiles, flowers, 花, pattern, flag)."""
    kinds = _scan_kinds(text)
    if kinds and (vocab.looks_like_tiles(text) or (in_hand and not _several_winds(text))):
        return TILES
    if kinds and _flower_count(text) is not None:
        return FLOWERS
    if vocab.parse_hua(text) is not None:
        return HUA
    pattern_id = _find_pattern_id(text)
    if pattern_id is not None:
        return FLAG if pattern_id in vocab.PATTERN_FLAG else PATTERN
    return None


class _HuParser:
    def __init__(self, text: str, resolve: Resolve[Seat]) -> None:
        self.tokens = tokenize(text)
        self.resolve_fn = resolve
        self.resolved: dict[str, Seat | None] = {}
        self.labels: dict[tuple[str, bool], str | None] = {}
        self.winners: list[_Winner] = []
        self.how: _How | None = None
        self.wild: tuple[str, Token] | None = None

    # ---- recognizing one word -------------------------------------------------------------------

    def resolve(self, text: str) -> Seat | None:
        if text not in self.resolved:
            self.resolved[text] = self.resolve_fn(text)
        return self.resolved[text]

    def label(self, text: str, *, in_hand: bool) -> str | None:
        """What a whole word is, or None when it is not one known unit."""
        key = (text, in_hand)
        if key not in self.labels:
            self.labels[key] = self._label(text, in_hand=in_hand)
        return self.labels[key]

    def _label(self, text: str, *, in_hand: bool) -> str | None:
        label = _word_label(text)
        if label is not None:
            return label
        if self.resolve(text) is not None:
            return PLAYER
        return _unit_label(text, in_hand)

    def segment(self, token: Token, *, in_hand: bool) -> list[Token] | None:
        """Split a word typed without spaces into known units (fewest pieces), else None."""
        text = token.text
        if len(text) > _LONGEST_GLUED or not any(_is_cjk(c) for c in text):
            return None
        n = len(text)
        best: list[tuple[int, int] | None] = [None] * (n + 1)  # (pieces, start of the last piece)
        best[0] = (0, 0)
        for end in range(1, n + 1):
            for start in range(end):
                prev, found = best[start], best[end]
                if prev is None or (found is not None and found[0] <= prev[0] + 1):
                    continue
                if start and _joined(text[start - 1], text[start]):
                    continue  # never cut inside 100花 or zimo
                piece = self.label(text[start:end], in_hand=in_hand)
                if piece not in (None, TILES, FLOWERS) and (piece != WILD or end == n):
                    best[end] = (prev[0] + 1, start)
        whole = best[n]
        if whole is None or whole[0] < 2:
            return None
        pieces: list[Token] = []
        end = n
        while end > 0:
            step = best[end]
            assert step is not None  # every piece of the best split ends where another one starts
            start = step[1]
            pieces.append(token.piece(start, end))
            end = start
        return pieces[::-1]

    def multiword(self, i: int) -> tuple[str, int] | None:
        """A term or a name spread over several ASCII words ("seven pairs", "self draw", "Bob Chen") at i."""
        # Only the words from i on that are all ASCII words can form a term: count that run once.
        run = 0
        for token in self.tokens[i : i + _MULTIWORD]:
            if not _ENGLISH_WORD.match(token.text):
                break
            run += 1
        for size in range(run, 1, -1):
            group = self.tokens[i : i + size]
            text = " ".join(t.text for t in group)
            if self.label(text, in_hand=False) in (HOW, FLAG, PATTERN, PLAYER):
                return text, size
            compact = "".join(t.text for t in group)  # pinyin by syllables: zi mo, gang kai
            if self.label(compact, in_hand=False) in (HOW, FLAG, PATTERN):
                return compact, size
        return None

    def spaced_count(self, i: int) -> tuple[str, int] | None:
        """A 花 count typed as two words ("5 花", "hua 5") at i."""
        pair = self.tokens[i : i + 2]
        if len(pair) < 2:
            return None
        number, kind = pair
        if number.word in vocab.COUNT_KINDS or kind.word in vocab.COUNT_KINDS:
            if self.multiword(i + 1) is not None:
                return None  # "0 flower bloom" is 0 then 花开
            text = number.text + kind.text
            return (text, 2) if vocab.parse_hua(text) is not None else None
        if parse_count(number.text) is None or self.label(kind.text, in_hand=False) is not None:
            return None
        # "5 花上牌": the count word is glued to the next word.
        for word in vocab.COUNT_WORDS_LONGEST_FIRST:
            cut = len(word)
            if (
                kind.word.startswith(word)
                and len(kind.text) > cut
                and not _joined(kind.text[cut - 1], kind.text[cut])
            ):
                rest = kind.piece(cut, len(kind.text))
                if self.label(rest.text, in_hand=False) is None and self.segment(rest, in_hand=False) is None:
                    return None  # "5 花上开花…" is 5 then 花上开花…
                self.tokens[i + 1 : i + 2] = [kind.piece(0, cut), rest]
                return number.text + kind.text[:cut], 2
        return None

    def expand(self, i: int, *, in_hand: bool) -> str | None:
        """Make tokens[i] one known unit (joining or splitting words if needed); return its label."""
        joined = self.multiword(i) or self.spaced_count(i)
        if joined is not None:
            text, size = joined
            first = self.tokens[i]
            self.tokens[i : i + size] = [Token(text, first.position, first.index)]
        token = self.tokens[i]
        label = self.label(token.text, in_hand=in_hand)
        if label is not None:
            return label
        if (
            len(token.text) > 2
            and token.text[0] + token.text[-1] in ("()", "[]")
            and not vocab.looks_like_tiles(token.text[1:-1])
        ):
            token = self.tokens[i] = token.piece(1, len(token.text) - 1)  # (清一色): words in brackets
            label = self.label(token.text, in_hand=in_hand)
            if label is not None:
                return label
        pieces = self.segment(token, in_hand=in_hand)
        if pieces is None:
            # Malformed shorthand (1230m, [555p): parse_hand will say what is wrong with it.
            return TILES if vocab.looks_like_tiles(token.text) else None
        self.tokens[i : i + 1] = pieces
        return self.label(pieces[0].text, in_hand=in_hand)

    # ---- reading the words in order ----------------------------------------------------------------

    def parse(self) -> EntryJSON:
        if not self.tokens:
            raise GrammarError("empty", token="", position=0, index=0)
        i = 0
        while i < len(self.tokens):
            current = self.winners[-1] if self.winners else None
            in_hand = current is not None and current.in_hand()
            label = self.expand(i, in_hand=in_hand)
            token = self.tokens[i]
            if label == HOW:
                i = self.read_how(i, current)
                continue
            if label in (WILD, WILD_GLUED):
                i = self.read_wild(i, label)
                continue
            if label == PLAYER and current is not None and self.lingfeng(i, current):
                current.hand.append(token)  # 宿州's 令风 typed alone after a whole hand: a flower
                i += 1
                continue
            if label == PLAYER:
                self.add_winner(token)
                i += 1
                continue
            if label == FILLER:
                i += 1
                continue
            if label is None:
                raise self.unknown(token, current)
            if current is None:
                raise GrammarError("missing_winner", **token.params())
            if label == TILES:
                if current.hand_closed:
                    raise GrammarError("duplicate_hand", **token.params())
                current.hand.append(token)
                i += 1
                continue
            if current.in_hand():
                current.hand_closed = True
            if label == STATE:
                raise GrammarError("table_state_word", **token.params())
            if label in (HUA, FLOWERS):
                parsed = vocab.parse_hua(token.text)
                kind, count = parsed if parsed is not None else ("hard", _flower_count(token.text) or 0)
                if kind in current.counts:
                    raise GrammarError("duplicate_hua", **token.params())
                current.counts[kind] = (count, token)
            elif label == FLAG:
                flag = vocab.FLAG_WORDS.get(token.word)
                if flag is None:
                    pattern_id = _find_pattern_id(token.text)
                    assert pattern_id is not None
                    flag = vocab.PATTERN_FLAG[pattern_id]
                current.words.append((token, vocab.FLAG_PATTERN[flag], flag))
            else:  # PATTERN
                current.words.append((token, _find_pattern_id(token.text), None))
            i += 1
        return self.finish()

    def lingfeng(self, i: int, current: _Winner) -> bool:
        """A wind word (东, 南南) right after a winner's whole hand, no details of a winner after it: 宿州's
        令风, a flower (`/hu 南 自摸 123m456m789m123p99p 东`), not a second winner."""
        text = self.tokens[i].text.replace("東", "东")
        if not current.in_hand() or not set(text) <= _WIND_FLOWER_TEXT or len(set(text)) != 1:
            return False
        j = i + 1
        while j < len(self.tokens):  # only words of this winner may follow: flags, the 混子, 自摸
            word = self.tokens[j]
            label = self.label(word.text, in_hand=False)
            if label == HOW and vocab.HOW_WORDS[word.word] != vocab.SELF_DRAW:
                return False  # 东 冲 西 …: a winner, or the one who dealt in
            if label not in (FLAG, FILLER, WILD, WILD_GLUED, HOW):
                return False  # a winner's details, or another player
            j += 2 if label == WILD else 1  # 混子 and its tile
        try:
            hand_object(current.hand)
        except GrammarError:
            return False
        return True

    def unknown(self, token: Token, current: _Winner | None) -> GrammarError:
        if token.text.startswith("@") or current is None:
            return GrammarError("unknown_player", **token.params())
        if token.text.isascii() and token.text.isdigit() and len(token.text) > 4:  # 11223355778899, not 500
            return GrammarError("missing_suit", example=f"{token.text}p", **token.params())
        if vocab.looks_like_hua(token.text):
            return GrammarError("bad_hua", **token.params())
        suggestion = vocab.nearest_word(token.text)
        if suggestion is not None:  # 自模 → 自摸: one key off a word the grammar knows
            return GrammarError("unknown_word_suggest", suggestion=suggestion, **token.params())
        return GrammarError("unknown_word", **token.params())

    def add_winner(self, token: Token) -> None:
        seat = self.resolve(token.text)
        assert seat is not None
        for winner in self.winners:
            if winner.seat == seat:
                raise GrammarError("duplicate_winner", seat=seat, **token.params())
        if self.winners and self.winners[-1].in_hand():
            self.winners[-1].hand_closed = True
        self.winners.append(_Winner(seat, token))

    def read_how(self, i: int, current: _Winner | None) -> int:
        token = self.tokens[i]
        if current is not None and current.in_hand():
            current.hand_closed = True
        how = _How(vocab.HOW_WORDS[token.word], token)
        consumed = 1
        if how.kind in vocab.NEEDS_OTHER:
            next_label = self.expand(i + 1, in_hand=False) if i + 1 < len(self.tokens) else None
            if next_label == PLAYER:
                how.other_token = self.tokens[i + 1]
                how.other = self.resolve(how.other_token.text)
                consumed = 2
            elif (
                len(self.winners) >= 2
                and self.winners[-1].bare()
                and self.winners[-1].token is self.previous_word(i)
            ):
                # 东 北点炮: the player just before the word is the one who discarded.
                named = self.winners.pop()
                how.other, how.other_token = named.seat, named.token
            elif i + 1 < len(self.tokens) and next_label is None:
                raise GrammarError("unknown_player", how=token.text, **self.tokens[i + 1].params())
            else:
                raise GrammarError("missing_discarder", **token.params())
        if self.how is not None and (self.how.kind, self.how.other) != (how.kind, how.other):
            raise GrammarError("conflicting_how", **token.params())
        if self.how is None:
            self.how = how
        return i + consumed

    def previous_word(self, i: int) -> Token | None:
        """The last word before tokens[i] that is not a filler (北 被 抢杠)."""
        for j in range(i - 1, -1, -1):
            if self.label(self.tokens[j].text, in_hand=False) != FILLER:
                return self.tokens[j]
        return None

    def read_wild(self, i: int, label: str) -> int:
        token = self.tokens[i]
        if label == WILD_GLUED:
            tile_text = vocab.split_wild(token.text) or ""
            consumed = 1
        elif i + 1 < len(self.tokens):
            following = self.tokens[i + 1]
            tile_text = following.text
            consumed = 2
            if _wild_tile(tile_text) is None:
                # 混子 五筒南包: the tile may be glued to the words after it.
                for cut in range(len(tile_text) - 1, 0, -1):
                    if _wild_tile(tile_text[:cut]) is not None:
                        self.tokens[i + 1 : i + 2] = [
                            following.piece(0, cut),
                            following.piece(cut, len(tile_text)),
                        ]
                        tile_text = tile_text[:cut]
                        break
        else:
            raise GrammarError("missing_wild", **token.params())
        tile = _wild_tile(tile_text)
        if tile is None:
            named = (self.tokens[i + 1] if consumed == 2 else token).params()
            if _flower_count(tile_text) == 1:  # 中, 春: a flower, never the wild
                raise GrammarError("wild_is_flower", **{**named, "token": tile_text})
            raise GrammarError("bad_wild", **named)
        if self.wild is not None and self.wild[0] != tile:
            raise GrammarError("conflicting_wild", **token.params())
        self.wild = (tile, token)
        return i + consumed

    # ---- building the entry ------------------------------------------------------------------------

    def finish(self) -> EntryJSON:
        if not self.winners:
            raise GrammarError("missing_winner", **self.tokens[0].params())
        how = self.how
        if how is None:
            implied = [flag for _, _, flag in self.winners[0].words if flag in _SELF_DRAW_FLAGS]
            if len(self.winners) > 1 or not implied:
                raise GrammarError("missing_how", **self.winners[-1].token.params())
            how = _How(vocab.SELF_DRAW, self.winners[0].words[0][0])  # 杠开 海底 天胡 …: a self-draw
        if how.kind in (vocab.SELF_DRAW, vocab.BAO, vocab.SONGGANG) and len(self.winners) > 1:
            raise GrammarError("too_many_winners", how=how.token.text, **self.winners[1].token.params())
        if how.other is not None:
            for winner in self.winners:
                if winner.seat == how.other:
                    assert how.other_token is not None
                    raise GrammarError("discarder_is_winner", seat=how.other, **how.other_token.params())
        claims = [self.claim(winner) for winner in self.winners]
        return build_entry(_HOW[how.kind], claims, other=how.other, wild=self.wild[0] if self.wild else None)

    def claim(self, winner: _Winner) -> Claim:
        """What the words say of one winner: the tiles, or the 花 counts and patterns; the flags."""
        winning_tile = _lone_winning_tile(winner.hand)
        if winning_tile is not None:  # the quick form's `+2p`: the tile won on (宿州: a discarded 混子)
            winner.hand = []
        patterns: list[str] = []
        flags: set[FlagName] = set()
        for token, pattern_id, flag in winner.words:
            if flag is not None:
                flags.add(cast(FlagName, flag))
            if winner.hand:
                if flag is None:
                    raise GrammarError("pattern_with_hand", pattern=pattern_id, **token.params())
            elif pattern_id is not None:  # a flag's pattern too, where it was said (杠开 …)
                patterns.append(pattern_id)
        if winner.hand:
            if winner.counts:
                raise GrammarError("hand_with_hua", **next(iter(winner.counts.values()))[1].params())
            return Claim(winner.seat, hand_object(winner.hand), flags=frozenset(flags))
        return Claim(
            winner.seat,
            hard_flowers=winner.counts.get("hard", (0, None))[0],
            soft_flowers=winner.counts.get("soft", (0, None))[0],
            patterns=tuple(patterns),
            flags=frozenset(flags),
            winning_tile=winning_tile,
        )


_HOW: dict[str, How] = {
    vocab.SELF_DRAW: "self_draw",
    vocab.BAO: "bao",
    vocab.SONGGANG: "songgang",
    vocab.DISCARD: "discard",
    vocab.ROB_KONG: "rob_kong",
}


def _lone_winning_tile(parts: list[Token]) -> str | None:
    """The tile of a lone `+2p` (the shorthand's winning-tile marker, no hand around it), else None."""
    if len(parts) != 1 or not parts[0].text.startswith("+"):
        return None
    return _wild_tile(parts[0].text[1:])


def _joined(left: str, right: str) -> bool:
    return left.isascii() and right.isascii() and left.isalnum() and right.isalnum()


def _is_cjk(char: str) -> bool:
    return "\u3400" <= char <= "\u9fff" or "\uf900" <= char <= "\ufaff"


def parse_hu(text: str, resolve: Resolve[Seat]) -> EntryJSON:
    """Read the arguments of /hu into an entry: the partial docs/rules.md §4 request of a win.

    `resolve(word)` maps a player word to a seat ("E" "S" "W" "N") or None. Raises GrammarError.

    >>> seats = {"东": "E", "南": "S", "西": "W", "北": "N"}
    >>> entry = parse_hu("南 自摸 5花 清一色 七对", seats.get)
    >>> entry["wins"][0]["type"], entry["wins"][0]["declared"]
    ('self_draw', {'hard_flowers': 5, 'soft_flowers': 0, 'patterns': ['qingyise', 'qidui']})
    >>> entry = parse_hu("东 8花 西 清一色 冲 北", seats.get)
    >>> entry["discarder"], [w["winner"] for w in entry["wins"]]
    ('N', ['E', 'W'])
    """
    return _HuParser(text, resolve).parse()
