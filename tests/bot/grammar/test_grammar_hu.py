"""/hu as players type it at the table, and the entry each line becomes."""

from __future__ import annotations

import pytest
from grammar_builders import entry, hand, resolve, win

from bot.grammar import parse_hu

# ---- PRODUCT.md examples -----------------------------------------------------------------------------


def test_product_quick_form() -> None:
    assert parse_hu("南 自摸 5花 清一色 七对", resolve) == entry(
        win("S", hard=5, patterns=("qingyise", "qidui"))
    )


def test_product_tile_form() -> None:
    assert parse_hu("@ann zimo 11223355778899p 中发春梅百搭", resolve) == entry(
        win("E", hand=hand("11223355778899p", "9p", flowers=("中", "发", "春", "梅", "百搭")))
    )


def test_product_several_winners_on_one_discard() -> None:
    assert parse_hu("东 8花 西 清一色 冲 北", resolve) == entry(
        win("E", "discard", hard=8), win("W", "discard", patterns=("qingyise",)), discarder="N"
    )


def test_product_melds_in_brackets() -> None:
    typed = "南 冲 西 123m456m9p+9p [555p] (7777s) 中春菊"
    assert parse_hu(typed, resolve) == entry(
        win(
            "S",
            "discard",
            hand=hand(
                "123456m99p",
                "9p",
                {"type": "pung", "tiles": "555p", "exposed": True},
                {"type": "kong", "tiles": "7777s", "exposed": False},
                flowers=("中", "春", "菊"),
            ),
        ),
        discarder="W",
    )


def test_the_whole_message_with_the_command_is_accepted() -> None:
    assert parse_hu("/hu@SuzhouBot 南 自摸 5花", resolve) == parse_hu("南 自摸 5花", resolve)


# ---- ways to win -------------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["自摸", "zimo", "ZiMo", "tsumo", "zm", "self draw", "自摸胡"])
def test_self_draw_words(how: str) -> None:
    assert parse_hu(f"南 {how} 5花", resolve) == entry(win("S", hard=5))


@pytest.mark.parametrize(
    "how", ["冲", "沖", "pao", "点炮", "點炮", "放冲", "放铳", "放銃", "放炮", "chong", "ron", "DP"]
)
def test_discard_words(how: str) -> None:
    assert parse_hu(f"东 {how} 北 6花", resolve) == entry(win("E", "discard", hard=6), discarder="N")


@pytest.mark.parametrize("typed", ["东 北点炮 6花", "东 北 点炮 6花", "东 北放冲 6花", "东 6花 北 冲"])
def test_the_discarder_before_the_word(typed: str) -> None:
    """北点炮: the player just before 点炮 (and after the winner) is the one who discarded."""
    assert parse_hu(typed, resolve) == entry(win("E", "discard", hard=6), discarder="N")


@pytest.mark.parametrize("how", ["抢杠", "搶槓", "qianggang", "qg", "rob", "rob kong"])
def test_robbing_the_kong(how: str) -> None:
    assert parse_hu(f"西 {how} 南 3花", resolve) == entry(win("W", "rob_kong", hard=3), discarder="S")


def test_two_players_rob_the_same_kong() -> None:
    assert parse_hu("东 4花 西 5花 抢杠 南", resolve) == entry(
        win("E", "rob_kong", hard=4), win("W", "rob_kong", hard=5), discarder="S"
    )


@pytest.mark.parametrize("how", ["包", "包饺子", "包餃子", "bao", "bjz"])
def test_bao_jiaozi_is_a_self_draw_after_a_kong_fed_by_one_player(how: str) -> None:
    assert parse_hu(f"东 {how} 北 3花", resolve) == entry(
        win("E", "self_draw", hard=3, after_kong=True, kong_fed_by="N")
    )


def test_bao_jiaozi_with_the_tiles() -> None:
    assert parse_hu("东 包 北 123m456m9p+9p [555p] [7777s:直:N]", resolve) == entry(
        win(
            "E",
            hand=hand(
                "123456m99p",
                "9p",
                {"type": "pung", "tiles": "555p", "exposed": True},
                {"type": "kong", "tiles": "7777s", "exposed": True, "kind": "direct", "from": "N"},
            ),
            after_kong=True,
            kong_fed_by="N",
        )
    )


