"""The summary and chat-move half of the ledger facade: an ended session's summary claimed, marked part by
part, retried (`bot.ledger.claims.summaries`); a group's ledger following its chat to a supergroup
(`bot.ledger.play.supergroup`). Each call one transaction."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from bot.ledger.claims import summaries
from bot.ledger.facade.base import Calls
from bot.ledger.play import supergroup
from bot.ledger.values import DueSummary

CANDIDATES = 8  # due summaries one claim tries, oldest first, when other workers take the first ones


class SummaryCalls(Calls):
    """Due summaries and chat moves."""

    def claim_summary(self, session_id: int, *, now: datetime | None = None) -> DueSummary | None:
        """The summary of the session this caller just ended, for it to post (compare-and-set: exactly one
        caller across workers gets it, with a lease), before the sweep may (`summaries.ENDER_GRACE`); None
        when it is posted, held or given up."""
        moment = now or self._now()
        return self._write(lambda s: summaries.claim(s, session_id, moment, ender=True))

    def claim_next_summary(self, *, now: datetime | None = None) -> DueSummary | None:
        """The summary due longest by now (its session ended and its ender did not post it, its poster
        died, or its retry time came), claimed by one compare-and-set: the first this caller got, or None
        when none is due. One at a time, just before posting it: a claim's lease starts when its post
        does."""
        moment = now or self._now()
        # Each claim that fails takes its row out of the due ones (claimed by another, posted, given up).
        while candidates := self._read(lambda s: summaries.due_ids(s, moment, CANDIDATES)):
            for session_id in candidates:

                def claim_one(s: Session, sid: int = session_id) -> DueSummary | None:
                    return summaries.claim(s, sid, moment)

                due = self._write(claim_one)
                if due is not None:
                    return due
        return None

    def renew_summary(self, due: DueSummary) -> bool:
        """Right before a send of `due`: its lease runs from now (compare-and-set). False when another
        poster's claim superseded it: send nothing."""
        now = self._now()
        return self._write(lambda s: summaries.renew(s, due, now))

    def summary_sent(self, due: DueSummary, sent: int, *, card_message_id: int | None = None) -> bool:
        """`sent` of the summary's parts (the card, the chart, the CSV) are out; the card's message id is
        stored with the first. False when another poster's claim superseded `due` (stop posting)."""
        now = self._now()
        return self._write(lambda s: summaries.mark_sent(s, due, sent, now, card_message_id=card_message_id))

    def retry_summary(self, due: DueSummary) -> datetime | None:
        """A send of `due` failed: when it is due again (the pause doubles each time), or None when it is
        given up, days after its session ended."""
        now = self._now()
        return self._write(lambda s: summaries.retry(s, due, now))

    def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> bool:
        """The group chat became a supergroup: its ledger (settings, players, sessions, hands, entries,
        transfers, due summaries, weekly and reminder state) moves to the new id. True when this call moved
        it; False when it was moved before or there is nothing to move (idempotent, in any order)."""
        now = self._now()
        return self._write(lambda s: supergroup.migrate(s, old_chat_id, new_chat_id, now))
