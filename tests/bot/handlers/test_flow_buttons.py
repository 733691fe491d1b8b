"""The /hu button flow records every kind of win, and exactly what the same hand typed in words records:
per way of winning, the flow's entry == `bot.grammar.parse_hu` of the equivalent text, and the two
hands stored through the bot carry the same entry. Back and Cancel at every step, one open flow per
table, only its starter (or an admin) presses it, every state fits Telegram's 64 bytes."""

from __future__ import annotations

from typing import Any

import pytest
from harness import PLAYERS, Table, ledger

from bot.buttons import HUA_CHOICES, MAX_SOFT, PATTERN_BITS, HuFlow, Win
from bot.grammar import parse_hu
from bot.handlers.turn import seat_resolver
from bot.ledger.play import books, groups

CONFIRM = "✅ 确认"


def hands(table: Table) -> list[Any]:
    return ledger(table).read(books.hands, groups.chat_state(ledger(table), table.chat_id).session.id)


async def walk(table: Table, labels: list[str], by: str = "bob") -> int:
    """`/hu` alone, then each label pressed on the flow message; its message id."""
    flow = (await table.say(by, "/hu")).sent[0]
    for label in labels:
        assert label in table.buttons(flow.message_id), (label, table.message(flow.message_id))
        await table.press(by, label, message_id=flow.message_id)
    return flow.message_id


WAYS = [
    # (name, presses, the same hand in words)
    ("self_draw", ["南 Bob", "自摸", "5", "完成"], "南 自摸 5花"),
    (
        "discard",
        ["南 Bob", "放冲", "西 Cat", "8", "风碰 +1", "牌型 ▸", "清一色", "完成"],
        "南 冲 西 8花 1软 清一色",
    ),
    (
        "multi",
        [
            "东 Ann",
            "一炮多响",
            "西 Cat",
            "下一步 ▸",
            "北 Dan",
            "8",
            "下一位 西 ▸",
            "0",
            "牌型 ▸",
            "清一色",
            "完成",
        ],
        "东 8花 西 清一色 冲 北",
    ),
    ("rob_kong", ["南 Bob", "抢杠", "西 Cat", "3", "完成"], "南 抢杠 西 3花"),
    ("bao", ["南 Bob", "包饺子", "西 Cat", "4", "明杠 +1", "完成"], "南 包 西 4花 1软"),
    (
        "patterns_as_flags",
        ["南 Bob", "自摸", "3", "风暗杠 +4", "牌型 ▸", "对对胡", "杠开", "完成"],
        "南 自摸 3花 4软 对对胡 杠开",
    ),
]


@pytest.mark.parametrize(("name", "presses", "typed"), WAYS, ids=[w[0] for w in WAYS])
async def test_each_way_of_winning_records_what_the_words_record(
    seated_table: Table, name: str, presses: list[str], typed: str
) -> None:
    session = groups.chat_state(ledger(seated_table), seated_table.chat_id).session
    flow = await walk(seated_table, presses)
    assert seated_table.message(flow).text.startswith("📝 预览 · 第1局"), seated_table.message(flow)
    await seated_table.press("cat", CONFIRM, message_id=flow)
    await seated_table.say("bob", f"/hu {typed}")
    await seated_table.press("cat", CONFIRM)
    by_buttons, by_words = hands(seated_table)
    expected = parse_hu(typed, seat_resolver(session))
    assert by_buttons.entry == expected == by_words.entry
    assert by_buttons.text is None and by_words.text == typed


async def test_anhui_flow_offers_its_patterns_shangpai_and_the_wild(table: Table) -> None:
    await table.say("ann", "/newgame 宿州 1")
    for name in PLAYERS:
        await table.say(name, "/join")
    await table.say("ann", "/dealer 东")
    presses = ["东 Ann", "自摸", "3", "暗杠 +4", "牌型 ▸"]
    flow = await walk(table, presses, by="ann")
    offered = table.buttons(flow)
    assert [b.removeprefix("✅ ") for b in offered[:5]] == ["七对", "大吊车", "杠开", "花开", "上牌"]
    assert "清一色" not in offered and "天胡" not in offered and "混子：无 ▸" in offered
    for label in ("七对", "上牌", "混子：无 ▸"):
        await table.press("ann", label, message_id=flow)
    wilds = table.buttons(flow)
    assert "五筒" in wilds and "东" not in wilds  # 东 is 令风 in the 东风圈: a flower, never the wild
    await table.press("ann", "五筒", message_id=flow)
    await table.press("ann", "完成", message_id=flow)
    await table.press("bob", CONFIRM, message_id=flow)
    typed = "东 自摸 3花 4软 七对 上牌 混子 5p"
    await table.say("ann", f"/hu {typed}")
    await table.press("bob", CONFIRM)
    by_buttons, by_words = hands(table)
    session = groups.chat_state(ledger(table), table.chat_id).session
    assert by_buttons.entry == parse_hu(typed, seat_resolver(session)) == by_words.entry
    assert by_buttons.entry["wins"][0]["flags"]["shangpai"] and by_buttons.entry["wins"][0]["wild"] == "5p"


