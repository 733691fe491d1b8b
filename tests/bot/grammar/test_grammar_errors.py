"""Malformed /hu lines: each one gets the GrammarError code that says what is wrong, naming the word."""

from __future__ import annotations

import pytest
from grammar_builders import resolve

from bot.grammar import MESSAGES, GrammarError, parse_hu


@pytest.mark.parametrize(
    ("typed", "code", "token"),
    [
        ("", "empty", ""),
        ("　，", "empty", ""),
        ("南 5花", "missing_how", "南"),
        ("南 清一色", "missing_how", "南"),
        ("东 3花 西 4花", "missing_how", "西"),
        ("自摸", "missing_winner", "自摸"),
        ("5花 南 自摸", "missing_winner", "5花"),
        ("小王 自摸 5花", "unknown_player", "小王"),
        ("@carol 自摸", "unknown_player", "@carol"),
        ("南 冲 小王", "unknown_player", "小王"),
        ("南 冲 @carol 5花", "unknown_player", "@carol"),
        ("南 自摸 @carol", "unknown_player", "@carol"),
        ("南 冲", "missing_discarder", "冲"),
        ("南 冲 5花", "missing_discarder", "冲"),
        ("南 抢杠", "missing_discarder", "抢杠"),
        ("南 包 清一色", "missing_discarder", "包"),
        ("南 冲 南", "discarder_is_winner", "南"),
        ("南 冲 bob", "discarder_is_winner", "bob"),
        ("东 西 冲 东", "discarder_is_winner", "东"),
        ("南 南 冲 北", "duplicate_winner", "南"),
        ("南 5花 @bob 冲 北", "duplicate_winner", "@bob"),
        ("东 西 自摸", "too_many_winners", "西"),
        ("东 西 包 北", "too_many_winners", "西"),
        ("南 自摸 冲 北", "conflicting_how", "冲"),
        ("东 冲 北 西 冲 南", "conflicting_how", "冲"),
        ("南 自摸 xyz", "unknown_word", "xyz"),
        ("南 自摸 5花 清一色 吃饭", "unknown_word", "吃饭"),
        ("南 自摸 5.5花", "bad_hua", "5.5花"),
        ("南 自摸 -3花", "bad_hua", "-3花"),
        ("南 自摸 100花", "bad_hua", "100花"),
        ("南 自摸 500", "bad_hua", "500"),
        ("南 自摸 x花", "bad_hua", "x花"),
        ("南 自摸 hua", "bad_hua", "hua"),
        ("南 自摸 5花 6h", "duplicate_hua", "6h"),
        ("南 自摸 5花 中发", "duplicate_hua", "中发"),
        ("南 自摸 豹子", "table_state_word", "豹子"),
        ("南 自摸 5花 滴零", "table_state_word", "滴零"),
        ("南 冲 北 混子", "missing_wild", "混子"),
        ("南 冲 北 混子 清一色", "bad_wild", "清一色"),
        ("南 冲 北 混子 55p", "bad_wild", "55p"),
        ("南 冲 北 混子 5p 混子 6p", "conflicting_wild", "混子"),
    ],
)
def test_error_code_names_the_word(typed: str, code: str, token: str) -> None:
    with pytest.raises(GrammarError) as info:
        parse_hu(typed, resolve)
    assert info.value.code == code
    assert info.value.params["token"] == token
    assert info.value.key == f"grammar.{code}"
    assert code in MESSAGES
    if token:
        assert token in str(info.value)


@pytest.mark.parametrize(
    ("typed", "code", "in_reason"),
    [
        ("南 自摸 1122335577889p", "hand_error", "wrong tile count"),  # 13 tiles
        ("南 自摸 112233557788999p", "hand_error", "wrong tile count"),  # 15 tiles
        ("南 自摸 99999p123m456m789m", "hand_error", "9p"),  # a fifth 9p
        ("南 自摸 1230m456m789s99p", "hand_error", "0m"),  # rank 0
        ("南 自摸 123m456m9p+9p [555p", "hand_error", ""),  # unclosed bracket
    ],
)
def test_impossible_hands(typed: str, code: str, in_reason: str) -> None:
    with pytest.raises(GrammarError) as info:
        parse_hu(typed, resolve)
    assert info.value.code == code
    assert in_reason in info.value.params["reason"]
    assert info.value.params["token"].startswith(typed.split()[2])


@pytest.mark.parametrize(
    ("typed", "code", "token"),
    [
        ("南 自摸 11223355778899p 5花", "hand_with_hua", "5花"),
        ("南 自摸 11223355778899p 清一色", "pattern_with_hand", "清一色"),
        ("南 自摸 123m456m 5花 789s9p+9p [555p]", "duplicate_hand", "789s9p+9p"),
    ],
)
def test_tiles_and_a_count_do_not_mix(typed: str, code: str, token: str) -> None:
    with pytest.raises(GrammarError) as info:
        parse_hu(typed, resolve)
    assert (info.value.code, info.value.params["token"]) == (code, token)


def test_the_position_is_the_character_where_the_word_starts() -> None:
    typed = "南 自摸 5花 吃饭"
    with pytest.raises(GrammarError) as info:
        parse_hu(typed, resolve)
    position = info.value.params["position"]
    assert typed[position - 1 : position + 1] == "吃饭"
    assert info.value.params["index"] == 4


def test_position_counts_in_the_text_as_typed_with_full_width_spaces() -> None:
    typed = "南　自摸　５花　xyz"
    with pytest.raises(GrammarError) as info:
        parse_hu(typed, resolve)
    assert typed[info.value.params["position"] - 1 :].startswith("xyz")


def test_grammar_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="xyz"):
        parse_hu("南 自摸 xyz", resolve)


@pytest.mark.parametrize("word", ["+-5", "1.5", "1e3", "", "0", "1000001", "五五"])
def test_every_numeric_argument_has_one_parser_that_refuses_clearly(word: str) -> None:
    from bot.grammar.lexer import parse_number

    with pytest.raises(GrammarError) as refused:
        parse_number(word, low=1, high=1_000_000)
    assert refused.value.code == "bad_number" and refused.value.params["high"] == 1_000_000


@pytest.mark.parametrize("word", ["²", "①", "⑳", "𝟗𝟗", "¹⁰⁰⁰⁰⁰⁰⁰", "٣", "Ⅻ"])
def test_odd_digits_have_their_own_refusal_in_every_number(word: str) -> None:
    from bot.grammar.lexer import parse_number, tokenize

    with pytest.raises(GrammarError) as refused:
        parse_number(word, low=1, high=1_000_000)
    assert refused.value.code == "odd_digit" and refused.value.params["token"] == word
    with pytest.raises(GrammarError) as typed:
        tokenize(f"南 自摸 {word}花")
    assert typed.value.code == "odd_digit"


@pytest.mark.parametrize(("word", "value"), [("5", 5), ("+5", 5), ("十二", 12), (" 20 ", 20), ("一百", 100)])
def test_numbers_in_digits_or_chinese_numerals(word: str, value: int) -> None:
    from bot.grammar.lexer import parse_number

    assert parse_number(word, low=1, high=1_000_000) == value


def test_a_refusal_quotes_a_short_excerpt_of_a_long_word() -> None:
    error = GrammarError("unknown_word", token="x" * 4000, index=1)
    assert len(error.params["token"]) <= 24 and len(str(error)) < 300
