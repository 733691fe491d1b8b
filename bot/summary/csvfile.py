"""The session ledger as CSV: UTF-8 with a BOM (spreadsheet programs then read the Chinese), one row per
hand and player."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Mapping
from typing import Any
from zoneinfo import ZoneInfo

from bot.i18n import t
from bot.ledger.values import HandRecord
from bot.render import hand_summary, join_clauses, term_name, wind
from bot.summary.tally import SessionReport
from bot.weekly import DEFAULT_TIMEZONE, aware

BOM = "\ufeff"
COLUMN_IDS = (
    "session",
    "hand",
    "kind",
    "time",
    "dealer",
    "seat",
    "player",
    "amount",
    "total",
    "winners",
    "hua",
    "items",
    "note",
    "entry",
)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet may run as a formula


def cell(value: object) -> object:
    """A CSV cell: numbers as numbers; text starting like a formula (`=HYPERLINK(…)`, `+1`, `-2`, `@x`, a
    tab or CR) gets a leading apostrophe, so a spreadsheet shows it as text instead of running it.

    >>> [cell(-5), cell("=1+1"), cell("@bob"), cell("Ann")]
    [-5, "'=1+1", "'@bob", 'Ann']
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def columns(lang: str | None) -> list[str]:
    """The header row in the group's language (catalog key `summary.csv_columns`, comma separated)."""
    names = [name.strip() for name in t(lang, "summary.csv_columns").split(",")]
    if len(names) != len(COLUMN_IDS):
        # A catalog that lost a column must not shift every value under the wrong header.
        return list(COLUMN_IDS)
    return names


_EDIT_NUMBER = re.compile(r"^\s*(?:第\s*)?#?([0-9]+)\s*局?(?:\s+|$)")


def entry_text(lang: str | None, hand: HandRecord) -> str:
    """The entry as a table reads it: the words as typed (an edit's without its hand number), or, for a
    hand recorded by buttons or /draw, its summary (`南 自摸 20花`, `荒庄`); never the stored JSON."""
    text = (hand.text or "").strip()
    if text and hand.replaces is not None:
        match = _EDIT_NUMBER.match(text)
        if match and int(match.group(1)) == hand.number:
            text = text[match.end() :].strip()
    return text or hand_summary(lang, hand)


def _per_winner(lang: str | None, wins: list[Mapping[str, Any]], value: Callable[[Any], Any]) -> object:
    """One winner's value as is; several winners' (一炮多响) each after its seat: `东 20；西 8`."""
    if len(wins) == 1:
        return value(wins[0])
    return join_clauses(lang, [f"{wind(lang, w.get('winner'))} {value(w)}" for w in wins])


def _items(lang: str | None, win: Mapping[str, Any]) -> str:
    return " ".join(term_name(lang, str(i.get("id") or ""), i.get("name")) for i in win.get("items", []))


def ledger_csv(report: SessionReport, lang: str | None, *, timezone: str = DEFAULT_TIMEZONE) -> bytes:
    """Every live ledger row, one CSV line per person who played (after a /sub both under the seat, each
    with their own amounts): the amount of that hand and the person's running total. Times in the group's
    `timezone` (with their UTC offset); 一炮多响 gives 花 and items per winner.

    Amounts of one hand sum to zero; the last total of each person is their net for the session.
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([cell(name) for name in columns(lang)])
    session = report.session
    zone = ZoneInfo(timezone)
    people = report.people or report.players
    running = dict.fromkeys((person.player.id for person in people), 0)
    for row in report.rows:
        hand = row.hand
        wins = [w for w in hand.response.get("wins", []) if w.get("allowed", True)]
        winners = " ".join(t(lang, f"wind.{w['winner']}") for w in wins)
        hua = _per_winner(lang, wins, lambda w: w.get("hua", "")) if wins else ""
        items = _per_winner(lang, wins, lambda w: _items(lang, w)) if wins else ""
        entry = entry_text(lang, hand)
        for person in people:
            amount = int(hand.player_payments.get(person.player.id, 0))
            running[person.player.id] += amount
            values = [
                session.number,
                hand.number,
                t(lang, f"summary.kind_{hand.kind}"),
                aware(hand.recorded_at).astimezone(zone).isoformat(timespec="seconds"),
                t(lang, f"wind.{hand.before.dealer}"),
                t(lang, f"wind.{person.seat}"),
                person.player.display_name,
                amount,
                running[person.player.id],
                winners,
                hua,
                items,
                hand.note or "",
                entry,
            ]
            writer.writerow([cell(value) for value in values])
    return (BOM + buffer.getvalue()).encode("utf-8")


def csv_filename(report: SessionReport) -> str:
    """`mahjong-session-<n>-<yyyymmdd>.csv`, ASCII only so every client saves it as is."""
    s = report.session
    return f"mahjong-session-{s.number}-{s.opened_at:%Y%m%d}.csv"
