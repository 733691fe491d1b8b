"""A group that Telegram turns into a supergroup keeps its table: the service messages of the move
(`migrate_to_chat_id` in the old chat, `migrate_from_chat_id` in the new one), in either order and
delivered again, move the group's ledger to the new chat id once: settings and language, the open session
and its hands, the players, due summaries. A send the old chat refuses (ChatMigrated) moves it too, and is
sent again in the new chat. SQLite always, PostgreSQL with TEST_DATABASE_URL."""

from __future__ import annotations

import pytest
from harness import Clock, Table, seat_four

from bot.ledger import Ledger
from bot.ledger.play import books, groups, sessions

NEW_ID = -1001000000555


def ledger(table: Table) -> Ledger:
    book = table.app.bot_data["ledger"]
    assert isinstance(book, Ledger)
    return book


async def played(table: Table) -> None:
    """In English, four seated, a dealer, one hand recorded at once."""
    await table.say("zoe", "/lang en")
    await seat_four(table)  # ann: /dealer 东
    await table.say("ann", "/rules instant on")
    await table.say("bob", "/hu 南 自摸 5花 清一色")


@pytest.mark.parametrize("order", ["to-from", "from-to"])
async def test_the_table_follows_the_group_into_its_supergroup(
    clocked_group: tuple[Table, Clock], order: str
) -> None:
    old, _clock = clocked_group
    await played(old)
    before = groups.chat_state(ledger(old), old.chat_id).session
    assert before is not None and before.hands_played == 1
    new, gone, came = old.migrate(NEW_ID)
    first, second = (gone, came) if order == "to-from" else (came, gone)
    await old.deliver(first)
    await old.deliver(second)
    session = groups.chat_state(ledger(new), NEW_ID).session
    assert session is not None and session.id == before.id and session.hands_played == 1
    assert groups.chat_state(ledger(new), old.chat_id).session is None
    # The card is posted and pinned in the new chat (the old one's messages stayed there).
    [card] = new.replies()
    assert new.pins() == [card.message_id] and "Bob" in card.text
    assert ledger(new).read(sessions.get_session, session.id).card_message_id == card.message_id
    # The table goes on where it was, in the group's language.
    score = await new.say("eve", "/score")
    assert "S Bob +60" in score.text and "E Ann −20" in score.text
    page = await new.say("eve", "/ledger")
    assert page.text.splitlines()[-1].endswith("−20 +60 −20 −20")
    turn = await new.say("cat", "/hu 西 自摸 5花 清一色")
    assert "Hand 2" in turn.text
    assert (
        "Cat" in new.message(card.message_id).text
        and groups.chat_state(ledger(new), NEW_ID).group.language == "en"
    )


async def test_the_move_delivered_again_changes_nothing(clocked_group: tuple[Table, Clock]) -> None:
    old, _clock = clocked_group
    await played(old)
    new, gone, came = old.migrate(NEW_ID)
    await old.deliver(gone)
    await old.deliver(came)
    await new.say("cat", "/hu 西 自摸 5花 清一色")
    old.strict = False  # the old chat refuses the reply: the error handler sees ChatMigrated
    await old.say("dan", "/score")  # a late update from the old chat
    group = groups.chat_state(ledger(new), NEW_ID).group
    calls = len(new.state.calls)
    for update in (came, gone, came):  # Telegram delivers them again (a restart: no memory of update ids)
        new.app.bot_data.pop("recent_updates", None)
        await new.deliver(update)
    assert len(new.state.calls) == calls  # no second card, no reply
    assert groups.chat_state(ledger(new), NEW_ID).group == group
    session = groups.chat_state(ledger(new), NEW_ID).session
    assert session is not None and session.hands_played == 2 and len(new.pins()) == 1


async def test_someone_speaking_in_the_new_chat_first_does_not_hide_the_table(
    clocked_group: tuple[Table, Clock],
) -> None:
    old, _clock = clocked_group
    await played(old)
    new, gone, came = old.migrate(NEW_ID)
    await new.say("eve", "/score")  # before the service messages: an unknown chat to the ledger
    await old.deliver(came)
    await old.deliver(gone)
    score = await new.say("eve", "/score")
    assert "S Bob +60" in score.text


@pytest.mark.slow
async def test_the_idle_end_summary_goes_to_the_new_chat(clocked_group: tuple[Table, Clock]) -> None:
    old, clock = clocked_group
    await played(old)
    new, gone, came = old.migrate(NEW_ID)
    await old.deliver(gone)
    await old.deliver(came)
    clock.advance(hours=6, minutes=1)
    await old.run_jobs("jobs:idle-end")
    assert [r.kind for r in new.replies()][-3:] == ["text", "photo", "document"]
    assert new.replies()[-3].text.startswith("⏰ No hand for 6 hours: session 1 ended")


@pytest.mark.slow
async def test_a_send_refused_by_the_old_chat_follows_it(clocked_group: tuple[Table, Clock]) -> None:
    """No service message reached the bot (it was down, or they were lost): the idle end's summary, sent
    to the old chat, is refused with the new id; the ledger moves there and the summary goes out there."""
    old, clock = clocked_group
    await played(old)
    new, _gone, _came = old.migrate(NEW_ID)
    clock.advance(hours=6, minutes=1)
    await old.run_jobs("jobs:idle-end")
    refused = [c for c in old.failed() if c.params.get("chat_id") == old.chat_id]
    assert refused and refused[0].parameters == {"migrate_to_chat_id": NEW_ID}
    assert [r.kind for r in new.replies()] == ["text", "photo", "document"]
    assert new.replies()[0].text.startswith("⏰ No hand for 6 hours: session 1 ended")
    assert groups.chat_state(ledger(new), NEW_ID).group.language == "en"
    assert [s.session.number for s in ledger(new).read(books.history, NEW_ID)] == [1]
    score = await new.say("eve", "/score")
    assert "Bob +60" in score.text


async def test_an_end_pressed_as_the_group_moves_posts_its_summary_in_the_new_chat(
    clocked_group: tuple[Table, Clock],
) -> None:
    """The End button is pressed in the old chat just as the group is upgraded: the session ends, every
    answer in the old chat is refused with the new id, and the summary, due, goes out in the new chat."""
    old, clock = clocked_group
    await played(old)
    await old.say("bob", "/end")
    new, gone, came = old.migrate(NEW_ID)
    old.strict = False  # the refused edit of the question reaches the error handler, as in production
    await old.press("cat", "End")
    await old.deliver(gone)
    await old.deliver(came)
    assert groups.chat_state(ledger(new), NEW_ID).session is None  # the session ended
    assert [s.session.number for s in ledger(new).read(books.history, NEW_ID)] == [1]
    assert new.replies() == []  # the press stopped at the old chat's refusal, before the summary
    clock.advance(seconds=61)  # the sweep leaves it to its ender for a minute
    await new.run_jobs("jobs:summaries")
    assert [r.kind for r in new.replies()] == ["text", "photo", "document"]
    assert new.replies()[0].text.startswith("🀄 Session 1 ended")
    clock.advance(hours=1)
    await new.run_jobs("jobs:summaries")
    assert len(new.replies()) == 3