def test_the_how_may_come_first() -> None:
    assert parse_hu("自摸 南 5花", resolve) == entry(win("S", hard=5))


def test_the_same_discard_named_twice_is_one_discard() -> None:
    assert parse_hu("东 冲 北 西 冲 北", resolve) == entry(
        win("E", "discard"), win("W", "discard"), discarder="N"
    )


def test_three_winners_on_one_discard_in_typed_order() -> None:
    got = parse_hu("西 10花 东 七对 南 4h 冲 北", resolve)
    assert [w["winner"] for w in got["wins"]] == ["W", "E", "S"]
    assert got["discarder"] == "N"


def test_details_after_the_discarder_belong_to_the_last_winner() -> None:
    assert parse_hu("东 8花 西 冲 北 清一色", resolve) == entry(
        win("E", "discard", hard=8), win("W", "discard", patterns=("qingyise",)), discarder="N"
    )


# ---- players -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("player", "seat"),
    [
        ("东", "E"),
        ("東", "E"),
        ("E", "E"),
        ("e", "E"),
        ("@ann", "E"),
        ("@Ann", "E"),
        ("ann", "E"),
        ("南", "S"),
        ("S", "S"),
        ("@bob", "S"),
        ("西", "W"),
        ("w", "W"),
        ("老王", "W"),
        ("北", "N"),
        ("N", "N"),
        ("阿丹", "N"),
        ("@DAN", "N"),
    ],
)
def test_players_by_seat_username_or_name(player: str, seat: str) -> None:
    other = "W" if seat != "W" else "E"
    other_word = {"W": "西", "E": "东"}[other]
    assert parse_hu(f"{player} 冲 {other_word}", resolve)["wins"][0]["winner"] == seat
    assert parse_hu(f"{other_word} 冲 {player}", resolve)["discarder"] == seat


# ---- 花 counts ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "hard"),
    [
        ("5花", 5),
        ("5 花", 5),
        ("5h", 5),
        ("5H", 5),
        ("hua5", 5),
        ("hua 5", 5),
        ("5hua", 5),
        ("花5", 5),
        ("五花", 5),
        ("十二花", 12),
        ("二十花", 20),
        ("两花", 2),
        ("0花", 0),
        ("5个花", 5),
        ("7", 7),
        ("5硬花", 5),
        ("中发春", 3),
        ("百搭", 1),
        ("５花", 5),
    ],
)
def test_hua_count_forms(typed: str, hard: int) -> None:
    assert parse_hu(f"南 自摸 {typed}", resolve) == entry(win("S", hard=hard))


@pytest.mark.parametrize("typed", ["3软花", "软花3", "3软", "soft3", "3 soft", "三軟花"])
def test_soft_flowers(typed: str) -> None:
    assert parse_hu(f"南 自摸 4花 {typed}", resolve) == entry(win("S", hard=4, soft=3))


# ---- patterns and flags ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "patterns"),
    [
        ("清一色 七对", ("qingyise", "qidui")),
        ("qys qd", ("qingyise", "qidui")),
        ("QYS", ("qingyise",)),
        ("full flush seven pairs", ("qingyise", "qidui")),
        ("對對胡 混一色", ("duiduihu", "hunyise")),
        ("碰碰胡", ("duiduihu",)),
        ("大门清", ("da_menqing",)),
        ("門清", ("xiao_menqing",)),
        ("大吊车", ("dadiaoche",)),
        ("ddc", ("dadiaoche",)),
        ("清一色 清一色", ("qingyise",)),
    ],
)
def test_pattern_words(typed: str, patterns: tuple[str, ...]) -> None:
    assert parse_hu(f"南 自摸 {typed}", resolve) == entry(win("S", patterns=patterns))


