"""bot/weekly.py: the weekly slot before and after a moment, in the group's time zone, and the grace."""

from __future__ import annotations

import datetime as dtm

import pytest

from bot.weekly import GRACE, due_post, latest_due, next_due, time_of_day

UTC = dtm.UTC
SHANGHAI = dtm.timezone(dtm.timedelta(hours=8))
# Sunday 2024-06-16 20:00 in Suzhou is 12:00 UTC.
SLOT = dtm.datetime(2024, 6, 16, 12, 0, tzinfo=UTC)


def test_latest_and_next_slot_in_shanghai() -> None:
    just_after = SLOT + dtm.timedelta(seconds=30)
    assert latest_due("sun", "20:00", "Asia/Shanghai", just_after) == SLOT
    assert next_due("sun", "20:00", "Asia/Shanghai", just_after) == SLOT + dtm.timedelta(days=7)
    # at the slot itself it is due; a second before, last week's was the latest
    assert latest_due("sun", "20:00", "Asia/Shanghai", SLOT) == SLOT
    before = SLOT - dtm.timedelta(seconds=1)
    assert latest_due("sun", "20:00", "Asia/Shanghai", before) == SLOT - dtm.timedelta(days=7)
    assert next_due("sun", "20:00", "Asia/Shanghai", before) == SLOT
    local = next_due("fri", "21:30", "Asia/Shanghai", SLOT).astimezone(SHANGHAI)
    assert (local.date(), local.hour, local.minute) == (dtm.date(2024, 6, 21), 21, 30)


def test_the_local_day_counts_not_the_utc_day() -> None:
    # Monday 2024-06-17 01:00 in Suzhou is still Sunday 17:00 UTC: Monday 00:30's slot has passed.
    now = dtm.datetime(2024, 6, 16, 17, 0, tzinfo=UTC)
    assert latest_due("mon", "00:30", "Asia/Shanghai", now) == dtm.datetime(2024, 6, 16, 16, 30, tzinfo=UTC)


def test_daylight_saving_keeps_the_wall_clock() -> None:
    # Berlin moves from UTC+1 to UTC+2 on 2024-03-31: Sunday 20:00 local is 19:00 UTC, then 18:00 UTC.
    before = latest_due("sun", "20:00", "Europe/Berlin", dtm.datetime(2024, 3, 25, tzinfo=UTC))
    assert before == dtm.datetime(2024, 3, 24, 19, 0, tzinfo=UTC)
    assert next_due("sun", "20:00", "Europe/Berlin", before) == dtm.datetime(2024, 3, 31, 18, 0, tzinfo=UTC)


def test_naive_database_datetimes_are_utc() -> None:
    naive = SLOT.replace(tzinfo=None) + dtm.timedelta(minutes=1)
    assert latest_due("sun", "20:00", "Asia/Shanghai", naive) == SLOT
    assert due_post("sun", "20:00", "Asia/Shanghai", SLOT.replace(tzinfo=None), naive) is None


def test_due_once_and_within_a_day() -> None:
    now = SLOT + dtm.timedelta(minutes=1)
    assert due_post("sun", "20:00", "Asia/Shanghai", None, now) == SLOT
    assert due_post("sun", "20:00", "Asia/Shanghai", SLOT - dtm.timedelta(days=7), now) == SLOT
    assert due_post("sun", "20:00", "Asia/Shanghai", SLOT + dtm.timedelta(seconds=5), now) is None
    # turned on after the slot (/schedule stores the last post as "now"): nothing until next week
    assert due_post("sun", "20:00", "Asia/Shanghai", now, now + dtm.timedelta(minutes=1)) is None
    assert due_post("sun", "20:00", "Asia/Shanghai", None, SLOT + GRACE) == SLOT
    assert due_post("sun", "20:00", "Asia/Shanghai", None, SLOT + GRACE + dtm.timedelta(seconds=1)) is None


def test_time_of_day() -> None:
    assert time_of_day("08:05") == dtm.time(8, 5)
    with pytest.raises(ValueError):
        time_of_day("25:00")
