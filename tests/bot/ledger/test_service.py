"""The ledger service as a table uses it: seats, hands, undo, edit, adjustments, standings, pending."""

from __future__ import annotations

from datetime import timedelta

import pytest
from ledger_helpers import (
    CHAT,
    DRAW,
    Table,
    check_invariants,
    discard,
    pend,
    row_counts,
    seat_table,
    self_draw,
)
from reads import open_pending

from bot.ledger import Ledger, UserRef, errors
from bot.ledger.play import books, groups, hands, pending, recording, seating, sessions

# 清一色七对 with 5 硬花, stake 1: 10 + 15 + 5 + 5×2 = 40 花 per payer (docs/rules.md §5).
QYS_QIDUI = self_draw("S", 5, "清一色", "七对")


# ---- groups and players -----------------------------------------------------------------------------


def test_group_is_created_with_defaults_and_settings_change(ledger: Ledger) -> None:
    group = groups.chat_state(ledger, CHAT).group
    assert (group.language, group.rules, group.instant, group.confirm_timeout_seconds) == (
        "zh-Hans",
        "suzhou",
        False,
        120,
    )
    group = groups.update_group(
        ledger,
        CHAT,
        language="en",
        rules="宿州",
        options={"multi_win": "false"},
        instant=True,
        confirm_timeout_seconds=60,
        weekly_schedule=True,
    )
    assert (group.language, group.rules, group.options) == ("en", "suzhou-anhui", {"multi_win": False})
    assert group.instant and group.weekly_schedule and group.confirm_timeout_seconds == 60
    assert [g.chat_id for g in ledger.read(groups.list_groups, weekly_schedule=True)] == [CHAT]


def test_bad_group_settings_are_refused_by_name(ledger: Ledger) -> None:
    with pytest.raises(errors.InvalidValue) as info:
        groups.update_group(ledger, CHAT, options={"threshold": "9/9"})
    assert info.value.params["field"] == "options" and "threshold" in str(info.value)
    with pytest.raises(errors.InvalidValue, match="language"):
        groups.update_group(ledger, CHAT, language="fr")
    with pytest.raises(errors.InvalidValue, match="unknown rule set"):
        groups.update_group(ledger, CHAT, rules="riichi")
    assert groups.chat_state(ledger, CHAT).group.options == {}


def test_players_resolve_by_username_seat_and_name(table: Table) -> None:
    ledger = table.ledger
    assert ledger.read(groups.find_seat, CHAT, "@BOB") == "S"
    assert ledger.read(groups.find_seat, CHAT, "cat") == "W"
    assert ledger.read(groups.find_seat, CHAT, "北") == "N"
    assert ledger.read(groups.find_seat, CHAT, "東") == "E"
    assert ledger.read(groups.find_player, CHAT, "dan")[0].is_guest
    with pytest.raises(errors.UnknownPlayer):
        ledger.read(groups.find_seat, CHAT, "@nobody")
    groups.register(ledger, CHAT, UserRef(99, "Eve", "eve"))
    with pytest.raises(errors.PlayerNotSeated):
        ledger.read(groups.find_seat, CHAT, "@eve")


def test_player_profile_is_refreshed(ledger: Ledger) -> None:
    first = groups.register(ledger, CHAT, UserRef(5, "Old", "old"))
    second = groups.register(ledger, CHAT, UserRef(5, "New Name", "@new"))
    assert first.id == second.id and (second.display_name, second.username) == ("New Name", "new")
    sessions.open_session(ledger, CHAT)
    guest = seating.join(ledger, CHAT, guest_name="  UncleLi ").player
    sessions.end_session(ledger, CHAT)
    sessions.open_session(ledger, CHAT)
    assert seating.join(ledger, CHAT, guest_name="unclelI").player.id == guest.id  # the same guest, by name


# ---- sessions and seats -------------------------------------------------------------------------------


