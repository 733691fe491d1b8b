"""Issue 18, problem 6: a hand before anyone chose the first dealer was scored with 东 dealing (in 宿州 the
庄/闲 amounts went to a dealer the card called "还没定庄"). Now a hand entry in a table without a dealer
records nothing and asks who deals: a button per seated player, or /dealer, /roll. A seat pressed by a
player (or an admin) sets the dealer and the same entry goes on to its preview in that message; the
money recorded is the scoring core's with that seat dealing. The ledger refuses such a hand as well."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from harness import Table, ledger, seat_four
from reads import open_pending

from bot.buttons import DealerPress, PendingPress
from bot.grammar import make_resolver, parse_hu
from bot.ledger import Ledger, UserRef
from bot.ledger.errors import NoDealer
from bot.ledger.play import books, groups, recording, seating, sessions
from bot.render.errors import error_text
from scoring import score_request

CONFIRM, CANCEL = "✅ 确认", "✖ 取消"
SEAT_BUTTONS = ("东 Ann", "南 Bob", "西 Cat", "北 Dan")
ASK = "还没定庄，这一局还没记。"
NOT_ALLOWED = "只有入座的玩家或群管理员可以这样做。"
FOREIGN = "这个按钮不属于这个群。"


def current(table: Table) -> Any:
    return groups.chat_state(ledger(table), table.chat_id).session


def hands(table: Table) -> list[Any]:
    return ledger(table).read(books.hands, current(table).id)


def scored(rules: str, typed: str, dealer: str) -> dict[str, int]:
    """What the scoring core pays for `typed` at a table of `rules` (default options, stake 1) with
    `dealer` dealing the first hand."""
    entry = parse_hu(typed, make_resolver({seat: [] for seat in "ESWN"}))
    request = {"rules": rules, "options": {}, "stake": 1, "dealer": dealer, "round_wind": "E", **entry}
    return dict(score_request(request)["payments"])


async def read_views(table: Table) -> tuple[str, str]:
    """What anyone in the group reads of the money: /score and /ledger."""
    score = (await table.say("eve", "/score")).text
    book = (await table.say("eve", "/ledger")).text
    return score, book


@pytest.mark.parametrize(("rules", "rules_id"), [("宿州", "suzhou-anhui"), ("苏州", "suzhou")])
async def test_a_hand_before_the_first_dealer_asks_who_deals_and_records_nothing(
    db_table: Table, rules: str, rules_id: str
) -> None:
    table = await seat_four(db_table, dealer=None, rules=rules)
    before = await read_views(table)
    turn = await table.say("bob", "/hu 南 自摸 5花")
    [question] = turn.sent
    assert question.text.startswith(ASK)
    assert "/dealer 东" in question.text and "/roll（执筛起庄）" in question.text
    assert question.rows == [["东 Ann", "南 Bob"], ["西 Cat", "北 Dan"]]
    assert hands(table) == [] and not current(table).dealer_set
    assert [p.kind for p in open_pending(ledger(table), table.chat_id)] == ["dealer"]  # nothing to confirm
    assert await read_views(table) == before

    pressed = await table.press("cat", "南 Bob", message_id=question.message_id)
    assert pressed.answers == ["首局庄家：南（Bob）。"]
    assert current(table).state.dealer == "S" and current(table).dealer_set
    preview = table.message(question.message_id)  # the question became the preview
    assert preview.text.startswith("📝 预览 · 第1局") and preview.buttons == (CONFIRM, CANCEL)
    assert "🀄庄" in table.pinned().text.split("南 Bob")[1].splitlines()[0]  # the card marks 南
    assert hands(table) == []  # still nothing before Confirm

    done = await table.press("dan", CONFIRM, message_id=question.message_id)
    assert done.edits[0].text.startswith("第1局 南 自摸")
    [hand] = hands(table)
    assert hand.before.dealer == "S" and hand.text == "南 自摸 5花"
    assert hand.payments == scored(rules_id, "南 自摸 5花", "S")
    assert hand.after.dealer == "S" and hand.after.streak == 1  # the dealer won: 连庄
    assert await read_views(table) != before


async def test_suzhou_anhui_money_follows_the_chosen_dealer_not_east(table: Table) -> None:
    """The 宿州 formulas pay the dealer differently: what 东 dealing would have paid is not recorded."""
    await seat_four(table, dealer=None, rules="宿州")
    await table.say("ann", "/rules instant on")  # recorded at once: the result line is the hand
    question = (await table.say("bob", "/hu 南 自摸 5花")).sent[0]
    assert question.text.startswith(ASK) and hands(table) == []
    await table.press("bob", "南 Bob", message_id=question.message_id)
    [hand] = hands(table)
    expected = {"E": -14, "S": 42, "W": -14, "N": -14}
    assert hand.payments == scored("suzhou-anhui", "南 自摸 5花", "S") == expected
    assert hand.payments != scored("suzhou-anhui", "南 自摸 5花", "E")
    assert table.message(question.message_id).text.startswith("第1局 南 自摸")
    assert "南 Bob 🀄庄  +42" in table.pinned().text


async def test_the_button_flow_asks_for_the_dealer_at_its_end(undealt_table: Table) -> None:
    table = undealt_table
    flow = (await table.say("bob", "/hu")).sent[0]
    for label in ("南 Bob", "自摸", "5", "完成"):
        await table.press("bob", label, message_id=flow.message_id)
    question = table.message(flow.message_id)  # the flow's message asks now
    assert question.text.startswith(ASK) and question.buttons == SEAT_BUTTONS
    assert hands(table) == [] and current(table).flow_message_id is None
    await table.press("ann", "西 Cat", message_id=flow.message_id)
    preview = table.message(flow.message_id)
    assert preview.text.startswith("📝 预览 · 第1局") and preview.buttons == (CONFIRM, CANCEL)
    await table.press("cat", CONFIRM, message_id=flow.message_id)
    [hand] = hands(table)
    assert hand.before.dealer == "W" and hand.payments == scored("suzhou", "南 自摸 5花", "W")
    assert (hand.after.dealer, hand.after.streak) == ("S", 0)  # the winner deals next, no 连庄 (西 dealt)


async def test_a_draw_and_an_escape_ask_too(undealt_table: Table) -> None:
    table = undealt_table
    question = (await table.say("bob", "/draw")).sent[0]
    assert question.text.startswith(ASK) and hands(table) == []
    escape = (await table.say("bob", "/escape 西")).sent[0]
    assert escape.text.startswith(ASK) and hands(table) == []
    await table.press("bob", "北 Dan", message_id=question.message_id)
    assert table.message(question.message_id).buttons == (CONFIRM, CANCEL)
    await table.press("cat", CONFIRM, message_id=question.message_id)
    [hand] = hands(table)
    assert hand.kind == "draw" and hand.before.dealer == "N"
    # The other question: the dealer is fixed now that a hand is recorded; it says so, and nothing moves.
    turn = await table.press("bob", "东 Ann", message_id=escape.message_id)
    assert turn.answers == ["已经打过牌了，座位和首局庄家不能再改。"]
    assert len(hands(table)) == 1 and current(table).state.first_dealer == "N"


async def test_an_onlooker_cannot_choose_the_dealer(undealt_table: Table) -> None:
    table = undealt_table
    question = (await table.say("bob", "/hu 南 自摸 5花")).sent[0]
    turn = await table.press("eve", "南 Bob", message_id=question.message_id)
    assert turn.answers == [NOT_ALLOWED] and not turn.of("editMessageText")
    assert not current(table).dealer_set and table.message(question.message_id).buttons == SEAT_BUTTONS
    table.set_admins("eve")  # an admin may, as with /dealer
    await table.press("eve", "南 Bob", message_id=question.message_id)
    assert current(table).state.dealer == "S"
    assert table.message(question.message_id).buttons == (CONFIRM, CANCEL)


async def test_a_redelivered_press_changes_nothing(undealt_table: Table) -> None:
    table = undealt_table
    question = (await table.say("bob", "/hu 南 自摸 5花")).sent[0]
    press = table.state.press(table.chat_id, "cat", question.message_id, "南 Bob")
    await table._run(press)
    preview = table.message(question.message_id)
    pending = open_pending(ledger(table), table.chat_id)
    version = current(table).version
    again = await table._run(press)  # the same update once more (a restart, Telegram's retry)
    assert not again.of("sendMessage", "editMessageText")
    assert table.message(question.message_id) == preview
    assert open_pending(ledger(table), table.chat_id) == pending and current(table).version == version
    # The seat buttons' data under the preview now (or from a message too old to check) changes nothing.
    other = table.state.press(table.chat_id, "cat", question.message_id, CONFIRM)
    other["callback_query"]["data"] = DealerPress(pending[0].id, "W").data
    turn = await table._run(other)
    assert turn.answers == [FOREIGN] and current(table).state.dealer == "S"
    await table.press("dan", CONFIRM, message_id=question.message_id)
    assert [h.before.dealer for h in hands(table)] == ["S"]


async def test_a_press_redelivered_after_a_restart_changes_nothing(
    undealt_table: Table, bot_settings: Any, transport: Any
) -> None:
    """Another process on the same database gets the same press again: the dealer stays, the preview made
    by the first press is the only one, and it still records once."""
    from bot.app import build_application

    table = undealt_table
    question = (await table.say("bob", "/hu 南 自摸 5花")).sent[0]
    press = table.state.press(table.chat_id, "cat", question.message_id, "南 Bob")
    await table._run(press)
    preview = table.message(question.message_id)
    version = current(table).version
    other = build_application(bot_settings, request=transport, get_updates_request=transport)
    restarted = await Table.start(other, transport, chat_id=table.chat_id)
    try:
        press["update_id"] += 10_000  # a new update id (ids are not stable across a long silence)
        again = await restarted._run(press)
        assert not again.of("sendMessage", "editMessageText")
        assert again.answers == ["这条记录已经处理过了。"]
        assert table.message(question.message_id) == preview and current(table).version == version
        await restarted.press("dan", CONFIRM, message_id=question.message_id)
        assert [h.before.dealer for h in hands(table)] == ["S"]
    finally:
        await restarted.stop()


async def test_a_seat_button_acts_only_on_its_own_question(undealt_table: Table) -> None:
    """A Confirm payload naming the waiting entry does not record it; a seat payload naming a preview's
    entry does not set a dealer; a question's seat pressed in another group is foreign."""
    table = undealt_table
    question = (await table.say("bob", "/hu 南 自摸 5花")).sent[0]
    [waiting] = open_pending(ledger(table), table.chat_id)
    update = table.state.press(table.chat_id, "cat", question.message_id, "南 Bob")
    update["callback_query"]["data"] = PendingPress(waiting.id, "confirm").data
    turn = await table._run(update)
    assert turn.answers == [FOREIGN] and hands(table) == [] and not current(table).dealer_set

    table.transport.add_group(-1001000000777, "另一桌", creator="eve")
    other = Table(table.app, table.transport, -1001000000777)
    await other.say("eve", "/newgame")
    forged = other.state.press(other.chat_id, "eve", None, "入座")
    forged["callback_query"]["data"] = DealerPress(waiting.id, "S").data
    turn = await other._run(forged)
    assert turn.answers == [FOREIGN] and not current(table).dealer_set
    assert table.message(question.message_id).buttons == SEAT_BUTTONS


