"""Recording hands through the real bot: the grammar, previews, Confirm/Cancel, permissions, expiry,
instant mode, idempotency, /draw /escape /adjust /undo /edit and the /hu button flow."""

from __future__ import annotations

from typing import Any

import pytest
from harness import Table, ledger

from bot.console.driver import deliver
from bot.ledger.play import books, groups

CONFIRM, CANCEL = "✅ 确认", "✖ 取消"


def hands(table: Table) -> list[Any]:
    current = groups.chat_state(ledger(table), table.chat_id).session
    return ledger(table).read(books.hands, current.id)


def totals(table: Table) -> dict[str, int]:
    current = groups.chat_state(ledger(table), table.chat_id).session
    rows = ledger(table).read(books.ledger_rows, current.id)
    return dict(rows[-1].running) if rows else {}


def result_of(turn: Any) -> str:
    """The one-line result of a Confirm: the preview message, edited into it (the first edit)."""
    assert not turn.sent, turn.texts  # one bot message per hand: nothing new in the chat
    return turn.edits[0].text.split("\n")[0]


async def record(table: Table, text: str, by: str = "bob", confirmer: str = "cat") -> str:
    """Type an entry, confirm its preview, return the one-line result it became."""
    preview = await table.say(by, text)
    assert preview.sent and preview.sent[-1].buttons == (CONFIRM, CANCEL), preview.text
    turn = await table.press(confirmer, CONFIRM)
    assert turn.edits[0].message_id == preview.sent[-1].message_id
    return result_of(turn)


async def test_preview_lists_items_payments_and_next_dealer_first(seated_table: Table) -> None:
    turn = await seated_table.say("bob", "/hu 南 自摸 5花 清一色 七对")
    assert turn.text == (
        "📝 预览 · 第1局\n南 Bob 自摸 · 40花\n  清一色 10\n  七对 15\n  底 5\n  硬花 10（5×2，七对翻倍）\n"
        "输赢：南 +120 · 东 −40 · 西 −40 · 北 −40\n下局庄 南\n"
        "入座玩家点“确认”记入；2分钟内不确认就作废。"
    )
    assert hands(seated_table) == []


async def test_confirm_turns_the_preview_into_the_result_and_edits_the_pinned_card(
    seated_table: Table,
) -> None:
    await seated_table.say("ann", "/newgame")  # refused: one session; the card stays the pinned message
    card_id = seated_table.pins()[-1]
    shown = (await seated_table.say("bob", "/hu 南 自摸 5花 清一色 七对")).sent[0]
    turn = await seated_table.press("cat", CONFIRM)
    assert turn.sent == []  # no second message: the preview itself is the hand's result
    assert turn.answers == ["已记入"]
    result = seated_table.message(shown.message_id)
    assert result.text == (
        "第1局 南 自摸 40花 → 南 +120 · 东 −40 · 西 −40 · 北 −40 · 下局庄 南\n✅ Cat 已确认，记入账本。"
    )
    assert result.buttons == ()
    assert [c.method for c in turn.calls] == ["answerCallbackQuery", "editMessageText", "editMessageText"]
    card = seated_table.message(card_id)
    assert seated_table.pins()[-1] == card_id and card.edited
    assert "南 Bob 🀄庄  +120" in card.text and "1 南 自摸 40花 | −40 +120 −40 −40" in card.text
    assert totals(seated_table) == {"E": -40, "S": 120, "W": -40, "N": -40}
    line = await record(seated_table, "/hu 南 自摸 5花 清一色 七对")
    assert line == "第2局 南 自摸 40花 → 南 +120 · 东 −40 · 西 −40 · 北 −40 · 下局庄 南（连庄1）"


async def test_tile_form_with_username_and_english_words(seated_table: Table) -> None:
    line = await record(seated_table, "/hu @bob zimo 11223355778899p 中发春梅百搭")
    assert line.startswith("第1局 南 自摸 40花 → 南 +120")


async def test_discard_win_the_discarder_alone_pays(seated_table: Table) -> None:
    line = await record(seated_table, "/hu 南 冲 西 5花 清一色")
    assert line == "第1局 西 放冲，南 胡 20花 → 南 +20 · 西 −20 · 下局庄 南"
    assert hands(seated_table)[0].text == "南 冲 西 5花 清一色"


