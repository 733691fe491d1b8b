"""The grammar's caches (tokens per text, word labels, tile shorthand per text) answer exactly as a fresh
parse does, and every call gets its own entry."""

from __future__ import annotations

from typing import Any

import pytest
from grammar_builders import SEATED

from bot.grammar import GrammarError, make_resolver, parse_hu
from bot.grammar.lexer import tokenize

TEXTS = (
    "南 自摸 5花",
    "东 冲 西 8花",
    "@dan zimo 11223355778899p 中发春梅",
    "北 冲 南 6花 清一色",
    "西 自摸 对对胡 4花",
    "东 自摸 123456789m11p555s",
    "南 冲 东 3花 七对",
    "南自摸5花清一色",
    "东 8花 西 清一色 冲 北",
    "bob chen self draw 5 flowers seven pairs",
    "南 杠开 5花",
    "东 北点炮 3花",
    "南 包 北 5花",
    "混子 5p 南 自摸 3花",
    "老王 zimo 2花",
    "@ann 冲 @bob 1花 3软",
    # errors
    "",
    "南",
    "南 自摸 5花 5花",
    "xyz 自摸",
    "南 冲 南 5花",
    "南 自摸 1230m",
    "南 自摸 5.5花",
    "南 冲",
    "南 自摸 豹子",
    "东 西 自摸 5花",
)


def outcome(text: str, resolve: Any) -> tuple[str, Any]:
    try:
        return "entry", parse_hu(text, resolve)
    except GrammarError as exc:
        return "error", (exc.code, exc.params, str(exc), type(exc.__cause__))


@pytest.mark.parametrize("text", TEXTS)
def test_cached_parse_equals_a_fresh_parse(text: str) -> None:
    resolve = make_resolver(SEATED)

    expected = outcome(text, resolve)
    for _ in range(3):  # the first parse fills the caches, the next ones read them
        assert outcome(text, resolve) == expected
        assert outcome(text, make_resolver(SEATED)) == expected  # a new resolver of the same table


def test_each_call_gets_its_own_entry() -> None:
    resolve = make_resolver(SEATED)
    first = parse_hu("@dan zimo 11223355778899p 中发春梅", resolve)
    first["wins"][0]["flags"]["heavenly"] = True
    first["wins"][0]["hand"]["melds"].append({"type": "pung"})
    first["wins"][0]["hand"]["flowers"].clear()
    again = parse_hu("@dan zimo 11223355778899p 中发春梅", resolve)
    assert again["wins"][0]["flags"]["heavenly"] is False
    assert again["wins"][0]["hand"]["melds"] == []
    assert len(again["wins"][0]["hand"]["flowers"]) == 4
    tokens = tokenize("南 自摸 5花")
    tokens.pop()
    assert len(tokenize("南 自摸 5花")) == 3


def test_a_different_table_is_read_afresh() -> None:
    assert parse_hu("老王 自摸 5花", make_resolver(SEATED))["wins"][0]["winner"] == "W"
    moved = {**SEATED, "W": ["@ann"], "E": ["老王"]}
    assert parse_hu("老王 自摸 5花", make_resolver(moved))["wins"][0]["winner"] == "E"
    three = {seat: names for seat, names in SEATED.items() if seat != "N"}
    with pytest.raises(GrammarError):
        parse_hu("北 自摸 5花", make_resolver(three))
    # The occupied seats are read when the text is parsed, as the resolver reads them.
    seats = dict(three)
    resolve = make_resolver(seats)
    with pytest.raises(GrammarError):
        parse_hu("南 冲 北 5花", resolve)
    seats["N"] = []
    assert parse_hu("南 冲 北 5花", resolve)["discarder"] == "N"