async def test_the_dealer_set_by_command_meanwhile_and_the_entry_sent_again(undealt_table: Table) -> None:
    table = undealt_table
    question = (await table.say("bob", "/hu 南 自摸 5花")).sent[0]
    await table.say("bob", "/dealer 北")
    turn = await table.say("bob", "/hu 南 自摸 5花")  # sent again: the preview at once
    assert turn.sent[0].buttons == (CONFIRM, CANCEL)
    await table.press("cat", CONFIRM, message_id=turn.sent[0].message_id)
    assert [h.before.dealer for h in hands(table)] == ["N"]
    assert table.message(question.message_id).buttons == SEAT_BUTTONS  # expires by the group's timeout


async def test_a_refused_hand_is_refused_at_once_and_an_adjustment_needs_no_dealer(
    undealt_table: Table,
) -> None:
    table = undealt_table
    turn = await table.say("bob", "/hu 南 自摸 1花")  # refused whoever deals: said now, no question
    assert turn.text.startswith("这手不能胡") and not turn.sent[0].buttons
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/adjust 东 南 5")
    question = (await table.say("bob", "/hu 南 自摸 5花")).sent[0]
    assert question.text.startswith(ASK)
    await table.press("bob", "东 Ann", message_id=question.message_id)  # the first dealer after it
    assert [(h.kind, h.before.dealer) for h in ledger(table).read(books.hands, current(table).id)] == [
        ("adjust", "E"),
        ("win", "E"),
    ]