async def test_one_discard_two_winners(seated_table: Table) -> None:
    line = await record(seated_table, "/hu 东 8花 西 清一色 冲 北")
    assert line.startswith("第1局 北 放冲，东 13花、西 15花 胡（一炮多响） → 东 +13 · 西 +15 · 北 −28")
    assert totals(seated_table) == {"E": 13, "S": 0, "W": 15, "N": -28}


async def test_a_win_below_the_threshold_is_refused_with_its_reason(seated_table: Table) -> None:
    turn = await seated_table.say("bob", "/hu 南 自摸 2花")
    assert turn.text.startswith("这手不能胡：南")
    assert not any(r.buttons for r in turn.sent)
    assert hands(seated_table) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ("/hu 南 自摸 111222333444555p", "111222333444555p"),  # 15 tiles
        ("/hu 南 自摸 99999p1122334455m", "9p"),  # a fifth 9p
        ("/hu 张三 自摸 5花", "张三"),  # not seated
        ("/hu 南 5花", "自摸"),  # how is missing
        ("/hu", None),  # starts the button flow instead
    ],
)
async def test_malformed_entries_say_what_is_wrong_and_record_nothing(
    seated_table: Table, entry: str, expected: str | None
) -> None:
    turn = await seated_table.say("bob", entry)
    if expected is None:
        assert turn.sent[0].text == "谁胡了？"
    else:
        assert expected in turn.text, turn.text
        assert "用法：/hu" in turn.text
        assert not any(r.buttons for r in turn.sent)
    assert hands(seated_table) == []


async def test_cancel_drops_the_entry(seated_table: Table) -> None:
    await seated_table.say("bob", "/hu 南 自摸 5花 清一色")
    turn = await seated_table.press("dan", CANCEL)
    assert turn.edits[0].text.endswith("已取消，没有记入。") and turn.edits[0].buttons == ()
    assert hands(seated_table) == []


@pytest.mark.slow
async def test_onlookers_may_read_but_not_write_or_confirm(seated_table: Table) -> None:
    turn = await seated_table.say("eve", "/hu 南 自摸 5花 清一色")
    assert turn.text == "只有入座的玩家或群管理员可以这样做。"
    await seated_table.say("bob", "/hu 南 自摸 5花 清一色")
    turn = await seated_table.press("eve", CONFIRM)
    assert turn.answers == ["只有入座的玩家或群管理员可以这样做。"]
    assert hands(seated_table) == []
    turn = await seated_table.press("zoe", CONFIRM)  # an admin of the group
    assert result_of(turn).startswith("第1局 南 自摸 20花")
    assert len(hands(seated_table)) == 1


async def test_confirm_pressed_twice_commits_once(seated_table: Table) -> None:
    await seated_table.say("bob", "/hu 南 自摸 5花 清一色")
    state = seated_table.state
    first = state.press(seated_table.chat_id, "cat", None, CONFIRM)
    second = state.press(seated_table.chat_id, "dan", None, CONFIRM)
    await deliver(seated_table.app, first)
    calls_before = len(state.calls)
    await deliver(seated_table.app, second)
    later = state.calls[calls_before:]
    answers = [c.params.get("text") for c in later if c.method == "answerCallbackQuery"]
    assert answers == ["这条记录已经处理过了。"]
    assert not [c for c in later if c.method == "sendMessage"]
    assert len(hands(seated_table)) == 1


async def test_redelivered_update_records_once_even_after_a_restart(
    seated_table: Table, bot_settings: Any, transport: Any
) -> None:
    from bot.app import build_application

    await seated_table.say("ann", "/rules instant on")
    update = seated_table.state.message(seated_table.chat_id, "bob", "/hu 南 自摸 5花 清一色")
    await deliver(seated_table.app, update)
    await deliver(seated_table.app, update)
    assert len(hands(seated_table)) == 1
    # A second process on the same database (a restart) gets the same update again.
    other = build_application(bot_settings, request=transport, get_updates_request=transport)
    restarted = await Table.start(other, transport, chat_id=seated_table.chat_id)
    try:
        await deliver(other, update)
        assert len(hands(restarted)) == 1
    finally:
        await restarted.stop()


