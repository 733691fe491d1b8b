"""The recording grammar: typed /hu, /escape, /draw, /adjust and /edit arguments → ledger entries (pure)."""

from bot.grammar.commands import (
    Adjustment,
    make_resolver,
    parse_adjust,
    parse_draw,
    parse_edit,
    parse_entry,
    parse_escape,
)
from bot.grammar.errors import MESSAGES, GrammarError
from bot.grammar.hu import parse_hu

__all__ = [
    "MESSAGES", "Adjustment", "GrammarError", "make_resolver", "parse_adjust", "parse_draw", "parse_edit",
    "parse_entry", "parse_escape", "parse_hu",
]
