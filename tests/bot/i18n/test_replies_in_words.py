"""Replies in words, through the real bot: the CSV in the group's zone, refusals in words,
/ting by tile names, multipliers, /adjust and /undo wording, ties, voided previews, /sub in the summary."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from harness import Table

from bot.ledger.play import recording, sessions


def _csv_rows(table: Table) -> list[list[str]]:
    [call] = [c for c in table.state.calls if c.method == "sendDocument"][-1:]
    data = call.files["document"].content.decode("utf-8-sig")
    return list(csv.reader(io.StringIO(data)))


@pytest.mark.slow
async def test_the_csv_of_end_uses_the_group_time_zone(seated_table: Table) -> None:
    await seated_table.say("ann", "/rules timezone Asia/Tokyo")
    await seated_table.say("bob", "/hu 南 自摸 5花 清一色")
    await seated_table.press("cat", "✅ 确认")
    await seated_table.say("ann", "/end")
    await seated_table.press("ann", "✅ 结束并结算")
    rows = _csv_rows(seated_table)
    shown = datetime.strptime(rows[1][3], "%Y-%m-%d %H:%M:%S").replace(tzinfo=ZoneInfo("Asia/Tokyo"))
    assert abs(shown - datetime.now(UTC)) < timedelta(minutes=10)  # Tokyo's clock, as 2026-12-02 04:11:42


async def test_a_refused_winner_in_a_preview_says_why_in_words(seated_table: Table) -> None:
    # One winner of a 一炮多响 refused: the preview shows why, in words, and the other winner stands
    # (docs/rules.md §1: "A win that is not allowed scores nothing and is reported with its reason").
    from bot.grammar import parse_hu
    from bot.handlers.turn import seat_resolver
    from bot.render import preview_text

    turn = await seated_table.say("ann", "/hu 东 8花 西 2花 冲 北")
    assert "✖ 西 Cat 硬花不够，要4张，这手只有2张" in turn.text and "输赢：东 +13 · 北 −13" in turn.text
    assert "below_threshold" not in turn.text
    ledger = seated_table.app.bot_data["ledger"]
    session = sessions.require_session(ledger, seated_table.chat_id)
    preview = recording.preview(
        ledger, seated_table.chat_id, parse_hu("东 8花 西 2花 冲 北", seat_resolver(session))
    )
    text = preview_text("zh-Hans", preview, session)
    assert "✖ 西 Cat 硬花不够，要4张，这手只有2张" in text
    assert "below_threshold" not in text


async def test_calc_says_why_a_win_is_refused(seated_table: Table) -> None:
    turn = await seated_table.say("ann", "/calc 西 冲 北 2花")
    assert "✖ 西 硬花不够，要4张，这手只有2张" in turn.text
    assert "below_threshold" not in turn.text


def test_the_exempt_patterns_are_cut_to_three() -> None:
    from bot.render import refusal_text

    exempt = ["qidui", "dadiaoche", "qingyise", "duiduihu", "hunyise"]
    reason = {
        "winner": "W",
        "reason": "below_threshold",
        "threshold": {"have": 2, "need": 4, "exempt": exempt},
    }
    text = refusal_text("zh-Hans", reason)
    assert text.endswith("（七对、大吊车、清一色等不受此限）")
    assert "…" in refusal_text("en", reason)


async def test_ting_names_the_tiles(table: Table) -> None:
    turn = await table.say("eve", "/ting 123m456p789s1122z")
    assert [line.split("：")[0] for line in turn.text.splitlines()[1:]] == ["东、南"]  # they score alike
    turn = await table.say("eve", "/ting 1112345678999p")
    assert turn.text.splitlines()[-1].startswith("一筒、二筒、三筒、四筒、五筒、六筒、七筒、八筒、九筒：")


async def test_multipliers_read_as_what_they_are(seated_table: Table) -> None:
    turn = await seated_table.say("ann", "/hu 南 包 西 5花 清一色")
    preview = turn.sent[-1].text
    assert "  包饺子 ×3" in preview.splitlines()
    assert "包饺子 0" not in preview and "  ×3" not in preview.splitlines()
    done = await seated_table.press("cat", "✅ 确认")
    assert "第1局 南 包饺子（西 包） 25花 ×3 → 南 +75 · 西 −75" in "\n".join(
        [*done.texts, *(e.text for e in done.edits)]
    )
    turn = await seated_table.say("eve", "/calc 南 抢杠 西 5花 清一色")
    assert "  抢杠 ×3" in turn.text.splitlines()


async def test_an_adjust_is_not_a_hand_and_its_undo_says_voided(seated_table: Table) -> None:
    await seated_table.say("bob", "/hu 南 自摸 5花 清一色")
    await seated_table.press("cat", "✅ 确认")
    turn = await seated_table.say("ann", "/adjust 东 西 50 茶水")
    preview = turn.sent[-1].text
    assert preview.startswith("📝 预览 · 调账\n") and "局" not in preview.splitlines()[0]
    await seated_table.press("cat", "✅ 确认")
    turn = await seated_table.say("ann", "/undo")
    assert turn.text == "撤销调账（东→西 50）？"
    done = await seated_table.press("cat", "撤销")
    shown = "\n".join([*done.texts, *(e.text for e in done.edits if not e.text.startswith("📒"))])
    assert "调账（东→西 50）已撤销。" in shown
    assert "✅ Cat 已确认，这笔调账已作废。" in shown
    assert "庄家" not in shown and "记入账本" not in shown and "第2局" not in shown
    turn = await seated_table.say("ann", "/undo")
    assert turn.text.startswith("撤销第1局（")
    done = await seated_table.press("cat", "撤销")
    shown = "\n".join([*done.texts, *(e.text for e in done.edits)])
    assert "第1局已撤销。庄家、连庄、滴零已退回。" in shown
    assert "✅ Cat 已确认，这一局已作废。" in shown and "记入账本" not in shown


async def _end(table: Table) -> str:
    await table.say("ann", "/end")
    turn = await table.press("ann", "✅ 结束并结算")
    return turn.texts[0]


@pytest.mark.slow
async def test_ties_name_every_player(seated_table: Table) -> None:
    await seated_table.say("ann", "/rules instant on")
    await seated_table.say("ann", "/hu 东 自摸 5花")  # 东 keeps the deal: 连庄 1
    await seated_table.say("ann", "/hu 南 自摸 5花")  # the deal passes to 南
    await seated_table.say("ann", "/hu 南 自摸 5花")  # 南 keeps it: 连庄 1, a tie
    summary = await _end(seated_table)
    assert "最长连庄：连庄1次，东 Ann（到第1局）、南 Bob（到第3局）" in summary.splitlines()
    biggest = [line for line in summary.splitlines() if line.startswith("最大一手：")]
    assert len(biggest) >= 1 and all(("东 Ann" in b) or ("南 Bob" in b) for b in biggest)


async def test_after_a_sub_the_summary_and_csv_name_who_played(seated_table: Table) -> None:
    await seated_table.say("ann", "/dealer 北")
    await seated_table.say("ann", "/rules instant on")
    await seated_table.say("ann", "/hu 北 自摸 5花 清一色")  # Dan deals and wins: the biggest hand, 连庄 1
    await seated_table.seat_guest("ann", "/sub 北 老王")
    await seated_table.say("ann", "/hu 南 自摸 5花")
    summary = await _end(seated_table)
    [biggest] = [line for line in summary.splitlines() if line.startswith("最大一手：")]
    assert biggest.startswith("最大一手：第1局 北 Dan ")
    assert "最长连庄：连庄1次，北 Dan（到第1局）" in summary.splitlines()
    rows = _csv_rows(seated_table)
    by_hand = {(r[1], r[6]): (int(r[8]), int(r[9])) for r in rows[1:]}  # r[7]: the player id, every night
    assert by_hand[("1", "Dan")][0] == 60 and ("1", "老王") not in by_hand  # 老王 was not at the table yet
    assert ("2", "Dan") not in by_hand and by_hand[("2", "老王")][0] < 0  # nor Dan any longer
    assert {r[5] for r in rows[1:] if r[6] in ("Dan", "老王")} == {"北"}
    assert len(rows) == 1 + 4 * 2  # two hands, the four seated at each


async def test_a_voided_preview_keeps_its_first_reason(bot_settings: object, transport: object) -> None:
    from datetime import UTC, datetime, timedelta

    from bot.app import build_application
    from bot.console.driver import settle
    from bot.ledger import Ledger

    now = [datetime.now(UTC).replace(microsecond=0) + timedelta(hours=1)]
    clocked = Ledger.from_url(bot_settings.database_url, clock=lambda: now[0])  # type: ignore[attr-defined]
    app = build_application(bot_settings, request=transport, get_updates_request=transport, ledger=clocked)
    table = await Table.start(app, transport)  # type: ignore[arg-type]
    try:
        await table.say("ann", "/newgame")
        for name in ("ann", "bob", "cat", "dan"):
            await table.say(name, "/join")
        await table.say("ann", "/dealer 东")
        await table.say("ann", "/rules timeout 30")
        stale = (await table.say("bob", "/hu 南 自摸 5花 清一色")).sent[0]
        cancelled = (await table.say("bob", "/hu 西 自摸 5花 清一色")).sent[0]
        fresh = (await table.say("bob", "/draw")).sent[0]
        await table.press("cat", "✅ 确认", message_id=fresh.message_id)
        await table.press("cat", "✅ 确认", message_id=stale.message_id)
        await table.press("cat", "✖ 取消", message_id=cancelled.message_id)
        stale_text = table.message(stale.message_id).text
        assert stale_text.endswith("预览之后又记了别的，这条作废了。请重新记录。")
        assert table.message(cancelled.message_id).text.endswith("已取消，没有记入。")
        now[0] += timedelta(seconds=31)
        assert app.job_queue is not None
        for job in [job for job in app.job_queue.jobs() if job.name == "jobs:expire"]:
            await job.run(app)
        await settle(app)
        assert table.message(stale.message_id).text == stale_text
        assert table.message(cancelled.message_id).text.endswith("已取消，没有记入。")
        assert "已过期" not in table.message(stale.message_id).text
    finally:
        await table.stop()
