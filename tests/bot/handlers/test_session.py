"""Table sessions through the real bot: /newgame, Join button, /join, /seat, /dealer, /roll, /end, pinning."""

from __future__ import annotations

from typing import Any

import pytest
from harness import GROUP_ID, PLAYERS, Table, ledger

from bot.ledger.play import groups


def session(table: Table) -> Any:
    return groups.chat_state(ledger(table), table.chat_id).session


async def test_newgame_posts_a_pinned_lobby_with_a_join_button(table: Table) -> None:
    turn = await table.say("ann", "/newgame 苏州 5")
    assert turn.texts == [
        "🀄 新开一场：苏州麻将，每花 5\n东 （空）\n南 （空）\n西 （空）\n北 （空）\n点“入座”或发 /join 入座。"
    ]
    assert turn.sent[0].buttons == ("入座",)
    assert table.pins() == [turn.sent[0].message_id]
    current = session(table)
    assert (current.rules, current.stake) == ("suzhou", 5)


async def test_newgame_takes_rules_and_stake_in_any_order(table: Table) -> None:
    await table.say("ann", "/newgame 10 宿州")
    assert (session(table).rules, session(table).stake) == ("suzhou-anhui", 10)


async def test_only_one_open_session_per_group(table: Table) -> None:
    await table.say("ann", "/newgame")
    turn = await table.say("bob", "/newgame 宿州 3")
    assert "已经有一场在打" in turn.text
    assert session(table).rules == "suzhou"


async def test_bad_newgame_arguments_say_what_is_wrong_and_open_nothing(table: Table) -> None:
    turn = await table.say("ann", "/newgame 北京 5")
    assert "不认识的规则“北京”" in turn.text
    turn = await table.say("ann", "/newgame 苏州 0")
    assert "每花多少要写正整数，“0”不行" in turn.text
    turn = await table.say("ann", "/newgame 苏州 5x")
    assert "“5x”" in turn.text
    assert session(table) is None


async def test_join_button_seats_the_presser_and_edits_the_lobby(table: Table) -> None:
    lobby = (await table.say("ann", "/newgame")).sent[0]
    turn = await table.press("bob", "入座")
    assert turn.answers == ["Bob 入座东。"]
    assert "Bob 入座东。" in turn.text
    assert "东 Bob" in table.message(lobby.message_id).text
    for name in ("ann", "cat", "dan"):
        await table.press(name, "入座")
    card = table.message(lobby.message_id)
    assert card.buttons == ()
    assert "北 Dan" in card.text
    assert "四人到齐" in table.last_text() or "四人到齐" in "\n".join(r.text for r in table.replies()[-3:])


async def test_join_in_order_then_table_full(seated_table: Table) -> None:
    seats = {seat: p.name for seat, p in session(seated_table).seats.items()}
    assert seats == {"E": "Ann", "S": "Bob", "W": "Cat", "N": "Dan"}
    turn = await seated_table.say("eve", "/join")
    assert turn.text == "四个座位都满了。"


async def test_join_twice_is_refused(table: Table) -> None:
    await table.say("ann", "/newgame")
    await table.say("ann", "/join")
    turn = await table.say("ann", "/join")
    assert turn.text == "Ann 已经坐在东位。"


async def test_join_with_a_name_seats_a_guest(table: Table) -> None:
    await table.say("ann", "/newgame")
    await table.say("ann", "/join")
    asked = await table.say("ann", "/join 老王")  # no member called 老王: asked first
    assert asked.texts == ["本群不认识叫“老王”的成员。按客人 老王 入座吗？若是群里的人，请他自己发 /join。"]
    assert "S" not in session(table).seats
    turn = await table.press("ann", "按客人 老王 入座")
    assert "客人 老王 入座南。" in turn.text
    guest = session(table).seats["S"]
    assert guest.is_guest and guest.name == "老王"


async def test_guest_names_are_not_usernames(table: Table) -> None:
    await table.say("ann", "/newgame")
    turn = await table.say("ann", "/join @bob")
    assert "客人名字不要带 @" in turn.text


async def test_join_without_a_session(table: Table) -> None:
    turn = await table.say("ann", "/join")
    assert turn.text == "本群现在没有在打的牌。先开一场，例如：/newgame 苏州 5"


async def test_seat_shows_the_table(undealt_table: Table) -> None:
    turn = await undealt_table.say("eve", "/seat")
    assert turn.text.splitlines()[:5] == ["座位 · 苏州麻将 · 每花 1", "东 Ann", "南 Bob", "西 Cat", "北 Dan"]
    assert "第1局 · 还没定庄" in turn.text
    assert turn.text.splitlines()[-2:] == ["选项（和默认不同的；全部见 /rules）：", "  都是默认"]
    await undealt_table.say("ann", "/rules threshold 2/3")
    turn = await undealt_table.say("eve", "/seat")  # only what differs from the default, not every option
    assert (
        turn.text.splitlines()[-1].startswith("  起胡门槛：")
        and "  起胡门槛：自摸要3张硬花，冲胡要4张" not in turn.text
    )


async def test_seat_moves_a_player_before_the_first_hand_only(seated_table: Table) -> None:
    turn = await seated_table.say("ann", "/seat @dan 东")
    assert turn.texts[0] == "Dan 换到东位，Ann 换到北位。"  # both who moved are said
    seats = {seat: p.name for seat, p in session(seated_table).seats.items()}
    assert seats["E"] == "Dan" and seats["N"] == "Ann"
    await seated_table.say("ann", "/rules instant on")
    await seated_table.say("ann", "/draw")
    turn = await seated_table.say("ann", "/seat @dan 南")
    assert "不能再改" in turn.text


