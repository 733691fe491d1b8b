"""/escape, /draw, /adjust, /edit and the player resolver, as typed at the table."""

from __future__ import annotations

import pytest
from grammar_builders import entry, resolve, resolve_with_guests, win

from bot.grammar import (
    Adjustment,
    GrammarError,
    make_resolver,
    parse_adjust,
    parse_draw,
    parse_edit,
    parse_entry,
    parse_escape,
)

# ---- /escape and /draw -------------------------------------------------------------------------------

ESCAPE_N = {"event": "escape", "discarder": None, "escaper": "N", "wins": []}
DRAW = {"event": "draw", "discarder": None, "escaper": None, "wins": []}


@pytest.mark.parametrize(
    "typed", ["北", "N", "@dan", "阿丹", "北 逃跑", "逃跑 北", "@DAN escaped", "/escape 北"]
)
def test_escape(typed: str) -> None:
    assert parse_escape(typed, resolve) == ESCAPE_N


@pytest.mark.parametrize(
    ("typed", "code", "token"),
    [
        ("", "missing_player", ""),
        ("逃跑", "missing_player", ""),
        ("小王", "unknown_player", "小王"),
        ("北 南", "extra_words", "南"),
    ],
)
def test_escape_errors(typed: str, code: str, token: str) -> None:
    with pytest.raises(GrammarError) as info:
        parse_escape(typed, resolve)
    assert (info.value.code, info.value.params["token"]) == (code, token)


@pytest.mark.parametrize("typed", ["", "荒庄", "黃莊", "流局", "draw", "/draw"])
def test_draw(typed: str) -> None:
    assert parse_draw(typed) == DRAW


def test_draw_takes_no_player() -> None:
    with pytest.raises(GrammarError) as info:
        parse_draw("北")
    assert info.value.code == "extra_words"


# ---- /adjust -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("东 西 50 夜宵", Adjustment("E", "W", 50, "夜宵")),
        ("东 西 50", Adjustment("E", "W", 50, "")),
        ("@ann @bob 20 上局算错了，补给他", Adjustment("E", "S", 20, "上局算错了，补给他")),
        ("东 给 西 50 奶茶", Adjustment("E", "W", 50, "奶茶")),
        ("东 → 西 ¥30", Adjustment("E", "W", 30, "")),
        ("东 西 50元 taxi home", Adjustment("E", "W", 50, "taxi home")),
        ("东 西 五十块", Adjustment("E", "W", 50, "")),
        ("东，西，50，夜宵", Adjustment("E", "W", 50, "夜宵")),
        ("/adjust 北 南 +5", Adjustment("N", "S", 5, "")),
    ],
)
def test_adjust(typed: str, expected: Adjustment) -> None:
    assert parse_adjust(typed, resolve) == expected


def test_adjust_is_a_four_tuple() -> None:
    payer, payee, amount, note = parse_adjust("东 西 50 夜宵", resolve)
    assert (payer, payee, amount, note) == ("E", "W", 50, "夜宵")


def test_adjust_with_guests_the_resolver_knows() -> None:
    assert parse_adjust("小李 东 10", resolve_with_guests) == Adjustment("guest:7", "E", 10, "")
    assert parse_adjust("东 @Eve 10", resolve_with_guests) == Adjustment("E", "user:9", 10, "")


def test_adjust_returns_an_unknown_name_as_typed_unless_strict() -> None:
    assert parse_adjust("@carol 东 10 借的", resolve) == Adjustment("@carol", "E", 10, "借的")
    with pytest.raises(GrammarError) as info:
        parse_adjust("@carol 东 10", resolve, strict=True)
    assert (info.value.code, info.value.params["token"]) == ("unknown_player", "@carol")


@pytest.mark.parametrize(
    ("typed", "code", "token"),
    [
        ("东 西", "missing_amount", "西"),
        ("", "missing_amount", ""),
        ("东 西 0", "bad_amount", "0"),
        ("东 西 -5", "bad_amount", "-5"),
        ("东 西 5.5", "bad_amount", "5.5"),
        ("东 西 很多", "bad_amount", "很多"),
        ("东 东 50", "same_player", "东"),
        ("@ann 东 50", "same_player", "东"),
        ("东 5 西", "unknown_player", "5"),
    ],
)
def test_adjust_errors(typed: str, code: str, token: str) -> None:
    with pytest.raises(GrammarError) as info:
        parse_adjust(typed, resolve)
    assert (info.value.code, info.value.params["token"]) == (code, token)


def test_an_empty_seat_word_is_never_a_guest_name() -> None:
    three = make_resolver({"E": ["@ann"], "S": ["@bob"], "W": ["老王"]})
    with pytest.raises(GrammarError) as info:
        parse_adjust("北 东 10", three)
    assert (info.value.code, info.value.params["token"]) == ("unknown_player", "北")


# ---- /edit -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("3 南 自摸 5花", (3, "南 自摸 5花")),
        ("#3 南 自摸 5花", (3, "南 自摸 5花")),
        ("第3局 南 自摸 5花", (3, "南 自摸 5花")),
        ("第十二局 荒庄", (12, "荒庄")),
        ("/edit 7 东 冲 北 8花", (7, "东 冲 北 8花")),
        ("7，东 冲 北", (7, "东 冲 北")),
    ],
)
def test_edit(typed: str, expected: tuple[int, str]) -> None:
    assert parse_edit(typed) == expected


@pytest.mark.parametrize(
    ("typed", "code", "token"),
    [
        ("", "bad_hand_number", ""),
        ("南 自摸", "bad_hand_number", "南"),
        ("0 南 自摸", "bad_hand_number", "0"),
        ("3", "missing_entry", "3"),
    ],
)
def test_edit_errors(typed: str, code: str, token: str) -> None:
    with pytest.raises(GrammarError) as info:
        parse_edit(typed)
    assert (info.value.code, info.value.params["token"]) == (code, token)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("南 自摸 5花", entry(win("S", hard=5))),
        ("hu 南 自摸 5花", entry(win("S", hard=5))),
        ("/hu 南 自摸 5花", entry(win("S", hard=5))),
        ("荒庄", DRAW),
        ("draw", DRAW),
        ("北 逃跑", ESCAPE_N),
        ("escape @dan", ESCAPE_N),
    ],
)
def test_an_edited_entry_may_be_any_event(typed: str, expected: dict[str, object]) -> None:
    number, rest = parse_edit(f"4 {typed}")
    assert number == 4
    assert parse_entry(rest, resolve) == expected


# ---- the resolver ------------------------------------------------------------------------------------


def test_resolver_seat_words_only_for_occupied_seats() -> None:
    two = make_resolver({"E": ["@ann"], "S": ["Bob"]})
    assert [two(w) for w in ("E", "e", "东", "東", "east", "南家", "W", "西", "N")] == [
        "E",
        "E",
        "E",
        "E",
        "E",
        "S",
        None,
        None,
        None,
    ]


def test_resolver_names_ignore_case_and_at() -> None:
    assert [resolve(w) for w in ("@ann", "ANN", "Ann", "@Bob Chen", "bob chen", "老王", "小王")] == [
        "E",
        "E",
        "E",
        "S",
        "S",
        "W",
        None,
    ]


def test_resolver_seated_names_win_over_guests_with_the_same_name() -> None:
    both = make_resolver({"E": ["小李"]}, {"小李": "guest:1"})
    assert both("小李") == "E"
