"""The ledger keeps the bot's per-group state and its exactly-once guarantees: the pinned card, the weekly
post's compare-and-set, idle ends, idempotency keys, buttons of another chat, /stats from aggregates."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from ledger_helpers import CHAT, DRAW, Table, check_invariants, discard, pend, seat_table, self_draw

from bot.ledger import CARD_HANDS, Ledger, errors, payload_of
from bot.ledger.play import books, groups, pending, recording, seating, sessions

OTHER = -2002


def test_chat_state_reads_defaults_without_writing(ledger: Ledger) -> None:
    state = groups.chat_state(ledger, CHAT)
    assert state.group.language == "zh-Hans" and state.group.timezone == "Asia/Shanghai"
    assert state.session is None
    assert ledger.read(groups.list_groups) == []  # nothing was stored by reading


def test_card_message_and_pin_refusal_live_on_the_session(table: Table) -> None:
    ledger = table.ledger
    ledger.write(sessions.set_card, table.session.id, 4242)
    assert ledger.write(sessions.refuse_pin, table.session.id) is True
    assert ledger.write(sessions.refuse_pin, table.session.id) is False  # said once
    session = groups.chat_state(ledger, CHAT).session
    assert session is not None and session.card_message_id == 4242 and session.pin_refused


def test_a_commit_carries_the_card_of_its_transaction(table: Table) -> None:
    ledger = table.ledger
    for _ in range(CARD_HANDS + 2):
        result = recording.commit(ledger, CHAT, DRAW)
    result = recording.commit(ledger, CHAT, self_draw("S", 5, "清一色", "七对"))
    assert result.card is not None
    assert result.card.rows == CARD_HANDS + 3
    assert [h.number for h in result.card.recent] == list(range(4, CARD_HANDS + 4))
    assert result.card.totals == {"E": -80, "S": 240, "W": -80, "N": -80}  # 滴零 after the 荒庄: doubled
    assert ledger.read(books.session_card, table.session.id) == result.card


def test_a_ledger_page_counts_running_totals_back_from_the_session_totals(table: Table) -> None:
    ledger = table.ledger
    recording.commit(ledger, CHAT, self_draw("S", 5, "清一色", "七对"))
    recording.commit(ledger, CHAT, discard("W", "N", 4, "清一色"))
    recording.commit(ledger, CHAT, DRAW)
    whole = ledger.read(books.ledger_rows, table.session.id)
    assert ledger.read(books.ledger_rows, table.session.id, last=2) == whole[-2:]
    assert ledger.read(books.ledger_rows, table.session.id, last=10) == whole


def test_a_button_of_another_chat_changes_nothing(table: Table) -> None:
    ledger = table.ledger
    seat_table(ledger, chat_id=OTHER)
    entry = pend(ledger, CHAT, "hand", DRAW, message_id=77)
    with pytest.raises(errors.ForeignButton):
        recording.confirm_pending(ledger, entry.id, chat_id=OTHER, message_id=77)
    with pytest.raises(errors.ForeignButton):
        recording.cancel_pending(ledger, entry.id, chat_id=OTHER)
    with pytest.raises(errors.ForeignButton):
        recording.confirm_pending(
            ledger, entry.id, chat_id=CHAT, message_id=78
        )  # another message of the same chat
    assert ledger.read(pending.get_pending, entry.id).status == "pending"
    assert recording.confirm_pending(ledger, entry.id, chat_id=CHAT, message_id=77).created


def test_confirm_scores_once_from_the_stored_request(table: Table) -> None:
    ledger = table.ledger
    entry = pend(ledger, CHAT, "hand", self_draw("S", 5, "清一色", "七对"))
    assert entry.preview is not None
    result = recording.confirm_pending(ledger, entry.id, chat_id=CHAT)
    assert result.hand.request == entry.preview.request
    assert result.hand.payments == entry.preview.payments


def test_a_repeated_key_changes_nothing(ledger: Ledger) -> None:
    table = seat_table(ledger)
    sessions.set_dealer(ledger, CHAT, "S", key="msg:1:10")
    with pytest.raises(errors.Repeated):
        sessions.set_dealer(ledger, CHAT, "W", key="msg:1:10")
    sessions.end_session(ledger, CHAT, key="msg:1:11")
    seat_table(ledger)
    with pytest.raises(errors.Repeated):  # a replayed /end must not end the new session
        sessions.end_session(ledger, CHAT, key="msg:1:11")
    assert sessions.require_session(ledger, CHAT).id != table.session.id
    with pytest.raises(errors.Repeated):
        groups.update_group(ledger, CHAT, language="en", key="msg:1:10")
    assert groups.chat_state(ledger, CHAT).group.language == "zh-Hans"


def test_idle_sessions_end_once(table: Table) -> None:
    ledger = table.ledger
    later = datetime.now(UTC) + timedelta(hours=7)
    assert sessions.end_idle(ledger, timedelta(hours=8), now=later) == []
    ended = sessions.end_idle(ledger, timedelta(hours=6), now=later)
    assert [s.session.id for s in ended] == [table.session.id] and ended[0].session.end_reason == "idle"
    assert sessions.end_idle(ledger, timedelta(hours=6), now=later) == []  # the second sweep finds nothing


def test_the_weekly_post_is_claimed_once_per_due_time(ledger: Ledger) -> None:
    groups.update_group(ledger, CHAT, weekly_schedule=True, weekly_day="sun", weekly_time="20:00")
    due = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
    assert ledger.write(groups.claim_weekly, CHAT, due, now=due + timedelta(minutes=1)) is True
    assert ledger.write(groups.claim_weekly, CHAT, due, now=due + timedelta(minutes=2)) is False
    assert (
        ledger.write(groups.claim_weekly, CHAT, due + timedelta(days=7), now=due + timedelta(days=7)) is True
    )
    groups.update_group(ledger, CHAT, weekly_schedule=False)
    assert (
        ledger.write(groups.claim_weekly, CHAT, due + timedelta(days=14), now=due + timedelta(days=14))
        is False
    )


def test_bad_weekly_settings_are_refused(ledger: Ledger) -> None:
    for bad in ({"weekly_day": "someday"}, {"weekly_time": "25:00"}, {"timezone": "Mars/Olympus"}):
        with pytest.raises(errors.InvalidValue):
            groups.update_group(ledger, CHAT, **bad)  # type: ignore[arg-type]


def test_stats_come_from_aggregates_and_a_void_recounts_them(table: Table) -> None:
    ledger = table.ledger
    sessions.set_dealer(ledger, CHAT, "S")
    recording.commit(ledger, CHAT, self_draw("S", 5, "清一色", "七对"))  # dealer S wins: 连庄 1, +120
    recording.commit(ledger, CHAT, self_draw("S", 3))  # 连庄 2
    stats = {s.player.display_name: s for s in ledger.read(books.player_stats, CHAT)}
    assert stats["Bob"].biggest_win == 120 and stats["Bob"].biggest_hua == 40
    assert stats["Bob"].longest_streak == 2 and stats["Bob"].sessions == 1
    recording.undo(ledger, CHAT)  # the second hand goes: 连庄 back to 1
    recording.undo(ledger, CHAT)  # and the first: nothing left
    stats = {
        s.player.display_name: s for s in ledger.read(books.player_stats, CHAT, player_id=table.ids["S"])
    }
    assert stats["Bob"].biggest_win == 0 and stats["Bob"].longest_streak == 0 and stats["Bob"].sessions == 0
    check_invariants(ledger, table.session.id)


def test_guest_names_follow_the_table_rules(table: Table) -> None:
    ledger = table.ledger
    sessions.end_session(ledger, CHAT)
    sessions.open_session(ledger, CHAT, by=table.users[0])
    seating.join(ledger, CHAT, table.users[1])  # Bob, @bob
    for name, rule in (
        ("a" * 17, "too_long"),
        ("路 人", "space"),
        ("东家", "seat_word"),
        ("E", "seat_word"),
        ("BOB", "taken"),
        ("@bob", "taken"),
    ):
        with pytest.raises(errors.BadGuestName) as refused:
            seating.join(ledger, CHAT, guest_name=name)
        assert refused.value.params["rule"] == rule, name
    assert seating.join(ledger, CHAT, guest_name="a" * 16).seat == "S"
    assert (
        seating.join(ledger, CHAT, guest_name="Dan").seat == "W"
    )  # the guest of the first session sits again


def test_adjustments_are_bounded_so_no_total_overflows(table: Table) -> None:
    ledger = table.ledger
    with pytest.raises(errors.InvalidValue):
        recording.adjust(ledger, CHAT, table.ids["E"], table.ids["S"], 10_000_001)
    for _ in range(3):
        recording.adjust(ledger, CHAT, table.ids["E"], table.ids["S"], 10_000_000)
    rows = {s.seat: s.net for s in ledger.read(books.standings, CHAT).session_rows}
    assert rows["E"] == -30_000_000 and rows["S"] == 30_000_000
    check_invariants(ledger, table.session.id)


def test_a_session_that_ended_with_no_hand_is_not_history(table: Table) -> None:
    ledger = table.ledger
    recording.commit(ledger, CHAT, DRAW)
    sessions.end_session(ledger, CHAT)
    seat_table(ledger)
    sessions.end_session(ledger, CHAT)  # nothing played
    seat_table(ledger)  # open, nothing played yet: listed
    assert [h.session.number for h in ledger.read(books.history, CHAT)] == [3, 1]


def test_a_substitute_takes_the_seat_from_the_next_hand_and_each_keeps_their_totals(table: Table) -> None:
    ledger = table.ledger
    recording.commit(ledger, CHAT, self_draw("S", 5, "清一色", "七对"))  # Bob (S) +120
    change, gone = seating.substitute(ledger, CHAT, "南", guest_name="Eve")
    assert gone.display_name == "Bob" and change.seat == "S" and change.session.seats["S"].name == "Eve"
    recording.commit(ledger, CHAT, discard("W", "S", 4, "清一色"))  # Eve, now at S, pays Cat on the discard
    people = {p.player.name: p for p in ledger.read(books.standings, CHAT).session_rows}
    assert people["Bob"].net == 120 and people["Bob"].seat == "S" and people["Bob"].hands == 1
    assert people["Eve"].net < 0 and people["Eve"].seat == "S" and people["Eve"].hands == 1
    card = ledger.read(books.session_card, table.session.id)
    assert card.totals["S"] == people["Bob"].net + people["Eve"].net
    assert [p.player.name for p in card.people if p.seat == "S"] == ["Bob", "Eve"]
    assert ledger.read(books.ledger_rows, table.session.id)[-1].running == card.totals
    with pytest.raises(errors.AlreadySeated):
        seating.substitute(ledger, CHAT, "东", guest_name="Eve")
    seating.substitute(ledger, CHAT, "南", table.users[1])  # Bob comes back: his seat row and totals again
    assert sessions.require_session(ledger, CHAT).seats["S"].name == "Bob"
    transfers = ledger.read(books.transfers, table.session.id)
    assert {t.payer.name for t in transfers} | {t.payee.name for t in transfers} >= {"Bob", "Eve"}
    check_invariants(ledger, table.session.id)


def test_who_confirms_is_a_group_setting(ledger: Ledger) -> None:
    assert groups.chat_state(ledger, CHAT).group.confirm_by == "any"
    assert groups.update_group(ledger, CHAT, confirm_by="other").confirm_by == "other"
    with pytest.raises(errors.InvalidValue):
        groups.update_group(ledger, CHAT, confirm_by="nobody")


def test_the_open_flow_and_a_claimed_key_live_in_the_ledger(table: Table) -> None:
    ledger = table.ledger
    ledger.write(sessions.set_flow, table.session.id, 321)
    version = sessions.require_session(table.ledger, CHAT).version
    assert sessions.require_session(ledger, CHAT).flow_message_id == 321 and version == table.session.version
    ledger.write(sessions.set_flow, table.session.id, None)
    assert sessions.require_session(ledger, CHAT).flow_message_id is None
    assert ledger.claim("msg:-1001:5") is True
    assert ledger.claim("msg:-1001:5") is False


def test_an_entry_is_read_back_in_the_shape_of_its_kind(table: Table) -> None:
    """An /edit waiting for Confirm keeps the hand's number and its corrected entry (`EditPayload`); read as
    an /undo's it is a bug, told at once, never a wrong hand voided."""
    ledger = table.ledger
    recording.commit(ledger, CHAT, self_draw("S", 5))
    corrected = discard("E", "W", 5)
    entry = pend(ledger, CHAT, "edit", {"number": 1, "entry": corrected}, message_id=77)
    stored = ledger.read(pending.get_pending, entry.id)
    assert payload_of(stored, "edit")["number"] == 1
    assert payload_of(stored, "edit")["entry"]["wins"][0]["winner"] == "E"
    with pytest.raises(ValueError, match="an entry of kind edit read as one of kind undo"):
        payload_of(stored, "undo")
