"""The end-of-session summary against the ledger: nets, counts, biggest hand, 连庄, transfers, CSV, card."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from collections import defaultdict
from functools import cache

import pytest
from jobs_game import PLAYERS, Table, play
from reads import get_hand, session_summary

from bot.i18n import catalog
from bot.ledger.play import books
from bot.summary import build_report, ledger_csv, render_card, signed
from bot.summary.csvfile import COLUMN_IDS, columns


def fewest_transfers(balances: list[int]) -> int:
    """Brute force: n non-zero balances settle in n - (most zero-sum groups they split into) payments."""
    values = [b for b in balances if b]
    n = len(values)

    @cache
    def groups(mask: int) -> int:
        # the most disjoint zero-sum groups covering exactly the players in `mask`
        if mask == 0:
            return 0
        best = -(10**9)
        low = mask & -mask
        sub = mask
        while sub:
            if sub & low and sum(values[i] for i in range(n) if sub >> i & 1) == 0:
                best = max(best, 1 + groups(mask & ~sub))
            sub = (sub - 1) & mask
        return best

    return n - groups((1 << n) - 1) if n else 0


def test_nets_and_counts_match_the_ledger(table: Table) -> None:
    report = build_report(table.ledger, table.session_id)
    hands = table.ledger.read(books.hands, table.session_id)
    by_seat: dict[str, int] = defaultdict(int)
    for hand in hands:
        assert sum(hand.payments.values()) == 0
        for seat, amount in hand.payments.items():
            by_seat[seat] += amount
    assert {line.seat: line.net for line in report.players} == dict(by_seat)
    assert sum(line.net for line in report.players) == 0
    summary = session_summary(table.ledger, table.session_id)
    assert {line.player.id: line.net for line in report.players} == summary.totals
    assert report.rows[-1].running == dict(by_seat)
    # five hands; the 茶水 adjustment is a ledger row but not a hand
    assert report.hands_played == 5 and len(report.rows) == 6
    lines = {line.seat: line for line in report.players}
    assert [lines[s].player.display_name for s in "ESWN"] == [p.display_name for p in PLAYERS]
    assert (lines["S"].wins, lines["S"].self_draws, lines["S"].dealt_in) == (3, 2, 0)
    assert (lines["N"].wins, lines["N"].self_draws) == (1, 0)
    assert (lines["E"].dealt_in, lines["W"].dealt_in) == (1, 1)
    assert all(line.hands == 5 for line in report.players)


def test_biggest_hand_and_longest_streak(table: Table) -> None:
    report = build_report(table.ledger, table.session_id)
    stats = table.ledger.read(books.player_stats, table.chat_id, session_id=table.session_id)
    [big] = report.biggest  # no tie: one biggest hand
    # 南's 七对 self-draw (hand 3) brought more than 北's 清一色七对 on a discard (hand 5)
    assert (big.number, big.seat, big.win_type) == (3, "S", "self_draw")
    assert big.amount == get_hand(table.ledger, table.session_id, 3).payments["S"]
    assert big.amount == max(s.biggest_win for s in stats)
    assert ("qidui", "七对") in big.items
    [streak] = report.longest_streaks
    # 南 took the deal on hand 1 and kept it on hands 2 and 3
    assert (streak.seat, streak.count, streak.number) == ("S", 2, 3)
    assert streak.count == max(s.longest_streak for s in stats)


def test_transfers_settle_everyone_with_the_fewest_payments(table: Table) -> None:
    report = build_report(table.ledger, table.session_id)
    balance = {line.player.id: line.net for line in report.players}
    for transfer in report.transfers:
        assert transfer.amount > 0
        balance[transfer.payer.id] += transfer.amount
        balance[transfer.payee.id] -= transfer.amount
    assert set(balance.values()) == {0}
    assert len(report.transfers) == fewest_transfers([line.net for line in report.players])


def test_csv_parses_back_and_each_hand_sums_to_zero(table: Table) -> None:
    report = build_report(table.ledger, table.session_id)
    for lang in ("zh-Hans", "zh-Hant", "en"):
        data = ledger_csv(report, lang)
        assert data.startswith(b"\xef\xbb\xbf")  # the BOM spreadsheet programs look for
        rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
        header, body = rows[0], rows[1:]
        ids = list(COLUMN_IDS)  # the id column too, though no two players share a name here
        assert header == columns(lang) and len(header) == len(ids)
        named = {cid: i for i, cid in enumerate(ids)}
        assert len(body) == 4 * len(report.rows)  # one line per entry and seated player
        per_hand: dict[str, int] = defaultdict(int)
        last_total: dict[str, int] = {}
        for row in body:
            per_hand[row[named["hand"]]] += int(row[named["amount"]])
            last_total[row[named["player"]]] = int(row[named["total"]])
        assert set(per_hand.values()) == {0}
        assert last_total == {line.player.display_name: line.net for line in report.players}
    zh = ledger_csv(report, "zh-Hans").decode("utf-8-sig")
    assert "茶水" in zh and "清一色" in zh and "荒庄" in zh


def test_card_names_every_number_in_each_language(table: Table) -> None:
    report = build_report(table.ledger, table.session_id)
    for lang in ("zh-Hans", "zh-Hant", "en"):
        card = render_card(report, lang)
        assert "{" not in card
        for line in report.players:
            assert line.player.display_name in card and signed(line.net) in card
        for transfer in report.transfers:
            assert f"{transfer.payer.display_name} → {transfer.payee.display_name} {transfer.amount}" in card
    zh = render_card(report, "zh-Hans")
    assert (
        "第1场结束" in zh
        and "最大一手：第3局 南 李四 自摸" in zh
        and "最长连庄：连庄2次，南 李四（到第" in zh
    )
    idle = render_card(report, "en", idle_hours=6)
    assert idle.startswith("⏰ No hand for 6 hours")
    assert "七对" not in idle  # item names in the group's language


def test_session_without_hands(ledger: object) -> None:
    empty = play(ledger, hands=[], adjust=False)  # type: ignore[arg-type]
    report = build_report(empty.ledger, empty.session_id)
    assert report.rows == () and report.biggest == () and report.longest_streaks == ()
    assert report.transfers == ()
    assert catalog("zh-Hans")["summary.no_hands"] in render_card(report, "zh-Hans")


@pytest.mark.parametrize("balances", [[5, -5, 3, -3], [10, -4, -3, -3], [0, 0, 0, 0], [6, 6, -4, -8]])
def test_fewest_transfers_reference(balances: list[int]) -> None:
    # the brute force used above, on tables whose answer is plain to see
    expected = {(5, -5, 3, -3): 2, (10, -4, -3, -3): 3, (0, 0, 0, 0): 0, (6, 6, -4, -8): 3}
    assert fewest_transfers(balances) == expected[tuple(balances)]


@pytest.mark.slow
def test_importing_the_bot_does_not_import_matplotlib() -> None:
    code = "import sys, bot.summary, bot.jobs, bot.app; sys.exit(1 if 'matplotlib' in sys.modules else 0)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
