"""All-time figures are money: /score's all-time lines, /stats and /history add up
what each ended night settled (after 收盘倍数, 台费, 抽水, 抹零), never the raw points of unlike stakes.
Through the real Application, on SQLite and PostgreSQL; every person's money by hand."""

from __future__ import annotations

import pytest
from harness import END, Table

from bot.ledger.money import settling
from bot.ledger.play import books


async def night(table: Table, hand: str) -> None:
    await table.say("ann", "/rules instant on")
    await table.say("ann", hand)
    await table.say("ann", "/end")
    await table.press("ann", END)


@pytest.mark.slow
async def test_all_time_figures_are_the_money_each_night_settled(db_seated: Table) -> None:
    """Both nights: 收盘倍数 2, 台费 5 a player.
    Night 1, stake 1: Ann (东) self-draws 5 花, T = 10: points Ann +30, the others −10;
        money Ann 30×2 − 5 = +55, Bob/Cat/Dan −10×2 − 5 = −25 each, 台 +20.
    Night 2, stake 5: Bob (南) self-draws 3 花, T = 8, 5 × 8 = 40 from each: points Bob +120, the others −40;
        money Bob 120×2 − 5 = +235, Ann/Cat/Dan −40×2 − 5 = −85 each, 台 +20.
    All-time money: Ann 55 − 85 = −30, Bob −25 + 235 = +210, Cat and Dan −25 − 85 = −110, 台 +40
    (sum 0). The points would have said Ann −10, Bob +110, Cat and Dan −50: not what changed hands."""
    table = db_seated
    table.set_admins("zoe")
    await table.say("zoe", "/rules 结算倍数 2")
    await table.say("zoe", "/rules 台费 5")
    await night(table, "/hu 东 自摸 5花")
    await table.say("ann", "/newgame 苏州 5")
    for name in ("ann", "bob", "cat", "dan"):
        await table.say(name, "/join")
    await table.say("ann", "/dealer 东")
    await night(table, "/hu 南 自摸 3花")

    turn = await table.say("eve", "/score")
    assert turn.text == (
        "本群历史输赢（已结束的各场，按实际结算的钱）：\nBob +210\n台 +40\nAnn −30\nCat −110\nDan −110"
    )
    turn = await table.say("eve", "/score @bob")
    assert turn.text == "Bob：本场积分 0，已结束各场实付 +210"
    turn = await table.say("eve", "/stats @bob")
    assert turn.sent[0].text.endswith("· 实付 +210"), turn.texts
    turn = await table.say("eve", "/history")
    lines = turn.sent[0].text.splitlines()
    assert lines[0] == "以往各场（已结束的按实际结算的钱）："
    assert lines[1].startswith("2. ") and "Bob +235" in lines[1] and "Ann −85" in lines[1]
    assert lines[2].startswith("1. ") and "Ann +55" in lines[2] and "Bob −25" in lines[2]
    # What is still open equals the all-time money: nobody has paid anything yet.
    report = table.app.bot_data["ledger"].read(settling.balance, table.chat_id)
    names = {tr.payer.id: tr.payer.display_name for tr in report.transfers}
    names |= {tr.payee.id: tr.payee.display_name for tr in report.transfers}
    assert {names[p]: v for p, v in report.totals.items()} == {
        "Ann": -30,
        "Bob": 210,
        "Cat": -110,
        "Dan": -110,
        "台": 40,
    }


async def test_the_session_csv_ends_in_money_with_the_same_columns(db_seated: Table) -> None:
    """收盘倍数 2, 台费 5: Ann (东) self-draws 5 花, T = 10: points Ann +30, the
    others −10; money Ann +55, Bob/Cat/Dan −25, 台 +20 (as in the test above). The session CSV's last total
    per person is that money, its 本局 column sums to 0, and the 玩家编号 column is there though no two
    people share a name."""
    import csv
    import io

    from bot.summary.csvfile import ledger_csv
    from bot.summary.tally import build_report

    table = db_seated
    table.set_admins("zoe")
    await table.say("zoe", "/rules 结算倍数 2")
    await table.say("zoe", "/rules 台费 5")
    await night(table, "/hu 东 自摸 5花")
    ledger = table.app.bot_data["ledger"]
    session_id = ledger.read(books.history, table.chat_id)[0].session.id
    data = ledger_csv(build_report(ledger, session_id), "zh-Hans").decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(data)))
    assert "玩家编号" in rows[0]
    last = {row["玩家"]: int(row["累计"]) for row in rows}
    assert last == {"Ann": 55, "Bob": -25, "Cat": -25, "Dan": -25, "台": 20}
    assert sum(int(row["本局"]) for row in rows) == 0
    settle = [row for row in rows if row["类型"] == "结算"]
    assert {row["玩家"]: int(row["本局"]) for row in settle} == {
        "Ann": 25,
        "Bob": -15,
        "Cat": -15,
        "Dan": -15,
        "台": 20,
    }
    assert settle[0]["备注"] == "本场 +30 → 实付 +55（结算倍数、抽水、台费、抹零）"