def test_one_open_session_per_group(ledger: Ledger) -> None:
    first = sessions.open_session(ledger, CHAT, rules="苏州", stake=5)
    assert (first.rules, first.stake, first.number, first.options["threshold"]) == ("suzhou", 5, 1, "3/4")
    with pytest.raises(errors.SessionAlreadyOpen):
        sessions.open_session(ledger, CHAT)
    other = sessions.open_session(ledger, CHAT + 1)  # another group is independent
    assert other.number == 1
    sessions.end_session(ledger, CHAT)
    assert sessions.open_session(ledger, CHAT).number == 2


def test_session_snapshots_group_options(ledger: Ledger) -> None:
    groups.update_group(ledger, CHAT, options={"threshold": "2/3"})
    session = sessions.open_session(ledger, CHAT, options={"qidui": "10"})
    assert session.options["threshold"] == "2/3" and session.options["qidui"] == "10"
    groups.update_group(ledger, CHAT, options={"threshold": "3/4"})
    assert sessions.require_session(ledger, CHAT).options["threshold"] == "2/3"


def test_seats_fill_in_order_and_move_swaps(table: Table) -> None:
    ledger = table.ledger
    assert [p.display_name for p in table.session.seats.values()] == ["Ann", "Bob", "Cat", "Dan"]
    with pytest.raises(errors.TableFull):
        seating.join(ledger, CHAT, UserRef(99, "Eve"))
    with pytest.raises(errors.AlreadySeated):
        seating.join(ledger, CHAT, table.users[0])
    moved = seating.move(ledger, CHAT, table.ids["E"], "北")
    assert moved.seat == "N"
    seats = {seat: p.display_name for seat, p in moved.session.seats.items()}
    assert seats == {"E": "Dan", "S": "Bob", "W": "Cat", "N": "Ann"}


def test_join_at_a_taken_seat(ledger: Ledger) -> None:
    sessions.open_session(ledger, CHAT)
    seating.join(ledger, CHAT, UserRef(1, "Ann"), seat="E")
    with pytest.raises(errors.SeatTaken) as info:
        seating.join(ledger, CHAT, UserRef(99, "Eve"), seat="E")
    assert info.value.params == {"seat": "E", "name": "Ann"}
    with pytest.raises(errors.InvalidSeat):
        seating.join(ledger, CHAT, UserRef(99, "Eve"), seat="X")


def test_seats_and_first_dealer_lock_after_the_first_hand(table: Table) -> None:
    ledger = table.ledger
    assert sessions.set_dealer(ledger, CHAT, "W").state.dealer == "W"
    recording.commit(ledger, CHAT, DRAW)
    with pytest.raises(errors.SeatsLocked):
        seating.move(ledger, CHAT, table.ids["E"], "S")
    with pytest.raises(errors.SeatsLocked):
        sessions.set_dealer(ledger, CHAT, "E")
    recording.undo(ledger, CHAT)  # nothing live any more: seats may change again
    assert seating.move(ledger, CHAT, table.ids["E"], "S").seat == "S"


def test_a_hand_needs_four_seated_players(ledger: Ledger) -> None:
    sessions.open_session(ledger, CHAT)
    seating.join(ledger, CHAT, guest_name="A")
    before = row_counts(ledger)
    with pytest.raises(errors.TableNotFull) as info:
        recording.commit(ledger, CHAT, DRAW)
    assert info.value.params["empty"] == ["S", "W", "N"]
    assert row_counts(ledger) == before


# ---- hands ------------------------------------------------------------------------------------------


def test_self_draw_pays_from_the_scoring_core(ledger: Ledger) -> None:
    table = seat_table(ledger, stake=5)
    result = recording.commit(ledger, CHAT, QYS_QIDUI, by=table.users[1], text="/hu 南 自摸 5花 清一色 七对")
    hand = result.hand
    assert result.created and hand.number == 1 and hand.kind == "win"
    assert hand.payments == {"E": -200, "S": 600, "W": -200, "N": -200}
    assert hand.player_payments[table.ids["S"]] == 600
    assert hand.wins[0]["hua"] == 40
    assert hand.text == "/hu 南 自摸 5花 清一色 七对"
    assert hand.request["stake"] == 5 and hand.request["dealer"] == "E"
    assert (hand.before.dealer, hand.after.dealer, result.session.state.dealer) == ("E", "S", "S")
    assert result.session.hands_played == 1
    check_invariants(ledger, table.session.id)


