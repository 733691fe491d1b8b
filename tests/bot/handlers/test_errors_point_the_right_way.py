"""Bad input told what is actually wrong, with an example, and nothing recorded: a stake that is no number,
tiles without their suit, a /dealer word that is no seat, /calc without a winner, a flower as the 混子,
天胡 at a table whose rules do not score it."""

from __future__ import annotations

import pytest
from harness import PLAYERS, Table, ledger

from bot.ledger.play import groups


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("/newgame 苏州 abc", "每花多少要写正整数，“abc”不行"),
        ("/newgame 宿州 abc", "底分要写正整数，“abc”不行"),
        ("/newgame abc", "不认识的规则“abc”"),
        ("/newgame 宿州 苏州", "参数太多：“苏州”"),
    ],
)
async def test_newgame_names_the_word_that_is_wrong(table: Table, typed: str, said: str) -> None:
    reply = (await table.say("ann", typed)).text
    assert said in reply, reply
    assert groups.chat_state(ledger(table), table.chat_id).session is None


async def test_hand_and_dealer_words_are_told_what_they_lack(seated_table: Table) -> None:
    table = seated_table
    reply = (await table.say("ann", "/hu 南 自摸 11223355778899")).text
    assert "少了花色" in reply and "例如 11223355778899p" in reply and "不是花数" not in reply, reply
    reply = (await table.say("ann", "/calc 5花 清一色")).text
    assert "例如 /calc 南 自摸 5花 清一色" in reply and "/hu" not in reply.splitlines()[0], reply
    session = groups.chat_state(ledger(table), table.chat_id).session
    assert session is not None and session.hands_played == 0


async def test_dealer_and_wild_words_at_a_suzhou_anhui_table(table: Table) -> None:
    await table.say("ann", "/newgame 宿州 2")
    for name in PLAYERS:
        await table.say(name, "/join")
    reply = (await table.say("ann", "/dealer 中")).text
    assert "“中”不是座位" in reply and "/dealer 东" in reply and "找不到玩家" not in reply, reply
    await table.say("ann", "/dealer 东")
    reply = (await table.say("ann", "/hu 南 自摸 5花 混子 中")).text
    assert "“中”是花牌，不能当混子" in reply, reply
    for who in ("南", "东"):  # a 闲 and the dealer hear the same: 宿州 does not score 天胡
        reply = (await table.say("ann", f"/hu {who} 自摸 天胡 5花")).text
        assert "天胡 在宿州麻将里不算" in reply and "庄家" not in reply, reply
    session = groups.chat_state(ledger(table), table.chat_id).session
    assert session is not None and session.hands_played == 0


async def test_a_guest_at_a_full_table_hears_it_is_full_before_any_question(seated_table: Table) -> None:
    turn = await seated_table.say("ann", "/join 老李")
    assert turn.text == "四个座位都满了。" and not turn.sent[-1].buttons, turn.text


async def test_seating_the_fourth_after_the_dealer_is_chosen_drops_the_dealer_hint(table: Table) -> None:
    await table.say("ann", "/newgame 苏州 1")
    for name in ("ann", "bob", "cat"):
        await table.say(name, "/join")
    await table.say("ann", "/dealer 东")
    pressed = await table.seat_guest("ann", "/join 老李")
    assert "四人到齐，用 /hu 记账。" in pressed.text and "/dealer" not in pressed.text, pressed.text