async def test_instant_mode_commits_without_a_preview(seated_table: Table) -> None:
    turn = await seated_table.say("ann", "/rules instant on")
    assert turn.text == "即时记账 已改为 开。"
    turn = await seated_table.say("bob", "/hu 南 冲 西 5花 清一色")
    assert turn.texts == ["第1局 西 放冲，南 胡 20花 → 南 +20 · 西 −20 · 下局庄 南"]
    assert len(hands(seated_table)) == 1


async def run_expiry_jobs(table: Table) -> int:
    """Run the confirmation-expiry sweep now (whatever its due time); how many jobs ran."""
    from bot.console.driver import settle

    assert table.app.job_queue is not None
    jobs = [job for job in table.app.job_queue.jobs() if job.name == "jobs:expire"]
    for job in jobs:
        await job.run(table.app)
    await settle(table.app)
    return len(jobs)


async def test_unconfirmed_entry_expires(bot_settings: Any, transport: Any) -> None:
    from datetime import UTC, datetime, timedelta

    from bot.app import build_application
    from bot.ledger import Ledger

    # The ledger's clock, an hour ahead of the real one: the JobQueue (real time) must not find the expiry
    # job due before the test runs it.
    now = [datetime.now(UTC).replace(microsecond=0) + timedelta(hours=1)]
    clocked = Ledger.from_url(bot_settings.database_url, clock=lambda: now[0])
    app = build_application(bot_settings, request=transport, get_updates_request=transport, ledger=clocked)
    table = await Table.start(app, transport)
    try:
        await table.say("ann", "/newgame")
        for name in ("ann", "bob", "cat", "dan"):
            await table.say(name, "/join")
        await table.say("ann", "/dealer 东")
        await table.say("ann", "/rules timeout 30")
        preview = (await table.say("bob", "/hu 南 自摸 5花 清一色")).sent[0]
        assert preview.text.endswith("30秒内不确认就作废。")
        assert await run_expiry_jobs(table) == 1  # not due yet: nothing expires
        assert table.message(preview.message_id).buttons == (CONFIRM, CANCEL)
        now[0] += timedelta(seconds=31)
        assert await run_expiry_jobs(table) == 1
        expired = table.message(preview.message_id)
        assert expired.text.endswith("这条记录已过期，没有记入。") and expired.buttons == ()
        turn = await table.press("cat", CONFIRM, message_id=preview.message_id) if expired.buttons else None
        assert turn is None
        assert hands(table) == []
    finally:
        await table.stop()


async def test_timeout_has_bounds(seated_table: Table) -> None:
    turn = await seated_table.say("ann", "/rules timeout 1")
    assert turn.text == "选项 确认时限 不能取“1”。可以取：5–86400"


async def test_draw_escape_and_adjust(seated_table: Table) -> None:
    assert await record(seated_table, "/draw") == "第1局 荒庄 · 下局庄 南"
    line = await record(seated_table, "/escape 北")
    assert line == "第2局 北 逃跑 → 东 +40 · 南 +40 · 西 +40 · 北 −120"
    preview = await seated_table.say("ann", "/adjust 东 西 50 夜宵")
    assert "调账：东 Ann 付给 西 Cat 50（夜宵）" in preview.text
    line = result_of(await seated_table.press("bob", CONFIRM))
    assert line == "调账 东 → 西 50（夜宵）"
    assert totals(seated_table) == {"E": -10, "S": 40, "W": 90, "N": -120}


async def test_draw_takes_no_player(seated_table: Table) -> None:
    turn = await seated_table.say("bob", "/draw 南")
    assert "用法：/draw" in turn.text
    assert hands(seated_table) == []


async def test_adjust_needs_an_amount(seated_table: Table) -> None:
    turn = await seated_table.say("bob", "/adjust 东 西")
    assert "用法：/adjust" in turn.text
    assert hands(seated_table) == []