@pytest.mark.parametrize(
    ("typed", "pattern", "flag"),
    [
        ("杠开", "gangkai", "after_kong"),
        ("槓開", "gangkai", "after_kong"),
        ("杠上开花", "gangkai", "after_kong"),
        ("gangkai", "gangkai", "after_kong"),
        ("花开", "huakai", "after_flower"),
        ("hk", "huakai", "after_flower"),
        ("海底", "haidi", "last_tile"),
        ("海底捞月", "haidi", "last_tile"),
        ("haidi", "haidi", "last_tile"),
        ("天胡", "tianhu", "heavenly"),
        ("天和", "tianhu", "heavenly"),
        ("地胡", "dihu", "earthly"),
    ],
)
def test_how_the_win_happened_is_a_flag_and_in_the_quick_form_also_its_pattern(
    typed: str, pattern: str, flag: str
) -> None:
    expected = entry(win("S", hard=5, patterns=(pattern,), **{flag: True}))
    assert parse_hu(f"南 自摸 5花 {typed}", resolve) == expected


def test_shangpai_is_a_flag_only() -> None:
    assert parse_hu("南 冲 北 3花 上牌", resolve) == entry(
        win("S", "discard", hard=3, shangpai=True), discarder="N"
    )


def test_in_the_tile_form_the_win_words_are_flags_only() -> None:
    got = parse_hu("南 自摸 123m456m9p+9p [555p] (7777m) 杠开 海底", resolve)
    assert got["wins"][0]["flags"]["after_kong"] and got["wins"][0]["flags"]["last_tile"]
    assert "declared" not in got["wins"][0]


def test_heavenly_hand_with_the_tiles() -> None:
    got = parse_hu("东 天胡 自摸 11223355778899p", resolve)
    assert got == entry(win("E", hand=hand("11223355778899p", "9p"), heavenly=True))


# ---- the tile form -----------------------------------------------------------------------------------


def test_chinese_tiles_and_full_width_brackets() -> None:
    assert parse_hu("南 冲 西 一二三万四五六万七八九条九筒+九筒 【555p】 中春菊", resolve) == parse_hu(
        "南 冲 西 123m456m789s9p+9p [555p] 中春菊", resolve
    )


def test_flowers_split_over_several_words() -> None:
    got = parse_hu("南 自摸 11223355778899p 中发 春 梅百搭", resolve)
    assert got["wins"][0]["hand"]["flowers"] == ["中", "发", "春", "梅", "百搭"]


def test_round_wind_flowers_of_suzhou_anhui_after_a_bar() -> None:
    got = parse_hu("南 自摸 123m456m789m1s+1s [555p] | 东东", resolve)
    assert got["wins"][0]["hand"]["flowers"] == ["东", "东"]


def test_two_winners_with_tiles() -> None:
    got = parse_hu("东 11223355778899p 中 西 123m456m789s9p+9p [555p] 冲 北", resolve)
    assert [w["hand"]["concealed"] for w in got["wins"]] == ["11223355778899p", "123456m99p789s"]
    assert got["wins"][0]["hand"]["flowers"] == ["中"]


# ---- wild (宿州 混子) --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed", ["混子 5p", "wild 5p", "混子5p", "混 五筒", "WILD 5P", "癞子 5筒", "混子:5p"]
)
def test_wild_tile(typed: str) -> None:
    assert parse_hu(f"东 冲 北 5花 {typed}", resolve) == entry(
        win("E", "discard", hard=5, wild="5p"), discarder="N"
    )


def test_the_wild_applies_to_every_winner() -> None:
    got = parse_hu("混子 2p 东 3花 西 4花 冲 北", resolve)
    assert [w["wild"] for w in got["wins"]] == ["2p", "2p"]


# ---- scripts, spacing, punctuation, case ---------------------------------------------------------------


@pytest.mark.parametrize(
    "typed",
    [
        "南　自摸　５花　清一色",  # full-width spaces and digits
        "南，自摸，5花，清一色",
        "南、自摸、5花、清一色",
        "南;自摸;5花;清一色",
        "  南   自摸 5花   清一色  ",
        "南自摸5花清一色",  # no spaces at all
        "南 自摸5花 清一色",
        "bob ZIMO 5H QYS",
        "@Bob zimo hua5 qingyise",
        "S tsumo 5 花 full flush",
        "南 自摸 五花 清一色",
    ],
)
def test_the_same_entry_however_it_is_typed(typed: str) -> None:
    assert parse_hu(typed, resolve) == entry(win("S", hard=5, patterns=("qingyise",)))