async def test_in_english_and_traditional_chinese(undealt_table: Table) -> None:
    table = undealt_table
    await table.say("ann", "/lang en")
    question = (await table.say("bob", "/hu S tsumo 5hua")).sent[0]
    assert question.text.startswith("No dealer yet: this hand is not recorded yet.")
    assert question.buttons == ("E Ann", "S Bob", "W Cat", "N Dan")
    await table.say("ann", "/lang 繁體")
    question = (await table.say("bob", "/hu 南 自摸 5花")).sent[0]
    assert question.text.startswith("還沒定莊，這一局還沒記。") and question.buttons[0] == "東 Ann"


async def test_calc_says_it_assumes_east_before_the_first_dealer(undealt_table: Table) -> None:
    turn = await undealt_table.say("eve", "/calc 南 自摸 5花")
    assert "还没定庄，按庄家 东 算" in turn.text
    await undealt_table.say("ann", "/dealer 南")
    turn = await undealt_table.say("eve", "/calc 南 自摸 5花")
    assert "按本桌规则，庄家 南" in turn.text


def test_the_ledger_refuses_a_hand_without_a_dealer(ledger: Ledger) -> None:
    """Defense in depth: whatever calls it, the ledger records no hand before the first dealer."""
    chat = -1001000000555
    users = [UserRef(11, "Ann", "ann"), UserRef(12, "Bob", "bob"), UserRef(13, "Cat"), UserRef(14, "Dan")]
    sessions.open_session(ledger, chat, by=users[0])
    for user in users:
        session = seating.join(ledger, chat, user).session
    entry = parse_hu("南 自摸 5花", make_resolver({seat: [] for seat in "ESWN"}))
    with pytest.raises(NoDealer) as refused:
        recording.commit(ledger, chat, entry, by=users[1])
    preview = recording.preview(ledger, chat, entry)  # a what-if (as /calc) still scores, from the stored 东
    with pytest.raises(NoDealer):
        version = session.version
        recording.create_pending(
            ledger, chat, "hand", entry, preview=preview, base_version=version, message_id=None
        )
    assert ledger.read(books.hands, session.id) == [] and open_pending(ledger, chat) == []
    assert error_text("zh-Hans", refused.value) == "还没定庄，这一局没有记入。先用 /dealer 东 或 /roll 定庄。"
    assert error_text("en", refused.value).startswith("No dealer yet: nothing recorded.")
    sessions.set_dealer(ledger, chat, "S")
    assert recording.commit(ledger, chat, entry, by=users[1]).hand.before.dealer == "S"