async def test_seat_move_needs_a_seat_word(seated_table: Table) -> None:
    turn = await seated_table.say("ann", "/seat @dan 中")
    assert "不认识的座位“中”" in turn.text and "用法：/seat" in turn.text


async def test_dealer_is_set_by_seated_players_or_admins(seated_table: Table) -> None:
    turn = await seated_table.say("eve", "/dealer 南")
    assert turn.text == "只有入座的玩家或群管理员可以这样做。"
    turn = await seated_table.say("zoe", "/dealer 南")  # zoe created the group
    assert turn.texts[0] == "首局庄家：南（Bob）。"
    assert session(seated_table).state.dealer == "S"
    turn = await seated_table.say("ann", "/dealer @cat")
    assert session(seated_table).state.dealer == "W"


async def test_dealer_needs_one_argument(seated_table: Table) -> None:
    turn = await seated_table.say("ann", "/dealer")
    assert turn.text == "缺少参数。\n用法：/dealer 座位，例如 /dealer 东"


async def test_roll_sends_two_dice_and_seats_the_first_dealer(undealt_table: Table) -> None:
    undealt_table.force_dice(2, 3)
    turn = await undealt_table.say("bob", "/roll")
    assert [r.dice for r in turn.sent if r.kind == "dice"] == [2, 3]
    assert "骰子 2 + 3 = 5。" in turn.text
    assert "首局庄家：东（Ann）。" in turn.text  # 5 counts round to 东 again
    state = session(undealt_table).state
    assert (state.dealer, state.baozi) == ("E", False)


async def test_roll_double_marks_baozi_for_the_hand(undealt_table: Table) -> None:
    undealt_table.force_dice(3, 3)
    turn = await undealt_table.say("bob", "/roll")
    assert "豹子！" in turn.text
    current = session(undealt_table)
    assert current.state.dealer == "S" and current.state.baozi
    assert "豹子" in undealt_table.pinned().text


@pytest.mark.slow
async def test_roll_by_an_onlooker_is_refused(seated_table: Table) -> None:
    turn = await seated_table.say("eve", "/roll")
    assert turn.text == "只有入座的玩家或群管理员可以这样做。"
    assert not turn.of("sendDice")


async def test_cannot_pin_is_said_once(table: Table) -> None:
    table.set_can_pin(False)
    turn = await table.say("ann", "/newgame")
    assert "我没有置顶消息的权限" in turn.text
    turn = await table.say("ann", "/join")
    assert "置顶" not in turn.text
    assert "东 Ann" in table.replies()[0].text  # the card still goes on being edited


@pytest.mark.slow
async def test_end_asks_then_posts_the_summary_and_closes_the_card(seated_table: Table) -> None:
    await seated_table.say("ann", "/rules instant on")
    await seated_table.say("ann", "/hu 南 自摸 5花 清一色")
    turn = await seated_table.say("bob", "/end")
    assert turn.texts == ["结束第1场（已打1局）？本场积分：\n东 Ann −20\n南 Bob +60\n西 Cat −20\n北 Dan −20"]
    assert turn.sent[0].buttons == ("✅ 结束并结算", "继续打")
    assert session(seated_table) is not None  # nothing ends before the Confirm
    turn = await seated_table.press("eve", "✅ 结束并结算")  # an onlooker may not end it
    assert turn.answers == ["只有入座的玩家或群管理员可以这样做。"] and session(seated_table) is not None
    turn = await seated_table.press("cat", "✅ 结束并结算")
    assert session(seated_table) is None
    assert turn.edits[0].text.endswith("✅ Cat 确认结束。") and turn.edits[0].buttons == ()
    assert turn.of("sendPhoto") and turn.of("sendDocument")
    assert "这一场结束了。" in seated_table.message(seated_table.replies()[0].message_id).text
    assert seated_table.pins() == []  # the ended session's card is unpinned


async def test_commands_in_a_private_chat_point_to_the_group(table: Table) -> None:
    from bot.console.driver import deliver

    update = {
        "update_id": 99999,
        "message": {
            "message_id": 1,
            "date": 0,
            "chat": {"id": PLAYERS["ann"], "type": "private", "first_name": "Ann"},
            "from": {"id": PLAYERS["ann"], "is_bot": False, "first_name": "Ann"},
            "text": "/newgame",
            "entities": [{"type": "bot_command", "offset": 0, "length": 8}],
        },
    }
    await deliver(table.app, update)
    sent = [c for c in table.calls("sendMessage") if c.params.get("chat_id") == PLAYERS["ann"]]
    assert sent and sent[-1].params["text"] == "请在群里使用这个命令。"
    assert groups.chat_state(ledger(table), GROUP_ID).session is None


async def test_each_session_keeps_its_own_card_in_the_ledger(table: Table) -> None:
    """The card's message id is a column of the session: a new session posts and pins its own card, the
    ended one's card is unpinned."""
    await table.say("ann", "/newgame")
    first = session(table)
    assert first.card_message_id == table.pins()[-1]
    await table.say("ann", "/join")
    await table.say("ann", "/end")
    await table.press("ann", "✅ 结束并结算")
    await table.say("ann", "/newgame")
    second = session(table)
    assert second.card_message_id == table.pins()[-1] != first.card_message_id
    assert first.card_message_id not in table.pins()
