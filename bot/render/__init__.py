"""Plain-text rendering, by what it renders: `words` (the pieces every reply shares), `hands` (previews,
results, refusals), `card` (the pinned table card), `books` (ledgers, standings, history, stats); `items`,
`zones` and `errors` beside them. The package re-exports the public names."""

from bot.render.books import history_text, ledger_page, session_standings, standings_text, stats_text
from bot.render.card import (
    card_row,
    owed_lines,
    row_amounts,
    seats_block,
    state_line,
    substitutes_line,
    table_card,
)
from bot.render.hands import EXEMPT_SHOWN, hand_summary, preview_text, refusal_text, result_line, scored_win
from bot.render.words import (
    MESSAGE_LIMIT,
    MINUS,
    payments_text,
    person_name,
    player_name,
    rules_name,
    seat_and_name,
    signed,
    split_messages,
    wind,
)

__all__ = [
    "EXEMPT_SHOWN",
    "MESSAGE_LIMIT",
    "MINUS",
    "card_row",
    "hand_summary",
    "history_text",
    "ledger_page",
    "owed_lines",
    "payments_text",
    "person_name",
    "player_name",
    "preview_text",
    "refusal_text",
    "result_line",
    "row_amounts",
    "rules_name",
    "scored_win",
    "seat_and_name",
    "seats_block",
    "session_standings",
    "signed",
    "split_messages",
    "standings_text",
    "state_line",
    "stats_text",
    "substitutes_line",
    "table_card",
    "wind",
]
