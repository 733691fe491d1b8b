"""Errors and refusals in the group's language: scoring errors by code, refused wins with their
numbers, options by name. Nothing English or internal reaches a Chinese group."""

from __future__ import annotations

import re

import pytest
from harness import Table

from bot.ledger.errors import InvalidEntry, WinNotAllowed
from bot.render import refusal_text
from bot.render.errors import error_text, tile_words
from scoring.errors import ScoringError

IDENTIFIER = re.compile(r"(?<![A-Za-z_/@0-9])[A-Za-z_]{2,}(?![A-Za-z_0-9])")


def coded(code: str, **params: object) -> ScoringError:
    """A ScoringError as the scoring core raises it: `.code` and `.params` (English message for the CLI)."""
    error = ScoringError(f"english text for {code}")
    error.code = code  # type: ignore[attr-defined]
    error.params = params  # type: ignore[attr-defined]
    return error


def test_tiles_are_named_in_each_language() -> None:
    assert tile_words("zh-Hans", "9p") == "九筒"
    assert tile_words("zh-Hant", "9s") == "九條"
    assert tile_words("en", "9m") == "9-Character"
    assert tile_words("zh-Hans", "555p") == "五筒×3"
    assert tile_words("zh-Hant", "[7777s]") == "七條×4"
    assert tile_words("zh-Hans", "1z") == "东"
    assert tile_words("zh-Hant", "6z") == "發"
    assert tile_words("zh-Hans", "not tiles") == "not tiles"


def test_a_scoring_error_reads_in_the_group_language_with_its_numbers() -> None:
    error = coded("too_many_copies", tile="9p", count=5)
    assert error_text("zh-Hans", error) == "算不了：九筒 写了5张：每种牌只有4张。"
    assert error_text("zh-Hant", error) == "算不了：九筒 寫了5張：每種牌只有4張。"
    assert error_text("en", error) == "Cannot score: 9-Dot is there 5 times: each tile has only 4 copies."
    error = coded("tile_count", concealed=15, melds=0, total=15, expected=14)
    assert "15张" in error_text("zh-Hans", error) and "应该是14张" in error_text("zh-Hans", error)
    assert "0 melds make 15" in error_text("en", error)
    error = coded("out_of_range", field="wins[0].declared.hard_flowers", value=99, low=0, high=28)
    assert error_text("zh-Hans", error) == "算不了：硬花数不能是 99：要在 0 到 28 之间。"


def test_a_bad_token_is_quoted_short_and_pointed_at_with_an_example() -> None:
    error = coded("unknown_token", token="冲" * 40, position=23)
    text = error_text("zh-Hans", error)
    assert (
        "第23个字" in text and "冲" * 23 + "…" in text and "冲" * 24 not in text
    )  # EXCERPT characters in all
    assert "例如 11223355778899p" in text


def test_the_scoring_error_behind_a_ledger_error_is_rendered_not_its_english() -> None:
    try:
        try:
            raise coded("flag_needs", flag="after_kong", needs="kong")
        except ScoringError as exc:
            raise InvalidEntry("wins[0].flags.after_kong: the hand has no kong", detail="…") from exc
    except InvalidEntry as error:
        assert error_text("zh-Hans", error) == "记录有误：杠开 要手里有杠，这手不是。"
        assert error_text("en", error) == (
            "Bad entry: Win after a kong needs a kong in the hand; this hand doesn't have it."
        )


def test_an_error_without_a_code_still_says_nothing_in_english() -> None:
    text = error_text("zh-Hans", ScoringError("hand: something the catalog never saw"))
    assert text == "算不了：这条记录不对，没有记入。"


def test_a_refused_win_says_why_with_the_numbers_and_the_exemptions() -> None:
    reason = {
        "winner": "W",
        "reason": "below_threshold",
        "threshold": {"have": 2, "need": 4, "exempt": ["qidui", "dadiaoche"]},
    }
    assert refusal_text("zh-Hans", reason) == "西 硬花不够，要4张，这手只有2张（七对、大吊车不受此限）"
    assert refusal_text("zh-Hant", reason).startswith("西 硬花不夠，要4張，這手只有2張（七對")
    assert refusal_text("en", {**reason, "threshold": {"have": 1, "need": 3}}) == (
        "W needs 3 hard flowers to win; this hand has 1"
    )
    error = WinNotAllowed("x", reasons=[{"winner": "E", "reason": "self_draw_only"}])
    assert error_text("zh-Hans", error) == "这手不能胡：本桌只许自摸，东 这手是冲胡。"


