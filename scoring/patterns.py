"""The pattern registry: one small predicate per pattern with its names; values live in scoring.rules."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from scoring.rules import RuleSetId
from scoring.seats import Seat

if TYPE_CHECKING:
    from scoring.decompose import Decomposition
    from scoring.hand import Meld
    from scoring.rules import OptionValue

WinType = Literal["self_draw", "discard", "rob_kong"]

_WINDS = range(27, 31)


@dataclass(frozen=True, slots=True)
class Flags:
    """How a win happened (docs/rules.md §4 `flags`).

    `kong_fed_by` names the feeder of a 包饺子 together with `after_kong` (the replacement tile of the fed
    kong); on its own it is 送杠 under option songgang="any" and changes nothing otherwise
    (`scoring.score.Table.feeder` reads it).
    """

    after_kong: bool = False
    after_flower: bool = False
    kong_fed_by: Seat | None = None
    last_tile: bool = False
    heavenly: bool = False
    earthly: bool = False
    shangpai: bool = False


NO_FLAGS = Flags()
"""The flags of a win that says nothing about how it happened (shared: Flags are immutable)."""


class WinContext:
    """Everything a pattern predicate may look at: one decomposition of one winning hand.

    The shape facts predicates share (suits, wind triplets, chows …) are worked out once, here.
    """

    __slots__ = (
        "all_pungs",
        "chows",
        "decomposition",
        "exposed",
        "flags",
        "flowers",
        "honours",
        "is_dealer",
        "melds",
        "options",
        "rules",
        "seven_pairs",
        "suits",
        "win_type",
        "wind_anke",
        "wind_pair",
        "wind_triplets",
    )

    def __init__(
        self,
        rules: RuleSetId,
        options: Mapping[str, OptionValue],
        win_type: WinType,
        is_dealer: bool,
        melds: tuple[Meld, ...],
        flowers: tuple[str, ...],
        decomposition: Decomposition,
        flags: Flags,
    ) -> None:
        self.rules = rules
        self.options = options
        self.win_type = win_type
        self.is_dealer = is_dealer
        self.melds = melds
        self.flowers = flowers
        self.decomposition = decomposition
        self.flags = flags
        pair = decomposition.pair
        self.seven_pairs = pair is None
        # One pass over the sets, melds and pairs. A chow's suit is its lowest tile's, so a set's tile
        # stands for the whole set here.
        chows: list[int] = []
        suits: set[int] = set()
        winds = 0
        honours = False
        for kind, tile in decomposition.sets:
            if kind == "chow":
                chows.append(tile)
            elif 27 <= tile <= 30:
                winds += 1
            if tile < 27:
                suits.add(tile // 9)
            else:
                honours = True
        self.wind_anke = winds  # concealed wind triplets (风暗刻)
        exposed = False
        for meld in melds:
            tile = meld.tile
            if tile < 27:
                suits.add(tile // 9)
            else:
                honours = True
                if tile <= 30:
                    winds += 1
            if meld.exposed:
                exposed = True
        if pair is None:
            for tile in decomposition.pairs:
                if tile < 27:
                    suits.add(tile // 9)
                else:
                    honours = True
            self.wind_pair = False
        else:
            if pair < 27:
                suits.add(pair // 9)
            else:
                honours = True
            self.wind_pair = 27 <= pair <= 30
        self.chows = frozenset(chows)
        self.all_pungs = pair is not None and not chows
        self.wind_triplets = winds
        self.suits = frozenset(suits)
        self.honours = honours
        self.exposed = exposed


Predicate = Callable[[WinContext], bool]


@dataclass(frozen=True, slots=True)
class Pattern:
    """A named scoring term. Patterns carry a predicate; 花 items and settlement terms only names.

    >>> find_pattern("qys").zh
    '清一色'
    """

    id: str
    zh: str
    zh_hant: str
    en: str
    aliases: tuple[str, ...] = ()
    kind: Literal["pattern", "item", "settlement"] = "pattern"
    predicate: Predicate | None = None
    supersedes: tuple[str, ...] = ()
    on_flags: bool = False  # the predicate holds only if some flag is set (never for NO_FLAGS)

    def name(self, lang: str = "zh") -> str:
        """The name in a language: "zh"/"zh-Hans" (default), "zh-Hant"/"zh_hant", "en"."""
        key = lang.lower().replace("_", "-")
        if key == "en":
            return self.en
        if key in ("zh-hant", "zh-tw", "zh-hk"):
            return self.zh_hant
        return self.zh


def _da_menqing(ctx: WinContext) -> bool:
    # docs/rules.md §1: no meld (damenqing="pung": suited 碰 only), no 硬花, no wind triplet; a 七对 only
    # with qidui_menqing (and no 硬花).
    if ctx.flowers or ctx.wind_triplets:
        return False
    if ctx.seven_pairs:
        return bool(ctx.options.get("qidui_menqing"))
    if not ctx.melds:
        return True
    return ctx.options.get("damenqing") == "pung" and all(meld.kind == "pung" for meld in ctx.melds)


def _xiao_menqing(ctx: WinContext) -> bool:
    # No 碰 and no exposed kong (xiaomenqing_kong: exposed kongs allowed), and not 大门清 unless
    # menqing_stack; a 七对 only as a 大门清 under qidui_menqing and menqing_stack.
    if ctx.seven_pairs:
        return _da_menqing(ctx) and bool(ctx.options.get("menqing_stack"))
    if ctx.exposed and (
        not ctx.options.get("xiaomenqing_kong")
        or any(meld.exposed and meld.kind == "pung" for meld in ctx.melds)
    ):
        return False
    return not _da_menqing(ctx) or bool(ctx.options.get("menqing_stack"))


def _hunyise(ctx: WinContext) -> bool:
    return len(ctx.suits) == 1 and ctx.honours


def _qingyise(ctx: WinContext) -> bool:
    return len(ctx.suits) == 1 and not ctx.honours


def _huakai(ctx: WinContext) -> bool:
    # 杠开 and 花开 are one row of the table: a replacement win scores it once.
    return ctx.flags.after_flower and not ctx.flags.after_kong


def _dadiaoche(ctx: WinContext) -> bool:
    return len(ctx.melds) == 4 and not ctx.seven_pairs and not ctx.decomposition.sets


def _yitiaolong(ctx: WinContext) -> bool:
    chows = ctx.chows
    return len(chows) >= 3 and any({base, base + 3, base + 6} <= chows for base in (0, 9, 18))


def _fours(ctx: WinContext) -> int:
    """How many four-of-a-kinds a 七对 holds (two equal pairs each): 豪七对 goes by this count."""
    pairs = ctx.decomposition.pairs
    return len(pairs) - len(set(pairs)) if ctx.seven_pairs else 0


def _dragon_flowers(ctx: WinContext) -> list[int]:
    """How many of 中, 发 and 白 the winner's flower tiles hold, largest first (花中三元)."""
    flowers = ctx.flowers
    return sorted((flowers.count(name) for name in ("中", "发", "白")), reverse=True)


