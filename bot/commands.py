"""The one command table: it feeds handler registration, /help and the Telegram command menu."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from telegram import BotCommand, Update
from telegram.ext import ContextTypes

from bot.handlers import (
    calc,
    ending,
    flow,
    language,
    recording,
    roll,
    rules,
    season,
    session,
    settling,
    views,
)
from bot.handlers import help as help_handlers
from bot.handlers.schedule import schedule
from bot.i18n import t

Callback = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, Any]]


@dataclass(frozen=True, slots=True)
class Command:
    """One slash command: its name, its handler, and whether it belongs in the Telegram menu.

    Its menu description is the catalog key `cmd.<name>`, its usage line `usage.<name>`.
    """

    name: str
    callback: Callback
    menu: bool = True

    def description(self, lang: str | None) -> str:
        """The one-line description in `lang`."""
        return t(lang, f"cmd.{self.name}")

    def usage(self, lang: str | None) -> str:
        """The usage line with an example in `lang`."""
        return t(lang, f"usage.{self.name}")


# The table: name and handler, in menu order; /help is made from the names themselves.
TABLE: tuple[tuple[str, Callback | None], ...] = (
    ("newgame", session.newgame),
    ("join", session.join),
    ("seat", session.seat),
    ("dealer", session.dealer),
    ("sub", session.sub),
    ("roll", roll.roll),
    ("hu", flow.hu),
    ("draw", recording.draw),
    ("escape", recording.escape),
    ("adjust", recording.adjust),
    ("undo", recording.undo),
    ("edit", recording.edit),
    ("score", views.score),
    ("ledger", views.ledger),
    ("end", ending.end),
    ("paid", settling.paid),
    ("balance", settling.balance),
    ("paycode", settling.paycode),
    ("history", views.history),
    ("stats", views.stats),
    ("season", season.season),
    ("rules", rules.rules),
    ("calc", calc.calc),
    ("ting", calc.ting),
    ("schedule", schedule),
    ("help", None),
    ("lang", language.lang),
    ("start", settling.start),
)
HIDDEN = frozenset({"start"})  # reached by a deep link (the 收款码 button), not by the menu or /help
NAMES = tuple(name for name, _ in TABLE if name not in HIDDEN)
COMMANDS: tuple[Command, ...] = tuple(
    Command(name, callback or help_handlers.help_command(NAMES), menu=name not in HIDDEN)
    for name, callback in TABLE
)

BY_NAME: dict[str, Command] = {command.name: command for command in COMMANDS}


def bot_commands(lang: str | None) -> list[BotCommand]:
    """The Telegram menu (`set_my_commands`) in one language."""
    return [BotCommand(c.name, c.description(lang)[:256]) for c in COMMANDS if c.menu]