async def test_back_at_every_step_returns_to_the_question_before(seated_table: Table) -> None:
    flow = await walk(seated_table, [])
    texts = [seated_table.message(flow).text]
    assert "◀ 返回" not in seated_table.buttons(flow) and "取消" in seated_table.buttons(flow)
    for label in ["东 Ann", "一炮多响", "西 Cat", "下一步 ▸", "北 Dan", "8", "牌型 ▸"]:
        await seated_table.press("bob", label, message_id=flow)
        if label == "西 Cat":  # a toggle on the same step, not a step of its own
            texts.pop()
        texts.append(seated_table.message(flow).text)
        assert {"◀ 返回", "取消"} <= set(seated_table.buttons(flow)), label
    for shown in reversed(texts[:-1]):
        await seated_table.press("bob", "◀ 返回", message_id=flow)
        assert seated_table.message(flow).text == shown
    assert hands(seated_table) == []


async def test_cancel_at_a_later_step(seated_table: Table) -> None:
    flow = await walk(seated_table, ["南 Bob", "放冲", "西 Cat", "5"])
    await seated_table.press("bob", "取消", message_id=flow)
    assert seated_table.message(flow).text == "已取消。" and seated_table.buttons(flow) == []
    again = (await seated_table.say("bob", "/hu")).sent[0]  # the cancelled flow is closed: a new one
    assert again.text == "谁胡了？"


async def test_a_second_hu_points_at_the_open_flow(seated_table: Table) -> None:
    flow = await walk(seated_table, ["南 Bob"])
    turn = await seated_table.say("cat", "/hu")
    assert turn.texts == ["上面这条按钮记账还开着：请在那里继续，或点“取消”。"]
    assert turn.sent[0].raw["reply_to_message"]["message_id"] == flow
    assert not turn.sent[0].buttons


async def test_only_the_starter_or_an_admin_presses_the_flow(seated_table: Table) -> None:
    flow = await walk(seated_table, ["南 Bob"])
    turn = await seated_table.press("cat", "自摸", message_id=flow)  # seated, but not the starter
    assert turn.answers == ["这次按钮记账是 Bob 开始的，只有本人或群管理员可以点。"]
    assert seated_table.message(flow).text == "南 怎么胡的？"
    turn = await seated_table.press("eve", "自摸", message_id=flow)  # an onlooker
    assert turn.answers == ["只有入座的玩家或群管理员可以这样做。"]
    await seated_table.press("zoe", "自摸", message_id=flow)  # an admin of the group
    assert seated_table.message(flow).text == "南 有几张硬花？"


def test_every_flow_state_fits_in_callback_data_and_reads_back() -> None:
    full = tuple(Win(s, HUA_CHOICES[-1], MAX_SOFT, PATTERN_BITS) for s in "ESW")
    states = [
        HuFlow(123456789012345, "winner"),
        HuFlow(7, "how", winner="S", by="S"),
        HuFlow(7, "more", (Win("E"), Win("W")), "multi"),
        HuFlow(7, "other", (Win("S"),), "rob_kong"),
        HuFlow(7, "hua", (Win("S"),), "bao", "N", by="E"),
        HuFlow(123456789012345, "patterns", full, "multi", "N", 2, "5p", "E"),
        HuFlow(7, "wild", (Win("E", 3, 4, ("qidui", "shangpai")),), "self_draw", wild="1z"),
        HuFlow(7, "done", (Win("W", 3, 0, ("dadiaoche",)),), "discard", "E"),
        HuFlow(7, "cancel", (Win("W"),), "discard"),
        HuFlow(7, "wild_won", (Win("W", 1),), "discard", "N", wild="2p"),
        HuFlow(7, "done", (Win("W", 1),), "discard", "N", wild="2p", won_on_wild=True),
    ]
    for state in states:
        assert len(state.data.encode()) < 64 and HuFlow.parse(state.data) == state, state


def test_the_longest_flow_payload_fits_telegrams_64_bytes() -> None:
    # Telegram's callback_data is 1-64 bytes. The longest state: the largest session id, three winners at
    # the most 花 with every pattern bit, every seat field set, a 混子 and the discard won on it.
    full = tuple(Win(s, HUA_CHOICES[-1], MAX_SOFT, PATTERN_BITS) for s in "ESW")
    longest = HuFlow(10**15 - 1, "done", full, "multi", "N", 2, "9p", "E", won_on_wild=True)
    assert len(longest.data.encode()) == 52 <= 64 and HuFlow.parse(longest.data) == longest


@pytest.mark.parametrize(
    "data",
    [
        "f:7:hS-" + "-0--::",  # the how step without a winner
        "f:7:fSs-0--:SS:00000000000000",  # one seat twice
        "f:7:fSd-0--:S:0000000",  # a discard without its discarder
        "f:7:fSdS0--:S:0000000",  # the winner discarded
        "f:7:fSs-1--:S:0000000",  # the second winner of a single win
        "f:7:fSs-0--:S:k000000",  # 20 硬花: not a button
        "f:7:fSs-0--:S:00zzzzz",  # pattern bits beyond the list
        "f:7:fSm-0--:S:0000000",  # 一炮多响 with one winner at the 花 step
        "f:7:fSs-0--:S:00000",  # a short winner code
        "f:7:fSs-0-5z:S:0000000",  # 5z (白) is no wild
        "f:0:w----0--::",  # no session 0
        "f:7:DSs-0--w:S:1000000",  # won on the 混子 without a 混子
        "f:7:DSs-02pw:S:1000000",  # a self-draw won on a discarded 混子
        "f:7:ySrN02p:S:1000000",  # the 混子 question on a robbed kong (no discard)
        "f:7:DSdN02pww:S:1000000",  # the mark twice
    ],
)
def test_forged_flow_data_is_refused(data: str) -> None:
    assert HuFlow.parse(data) is None
