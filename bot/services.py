"""The services a running bot keeps in its Application's `bot_data`: the settings and the ledger, put there by
`bot.app.build_application` and read back, typed, by handlers, jobs, the web app and the console."""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Callable, Mapping, MutableMapping
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlmodel import Session

from bot.ledger import Ledger
from bot.settings import Settings

P = ParamSpec("P")
R = TypeVar("R")
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


async def in_ledger(ledger: Ledger, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
    """`fn(*args, **kwargs)`, a blocking ledger call, off the event loop, in the loop's default threads
    (as `asyncio.to_thread` would)."""
    call = functools.partial(contextvars.copy_context().run, fn, *args, **kwargs)
    return await asyncio.get_running_loop().run_in_executor(None, call)


async def read_in(
    ledger: Ledger, fn: Callable[Concatenate[Session, P], R], /, *args: P.args, **kwargs: P.kwargs
) -> R:
    """`ledger.read(fn, *args, **kwargs)` off the event loop (`in_ledger`)."""
    return await in_ledger(ledger, functools.partial(ledger.read, fn, *args, **kwargs))


async def write_in(
    ledger: Ledger,
    key: str | None,
    fn: Callable[Concatenate[Session, P], R],
    /,
    *args: P.args,
    **kwargs: P.kwargs,
) -> R:
    """`ledger.write_once(key, fn, *args, **kwargs)` off the event loop (`in_ledger`); key None: a write
    that is not idempotent."""
    return await in_ledger(ledger, functools.partial(ledger.write_once, key, fn, *args, **kwargs))
