"""/season through the real Application: the two nights of the issue (stake 5), the season's figures as
/score all-time and /stats count them, the card, closing a season with its Confirm (admins only), the hall
of fame; money owed stays owed."""

from __future__ import annotations

from harness import Table, ledger, money
from season_nights import night, two_nights

from bot.ledger.seasons import state as seasons
from bot.summary.chart import PNG_SIGNATURE


def figures_by_name(table: Table) -> seasons.Current:
    return ledger(table).read(seasons.current, table.chat_id, ledger(table).now())


async def test_the_issues_two_nights(table: Table) -> None:
    await two_nights(table)
    view = figures_by_name(table)
    names = {pid: p.name for pid, p in view.figures.people.items()}
    assert {names[ln.person.id]: (ln.net, ln.nights) for ln in view.figures.lines} == {
        "Ann": (-50, 2),
        "Bob": (-50, 2),
        "Cat": (150, 2),
        "Dan": (-50, 2),
    }
    ids = {name: pid for pid, name in names.items()}
    fed = {(names[a], names[b]): (f.count, f.money) for (a, b), f in view.figures.fed.items()}
    assert fed == {("Ann", "Bob"): (1, 50), ("Bob", "Ann"): (1, 50)}
    trend: dict[str, list[int]] = {}
    for pid in ids.values():
        running = 0
        trend[names[pid]] = [running := running + n.money.get(pid, 0) for n in view.figures.nights]
    assert trend == {"Ann": [-100, -50], "Bob": [0, -50], "Cat": [150, 150], "Dan": [-50, -50]}

    turn = await table.say("eve", "/season")
    photos = turn.of("sendPhoto")
    assert len(photos) == 1
    assert photos[0].files["photo"].content[:8] == PNG_SIGNATURE
    caption = str(photos[0].params["caption"])
    assert "1. Cat +150 · 2场" in caption and "Ann −50 · 2场" in caption


async def test_closing_a_season_keeps_its_standings_and_the_money_owed(db_table: Table) -> None:
    table = db_table  # SQLite, and PostgreSQL when TEST_DATABASE_URL is set
    await two_nights(table)
    owed = money(table)
    turn = await table.say("bob", "/season close 春")
    assert turn.text == "只有群管理员可以结束赛季。"
    table.set_admins("zoe")
    turn = await table.say("zoe", "/season close " + "长" * 33)
    assert turn.text.startswith("赛季的名字最多32个字") and not turn.sent[0].buttons
    turn = await table.say("zoe", "/season close 春")
    assert "结束第1赛季“春”吗" in turn.text
    assert (await table.press("bob", "✅ 结束赛季")).answers == ["只有群管理员可以结束赛季。"]
    turn = await table.press("zoe", "✅ 结束赛季")
    closed = turn.edits[0].text
    assert closed.startswith("🏁 第1赛季“春”结束，共2场。")
    assert "1. Cat +150 · 2场" in closed and "💰 赌神：Cat +150" in closed
    assert "📅 全勤：Ann 2场" in closed
    assert money(table) == owed  # money owed stays owed
    assert not table.buttons(turn.edits[0].message_id)  # the question's buttons are gone with it

    turn = await table.say("eve", "/season")
    assert not turn.of("sendPhoto")
    assert turn.text.startswith("第2赛季：还没有结束的场。")
    assert "往季：\n第1赛季“春”，2场：🏆 Cat +150" in turn.text
    turn = await table.say("zoe", "/season close")
    assert turn.text == "第2赛季还没有结束的场：没有可以结束的。"

    await night(table, "/hu 北 自摸 5花")  # the next season counts from the close
    view = figures_by_name(table)
    assert view.number == 2 and len(view.figures.nights) == 1
    assert {ln.person.name: ln.net for ln in view.figures.lines} == {
        "Dan": 150,
        "Ann": -50,
        "Bob": -50,
        "Cat": -50,
    }