def test_dealer_keeps_the_deal_and_streak_grows(table: Table) -> None:
    ledger = table.ledger
    recording.commit(ledger, CHAT, self_draw("E", 5, "清一色"))
    state = recording.commit(ledger, CHAT, self_draw("E", 5, "清一色")).session.state
    assert (state.dealer, state.streak, state.hand_number) == ("E", 2, 3)
    stats = {
        s.player.display_name: s for s in ledger.read(books.player_stats, CHAT, session_id=table.session.id)
    }
    assert stats["Ann"].longest_streak == 2 and stats["Ann"].wins == 2 and stats["Ann"].self_draws == 2


def test_same_source_key_records_once(table: Table) -> None:
    ledger = table.ledger
    first = recording.commit(ledger, CHAT, QYS_QIDUI, source_key="update:42")
    again = recording.commit(ledger, CHAT, QYS_QIDUI, source_key="update:42")
    assert first.created and not again.created and again.hand.id == first.hand.id
    assert len(ledger.read(books.hands, table.session.id)) == 1
    assert ledger.read(books.standings, CHAT).session_rows[1].net == 120
    check_invariants(ledger, table.session.id)


def test_a_win_the_rules_refuse_writes_nothing(table: Table) -> None:
    ledger = table.ledger
    entry = discard("S", "W", 1)  # 1 硬花 on a discard: below the 4 硬花 threshold
    preview = recording.preview(ledger, CHAT, entry)
    assert not preview.allowed and preview.reasons[0]["winner"] == "S"
    before = row_counts(ledger)
    with pytest.raises(errors.WinNotAllowed) as info:
        recording.commit(ledger, CHAT, entry, by=table.users[0], source_key="update:1")
    assert info.value.code == "win_not_allowed" and info.value.params["reasons"][0]["winner"] == "S"
    assert row_counts(ledger) == before


@pytest.mark.parametrize(
    ("entry", "needle"),
    [
        (
            {"event": "win", "wins": [{"winner": "Q", "type": "self_draw", "declared": {"hard_flowers": 5}}]},
            "Q",
        ),
        ({"event": "win", "stake": 100, "wins": []}, "stake"),
        ({"event": "tea"}, "tea"),
        ("hu", "object"),
        (
            {"event": "win", "wins": [{"winner": "S", "type": "self_draw", "hand": {"concealed": "11112m"}}]},
            "",
        ),
    ],
)
def test_malformed_entries_name_the_problem_and_write_nothing(
    table: Table, entry: object, needle: str
) -> None:
    before = row_counts(table.ledger)
    with pytest.raises(errors.InvalidEntry) as info:
        recording.commit(table.ledger, CHAT, entry)  # type: ignore[arg-type]
    assert needle in str(info.value) and info.value.params["detail"]
    assert row_counts(table.ledger) == before


def test_no_open_session(ledger: Ledger) -> None:
    with pytest.raises(errors.NoOpenSession):
        recording.commit(ledger, CHAT, DRAW)
    with pytest.raises(errors.NoOpenSession):
        recording.preview(ledger, CHAT, DRAW)
    table = seat_table(ledger)
    sessions.end_session(ledger, CHAT)
    before = row_counts(ledger)
    with pytest.raises(errors.NoOpenSession):
        recording.commit(ledger, CHAT, DRAW, by=UserRef(78, "New"), source_key="update:3")
    assert row_counts(ledger) == before
    with pytest.raises(errors.SessionNotOpen):
        sessions.end_session(ledger, CHAT, session_id=table.session.id)


def test_draw_and_escape_and_diling(table: Table) -> None:
    ledger = table.ledger
    draw = recording.commit(ledger, CHAT, DRAW).hand
    assert draw.kind == "draw" and all(v == 0 for v in draw.payments.values())
    assert draw.after.diling and draw.after.dealer == "S"  # 荒庄: the next seat deals, next hand 滴零
    escape = recording.commit(ledger, CHAT, {"event": "escape", "escaper": "W"}).hand
    assert escape.kind == "escape" and escape.payments["W"] == -120
    check_invariants(ledger, table.session.id)


