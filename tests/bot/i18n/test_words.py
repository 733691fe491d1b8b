"""What a native reader stumbled on, through the real bot: each reply says one thing, in the
table's own rule set's words."""

from __future__ import annotations

import pytest
from harness import PLAYERS, Table


async def seat_anhui(table: Table) -> Table:
    await table.say("ann", "/newgame 宿州 1")
    for name in PLAYERS:
        await table.say(name, "/join")
    return table


@pytest.mark.slow
async def test_a_double_at_a_suzhou_table_doubles_and_says_so_once(seated_table: Table) -> None:
    seated_table.force_dice(3, 3)
    turn = await seated_table.say("bob", "/roll")
    assert "豹子！本局翻倍，下局滴零。" in turn.text
    assert "本局豹子（×2）" in seated_table.pinned().text


async def test_a_double_at_a_suzhou_anhui_table_does_not_promise_a_doubling(table: Table) -> None:
    await seat_anhui(table)
    table.force_dice(3, 3)
    turn = await table.say("bob", "/roll")
    assert "两颗一样，但宿州麻将不算豹子，不翻倍。" in turn.text
    assert "翻倍，下局滴零" not in turn.text
    assert "豹子" not in table.pinned().text and "滴零" not in table.pinned().text


async def test_a_roll_that_changes_nothing_edits_nothing(seated_table: Table) -> None:
    """The card is edited only when the roll changed it: no "message is not modified" from Telegram."""
    seated_table.force_dice(2, 3)
    await seated_table.say("bob", "/roll")  # seats the first dealer: the card changes
    seated_table.force_dice(1, 4)
    turn = await seated_table.say("bob", "/roll")  # same hand, no double: nothing to change
    assert turn.of("editMessageText") == [] and turn.failed == []


async def test_baozi_and_diling_not_stacked_say_x2_once_and_why(seated_table: Table) -> None:
    await seated_table.say("ann", "/draw")  # 荒庄: the next hand is 滴零
    await seated_table.press("bob", "✅ 确认")
    seated_table.force_dice(3, 3)  # and a double: 豹子 too
    await seated_table.say("bob", "/roll")
    assert "本局豹子、滴零（×2）" in seated_table.pinned().text
    turn = await seated_table.say("bob", "/hu 南 自摸 5花 清一色")
    lines = turn.text.splitlines()
    assert "  豹子、滴零 ×2（不叠加，只翻一次）" in lines
    assert not any(line.strip().startswith(("豹子 ×", "滴零 ×", "合计 ×")) for line in lines)


async def test_seven_pairs_show_the_typed_flowers_doubled(seated_table: Table) -> None:
    turn = await seated_table.say("bob", "/hu 南 自摸 2花 七对")
    assert "  硬花 4（2×2，七对翻倍）" in turn.text.splitlines()


async def test_a_discard_win_preview_names_who_dealt_in_then_who_won(seated_table: Table) -> None:
    turn = await seated_table.say("cat", "/hu 西 冲 东 8花")
    assert turn.text.splitlines()[1] == "东 Ann 放冲，西 Cat 胡 · 13花"


async def test_confirming_an_undo_says_undone(seated_table: Table) -> None:
    await seated_table.say("bob", "/hu 南 自摸 5花")
    await seated_table.press("bob", "✅ 确认")
    await seated_table.say("bob", "/undo")
    turn = await seated_table.press("ann", "撤销")
    assert "已撤销" in turn.answers and "已记入" not in turn.answers


async def test_calc_with_two_winners_gives_each_its_flowers_and_no_total(table: Table) -> None:
    turn = await table.say("ann", "/calc 东 8花 西 清一色 冲 北")
    assert "合计" not in turn.text and "0花" not in turn.text
    assert turn.text.splitlines()[-1].startswith("每花 1：")


async def test_ting_with_a_wrong_count_asks_for_thirteen_tiles_and_shows_thirteen(table: Table) -> None:
    turn = await table.say("ann", "/ting 11223355778899p")
    assert "听牌要写13张" in turn.text and "含胡的那张" not in turn.text
    assert "/ting 1112345678999m" in turn.text


async def test_rules_say_the_time_zone_as_people_do(seated_table: Table) -> None:
    turn = await seated_table.say("ann", "/rules")
    assert "时区：北京时间" in turn.text and "Asia/" not in turn.text
