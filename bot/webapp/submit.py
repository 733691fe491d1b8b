"""A hand sent from the Mini App goes down the same path as `/hu`: `recording.record_hand` with a turn that
stands for the page's user in the table's group (the preview with Confirm/Cancel appears there)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from telegram import Chat, Message, Update, User
from telegram.ext import CallbackContext

from bot.app import AnyApplication
from bot.handlers.recording import record_hand
from bot.handlers.turn import Turn
from bot.ledger import ChatState
from bot.webauth import WebAppUser

SOURCE_PREFIX = "webapp"


def page_update(chat_id: int, user: WebAppUser) -> Update:
    """An Update that says what a page submission is: this person, in this group (never delivered)."""
    person = User(
        user.user_id, user.first_name, is_bot=False, last_name=user.last_name, username=user.username
    )
    chat = Chat(chat_id, Chat.SUPERGROUP)
    message = Message(0, datetime.now(UTC), chat, from_user=person)
    return Update(0, message=message)


@dataclass
class PageTurn(Turn):
    """A Turn for a page request: its idempotency key is the submission's, its text the picked hand."""

    key: str = ""
    shown: str = field(default="", repr=False)

    @property
    def source_key(self) -> str:
        return f"{SOURCE_PREFIX}:{self.chat_id}:{self.key}"

    @property
    def text(self) -> str:
        return self.shown


def page_turn(
    application: AnyApplication, state: ChatState, user: WebAppUser, *, key: str = "", shown: str = ""
) -> PageTurn:
    """The turn of one page request in the chat whose state was read."""
    assert state.session is not None
    update = page_update(state.session.chat_id, user)
    context: CallbackContext[Any, Any, Any, Any] = CallbackContext(
        application, chat_id=state.session.chat_id, user_id=user.user_id
    )
    return PageTurn(update, context, state, "hu", key=key, shown=shown)


async def submit_hand(turn: PageTurn, entry: dict[str, Any]) -> bool:
    """Post the hand's preview to the group (or commit it in an `instant` group), once per submission key:
    True when this call did it, False when another request (another worker) had the key already."""
    if not await turn.run(turn.ledger.claim, f"{turn.source_key}:claim"):
        return False
    await record_hand(turn, entry)
    return True
