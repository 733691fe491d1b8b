"""Summary parts whose send had an unknown outcome. A card Telegram answered with a 502 after posting it is
sent again by the sweep (the result must be in the chat, and the bot cannot tell whether the first copy
is): the stale copy's 我已付 / 已收到 buttons are taken away as soon as one is pressed, the press still
counts once, and the current card shows it. A chart whose send never answered is not sent again."""

from __future__ import annotations

from typing import Any

import pytest
from harness import END, TINY_PNG, Clock, Table, money, seat_four

from bot.summary import post as post_module

CARD = "🀄 第1场结束"


@pytest.fixture(autouse=True)
def drawn_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    async def draw(data: Any) -> bytes:
        return TINY_PNG

    monkeypatch.setattr(post_module.charts, "draw", draw)


async def test_a_stale_copy_of_the_card_loses_its_buttons_when_pressed(clocked: tuple[Table, Clock]) -> None:
    table, clock = clocked
    await seat_four(table)
    await table.say("ann", "/rules instant on")
    await table.say("bob", "/hu 南 自摸 5花 清一色")  # Bob +60, the others −20 each
    await table.say("bob", "/end")
    state = table.transport.state
    real = state.handle
    delivered: list[int] = []

    def posted_then_502(name: str, params: Any, files: Any = None) -> Any:
        answer = real(name, params, files)
        if name == "sendMessage" and str(params.get("text", "")).startswith(CARD) and not delivered:
            delivered.append(answer[1]["result"]["message_id"])
            return 502, {"ok": False, "error_code": 502, "description": "Bad Gateway"}
        return answer

    state.handle = posted_then_502  # type: ignore[method-assign]
    try:
        await table.press("cat", END)
    finally:
        state.handle = real  # type: ignore[method-assign]
    clock.advance(seconds=31)
    await table.run_jobs("jobs:summaries")
    cards = [r for r in table.replies() if r.text.startswith(CARD)]
    assert [c.message_id for c in cards][:1] == delivered and len(cards) == 2  # the first copy is there too
    stale, current = cards
    assert stale.buttons and current.buttons
    label = next(b for b in stale.buttons if b.endswith("我已付"))
    number = label.split()[0]
    who = next(r for r in stale.text.split("\n") if r.startswith(f"{number}. ")).split()[1].lower()
    assert who in ("ann", "cat", "dan")  # each owes Bob 20
    await table.press(who, label, message_id=stale.message_id)
    assert table.message(stale.message_id).buttons == ()  # the stale copy's buttons are gone
    assert "待确认" in table.message(current.message_id).text  # the current card shows the claim
    await table.press("bob", f"{number} 已收到", message_id=current.message_id)
    assert who.capitalize() not in money(table) and money(table)["Bob"] == 40  # paid once


async def test_a_chart_whose_send_never_answered_is_not_sent_again(
    clocked: tuple[Table, Clock], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The poster sends the chart and stops before it can mark it (here: its mark fails, as a kill would
    leave it): the next poster finds the chart in flight, unanswered, and does not post it twice; the CSV
    follows, once. (A send Telegram answered with an error goes again:
    tests/bot/handlers/test_summary_due.py.)"""
    table, clock = clocked
    await seat_four(table)
    await table.say("ann", "/rules instant on")
    await table.say("bob", "/hu 南 自摸 5花 清一色")
    await table.say("bob", "/end")
    real = post_module._Post._mark
    stopped: list[int] = []

    async def stop_after_the_chart(self: Any, part: int, card_message_id: int | None = None) -> bool:
        if part == post_module.CHART and not stopped:
            stopped.append(part)
            raise RuntimeError("the worker stopped here")
        return await real(self, part, card_message_id)

    monkeypatch.setattr(post_module._Post, "_mark", stop_after_the_chart)
    await table.press("cat", END)
    assert stopped and len(table.calls("sendPhoto")) == 1 and not table.calls("sendDocument")
    clock.advance(seconds=31)
    await table.run_jobs("jobs:summaries")
    assert len(table.calls("sendPhoto")) == 1  # not twice
    assert len(table.calls("sendDocument")) == 1
    assert len([r for r in table.replies() if r.text.startswith(CARD)]) == 1
