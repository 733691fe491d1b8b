"""Telegram's flood limits as Telegram applies them (bot.app.TelegramRateLimiter): a group's 20 messages a
minute hold back the bot's new messages only; answering a press and editing a preview or the card go at
once, whatever the table sent lately. No test waits on the clock: a limit of one message an hour is full
after one message, and what it holds back is seen still waiting after the event loop has run."""

from __future__ import annotations

import asyncio
import warnings
from typing import Any

from harness import Table
from telegram.error import RetryAfter
from telegram.warnings import PTBDeprecationWarning

from bot.app import TelegramRateLimiter, new_message

GROUP = -1001000000001
ONE_AN_HOUR = {"group_rate": 1, "group_period": 3600.0}


class FakeCall:
    """The request PTB hands the limiter: counts the times it is made; raises the errors it is given."""

    def __init__(self, *errors: Exception) -> None:
        self.made = 0
        self.errors = list(errors)

    async def __call__(self) -> dict[str, Any]:
        self.made += 1
        if self.errors:
            raise self.errors.pop(0)
        return {"ok": True}


def flood(seconds: int) -> RetryAfter:
    """Telegram's 429 "retry after `seconds`" (PTB 22 warns on building one that a timedelta is coming)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        return RetryAfter(seconds)


def request(limiter: TelegramRateLimiter, endpoint: str, chat: int, call: FakeCall) -> asyncio.Task[Any]:
    return asyncio.create_task(limiter.process_request(call, (), {}, endpoint, {"chat_id": chat}, None))


async def run_loop(turns: int = 20) -> None:
    """Let every task that can go on do so (no clock involved)."""
    for _ in range(turns):
        await asyncio.sleep(0)


def test_what_counts_as_a_message() -> None:
    sends = ("sendMessage", "sendPhoto", "sendDocument", "copyMessage", "forwardMessage")
    assert all(map(new_message, sends))
    assert not any(
        map(new_message, ("editMessageText", "answerCallbackQuery", "pinChatMessage", "sendChatAction"))
    )


async def test_a_full_group_holds_back_its_next_message_but_not_an_edit_or_an_answer() -> None:
    limiter = TelegramRateLimiter(**ONE_AN_HOUR)
    first, second, edit, answer = FakeCall(), FakeCall(), FakeCall(), FakeCall()
    assert await request(limiter, "sendMessage", GROUP, first) == {"ok": True}  # the hour's one message
    held = request(limiter, "sendMessage", GROUP, second)
    edited = request(limiter, "editMessageText", GROUP, edit)
    answered = asyncio.create_task(
        limiter.process_request(answer, (), {}, "answerCallbackQuery", {"callback_query_id": "1"}, None)
    )
    await run_loop()
    assert edited.done() and answered.done() and (edit.made, answer.made) == (1, 1)
    assert not held.done() and second.made == 0  # waits for the group's hour
    other = FakeCall()
    assert await request(limiter, "sendMessage", GROUP - 1, other) == {"ok": True}  # another group: its own
    held.cancel()


async def test_a_retry_after_is_waited_out_by_its_chat_alone_then_retried() -> None:
    limiter = TelegramRateLimiter(max_retries=2)
    flooded = FakeCall(flood(3600))
    waiting = request(limiter, "editMessageText", GROUP, flooded)
    await run_loop()
    assert flooded.made == 1 and not waiting.done()  # this chat pauses for Telegram's hour
    elsewhere = FakeCall()
    assert await request(limiter, "editMessageText", GROUP - 1, elsewhere) == {"ok": True}
    waiting.cancel()


async def test_a_retry_after_of_no_time_is_retried_at_once_and_the_last_one_raised() -> None:
    limiter = TelegramRateLimiter(max_retries=1, retry_margin=0.0)
    once = FakeCall(flood(0))
    assert await request(limiter, "sendMessage", GROUP, once) == {"ok": True} and once.made == 2
    always = FakeCall(flood(0), flood(0))
    try:
        await request(limiter, "sendMessage", GROUP, always)
    except RetryAfter:
        assert always.made == 2
    else:
        raise AssertionError("the second RetryAfter was not raised")


async def test_confirm_is_answered_and_edited_when_the_group_may_send_no_more_messages(
    seated_table: Table,
) -> None:
    """The table's case: the preview was the group's last message for now (one an hour here); Confirm
    still answers the press and turns the preview into the result and edits the card at once."""
    seated_table.app.bot._rate_limiter = TelegramRateLimiter(**ONE_AN_HOUR)  # type: ignore[attr-defined]
    preview = await seated_table.say("ann", "/hu 南 自摸 5花")
    assert preview.sent[-1].buttons == ("✅ 确认", "✖ 取消")
    done = await seated_table.press("bob", "确认")
    assert done.answers == ["已记入"]
    assert done.edits[0].text.startswith("第1局 南 自摸") and len(done.edits) == 2  # the result, the card
    assert not done.sent
    bot = seated_table.app.bot
    message = asyncio.create_task(bot.send_message(seated_table.chat_id, "…"))  # a message: it must wait
    await run_loop()
    assert not message.done()
    message.cancel()