def test_baozi_doubles_the_coming_hand_only(table: Table) -> None:
    ledger = table.ledger
    assert sessions.mark_baozi(ledger, CHAT).state.baozi
    doubled = recording.commit(ledger, CHAT, QYS_QIDUI).hand
    assert doubled.request["baozi"] is True and doubled.payments["S"] == 240
    assert not sessions.require_session(ledger, CHAT).state.baozi
    assert doubled.after.diling  # the hand after a 豹子 is 滴零


# ---- undo, edit, adjust -------------------------------------------------------------------------------


def test_undo_voids_the_last_hand_and_rolls_the_dealer_back(table: Table) -> None:
    ledger = table.ledger
    sessions.mark_baozi(ledger, CHAT)
    first = recording.commit(ledger, CHAT, QYS_QIDUI).hand
    undone = recording.undo(ledger, CHAT, by=table.users[0], source_key="update:7")
    assert undone.hand.id == first.id and undone.hand.voided
    state = undone.session.state
    assert (state.dealer, state.streak, state.hand_number, state.baozi) == ("E", 0, 1, True)
    again = recording.undo(ledger, CHAT, source_key="update:7")  # a repeated update voids nothing more
    assert not again.created
    with pytest.raises(errors.NothingToUndo):
        recording.undo(ledger, CHAT)
    all_rows = ledger.read(books.hands, table.session.id, include_voided=True)
    assert [h.voided for h in all_rows] == [True]  # still in the audit trail
    assert all(s.net == 0 for s in ledger.read(books.standings, CHAT).session_rows)
    check_invariants(ledger, table.session.id)


def test_edit_replaces_a_hand_and_recomputes_every_later_one(table: Table) -> None:
    ledger = table.ledger
    recording.commit(ledger, CHAT, self_draw("E", 5, "清一色"))  # 1: dealer E keeps the deal, 连庄 1
    recording.commit(ledger, CHAT, self_draw("E", 5, "清一色"))  # 2: 连庄 2
    recording.commit(ledger, CHAT, discard("W", "N", 5, "清一色"))  # 3: W wins, W deals next
    recording.adjust(ledger, CHAT, table.ids["S"], table.ids["E"], 3, note="茶水")  # 4
    # Hand 1 was really S's self-draw: S deals hand 2, so E's win in hand 2 is a 闲家 win, 连庄 resets.
    result = recording.edit(
        ledger, CHAT, 1, self_draw("S", 5, "清一色"), by=table.users[1], source_key="update:9"
    )
    assert result.hand.number == 1 and result.hand.payments["S"] == 60
    # hand 3 ends with W dealing exactly as before, so the adjustment after it stays as recorded
    assert [h.number for h in result.replaced] == [1, 2, 3]
    assert [h.number for h in result.voided] == [1, 2, 3]
    live = ledger.read(books.hands, table.session.id)
    assert [h.before.dealer for h in live[:3]] == ["E", "S", "E"]
    assert live[2].before.streak == 0
    assert live[3].kind == "adjust" and live[3].note == "茶水" and live[3].payments == {"S": -3, "E": 3}
    assert result.session.state.dealer == "W"
    all_rows = ledger.read(books.hands, table.session.id, include_voided=True)
    assert len(all_rows) == 7
    old = [h for h in all_rows if h.voided]
    assert {h.replaced_by for h in old} == {h.id for h in result.replaced}
    assert not recording.edit(ledger, CHAT, 1, self_draw("S", 5, "清一色"), source_key="update:9").created
    check_invariants(ledger, table.session.id)


def test_edit_of_the_last_hand_only(table: Table) -> None:
    ledger = table.ledger
    recording.commit(ledger, CHAT, DRAW)
    recording.commit(ledger, CHAT, QYS_QIDUI)
    previews = ledger.read(hands.preview_edit, CHAT, 2, self_draw("N", 5, "清一色"))
    assert len(previews) == 1 and previews[0].payments["N"] == 3 * 2 * 20  # 滴零 after the draw doubles
    result = recording.edit(ledger, CHAT, 2, self_draw("N", 5, "清一色"))
    assert result.session.state.dealer == "N"
    check_invariants(ledger, table.session.id)


