"""Settling up through the real bot: the summary's transfers with 我已付 / 已收到, /paid in parts, /balance,
refusals that store nothing, a redelivered press, and what stays open carried into the next night."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from harness import END, Reply, Table, ledger, seat_four, summary
from reads import session_transfers
from sqlalchemy.exc import OperationalError

from bot.jobs.sweeps import post_reminders
from bot.ledger import Ledger
from bot.ledger.money import settling
from bot.ledger.play import books, groups

SHANGHAI = ZoneInfo("Asia/Shanghai")


async def night_one(table: Table) -> Reply:
    """Ann (东, dealer) self-draws 5 花, Bob (南) wins 6 花 on Cat's (西) discard; /end. Ann +30, Bob +1,
    Cat −21, Dan −10. Returns the summary message."""
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/dealer 东")
    await table.say("ann", "/hu 东 自摸 5花")
    await table.say("ann", "/hu 南 冲 西 6花")
    await table.say("ann", "/end")
    await table.press("ann", END)
    return summary(table, 1)


def state(table: Table) -> list[tuple[int, str, int, int, int]]:
    """Every stored transfer: (session number, status, amount, paid, claimed)."""
    rows = []
    for number in (1, 2):
        for s in ledger(table).read(books.history, table.chat_id):
            if s.session.number == number:
                rows += [
                    (number, t.status, t.amount, t.paid, t.claimed)
                    for t in session_transfers(ledger(table), s.session.id)
                ]
    return rows


@pytest.mark.slow
async def test_a_night_paid_in_parts_and_what_stays_open_paid_the_next_night(seated_table: Table) -> None:
    table = seated_table
    card = await night_one(table)
    assert "结算（最少转账）：\n1. Cat → Ann 21\n2. Dan → Ann 9\n3. Dan → Bob 1" in card.text
    assert card.rows == [["1 我已付", "1 已收到"], ["2 我已付", "2 已收到"], ["3 我已付", "3 已收到"]]

    # Cat pays Ann 21 in two parts: 10 by /paid, Ann confirms; the rest by the button, Ann confirms.
    turn = await table.say("cat", "/paid @ann 10")
    assert turn.texts == ["Cat 说已付给 Ann 10，等 Ann 点“已收到”确认。\n第1场 1. Cat → Ann 21 · 待确认 10"]
    assert "1. Cat → Ann 21 · 待确认 10" in summary(table, 1).text  # edited in place
    turn = await table.press("ann", "1 已收到", message_id=card.message_id)
    assert turn.answers[0] == "✅ Ann 确认收到 Cat 的 10。"
    assert "1. Cat → Ann 21 · 已付 10，还欠 11" in summary(table, 1).text
    await table.press("cat", "1 我已付", message_id=card.message_id)
    assert "1. Cat → Ann 21 · 已付 10，还欠 11 · 待确认 11" in summary(table, 1).text
    await table.press("ann", "1 已收到", message_id=card.message_id)
    now = summary(table, 1)
    assert "1. Cat → Ann 21 ✅ 已结清" in now.text
    assert now.rows == [["2 我已付", "2 已收到"], ["3 我已付", "3 已收到"]]

    # Ann says Dan paid her the 9: a payee's own word counts at once.
    turn = await table.say("ann", "/paid @dan 9")
    assert turn.texts[0].startswith("✅ Ann 记下收到 Dan 的 9。")
    assert "2. Dan → Ann 9 ✅ 已结清" in summary(table, 1).text

    turn = await table.say("bob", "/balance")
    assert turn.texts == ["💰 没结清的账：\n第1场 3. Dan → Bob 1\n每人合计：\nBob +1\nDan −1"]

    # The next night: the open 1 is shown as owed from before, and goes into that night's transfers.
    await table.say("ann", "/newgame 苏州 1")
    for name in ("ann", "bob", "cat", "dan"):
        await table.say(name, "/join")
    pinned = table.pinned()
    assert pinned is not None and "上次欠的（这场结束时并入结算）：\n  第1场 Dan → Bob 1" in pinned.text
    await table.say("ann", "/dealer 东")
    await table.say("ann", "/hu 西 自摸 3花")
    await table.say("ann", "/end")
    await table.press("ann", END)
    assert "3. Dan → Bob 1 ↪ 转入第2场" in summary(table, 1).text
    assert summary(table, 1).rows == []
    second = summary(table, 2)
    assert "Dan：本场" in second.text and "上次欠的 −1" in second.text
    assert "Bob：本场" in second.text and "上次欠的 +1" in second.text
    rows = [r for r in state(table) if r[0] == 2]
    assert rows and all(status == "open" for _, status, *_ in rows)
    for number, (_, _, amount, _, _) in enumerate(rows, 1):  # every transfer of night two paid by its payer
        tr = session_transfers(ledger(table), second_id(table))[number - 1]
        await table.press(tr.payer.username, f"{number} 我已付", message_id=second.message_id)
        await table.press(tr.payee.username, f"{number} 已收到", message_id=second.message_id)
        assert amount == tr.amount
    assert {status for _, status, *_ in state(table)} <= {"settled", "carried"}
    assert (await table.say("bob", "/balance")).texts == ["账都结清了，大家两清。"]


def second_id(table: Table) -> int:
    return next(
        s.session.id for s in ledger(table).read(books.history, table.chat_id) if s.session.number == 2
    )


@pytest.mark.slow
async def test_bad_payments_are_refused_clearly_and_store_nothing(seated_table: Table) -> None:
    table = seated_table
    card = await night_one(table)
    before = state(table)
    cases = [
        ("dan", "/paid @bob 5", "Dan 欠 Bob 的只剩 1 没付，记不了 5。例如：/paid Bob 1"),
        ("cat", "/paid @ann 1.5", "金额要是大于 0 的整数，“1.5”不行。"),
        ("cat", "/paid @ann ²", "金额要是大于 0 的整数，“²”不行。"),
        ("cat", "/paid @ann 0", "金额要是大于 0 的整数，“0”不行。"),
        ("ann", "/paid @ann 5", "不能付给自己。"),
        ("bob", "/paid @cat 5", "你和 Cat 之间的账都结清了。发 /balance 看谁欠谁。"),
        ("cat", "/paid @nobody 5", "找不到玩家“@nobody”。"),
        ("cat", "/paid", "缺少参数"),
    ]
    for name, text, expected in cases:
        turn = await table.say(name, text)
        assert turn.texts and turn.texts[0].startswith(expected), (text, turn.texts)
    # A stranger presses; the payee confirms a payment nobody made; the payer presses 已收到.
    turn = await table.press("eve", "1 我已付", message_id=card.message_id)
    assert turn.answers[0].startswith("这笔是 Cat 付给 Ann 的")
    turn = await table.press("ann", "1 已收到", message_id=card.message_id)
    assert turn.answers[0].startswith("Cat 还没说已付给 Ann")
    turn = await table.press("cat", "1 已收到", message_id=card.message_id)
    assert turn.answers[0].startswith("这笔是 Cat 付给 Ann 的")
    assert state(table) == before


@pytest.mark.slow
async def test_an_admin_may_confirm_and_a_redelivered_press_changes_nothing(seated_table: Table) -> None:
    table = seated_table
    card = await night_one(table)
    await table.press("cat", "1 我已付", message_id=card.message_id)
    table.set_admins("zoe")
    update = table.state.press(table.chat_id, "zoe", card.message_id, "1 已收到")
    await table._run(update)
    assert "1. Cat → Ann 21 ✅ 已结清" in summary(table, 1).text
    table.app.bot_data["recent_updates"].clear()  # the process forgot it: the ledger's key still holds
    turn = await table._run(update)
    assert turn.of("sendMessage") == [] and state(table)[0][1:] == ("settled", 21, 21, 0)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["postgresql"])
async def test_settling_up_on_postgresql(pg_table: Table, backend: str) -> None:
    table = await seat_four(pg_table)
    card = await night_one(table)
    await table.say("cat", "/paid @ann 10")
    await table.press("ann", "1 已收到", message_id=card.message_id)
    await table.press("cat", "1 我已付", message_id=card.message_id)
    await table.press("ann", "1 已收到", message_id=card.message_id)
    assert "1. Cat → Ann 21 ✅ 已结清" in summary(table, 1).text
    assert (await table.say("bob", "/balance")).texts[0].startswith("💰 没结清的账：\n第1场 2. Dan → Ann 9")


async def test_an_old_debt_paid_during_the_next_night_leaves_its_card(seated_table: Table) -> None:
    table = seated_table
    await night_one(table)
    await table.say("ann", "/newgame 苏州 1")
    await table.say("bob", "/join")
    pinned = table.pinned()
    assert pinned is not None and "第1场 Cat → Ann 21" in pinned.text
    await table.say("cat", "/paid @ann")  # all of it: Ann confirms under the old summary
    await table.press("ann", "1 已收到", message_id=summary(table, 1).message_id)
    pinned = table.pinned()
    assert pinned is not None and "Cat → Ann" not in pinned.text and "第1场 Dan → Ann 9" in pinned.text
    assert "1. Cat → Ann 21 ✅ 已结清" in summary(table, 1).text


async def test_table_fee_multiplier_and_rounding_at_close_keep_every_sum_zero(seated_table: Table) -> None:
    """Ann +30, Bob +1, Cat −21, Dan −10, paid ×3, 台费 5 a player, 抹零 to 10: 85 → 90, −2 → 0, −68 → −70,
    −35 → −40 (the two units left over go to the largest remainders: Bob's 8, then Ann's 5 before Dan's
    5), and the 台 gets 20."""
    table = seated_table
    for option in ("结算倍数 3", "台费 5", "抹零 10"):
        turn = await table.say("zoe", f"/rules {option}")
        assert "已改为" in turn.texts[0], turn.texts
    turn = await table.say("zoe", "/rules")
    assert (
        "结算：没结清的转入下一场 开 · 抹零 抹到 10 的整数倍 · 结算倍数 ×3 · 台费 每人每场 5 · 抽水 无"
        in turn.text
    )
    card = await night_one(table)
    assert "Ann：本场 +30 ×3 · 台费 −5 · 应结 +90（抹零前 +85）" in card.text
    assert "Bob：本场 +1 ×3 · 台费 −5 · 应结 0（抹零前 −2）" in card.text
    assert "台：本场 0 · 台费 +20 · 应结 +20" in card.text
    figures = ledger(table).read(
        settling.figures, ledger(table).read(books.history, table.chat_id)[0].session.id
    )
    assert sum(f.rounded for f in figures) == 0 and sum(f.raw for f in figures) == 0
    shown = card.text.split("结算（最少转账）：\n")[1].split("\n应结")[0]
    assert shown == "1. Cat → Ann 70\n2. Dan → 台 20\n3. Dan → Ann 20"
    # The 台 is a guest: an admin confirms what is paid to it.
    await table.press("dan", "2 我已付", message_id=card.message_id)
    turn = await table.press("ann", "2 已收到", message_id=card.message_id)
    assert turn.answers[0].startswith("这笔是 Dan 付给 台 的")
    table.set_admins("zoe")
    await table.press("zoe", "2 已收到", message_id=card.message_id)
    assert "2. Dan → 台 20 ✅ 已结清" in summary(table, 1).text


async def test_bad_settle_options_are_refused(seated_table: Table) -> None:
    table = seated_table
    table.set_admins("zoe")
    for option, expected in [
        ("抹零 3", "0/1/5/10"),
        ("结算倍数 0", "1–1000"),
        ("抽水 101", "0–100"),
        ("台费 -5", "0–1000000000"),
        ("carry maybe", "开"),
    ]:
        turn = await table.say("zoe", f"/rules {option}")
        assert expected in turn.texts[0], (option, turn.texts)
    assert groups.chat_state(ledger(table), table.chat_id).group.settle == {
        "carry": True,
        "round": 0,
        "multiplier": 1,
        "fee": 0,
        "rake": 0,
        "remind": 0,
    }


def _local_noon_after(hours: float) -> datetime:
    """The first 12:00 in Shanghai at least `hours` from now (a reminder by day)."""
    earliest = datetime.now(UTC) + timedelta(hours=hours)
    noon = earliest.astimezone(SHANGHAI).replace(hour=12, minute=0, second=0, microsecond=0)
    return (noon if noon >= earliest else noon + timedelta(days=1)).astimezone(UTC)


@pytest.mark.slow
async def test_reminders_fire_once_per_due_transfer_across_two_workers_and_survive_a_restart(
    seated_table: Table,
) -> None:
    table = seated_table
    refused = (await table.say("bob", "/schedule remind 24h")).texts
    assert refused == ["只有群管理员可以修改定时发送：每周排行榜和欠账提醒。"]  # not the weekly board alone
    bad = (await table.say("zoe", "/schedule remind 2x")).texts[0]
    assert bad.startswith("提醒间隔写成小时或天，1到720小时，“2x”不行。")
    turn = await table.say("zoe", "/schedule remind 24h")
    assert turn.texts == ["好的：账没结清满24小时就在群里提醒，每天最多一次，夜里不提醒（北京时间）。"]
    card = await night_one(table)
    await table.say("ann", "/paid @dan 9")  # settled: never reminded
    bot, url = table.app.bot, table.app.bot_data["settings"].database_url
    workers = [Ledger.from_url(url), Ledger.from_url(url)]
    soon = _local_noon_after(1)
    assert await post_reminders(bot, workers[0], soon) == 0  # not open for 24 hours yet
    night = _local_noon_after(25) + timedelta(hours=15)  # 03:00 in Shanghai
    assert await post_reminders(bot, workers[0], night) == 0  # never at night
    due = _local_noon_after(25)
    before = len(table.replies())
    sent = await asyncio.gather(*(post_reminders(bot, w, due) for w in workers))
    assert sorted(sent) == [0, 1]  # one of the two workers posts it
    reminders = [r.text for r in table.replies()[before:]]
    assert reminders == [
        "⏰ 提醒：这些账还没结清——\n第1场 1. Cat → Ann 21\n第1场 3. Dan → Bob 1\n"
        "付了请点结算消息下面的“我已付”或发 /paid，收款人点“已收到”。"
    ]
    restarted = Ledger.from_url(url)  # the state is in the database: a restart reminds nothing again
    assert await post_reminders(bot, restarted, due + timedelta(hours=3)) == 0
    await table.press("cat", "1 我已付", message_id=card.message_id)
    await table.press("ann", "1 已收到", message_id=card.message_id)
    assert await post_reminders(bot, restarted, due + timedelta(days=1)) == 1  # the next day: what is open
    assert table.replies()[-1].text.split("\n")[1:-1] == ["第1场 3. Dan → Bob 1"]
    assert (await table.say("zoe", "/schedule remind off")).texts == ["欠账提醒已关闭。"]
    assert await post_reminders(bot, restarted, due + timedelta(days=3)) == 0
    for ledger_ in (*workers, restarted):
        ledger_.engine.dispose()


async def test_a_paycode_is_stored_in_private_and_shown_only_to_those_who_owe(seated_table: Table) -> None:
    table = seated_table
    card = await night_one(table)  # Cat → Ann 21, Dan → Ann 9, Dan → Bob 1
    ann = table.user("ann")["id"]
    table.state.add_group(ann, "Ann", type="private")
    turn = await table.say("ann", "/paycode")  # in the group: not here
    assert turn.texts == ["收款码请私聊我发 /paycode，别发在群里。"]
    photo = table.state.message(ann, "ann", "")
    del photo["message"]["text"]
    sizes = [{"file_id": f"qr-ann-{w}", "file_unique_id": f"u{w}", "width": w, "height": w} for w in (9, 800)]
    photo["message"]["photo"] = sizes
    turn = await table._run(photo)
    assert turn.texts[0].startswith("✅ 收款码已存好。")
    # The summary is edited when next touched; a payment shows the 收款码 button under Ann's transfers.
    await table.say("dan", "/paid @bob 1")
    rows = summary(table, 1).raw["reply_markup"]["inline_keyboard"]
    links = {row[0]["text"]: row[2]["url"] for row in rows if len(row) == 3}
    assert set(links) == {"1 我已付", "2 我已付"}  # Bob stored none: his transfer has two buttons
    start = links["1 我已付"].split("?start=")[1]
    cat = table.user("cat")["id"]
    table.state.add_group(cat, "Cat", type="private")
    turn = await table._run(table.state.message(cat, "cat", f"/start {start}"))
    assert turn.of("sendPhoto")[0].params["photo"] == "qr-ann-800"
    assert turn.sent[0].text.startswith("Ann 的收款码：还欠 21")
    bob = table.user("bob")["id"]  # Bob owes Ann nothing: he never sees her code
    table.state.add_group(bob, "Bob", type="private")
    turn = await table._run(table.state.message(bob, "bob", f"/start {start}"))
    assert not turn.of("sendPhoto") and turn.texts[0].startswith("这笔是 Cat 付给 Ann 的")
    turn = await table._run(table.state.message(ann, "ann", "/paycode delete"))
    assert turn.texts == ["收款码已删除。"]
    turn = await table._run(table.state.message(cat, "cat", f"/start {start}"))
    assert not turn.of("sendPhoto") and turn.texts == ["Ann 还没存收款码。"]
    assert card.message_id == summary(table, 1).message_id


async def test_the_settlement_sheet_says_who_paid_whom_when_and_what_is_open(seated_table: Table) -> None:
    import csv
    import io

    from bot.summary.settling import settlement_csv

    table = seated_table
    card = await night_one(table)
    await table.say("cat", "/paid @ann 10")
    await table.press("ann", "1 已收到", message_id=card.message_id)
    await table.press("cat", "1 我已付", message_id=card.message_id)  # 11 claimed, not confirmed yet
    turn = await table.say("bob", "/balance csv")
    assert turn.of("sendDocument") and turn.sent[-1].text == "结算表（CSV）：每笔转账、每次付款、还欠多少"
    data = settlement_csv(
        "zh-Hans", ledger(table).read(settling.sheet, table.chat_id), timezone="Asia/Shanghai"
    )
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert (
        ",".join(rows[0])
        == "场,笔,付款人,收款人,付款人编号,收款人编号,应付,已付,还欠,状态,付款,付款状态,时间"
    )
    open_ = ledger(table).read(settling.balance, table.chat_id).transfers
    ids = {p.display_name: str(p.id) for tr in open_ for p in (tr.payer, tr.payee)}  # the id columns
    body = [row[:12] for row in rows[1:]]
    assert body == [
        ["1", "1", "Cat", "Ann", ids["Cat"], ids["Ann"], "21", "10", "11", "部分已付", "10", "已确认"],
        ["1", "1", "Cat", "Ann", ids["Cat"], ids["Ann"], "21", "10", "11", "部分已付", "11", "待确认"],
        ["1", "2", "Dan", "Ann", ids["Dan"], ids["Ann"], "9", "0", "9", "未付", "", ""],
        ["1", "3", "Dan", "Bob", ids["Dan"], ids["Bob"], "1", "0", "1", "未付", "", ""],
    ]
    assert all(len(row[12]) == 19 for row in rows[1:3])  # local "2026-12-02 04:11:42"


@pytest.mark.slow
async def test_a_payment_stands_when_its_summary_cannot_be_read(seated_table: Table) -> None:
    """The storage fails reading the summary's transfers for its edit while 我已付 is pressed: the claim is
    recorded and answered, no 出错了; the summary card catches up with the next payment."""
    table = seated_table
    card = await night_one(table)

    def server_closed(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("SELECT", {}, Exception("server closed"))

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(settling, "figures", server_closed)
        turn = await table.press("cat", "1 我已付", message_id=card.message_id)
    assert turn.answers and "出错" not in " ".join(turn.answers + turn.texts)
    assert (1, "open", 21, 0, 21) in state(table)  # claimed: waits for Ann
    assert "待确认" not in summary(table, 1).text  # the card was not edited
    await table.press("ann", "1 已收到", message_id=card.message_id)
    assert "1. Cat → Ann 21 ✅ 已结清" in summary(table, 1).text
