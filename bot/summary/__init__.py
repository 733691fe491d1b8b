"""End-of-session summary: the numbers, the text card, the running-total chart (PNG) and the CSV ledger.

matplotlib is only imported when a chart is drawn (`bot.summary.chart`), never by importing this package.
"""

from bot.render import signed
from bot.summary.card import (
    CardHead,
    card_head,
    card_text,
    chart_data,
    history_chart_data,
    render_card,
)
from bot.summary.csvfile import ledger_csv
from bot.summary.post import PostedSummary, post_ended, post_summary, send_history_chart
from bot.summary.tally import BiggestHand, LongestStreak, PlayerLine, SessionReport, build_report

__all__ = [
    "BiggestHand",
    "CardHead",
    "LongestStreak",
    "PlayerLine",
    "PostedSummary",
    "SessionReport",
    "build_report",
    "card_head",
    "card_text",
    "chart_data",
    "history_chart_data",
    "ledger_csv",
    "post_ended",
    "post_summary",
    "render_card",
    "send_history_chart",
    "signed",
]
