"""A hand sent from the tile picker, as an update of the Application (python-telegram-bot's custom-update
pattern, its `customwebhookbot` example): the page's server puts a `PickerSubmission` on the Application's
update queue, so the chat's update order (`app.PerChatUpdateProcessor`), the redelivery filter
(`app.drop_redelivered`) and the error handler apply to it as to a message; `picker_submitted`, a
`TypeHandler`, takes it down the same path as `/hu` (`recording.record_hand`) with a turn that stands for
the page's user in the table's group, and answers the waiting request through the submission's `outcome`."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Literal

from telegram import Chat
from telegram.ext import ContextTypes

from bot.handlers.recording import record_hand
from bot.handlers.turn import Origin, Turn, ledger_of
from bot.ledger import ChatState, UserRef
from bot.ledger.play import groups, pending
from bot.render.errors import USER_ERRORS
from bot.webauth import WebAppUser
from scoring.entry import EntryJSON

log = logging.getLogger(__name__)

SOURCE_PREFIX = "webapp"
Outcome = Literal["sent", "recorded", "duplicate", "closed"]
"""What became of a submission: its preview posted (`sent`), committed at once in an instant group
(`recorded`), the same submission handled before (`duplicate`), or its table ended meanwhile (`closed`)."""


def _future() -> asyncio.Future[Outcome]:
    return asyncio.get_running_loop().create_future()


@dataclass(frozen=True, eq=False)
class PickerSubmission:
    """One hand submitted from the page: the table's chat and session (from the signed start parameter),
    who sent it (checked initData), the page's idempotency key, the entry and its words (the turn's
    text). `outcome` is resolved by the handler: a result, or the exception that stopped it."""

    chat_id: int
    session_id: int
    user: WebAppUser
    key: str
    entry: EntryJSON
    shown: str = ""
    outcome: asyncio.Future[Outcome] = field(default_factory=_future, repr=False)

    @property
    def source_key(self) -> str:
        """The idempotency key of the submission's writes (and its id for the redelivery filter)."""
        return f"{SOURCE_PREFIX}:{self.chat_id}:{self.key}"

    def answer(self, outcome: Outcome) -> None:
        """Resolve the waiting request (once: a request that went away has cancelled it)."""
        if not self.outcome.done():
            self.outcome.set_result(outcome)

    def fail(self, error: BaseException) -> None:
        """Resolve the waiting request with what stopped the submission."""
        if not self.outcome.done():
            self.outcome.set_exception(error)


def page_turn(
    context: ContextTypes.DEFAULT_TYPE, state: ChatState, user: WebAppUser, *, key: str = "", shown: str = ""
) -> Turn:
    """The turn of one page request in the chat whose state was read: no Telegram update to answer, its
    origin the page's user in the table's group, the submission's key and the picked hand as its text."""
    assert state.session is not None
    chat_id = state.session.chat_id
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
        await turn.write(None, pending.release, claim, unless=turn.source_key)
        raise
    return True


async def picker_submitted(update: PickerSubmission, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Handle a submission in its chat's turn: the chat's state read now (after the chat's earlier
    updates), the table still the one the page was opened for, then `submit_hand`. A user error (a
    refusal, a hand the rules refuse) goes back to the page only; any other error goes back to the page
    and on to the Application's error handler, which logs it."""
    try:
        ledger = ledger_of(context)
        state = await asyncio.to_thread(groups.chat_state, ledger, update.chat_id)
        if state.session is None or state.session.id != update.session_id:
            update.answer("closed")
            return
        turn = page_turn(context, state, update.user, key=update.key, shown=update.shown)
        done = await submit_hand(turn, update.entry)
    except USER_ERRORS as exc:
        update.fail(exc)
        return
    except Exception as exc:
        update.fail(exc)
        raise
    update.answer(("recorded" if turn.instant else "sent") if done else "duplicate")
