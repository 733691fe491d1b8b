"""The words of the recording grammar (ways to win, flags, wild, 花 counts): 简体, 繁體, pinyin, English."""

from __future__ import annotations

import re
from typing import Final

from bot.grammar.lexer import parse_count
from scoring.entry import FLAG_PATTERN as _FLAG_PATTERN
from scoring.entry import PATTERN_FLAG as _PATTERN_FLAG

SELF_DRAW: Final = "self_draw"
DISCARD: Final = "discard"
ROB_KONG: Final = "rob_kong"
BAO: Final = "bao"  # 包饺子: a self-draw on a kong's replacement tile, the kong fed by one player's discard
SONGGANG: Final = "songgang"  # 送杠: a later self-draw of a kong fed by one player (option songgang "any")


def _words(kind: str, words: str) -> dict[str, str]:
    """A look-up table of "|"-separated words (case-folded) that all mean `kind`."""
    return {w.casefold(): kind for w in words.split("|")}


def _set(words: str) -> frozenset[str]:
    return frozenset(w.casefold() for w in words.split("|"))


HOW_WORDS: Final[dict[str, str]] = {
    **_words(SELF_DRAW, "自摸|自摸胡|自摸和|zimo|tsumo|zm|self|selfdraw|self-draw|self_draw|self draw"),
    **_words(
        DISCARD,
        "冲|沖|衝|铳|銃|点炮|點炮|放冲|放沖|放铳|放銃|放炮|炮|点冲|點沖|"
        "pao|chong|dianpao|fangchong|fangpao|"
        "dp|ron|discard",
    ),
    **_words(
        ROB_KONG,
        "抢杠|搶槓|抢槓|搶杠|抢杠胡|搶槓胡|抢|搶|qianggang|qg|rob|"
        "robkong|rob_kong|rob-kong|chankan|"
        "rob kong|robbing the kong|"
        "rob the kong",
    ),
    **_words(BAO, "包|包饺子|包餃子|bao|baojiaozi|bjz"),
    **_words(SONGGANG, "送杠|送槓|songgang"),
}
# Ways that name a second player: the discarder, the robbed player, the feeder of the kong.
NEEDS_OTHER: Final = frozenset({DISCARD, ROB_KONG, BAO, SONGGANG})

WILD_WORDS: Final = _set("混子|混|混儿|混兒|癞子|赖子|癩子|賴子|wild|hunzi|hun|laizi|joker")
_WILD_GLUED: Final = re.compile(r"^(混子|混儿|混兒|混|癞子|赖子|癩子|賴子|wild|hunzi|laizi)[=:]?(.+)$")

# The flags of docs/rules.md §4, and the pattern each one scores in the declared form (scoring.entry's).
FLAG_PATTERN: Final[dict[str, str | None]] = {str(k): v for k, v in _FLAG_PATTERN.items()}
PATTERN_FLAG: Final[dict[str, str]] = {k: str(v) for k, v in _PATTERN_FLAG.items()}

FLAG_WORDS: Final[dict[str, str]] = {
    **_words(
        "after_kong",
        "杠开|槓開|杠開|槓开|杠上开花|槓上開花|杠上花|槓上花|gangkai|"
        "gk|afterkong|after_kong|rinshan|"
        "after kong",
    ),
    **_words("after_flower", "花开|花開|花上开花|huakai|hk|afterflower|after_flower|after flower"),
    **_words(
        "last_tile",
        "海底|海底捞月|海底撈月|海底摸月|haidi|hd|haidilaoyue|lasttile|last_tile|haitei|last tile",
    ),
    **_words("heavenly", "天胡|天和|tianhu|th|heavenly|tenhou|heavenly hand"),
    **_words("earthly", "地胡|地和|dihu|earthly|chiihou|earthly hand"),
    **_words("shangpai", "上牌|shangpai|declared wait"),
}

# Words that say nothing the entry needs: 南胡了 自摸, "S wins by tsumo", "E ron on N".
FILLER_WORDS: Final = _set("胡|和|胡了|和了|了|被|hu|win|wins|won|by|on|from")

# Table state that /roll and the ledger keep; typed in /hu it is a mistake worth naming.
TABLE_STATE_WORDS: Final = _set("豹子|baozi|滴零|diling|连庄|連莊|lianzhuang")

COUNT_KINDS: Final[dict[str, str]] = {
    **_words("hard", "花|h|hua|个花|個花|朵花|朵|硬花|硬|hard|yinghua|yh|flowers|flower"),
    **_words("soft", "软花|軟花|软|軟|soft|ruanhua|rh"),
}
COUNT_WORDS_LONGEST_FIRST: Final = tuple(sorted(COUNT_KINDS, key=len, reverse=True))
_KIND_RE = "|".join(re.escape(k) for k in COUNT_WORDS_LONGEST_FIRST)
_NUM_RE = r"\d+|[零〇一二两兩三四五六七八九十拾百佰]+"
_COUNT_AFTER = re.compile(rf"^({_NUM_RE})({_KIND_RE})$")
_COUNT_BEFORE = re.compile(rf"^({_KIND_RE})({_NUM_RE})$")
# Words that look like a 花 count but are not a valid one: 5.5花, -3花, hua, 花x.
_COUNT_LIKE = re.compile(r"^([\d.+\-]+(花|h|hua)|(花|hua|h)[\d.+\-]+|.*花|hua.*|[\d.+\-]+)$")
MAX_COUNT: Final = 99


def parse_hua(word: str) -> tuple[str, int] | None:
    """A 花 count word → ("hard" | "soft", n), or None when the word is not one.

    >>> [parse_hua(w) for w in ("5花", "5h", "hua5", "十二花", "3软花", "软3", "7", "清一色")]
    [('hard', 5), ('hard', 5), ('hard', 5), ('hard', 12), ('soft', 3), ('soft', 3), ('hard', 7), None]
    """
    word = word.casefold()
    if word.isascii() and word.isdigit():
        return ("hard", int(word)) if int(word) <= MAX_COUNT else None
    for regex, num_group, kind_group in ((_COUNT_AFTER, 1, 2), (_COUNT_BEFORE, 2, 1)):
        match = regex.match(word)
        if match:
            count = parse_count(match.group(num_group))
            if count is None or count > MAX_COUNT:
                return None
            return COUNT_KINDS[match.group(kind_group)], count
    return None


def looks_like_hua(word: str) -> bool:
    """True for a word meant as a 花 count that is not a valid one (reported as bad_hua)."""
    return bool(_COUNT_LIKE.match(word.casefold()))


def split_wild(word: str) -> str | None:
    """The tile part of a glued wild word (混子5p → 5p), else None."""
    match = _WILD_GLUED.match(word.casefold())
    return match.group(2) if match else None


_TILE_TEXT = re.compile(
    r"\d[mpsz]|[\[\]()+]|[一二三四五六七八九1-9][万萬筒饼餅条條索]|[\U0001F000-\U0001F02B]", re.IGNORECASE
)


def looks_like_tiles(word: str) -> bool:
    """True for a word of tile shorthand: 123m, [555p], (7777s), +9p, 一万, 🀇."""
    return bool(_TILE_TEXT.search(word))


def is_vocabulary(word: str) -> bool:
    """True for a reserved word of the grammar (never tried as a player name)."""
    folded = word.casefold()
    return folded in HOW_WORDS or folded in WILD_WORDS or folded in FLAG_WORDS