_PATTERN_LIST: tuple[Pattern, ...] = (
    Pattern(
        "da_menqing",
        "大门清",
        "大門清",
        "Fully concealed without flowers",
        ("dmq", "damenqing", "大门清", "big clean door"),
        predicate=_da_menqing,
    ),
    Pattern(
        "xiao_menqing",
        "小门清",
        "小門清",
        "Concealed hand",
        ("xmq", "xiaomenqing", "门清", "門清", "mq", "menqing", "small clean door"),
        predicate=_xiao_menqing,
    ),
    Pattern(
        "hunyise",
        "混一色",
        "混一色",
        "Half flush",
        ("hys", "hunyise", "混一色", "half flush", "混色"),
        predicate=_hunyise,
    ),
    Pattern(
        "qingyise",
        "清一色",
        "清一色",
        "Full flush",
        ("qys", "qingyise", "full flush", "清色"),
        predicate=_qingyise,
    ),
    Pattern(
        "duiduihu",
        "对对胡",
        "對對胡",
        "All pungs",
        (
            "ddh",
            "duiduihu",
            "对对和",
            "對對和",
            "碰碰胡",
            "碰碰和",
            "pph",
            "pengpenghu",
            "all pungs",
            "all triplets",
        ),
        predicate=lambda ctx: ctx.all_pungs,
    ),
    Pattern(
        "qidui",
        "七对",
        "七對",
        "Seven pairs",
        ("qd", "qidui", "七小对", "七小對", "seven pairs", "7 pairs", "7pairs"),
        predicate=lambda ctx: ctx.seven_pairs,
    ),
    Pattern(
        "gangkai",
        "杠开",
        "槓開",
        "Win after a kong",
        ("gk", "gangkai", "杠上开花", "槓上開花", "杠上花", "槓上花", "kong bloom", "after kong"),
        predicate=lambda ctx: ctx.flags.after_kong,
        on_flags=True,
    ),
    Pattern(
        "huakai",
        "花开",
        "花開",
        "Win after a flower",
        ("hk", "huakai", "花上开花", "after flower", "flower bloom"),
        predicate=_huakai,
        on_flags=True,
    ),
    Pattern(
        "dadiaoche",
        "大吊车",
        "大吊車",
        "Single wait on the last tile",
        ("ddc", "dadiaoche", "全求人", "全求", "big single wait", "single wait"),
        predicate=_dadiaoche,
    ),
    Pattern(
        "tianhu",
        "天胡",
        "天胡",
        "Heavenly hand",
        ("th", "tianhu", "天和", "heavenly", "heavenly hand"),
        predicate=lambda ctx: ctx.flags.heavenly,
        on_flags=True,
    ),
    Pattern(
        "dihu",
        "地胡",
        "地胡",
        "Earthly hand",
        ("dh", "dihu", "地和", "earthly", "earthly hand"),
        predicate=lambda ctx: ctx.flags.earthly,
        on_flags=True,
    ),
    Pattern(
        "haidi",
        "海底捞月",
        "海底撈月",
        "Last tile self-draw",
        ("hd", "hdly", "haidi", "haidilaoyue", "海底", "海底捞", "last tile", "under the sea"),
        predicate=lambda ctx: ctx.flags.last_tile and ctx.win_type == "self_draw",
        on_flags=True,
    ),
    # Extended list (option `extended`).
    Pattern(
        "yitiaolong",
        "一条龙",
        "一條龍",
        "Pure straight",
        ("ytl", "yitiaolong", "清龙", "清龍", "pure straight", "straight"),
        predicate=_yitiaolong,
    ),
    Pattern(
        "xiaosanfeng",
        "小三风",
        "小三風",
        "Little three winds",
        ("xsf", "xiaosanfeng", "little three winds"),
        predicate=lambda ctx: ctx.wind_triplets == 2 and ctx.wind_pair,
    ),
    Pattern(
        "sanfengke",
        "三风刻",
        "三風刻",
        "Three wind pungs",
        ("sfk", "sanfengke", "三风", "三風", "three wind pungs", "three winds"),
        predicate=lambda ctx: ctx.wind_triplets >= 3,
    ),
    Pattern(
        "xiaosixi",
        "小四喜",
        "小四喜",
        "Little four winds",
        ("xsx", "xiaosixi", "little four winds"),
        predicate=lambda ctx: ctx.wind_triplets == 3 and ctx.wind_pair,
        supersedes=("sanfengke", "xiaosanfeng"),
    ),
    Pattern(
        "dasixi",
        "大四喜",
        "大四喜",
        "Big four winds",
        ("dsx", "dasixi", "big four winds"),
        predicate=lambda ctx: ctx.wind_triplets == 4,
        # "不算碰碰和": a 大四喜 scores no 对对胡
        supersedes=("sanfengke", "xiaosixi", "xiaosanfeng", "duiduihu"),
    ),
    Pattern(
        "haohua_qidui",
        "豪七对",
        "豪七對",
        "Luxury seven pairs",
        (
            "hqd",
            "hhqd",
            "haoqidui",
            "haohuaqidui",
            "豪华七对",
            "豪華七對",
            "豪七",
            "单豪七对",
            "單豪七對",
            "龙七对",
            "龍七對",
            "luxury seven pairs",
            "luxury pairs",
        ),
        predicate=lambda ctx: _fours(ctx) == 1,
        supersedes=("qidui",),
    ),
    Pattern(
        "shuanghao_qidui",
        "双豪七对",
        "雙豪七對",
        "Double luxury seven pairs",
        ("shqd", "shuanghaoqidui", "双豪", "雙豪", "双豪华七对", "雙豪華七對", "double luxury seven pairs"),
        predicate=lambda ctx: _fours(ctx) == 2,
        supersedes=("qidui",),
    ),
    Pattern(
        "sanhao_qidui",
        "三豪七对",
        "三豪七對",
        "Triple luxury seven pairs",
        ("sanhqd", "sanhaoqidui", "三豪", "三豪华七对", "三豪華七對", "triple luxury seven pairs"),
        predicate=lambda ctx: _fours(ctx) == 3,
        supersedes=("qidui",),
    ),
    Pattern(
        "hua_dasanyuan",
        "花中大三元",
        "花中大三元",
        "Big three dragon flowers",
        ("hzdsy", "huazhongdasanyuan", "大三元", "big three dragons"),
        predicate=lambda ctx: _dragon_flowers(ctx)[2] >= 3,
    ),
    Pattern(
        "hua_xiaosanyuan",
        "花中小三元",
        "花中小三元",
        "Little three dragon flowers",
        ("hzxsy", "huazhongxiaosanyuan", "小三元", "little three dragons"),
        predicate=lambda ctx: _dragon_flowers(ctx)[1] >= 3 and _dragon_flowers(ctx)[2] == 2,
    ),
)