async def test_a_hand_from_the_tile_picker_asks_in_the_group(undealt_table: Table) -> None:
    from tests.bot.webapp.test_webapp_api import SELF_DRAW, init_data, post, token_of

    table = undealt_table
    await table.say("ann", "/rules confirm_by other")  # the recorder may not confirm their own entry
    auth = init_data(table, "bob", token_of(table))
    response = await post(table, "/api/submit", {"entry": SELF_DRAW, "key": uuid.uuid4().hex}, auth)
    assert response.status_code == 200 and response.json()["status"] == "sent"
    question = table.last_reply()
    assert question.text.startswith(ASK) and question.buttons == SEAT_BUTTONS and hands(table) == []
    await table.press("ann", "南 Bob", message_id=question.message_id)
    assert table.message(question.message_id).buttons == (CONFIRM, CANCEL)
    # The entry is still bob's, who sent it, not ann's, who chose the dealer: bob may not confirm it.
    refused = await table.press("bob", CONFIRM, message_id=question.message_id)
    assert refused.answers == ["这条是你记的，要由别人确认（本群设置：确认人为记录人以外的人）。"]
    assert hands(table) == []
    await table.press("ann", CONFIRM, message_id=question.message_id)
    [hand] = hands(table)
    assert hand.before.dealer == "S" and hand.payments["S"] == 120


async def test_an_unanswered_question_expires_like_a_preview(bot_settings: Any, transport: Any) -> None:
    from datetime import UTC, datetime, timedelta

    from bot.app import build_application
    from bot.console.driver import settle

    now = [datetime.now(UTC).replace(microsecond=0) + timedelta(hours=1)]
    clocked = Ledger.from_url(bot_settings.database_url, clock=lambda: now[0])
    app = build_application(bot_settings, request=transport, get_updates_request=transport, ledger=clocked)
    table = await seat_four(await Table.start(app, transport), dealer=None)
    try:
        await table.say("ann", "/rules timeout 30")
        question = (await table.say("bob", "/hu 南 自摸 5花")).sent[0]
        now[0] += timedelta(seconds=31)
        assert app.job_queue is not None
        for job in [job for job in app.job_queue.jobs() if job.name == "jobs:expire"]:
            await job.run(app)
        await settle(app)
        expired = table.message(question.message_id)
        assert expired.text == "南 自摸 5花\n这条记录已过期，没有记入。" and expired.buttons == ()
        assert hands(table) == [] and not current(table).dealer_set
    finally:
        await table.stop()
