"""People are people (issue 30, problem 3): a name the group knows no member by seats a guest only after
the bot says so and offers the choice, [按客人 Eve 入座] [取消], for whoever typed the command or an admin;
the press acts once, in its own chat, at its own table. Through the real Application, on SQLite and
PostgreSQL; each person's money by hand."""

from __future__ import annotations

import pytest
from harness import END, Table, ledger, money

from bot.buttons import GuestPress, SeatWhoPress
from bot.ledger.money import settling
from bot.ledger.play import groups

SEAT_EVE = "按客人 Eve 入座"
NOT_YOURS = "只有发这条命令的人或群管理员可以回答。"
FOREIGN = "这个按钮不属于这个群。"
OTHER_GROUP = -1001000000002


def seated(table: Table) -> dict[str, tuple[str, bool]]:
    """Each seat's sitter now: (name, is a guest)."""
    session = groups.chat_state(ledger(table), table.chat_id).session
    return {seat: (p.name, p.is_guest) for seat, p in session.seats.items()}


async def test_sub_asks_before_it_seats_a_guest_and_the_press_seats_her_once(db_seated: Table) -> None:
    """`/sub 西 Eve` (no member called Eve: she only watches and never wrote to the bot) asks; nothing
    changes until the asker presses. Bob (seated, but not the asker) cannot answer; Ann's
    press seats the guest Eve at 西 from hand 2 on, and a second press seats no one again.
    Hand 1: Ann (东, dealer) self-draws 5 花, T = 10: Ann +30, Bob −10, Cat −10, Dan −10.
    Hand 2: 西 (the guest Eve) self-draws 4 花, T = 9: Eve +27, Ann −9, Bob −9, Dan −9.
    By hand: Ann +21, Bob −19, Cat −10, Dan −19, Eve +27 (sum 0)."""
    table = db_seated
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/hu 东 自摸 5花")
    asked = await table.say("ann", "/sub 西 Eve")
    assert asked.texts == ["本群不认识叫“Eve”的成员。按客人 Eve 接西位吗？若是群里的人，请他自己发 /sub 西。"]
    question = asked.sent[0]
    assert question.buttons == (SEAT_EVE, "取消")
    assert seated(table)["W"] == ("Cat", False)  # asked, not seated
    turn = await table.press("bob", SEAT_EVE)
    assert turn.answers == [NOT_YOURS]
    assert not turn.of("sendMessage", "editMessageText")
    assert seated(table)["W"] == ("Cat", False)
    data = GuestPress.parse(question.raw["reply_markup"]["inline_keyboard"][0][0]["callback_data"])
    assert data is not None and data.name == "Eve" and data.seat == "W"
    # a double tap: both presses leave the phone before the first is answered
    first = table.state.press(table.chat_id, "ann", question.message_id, SEAT_EVE)
    second = table.state.press(table.chat_id, "ann", question.message_id, SEAT_EVE)
    turn = await table._run(first)
    assert turn.edits[0].text.endswith("\nAnn 选了：按客人入座。") and turn.edits[0].buttons == ()
    assert turn.texts[0].startswith("西位：Cat 离开，客人 Eve 从下一局起接着打")
    assert seated(table)["W"] == ("Eve", True)
    twice = await table._run(second)
    assert twice.answers and twice.answers[0] == "Eve 已经坐在西位。", twice.answers
    assert not twice.of("sendMessage")
    assert seated(table) == {
        "E": ("Ann", False),
        "S": ("Bob", False),
        "W": ("Eve", True),
        "N": ("Dan", False),
    }
    await table.say("ann", "/hu 西 自摸 4花")
    await table.say("ann", "/end")
    await table.press("ann", END)
    assert money(table) == {"Ann": 21, "Bob": -19, "Cat": -10, "Dan": -19, "Eve": 27}


async def test_join_asks_and_cancel_seats_no_one_and_an_admin_may_answer(db_table: Table) -> None:
    """In the lobby `/join Eve` asks; Ann's 取消 seats no one (the question says who cancelled). Asked
    again, an admin (Zoe, who created the group) answers for Ann: the guest Eve sits at 东, and a guest
    the group has had since is seated by name at once (she is known now)."""
    table = db_table
    await table.say("ann", "/newgame 苏州 1")
    asked = await table.say("ann", "/join Eve")
    assert asked.texts == ["本群不认识叫“Eve”的成员。按客人 Eve 入座吗？若是群里的人，请他自己发 /join。"]
    turn = await table.press("ann", "取消")
    assert turn.edits[0].text.endswith("\nAnn 取消了，没有人入座。") and turn.edits[0].buttons == ()
    assert seated(table) == {}
    await table.say("ann", "/join Eve")
    turn = await table.press("zoe", SEAT_EVE)
    assert turn.edits[0].text.endswith("\nZoe 选了：按客人入座。")
    assert turn.texts[0] == "客人 Eve 入座东。"
    assert seated(table) == {"E": ("Eve", True)}
    await table.say("ann", "/join")
    await table.say("ann", "/end")
    await table.press("ann", END)
    await table.say("ann", "/newgame 苏州 1")
    turn = await table.say("ann", "/join Eve")  # the group's guest Eve: no question
    assert turn.texts[0] == "客人 Eve 入座东。"


