"""The two rule sets as data: 花 values, pattern values, threshold exemptions and table options."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal, TypeGuard, get_args

from scoring.errors import ScoringError
from scoring.tiles import ALL_TILES, DRAGONS, SEAT_WIND, tile_name

RuleSetId = Literal["suzhou", "suzhou-anhui"]
"""The id of a rule set as stored and sent (not its data: that is `RuleSet`); names users type go through
`resolve_rules`."""

SUZHOU: Final[RuleSetId] = "suzhou"
SUZHOU_ANHUI: Final[RuleSetId] = "suzhou-anhui"
RULESETS: Final[tuple[RuleSetId, ...]] = (SUZHOU, SUZHOU_ANHUI)

OptionValue = bool | str


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One table option of a rule set: its id, the allowed values and the default (what it means, in words:
    the bot's catalogs, `option.<id>.name` and `option.<id>.<value>`; in brief beside each row here).

    >>> option_specs("suzhou")[0].id
    'menqing_stack'
    """

    id: str
    choices: tuple[OptionValue, ...]
    default: OptionValue


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The data of one regional rule set; the scorer reads values from here, never from `if` chains."""

    id: RuleSetId
    zh: str
    zh_hant: str
    en: str
    items: Mapping[str, int]
    patterns: Mapping[str, int]
    extended_patterns: Mapping[str, int]
    exempt: frozenset[str]
    options: tuple[OptionSpec, ...]
    bao: bool
    """包饺子: a 杠开 on a kong someone fed is paid by the feeder alone (苏州); else a plain self-draw."""
    wild: bool
    """A table may name a 混子, a wild tile (宿州)."""
    dice_doubling: bool
    """豹子 (a double on the dice) and 滴零 double the coming hand's settlement (苏州)."""
    shangpai: bool
    """上牌, a flag said of a win, doubles every payer's amount (宿州)."""


_SUZHOU_OPTIONS = (
    OptionSpec("menqing_stack", (False, True), False),  # 大门清同时计小门清（10+5）
    OptionSpec("qidui", ("15x2", "10"), "15x2"),  # 七对：15 花且硬花翻倍（15x2），或 10 花、硬花不翻倍（10）
    OptionSpec("dadiaoche", ("5", "x2"), "5"),  # 大吊车：加 5 花（5），或不加花、结算翻倍（x2）
    OptionSpec("threshold", ("3/4", "2/3"), "3/4"),  # 起胡硬花数：自摸/放冲
    OptionSpec("threshold_counts_soft", (False, True), False),  # 起胡门槛也计杠、风刻等软花
    OptionSpec("doubling_stack", (False, True), False),  # 豹子与滴零同局时翻两次（×4）
    OptionSpec("dealer_after_draw", ("next", "stay"), "next"),  # 荒庄后下家坐庄（next）或原庄连庄（stay）
    OptionSpec(
        "extended", (False, True), False
    ),  # 启用扩展番型：一条龙、小三风、三风刻、小四喜、大四喜、豪七对、花中三元
    # The readings and values the sources offer (docs/rules.md §1); defaults keep the first reading.
    OptionSpec(
        "damenqing", ("strict", "pung"), "strict"
    ),  # 大门清：不能有任何碰杠（strict），或可以有数牌的碰（pung）
    OptionSpec("xiaomenqing_kong", (False, True), False),  # 小门清也可以有明杠、补杠（仍不能碰）
    OptionSpec("qidui_menqing", (False, True), False),  # 没有硬花的七对另计大门清
    # 包饺子只算杠后补的那张（replacement），或杠后任何自摸都由放杠者包（any，送杠）
    OptionSpec("songgang", ("replacement", "any"), "replacement"),
    OptionSpec("duiduihu", ("5", "8"), "5"),  # 对对胡的花数
    OptionSpec("hunyise", ("5", "6", "8"), "5"),  # 混一色的花数
    OptionSpec("qingyise", ("10", "16", "x2"), "10"),  # 清一色：10 花、16 花，或不加花、结算翻倍（x2）
    OptionSpec("sanfengke", ("12", "16"), "12"),  # 三风刻的花数（扩展番型）
    OptionSpec("haoqidui", ("3/6", "4/8"), "3/6"),  # 双豪七对、三豪七对的倍数（扩展番型）
)

