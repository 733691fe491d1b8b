"""/escape, /draw, /adjust and /edit arguments, and a resolver of player words for all commands."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple, TypeVar

from bot.bounds import MAX_ADJUST
from bot.grammar.errors import GrammarError
from bot.grammar.hu import parse_hu
from bot.grammar.lexer import NUMBER_RE, Token, parse_count, tokenize
from bot.names import named
from scoring.entry import EntryJSON, FlagsJSON, WinJSON, build_entry
from scoring.rules import RuleSetId, ways_to_win
from scoring.seats import SEAT_WORDS, Seat, is_seat, parse_seat

T = TypeVar("T")


def _set(words: str) -> frozenset[str]:
    return frozenset(w.casefold() for w in words.split("|"))


DRAW_WORDS = _set("荒庄|荒莊|黄庄|黃莊|流局|荒|draw|huangzhuang")
ESCAPE_WORDS = _set("逃跑|逃|跑|跑了|逃了|走了|escape|escaped|left|taopao")
_HU_WORDS = _set("hu|胡|和|win")
_PAYS_WORDS = _set("给|給|付给|付給|付|to|->|→|pays|=>")
_NUMBER = f"({NUMBER_RE})"
_AMOUNT = re.compile(rf"^[+¥$]?{_NUMBER}(元|块|塊|银|銀|两|兩|分|花)?$")
_HAND_NUMBER = re.compile(rf"^(?:#|第|no\.?|hand)?{_NUMBER}(?:局|盘|盤|把)?$")
MAX_AMOUNT = MAX_ADJUST  # an adjustment's bound, the one the ledger refuses beyond


class Adjustment(NamedTuple):
    """A zero-sum correction: `payer` hands `amount` stake units to `payee`."""

    payer: Any  # what resolve returned (a seat), or the word as typed for a player resolve did not know
    payee: Any
    amount: int
    note: str


def _no_extra(tokens: list[Token]) -> None:
    if tokens:
        raise GrammarError("extra_words", **tokens[0].params())


def parse_draw(text: str = "") -> EntryJSON:
    """Read /draw (荒庄): no arguments, or the word 荒庄/流局/draw.

    >>> parse_draw("荒庄")
    {'event': 'draw', 'discarder': None, 'escaper': None, 'wins': []}
    """
    tokens = [t for t in tokenize(text) if t.word not in DRAW_WORDS]
    _no_extra(tokens)
    return build_entry("draw")


def parse_escape(text: str, resolve: Callable[[str], Seat | None]) -> EntryJSON:
    """Read /escape <player> (逃跑) into an entry.

    >>> parse_escape("北 逃跑", {"北": "N"}.get)
    {'event': 'escape', 'discarder': None, 'escaper': 'N', 'wins': []}
    """
    tokens = [t for t in tokenize(text) if t.word not in ESCAPE_WORDS]
    if not tokens:
        raise GrammarError("missing_player", token="", position=0, index=0)
    seat = resolve(tokens[0].text)
    if seat is None:
        raise GrammarError("unknown_player", **tokens[0].params())
    _no_extra(tokens[1:])
    return build_entry("escape", other=seat)


def _player(token: Token, resolve: Callable[[str], Any], strict: bool) -> Any:
    value = resolve(token.text)
    if value is not None:
        return value
    if strict or token.word in SEAT_WORDS or parse_count(token.text) is not None:
        raise GrammarError("unknown_player", **token.params())
    return token.text


def parse_amount(token: Token) -> int:
    """A positive whole amount: 50, +50, ¥50, 50元, 五十块."""
    match = _AMOUNT.match(token.text.casefold())
    value = parse_count(match.group(1)) if match else None
    if value is None or not 0 < value <= MAX_AMOUNT:
        raise GrammarError("bad_amount", **token.params())
    return value


def parse_adjust(text: str, resolve: Callable[[str], Any], *, strict: bool = False) -> Adjustment:
    """Read /adjust <from> <to> <amount> [note]: `from` pays `amount` stake units to `to`.

    Players are what `resolve` returns; a word it does not know (a guest, an unseated @user) comes back
    as typed unless `strict`, so the caller can look it up. Seat words (E, 东 …) must resolve.

    >>> parse_adjust("东 西 50 夜宵 奶茶", {"东": "E", "西": "W"}.get)
    Adjustment(payer='E', payee='W', amount=50, note='夜宵 奶茶')
    >>> parse_adjust("@bob → 东 ¥20", {"东": "E"}.get).payer
    '@bob'
    """
    tokens = tokenize(text)
    if tokens and tokens[0].word in _PAYS_WORDS:
        raise GrammarError("missing_amount", **tokens[0].params())
    words = [t for i, t in enumerate(tokens[:4]) if not (i == 1 and t.word in _PAYS_WORDS)]
    if len(words) < 3:
        raise GrammarError(
            "missing_amount", **(tokens[-1].params() if tokens else {"token": "", "position": 0, "index": 0})
        )
    payer = _player(words[0], resolve, strict)
    payee = _player(words[1], resolve, strict)
    if payer == payee:
        raise GrammarError("same_player", **words[1].params())
    amount = parse_amount(words[2])
    end = words[2].position - 1 + len(words[2].text)
    note = _raw_rest(text, end)
    return Adjustment(payer, payee, amount, note)


def _raw_rest(text: str, end: int) -> str:
    """What follows character `end` of the typed text, as typed (separators at the start dropped)."""
    return text[end:].lstrip(" \t\n\u3000,，、;；:：").strip()


def parse_edit(text: str) -> tuple[int, str]:
    """Read /edit <n> <entry>: the hand number and the corrected entry as typed.

    >>> parse_edit("第3局 南 自摸 5花")
    (3, '南 自摸 5花')
    """
    tokens = tokenize(text)
    if not tokens:
        raise GrammarError("bad_hand_number", token="", position=0, index=0)
    first = tokens[0]
    match = _HAND_NUMBER.match(first.word)
    number = parse_count(match.group(1)) if match else None
    if number is None or number < 1:
        raise GrammarError("bad_hand_number", **first.params())
    # The command itself may be part of the text: skip past it to the number's end.
    rest = _raw_rest(text, first.position - 1 + len(first.text))
    if not rest:
        raise GrammarError("missing_entry", **first.params())
    return number, rest


def parse_entry(text: str, resolve: Callable[[str], Seat | None]) -> EntryJSON:
    """Read any entry (for /edit): a win as /hu, 荒庄/draw, or <player> 逃跑/escape.

    >>> parse_entry("荒庄", {}.get)["event"], parse_entry("逃跑 北", {"北": "N"}.get)["escaper"]
    ('draw', 'N')
    """
    tokens = tokenize(text)
    words = {t.word for t in tokens}
    if tokens and words <= DRAW_WORDS:
        return parse_draw(text)
    if words & ESCAPE_WORDS:
        return parse_escape(text, resolve)
    if tokens and tokens[0].word in _HU_WORDS:
        return parse_hu(text[tokens[0].position - 1 + len(tokens[0].text) :], resolve)
    return parse_hu(text, resolve)


def make_resolver(
    seats: Mapping[Seat, Iterable[str]], others: Mapping[str, T] | None = None
) -> Callable[[str], Seat | T | None]:
    """A resolve function: seat words of occupied seats, else whom a name means by the one rule of names
    (`bot.names.named`, the rule /sub, /seat, /paid and /score use) among the seated players and
    `others`, the people not seated (each name one answers to, an @username with its @: what it resolves to).

    `seats` maps a seat ("E") to the names its player answers to (@username, first name, guest name).
    Of several people a name fits, the one seated when exactly one is; two seated are never guessed:
    GrammarError("ambiguous_player") names their seats. A name that fits only people off the table
    resolves to their value (the table's resolver gives None: not at the table).

    >>> resolve = make_resolver({"E": ["@Ann", "Ann Lee"], "S": ["老王"]}, {"bob": 42})
    >>> resolve("东"), resolve("@ann"), resolve("ANN LEE"), resolve("老王"), resolve("@Bob"), resolve("W")
    ('E', 'E', 'E', 'S', 42, None)
    """
    people: list[tuple[tuple[str, Any], Iterable[str]]] = [
        (("seat", seat), names) for seat, names in seats.items()
    ]
    people += [(("other", value), (name,)) for name, value in (others or {}).items()]

    def resolve(word: str) -> Seat | T | None:
        seat = parse_seat(word)
        if seat is not None:
            return seat if seat in seats else None
        found = named(word, people)
        seated = [value for kind, value in found if kind == "seat" and is_seat(value)]
        if len(seated) > 1:
            fits = "".join(sorted(seated, key="ESWN".index))
            raise GrammarError("ambiguous_player", token=word, seats=fits)
        if seated:
            return seated[0]
        return found[0][1] if found else None

    return resolve


def local_entry(rules: RuleSetId, entry: EntryJSON) -> EntryJSON:
    """An entry in the words of the table's rule set: where it offers no 包 (`scoring.rules.ways_to_win`:
    宿州) `包 北` is a plain 杠开 (settled as a self-draw, everyone pays), so the feeder is dropped and the
    headline says 自摸.

    >>> win = {"winner": "S", "type": "self_draw", "flags": {"after_kong": True, "kong_fed_by": "N"}}
    >>> local_entry("suzhou-anhui", {"event": "win", "wins": [win]})["wins"][0]["flags"]
    {'after_kong': True, 'kong_fed_by': None}
    """
    if "bao" in ways_to_win(rules, {}) or entry["event"] != "win":
        return entry
    wins: list[WinJSON] = []
    for win in entry["wins"]:
        if win["flags"].get("kong_fed_by"):
            flags: FlagsJSON = {**win["flags"], "kong_fed_by": None}
            win = {**win, "flags": flags}
        wins.append(win)
    return {**entry, "wins": wins}
