"""A hand sent from the Mini App goes down the same path as `/hu`: `recording.record_hand` with a turn that
stands for the page's user in the table's group (the preview with Confirm/Cancel appears there)."""

from __future__ import annotations

from typing import Any

from telegram import Chat
from telegram.ext import CallbackContext

from bot.app import AnyApplication
from bot.handlers.recording import record_hand
from bot.handlers.turn import Origin, Turn
from bot.ledger import ChatState, UserRef
from bot.webauth import WebAppUser
from scoring.entry import EntryJSON

SOURCE_PREFIX = "webapp"


def page_turn(
    application: AnyApplication, state: ChatState, user: WebAppUser, *, key: str = "", shown: str = ""
) -> Turn:
    """The turn of one page request in the chat whose state was read: no update to answer, its origin the
    page's user in the table's group, the submission's key and the picked hand as its text."""
    assert state.session is not None
    chat_id = state.session.chat_id
    context: CallbackContext[Any, Any, Any, Any] = CallbackContext(
        application, chat_id=chat_id, user_id=user.user_id
    )
    name = " ".join(part for part in (user.first_name, user.last_name) if part) or str(user.user_id)
    origin = Origin(
        chat_id=chat_id,
        chat_type=Chat.SUPERGROUP,
        user=UserRef(telegram_id=user.user_id, display_name=name, username=user.username),
        key=f"{SOURCE_PREFIX}:{chat_id}:{key}",
        text=shown,
    )
    return Turn(None, context, state, origin, "hu")


async def submit_hand(turn: Turn, entry: EntryJSON) -> bool:
    """Post the hand's preview to the group (or commit it in an `instant` group), once per submission key:
    True when this call did it, False when another request (another worker) had the key already. A
    submission that failed before anything was recorded (the preview could not be posted, the table
    refused it) gives its key back, so that the page's retry goes on; one whose hand was recorded (an
    instant group's, its result message failed) keeps it: nothing twice."""
    claim = f"{turn.source_key}:claim"
    if not await turn.run(turn.ledger.claim, claim):
        return False
    try:
        await record_hand(turn, entry)
    except Exception:
        await turn.run(turn.ledger.release, claim, unless=turn.source_key)
        raise
    return True
