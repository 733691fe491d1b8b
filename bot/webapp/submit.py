"""A hand sent from the Mini App enters the Application as an update (`handlers.picker.PickerSubmission`, on
its update queue, as PTB's `customwebhookbot` example puts its own updates), and the request waits for the
handler's outcome: the chat's order, the redelivery filter and the error handler apply as to a message."""

from __future__ import annotations

from bot.app import AnyApplication
from bot.handlers.picker import Outcome, PickerSubmission


class NotRunning(Exception):
    """The Application is not taking updates (starting or stopping): nothing was submitted."""


async def submitted(application: AnyApplication, submission: PickerSubmission) -> Outcome:
    """Put the submission on the Application's update queue and wait for what its handler made of it
    (an error it raised comes back raised here)."""
    if not application.running:
        raise NotRunning
    await application.update_queue.put(submission)
    return await submission.outcome