@pytest.mark.slow
async def test_a_refused_win_through_the_bot(seated_table: Table) -> None:
    turn = await seated_table.say("ann", "/hu 西 冲 北 2花")
    assert turn.text.startswith("这手不能胡：西 硬花不够，要4张，这手只有2张")
    assert "below_threshold" not in turn.text


async def test_self_draw_only_refusal_through_the_bot(table: Table) -> None:
    await table.say("ann", "/newgame 宿州")
    for name in ("ann", "bob", "cat", "dan"):
        await table.say(name, "/join")
    await table.say("ann", "/rules 胡牌方式 只许自摸")
    turn = await table.say("ann", "/hu 西 冲 北 2花")
    assert turn.text == "这手不能胡：本桌只许自摸，西 这手是冲胡。"


@pytest.mark.slow
@pytest.mark.parametrize(
    "words",
    [
        "/hu 南 自摸 112233557788999p 中发春梅",  # 15 tiles
        "/hu 南 自摸 11223355778899p9p 中发春梅",  # a fifth … no: a 15th tile as 9p
        "/hu 南 自摸 99999p112233557p 中发",  # five copies of 9p
        "/hu 南 自摸 99p112233557788q 中发",  # an unknown token
    ],
)
async def test_bad_hands_through_the_bot_leak_no_english(seated_table: Table, words: str) -> None:
    turn = await seated_table.say("bob", words)
    first = turn.texts[0]
    leaks = [w for w in IDENTIFIER.findall(first) if not re.fullmatch(r"[0-9]*[mpsz]", w)]
    assert not leaks, first


async def test_options_by_name_in_seat_and_rules(seated_table: Table) -> None:
    turn = await seated_table.say("ann", "/rules instant on")
    assert turn.text == "即时记账 已改为 开。"
    turn = await seated_table.say("ann", "/rules 起胡门槛 2/3")
    assert turn.text == "起胡门槛 已改为 自摸要2张硬花，冲胡要3张。"
    turn = await seated_table.say("ann", "/seat")
    assert "threshold" not in turn.text and "=" not in turn.text
    assert "  起胡门槛：自摸要2张硬花，冲胡要3张" in turn.text.splitlines()


def test_english_counts_are_plural_only_when_more_than_one() -> None:
    from bot.i18n import t

    assert t("en", "ting.header", count=1) == "Waiting on 1 tile:"
    assert t("en", "ting.header", count=3) == "Waiting on 3 tiles:"
    assert "kept the deal 1 time, " in t("en", "summary.streak", players="S Bob (to hand 2)", count=1)
    assert "at most 16 characters" in t("en", "ledger.guest_too_long", limit=16, name="x")
    assert refusal_text(
        "en", {"winner": "S", "reason": "below_threshold", "threshold": {"have": 0, "need": 1}}
    ) == ("S needs 1 hard flower to win; this hand has 0")
    text = error_text("en", coded("tile_count", concealed=11, melds=1, total=14, expected=14))
    assert "1 meld make" in text


def test_english_names_read_as_english() -> None:
    """A tile of rank 1 is no plural (1-Character), 滴零 has the glossary's one word, a pattern's name has
    no comma of its own (lists are joined with commas), and the options' values have no Chinese 花."""
    from bot.i18n import catalog, t
    from bot.render.items import term_name

    assert tile_words("en", "1m") == "1-Character"
    assert term_name("en", "diling") == "Diling"
    assert "," not in term_name("en", "da_menqing")
    assert not [key for key, text in catalog("en").items() if key.startswith("option.") and "花" in text]
    assert t("en", "book.column", wind="E", names="Ann") == "E:Ann"  # not "EAnn"
    assert t("en", "result.rob_kong", winner="S", discarder="E") == "S robs E's kong"
    assert "dealt in" in t(
        "en", "summary.player", seat="E", name="Ann", net=0, hands=1, wins=0, self_draws=0, dealt_in=0
    )
