"""The one command table: it feeds handler registration, /help and the Telegram command menu."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from telegram import BotCommand, Update
from telegram.ext import ContextTypes

from bot.handlers import calc, language, recording, roll, rules, session, views
from bot.handlers import help as help_handlers
from bot.i18n import t
from bot.jobs.command import schedule

Callback = Callable[[Update, ContextTypes.DEFAULT_TYPE], Awaitable[Any]]


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


COMMANDS: tuple[Command, ...] = (
    Command("newgame", session.newgame),
    Command("join", session.join),
    Command("seat", session.seat),
    Command("dealer", session.dealer),
    Command("roll", roll.roll),
    Command("hu", recording.hu),
    Command("draw", recording.draw),
    Command("escape", recording.escape),
    Command("adjust", recording.adjust),
    Command("undo", recording.undo),
    Command("edit", recording.edit),
    Command("score", views.score),
    Command("ledger", views.ledger),
    Command("end", session.end),
    Command("history", views.history),
    Command("stats", views.stats),
    Command("rules", rules.rules),
    Command("calc", calc.calc),
    Command("ting", calc.ting),
    Command("schedule", schedule),
    Command("help", help_handlers.help_command),
    Command("lang", language.lang),
)

BY_NAME: dict[str, Command] = {command.name: command for command in COMMANDS}


def bot_commands(lang: str | None) -> list[BotCommand]:
    """The Telegram menu (`set_my_commands`) in one language."""
    return [BotCommand(c.name, c.description(lang)[:256]) for c in COMMANDS if c.menu]
