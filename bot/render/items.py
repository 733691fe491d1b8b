"""A scored win's items as lines (花 items, multipliers as what they are, 七对's doubled 硬花), the names of
patterns and items, and the coming hand's 豹子 / 滴零 marks where the rule set doubles for them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.grammar.errors import EXCERPT
from bot.i18n import has, t
from bot.ledger.values import SessionInfo
from bot.text import shorten
from scoring import TERMS, validate_options
from scoring.entry import WinJSON
from scoring.errors import ScoringError
from scoring.response import WinResult
from scoring.rules import RuleSetId, dice_doubling
from scoring.tiles import parse_tiles, rank, suit


def term_name(
    lang: str | None, term_id: str, fallback: str | None = None, rules: RuleSetId | None = None
) -> str:
    """A pattern, 花 item or settlement term by id in the chat's language (names from scoring.TERMS); a
    rule set's own name for it where it has one (`item.<rules>.<id>`: 宿州's 花牌 and 碰杠花, not 苏州's
    硬花 and 软花)."""
    own = f"item.{rules}.{term_id}"
    if rules is not None and has(own, lang or ""):
        return t(lang, own)
    term = TERMS.get(term_id)
    if term is None:
        return fallback or term_id
    if lang == "en":
        return term.en
    if lang == "zh-Hant":
        return term.zh_hant
    return term.zh


def join_words(lang: str | None, items: Iterable[str]) -> str:
    """`a、b、c` (`a, b, c` in English)."""
    return (", " if lang == "en" else "、").join(items)


def join_clauses(lang: str | None, items: Iterable[str]) -> str:
    """`a；b` (`a; b` in English): items that are phrases of their own (one winner's value, a reason)."""
    return ("; " if lang == "en" else "；").join(items)


DOUBLE = 2
NOT_STACKED = ("baozi", "diling")  # 苏州: a hand both 豹子 and 滴零 doubles once unless `doubling_stack`


def is_pattern(term_id: str) -> bool:
    """A pattern or a settlement term (清一色, 包饺子), not a 花 item (底, 硬花, 明杠): what a hand is
    called."""
    term = TERMS.get(term_id)
    return term is not None and term.kind != "item"


def item_lines(
    lang: str | None,
    win: WinResult | None,
    typed: WinJSON | None = None,
    rules: RuleSetId | None = None,
) -> list[str]:
    """A scored win's items, one a line: `  清一色 10`; a multiplier (an item's `times` in the scoring core's
    response) as what it is, `  滴零 ×2`, `  包饺子 ×3`, `  清一色 ×2`; a pattern with 花 and a factor on two
    lines (`  双豪七对 30`, `  双豪七对 ×3`); 豹子 and 滴零 together but not stacked as one line that says so,
    `  豹子、滴零 ×2（不叠加…）`; `  合计 ×2` when the win's multiplier is still not the product of the lines.
    `typed` is the entry's win: a 硬花 item worth twice the 硬花 typed there shows the doubling (七对).
    An item worth nothing says what it means instead of a 0 (宿州: `  杠开（算自摸）`,
    `  七对（可以胡，不加花）`); names are the rule set's (`rules`). No scored win (None): no lines."""
    if win is None:
        return []
    items = win["items"]
    total = win["multiplier"]
    merged = _not_stacked({i["id"]: i.get("times", 1) for i in items}, total)
    hard = _typed_hard(typed)
    lines, product = [], 1
    for item in items:
        item_id = item["id"]
        if item_id in merged:
            continue
        name = term_name(lang, item_id, item.get("name"), rules)
        factor = item.get("times", 1)
        hua = item.get("hua", 0)
        if item_id == "yinghua" and 0 < hard * DOUBLE == hua:
            lines.append(t(lang, "preview.qidui_hard", name=name, hua=hua, typed=hard))
        elif hua:
            lines.append(t(lang, "preview.item", name=name, hua=hua))
        elif factor == 1:
            meaning = f"zero.{item_id}" if has(f"zero.{item_id}", lang or "") else "zero.other"
            lines.append(t(lang, "preview.item_zero", name=name, meaning=t(lang, meaning)))
        if factor != 1:
            product *= factor
            lines.append(t(lang, "preview.item_multiplier", name=name, factor=factor))
    if merged:
        names = join_words(lang, [term_name(lang, m) for m in merged])
        lines.append(t(lang, "preview.not_stacked", names=names, factor=DOUBLE))
        product *= DOUBLE
    if total != product:
        lines.append(t(lang, "preview.multiplier", factor=total))
    return lines


def _not_stacked(factors: Mapping[str, int], total: int) -> tuple[str, ...]:
    """豹子 and 滴零 when both are on this win and the multiplier shows they doubled once, else ()."""
    if not all(factors.get(m) == DOUBLE for m in NOT_STACKED):
        return ()
    product = 1
    for factor in factors.values():
        product *= factor
    return NOT_STACKED if total * DOUBLE == product else ()


def _typed_hard(typed: WinJSON | None) -> int:
    """The 硬花 a person typed for one win: the declared count, or the flowers written after the tiles."""
    if typed is None:
        return 0
    if "declared" in typed:
        return typed["declared"].get("hard_flowers", 0)
    return len(typed["hand"].get("flowers", ())) if "hand" in typed else 0


def doubling_marks(lang: str | None, session: SessionInfo) -> list[str]:
    """The coming hand's 豹子 / 滴零, where the rule set doubles for them (苏州; 宿州 does not): one mark
    for both, with the factor they make together (×2, or ×4 with `doubling_stack`)."""
    state = session.state
    if not dice_doubling(session.rules):  # 宿州 does not double for them (as scoring.dealer reads the rules)
        return []
    if state.baozi and state.diling:
        stacked = validate_options(session.rules, session.options).get("doubling_stack")
        return [t(lang, "seat.baozi_diling", factor=DOUBLE * DOUBLE if stacked else DOUBLE)]
    if state.baozi:
        return [t(lang, "seat.baozi")]
    return [t(lang, "seat.diling")] if state.diling else []


def tile_words(lang: str | None, shorthand: object) -> str:
    """Tiles by name: `9p` → 九筒, `555p` → 五筒×3, `[56p]` → 五筒、六筒, `1z` → 东 (東, East); text that is
    no tiles comes back as typed (cut short).

    >>> tile_words("zh-Hans", "9p"), tile_words("zh-Hant", "[555p]"), tile_words("en", "1z")
    ('九筒', '五筒×3', 'East')
    """
    text = str(shorthand).strip().strip("[]()【】（）").split(":")[0]
    try:
        tiles = parse_tiles(text)
    except ScoringError:
        return shorten(text, EXCERPT)
    if not tiles:
        return shorten(text, EXCERPT)
    # The names come from the catalog (`tiles.*`): ranks, one word per suit, the honours 1z–7z.
    ranks, honours = t(lang, "tiles.ranks").split(), t(lang, "tiles.honours").split()

    def name(tile: int) -> str:
        letter = suit(tile)
        if letter is None:
            return honours[rank(tile) - 1]
        return t(lang, f"tiles.rank_{letter}", rank=ranks[rank(tile) - 1])

    if len(set(tiles)) == 1:
        return name(tiles[0]) + (f"×{len(tiles)}" if len(tiles) > 1 else "")
    return join_words(lang, [name(tile) for tile in tiles])