_TERM_LIST: tuple[Pattern, ...] = (
    Pattern("di", "底", "底", "Base", ("成牌", "base"), kind="item"),
    Pattern("yinghua", "硬花", "硬花", "Flowers", ("花", "flowers", "hard flowers", "hua"), kind="item"),
    Pattern("ruanhua", "软花", "軟花", "Meld flowers", ("soft flowers", "soft"), kind="item"),
    Pattern("minggang", "明杠", "明槓", "Exposed kong", ("直杠", "补杠", "mg", "exposed kong"), kind="item"),
    Pattern("angang", "暗杠", "暗槓", "Concealed kong", ("ag", "concealed kong"), kind="item"),
    Pattern("fengpeng", "风碰", "風碰", "Wind pung", ("fp", "wind pung"), kind="item"),
    Pattern("feng_anke", "风暗刻", "風暗刻", "Concealed wind pung", ("concealed wind pung",), kind="item"),
    Pattern("feng_minggang", "风明杠", "風明槓", "Exposed wind kong", ("exposed wind kong",), kind="item"),
    Pattern("feng_angang", "风暗杠", "風暗槓", "Concealed wind kong", ("concealed wind kong",), kind="item"),
    Pattern("baojiaozi", "包饺子", "包餃子", "Fed kong", ("bjz", "baojiaozi", "fed kong"), kind="settlement"),
    Pattern(
        "songgang",
        "送杠",
        "送槓",
        "Fed kong, later self-draw",
        ("sg", "songgang", "fed kong self-draw"),
        kind="settlement",
    ),
    Pattern(
        "qianggang",
        "抢杠",
        "搶槓",
        "Robbing the kong",
        ("qg", "qianggang", "抢杠胡", "搶槓胡", "rob kong", "robbing the kong"),
        kind="settlement",
    ),
    Pattern("baozi", "豹子", "豹子", "Dice double", ("bz", "baozi", "dice double"), kind="settlement"),
    Pattern("diling", "滴零", "滴零", "Diling", ("dl", "diling", "follow-up double"), kind="settlement"),
    Pattern(
        "shangpai", "上牌", "上牌", "Declared wait", ("sp", "shangpai", "declared wait"), kind="settlement"
    ),
)

