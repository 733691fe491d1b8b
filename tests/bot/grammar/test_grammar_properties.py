"""Properties: any well-formed /hu line parses to the entry it was written from; any text fails cleanly."""

from __future__ import annotations

from typing import Any

from budget import examples
from grammar_builders import entry, hand, resolve, resolve_with_guests, win
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.grammar import (
    GrammarError,
    parse_adjust,
    parse_draw,
    parse_edit,
    parse_entry,
    parse_escape,
    parse_hu,
)
from bot.grammar.vocab import FLAG_WORDS, HOW_WORDS, PATTERN_FLAG
from scoring import PATTERNS

SEAT_WORDS = {
    "E": ["东", "東", "E", "e", "@ann", "Ann", "ann"],
    "S": ["南", "S", "s", "@bob", "Bob Chen"],
    "W": ["西", "W", "w", "老王"],
    "N": ["北", "N", "n", "@dan", "阿丹"],
}
HOW = {
    "self_draw": ["自摸", "zimo", "tsumo", "zm", "self draw"],
    "discard": ["冲", "沖", "pao", "点炮", "點炮", "放冲", "放铳", "放銃", "chong", "ron"],
    "rob_kong": ["抢杠", "搶槓", "qianggang", "qg", "rob"],
    "bao": ["包", "包饺子", "包餃子", "bao"],
}
# Every name of every pattern that a player could type as one term (the English descriptions with commas
# are labels, not input).
PATTERN_WORDS = {
    pid: sorted({w for w in (p.id, p.zh, p.zh_hant, p.en, *p.aliases) if "," not in w})
    for pid, p in PATTERNS.items()
}
SHANGPAI_WORDS = [w for w, flag in FLAG_WORDS.items() if flag == "shangpai"]
CN = "零一二三四五六七八九"
SEPARATORS = [" ", "  ", "\u3000", "，", "、", " , ", ";", " \u3000 "]
# Hands in the shorthand and the §3 hand object each one is.
HANDS = [
    ("11223355778899p 中发春梅百搭", hand("11223355778899p", "9p", flowers=("中", "发", "春", "梅", "百搭"))),
    (
        "123m456m789s9p+9p [555p] 中春菊",
        hand(
            "123456m99p789s",
            "9p",
            {"type": "pung", "tiles": "555p", "exposed": True},
            flowers=("中", "春", "菊"),
        ),
    ),
    (
        "123m456m9p+9p [555p:N] (7777m)",
        hand(
            "123456m99p",
            "9p",
            {"type": "pung", "tiles": "555p", "exposed": True, "from": "N"},
            {"type": "kong", "tiles": "7777m", "exposed": False},
        ),
    ),
]
WILDS = [("5p", ["5p", "五筒", "5筒"]), ("9m", ["9m", "九万", "九萬"]), ("2s", ["2s", "二条", "二索"])]


def cn_number(n: int) -> str:
    """12 → 十二, 20 → 二十, 5 → 五 (how people write a count in Chinese)."""
    if n < 10:
        return CN[n]
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else CN[tens]) + "十" + (CN[ones] if ones else "")


def cased(draw: st.DrawFn, word: str) -> str:
    if word.isascii():
        return draw(st.sampled_from([word, word.lower(), word.upper(), word.title()]))
    return word