def test_edit_of_a_hand_followed_by_an_adjustment_moves_the_coming_hand_on(table: Table) -> None:
    """荒庄 in hand 1 passes the deal to 南; Ann pays Bob 1 after it; hand 1 corrected to 东 逃跑: 东 keeps
    the deal, so hand 2 is dealt by 东, not by the 南 the old hand 1 had left."""
    ledger, ids = table.ledger, table.ids
    recording.commit(ledger, CHAT, DRAW)
    recording.adjust(ledger, CHAT, ids["E"], ids["S"], 1, note="茶水")
    assert sessions.require_session(ledger, CHAT).state.dealer == "S"
    result = recording.edit(ledger, CHAT, 1, {"event": "escape", "escaper": "E"})
    assert result.session.state.dealer == "E" and result.session.state.hand_number == 2
    after = recording.commit(ledger, CHAT, DRAW)  # hand 2 starts from the corrected state
    assert after.hand.before.dealer == "E" and after.hand.number == 2
    check_invariants(ledger, table.session.id)


def test_edit_that_breaks_a_later_hand_is_refused_whole(table: Table) -> None:
    ledger = table.ledger
    recording.commit(ledger, CHAT, DRAW)
    heavenly = {
        "event": "win",
        "wins": [{"winner": "S", "type": "self_draw", "declared": {"hard_flowers": 0, "patterns": ["天胡"]}}],
    }
    recording.commit(ledger, CHAT, heavenly)  # S deals hand 2 after the draw: 天胡 by the dealer is fine
    before = row_counts(ledger)
    # If hand 1 had been E's win, E would deal hand 2 and S could not have a 天胡.
    with pytest.raises(errors.LedgerError) as info:
        recording.edit(ledger, CHAT, 1, self_draw("E", 5, "清一色"))
    assert info.value.params.get("number") == 2 and "hand 2" in str(info.value)
    assert row_counts(ledger) == before


def test_edit_unknown_hand_and_adjust_rules(table: Table) -> None:
    ledger = table.ledger
    with pytest.raises(errors.HandNotFound):
        recording.edit(ledger, CHAT, 1, DRAW)
    recording.adjust(ledger, CHAT, table.ids["E"], table.ids["W"], 10, note="side bet")
    with pytest.raises(errors.HandNotFound):  # an adjustment is not a hand: it has no hand number
        recording.edit(ledger, CHAT, 1, DRAW)
    with pytest.raises(errors.InvalidValue):
        recording.adjust(ledger, CHAT, table.ids["E"], table.ids["W"], 0)
    with pytest.raises(errors.InvalidValue):
        recording.adjust(ledger, CHAT, table.ids["E"], table.ids["E"], 5)
    outsider = groups.register(ledger, CHAT, UserRef(77, "Zed"))
    before = row_counts(ledger)
    with pytest.raises(errors.PlayerNotSeated):
        recording.adjust(ledger, CHAT, outsider.id, table.ids["E"], 5, by=UserRef(78, "New"))
    assert row_counts(ledger) == before  # not even the new recorder's player row
    assert sessions.require_session(ledger, CHAT).hands_played == 0  # adjustments are not hands
    standings = {s.seat: s.net for s in ledger.read(books.standings, CHAT).session_rows}
    assert standings == {"E": -10, "S": 0, "W": 10, "N": 0}


# ---- reading --------------------------------------------------------------------------------------------


