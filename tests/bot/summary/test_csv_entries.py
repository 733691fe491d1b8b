"""The CSV reads like the table: the entry as typed or rendered, never JSON; an edit's words
without its hand number; 一炮多响 per winner; times in the group's time zone."""

from __future__ import annotations

import csv
import io
from datetime import datetime
from zoneinfo import ZoneInfo

from jobs_game import CHAT, PLAYERS, win

from bot.ledger import Ledger
from bot.ledger.play import recording, seating, sessions
from bot.summary import build_report, ledger_csv
from bot.summary.csvfile import COLUMN_IDS
from scoring.entry import Claim, build_entry


def rows_of(data: bytes) -> list[dict[str, str]]:
    lines = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    ids = list(COLUMN_IDS)  # the id column every night, four different names or not
    return [dict(zip(ids, line, strict=True)) for line in lines[1:]]


def played(ledger: Ledger) -> int:
    session = sessions.open_session(ledger, CHAT, by=PLAYERS[0], stake=1)
    for user in PLAYERS:
        seating.join(ledger, CHAT, user)
    sessions.set_dealer(ledger, CHAT, "E")
    recording.commit(
        ledger, CHAT, win("S", "self_draw", ["清一色"]), source_key="k1", text="南 自摸 5花 清一色"
    )
    recording.commit(ledger, CHAT, build_entry("draw"), source_key="k2")  # /draw: no words after the command
    multi = build_entry(
        "discard", [Claim("E", hard_flowers=8), Claim("W", hard_flowers=5, patterns=("清一色",))], other="N"
    )
    recording.commit(ledger, CHAT, multi, source_key="k3")  # by buttons: no text
    recording.edit(
        ledger, CHAT, 1, win("S", "self_draw", ["七对"]), source_key="k4", text="1 南 自摸 5花 七对"
    )
    return session.id


def test_entry_column_reads_like_the_hand(ledger: Ledger) -> None:
    report = build_report(ledger, played(ledger))
    rows = rows_of(ledger_csv(report, "zh-Hans"))
    entries = {row["hand"]: row["entry"] for row in rows}
    assert entries["1"] == "南 自摸 5花 七对"  # the edit's words, not "1 南 自摸 …"
    assert entries["2"] == "荒庄"
    assert "{" not in entries["3"] and entries["3"].startswith("北 放冲，东")
    assert all("{" not in row["entry"] for row in rows)


def test_several_winners_each_have_their_own_patterns(ledger: Ledger) -> None:
    report = build_report(ledger, played(ledger))
    row = next(r for r in rows_of(ledger_csv(report, "zh-Hans")) if r["hand"] == "3")
    assert row["winners"] == "东 西"
    east, west = row["items"].split("；")
    assert east.startswith("东 ") and "清一色" not in east
    assert west.startswith("西 ") and "清一色" in west
    assert row["hua"].startswith("东 ") and "；西 " in row["hua"]
    single = next(r for r in rows_of(ledger_csv(report, "en")) if r["hand"] == "1")
    assert single["hua"].isdigit() and not single["items"].startswith("S ")


def test_times_are_in_the_group_time_zone(ledger: Ledger) -> None:
    report = build_report(ledger, played(ledger))
    shanghai = rows_of(ledger_csv(report, "zh-Hans"))  # the default: the group's Asia/Shanghai
    london = rows_of(ledger_csv(report, "en", timezone="Europe/London"))
    for a, b in zip(shanghai, london, strict=True):  # the same moment, as each city's clock shows it
        here = datetime.strptime(a["time"], "%Y-%m-%d %H:%M:%S").replace(tzinfo=ZoneInfo("Asia/Shanghai"))
        there = datetime.strptime(b["time"], "%Y-%m-%d %H:%M:%S").replace(tzinfo=ZoneInfo("Europe/London"))
        assert here == there
