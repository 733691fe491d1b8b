"""The decorators that turn `async def handler(turn)` into PTB callbacks: the chat's state read once, the
group and channel checks, and every user error turned into one short reply (a command) or alert (a button)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from telegram import CallbackQuery, Message, Update
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bot.handlers.permissions import READ_ONLY
from bot.handlers.turn import Turn
from bot.ledger.errors import ForeignButton, Repeated
from bot.render.errors import USER_ERRORS, Refusal, error_text

log = logging.getLogger(__name__)

T = TypeVar("T")


Handler = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]  # what PTB's handlers take


def command(
    name: str, *, group_only: bool = True, people: bool = False
) -> Callable[[Callable[[Turn], Awaitable[None]]], Handler]:
    """Wrap `async def handler(turn)` as a PTB callback: the chat's state (with the group's players for a
    command that reads typed names, `people`), group check, and every user
    error (refusal, grammar, ledger, scoring) turned into one short reply; a command already applied (a
    redelivered update) is silent; nothing else is swallowed."""

    def decorate(fn: Callable[[Turn], Awaitable[None]]) -> Handler:
        @functools.wraps(fn)
        async def callback(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            if update.effective_chat is None:
                return
            turn = await Turn.start(update, context, name, people=people)
            try:
                if group_only and not turn.is_group:
                    raise Refusal("err.group_only")
                if turn.on_behalf_of_chat and not turn.anonymous_admin and name not in READ_ONLY:
                    raise Refusal("err.channel_sender")  # a channel is never a player and may not write
                await fn(turn)
            except Repeated:
                log.info("%s already applied: nothing to do", turn.source_key)
            except USER_ERRORS as error:
                await turn.say(error_text(turn.lang, error, f"usage.{name}"))

        return callback

    return decorate


def carried_by_its_message(query: CallbackQuery) -> bool | None:
    """Whether the pressed message carries a button with this data: a payload acts only on the kind of
    message that shows it (a real `ek:1` pressed under a preview, or a flow step under a result line,
    changes nothing). A message too old for Telegram to show the bot cannot be checked here; what the
    payload names is still checked against its chat and message by the handler and the ledger. None: the
    message has no buttons at all."""
    message = query.message
    if not isinstance(message, Message):
        return True
    markup = message.reply_markup
    rows = markup.inline_keyboard if markup is not None else ()
    if not any(rows):
        return None
    return any(button.callback_data == query.data for row in rows for button in row)


def button(
    parse: Callable[[object], T | None], *, reads_state: bool = True
) -> Callable[[Callable[[Turn, T], Awaitable[None]]], Handler]:
    """Wrap `async def on_press(turn, data)` for a button whose callback data `parse` reads (None: not a
    button this bot made, or no longer understood: "expired"). Every user error becomes a short answer on
    the button (an alert); the query is always answered, also when the pressed message cannot be edited
    (a photo, a message too old): that press has expired. An error that escapes (the database down, a
    bug) is answered by the error handler instead ("try again", or "something went wrong").

    `reads_state=False`: the handler's own write reads the chat's state and sets `turn.state`; until then
    the turn has the group as this process last read it (`Turn.remembered`: its language for an error)."""

    def decorate(fn: Callable[[Turn, T], Awaitable[None]]) -> Handler:
        @functools.wraps(fn)
        async def callback(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            query = update.callback_query
            if query is None or update.effective_chat is None:
                return
            turn = await (Turn.start if reads_state else Turn.remembered)(update, context, None)
            data = parse(query.data)
            try:
                if data is None:
                    raise Refusal("err.flow_stale")
                carried = carried_by_its_message(query)
                if carried is None:  # a message without buttons (a photo, a result line): nothing to press
                    raise Refusal("err.flow_stale")
                if not carried:
                    raise Refusal("err.foreign_button")
                await fn(turn, data)
            except ForeignButton:
                await turn.answer(turn.t("err.foreign_button"), alert=True)
            except Repeated:
                log.info("%s already applied: nothing to do", turn.source_key)
            except USER_ERRORS as error:
                await turn.answer(error_text(turn.lang, error), alert=True)
            except BadRequest as exc:  # the pressed message cannot show the next step (a photo, deleted)
                log.info("press %s on a message that cannot be edited: %s", turn.source_key, exc)
                await turn.answer(turn.t("err.flow_stale"), alert=True)
            await turn.answer()  # whatever else escapes is answered by bot.handlers.errors.error_handler

        return callback

    return decorate