PATTERN_VALUE_OPTIONS: Final[Mapping[str, str]] = {
    "duiduihu": "duiduihu",
    "hunyise": "hunyise",
    "qingyise": "qingyise",
    "sanfengke": "sanfengke",
    "dadiaoche": "dadiaoche",
}
"""Options that set one pattern's value (option id -> pattern id): a number is its 花; "x2": no 花, T ×2."""
QIDUI_VALUES: Final[Mapping[str, tuple[int, int]]] = {"15x2": (15, 2), "10": (10, 1)}
"""Option `qidui` -> (七对's 花, how many times each 硬花 counts in a 七对)."""
HAOQIDUI_FACTORS: Final[Mapping[str, Mapping[str, int]]] = {
    "3/6": {"shuanghao_qidui": 3, "sanhao_qidui": 6},
    "4/8": {"shuanghao_qidui": 4, "sanhao_qidui": 8},
}
"""Option `haoqidui` -> the factor on T of 双豪七对 and 三豪七对 (extended)."""

_ANHUI_OPTIONS = (
    OptionSpec(
        "multi_win", (True, False), True
    ),  # 一炮多响：放炮者分别赔付每位胡家（true），或只算放炮者下家起第一位（false）
    OptionSpec("self_draw_only", (False, True), False),  # 只许自摸，不许放冲胡
)

_RULESETS: Final[dict[RuleSetId, RuleSet]] = {
    SUZHOU: RuleSet(
        id=SUZHOU,
        zh="苏州麻将",
        zh_hant="蘇州麻將",
        en="Suzhou (Jiangsu)",
        # ruanhua (软花) is the quick entry's count of meld 花, one 花 each.
        items={
            "di": 5,
            "yinghua": 1,
            "minggang": 1,
            "angang": 2,
            "fengpeng": 1,
            "feng_anke": 2,
            "feng_minggang": 3,
            "feng_angang": 4,
            "ruanhua": 1,
        },
        patterns={
            "da_menqing": 10,
            "xiao_menqing": 5,
            "hunyise": 5,
            "qingyise": 10,
            "duiduihu": 5,
            "qidui": 15,
            "gangkai": 5,
            "huakai": 5,
            "dadiaoche": 5,
            "tianhu": 50,
            "dihu": 50,
            "haidi": 5,
        },
        # 豪七对 with one four-of-a-kind scores as 七对 (its value follows option qidui); 双豪/三豪 replace
        # 七对's value and multiply T by the `haoqidui` factors.
        extended_patterns={
            "yitiaolong": 10,
            "xiaosanfeng": 6,
            "sanfengke": 12,
            "xiaosixi": 48,
            "dasixi": 64,
            "haohua_qidui": 15,
            "shuanghao_qidui": 30,
            "sanhao_qidui": 50,
            "hua_dasanyuan": 24,
            "hua_xiaosanyuan": 16,
        },
        bao=True,
        wild=False,
        dice_doubling=True,
        shangpai=False,
        exempt=frozenset(
            {
                "xiao_menqing",
                "da_menqing",
                "duiduihu",
                "hunyise",
                "qidui",
                "qingyise",
                "gangkai",
                "huakai",
                "baojiaozi",
                "dadiaoche",
                "tianhu",
                "dihu",
                "haohua_qidui",
                "shuanghao_qidui",
                "sanhao_qidui",
            }
        ),
        options=_SUZHOU_OPTIONS,
    ),
    SUZHOU_ANHUI: RuleSet(
        id=SUZHOU_ANHUI,
        zh="宿州麻将",
        zh_hant="宿州麻將",
        en="Suzhou (Anhui)",
        # f: each flower tile 1, 风碰 1, 明杠 2, 暗杠 4, 风暗刻 1 (ruanhua: a declared count of meld 花).
        items={"yinghua": 1, "fengpeng": 1, "minggang": 2, "angang": 4, "feng_anke": 1, "ruanhua": 1},
        # 七对, 大吊车 and 杠开 are wins that add nothing; 杠开 settles as a self-draw.
        patterns={"qidui": 0, "dadiaoche": 0, "gangkai": 0, "huakai": 0},
        extended_patterns={},
        exempt=frozenset(),
        options=_ANHUI_OPTIONS,
        bao=False,
        wild=True,
        dice_doubling=False,
        shangpai=True,
    ),
}

