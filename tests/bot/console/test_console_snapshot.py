"""The console's chat snapshot: whatever point a kill -9 lands on, the next line is a new update."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any, cast

import pytest

import bot.console
from bot.console import CONSOLE_CHAT_ID, LOST_MESSAGE_IDS, ConsoleChat, load_state
from bot.console.state import JSON
from bot.console.transport import InProcessBotAPI


def console_chat(path: Path) -> ConsoleChat:
    transport = InProcessBotAPI()
    transport.add_group(CONSOLE_CHAT_ID, "控制台牌桌")
    return ConsoleChat(cast(Any, None), transport, CONSOLE_CHAT_ID, io.StringIO(), path)


async def test_the_update_is_saved_as_taken_before_the_bot_sees_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "console" / "chat.json"
    chat = console_chat(path)
    seen: list[tuple[JSON, JSON]] = []

    async def deliver(app: Any, update: JSON) -> None:
        """The bot handling the update: what is on disk now is what a kill -9 here leaves."""
        seen.append((update, json.loads(path.read_text(encoding="utf-8"))))
        chat.state.handle("sendMessage", {"chat_id": str(CONSOLE_CHAT_ID), "text": "第1局 …"})

    monkeypatch.setattr(bot.console, "deliver", deliver)
    await chat.handle_line("ann: /hu 南 自摸 5花")
    (update, on_disk), sent = seen[0], chat.state.calls[-1].result
    assert on_disk["next_update_id"] == update["update_id"] + 1
    assert on_disk["delivering"] == update["update_id"]
    assert update["message"] in next(c for c in on_disk["chats"] if c["id"] == CONSOLE_CHAT_ID)["messages"]

    # Killed while the bot handled it: the restarted console gives the next line new ids, past the
    # messages the bot sent meanwhile (which the snapshot does not have).
    path.write_text(json.dumps(on_disk), encoding="utf-8")
    state = load_state(path)
    after = state.message(CONSOLE_CHAT_ID, "ann", "/hu 北 自摸 5花")
    assert after["update_id"] == update["update_id"] + 1
    assert after["message"]["message_id"] > sent["message_id"]
    assert after["message"]["message_id"] == update["message"]["message_id"] + 1 + LOST_MESSAGE_IDS


async def test_a_snapshot_saved_after_the_update_keeps_message_ids_dense(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "chat.json"
    chat = console_chat(path)

    async def deliver(app: Any, update: JSON) -> None:
        chat.state.handle("sendMessage", {"chat_id": str(CONSOLE_CHAT_ID), "text": "ok"})

    monkeypatch.setattr(bot.console, "deliver", deliver)
    await chat.handle_line("ann: /score")
    assert "delivering" not in json.loads(path.read_text(encoding="utf-8"))
    state = load_state(path)
    after = state.message(CONSOLE_CHAT_ID, "ann", "/score")
    assert (after["update_id"], after["message"]["message_id"]) == (2, 3)


def test_no_snapshot_is_a_fresh_chat(tmp_path: Path) -> None:
    state = load_state(tmp_path / "missing.json")
    assert state.chats == {} and state.next_update_id == 1