def test_standings_stats_ledger_history_and_transfers(ledger: Ledger) -> None:
    table = seat_table(ledger, stake=5)
    recording.commit(ledger, CHAT, QYS_QIDUI)  # S +600
    recording.commit(ledger, CHAT, discard("W", "N", 4, "清一色"))  # N pays W
    recording.commit(ledger, CHAT, DRAW)
    rows = ledger.read(books.ledger_rows, table.session.id)
    assert [r.hand.number for r in rows] == [1, 2, 3]
    assert rows[-1].running == {
        seat: s.net for seat, s in ((s.seat, s) for s in ledger.read(books.standings, CHAT).session_rows)
    }
    stats = {s.player.display_name: s for s in ledger.read(books.player_stats, CHAT)}
    assert stats["Bob"].biggest_win == 600 and stats["Bob"].biggest_hua == 40 and stats["Bob"].self_draws == 1
    assert stats["Dan"].dealt_in == 1 and stats["Cat"].wins == 1 and stats["Ann"].hands == 3
    summary = sessions.end_session(ledger, CHAT, by=table.users[0])
    assert summary.session.status == "ended" and summary.hands_played == 3
    transfers = ledger.read(books.transfers, table.session.id)
    assert len(transfers) <= 3 and sum(t.amount for t in transfers) > 0
    # a second session adds to the all-time totals
    seat_table(ledger, stake=1)
    recording.commit(ledger, CHAT, QYS_QIDUI)
    alltime = {s.player.display_name: s for s in ledger.read(books.standings, CHAT).alltime_rows}
    assert alltime["Bob"].net == 600 and alltime["Bob"].hands == 4  # money: the open session's 120 not yet
    sessions.end_session(ledger, CHAT, by=table.users[0])
    alltime = {s.player.display_name: s for s in ledger.read(books.standings, CHAT).alltime_rows}
    assert alltime["Bob"].net == 600 + 120
    assert [h.session.number for h in ledger.read(books.history, CHAT)] == [2, 1]
    assert ledger.read(books.player_stats, CHAT, player_id=table.ids["S"])[0].sessions == 2


def test_idle_sessions(table: Table) -> None:
    ledger = table.ledger
    assert sessions.end_idle(ledger, timedelta(hours=6)) == []
    later = table.session.last_activity_at + timedelta(hours=7)
    ended = sessions.end_idle(ledger, timedelta(hours=6), now=later)
    assert [s.session.id for s in ended] == [table.session.id] and ended[0].session.end_reason == "idle"
    assert groups.chat_state(ledger, CHAT).session is None


# ---- pending entries -------------------------------------------------------------------------------


def test_pending_entry_is_consumed_exactly_once(table: Table) -> None:
    ledger = table.ledger
    entry = pend(ledger, CHAT, "hand", QYS_QIDUI, by=table.users[1], text="/hu 南 自摸", message_id=555)
    assert entry.status == "pending" and entry.preview is not None and entry.preview.payments["S"] == 120
    assert entry.message_id == 555
    assert [p.id for p in open_pending(ledger, CHAT)] == [entry.id]
    first = recording.confirm_pending(ledger, entry.id, chat_id=CHAT, by=table.users[2])
    second = recording.confirm_pending(ledger, entry.id, chat_id=CHAT, by=table.users[0])
    assert first.created and not second.created and first.hand.id == second.hand.id
    assert first.hand.source_key == f"pending:{entry.id}"
    assert ledger.read(pending.get_pending, entry.id).status == "committed"
    assert len(ledger.read(books.hands, table.session.id)) == 1


def test_pending_cancel_expire_and_stale(table: Table) -> None:
    ledger = table.ledger
    cancelled = pend(ledger, CHAT, "hand", DRAW)
    recording.cancel_pending(ledger, cancelled.id, chat_id=CHAT)
    with pytest.raises(errors.PendingCancelled):
        recording.confirm_pending(ledger, cancelled.id, chat_id=CHAT)
    short = pend(ledger, CHAT, "hand", DRAW, timeout_seconds=5)
    expired = ledger.write(pending.expire, now=short.expires_at + timedelta(seconds=1))
    assert [p.id for p in expired] == [short.id] and expired[0].status == "expired"
    with pytest.raises(errors.PendingExpired):
        recording.confirm_pending(ledger, short.id, chat_id=CHAT)
    stale = pend(ledger, CHAT, "hand", DRAW)
    recording.commit(ledger, CHAT, QYS_QIDUI)
    with pytest.raises(errors.PendingStale):
        recording.confirm_pending(ledger, stale.id, chat_id=CHAT)
    with pytest.raises(errors.NotFound):
        recording.confirm_pending(ledger, "nope", chat_id=CHAT)
    assert len(ledger.read(books.hands, table.session.id)) == 1