async def test_the_member_showing_up_before_the_press_is_no_guest(db_seated: Table) -> None:
    """Asked about Eve, the real Eve writes to the bot before Ann presses: the press seats no guest Eve
    beside her (she sends /sub 西 herself), and 西 is still Cat's."""
    table = db_seated
    await table.say("ann", "/sub 西 Eve")
    await table.say("eve", "/score")
    turn = await table.press("ann", SEAT_EVE)
    assert turn.answers == ["这桌已经有人叫“Eve”了，客人换个名字吧。例如：/join Eve2"]
    assert seated(table)["W"] == ("Cat", False)
    turn = await table.say("eve", "/sub 西")
    assert turn.texts[0] == "只有入座的玩家或群管理员可以换人。要接西位，请桌上的人发 /sub 西 @你的用户名。"
    turn = await table.say("ann", "/sub 西 Eve")  # the member now: seated as herself, no question
    assert turn.texts[0] == "西位：Cat 离开，Eve 从下一局起接着打。各人的分数分开记。"
    assert seated(table)["W"] == ("Eve", False)


async def test_one_who_only_chatted_is_a_member_and_sits_as_herself(db_seated: Table) -> None:
    """The bot sees the group's chat (privacy mode off, or as an admin: README): Eve, who only chatted
    and never sent a command, is a member it knows, so `/sub 西 Eve` seats her account without a
    question, and the chat message itself got no answer. Hand: Eve (西) self-draws 4 花, T = 9:
    Eve +27, Ann/Bob/Dan −9 each."""
    table = db_seated
    await table.say("ann", "/rules instant on")
    chatted = await table.say("eve", "我今晚也来打两圈")
    assert not chatted.sent
    turn = await table.say("ann", "/sub 西 Eve")
    assert turn.texts[0] == "西位：Cat 离开，Eve 从下一局起接着打。各人的分数分开记。"
    assert seated(table)["W"] == ("Eve", False)
    await table.say("ann", "/hu 西 自摸 4花")
    await table.say("ann", "/end")
    await table.press("ann", END)
    assert money(table) == {"Eve": 27, "Ann": -9, "Bob": -9, "Dan": -9}


async def test_a_member_by_name_is_seated_as_herself_without_a_question(db_seated: Table) -> None:
    """Once Eve has written to the bot she is a member it knows: `/sub 西 Eve` seats her account."""
    table = db_seated
    await table.say("eve", "/score")
    turn = await table.say("ann", "/sub 西 Eve")
    assert turn.texts[0] == "西位：Cat 离开，Eve 从下一局起接着打。各人的分数分开记。"
    assert not turn.sent[0].buttons
    assert seated(table)["W"] == ("Eve", False)


async def test_the_question_refuses_first_what_no_guest_may_be_called(seated_table: Table) -> None:
    """No question for a name the ledger would refuse: the 台, too long, an empty seat to take over."""
    table = seated_table
    turn = await table.say("ann", "/sub 北 一二三四五六七八九十一二三四五六七")
    assert "客人名字最多16个字" in turn.text and not turn.sent[0].buttons
    turn = await table.say("ann", "/join 台")
    assert not turn.sent[0].buttons


@pytest.fixture
async def other(seated_table: Table) -> Table:
    """Group B on the same bot, with an open table; eve is an admin there."""
    seated_table.transport.add_group(OTHER_GROUP, "另一桌", creator="zoe")
    group = Table(seated_table.app, seated_table.transport, OTHER_GROUP)
    group.set_admins("eve")
    await group.say("eve", "/newgame")
    return group


async def test_a_guest_press_of_another_group_changes_nothing(seated_table: Table, other: Table) -> None:
    """A's question pressed in B (its data forged under B's lobby): refused, no one seated anywhere."""
    await seated_table.say("ann", "/sub 西 Eve")
    _message_id, button = seated_table.state.find_button(seated_table.chat_id, SEAT_EVE)
    update = other.state.press(other.chat_id, "eve", None, "入座")
    update["callback_query"]["data"] = button["callback_data"]
    turn = await other._run(update)
    assert turn.answers == [FOREIGN]
    assert not turn.of("sendMessage", "editMessageText")
    assert (
        seated(seated_table)["W"] == ("Cat", False)
        and groups.chat_state(ledger(other), OTHER_GROUP).session.seats == {}
    )


