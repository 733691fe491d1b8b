"""Commands as people type them: a full-width slash, a near miss, a name that never played."""

from __future__ import annotations

from harness import Table

from bot.handlers.errors import nearest_command


async def test_full_width_slash_works_like_the_ascii_one(seated_table: Table) -> None:
    turn = await seated_table.say("bob", "／hu 南 自摸 5花 清一色")
    assert turn.text.startswith("📝 预览 · 第1局\n南 Bob 自摸 · 20花")
    turn = await seated_table.say("ann", "／score")
    assert turn.text.startswith("本场积分")


async def test_full_width_slash_for_another_bot_is_left_alone(seated_table: Table) -> None:
    turn = await seated_table.say("bob", "／hu@someotherbot 南 自摸 5花")
    assert turn.sent == []


async def test_a_mistyped_command_suggests_the_nearest(seated_table: Table) -> None:
    turn = await seated_table.say("bob", "/huu 南 自摸 5花")
    assert turn.text == "没有 /huu 这个命令。是不是 /hu？发 /help 看所有命令。"
    turn = await seated_table.say("bob", "／stat")
    assert "是不是 /stats？" in turn.text
    turn = await seated_table.say("bob", "/zzzzzz")
    assert turn.text == "没有 /zzzzzz 这个命令。发 /help 看所有命令。"


def test_nearest_command() -> None:
    names = ["hu", "help", "history", "stats", "score", "schedule", "newgame"]
    assert nearest_command("huu", names) == "hu"
    assert nearest_command("newgmae", names) == "newgame"
    assert nearest_command("xyzzy", names) is None


async def test_stats_and_score_of_someone_who_never_played(seated_table: Table) -> None:
    turn = await seated_table.say("ann", "/stats 路人甲")
    assert turn.text == "路人甲 在本群还没有打过牌，没有记录。"
    turn = await seated_table.say("ann", "/score 路人甲")
    assert turn.text == "路人甲 在本群还没有打过牌，没有记录。"


async def test_stats_of_a_seated_player_without_hands(seated_table: Table) -> None:
    turn = await seated_table.say("ann", "/stats Bob")
    assert turn.text == "Bob 在本群还没有打过牌，没有记录。"
    await seated_table.say("bob", "/hu 南 自摸 5花 清一色")
    await seated_table.press("cat", "✅ 确认")
    turn = await seated_table.say("ann", "/score Bob")
    assert turn.text == "Bob：本场积分 +60，已结束各场实付 0"
    turn = await seated_table.say("ann", "/stats Bob")
    assert turn.text.startswith("Bob 的统计：")
