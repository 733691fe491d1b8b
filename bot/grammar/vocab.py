"""The words of the recording grammar (ways to win, flags, wild, 花 counts): 简体, 繁體, pinyin, English."""

from __future__ import annotations

import re
from typing import Final

from bot.grammar.lexer import NUMBER_RE, parse_count
from scoring import PATTERNS
from scoring.entry import FLAG_PATTERN as _FLAG_PATTERN
from scoring.entry import PATTERN_FLAG as _PATTERN_FLAG
from scoring.tiles import ZH_TILE_RANKS

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
        "冲|沖|衝|铳|銃|点炮|點炮|放冲|放沖|放衝|放铳|放銃|放炮|炮|点冲|點沖|"
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
# A discard win as the tables say it: 出冲 (誰出沖: who dealt in), 冲胡 and 吃冲 (a win on a discard), 平胡
# (宿州's discard win). Read, but never offered as a "did you mean" (吃饭 is no typo of 吃冲).
TABLE_DISCARD_WORDS: Final = _set("出冲|出沖|出衝|出铳|出銃|冲胡|沖胡|衝胡|吃冲|吃沖|吃衝|平胡")
HOW_WORDS.update(dict.fromkeys(TABLE_DISCARD_WORDS, DISCARD))
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
_COUNT_AFTER = re.compile(rf"^({NUMBER_RE})({_KIND_RE})$")
_COUNT_BEFORE = re.compile(rf"^({_KIND_RE})({NUMBER_RE})$")
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
    rf"\d[mpsz]|[\[\]()+]|[{ZH_TILE_RANKS}1-9][万萬筒饼餅条條索]|[\U0001F000-\U0001F02B]", re.IGNORECASE
)


def looks_like_tiles(word: str) -> bool:
    """True for a word of tile shorthand: 123m, [555p], (7777s), +9p, 一万, 🀇."""
    return bool(_TILE_TEXT.search(word))


def is_vocabulary(word: str) -> bool:
    """True for a reserved word of the grammar (never tried as a player name)."""
    folded = word.casefold()
    return folded in HOW_WORDS or folded in WILD_WORDS or folded in FLAG_WORDS


def _known_words() -> tuple[str, ...]:
    """The words a typo is measured against: ways to win, flags, the wild and every pattern's names, the
    preferred spellings first (自摸 before 自摸胡)."""
    names = [n for p in PATTERNS.values() for n in (p.zh, p.zh_hant, p.en.casefold(), *p.aliases)]
    words = [*HOW_WORDS, *FLAG_WORDS, *WILD_WORDS, *(n.casefold() for n in names)]
    return tuple(
        dict.fromkeys(w for w in words if len(w) >= 2 and " " not in w and w not in TABLE_DISCARD_WORDS)
    )


def _one_edit(a: str, b: str) -> bool:
    """True when b is a with one character changed, added, dropped, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


_KNOWN_WORDS: Final = _known_words()


def nearest_word(word: str) -> str | None:
    """The grammar's word one edit away from a typed word it does not know (自模 → 自摸, qingyse →
    qingyise), else None. Words under two characters (four Latin letters) are too short to guess.

    >>> nearest_word("自模"), nearest_word("qingyse"), nearest_word("茶水")
    ('自摸', 'qingyise', None)
    """
    typed = word.casefold()
    shortest = 4 if typed.isascii() else 2  # qys is an abbreviation, not a typo of hys
    if len(typed) < shortest:
        return None
    for known in _KNOWN_WORDS:
        if (
            len(known) >= shortest
            and known.isascii() == typed.isascii()
            and (len(typed) > 2 or known[0] == typed[0])  # 南风 is no 三风: two characters, one kept
            and _one_edit(typed, known)
        ):
            return known
    return None
