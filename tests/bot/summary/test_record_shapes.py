"""The night's record as a spreadsheet user and a chart reader see it: a substituted seat is two
people, two people with one name stay two, adjustments are not hands, nobody who was not at the table has
a row, and times and file names are local."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from jobs_game import CHAT, win
from reads import session_summary

from bot.ledger import Ledger, UserRef
from bot.ledger.play import groups, recording, seating, sessions
from bot.summary import build_report, chart_data, history_chart_data, ledger_csv
from bot.summary.csvfile import COLUMN_IDS, csv_filename

# Two of the four are called 张强; 刘洋 takes 北's seat after hand 2.
ZHANG_A, ZHANG_B = UserRef(11, "张强", "zq1"), UserRef(12, "张强", "zq2")
LI, WANG, LIU = UserRef(13, "李梅", "lm"), UserRef(14, "王芳", "wf"), UserRef(15, "刘洋", "ly")


def night(ledger: Ledger) -> int:
    """Hands 1-2 with 北 王芳, an adjustment, 刘洋 in for 王芳, hand 3, a closing adjustment."""
    session = sessions.open_session(ledger, CHAT, by=ZHANG_A, stake=1)
    for user in (ZHANG_A, ZHANG_B, LI, WANG):
        seating.join(ledger, CHAT, user)
    sessions.set_dealer(ledger, CHAT, "E")
    recording.commit(
        ledger, CHAT, win("S", "self_draw", ["清一色"]), source_key="h1", text="南 自摸 5花 清一色"
    )
    recording.commit(
        ledger, CHAT, win("N", "discard", [], hard=8, discarder="E"), source_key="h2", text="北 冲 东 8花"
    )
    adjust(ledger, "W", "S", 7)
    seating.substitute(ledger, CHAT, "N", LIU)
    recording.commit(
        ledger, CHAT, win("N", "self_draw", ["清一色"]), source_key="h3", text="北 自摸 5花 清一色"
    )
    adjust(ledger, "E", "N", 3)
    return session.id


def adjust(ledger: Ledger, payer: str, payee: str, amount: int) -> None:
    recording.adjust(
        ledger,
        CHAT,
        ledger.read(groups.find_player, CHAT, payer)[0].id,
        ledger.read(groups.find_player, CHAT, payee)[0].id,
        amount,
    )


def rows_of(data: bytes) -> tuple[list[str], list[dict[str, str]]]:
    lines = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    return lines[0], [dict(zip(COLUMN_IDS, line, strict=True)) for line in lines[1:]]


def test_the_chart_draws_a_line_per_person_and_a_point_per_hand(ledger: Ledger) -> None:
    report = build_report(ledger, night(ledger))
    data = chart_data(report, "zh-Hans")
    numbers = tuple(str(r.hand.number) for r in report.rows if r.hand.kind != "adjust")
    assert len(data.hands) == 3 and data.hands == numbers  # the two adjustments are no points of their own
    lines = {line.name: line.totals for line in data.series}
    # the two 张强 as the card and settling name them (the group's twin numbers), their seats before
    assert set(lines) == {"东 张强（1）", "南 张强（2）", "西 李梅", "北 王芳", "北 刘洋"}
    nets = {person.player.id: person.net for person in report.people}
    by_id = dict(zip((p.player.id for p in report.people), data.series, strict=True))
    for pid, line in by_id.items():
        assert line.totals[-1] == nets[pid]  # each line ends at that person's own net
    wang = next(line for line in data.series if line.name.endswith("王芳"))
    assert wang.totals[2] == wang.totals[1]  # 王芳 left after hand 2: flat from then on
    liu = next(line for line in data.series if line.name.endswith("刘洋"))
    assert liu.totals[:2] == (0, 0) and liu.totals[2] != 0


def test_two_people_with_one_name_are_two_legend_entries_never_an_id(ledger: Ledger) -> None:
    report = build_report(ledger, night(ledger))
    names = [line.name for line in chart_data(report, "zh-Hans").series]
    assert len(set(names)) == len(names)
    assert not any(name.split()[-1].isdigit() for name in names)
    everyone = {p.player.id: p.player.display_name for p in report.people}
    history = history_chart_data([session_summary(ledger, report.session.id)], "zh-Hans", names=everyone)
    assert history is not None
    legend = sorted(line.name for line in history.series)
    assert legend == ["刘洋", "张强（1）", "张强（2）", "李梅", "王芳"]  # 王芳 left: by name, not by id


def test_one_players_history_chart_is_titled_for_them(ledger: Ledger) -> None:
    report = build_report(ledger, night(ledger))
    liu = next(p.player for p in report.people if p.player.display_name == "刘洋")
    data = history_chart_data([session_summary(ledger, report.session.id)], "zh-Hans", player_id=liu.id)
    assert data is not None and data.title == "刘洋 的历史累计输赢（按场，实付）"
    assert [line.name for line in data.series] == ["刘洋"]


def test_csv_has_a_row_per_seated_player_per_entry_and_ids_where_names_repeat(ledger: Ledger) -> None:
    report = build_report(ledger, night(ledger))
    header, rows = rows_of(ledger_csv(report, "zh-Hans"))
    assert "玩家编号" in header  # two 张强 at the table
    assert len(rows) == 4 * len(report.rows)  # five entries, four seated each: nobody else
    by_entry: dict[tuple[str, str], list[dict[str, str]]] = {}
    for row in rows:
        by_entry.setdefault((row["hand"], row["entry"]), []).append(row)
    for entry_rows in by_entry.values():
        assert sum(int(r["amount"]) for r in entry_rows) == 0
        assert [r["seat"] for r in entry_rows] == ["东", "南", "西", "北"]
    hand3 = [r for r in rows if r["entry"] == "北 自摸 5花 清一色"]
    assert hand3[-1]["player"] == "刘洋"  # who sat there then; 王芳 has no row for it
    hand1 = [r for r in rows if r["entry"] == "南 自摸 5花 清一色"]
    assert hand1[-1]["player"] == "王芳"
    zhang = {r["player_id"] for r in rows if r["player"] == "张强"}
    assert len(zhang) == 2  # the two 张强 apart
    last = {r["player_id"]: int(r["total"]) for r in rows}
    assert last == {str(p.player.id): p.net for p in report.people}


def test_csv_without_twins_has_the_same_columns_and_local_times(ledger: Ledger) -> None:
    session = sessions.open_session(ledger, CHAT, by=LI, stake=1)
    for user in (LI, WANG, LIU, ZHANG_A):
        seating.join(ledger, CHAT, user)
    sessions.set_dealer(ledger, CHAT, "E")
    recording.commit(ledger, CHAT, win("S", "self_draw", ["清一色"]), source_key="h1")
    report = build_report(ledger, session.id)
    lines = list(csv.reader(io.StringIO(ledger_csv(report, "zh-Hans").decode("utf-8-sig"))))
    assert "玩家编号" in lines[0] and len(lines[0]) == len(COLUMN_IDS)  # every night the same columns
    time = lines[1][lines[0].index("时间")]
    assert datetime.strptime(time, "%Y-%m-%d %H:%M:%S")  # 2026-12-02 04:11:42: no T, no offset
    recorded = report.rows[0].hand.recorded_at.replace(tzinfo=UTC)
    assert time == f"{recorded.astimezone(ZoneInfo('Asia/Shanghai')):%Y-%m-%d %H:%M:%S}"


def test_the_file_name_carries_the_local_date(ledger: Ledger) -> None:
    report = build_report(ledger, night(ledger))
    opened = report.session.opened_at.replace(tzinfo=report.session.opened_at.tzinfo or UTC)
    local = opened.astimezone(ZoneInfo("Asia/Shanghai"))
    assert csv_filename(report) == f"mahjong-session-{report.session.number}-{local:%Y%m%d}.csv"
    honolulu = opened.astimezone(ZoneInfo("Pacific/Honolulu"))
    assert csv_filename(report, "Pacific/Honolulu").endswith(f"-{honolulu:%Y%m%d}.csv")