@pytest.mark.parametrize("typed", ["东8花西清一色冲北", "东 8花 西清一色 冲北", "東 8花 西 清一色 沖 北"])
def test_several_winners_typed_without_spaces_or_in_traditional(typed: str) -> None:
    assert parse_hu(typed, resolve) == entry(
        win("E", "discard", hard=8), win("W", "discard", patterns=("qingyise",)), discarder="N"
    )


def test_suit_letters_in_capitals() -> None:
    assert parse_hu("南 自摸 11223355778899P", resolve) == parse_hu("南 自摸 11223355778899p", resolve)


@pytest.mark.parametrize("typed", ["南 自摸 5 花上牌", "南 自摸 5花上牌", "南自摸5花上牌"])
def test_a_spaced_count_glued_to_the_next_word(typed: str) -> None:
    assert parse_hu(typed, resolve) == entry(win("S", hard=5, shangpai=True))


def test_a_bare_count_before_a_word_that_starts_with_hua() -> None:
    assert parse_hu("南 自摸 5 花开", resolve) == entry(
        win("S", hard=5, patterns=("huakai",), after_flower=True)
    )


def test_round_wind_flowers_in_the_quick_form_follow_another_flower() -> None:
    """宿州: the 令风 winds are flowers; after a flower name they count (中东东 = 3), alone 东 is a seat."""
    assert parse_hu("南 自摸 中东东 混子 5p", resolve) == entry(win("S", hard=3, wild="5p"))


@pytest.mark.parametrize("typed", ["南 杠开 5花", "南 5花 杠上开花", "南杠开5花"])
def test_a_replacement_win_needs_no_zimo(typed: str) -> None:
    """杠开, 花开, 海底, 天胡 and 地胡 only happen on a self-draw: the way of winning may be left out."""
    assert parse_hu(typed, resolve) == entry(win("S", hard=5, patterns=("gangkai",), after_kong=True))


@pytest.mark.parametrize(
    "typed", ["南胡了 自摸 5花", "南 胡 自摸 5花", "bob wins by tsumo 5 flowers", "S zimo 5花"]
)
def test_filler_words(typed: str) -> None:
    assert parse_hu(typed, resolve) == entry(win("S", hard=5))


@pytest.mark.parametrize(
    "typed", ["南 自摸 5花 清一色+七对", "南 自摸 5花 qys+qd", "南 自摸 5花+清一色+七对"]
)
def test_plus_between_words(typed: str) -> None:
    assert parse_hu(typed, resolve) == entry(win("S", hard=5, patterns=("qingyise", "qidui")))


def test_plus_before_the_winning_tile_stays_in_the_hand() -> None:
    got = parse_hu("南 自摸 123m456m789s9p +9p [555p]", resolve)
    assert got["wins"][0]["hand"]["winning_tile"] == "9p"


def test_pinyin_typed_by_syllables() -> None:
    assert parse_hu("S zi mo 5h qing yi se gang kai", resolve) == entry(
        win("S", hard=5, patterns=("qingyise", "gangkai"), after_kong=True)
    )
    assert parse_hu("E dian pao N", resolve) == entry(win("E", "discard"), discarder="N")


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("西 抢 北 3花", entry(win("W", "rob_kong", hard=3), discarder="N")),
        ("西 北 被抢杠 3花", entry(win("W", "rob_kong", hard=3), discarder="N")),
        ("南 自摸 5花 （清一色）", entry(win("S", hard=5, patterns=("qingyise",)))),
        ("南 自摸 5花 【清一色】", entry(win("S", hard=5, patterns=("qingyise",)))),
    ],
)
def test_more_table_talk(typed: str, expected: dict[str, object]) -> None:
    assert parse_hu(typed, resolve) == expected


def test_after_a_hand_two_different_winds_are_players_and_one_repeated_wind_is_flowers() -> None:
    got = parse_hu("东 11223355778899p 中 西北 冲", resolve)
    assert [w["winner"] for w in got["wins"]] == ["E", "W"] and got["discarder"] == "N"
    got = parse_hu("东 自摸 11223355778899p 中 东东", resolve)
    assert got["wins"][0]["hand"]["flowers"] == ["中", "东", "东"]