@st.composite
def hu_command(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A /hu line as some player might type it, and the entry it means."""
    kind = draw(st.sampled_from(sorted(HOW)))
    n_winners = 1 if kind in ("self_draw", "bao") else draw(st.integers(1, 3))
    seats = draw(st.permutations(["E", "S", "W", "N"]))
    winners, other = seats[:n_winners], seats[n_winners]

    items: list[list[str]] = []  # each item is one or more words that stay together
    wins = []
    no_glue: set[str] = set()
    for seat in winners:
        items.append([cased(draw, draw(st.sampled_from(SEAT_WORDS[seat])))])
        how_type = "self_draw" if kind == "bao" else kind
        if draw(st.integers(0, 3)) == 0:  # the tile form: the hand, then words for how it happened
            typed, hand_object = draw(st.sampled_from(HANDS))
            typed = cased(draw, typed)
            no_glue.add(typed)
            items.append([typed])
            words = draw(st.lists(st.sampled_from(sorted(FLAG_WORDS)), max_size=2, unique=True))
            flag_values = {FLAG_WORDS[w]: True for w in words}
            if kind == "bao":
                flag_values.update(after_kong=True, kong_fed_by=other)
            wins.append(win(seat, how_type, hand=hand_object, **flag_values))
            items.extend([cased(draw, word)] for word in words)
            continue
        details: list[tuple[str, str, Any]] = []  # (word, what it is, its value)
        if draw(st.booleans()):
            n = draw(st.integers(0, 40))
            details.append(
                (
                    draw(
                        st.sampled_from(
                            [f"{n}花", f"{n} 花", f"{n}h", f"hua{n}", f"{cn_number(n)}花", str(n)]
                        )
                    ),
                    "hard",
                    n,
                )
            )
        if draw(st.integers(0, 4)) == 0:
            n = draw(st.integers(0, 40))
            details.append(
                (draw(st.sampled_from([f"{n}软花", f"soft{n}", f"{n}軟", f"{cn_number(n)}软花"])), "soft", n)
            )
        for pid in draw(st.lists(st.sampled_from(sorted(PATTERN_WORDS)), max_size=3, unique=True)):
            details.append((draw(st.sampled_from(PATTERN_WORDS[pid])), "pattern", pid))
        if draw(st.integers(0, 5)) == 0:
            details.append((draw(st.sampled_from(SHANGPAI_WORDS)), "flag", "shangpai"))
        details = [details[i] for i in draw(st.permutations(range(len(details))))]
        counts = {what: value for _, what, value in details if what in ("hard", "soft")}
        patterns = tuple(value for _, what, value in details if what == "pattern")
        flag_values: dict[str, Any] = {PATTERN_FLAG[pid]: True for pid in patterns if pid in PATTERN_FLAG}
        flag_values.update({value: True for _, what, value in details if what == "flag"})
        if kind == "bao":
            flag_values.update(after_kong=True, kong_fed_by=other)
        wins.append(
            win(
                seat,
                how_type,
                hard=counts.get("hard", 0),
                soft=counts.get("soft", 0),
                patterns=patterns,
                **flag_values,
            )
        )
        items.extend([cased(draw, word)] for word, _, _ in details)

    other_word = cased(draw, draw(st.sampled_from(SEAT_WORDS[other])))
    how_word = cased(draw, draw(st.sampled_from(HOW[kind])))
    if kind == "self_draw":
        items.insert(draw(st.integers(0, len(items))), [how_word])
    elif draw(st.integers(0, 3)) == 0:
        items.append([other_word, how_word])  # 北 点炮: the discarder just before the word
    else:
        items.insert(draw(st.integers(0, len(items))), [how_word, other_word])

    wild = None
    if draw(st.integers(0, 3)) == 0:
        wild, names = draw(st.sampled_from(WILDS))
        key = cased(draw, draw(st.sampled_from(["混子", "wild", "混", "癞子"])))
        items.insert(draw(st.integers(1, len(items))), [key, cased(draw, draw(st.sampled_from(names)))])
        for w in wins:
            w["wild"] = wild

    words = [word for item in items for word in item]
    text = draw(st.sampled_from(["", " ", "\u3000"]))
    for i, word in enumerate(words):
        if i:
            glue = (
                words[i - 1][-1] > "\u3400"
                and word[0] > "\u3400"
                and draw(st.integers(0, 3)) == 0
                and words[i - 1] not in no_glue
                and word not in no_glue
            )
            text += "" if glue else draw(st.sampled_from(SEPARATORS))
        text += word
    discarder = other if kind in ("discard", "rob_kong") else None
    return text, entry(*wins, discarder=discarder)


@settings(max_examples=examples(200))
@given(hu_command())
def test_any_well_formed_command_parses_to_the_entry_it_was_written_from(
    case: tuple[str, dict[str, Any]],
) -> None:
    text, expected = case
    assert parse_hu(text, resolve) == expected


VOCABULARY = sorted(
    set(HOW_WORDS)
    | set(FLAG_WORDS)
    | {w for ws in PATTERN_WORDS.values() for w in ws}
    | {
        "东",
        "南",
        "西",
        "北",
        "@ann",
        "老王",
        "5花",
        "hua",
        "十二花",
        "混子",
        "5p",
        "[555p]",
        "(7777s)",
        "+9p",
        "11223355778899p",
        "中发春梅百搭",
        "|",
        "东东",
        "豹子",
        "第3局",
        "#",
        "-5",
        "0",
        "→",
        "给",
        "逃跑",
        "荒庄",
    }
)
noise = st.text(
    alphabet=st.characters(codec="utf-8", categories=["L", "N", "P", "S", "Z", "Cc"]), max_size=30
)
token_soup = st.lists(st.one_of(st.sampled_from(VOCABULARY), noise), max_size=10).flatmap(
    lambda words: st.lists(
        st.sampled_from(["", " ", "，", "\u3000", "、"]), min_size=len(words), max_size=len(words)
    ).map(lambda seps: "".join(s + w for s, w in zip(seps, words, strict=True)))
)


@settings(max_examples=examples(200))
@given(st.one_of(token_soup, noise))
def test_any_text_either_parses_or_raises_grammar_error(text: str) -> None:
    for parse in (
        lambda t: parse_hu(t, resolve),
        lambda t: parse_escape(t, resolve),
        lambda t: parse_adjust(t, resolve_with_guests),
        parse_edit,
        parse_draw,
        lambda t: parse_entry(t, resolve),
    ):
        try:
            parse(text)
        except GrammarError as exc:
            assert exc.code and "token" in exc.params