_RULESET_NAMES: Final[dict[str, RuleSetId]] = {
    "suzhou": SUZHOU,
    "苏州": SUZHOU,
    "蘇州": SUZHOU,
    "苏州麻将": SUZHOU,
    "蘇州麻將": SUZHOU,
    "jiangsu": SUZHOU,
    "suzhou-jiangsu": SUZHOU,
    "suzhou-anhui": SUZHOU_ANHUI,
    "suzhou_anhui": SUZHOU_ANHUI,
    "anhui": SUZHOU_ANHUI,
    "宿州": SUZHOU_ANHUI,
    "宿州麻将": SUZHOU_ANHUI,
    "宿州麻將": SUZHOU_ANHUI,
    "suzhouanhui": SUZHOU_ANHUI,
}


def resolve_rules(name: object) -> RuleSetId:
    """The rule-set id for a name users type (ids, 苏州 蘇州 宿州).

    >>> resolve_rules("宿州"), resolve_rules("蘇州")
    ('suzhou-anhui', 'suzhou')
    """
    if not isinstance(name, str):
        raise ScoringError(f"rules: expected a rule-set name, got {name!r}")
    if is_rule_set_id(name):
        return name
    key = name.strip().lower()
    if key in _RULESET_NAMES:
        return _RULESET_NAMES[key]
    raise ScoringError(f"rules: unknown rule set {name!r} (use suzhou/苏州 or suzhou-anhui/宿州)")


def ruleset(name: object) -> RuleSet:
    """The RuleSet data of a rule set, by any accepted name."""
    return _RULESETS[resolve_rules(name)]


def option_specs(rules: RuleSetId) -> list[OptionSpec]:
    """The options of a rule set with their choices and defaults (for the /rules command).

    >>> [o.id for o in option_specs("suzhou-anhui")]
    ['multi_win', 'self_draw_only']
    """
    return list(ruleset(rules).options)


def default_options(rules: RuleSetId) -> dict[str, OptionValue]:
    """Every option of a rule set at its default."""
    return {spec.id: spec.default for spec in ruleset(rules).options}


WayToWin = Literal["self_draw", "discard", "rob_kong", "bao", "songgang"]
WAYS_TO_WIN: Final[tuple[WayToWin, ...]] = get_args(WayToWin)
"""Every way of winning a player can say, in the order the flow and the page offer them: 自摸, 冲, 抢杠, 包
(杠开 on a fed kong, the feeder pays), 送杠 (a fed kong's later self-draw, the feeder pays)."""


def ways_to_win(rules: RuleSetId, options: Mapping[str, object]) -> tuple[WayToWin, ...]:
    """The ways of winning a table offers: 包 where the rule set has 包饺子 (at 宿州 a 杠开 is a plain
    self-draw), 送杠 where the table's `songgang` option is `any`.

    >>> ways_to_win("suzhou-anhui", {}), ways_to_win("suzhou", {"songgang": "any"})[3:]
    (('self_draw', 'discard', 'rob_kong'), ('bao', 'songgang'))
    """
    bao = ruleset(rules).bao
    return tuple(
        way
        for way in WAYS_TO_WIN
        if (way != "bao" or bao) and (way != "songgang" or (bao and options.get("songgang") == "any"))
    )


