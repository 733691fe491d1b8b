"""Runs a PTB Application by hand: start and stop it as run_polling does, deliver one update, wait for it."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from telegram import Update
from telegram.ext import Application

AnyApplication = Application[Any, Any, Any, Any, Any, Any]


async def start_application(app: AnyApplication) -> None:
    """initialize, post_init, start: what `run_polling` does before polling (the updater is not started)."""
    await app.initialize()
    if app.post_init is not None:
        await app.post_init(app)
    await app.start()


async def stop_application(app: AnyApplication) -> None:
    """stop, post_stop, shutdown, post_shutdown: `run_polling`'s teardown, safe after a partial start."""
    if app.running:
        await app.stop()
        if app.post_stop is not None:
            await app.post_stop(app)
    await app.shutdown()
    if app.post_shutdown is not None:
        await app.post_shutdown(app)


async def settle(app: AnyApplication, *, rounds: int = 50) -> None:
    """Waits until the tasks handlers started with `block=False` / `create_task` are done."""
    for _ in range(rounds):
        # Private in PTB 22 but the only handle on non-blocking handler tasks (pinned version).
        pending = [t for t in getattr(app, "_Application__create_task_tasks", ()) if not t.done()]
        if not pending:
            await asyncio.sleep(0)
            pending = [t for t in getattr(app, "_Application__create_task_tasks", ()) if not t.done()]
            if not pending:
                return
        await asyncio.gather(*pending, return_exceptions=True)


async def deliver(app: AnyApplication, update: Mapping[str, Any] | Update) -> Update:
    """Feeds one update (a Bot API dict or an Update) to the application and waits until it is handled.

    Arbitrary callback data: the button's UUID is swapped back for the bot's object first, as the
    Updater does for polled updates.
    """
    parsed = update if isinstance(update, Update) else Update.de_json(dict(update), app.bot)
    app.bot.insert_callback_data(parsed)
    await app.process_update(parsed)
    await settle(app)
    return parsed
