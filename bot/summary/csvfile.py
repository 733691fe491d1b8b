"""The session ledger as CSV: UTF-8 with a BOM (spreadsheet programs then read the Chinese), one row per
hand and player."""

from __future__ import annotations

import csv
import io
import json

from bot.i18n import t
from bot.render import term_name
from bot.summary.report import SessionReport

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


def ledger_csv(report: SessionReport, lang: str | None) -> bytes:
    """Every live ledger row, one CSV line per seated player: the amount of that hand and the running total.

    Amounts of one hand sum to zero; the last total of each player is their net for the session.
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([cell(name) for name in columns(lang)])
    session = report.session
    for row in report.rows:
        hand = row.hand
        wins = [w for w in hand.response.get("wins", []) if w.get("allowed", True)]
        winners = " ".join(t(lang, f"wind.{w['winner']}") for w in wins)
        hua = " ".join(str(w.get("hua", "")) for w in wins)
        items = " ".join(
            term_name(lang, str(i.get("id") or ""), i.get("name")) for w in wins for i in w.get("items", [])
        )
        for line in report.players:
            values = [
                session.number,
                hand.number,
                t(lang, f"summary.kind_{hand.kind}"),
                hand.recorded_at.isoformat(timespec="seconds"),
                t(lang, f"wind.{hand.before.dealer}"),
                t(lang, f"wind.{line.seat}"),
                line.player.display_name,
                int(hand.payments.get(line.seat, 0)),
                int(row.running.get(line.seat, 0)),
                winners,
                hua,
                items,
                hand.note or "",
                hand.text or json.dumps(hand.entry, ensure_ascii=False, sort_keys=True),
            ]
            writer.writerow([cell(value) for value in values])
    return (BOM + buffer.getvalue()).encode("utf-8")


def csv_filename(report: SessionReport) -> str:
    """`mahjong-session-<n>-<yyyymmdd>.csv`, ASCII only so every client saves it as is."""
    s = report.session
    return f"mahjong-session-{s.number}-{s.opened_at:%Y%m%d}.csv"