async def test_undo_asks_then_voids_and_rolls_the_dealer_back(seated_table: Table) -> None:
    await record(seated_table, "/hu 南 自摸 5花 清一色")
    turn = await seated_table.say("ann", "/undo")
    assert turn.sent[0].text == "撤销第1局（南 自摸 20花）？"
    assert turn.sent[0].buttons == ("撤销", "不撤销")
    turn = await seated_table.press("bob", "撤销")
    assert result_of(turn).startswith("第1局已撤销。")
    assert hands(seated_table) == []
    assert groups.chat_state(ledger(seated_table), seated_table.chat_id).session.state.dealer == "E"
    turn = await seated_table.say("ann", "/undo")
    assert turn.text == "没有可以撤销的一局。"


async def test_undo_kept(seated_table: Table) -> None:
    await record(seated_table, "/hu 南 自摸 5花 清一色")
    await seated_table.say("ann", "/undo")
    await seated_table.press("bob", "不撤销")
    assert len(hands(seated_table)) == 1


async def test_edit_replaces_a_hand_and_recomputes_later_ones(seated_table: Table) -> None:
    await record(seated_table, "/hu 南 自摸 5花 清一色")
    await record(seated_table, "/hu 南 自摸 5花")
    turn = await seated_table.say("ann", "/edit 1 西 自摸 5花 清一色")
    assert "修改第1局，后面各局重算。" in turn.text
    later = "之后1局重算后：\n  第2局 南 自摸 10花 → 南 +30 · 东 −10 · 西 −10 · 北 −10\n入座玩家"
    assert later in turn.text
    turn = await seated_table.press("bob", CONFIRM)
    assert result_of(turn).startswith("第1局已修改")
    assert [h.number for h in hands(seated_table)] == [1, 2]
    assert hands(seated_table)[0].entry["wins"][0]["winner"] == "W"


async def test_edit_of_a_missing_hand(seated_table: Table) -> None:
    turn = await seated_table.say("ann", "/edit 5 南 自摸 5花")
    assert turn.text == "没有第5局。"


async def test_recording_needs_four_players(table: Table) -> None:
    await table.say("ann", "/newgame")
    await table.say("ann", "/join")
    turn = await table.say("ann", "/hu 东 自摸 5花 清一色")
    assert "还差3人入座" in turn.text


async def test_button_flow_winner_how_discarder_flowers_patterns_confirm(seated_table: Table) -> None:
    turn = await seated_table.say("bob", "/hu")
    flow = turn.sent[0]
    assert flow.buttons[:4] == ("东 Ann", "南 Bob", "西 Cat", "北 Dan")
    await seated_table.press("bob", "南 Bob")
    assert seated_table.message(flow.message_id).text == "南 怎么胡的？"
    await seated_table.press("bob", "放冲")
    assert seated_table.message(flow.message_id).text == "谁出冲？"
    assert "南 Bob" not in seated_table.buttons(flow.message_id)
    await seated_table.press("bob", "西 Cat")
    await seated_table.press("bob", "5", message_id=flow.message_id)
    assert seated_table.message(flow.message_id).text.startswith("南 的碰/杠")
    await seated_table.press("bob", "牌型 ▸")
    await seated_table.press("bob", "清一色")
    assert "✅ 清一色" in seated_table.buttons(flow.message_id)
    await seated_table.press("bob", "七对")
    await seated_table.press("bob", "✅ 七对")  # and off again
    await seated_table.press("bob", "完成")
    preview = seated_table.message(flow.message_id)
    assert preview.text.startswith("📝 预览 · 第1局\n西 Cat 放冲，南 Bob 胡 · 20花")
    turn = await seated_table.press("cat", CONFIRM)
    assert result_of(turn) == "第1局 西 放冲，南 胡 20花 → 南 +20 · 西 −20 · 下局庄 南"
    assert hands(seated_table)[0].text is None  # nothing was typed: the bot's question is not the entry


async def test_button_flow_cancel(seated_table: Table) -> None:
    flow = (await seated_table.say("bob", "/hu")).sent[0]
    await seated_table.press("bob", "取消")
    assert seated_table.message(flow.message_id).text == "已取消。"
    assert hands(seated_table) == []


async def test_button_flow_is_for_seated_players(seated_table: Table) -> None:
    await seated_table.say("bob", "/hu")
    turn = await seated_table.press("eve", "南 Bob")
    assert turn.answers == ["只有入座的玩家或群管理员可以这样做。"]


