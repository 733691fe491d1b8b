"""The services a running bot keeps in its Application's `bot_data`: the settings and the ledger, put there by
`bot.app.build_application` and read back, typed, by handlers, jobs, the web app and the console."""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

from bot.ledger import Ledger
from bot.settings import Settings

LEDGER = "ledger"
SETTINGS = "settings"


def store_services(bot_data: MutableMapping[Any, Any], settings: Settings, ledger: Ledger) -> None:
    """Keep the settings and the ledger in `bot_data`."""
    bot_data[SETTINGS] = settings
    bot_data[LEDGER] = ledger


def ledger_in(bot_data: Mapping[Any, Any]) -> Ledger:
    """The ledger service kept in `bot_data`."""
    ledger = bot_data[LEDGER]
    if not isinstance(ledger, Ledger):
        raise TypeError(f"bot_data[{LEDGER!r}] is a {type(ledger).__name__}, not a Ledger")
    return ledger


def settings_in(bot_data: Mapping[Any, Any]) -> Settings:
    """The settings kept in `bot_data`."""
    settings = bot_data[SETTINGS]
    if not isinstance(settings, Settings):
        raise TypeError(f"bot_data[{SETTINGS!r}] is a {type(settings).__name__}, not Settings")
    return settings