def test_pending_undo_edit_adjust(table: Table) -> None:
    ledger = table.ledger
    recording.commit(ledger, CHAT, QYS_QIDUI)
    edit = pend(ledger, CHAT, "edit", {"number": 1, "entry": self_draw("W", 5, "清一色")})
    assert edit.preview is not None and edit.preview.payments["W"] == 60
    assert recording.confirm_pending(ledger, edit.id, chat_id=CHAT).hand.payments["W"] == 60
    adjust = pend(
        ledger, CHAT, "adjust", {"payer": table.ids["E"], "payee": table.ids["N"], "amount": 4, "note": "烟"}
    )
    assert recording.confirm_pending(ledger, adjust.id, chat_id=CHAT).hand.note == "烟"
    undo = pend(ledger, CHAT, "undo", {})
    assert undo.payload["number"] == 1  # the adjustment follows hand 1 (it is not a hand of its own)
    assert recording.confirm_pending(ledger, undo.id, chat_id=CHAT).hand.kind == "adjust"
    assert [h.number for h in ledger.read(books.hands, table.session.id)] == [1]
    preview = recording.preview(ledger, CHAT, DRAW)
    with pytest.raises(errors.InvalidValue):
        recording.create_pending(
            ledger,
            CHAT,
            "edit",
            {"number": "one", "entry": DRAW},
            preview=preview,
            base_version=0,
            message_id=None,
        )
    check_invariants(ledger, table.session.id)


def test_pending_creation_is_idempotent_on_its_source_key(table: Table) -> None:
    ledger = table.ledger
    first = pend(ledger, CHAT, "hand", QYS_QIDUI, source_key="update:700", message_id=77)
    repeat = pend(ledger, CHAT, "hand", QYS_QIDUI, source_key="update:700", message_id=78)
    assert repeat.id == first.id and repeat.message_id == 77 and len(first.id) == 32
    # The redelivered update (another process, after a restart) finds the preview already shown.
    other = Ledger(ledger.engine)
    assert pend(other, CHAT, "hand", QYS_QIDUI, source_key="update:700").message_id == 77
    assert [p.id for p in open_pending(ledger, CHAT)] == [first.id]
    # A different update is a different entry; an entry without a key never collides.
    different = pend(ledger, CHAT, "hand", DRAW, source_key="update:701")
    unkeyed = [pend(ledger, CHAT, "hand", DRAW).id for _ in range(2)]
    assert len({first.id, different.id, *unkeyed}) == 4
    # Once confirmed, a repeat still returns the same entry (committed) and stores nothing new.
    recording.confirm_pending(ledger, first.id, chat_id=CHAT)
    before = row_counts(ledger)
    again = pend(ledger, CHAT, "hand", QYS_QIDUI, source_key="update:700")
    assert (again.id, again.status) == (first.id, "committed")
    assert row_counts(ledger) == before
    assert len(ledger.read(books.hands, table.session.id)) == 1


def test_pending_with_one_key_from_two_threads_is_stored_once(table: Table) -> None:
    import threading

    ledger = table.ledger
    ids: list[str] = []
    barrier = threading.Barrier(4)

    def create() -> None:
        barrier.wait()
        ids.append(pend(ledger, CHAT, "hand", DRAW, source_key="update:900").id)

    threads = [threading.Thread(target=create) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(ids) == 4 and len(set(ids)) == 1
    assert [p.id for p in open_pending(ledger, CHAT)] == ids[:1]


def test_ending_a_session_expires_its_pending_entries(table: Table) -> None:
    ledger = table.ledger
    entry = pend(ledger, CHAT, "hand", DRAW)
    sessions.end_session(ledger, CHAT)
    assert ledger.read(pending.get_pending, entry.id).status == "expired"
    with pytest.raises(errors.PendingExpired):
        recording.confirm_pending(ledger, entry.id, chat_id=CHAT)


def test_errors_carry_code_and_params_for_the_catalog() -> None:
    error = errors.SeatTaken("seat E is taken by Ann", seat="E", name="Ann")
    assert (error.code, error.params, str(error)) == (
        "seat_taken",
        {"seat": "E", "name": "Ann"},
        "seat E is taken by Ann",
    )
    assert isinstance(error, errors.LedgerError)