async def test_a_press_naming_another_groups_player_changes_nothing(
    seated_table: Table, other: Table
) -> None:
    """A "which one?" press forged to seat a player of group B at A's table: refused, no one seated."""
    table = seated_table
    await other.seat_guest("eve", "/join 小王")
    guest = groups.chat_state(ledger(other), OTHER_GROUP).session.seats["E"]
    session = groups.chat_state(ledger(table), table.chat_id).session
    forged = SeatWhoPress(session.id, 1001, guest.id, "W").data
    await table.say("ann", "/sub 西 Eve")  # a question with buttons to press under
    update = table.state.press(table.chat_id, "ann", None, SEAT_EVE)
    update["callback_query"]["data"] = forged
    update["callback_query"]["message"]["reply_markup"] = {
        "inline_keyboard": [[{"text": "小王", "callback_data": forged}]]
    }
    turn = await table._run(update)
    assert turn.answers == [FOREIGN]
    assert seated(table)["W"] == ("Cat", False)


def test_guest_press_data_reads_back_and_rejects_the_rest() -> None:
    for press in (GuestPress(7, 1001, "Eve", "W"), GuestPress(7, 1001, "小王"), GuestPress(7, 1001, None)):
        assert GuestPress.parse(press.data) == press and press.fits
    assert not GuestPress(7, 1001, "😀" * 16, "W").fits  # 4-byte characters past Telegram's 64 bytes
    for who in (SeatWhoPress(7, 1001, 3, "W"), SeatWhoPress(7, 0, 3)):
        assert SeatWhoPress.parse(who.data) == who
    assert SeatWhoPress.parse("gw:7:W:rt:0") is None and GuestPress.parse("gw:7:W:rt:3") is None
    for data in ("g:0:W:rt:Eve", "g:7:X:rt:Eve", "g:7:W:rt:E ve", "gx:7:rt:Eve", "g:7:W::Eve", 7, None):
        assert GuestPress.parse(data) is None, data


async def test_a_name_several_people_share_is_asked_with_a_button_each(db_table: Table) -> None:
    """Night one: the guest Fay (seated on a press) sits at 北 and self-draws 5 花, T = 10: Fay +30,
    Ann/Bob/Cat −10 each. Then a member called Fay (no @username) writes. Night two: `/sub 西 Fay` asks
    which Fay, a button per person (Fay（1）the guest, Fay（2）the member); Bob (not the asker) cannot
    answer; Ann's press seats the member Fay at 西, once. Hand: 西 self-draws 4 花, T = 9: the member
    Fay +27, Ann/Bob/Dan −9. Night three: `/join Fay` asks again; the member is pressed and sits at 东."""
    table = db_table
    await table.say("ann", "/newgame 苏州 1")
    for name in ("ann", "bob", "cat"):
        await table.say(name, "/join")
    await table.seat_guest("ann", "/join Fay")
    await table.say("ann", "/dealer 东")
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/hu 北 自摸 5花")
    await table.say("ann", "/end")
    await table.press("ann", END)
    table.transport.add_user("fay", user_id=1040, first_name="Fay")
    table.user("fay").pop("username", None)
    await table.say("fay", "/help")  # the member Fay is known now
    await table.say("ann", "/newgame 苏州 1")
    for name in ("ann", "bob", "cat", "dan"):
        await table.say(name, "/join")
    await table.say("ann", "/dealer 东")
    asked = await table.say("ann", "/sub 西 Fay")
    assert asked.texts == ["“Fay”能指好几位：让哪一位入座？点名字。"]
    assert asked.sent[0].buttons == ("Fay（1）", "Fay（2）")
    turn = await table.press("bob", "Fay（2）")
    assert turn.answers == [NOT_YOURS] and seated(table)["W"] == ("Cat", False)
    first = table.state.press(table.chat_id, "ann", asked.sent[0].message_id, "Fay（2）")
    second = table.state.press(table.chat_id, "ann", asked.sent[0].message_id, "Fay（2）")
    turn = await table._run(first)
    assert turn.edits[0].text.endswith("\nAnn 选了：Fay。") and turn.edits[0].buttons == ()
    assert turn.texts[0] == "西位：Cat 离开，Fay 从下一局起接着打。各人的分数分开记。"
    twice = await table._run(second)
    assert twice.answers[0] == "Fay 已经坐在西位。" and not twice.of("sendMessage")
    session = groups.chat_state(ledger(table), table.chat_id).session
    assert session.seats["W"].telegram_id == 1040
    turn = await table.say("ann", "/hu 西 自摸 4花")
    assert turn.texts[0].startswith("第1局 西 自摸"), turn.texts
    await table.say("ann", "/end")
    await table.press("ann", END)
    totals = ledger(table).read(settling.balance, table.chat_id).totals
    ids = {p.telegram_id: p.id for p in session.seats.values()}
    assert totals[ids[1040]] == 27 and totals[ids[1001]] == -19  # Ann: −10 on night one, −9 now
    await table.say("ann", "/newgame 苏州 1")
    await table.say("ann", "/join Fay")
    turn = await table.press("ann", "Fay（2）")
    assert turn.texts[0] == "Fay 入座东。"
    assert seated(table) == {"E": ("Fay", False)}