PATTERNS: Mapping[str, Pattern] = {pattern.id: pattern for pattern in _PATTERN_LIST}
"""Every pattern by id, in table order (both rule sets and the extended list)."""

TERMS: Mapping[str, Pattern] = {term.id: term for term in _PATTERN_LIST + _TERM_LIST}
"""Patterns, 花 items and settlement terms by id: the names a preview or breakdown shows."""


def _key(word: str) -> str:
    return re.sub(r"[\s_\-·.]+", "", word.strip().lower())


def _index(terms: tuple[Pattern, ...]) -> dict[str, Pattern]:
    index: dict[str, Pattern] = {}
    for term in terms:
        for word in (term.id, term.zh, term.zh_hant, term.en, *term.aliases):
            index.setdefault(_key(word), term)
    return index


_PATTERN_INDEX = _index(_PATTERN_LIST)
_TERM_INDEX = _index(_PATTERN_LIST + _TERM_LIST)


def find_pattern(word: str) -> Pattern | None:
    """The pattern a word names: id, Chinese (either script), pinyin, initials or English; else None.

    >>> find_pattern("對對胡").id, find_pattern("Seven Pairs").id, find_pattern("xyz")
    ('duiduihu', 'qidui', None)
    """
    return _PATTERN_INDEX.get(_key(word))


def find_term(word: str) -> Pattern | None:
    """Like find_pattern, but also 花 items (硬花, 暗杠 …) and settlement terms (包饺子, 抢杠, 豹子 …).

    >>> find_term("包饺子").id
    'baojiaozi'
    """
    return _TERM_INDEX.get(_key(word))


def term_name(term_id: str, lang: str = "zh") -> str:
    """The display name of a pattern, item or settlement id."""
    return TERMS[term_id].name(lang)
