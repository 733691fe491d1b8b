"""A scored win's items as lines (花 items, multipliers as what they are, 七对's doubled 硬花), the names of
patterns and items, and the coming hand's 豹子 / 滴零 marks where the rule set doubles for them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import t
from bot.ledger.values import SessionInfo
from scoring import TERMS, validate_options


def term_name(lang: str | None, term_id: str, fallback: str | None = None) -> str:
    """A pattern, 花 item or settlement term by id in the chat's language (names from scoring.TERMS)."""
    term = TERMS.get(term_id)
    if term is None:
        return fallback or term_id
    if lang == "en":
        return term.en
    if lang == "zh-Hant":
        return term.zh_hant
    return term.zh


def join_words(lang: str | None, items: Sequence[str]) -> str:
    """`a、b、c` (`a, b, c` in English)."""
    return (", " if lang == "en" else "、").join(items)


# The 0-花 items that multiply a win, by rule set: 豹子 / 滴零 ×2, 包饺子 / 抢杠 ×3 (苏州); 上牌 ×2 (宿州).
MULTIPLIER_TERMS: Mapping[str, Mapping[str, int]] = {
    "suzhou": {"baozi": 2, "diling": 2, "baojiaozi": 3, "qianggang": 3},
    "suzhou-anhui": {"shangpai": 2},
}


def item_lines(
    lang: str | None, rules: str, win: Mapping[str, Any], typed: Mapping[str, Any] | None = None
) -> list[str]:
    """A scored win's items, one a line: `  清一色 10`; a multiplier as what it is, `  滴零 ×2`,
    `  包饺子 ×3`; 豹子 and 滴零 together but not stacked as one line that says so,
    `  豹子、滴零 ×2（不叠加…）`;
    `  合计 ×2` when the win's multiplier is still not the product of the lines (大吊车 x2). `typed` is the
    entry's win: a 硬花 item worth twice the 硬花 typed there shows the doubling (七对)."""
    factors = MULTIPLIER_TERMS.get(rules, {})
    total = int(win.get("multiplier") or 1)
    items = list(win.get("items", []))
    multipliers = {str(i.get("id")): factors[str(i.get("id"))] for i in items if _is_multiplier(factors, i)}
    merged = _not_stacked(multipliers, total)
    lines, product = [], 1
    for item in items:
        item_id = str(item.get("id") or "")
        name = term_name(lang, item_id, item.get("name"))
        if item_id in multipliers:
            if item_id in merged:
                continue
            product *= multipliers[item_id]
            lines.append(t(lang, "preview.item_multiplier", name=name, factor=multipliers[item_id]))
        elif item_id == "yinghua" and 0 < _typed_hard(typed) * DOUBLE == int(item.get("hua") or 0):
            hua, typed_hua = item.get("hua"), _typed_hard(typed)
            lines.append(t(lang, "preview.qidui_hard", name=name, hua=hua, typed=typed_hua))
        else:
            lines.append(t(lang, "preview.item", name=name, hua=item.get("hua", 0)))
    if merged:
        names = join_words(lang, [term_name(lang, m) for m in merged])
        lines.append(t(lang, "preview.not_stacked", names=names, factor=DOUBLE))
        product *= DOUBLE
    if total != product:
        lines.append(t(lang, "preview.multiplier", factor=total))
    return lines


DOUBLE = 2
NOT_STACKED = ("baozi", "diling")  # 苏州: a hand both 豹子 and 滴零 doubles once unless `doubling_stack`


def _is_multiplier(factors: Mapping[str, int], item: Mapping[str, Any]) -> bool:
    return str(item.get("id")) in factors and not item.get("hua")


def _not_stacked(multipliers: Mapping[str, int], total: int) -> tuple[str, ...]:
    """豹子 and 滴零 when both are on this win and the multiplier shows they doubled once, else ()."""
    if not all(m in multipliers for m in NOT_STACKED):
        return ()
    product = 1
    for factor in multipliers.values():
        product *= factor
    return NOT_STACKED if total * DOUBLE == product else ()


def _typed_hard(typed: Mapping[str, Any] | None) -> int:
    """The 硬花 a person typed for one win: the declared count, or the flowers written after the tiles."""
    if not typed:
        return 0
    declared = typed.get("declared") or {}
    if "hard_flowers" in declared:
        return int(declared.get("hard_flowers") or 0)
    return len((typed.get("hand") or {}).get("flowers") or ())


def doubling_marks(lang: str | None, session: SessionInfo) -> list[str]:
    """The coming hand's 豹子 / 滴零, where the rule set doubles for them (苏州; 宿州 does not): one mark
    for both, with the factor they make together (×2, or ×4 with `doubling_stack`)."""
    state = session.state
    if "baozi" not in MULTIPLIER_TERMS.get(session.rules, {}):
        return []
    if state.baozi and state.diling:
        stacked = validate_options(session.rules, session.options).get("doubling_stack")
        return [t(lang, "seat.baozi_diling", factor=DOUBLE * DOUBLE if stacked else DOUBLE)]
    if state.baozi:
        return [t(lang, "seat.baozi")]
    return [t(lang, "seat.diling")] if state.diling else []
