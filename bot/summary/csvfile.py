"""The session ledger as CSV: UTF-8 with a BOM (spreadsheet programs then read the Chinese), one row per
entry and seated player (the four at the table for that entry, nobody else)."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from zoneinfo import ZoneInfo

from bot.grammar.retype import declared_words
from bot.i18n import t
from bot.ledger.values import SEATS, HandRecord, wins_of
from bot.render import hand_summary, signed, wind
from bot.render.items import join_clauses, term_name
from bot.summary.tally import SessionReport
from bot.weekly import DEFAULT_TIMEZONE, aware
from scoring.response import WinResult
from scoring.rules import RuleSetId
from scoring.seats import Seat

BOM = "\ufeff"
COLUMN_IDS = (
    "session",
    "hand",
    "kind",
    "time",
    "dealer",
    "seat",
    "player",
    "player_id",
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


def columns(lang: str | None, *, player_id: bool = True) -> list[str]:
    """The header row in the group's language (catalog key `summary.csv_columns`, comma separated); the
    player id column only with `player_id` (when two people of the session share a name)."""
    names = [name.strip() for name in t(lang, "summary.csv_columns").split(",")]
    if len(names) != len(COLUMN_IDS):
        # A catalog that lost a column must not shift every value under the wrong header.
        names = list(COLUMN_IDS)
    return [n for n, c in zip(names, COLUMN_IDS, strict=True) if player_id or c != "player_id"]


LOCAL_TIME = "%Y-%m-%d %H:%M:%S"  # what a spreadsheet reads as a date and time: 2026-12-02 04:11:42


_EDIT_NUMBER = re.compile(r"^\s*(?:第\s*)?#?([0-9]+)\s*局?(?:\s+|$)")


def entry_text(lang: str | None, hand: HandRecord) -> str:
    """The entry as a table reads it: the words as typed (an edit's without its hand number); for a hand
    recorded by buttons, the /hu words that record it again (`南 自摸 5花 清一色`: 硬花, not the total);
    else (/draw, a tile hand from the picker) its summary (`荒庄`); never the stored JSON."""
    text = (hand.text or "").strip()
    if text and hand.replaces is not None:
        match = _EDIT_NUMBER.match(text)
        if match and int(match.group(1)) == hand.number:
            text = text[match.end() :].strip()
    return text or declared_words(hand.entry) or hand_summary(lang, hand)


def _per_winner(lang: str | None, wins: list[WinResult], value: Callable[[WinResult], object]) -> object:
    """One winner's value as is; several winners' (一炮多响) each after its seat: `东 20；西 8`."""
    if len(wins) == 1:
        return value(wins[0])
    return join_clauses(lang, [f"{wind(lang, w['winner'])} {value(w)}" for w in wins])


def _items(lang: str | None, win: WinResult, rules: RuleSetId | None = None) -> str:
    """A win's items by name, in the rule set's words (宿州's 花牌, not 硬花)."""
    return " ".join(term_name(lang, i["id"], i["name"], rules) for i in win["items"])


def ledger_csv(report: SessionReport, lang: str | None, *, timezone: str = DEFAULT_TIMEZONE) -> bytes:
    """Every live ledger row, one CSV line per player seated for it (after a /sub, the one who sat there
    then): that entry's amount and the player's running total. Times are local to the group's `timezone`
    (`2026-12-02 04:11:42`); 一炮多响 gives 花 and items per winner; a player id column tells apart two
    people with one name.

    Amounts of one entry sum to zero. Once the session has ended, a 结算 line per person whose money is
    not their net (收盘倍数, 台费, 抽水, 抹零; the 台 too) adds the difference: the last total of each person
    is then what the session settled them, and the 本局 column sums to money. The player id column is
    always there (the same columns every night)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    people = {person.player.id: person.player.display_name for person in report.people or report.players}
    with_ids = True  # the same columns every night, whether or not two people share a name
    writer.writerow([cell(name) for name in columns(lang, player_id=with_ids)])
    session = report.session
    zone = ZoneInfo(timezone)
    running = dict.fromkeys(people, 0)
    for row in report.rows:
        hand = row.hand
        for pid, amount in hand.player_payments.items():
            running[pid] = running.get(pid, 0) + amount
        wins = [w for w in wins_of(hand.response) if w["allowed"]]
        winners = " ".join(t(lang, f"wind.{w['winner']}") for w in wins)
        hua = _per_winner(lang, wins, lambda w: w["hua"]) if wins else ""
        items = _per_winner(lang, wins, lambda w: _items(lang, w, session.rules)) if wins else ""
        entry = entry_text(lang, hand)
        for seat, pid in seated(report, hand).items():
            values = [
                session.number,
                hand.number,
                t(lang, f"summary.kind_{hand.kind}"),
                aware(hand.recorded_at).astimezone(zone).strftime(LOCAL_TIME),
                t(lang, f"wind.{hand.before.dealer}"),
                t(lang, f"wind.{seat}"),
                people.get(pid, ""),
                *([pid] if with_ids else []),
                int(hand.player_payments.get(pid, 0)),
                running.get(pid, 0),
                winners,
                hua,
                items,
                hand.note or "",
                entry,
            ]
            writer.writerow([cell(value) for value in values])
    for f in report.figures:  # what settling changed (收盘倍数, 台费, 抽水, 抹零): the totals end in money
        paid = f.rounded - f.carried
        if paid == f.net:
            continue
        ended = aware(session.ended_at).astimezone(zone).strftime(LOCAL_TIME) if session.ended_at else ""
        note = t(lang, "summary.csv_settle_note", net=signed(f.net), paid=signed(paid))
        values = [
            session.number,
            "",
            t(lang, "summary.kind_settle"),
            ended,
            "",
            "",
            f.player.display_name,
            f.player.id,
            paid - f.net,
            running.get(f.player.id, 0) + paid - f.net,
            "",
            "",
            "",
            note,
            "",
        ]
        writer.writerow([cell(value) for value in values])
    return (BOM + buffer.getvalue()).encode("utf-8")


def seated(report: SessionReport, hand: HandRecord) -> dict[Seat, int]:
    """Seat → player id of the four at the table for `hand` (those who sat there then, after a /sub),
    seat order; the seats' current holders for a row that did not keep them."""
    seats = hand.seat_players or {seat: p.id for seat, p in report.session.seats.items()}
    return {seat: seats[seat] for seat in SEATS if seat in seats}


def csv_filename(report: SessionReport, timezone: str = DEFAULT_TIMEZONE) -> str:
    """`mahjong-session-<n>-<yyyymmdd>.csv` (the local date the session opened), ASCII only so every
    client saves it as is."""
    return f"mahjong-session-{report.session.number}-{local_day(report, timezone)}.csv"


def local_day(report: SessionReport, timezone: str) -> str:
    """`20261202`: the day the session opened, in the group's time zone."""
    return f"{aware(report.session.opened_at).astimezone(ZoneInfo(timezone)):%Y%m%d}"
