"""`LedgerService`: the ledger's one facade for handlers and jobs, one transaction per call."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete
from sqlmodel import Session, col, select

from bot.ledger import errors
from bot.ledger.facade.recording import RecordingCalls
from bot.ledger.play import books, groups, hands, pending, sessions
from bot.ledger.storage.mappers import group_info, player_info, session_info
from bot.ledger.storage.models import AppliedKey, ChatGroup, Hand, Player, TableSession
from bot.ledger.storage.rows import chat_of, group_row, pending_row, player_row, row_id, session_row
from bot.ledger.values import (
    CardView,
    GroupInfo,
    HandRecord,
    LedgerRow,
    PlayerInfo,
    PlayerStats,
    SeatChange,
    SessionInfo,
    SessionSummary,
    StandingsReport,
    Transfer,
    UserRef,
)

log = logging.getLogger(__name__)

IDLE_RETRY = timedelta(minutes=1)  # a table whose idle end failed waits this long, doubling each time …
IDLE_RETRY_MAX = timedelta(hours=1)  # … up to this


class LedgerService(RecordingCalls):
    """Groups, players, table sessions, hands and entries waiting for Confirm, on SQLite or PostgreSQL.

    Every method is one transaction (`bot.ledger.storage.store`), blocking: handlers call it in a
    worker thread.
    Writes retry on a lock or a constraint race. Every error is a `bot.ledger.errors.LedgerError` (code +
    params) and means nothing was written. Operations on "the table" take the group's `chat_id` and act on
    its one open session. Entries are the partial docs/rules.md §4 request with seats:
    `{"event": "win", "discarder": "W", "wins": [{"winner": "S", "type": "discard", "declared": {...}}]}`.
    """

    # ---- groups and players ---------------------------------------------------------------------------

    def get_group(self, chat_id: int) -> GroupInfo:
        """The group's settings (as `chat_state(chat_id).group`)."""
        return self.chat_state(chat_id).group

    def update_group(
        self,
        chat_id: int,
        *,
        language: str | None = None,
        rules: str | None = None,
        options: dict[str, Any] | None = None,
        instant: bool | None = None,
        confirm_timeout_seconds: int | None = None,
        weekly_schedule: bool | None = None,
        weekly_day: str | None = None,
        weekly_time: str | None = None,
        weekly_last_post_at: datetime | None = None,
        timezone: str | None = None,
        confirm_by: str | None = None,
        key: str | None = None,
    ) -> GroupInfo:
        """Change group settings. `rules` accepts 苏州/蘇州/宿州 and ids (the options reset); `options` are
        merged into the group's and validated by the scoring core. The open session is not changed."""
        groups.check_settings(
            language, confirm_timeout_seconds, weekly_day, weekly_time, timezone, confirm_by
        )
        changes: dict[str, Any] = {
            "language": language,
            "rules": groups.resolve_rules(rules) if rules is not None else None,
            "options": options,
            "instant": instant,
            "confirm_timeout_seconds": confirm_timeout_seconds,
            "weekly_schedule": weekly_schedule,
            "weekly_day": weekly_day,
            "weekly_time": weekly_time,
            "weekly_last_post_at": weekly_last_post_at,
            "timezone": timezone,
            "confirm_by": confirm_by,
        }
        info = self._write(lambda s: groups.update_group(s, self._group(s, chat_id), dict(changes)), key)
        self.remember_group(info)
        return info

    def list_groups(self, *, weekly_schedule: bool | None = None) -> list[GroupInfo]:
        """Every group, optionally only those with the weekly-schedule flag set (or unset)."""
        query = select(ChatGroup).order_by(col(ChatGroup.id))
        if weekly_schedule is not None:
            query = query.where(ChatGroup.weekly_schedule == weekly_schedule)
        return self._read(lambda s: [group_info(g) for g in s.scalars(query)])

    def claim_weekly(self, chat_id: int, due: datetime, now: datetime | None = None) -> bool:
        """True exactly once per due time across workers: the weekly post of `due` is this caller's."""
        moment = now or self._now()
        return self._write(lambda s: groups.claim_weekly(s, chat_id, due, moment))

    def ensure_player(self, chat_id: int, user: UserRef) -> PlayerInfo:
        """The group's player for a Telegram user, created or refreshed (username, display name); another
        player of the group who held that @username before loses it."""
        now = self._now()
        return self._write(
            lambda s: player_info(groups.ensure_player(s, self._group(s, chat_id), user, now), chat_id)
        )

    def get_player(self, player_id: int) -> PlayerInfo:
        """A player by id (NotFound)."""

        def op(s: Session) -> PlayerInfo:
            player = s.get(Player, player_id)
            if player is None:
                raise errors.NotFound(f"no player {player_id}", what="player", id=player_id)
            return player_info(player, chat_of(s, player.group_id))

        return self._read(op)

    def find_player(self, chat_id: int, ref: str) -> PlayerInfo:
        """Resolve `@username`, a seat (E/S/W/N, 东南西北, 東, 东家) or a display/guest name (any case) to a
        player of the group. UnknownPlayer, AmbiguousPlayer, PlayerNotSeated (an empty seat)."""
        return self._read(lambda s: groups.find_player(s, chat_id, ref)[0])

    def people(self, chat_id: int) -> list[tuple[int, str, str | None]]:
        """Every player of the group (id, display name, @username), for a table's resolver of typed names
        (`bot.handlers.turn.seat_resolver`)."""
        return self._read(lambda s: groups.people(s, chat_id))

    def players_named(self, chat_id: int, ref: str) -> list[PlayerInfo]:
        """Every player of the group a name (or @username) fits, oldest first, each told apart by its
        `twin` number where they share a display name."""

        def op(s: Session) -> list[PlayerInfo]:
            group = group_row(s, chat_id)
            if group is None:
                return []
            twin = groups.twins(s, row_id(group))
            return [
                replace(player_info(p, chat_id), twin=twin.get(row_id(p), 0))
                for p in groups.name_matches(s, group, ref)
            ]

        return self._read(op)

    def find_seat(self, chat_id: int, ref: str) -> str:
        """A player reference (as `find_player`) to that player's seat at the open table (PlayerNotSeated)."""

        def op(s: Session) -> str:
            player, seat = groups.find_player(s, chat_id, ref)
            if seat is None:
                raise errors.PlayerNotSeated(
                    f"{player.name} has no seat at this table", name=player.name, ref=ref
                )
            return seat

        return self._read(op)

    # ---- sessions and seats ---------------------------------------------------------------------------

    def open_session(
        self,
        chat_id: int,
        *,
        by: UserRef | None = None,
        rules: str | None = None,
        stake: int = 1,
        options: dict[str, Any] | None = None,
        key: str | None = None,
    ) -> SessionInfo:
        """Open a table session (rules default the group's; options snapshot; stake > 0).
        SessionAlreadyOpen if the group has one (also a unique index)."""
        now = self._now()

        def op(s: Session) -> SessionInfo:
            return sessions.open_session(
                s,
                chat_id,
                self.defaults,
                now,
                opened_by=lambda g: groups.actor(s, g, by, now),
                rules=rules,
                stake=stake,
                options=options,
            )

        return self._write(op, key)

    def get_session(self, session_id: int) -> SessionInfo:
        """A session by id, open or ended (NotFound)."""
        return self._read(lambda s: session_info(s, session_row(s, session_id)))

    def _change(self, chat_id: int, key: str | None, **changes: Any) -> SessionInfo:
        now = self._now()
        return self._on_open(chat_id, lambda s, _g, ts: sessions.change(s, ts, now, **changes), key)

    def update_session(
        self,
        chat_id: int,
        *,
        options: dict[str, Any] | None = None,
        stake: int | None = None,
        key: str | None = None,
    ) -> SessionInfo:
        """Change the open session's options (merged, validated) or stake; later hands only."""
        changes = {
            name: value for name, value in (("options", options), ("stake", stake)) if value is not None
        }
        if stake is not None:
            sessions.check_stake(stake)
        return self._change(chat_id, key, **changes)

    def set_dealer(self, chat_id: int, seat: str, *, key: str | None = None) -> SessionInfo:
        """Choose the first dealer (also the round's first dealer) before the first hand (SeatsLocked)."""
        return self._change(chat_id, key, dealer=sessions.seat_of(seat))

    def mark_baozi(self, chat_id: int, baozi: bool = True, *, key: str | None = None) -> SessionInfo:
        """Mark (or clear) 豹子 for the coming hand: the dice of /roll showed a double."""
        return self._change(chat_id, key, baozi=baozi)

    def join(
        self,
        chat_id: int,
        user: UserRef | None = None,
        *,
        guest_name: str | None = None,
        seat: str | None = None,
        by: UserRef | None = None,
        key: str | None = None,
    ) -> SeatChange:
        """Seat a Telegram user or a named guest at the next free seat (E, S, W, N order) or at `seat`, before
        the first hand (SeatsLocked); a guest's seat remembers who seated them (`by`). AlreadySeated,
        SeatTaken, TableFull, NoOpenSession."""
        if (user is None) == (guest_name is None):
            raise errors.InvalidValue("join needs either a Telegram user or a guest name", field="player")
        wanted = sessions.seat_of(seat) if seat is not None else None
        now = self._now()

        def op(s: Session, group: ChatGroup, ts: TableSession) -> SeatChange:
            player = _newcomer(s, group, ts, user, guest_name, now)
            target = sessions.sit(s, group, ts, player, wanted, now)
            _mark_seater(s, group, ts, player, guest_name, by, now)
            return SeatChange(player_info(player, chat_id), target, session_info(s, ts, chat_id))

        return self._on_open(chat_id, op, key)

    def substitute(
        self,
        chat_id: int,
        seat: str,
        user: UserRef | None = None,
        *,
        guest_name: str | None = None,
        by: UserRef | None = None,
        key: str | None = None,
    ) -> tuple[SeatChange, PlayerInfo]:
        """/sub: from the next hand on a Telegram user or a named guest sits at `seat` in place of its
        player, who keeps their own totals (and shows under the seat). (the change, who left).
        PlayerNotSeated (an empty seat), AlreadySeated, BadGuestName."""
        if (user is None) == (guest_name is None):
            raise errors.InvalidValue("a substitute is a Telegram user or a guest name", field="player")
        target = sessions.seat_of(seat)
        now = self._now()

        def op(s: Session, group: ChatGroup, ts: TableSession) -> tuple[SeatChange, PlayerInfo]:
            player = _newcomer(s, group, ts, user, guest_name, now)
            gone = sessions.substitute(s, group, ts, target, player, now)
            _mark_seater(s, group, ts, player, guest_name, by, now)
            change = SeatChange(player_info(player, chat_id), target, session_info(s, ts, chat_id))
            return change, player_info(gone, chat_id)

        return self._on_open(chat_id, op, key)

    def move(self, chat_id: int, player_id: int, seat: str, *, key: str | None = None) -> SeatChange:
        """Move a seated player to `seat` before the first hand; an occupant of that seat swaps places."""
        target = sessions.seat_of(seat)
        now = self._now()

        def op(s: Session, _group: ChatGroup, ts: TableSession) -> SeatChange:
            player = player_row(s, player_id)
            sessions.move(s, ts, player, target, now)
            return SeatChange(player_info(player, chat_id), target, session_info(s, ts, chat_id))

        return self._on_open(chat_id, op, key)

    def unseat(self, chat_id: int, player_id: int, *, key: str | None = None) -> SeatChange:
        """Free a player's seat before the first hand (PlayerNotSeated, SeatsLocked)."""
        now = self._now()

        def op(s: Session, _group: ChatGroup, ts: TableSession) -> SeatChange:
            player = player_row(s, player_id)
            sessions.unseat(s, ts, player, now)
            return SeatChange(player_info(player, chat_id), None, session_info(s, ts, chat_id))

        return self._on_open(chat_id, op, key)

    def end_session(
        self,
        chat_id: int,
        *,
        by: UserRef | None = None,
        session_id: int | None = None,
        reason: str = "manual",
        topic: int | None = None,
        key: str | None = None,
    ) -> SessionSummary:
        """End the open session (or exactly `session_id`, which must still be open: SessionNotOpen), e.g.
        reason "manual" or "idle". Its entries waiting for Confirm expire; its summary is due, for forum
        topic `topic` when given (`claim_summary`). Returns its summary."""
        now = self._now()

        def op(s: Session) -> SessionSummary:
            if session_id is not None:
                ts = session_row(s, session_id, lock=True)
                group = s.get(ChatGroup, ts.group_id)
                assert group is not None
            else:
                group, ts = sessions.open_table(s, chat_id)
            groups.actor(s, group, by, now)
            return sessions.end(s, ts, reason, now, topic)

        return self._write(op, key)

    def end_idle(self, idle_for: timedelta, *, now: datetime | None = None) -> list[SessionSummary]:
        """End every open session idle for `idle_for`, each by a compare-and-set (still open, still idle):
        the sessions this call ended, each ended by exactly one caller across workers. A table whose end
        fails is logged and left for later, tried again after a back-off (1 minute, doubling up to an
        hour: this worker's memory); the other groups' tables end all the same."""
        moment = now or self._now()
        cutoff = moment - idle_for
        ended = []
        failing = self.idle_failures
        for session_id in self._read(lambda s: sessions.idle_ids(s, cutoff)):
            count, retry_at = failing.get(session_id, (0, moment))
            if moment < retry_at:
                continue

            def end_one(s: Session, sid: int = session_id) -> SessionSummary | None:
                return sessions.end_if_idle(s, sid, cutoff, moment)

            try:
                done = self._write(end_one)
            except errors.LedgerError:  # one table's failure never keeps the other groups' tables open
                wait = min(IDLE_RETRY * 2**count, IDLE_RETRY_MAX)
                failing[session_id] = (count + 1, moment + wait)
                log.exception("could not end idle session %s; tried again in %s", session_id, wait)
                continue
            failing.pop(session_id, None)
            if done is not None:
                ended.append(done)
        return ended

    def set_card(self, session_id: int, message_id: int) -> None:
        """Remember the message of the session's pinned card."""

        def op(s: Session) -> None:
            session_row(s, session_id).card_message_id = message_id

        self._write(op)

    def set_result_message(self, hand_id: int, message_id: int) -> None:
        """Remember the message of a ledger row's result line."""

        def op(s: Session) -> None:
            hand = s.get(Hand, hand_id)
            if hand is not None:
                hand.result_message_id = message_id

        self._write(op)

    def result_message(self, hand_id: int) -> int | None:
        """The message of a ledger row's result line, if it was sent (and remembered)."""

        def op(s: Session) -> int | None:
            hand = s.get(Hand, hand_id)
            return hand.result_message_id if hand is not None else None

        return self._read(op)

    def set_flow(self, session_id: int, message_id: int | None) -> None:
        """Remember (None: forget) the message of the table's open /hu button flow (one per table)."""

        def op(s: Session) -> None:
            session_row(s, session_id).flow_message_id = message_id

        self._write(op)

    def release(self, key: str, *, unless: str) -> bool:
        """Give back a claim (`claim`) whose reply failed, so that the next request with the key goes on
        instead of being told it was done; unless a write went through under `unless` (its own key: a
        hand recorded, or an entry waiting for Confirm), which a retry must not do again: then the claim
        stands (False)."""

        def op(s: Session) -> bool:
            if hands.existing(s, unless) is not None or pending_row(s, pending.pending_id_for(unless)):
                return False
            s.execute(delete(AppliedKey).where(col(AppliedKey.key) == key))
            return True

        return self._write(op)

    def refuse_pin(self, session_id: int) -> bool:
        """Note that the bot may not pin in this session's chat: True the first time (say it once)."""

        def op(s: Session) -> bool:
            ts = session_row(s, session_id, lock=True)
            first, ts.pin_refused = not ts.pin_refused, True
            return first

        return self._write(op)

    def card_view(self, session_id: int) -> CardView:
        """What the session's card shows (one read)."""
        return self._read(lambda s: books.card_view(s, session_row(s, session_id)))

    # ---- reading --------------------------------------------------------------------------------------

    def hands(self, session_id: int, *, include_voided: bool = False) -> list[HandRecord]:
        """The session's rows in ledger order; voided rows only when asked."""
        return self._read(lambda s: books.hands(s, session_id, include_voided=include_voided))

    def ledger(self, session_id: int, *, last: int | None = None) -> list[LedgerRow]:
        """Live rows with every seat's running total after each; only the `last` newest when given (a page
        of a long session, as cheap at 100,000 rows as at 100)."""
        return self._read(lambda s: books.ledger_rows(s, session_id, last))

    def standings(self, chat_id: int, *, session_id: int | None = None) -> StandingsReport:
        """Session standings (the open session, or `session_id`) and the group's all-time standings, from
        the running totals (never a scan of the hands)."""
        return self._read(lambda s: books.standings(s, chat_id, session_id))

    def player_stats(
        self, chat_id: int, *, session_id: int | None = None, player_id: int | None = None
    ) -> list[PlayerStats]:
        """Per-player stats for one session or the group's history (from running aggregates)."""
        return self._read(
            lambda s: books.player_stats(s, chat_id, session_id=session_id, player_id=player_id)
        )

    def history(self, chat_id: int, *, limit: int = 20) -> list[SessionSummary]:
        """The group's sessions, newest first, with each player's net."""
        return self._read(lambda s: books.history(s, chat_id, limit))

    def transfers(self, session_id: int) -> list[Transfer]:
        """The fewest payments that settle the session."""
        return self._read(lambda s: books.transfers(s, session_id))


def _newcomer(
    s: Session,
    group: ChatGroup,
    ts: TableSession,
    user: UserRef | None,
    guest_name: str | None,
    now: datetime,
) -> Player:
    """Who /join or /sub seats: the Telegram user, or the guest of that name (BadGuestName first: a name
    the ledger refuses, or one somebody at this table or in the group already holds)."""
    if user is not None:
        return groups.ensure_player(s, group, user, now)
    name = guest_name or ""
    groups.check_guest_name(groups.clean_name(name), groups.name_holders(s, group, ts))
    return groups.guest(s, group, name, now)


def _mark_seater(
    s: Session,
    group: ChatGroup,
    ts: TableSession,
    player: Player,
    guest_name: str | None,
    by: UserRef | None,
    now: datetime,
) -> None:
    """A guest remembers who seated them: that person may press 我已付 for the guest."""
    if guest_name is not None and by is not None:
        sessions.mark_seater(s, ts, player, groups.ensure_player(s, group, by, now))