def is_playing_tile(rules: RuleSetId, tile: int, round_wind: str) -> bool:
    """Whether a tile is a playing tile (not a flower) in a rule set and round: the dragons never are;
    at 宿州 the round's wind (令风) is a flower too."""
    if tile in DRAGONS:
        return False
    return not (rules == SUZHOU_ANHUI and tile == SEAT_WIND[round_wind])


def wild_choices(rules: RuleSetId, round_wind: str) -> tuple[str, ...]:
    """The tiles a table may name as its 混子: none where the rule set has no wild tile; at 宿州 every
    playing tile of the round, in tile order.

    >>> anhui = wild_choices("suzhou-anhui", "E")
    >>> len(anhui), "1z" in anhui, "2z" in anhui, wild_choices("suzhou", "E")
    (30, False, True, ())
    """
    rule = ruleset(rules)
    if not rule.wild:
        return ()
    return tuple(tile_name(tile) for tile in ALL_TILES if is_playing_tile(rule.id, tile, round_wind))


def has_shangpai(rules: RuleSetId) -> bool:
    """Whether a rule set plays 上牌, the flag that doubles a win's settlement (宿州 yes, 苏州 no)."""
    return ruleset(rules).shangpai


def dice_doubling(rules: RuleSetId) -> bool:
    """Whether 豹子 and 滴零 double a hand's settlement in a rule set (苏州 yes, 宿州 no)."""
    return ruleset(rules).dice_doubling


_TRUE = {"true", "yes", "on", "1", "是", "开"}
_FALSE = {"false", "no", "off", "0", "否", "关"}


def _normalize(spec: OptionSpec, value: object) -> OptionValue:
    if isinstance(spec.default, bool):
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
    else:
        text = (
            str(value).strip().lower()
            if isinstance(value, str | int) and not isinstance(value, bool)
            else None
        )
        if text is not None:
            text = text.replace("×", "x").replace("*", "x")
            for choice in spec.choices:
                if text == choice:
                    return choice
    shown = ", ".join(str(c).lower() for c in spec.choices)
    raise ScoringError(
        f"options.{spec.id}: invalid value {value!r} (choices: {shown})",
        code="bad_option",
        option=spec.id,
        value=str(value),
        choices=shown,
    )


def validate_options(rules: RuleSetId, options: object) -> dict[str, OptionValue]:
    """Options normalized and completed with defaults; ScoringError on an unknown option or value.

    >>> validate_options("suzhou", {"threshold": "2/3", "menqing_stack": "on"})["menqing_stack"]
    True
    """
    if options is None or (isinstance(options, Mapping) and not options):
        return default_options(rules)
    if not isinstance(options, Mapping):
        raise ScoringError(f"options: expected an object, got {options!r}")
    specs = {spec.id: spec for spec in ruleset(rules).options}
    result = default_options(rules)
    for key, value in options.items():
        spec = specs.get(key) if isinstance(key, str) else None
        if spec is None:
            known = ", ".join(specs)
            raise ScoringError(
                f"options: unknown option {key!r} for {resolve_rules(rules)} (known: {known})",
                code="unknown_option",
                option=str(key),
                known=known,
            )
        result[spec.id] = _normalize(spec, value)
    return result


def is_rule_set_id(value: object) -> TypeGuard[RuleSetId]:
    """Whether `value` is a rule-set id exactly (as stored), not a name users type."""
    return value in RULESETS


def as_rule_set_id(value: str) -> RuleSetId:
    """A stored rule-set id as a `RuleSetId`; ValueError for anything else (the ledger wrote only ids).

    >>> as_rule_set_id("suzhou-anhui"), is_rule_set_id("宿州")
    ('suzhou-anhui', False)
    >>> as_rule_set_id("宿州")
    Traceback (most recent call last):
    ValueError: not a rule-set id: '宿州'
    """
    if not is_rule_set_id(value):
        raise ValueError(f"not a rule-set id: {value!r}")
    return value
