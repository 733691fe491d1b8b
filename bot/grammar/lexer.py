"""Splitting typed arguments into words: full-width forms, Chinese punctuation, counts in Chinese numerals."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from bot.grammar.errors import GrammarError
from scoring.tiles import ZH_NUMERALS, ZH_TILE_RANKS

# Word separators besides white space (after NFKC: ， → ,  ； → ;  ！ → !  ？ → ?); ":" and "|" belong
# to the hand shorthand ([555p:N], flowers after |).
SEPARATORS = frozenset(",、;!?。～~")

# "+" marks the winning tile in the shorthand (9p+9p, +五筒, +东); elsewhere it joins words: 清一色+七对.
_WINNING_TILE = re.compile(
    rf"\s*([0-9０-９]|[{ZH_TILE_RANKS}][万萬筒饼餅条條索]|[东東南西北]|[\U0001F000-\U0001F02B])"
)

_CN_DIGITS = {**ZH_NUMERALS, "两": 2, "兩": 2}  # scoring's digits, and 两 for two of something
_CN_UNITS = {"十": 10, "拾": 10, "百": 100, "佰": 100}
# The one spelling of a typed whole number, for every pattern that holds one (a stake, 5花, 第3局, 24小时,
# 20:00): ASCII or full-width digits, or a run of Chinese numerals. `parse_count` reads what it matched.
_CN_CHARS = "".join([*_CN_DIGITS, *_CN_UNITS])
NUMBER_RE = rf"[0-9０-９]+|[{_CN_CHARS}]+"
_CN_NUMERAL = re.compile(rf"^[{_CN_CHARS}]+$")
_WIDE_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")


@dataclass(frozen=True, slots=True)
class Token:
    """One typed word: its normalized text, its 1-based character position and 1-based word number."""

    text: str
    position: int
    index: int

    @property
    def word(self) -> str:
        """The text folded for vocabulary look-ups (case-insensitive)."""
        return self.text.casefold()

    def piece(self, start: int, end: int) -> Token:
        """The sub-word text[start:end] (for a word typed without spaces, e.g. 南自摸5花)."""
        return Token(self.text[start:end], self.position + start, self.index)

    def params(self) -> dict[str, object]:
        """The error params that name this word."""
        return {"token": self.text, "position": self.position, "index": self.index}


def is_odd_digit(char: str) -> bool:
    """A digit that is neither ASCII, full-width nor a Chinese numeral: superscripts (²), circled (⑳),
    mathematical (𝟗), Roman (Ⅻ) and other scripts' digits. NFKC would read ² as 2 and ⑳ as 20; every
    number a user types refuses them instead, with one message (`odd_digit`)."""
    if "0" <= char <= "9" or "０" <= char <= "９" or char in _CN_DIGITS:
        return False
    return unicodedata.category(char) in ("Nd", "No", "Nl")


def check_digits(word: str) -> None:
    """GrammarError("odd_digit") when a typed word holds an odd digit (`is_odd_digit`)."""
    if any(is_odd_digit(char) for char in word):
        raise GrammarError("odd_digit", token=word)


def normalize_char(char: str) -> str:
    """NFKC of one character: full-width letters, digits, spaces and punctuation become ASCII (an odd
    digit stays as typed, to be refused)."""
    if is_odd_digit(char):
        return char
    if char in "【〔［":
        return "["
    if char in "】〕］":
        return "]"
    return unicodedata.normalize("NFKC", char)


def normalize(text: str) -> str:
    """A typed word as the grammar reads it: full-width forms folded (`normalize_char`), odd digits kept.

    >>> normalize("３／４")
    '3/4'
    """
    return "".join(normalize_char(char) for char in text)


def tokenize(text: str) -> list[Token]:
    """Split typed arguments into words, keeping each word's position in the original text.

    A leading command (``/hu`` or ``/hu@SomeBot``) is dropped, so both the whole message and its
    arguments can be given.

    >>> [t.text for t in tokenize("/hu 南　自摸，５花、清一色")]
    ['南', '自摸', '5花', '清一色']
    """
    return list(_tokenize(text))  # a fresh list (callers edit it); the tokens themselves are frozen


def _tokenize(text: str) -> tuple[Token, ...]:
    tokens: list[Token] = []
    current: list[str] = []
    start = 0
    for i, raw in enumerate(text):
        norm = normalize_char(raw)
        for char in norm:
            if (
                char.isspace()
                or char in SEPARATORS
                or unicodedata.category(char) in ("Cc", "Cf")
                or (char == "+" and not _WINNING_TILE.match(text, i + 1))
            ):
                if current:
                    tokens.append(Token("".join(current), start + 1, len(tokens) + 1))
                    current = []
            else:
                if not current:
                    start = i
                current.append(char)
    if current:
        tokens.append(Token("".join(current), start + 1, len(tokens) + 1))
    if tokens and tokens[0].text.startswith("/"):
        tokens = [Token(t.text, t.position, t.index - 1) for t in tokens[1:]]
    for token in tokens:
        check_digits(token.text)
    return tuple(tokens)


def parse_number(word: str, *, low: int, high: int) -> int:
    """The one parser of numeric arguments (stake, timeout, amount, hour): a whole number from `low` to
    `high`, in ASCII or full-width digits or Chinese numerals, an optional leading + (＋);
    GrammarError("odd_digit") for ², ①, 𝟗, GrammarError("bad_number") otherwise (+-5, 1.5, 1e3 included).

    >>> parse_number("5", low=1, high=9), parse_number("+五", low=1, high=9)
    (5, 5)
    """
    text = word.strip()
    check_digits(text)
    value = parse_count(text[1:] if text.startswith(("+", "＋")) else text)
    if value is None or not low <= value <= high:
        raise GrammarError("bad_number", token=word, low=low, high=high)
    return value


def parse_count(text: str) -> int | None:
    """A non-negative whole number in ASCII or full-width digits or Chinese numerals (五, 十二, 二十五,
    一百), else None.

    >>> [parse_count(s) for s in ("12", "１２", "十二", "二十", "两", "一百零五", "5.5", "")]
    [12, 12, 12, 20, 2, 105, None, None]
    """
    text = text.translate(_WIDE_DIGITS)
    if text.isascii() and text.isdigit():
        return int(text)
    if not text or not _CN_NUMERAL.match(text):
        return None
    total = 0
    digit: int | None = None
    last_unit = 1000
    for char in text:
        if char in _CN_DIGITS:
            if digit is not None and digit != 0:
                return None  # two digits in a row: 五五
            digit = _CN_DIGITS[char]
        else:
            unit = _CN_UNITS[char]
            if unit >= last_unit:
                return None  # 十百
            total += (1 if digit is None else digit) * unit
            digit = None
            last_unit = unit
    if digit is not None:
        total += digit
    return total
