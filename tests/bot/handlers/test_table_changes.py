"""/end asks before it ends (Confirm button, its own chat, a seated player or an admin); /sub seats a
substitute from the next hand on, and the card, /score and the summary show both under the seat."""

from __future__ import annotations

from typing import Any

import pytest
from harness import Table, ledger

from bot.ledger.play import groups

END, KEEP = "✅ 结束并结算", "继续打"


def session(table: Table) -> Any:
    return groups.chat_state(ledger(table), table.chat_id).session


async def test_keep_playing_leaves_the_session_open(seated_table: Table) -> None:
    shown = (await seated_table.say("ann", "/end")).sent[0]
    await seated_table.press("bob", KEEP)
    assert session(seated_table) is not None
    assert seated_table.message(shown.message_id).text.endswith("Bob：继续打。")
    assert seated_table.message(shown.message_id).buttons == ()


async def test_an_old_end_question_no_longer_ends_anything(seated_table: Table) -> None:
    old = (await seated_table.say("ann", "/end")).sent[0]
    await seated_table.press("ann", END)
    await seated_table.say("ann", "/newgame")
    turn = (
        await seated_table.press("ann", END, message_id=old.message_id)
        if seated_table.buttons(old.message_id)
        else None
    )
    assert turn is None  # its buttons are gone
    assert session(seated_table) is not None


@pytest.mark.slow
async def test_end_needs_a_writer_and_no_words(seated_table: Table) -> None:
    turn = await seated_table.say("eve", "/end")
    assert turn.text == "只有入座的玩家或群管理员可以这样做。"
    turn = await seated_table.say("ann", "/end now")
    assert "用法：/end" in turn.text


async def test_a_substitute_plays_on_and_both_show_under_the_seat(seated_table: Table) -> None:
    await seated_table.say("ann", "/rules instant on")
    await seated_table.say("ann", "/hu 南 自摸 5花")  # dan (N) pays 10
    turn = await seated_table.seat_guest("ann", "/sub 北 老王")
    assert turn.texts[0] == (
        "北位：Dan 离开，客人 老王 从下一局起接着打（本群不认识叫这个名字的成员，按客人记；"
        "若是群里的人，请他自己发 /sub 北）。各人的分数分开记。"
    )
    await seated_table.say("ann", "/hu 北 自摸 5花")  # 老王 (N) wins 30
    card = seated_table.pinned()
    # The seat line is 老王's own +30; the seat's total (+20) is labelled as the seat's.
    assert card is not None and "北 老王 🀄庄  +30" in card.text
    assert "  北位先后：Dan −10、老王 +30 · 座位合计 +20" in card.text
    score = (await seated_table.say("eve", "/score")).text
    assert "北 Dan −10\n北 老王 +30" in score
    await seated_table.say("ann", "/end")
    turn = await seated_table.press("ann", END)
    summary = turn.texts[0]
    assert "北 Dan −10" in summary and "北 老王 +30" in summary


async def test_sub_refusals(seated_table: Table) -> None:
    turn = await seated_table.say("ann", "/sub")
    assert "用法：/sub" in turn.text
    turn = await seated_table.say("ann", "/sub 中 老王")
    assert "不认识的座位" in turn.text
    turn = await seated_table.say("ann", "/sub 北 @nobody")
    assert turn.text == "本群还不认识 @nobody：请他自己发 /sub 座位，或写客人名字。"
    refused = "只有入座的玩家或群管理员可以换人。要接北位，请桌上的人发 /sub 北 @你的用户名。"
    turn = await seated_table.say("eve", "/sub 北 老王")
    assert turn.text == refused
    turn = await seated_table.say("eve", "/sub 北")  # a bystander cannot sit down in Dan's seat alone
    assert turn.text == refused
    assert session(seated_table).seats["N"].username == "dan"
    turn = await seated_table.say("dan", "/sub 北 @eve")  # someone at the table seats her
    assert turn.texts[0] == "北位：Dan 离开，Eve 从下一局起接着打。各人的分数分开记。"
    assert session(seated_table).seats["N"].username == "eve"
