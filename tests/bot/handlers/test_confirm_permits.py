"""Who may press Confirm is decided when the entry is made, from the table the /hu read, and stored with
it: a seated player's press is carried out in its one write without asking Telegram; anyone else is asked
of Telegram (getChatMember) first, a stranger refused with nothing written, an admin's press carried out;
a player who left the table since finds the entry stale."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from harness import Table, ledger
from reads import open_pending

from bot.ledger.play import books, groups

CONFIRM, CANCEL = "✅ 确认", "✖ 取消"
NOT_ALLOWED = "只有入座的玩家或群管理员可以这样做。"


def hands(table: Table) -> list[Any]:
    current = groups.chat_state(ledger(table), table.chat_id).session
    return ledger(table).read(books.hands, current.id)


def asked_telegram(turn: Any) -> int:
    return len([c for c in turn.calls if c.method == "getChatMember"])


@pytest.fixture
def writes(seated_table: Table, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of every ledger write transaction run from here on, in order."""
    store = ledger(seated_table)
    done: list[str] = []
    write = store.write

    def counted(fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        done.append(getattr(fn, "__qualname__", "?"))
        return write(fn, *args, **kwargs)

    monkeypatch.setattr(store, "write", counted)
    return done


def presses(writes: list[str]) -> int:
    return len([w for w in writes if w.startswith("press.")])


async def test_a_seated_players_confirm_asks_telegram_nothing(seated_table: Table, writes: list[str]) -> None:
    await seated_table.say("bob", "/hu 南 自摸 5花 清一色")
    writes.clear()
    turn = await seated_table.press("cat", CONFIRM)
    assert asked_telegram(turn) == 0 and presses(writes) == 1 and len(writes) == 1, writes
    assert turn.edits[0].text.startswith("第1局 南 自摸 20花")
    assert len(hands(seated_table)) == 1 and open_pending(ledger(seated_table), seated_table.chat_id) == []


async def test_a_strangers_press_is_refused_after_asking_telegram_and_writes_nothing(
    seated_table: Table, writes: list[str]
) -> None:
    await seated_table.say("bob", "/hu 南 自摸 5花 清一色")
    waiting = open_pending(ledger(seated_table), seated_table.chat_id)
    for button in (CONFIRM, CANCEL):
        writes.clear()
        turn = await seated_table.press("eve", button)
        assert turn.answers == [NOT_ALLOWED] and asked_telegram(turn) == 1
        assert presses(writes) == 1, writes  # the press that found Eve not among the entry's pressers
        assert not turn.edits and not turn.sent
    assert hands(seated_table) == []
    assert open_pending(ledger(seated_table), seated_table.chat_id) == waiting  # still waiting, unchanged
    assert seated_table.buttons() == [CONFIRM, CANCEL]


async def test_an_admin_not_seated_confirms_after_the_telegram_check(
    seated_table: Table, writes: list[str]
) -> None:
    seated_table.set_admins("zoe")
    await seated_table.say("bob", "/hu 南 自摸 5花 清一色")
    writes.clear()
    turn = await seated_table.press("zoe", CONFIRM)
    assert asked_telegram(turn) == 1 and presses(writes) == 2, writes  # asked, then pressed as an admin
    assert turn.edits[0].text.startswith("第1局 南 自摸 20花")
    assert len(hands(seated_table)) == 1


async def test_confirm_by_other_refuses_an_admin_recorder_without_asking_telegram(
    seated_table: Table, writes: list[str]
) -> None:
    seated_table.set_admins("bob")
    await seated_table.say("ann", "/rules confirm_by other")
    await seated_table.say("bob", "/hu 南 自摸 5花 清一色")
    writes.clear()
    turn = await seated_table.press("bob", CONFIRM)
    assert turn.answers == ["这条是你记的，要由别人确认（本群设置：确认人为记录人以外的人）。"]
    assert asked_telegram(turn) == 0 and hands(seated_table) == []
    assert presses(writes) == 1, writes
    writes.clear()
    turn = await seated_table.press("cat", CONFIRM)  # seated, not the recorder: one write, no Telegram
    assert asked_telegram(turn) == 0 and presses(writes) == 1 and len(hands(seated_table)) == 1


async def test_a_player_who_left_the_table_cannot_confirm_what_was_shown_before(seated_table: Table) -> None:
    await seated_table.say("eve", "/score")  # the group knows Eve
    shown = (await seated_table.say("bob", "/hu 南 自摸 5花 清一色")).sent[0]
    await seated_table.say("ann", "/sub 北 @eve")
    turn = await seated_table.press("dan", CONFIRM, message_id=shown.message_id)
    assert turn.answers == ["预览之后又记了别的，这条作废了。请重新记录。"]
    assert hands(seated_table) == [] and open_pending(ledger(seated_table), seated_table.chat_id) == []