async def test_anhui_dealer_self_draw_through_the_bot(table: Table) -> None:
    await table.say("ann", "/newgame 宿州 1")
    for name in ("ann", "bob", "cat", "dan"):
        await table.say(name, "/join")
    await table.say("ann", "/dealer 东")
    line = await record(table, "/hu 东 自摸 3花", by="ann", confirmer="bob")
    assert line == "第1局 东 自摸 花数 3 → 东 +30 · 南 −10 · 西 −10 · 北 −10 · 下局庄 东（连庄1）"
    line = await record(table, "/hu 南 冲 北 3花", by="bob", confirmer="cat")
    assert line.startswith("第2局 北 放冲，南 胡 花数 3 → 南 +7 · 北 −7 · 下局庄 南")


async def test_double_dice_doubles_the_hand_and_the_next_is_diling(seated_table: Table) -> None:
    seated_table.force_dice(4, 4)
    await seated_table.say("ann", "/roll")
    preview = (await seated_table.say("bob", "/hu 南 自摸 5花 清一色")).text
    assert "  豹子 ×2\n" in preview and "输赢：南 +120 · 东 −40 · 西 −40 · 北 −40" in preview
    assert "豹子 0" not in preview and "  ×2\n" not in preview
    assert "下局滴零 ×2" in preview
    await seated_table.press("cat", CONFIRM)
    assert "本局滴零（×2）" in seated_table.pinned().text


async def test_confirm_still_works_after_a_restart(bot_settings: Any, transport: Any) -> None:
    from bot.app import build_application

    first = await Table.start(build_application(bot_settings, request=transport), transport)
    await first.say("ann", "/newgame")
    for name in ("ann", "bob", "cat", "dan"):
        await first.say(name, "/join")
    await first.say("ann", "/dealer 东")
    card = first.pins()[-1]
    preview = (await first.say("bob", "/hu 南 自摸 5花 清一色")).sent[0]
    await first.stop()

    second = await Table.start(build_application(bot_settings, request=transport), transport)
    try:
        turn = await second.press("cat", CONFIRM, message_id=preview.message_id)
        assert result_of(turn) == "第1局 南 自摸 20花 → 南 +60 · 东 −20 · 西 −20 · 北 −20 · 下局庄 南"
        assert second.pins()[-1] == card and "1 南 自摸 20花" in second.message(card).text
    finally:
        await second.stop()


async def test_an_edited_command_records_nothing(seated_table: Table) -> None:
    await seated_table.say("ann", "/rules instant on")
    update = seated_table.state.message(seated_table.chat_id, "bob", "/hu 南 自摸 5花 清一色")
    await deliver(seated_table.app, update)
    edited = {
        "update_id": update["update_id"] + 1000,
        "edited_message": {**update["message"], "edit_date": update["message"]["date"] + 5},
    }
    await deliver(seated_table.app, edited)
    assert len(hands(seated_table)) == 1


async def test_guests_are_named_by_their_seated_names(table: Table) -> None:
    await table.say("ann", "/newgame")
    await table.say("ann", "/join")
    for guest in ("老王", "小李", "小张"):
        await table.seat_guest("ann", f"/join {guest}")
    await table.say("ann", "/dealer 东")
    line = await record(table, "/hu 老王 冲 小张 5花 清一色", by="ann", confirmer="ann")
    assert line == "第1局 北 放冲，南 胡 20花 → 南 +20 · 北 −20 · 下局庄 南"
    preview = await table.say("ann", "/adjust 小李 老王 5")
    assert "调账：西 小李 付给 南 老王 5" in preview.text


@pytest.mark.slow
async def test_the_card_follows_every_hand_and_an_undo_at_once(seated_table: Table) -> None:
    await seated_table.say("ann", "/rules instant on")
    for _ in range(4):
        await seated_table.say("bob", "/hu 南 自摸 5花 清一色")
    card = seated_table.pinned()
    assert card is not None and "4 南 自摸 20花 | −20 +60 −20 −20" in card.text
    assert "南 Bob 🀄庄  +240" in card.text
    await seated_table.say("ann", "/undo")
    await seated_table.press("bob", "撤销")
    card = seated_table.pinned()
    assert card is not None and "南 Bob 🀄庄  +180" in card.text and "\n4 南" not in card.text
