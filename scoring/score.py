"""One win's 花: the patterns and 花 items of the best decomposition, and whether the win is allowed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING

from scoring.decompose import Decomposition, Facts, Reading, readings
from scoring.errors import ScoringError
from scoring.items import Item, item_list, meld_item_counts, soft_hua
from scoring.patterns import NO_FLAGS, PATTERNS, Flags, Predicate, WinContext, WinType
from scoring.rules import (
    HAOQIDUI_FACTORS,
    PATTERN_VALUE_OPTIONS,
    QIDUI_VALUES,
    RULESETS,
    SUZHOU,
    OptionValue,
    RuleSet,
    RuleSetId,
    default_options,
    is_playing_tile,
    ruleset,
)
from scoring.seats import Seat

if TYPE_CHECKING:
    from scoring.hand import Hand

THRESHOLDS: Mapping[str, tuple[int, int]] = {"3/4": (3, 4), "2/3": (2, 3)}
"""`threshold` option → (硬花 needed for a self-draw, 硬花 needed for a discard win)."""

_SEVEN_PAIRS_ORDER = ("qidui", "haohua_qidui", "shuanghao_qidui", "sanhao_qidui")
_SEVEN_PAIRS = frozenset(_SEVEN_PAIRS_ORDER)
_FLOWER_PATTERNS = frozenset({"hua_dasanyuan", "hua_xiaosanyuan"})  # they read which flowers, not how many
# Patterns that only describe how the win happened; the declared entry maps them onto flags.
_FLAG_PATTERNS = ("gangkai", "huakai", "tianhu", "dihu", "haidi")


@dataclass(frozen=True, slots=True)
class Declared:
    """The quick entry: counts and pattern ids instead of tiles (docs/rules.md §4 `declared`)."""

    hard_flowers: int
    soft_flowers: int
    patterns: tuple[str, ...]
    winning_tile: int | None = None  # optional: a 宿州 discard win on the 混子 is refused by it


@dataclass(frozen=True, slots=True)
class WinScore:
    """What one winner scores per payer, before settlement multipliers other than its own (immutable:
    a Table remembers them).

    `hua` is T (苏州) or f (宿州); `factor` the product of the pattern multipliers on T (大吊车 and 清一色
    "x2", 双豪/三豪七对), applied before 豹子/滴零 and 包饺子/抢杠 (docs/rules.md §1).
    """

    allowed: bool
    reason: str | None
    hua: int
    items: tuple[Item, ...]
    patterns: tuple[str, ...]
    factor: int = 1
    have: int = 0
    need: int = 0


@dataclass(frozen=True, slots=True)
class Table:
    """A rule set with one table's options applied: pattern values, predicates to walk, thresholds."""

    rule: RuleSet
    options: Mapping[str, OptionValue]
    values: Mapping[str, int]
    predicates: tuple[tuple[str, Predicate], ...]
    shape_predicates: tuple[tuple[str, Predicate], ...]  # without the `on_flags` ones: for NO_FLAGS
    yinghua_factor_qidui: int
    factors: Mapping[str, int]  # pattern id -> its factor on T (a pattern multiplier)
    songgang_any: bool  # 送杠: a fed kong's feeder pays 3T on any later self-draw by the konger
    self_need: int
    discard_need: int
    counts_soft: bool
    self_draw_only: bool
    supersedes: bool  # some pattern of the table supersedes another (the extended list)
    reads_flowers: bool  # some pattern looks at which flowers the winner holds (花中三元), not their count
    scores: dict[tuple[object, ...], tuple[WinScore, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """What a reading scores, by what its score depends on (`score_hand_ways`); filled on first sight.
    Keys and values are immutable (tuples, frozen Flags, Meld and WinScore), so nothing handed out can
    change what a later hand is given."""

    def feeder(self, flags: Flags, win_type: WinType) -> Seat | None:
        """Who alone pays 3T for a fed kong: 包饺子 on the replacement tile (`after_kong`), and with
        songgang="any" (送杠) any later self-draw of the konger (docs/rules.md §1 Settlement)."""
        fed = flags.kong_fed_by
        if fed is None or win_type != "self_draw" or not (flags.after_kong or self.songgang_any):
            return None
        return fed


def table_for(rule: RuleSet, options: Mapping[str, OptionValue]) -> Table:
    """The Table of a rule set and (validated) options; built once per distinct set of options."""
    return _table(rule.id, tuple(options.items()))


@lru_cache(maxsize=256)
def _table(rules: RuleSetId, items: tuple[tuple[str, OptionValue], ...]) -> Table:
    """(rule-set id, validated option items) -> its Table; validated options list their keys in one order."""
    options = dict(items)
    rule = ruleset(rules)
    values = dict(rule.patterns)
    factors: dict[str, int] = {}
    if options.get("extended"):
        values.update(rule.extended_patterns)
        factors.update(HAOQIDUI_FACTORS[str(options.get("haoqidui", "3/6"))])
    yinghua_factor = 1
    if rule.id == SUZHOU:
        values["qidui"], yinghua_factor = QIDUI_VALUES[str(options.get("qidui", "15x2"))]
        if "haohua_qidui" in values:  # 单豪 scores as a plain 七对
            values["haohua_qidui"] = values["qidui"]
        for option, pid in PATTERN_VALUE_OPTIONS.items():
            value = options.get(option)
            if value == "x2":
                values[pid], factors[pid] = 0, 2
            elif isinstance(value, str) and pid in values:
                values[pid] = int(value)
    ordered = {pid: values[pid] for pid in PATTERNS if pid in values}
    predicates = tuple(
        (pid, pattern.predicate)
        for pid, pattern in PATTERNS.items()
        if pid in ordered and pattern.predicate is not None
    )
    self_need, discard_need = THRESHOLDS[str(options.get("threshold", "3/4"))]
    shape_predicates = tuple((pid, predicate) for pid, predicate in predicates if not PATTERNS[pid].on_flags)
    _check_on_flags(rule.id, options)
    return Table(
        rule,
        MappingProxyType(options),
        MappingProxyType(ordered),
        predicates,
        shape_predicates,
        yinghua_factor,
        MappingProxyType(factors),
        options.get("songgang") == "any",
        self_need,
        discard_need,
        bool(options.get("threshold_counts_soft")),
        bool(options.get("self_draw_only")),
        any(PATTERNS[pid].supersedes for pid in ordered),
        not _FLOWER_PATTERNS.isdisjoint(ordered),
    )


def _check_on_flags(rules: RuleSetId, options: Mapping[str, OptionValue]) -> None:
    """Patterns marked `on_flags` are skipped for wins without flags: make sure they do not hold then."""
    for win_type in ("self_draw", "discard", "rob_kong"):
        for split in (Decomposition(0, ()), Decomposition(None, (), (0,))):
            ctx = WinContext(rules, options, win_type, False, (), (), split, NO_FLAGS)
            for pid, pattern in PATTERNS.items():
                if pattern.on_flags and pattern.predicate is not None and pattern.predicate(ctx):
                    raise AssertionError(f"pattern {pid} is marked on_flags but holds without flags")


DEFAULT_TABLES: Mapping[str, Table] = MappingProxyType(
    {rules: table_for(ruleset(rules), default_options(rules)) for rules in RULESETS}
)
"""Each rule set's Table with every option at its default."""


def _drop_superseded(found: list[str]) -> list[str]:
    dropped = {old for pid in found for old in PATTERNS[pid].supersedes}
    return [pid for pid in found if pid not in dropped] if dropped else found


def _score(
    table: Table, win_type: WinType, flags: Flags, found: list[str], counts: Mapping[str, int]
) -> WinScore:
    """Turn found patterns (in table order) and 花 item counts into T or f and the allowed verdict."""
    rule = table.rule
    values = table.values
    if table.supersedes:
        found = _drop_superseded(found)
    factors = table.factors
    items = [Item(pid, values[pid], factors.get(pid, 1)) for pid in found]
    if rule.id == SUZHOU:
        seven_pairs = not _SEVEN_PAIRS.isdisjoint(found)
        yinghua = table.yinghua_factor_qidui if seven_pairs else 1
        items += item_list(rule.items, counts, yinghua_factor=yinghua, base=True)
        baojiaozi = table.feeder(flags, win_type) is not None
        if baojiaozi:  # 包饺子 on the replacement tile; 送杠 on a later self-draw
            items.append(Item("baojiaozi" if flags.after_kong else "songgang", 0, 3))
        if win_type == "rob_kong":
            items.append(Item("qianggang", 0, 3))
        hua = 0
        factor = 1
        for item in items[: len(found)]:
            factor *= item.times
        for item in items:
            hua += item.hua
        need = table.discard_need if win_type == "discard" else table.self_need
        have = counts.get("yinghua", 0)
        if table.counts_soft:
            have += soft_hua(items)
        allowed = have >= need or baojiaozi or not rule.exempt.isdisjoint(found)
        return WinScore(
            allowed,
            None if allowed else "below_threshold",
            hua,
            tuple(items),
            tuple(found),
            factor,
            have,
            need,
        )
    items += item_list(rule.items, counts, base=False)
    if flags.shangpai:
        items.append(Item("shangpai", 0, 2))
    if win_type == "rob_kong":
        items.append(Item("qianggang", 0))
    hua = sum(item.hua for item in items)
    if table.self_draw_only and win_type != "self_draw":
        return WinScore(False, "self_draw_only", hua, tuple(items), tuple(found))
    return WinScore(True, None, hua, tuple(items), tuple(found))


def _better(a: WinScore, b: WinScore | None) -> bool:
    if b is None:
        return True
    return (a.allowed, a.hua * a.factor) > (b.allowed, b.hua * b.factor)


_NO_TILES: frozenset[int] = frozenset()
_FLOWER_TILES: Mapping[tuple[str, str], frozenset[int]] = {
    (rules, wind): frozenset(t for t in range(34) if not is_playing_tile(rules, t, wind))
    for rules in RULESETS
    for wind in "ESWN"
}
"""(rule set, round wind) -> the tiles that are flowers there: a 混子 never stands for one."""


def score_hand_ways(
    table: Table,
    hand: Hand,
    win_types: tuple[WinType, ...],
    *,
    flags: Flags,
    is_dealer: bool,
    wild: int | None,
    round_wind: Seat,
    field: str,
    splits: list[Reading] | None = None,
) -> list[WinScore]:
    """Score every reading of a validated winning hand (sorted concealed tiles, no fifth copy) and keep the
    best one for the winner, for each of several ways of winning the same tiles (several only without
    flags).

    Readings are walked in order; only the first reading of each set of facts (`scoring.decompose.Facts`)
    is looked at, since later ones score alike (and of a suit's readings only the first of each kind is
    read at all: `decompose.readings(distinct=True)`). Its WinContext and the patterns it shows serve every
    way of winning (the shape predicates never read the win type). Ties go to the first reading in order.
    `splits` are the hand's readings when the caller has them (/ting: `decompose.wait_readings`).
    """
    if splits is None:
        splits = readings(hand.concealed, wild=wild, seven_pairs=True, distinct=True)
    if not splits:
        raise ScoringError(
            f"{field}: not a complete hand (no four sets and a pair, no seven pairs)", code="not_complete"
        )
    if len(win_types) > 1 and flags is not NO_FLAGS:
        raise ValueError("score_hand_ways: several win types only for a win without flags")
    flowers_tiles = _FLOWER_TILES[table.rule.id, round_wind] if wild is not None else _NO_TILES
    best: list[WinScore | None] = [None] * len(win_types)
    read: set[Facts] = set()  # the facts already read
    for reading in splits:
        wilds, facts = reading[3], reading[4]
        if facts in read or (wilds and not flowers_tiles.isdisjoint(wilds)):
            continue  # scores as an earlier reading; or a 混子 standing for a flower (never allowed)
        read.add(facts)
        for i, score in enumerate(_reading_scores(table, hand, win_types, flags, is_dealer, reading)):
            old = best[i]
            if old is None or _better(score, old):
                best[i] = score
    out = [score for score in best if score is not None]
    if not out:
        raise ScoringError(
            f"{field}: not a complete hand with the wild tile standing for playing tiles only",
            code="not_complete",
        )
    if wild is not None and hand.winning_tile == wild:
        out = [
            refuse_wild_discard(score, win_type, wild, wild)
            for win_type, score in zip(win_types, out, strict=True)
        ]
    return out


def _reading_scores(
    table: Table, hand: Hand, win_types: tuple[WinType, ...], flags: Flags, is_dealer: bool, reading: Reading
) -> tuple[WinScore, ...]:
    """`_score_reading`, remembered in `table.scores` by what it depends on: the reading's facts and the
    hand's melds, flower count (花中三元: the flowers) and seat. (NO_FLAGS as None: a Flags hashes in
    Python code, None in C.)"""
    pair, sets, pairs, wilds, facts = reading
    key = (
        win_types,
        None if flags is NO_FLAGS else flags,
        is_dealer,
        facts,
        hand.melds,
        hand.flowers if table.reads_flowers else len(hand.flowers),
    )
    memo = table.scores
    scores = memo.get(key)
    if scores is None:
        split = Decomposition(pair, sets, pairs, wilds)
        scores = _score_reading(table, hand, win_types, flags, is_dealer, split)
        if len(memo) >= _SCORES_LIMIT:
            memo.clear()
        memo[key] = scores
    return scores


def refuse_wild_discard(
    score: WinScore, win_type: WinType, wild: int | None, winning_tile: int | None
) -> WinScore:
    """宿州: a discarded 混子 cannot be won on ("如果打混子，混子是不会冲的", docs/rules.md §2): a discard win
    whose winning tile is the wild tile is refused (reason wild_discard); any other score as it was."""
    if wild is None or winning_tile != wild or win_type != "discard":
        return score
    return WinScore(False, "wild_discard", score.hua, score.items, score.patterns)


_SCORES_LIMIT = 50_000  # per table; a few hundred keys in practice, so this only caps abuse


def _score_reading(
    table: Table,
    hand: Hand,
    win_types: tuple[WinType, ...],
    flags: Flags,
    is_dealer: bool,
    split: Decomposition,
) -> tuple[WinScore, ...]:
    """One reading's score for each way of winning: the patterns it shows and its 花 items."""
    rule = table.rule
    predicates = table.shape_predicates if flags is NO_FLAGS else table.predicates
    flowers = hand.flowers
    # meld_item_counts, written out for the hand without melds
    counts = meld_item_counts(rule.id, hand) if hand.melds else {"yinghua": len(flowers)} if flowers else {}
    ctx = WinContext(rule.id, table.options, win_types[0], is_dealer, hand.melds, flowers, split, flags)
    found = [pid for pid, predicate in predicates if predicate(ctx)]
    if ctx.wind_anke:  # concealed wind triplets of this reading: 风暗刻
        counts = dict(counts)
        counts["feng_anke"] = counts.get("feng_anke", 0) + ctx.wind_anke
    return tuple(_score(table, win_type, flags, found, counts) for win_type in win_types)


def flags_from_declared(rule: RuleSet, declared: Declared, flags: Flags) -> Flags:
    """Patterns that say how the win happened (杠开 花开 天胡 地胡 海底捞月) become flags."""
    p = set(declared.patterns)
    if p.isdisjoint(_FLAG_PATTERNS):  # nothing to add: the merged flags would equal these
        return flags
    merged = Flags(
        after_kong=flags.after_kong or "gangkai" in p,
        after_flower=flags.after_flower or "huakai" in p,
        kong_fed_by=flags.kong_fed_by,
        last_tile=flags.last_tile or "haidi" in p,
        heavenly=flags.heavenly or "tianhu" in p,
        earthly=flags.earthly or "dihu" in p,
        shangpai=flags.shangpai,
    )
    return flags if merged == flags else merged


_EXCLUSIVE = (
    ("qingyise", "hunyise", "one hand is not both 清一色 and 混一色"),
    *((pid, "duiduihu", "七对 is not 对对胡") for pid in _SEVEN_PAIRS_ORDER),
    *((pid, "da_menqing", "a 七对 never also scores 大门清") for pid in _SEVEN_PAIRS_ORDER),
    *((pid, "xiao_menqing", "a 七对 never also scores 小门清") for pid in _SEVEN_PAIRS_ORDER),
    *((pid, "dadiaoche", "大吊车 has four melds, 七对 none") for pid in _SEVEN_PAIRS_ORDER),
    *(
        (a, b, "a 七对 has one count of four-of-a-kinds")
        for i, a in enumerate(_SEVEN_PAIRS_ORDER[1:], 1)
        for b in _SEVEN_PAIRS_ORDER[i + 1 :]
    ),
    ("hua_dasanyuan", "hua_xiaosanyuan", "花中大三元 replaces 花中小三元"),
)
_MENQING = frozenset({"da_menqing", "xiao_menqing"})
_DRAGON_FLOWERS_NEEDED = {"hua_dasanyuan": 9, "hua_xiaosanyuan": 8}  # 3+3+3 and 3+3+2 硬花 at least


def _conflict(wanted: set[str], a: str, b: str, options: Mapping[str, OptionValue]) -> bool:
    """Whether declaring both patterns is a contradiction at this table (qidui_menqing lets a 七对 with no
    硬花 score 大门清, and with menqing_stack 小门清 beside it)."""
    if a not in wanted or b not in wanted:
        return False
    # qidui_menqing: the 大门清 checks below apply (no 硬花, and 小门清 only with menqing_stack)
    return not (b in _MENQING and options.get("qidui_menqing") and "da_menqing" in wanted)


def score_declared(
    table: Table, declared: Declared, *, win_type: WinType, flags: Flags, field: str
) -> WinScore:
    """Score the quick entry: 硬花 and 软花 counts and the declared patterns, checked for consistency."""
    rule, options, values = table.rule, table.options, table.values
    wanted = set(declared.patterns)
    for pid in declared.patterns:
        if pid not in values:
            name = PATTERNS[pid].zh
            if pid in rule.extended_patterns:
                raise ScoringError(
                    f"{field}.patterns: {name} needs option extended=true",
                    code="pattern_rules",
                    pattern=name,
                    option="extended",
                )
            raise ScoringError(
                f"{field}.patterns: {name} does not score in {rule.id}",
                code="pattern_rules",
                pattern=name,
                rules=rule.id,
            )
    if "haidi" in wanted and win_type != "self_draw":
        raise ScoringError(
            f"{field}.patterns: 海底捞月 is a self-draw of the last wall tile",
            code="pattern_conflict",
            pattern=PATTERNS["haidi"].zh,
            other="self_draw",
        )
    for a, b, why in _EXCLUSIVE if len(wanted) > 1 else ():
        if _conflict(wanted, a, b, options):
            raise ScoringError(
                f"{field}.patterns: {PATTERNS[a].zh} with {PATTERNS[b].zh}: {why}",
                code="pattern_conflict",
                pattern=PATTERNS[a].zh,
                other=PATTERNS[b].zh,
            )
    for pid, least in _DRAGON_FLOWERS_NEEDED.items():
        if pid in wanted and declared.hard_flowers < least:
            raise ScoringError(
                f"{field}.patterns: {PATTERNS[pid].zh} needs at least {least} 硬花",
                code="pattern_conflict",
                pattern=PATTERNS[pid].zh,
                other="hua",
            )
    if rule.id == SUZHOU and "da_menqing" in wanted:
        if declared.hard_flowers or declared.soft_flowers:
            raise ScoringError(
                f"{field}.patterns: 大门清 needs no 硬花 and no meld 花",
                code="pattern_conflict",
                pattern=PATTERNS["da_menqing"].zh,
                other="hua",
            )
        if "xiao_menqing" in wanted and not options.get("menqing_stack"):
            raise ScoringError(
                f"{field}.patterns: 大门清 and 小门清 stack only with option menqing_stack",
                code="pattern_rules",
                pattern=PATTERNS["xiao_menqing"].zh,
                option="menqing_stack",
            )
        if options.get("menqing_stack"):
            wanted.add("xiao_menqing")
    found = [pid for pid in wanted if pid not in _FLAG_PATTERNS]
    if flags is not NO_FLAGS:  # (NO_FLAGS sets none of these)
        found += [
            pid
            for pid, on in (
                ("gangkai", flags.after_kong),
                ("huakai", flags.after_flower and not flags.after_kong),
                ("tianhu", flags.heavenly),
                ("dihu", flags.earthly),
                ("haidi", flags.last_tile and win_type == "self_draw"),
            )
            if on
        ]
    counts: dict[str, int] = {}
    if declared.hard_flowers:
        counts["yinghua"] = declared.hard_flowers
    if declared.soft_flowers:
        counts["ruanhua"] = declared.soft_flowers
    return _score(
        table, win_type, flags, [pid for pid in table.values if pid in found] if found else [], counts
    )
