"""GrammarError: what is wrong with a typed /hu, /escape, /adjust or /edit command, and where."""

from __future__ import annotations

from typing import Any

from bot.text import shorten

# Default (English) messages; the bot shows the catalog text `grammar.<code>` in the group's language.
# Every message may use the params {token} (the offending word as typed), {position} (its 1-based
# character position in the arguments) and {index} (its 1-based word number); a few codes add more.
MESSAGES: dict[str, str] = {
    "ambiguous_player": "“{token}” fits more than one player ({seats}): name the seat or the @username.",
    "odd_digit": "“{token}” has a superscript, circled or styled digit: write plain digits, e.g. 5.",
    "empty": "Nothing to record. Example: /hu 南 自摸 5花 清一色",
    "missing_winner": "Who won? Start with the winner, e.g. /hu 南 自摸 5花 (got “{token}”).",
    "calc_missing_winner": (
        "Say who won and how first, e.g. /calc 南 自摸 5花 清一色; with the tiles typed they may be left "
        "out, e.g. /calc 11223355778899p 中发春梅百搭."
    ),
    "missing_how": (
        "How did “{token}” win? Add 自摸/zimo, 冲 <discarder>, 抢杠 <robbed player> or 包 <feeder>."
    ),
    "missing_discarder": (
        "After “{token}” name the player who discarded (or was robbed, or fed the kong), e.g. 冲 北."
    ),
    "unknown_player": (
        "“{token}” is not a player at this table. Use @username, a seat (E S W N or 东南西北) or a "
        "seated name."
    ),
    "unknown_word": (
        "I don't understand “{token}” (word {index}): not a player at this table, a 花 count (5花), "
        "a pattern (清一色 七对) or 杠开 海底 天胡."
    ),
    "unknown_word_suggest": "I don't understand “{token}”. Did you mean “{suggestion}”?",
    "bad_hua": "“{token}” is not a 花 count. Write e.g. 5花, 5h, hua5 or 五花 (0 to 99).",
    "missing_suit": (
        "“{token}” looks like tiles without their suit: put m (万), p (筒) or s (条) after the digits, "
        "e.g. {example}."
    ),
    "duplicate_hua": "Two 花 counts for the same winner: “{token}”.",
    "discarder_is_winner": "“{token}” cannot both win and pay for the discard.",
    "duplicate_winner": "“{token}” is named twice as a winner.",
    "too_many_winners": "Only one player can win by {how}; “{token}” is one winner too many.",
    "conflicting_how": "Two different ways of winning in one entry: “{token}”.",
    "missing_wild": "“{token}” needs the wild tile after it, e.g. 混子 5p.",
    "bad_wild": "“{token}” is not one tile. The wild (混子) is one tile such as 5p or 五筒.",
    "wild_is_flower": "“{token}” is a flower, not a playing tile: the wild (混子) is one such as 5p or 五筒.",
    "conflicting_wild": "Two different wild tiles: “{token}”.",
    "hand_error": "The hand “{token}” is not valid: {reason}",
    "duplicate_hand": "Two hands for the same winner: “{token}”. Type the tiles in one go, flowers last.",
    "hand_with_hua": (
        "Give either the tiles or a 花 count, not both: “{token}”. With tiles, write the flowers "
        "after them (中发春)."
    ),
    "pattern_with_hand": (
        "“{token}”: with the tiles typed, the bot works out the patterns itself; leave it out."
    ),
    "table_state_word": (
        "“{token}” is not part of /hu: 豹子 comes from /roll, 滴零 and 连庄 from the table."
    ),
    "bad_amount": "“{token}” is not an amount. Write a whole number from 1 to 10000000, e.g. 50.",
    "missing_amount": "Say who pays whom how much: the payer, the payee and the amount.",
    "missing_player": "Name the player who left.",
    "same_player": "“{token}” cannot pay themselves.",
    "bad_hand_number": "“{token}” is not a hand number.",
    "missing_entry": "Write the corrected entry after “{token}”.",
    "extra_words": "Unexpected “{token}” (word {index}).",
    "bad_number": "“{token}” is not a whole number from {low} to {high}. Write it in digits, e.g. {low}.",
}
EXCERPT = 24  # at most this many characters of a bad word are quoted back


class GrammarError(ValueError):
    """A typed command that cannot be read; `.code` names the problem, `.params` the offending token.

    >>> e = GrammarError("unknown_word", token="xyz", position=5, index=2)
    >>> e.code, e.key, e.params["token"]
    ('unknown_word', 'grammar.unknown_word', 'xyz')
    """

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        token = params.get("token")
        if isinstance(token, str) and len(token) > EXCERPT:  # a reply quotes a short excerpt, never it all
            params["token"] = shorten(token, EXCERPT)
        self.params: dict[str, Any] = params
        super().__init__(self.default_message())

    @property
    def key(self) -> str:
        """The message-catalog key of this error: ``grammar.<code>``."""
        return f"grammar.{self.code}"

    def default_message(self) -> str:
        """The English message with the params filled in (missing params render as empty text)."""
        template = MESSAGES.get(self.code, "Cannot read the command ({code})")
        values = _Defaults(code=self.code, **self.params)
        return template.format_map(values)


class _Defaults(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return ""
