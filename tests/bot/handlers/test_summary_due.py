"""The end-of-session summary is ledger state, not a fire-and-forget send: ending a session (/end's button,
the idle end) marks its summary due in the same transaction; the poster claims it, marks each part (card,
chart, CSV) as it goes out, and a send Telegram refuses (a 502) or a worker that stops between the end and
the post leaves it due: the summary sweep posts it later, each part once, never a second card.

The bot runs on a ledger clock an hour ahead of the real one, moved by the test (the JobQueue, on real
time, never finds a sweep due by itself); the sweeps are run by hand (`Table.run_jobs`). SQLite always,
PostgreSQL with TEST_DATABASE_URL."""

from __future__ import annotations

import csv
import io
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from harness import END, TINY_PNG, Clock, Table, seat_four
from sqlalchemy.exc import OperationalError

from bot.ledger import Ledger
from bot.ledger.claims import summaries
from bot.ledger.play import groups, sessions
from bot.summary import post as post_module
from bot.summary.tally import SessionReport

CARD = "🀄 第1场结束"
IDLE_CARD = "⏰ 6小时没有新的一局，第1场自动结束"
CHART = "第1场各家累计得分"
CSV = "第1场账本（CSV）"


@pytest.fixture(autouse=True)
def drawn_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The chart drawn as a tiny PNG: these tests are of how the parts go out, claimed and retried, not of
    what the chart shows (tests/bot/summary/test_chart.py)."""
    monkeypatch.setattr("bot.summary.chart.render_chart", lambda *_args, **_kw: TINY_PNG)


def ledger(table: Table) -> Ledger:
    book = table.app.bot_data["ledger"]
    assert isinstance(book, Ledger)
    return book


@contextmanager
def refused(table: Table, method: str, when: Callable[[dict[str, Any]], bool]) -> Iterator[list[str]]:
    """Telegram answers 502 Bad Gateway to every `method` call whose parameters `when` picks; the methods
    refused are listed."""
    state = table.transport.state
    real = state.handle
    failed: list[str] = []

    def handle(name: str, params: Any, files: Any = None) -> Any:
        if name == method and when(dict(params)):
            failed.append(name)
            return 502, {"ok": False, "error_code": 502, "description": "Bad Gateway"}
        return real(name, params, files)

    state.handle = handle  # type: ignore[method-assign]
    try:
        yield failed
    finally:
        state.handle = real  # type: ignore[method-assign]


def is_card(params: dict[str, Any]) -> bool:
    return str(params.get("text", "")).startswith(("🀄 第1场结束", "⏰"))


def summary_parts(table: Table) -> list[tuple[str, str]]:
    """The summary's messages in the chat, oldest first: (kind, first words)."""
    return [
        (reply.kind, reply.text.split(" · ")[0])
        for reply in table.replies()
        if reply.text.startswith((CARD, IDLE_CARD, CHART, CSV))
    ]


WHOLE = [("text", CARD), ("photo", CHART), ("document", CSV)]


async def played(table: Table) -> None:
    """Four seated, a dealer, one hand recorded at once (instant mode)."""
    await seat_four(table)
    await table.say("ann", "/rules instant on")
    await table.say("ann", "/dealer 东")
    await table.say("bob", "/hu 南 自摸 5花 清一色")


async def test_a_card_refused_with_a_502_comes_with_the_sweep_once(clocked: tuple[Table, Clock]) -> None:
    table, clock = clocked
    await played(table)
    await table.say("bob", "/end")
    with refused(table, "sendMessage", is_card) as failed:
        turn = await table.press("cat", END)
    assert failed == ["sendMessage"]
    assert groups.chat_state(ledger(table), table.chat_id).session is None  # the session ended all the same
    assert summary_parts(table) == [] and not turn.of("sendPhoto") and not turn.of("sendDocument")
    await table.run_jobs("jobs:summaries")  # too soon: the retry waits a little
    assert summary_parts(table) == []
    clock.advance(seconds=31)
    await table.run_jobs("jobs:summaries")
    assert summary_parts(table) == WHOLE
    card = next(r for r in table.replies() if r.text.startswith(CARD))
    assert "南 Bob +60" in card.text
    for _ in range(2):  # later sweeps, however late, post nothing more
        clock.advance(hours=3)
        await table.run_jobs("jobs:summaries")
    assert summary_parts(table) == WHOLE


async def test_a_worker_stopping_between_the_end_and_the_post_leaves_it_to_the_sweep(
    clocked: tuple[Table, Clock],
) -> None:
    table, clock = clocked
    await played(table)
    session = sessions.require_session(ledger(table), table.chat_id)
    sessions.end_session(
        ledger(table), table.chat_id, session_id=session.id
    )  # the ledger ended it; then the crash
    assert summary_parts(table) == []
    await table.run_jobs("jobs:summaries")  # a minute is left to the ender
    assert summary_parts(table) == []
    clock.advance(seconds=61)
    await table.run_jobs("jobs:summaries")
    assert summary_parts(table) == WHOLE
    assert (
        ledger(table).read(sessions.get_session, session.id).summary_message_id is not None
    )  # its buttons get edited
    await table.run_jobs("jobs:summaries")
    assert summary_parts(table) == WHOLE


@pytest.mark.slow
async def test_a_poster_that_dies_holding_the_summary_is_replaced_when_its_lease_ends(
    clocked: tuple[Table, Clock],
) -> None:
    table, clock = clocked
    await played(table)
    session = sessions.require_session(ledger(table), table.chat_id)
    sessions.end_session(ledger(table), table.chat_id, session_id=session.id)
    assert (
        ledger(table).write(summaries.claim, session.id, now=ledger(table).now(), ender=True) is not None
    )  # another worker claims it, then dies
    assert (
        ledger(table).write(summaries.claim, session.id, now=ledger(table).now(), ender=True) is None
    )  # held: nobody else gets it meanwhile
    await table.run_jobs("jobs:summaries")
    assert summary_parts(table) == []
    clock.advance(minutes=10, seconds=1)
    await table.run_jobs("jobs:summaries")
    assert summary_parts(table) == WHOLE


@pytest.mark.slow
async def test_a_failed_chart_is_sent_later_without_a_second_card(clocked: tuple[Table, Clock]) -> None:
    table, clock = clocked
    await played(table)
    await table.say("bob", "/end")
    with refused(table, "sendPhoto", lambda _params: True):
        await table.press("cat", END)
    assert summary_parts(table) == [("text", CARD)]  # the card went, the chart did not; no CSV before it
    clock.advance(seconds=31)
    await table.run_jobs("jobs:summaries")
    assert summary_parts(table) == WHOLE
    clock.advance(hours=1)
    await table.run_jobs("jobs:summaries")
    assert summary_parts(table) == WHOLE


async def test_an_idle_end_whose_post_fails_is_retried(clocked: tuple[Table, Clock]) -> None:
    table, clock = clocked
    await played(table)
    clock.advance(hours=6, minutes=1)
    with refused(table, "sendMessage", is_card) as failed:
        await table.run_jobs("jobs:idle-end")
    assert failed == ["sendMessage"] and groups.chat_state(ledger(table), table.chat_id).session is None
    assert summary_parts(table) == []
    clock.advance(seconds=31)
    with refused(table, "sendMessage", is_card) as failed:  # Telegram still failing: later again
        await table.run_jobs("jobs:summaries")
    assert failed == ["sendMessage"] and summary_parts(table) == []
    clock.advance(seconds=61)  # the pause doubled
    await table.run_jobs("jobs:summaries")
    assert summary_parts(table) == [("text", IDLE_CARD), ("photo", CHART), ("document", CSV)]
    clock.advance(hours=1)
    await table.run_jobs("jobs:idle-end")
    await table.run_jobs("jobs:summaries")
    assert len(summary_parts(table)) == 3


@contextmanager
def read_once() -> Iterator[None]:
    """The session's numbers read once and handed to every later post of it (what a retry reads and
    draws is not what a test of its schedule tests)."""
    real, reports = post_module.build_report, {}

    def build_report(ledger: Ledger, session_id: int) -> SessionReport:
        if session_id not in reports:
            reports[session_id] = real(ledger, session_id)
        return reports[session_id]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(post_module, "build_report", build_report)
        yield


@pytest.mark.slow
async def test_a_summary_never_sent_is_given_up_after_two_days(clocked: tuple[Table, Clock]) -> None:
    table, clock = clocked
    await played(table)
    await table.say("bob", "/end")
    with refused(table, "sendMessage", is_card) as failed, read_once():
        await table.press("cat", END)
        for _ in range(60):  # Telegram refuses it for two days
            clock.advance(hours=1)
            await table.run_jobs("jobs:summaries")
    tries = len(failed)
    assert 40 < tries < 60  # every hour at most, once the pause has grown
    clock.advance(hours=1)
    await table.run_jobs("jobs:summaries")
    assert summary_parts(table) == []  # given up (logged): not posted days late out of the blue


@pytest.mark.slow
async def test_the_summary_stays_in_the_forum_topic_of_the_end(clocked: tuple[Table, Clock]) -> None:
    table, clock = clocked
    await played(table)
    await table.say("bob", "/end")
    press = table.state.press(table.chat_id, "cat", None, END)
    press["callback_query"]["message"].update(message_thread_id=77, is_topic_message=True)
    with refused(table, "sendMessage", is_card):
        await table.deliver(press)
    clock.advance(seconds=31)
    await table.run_jobs("jobs:summaries")
    sends = [c for c in table.calls("sendMessage", "sendPhoto", "sendDocument") if c.ok]
    parts = [c for c in sends if is_card(c.params) or c.method != "sendMessage"]
    assert [c.method for c in parts] == ["sendMessage", "sendPhoto", "sendDocument"]
    assert {c.params.get("message_thread_id") for c in parts} == {77}


# ---- failures that are not Telegram's ---------------------------------------------------------------------


@contextmanager
def failing_builds(fault: Callable[[], Exception]) -> Iterator[list[int]]:
    """Reading a session's numbers for its summary raises `fault()`; the sessions asked for are listed."""
    asked: list[int] = []

    def build_report(ledger: Ledger, session_id: int) -> SessionReport:
        asked.append(session_id)
        raise fault()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(post_module, "build_report", build_report)
        yield asked


def server_closed() -> OperationalError:
    return OperationalError("SELECT", {}, Exception("server closed"))


FAULTS = [
    pytest.param(lambda: KeyError("seat"), id="a-bug-in-the-report"),
    pytest.param(MemoryError, id="out-of-memory"),
    pytest.param(server_closed, id="the-database"),
]


@pytest.mark.slow
@pytest.mark.parametrize("fault", FAULTS)
async def test_a_summary_that_cannot_be_built_comes_later_and_the_end_goes_well(
    clocked: tuple[Table, Clock], fault: Callable[[], Exception], caplog: pytest.LogCaptureFixture
) -> None:
    table, clock = clocked
    await played(table)
    await table.say("bob", "/end")
    with caplog.at_level(logging.WARNING), failing_builds(fault) as asked:
        turn = await table.press("cat", END)  # a handler error would fail here (and answer 出错了)
    assert asked and not any("出错了" in text for text in turn.texts)
    assert groups.chat_state(ledger(table), table.chat_id).session is None
    assert summary_parts(table) == []
    # one traceback, logged (as exc_info, or in the message once the token filter has rendered it)
    tracebacks = [r for r in caplog.records if r.exc_info or "Traceback (most recent" in r.getMessage()]
    assert len(tracebacks) == 1
    clock.advance(seconds=31)  # due again after the pause of a refused send, not the 10 minutes' lease
    await table.run_jobs("jobs:summaries")
    assert summary_parts(table) == WHOLE
    clock.advance(hours=3)
    await table.run_jobs("jobs:summaries")
    assert summary_parts(table) == WHOLE


@pytest.mark.slow
async def test_a_summary_whose_build_keeps_failing_is_given_up_after_two_days(
    clocked: tuple[Table, Clock], caplog: pytest.LogCaptureFixture
) -> None:
    table, clock = clocked
    await played(table)
    await table.say("bob", "/end")
    with failing_builds(server_closed) as asked:
        await table.press("cat", END)
        for _ in range(60):  # the database fails on it for two days
            clock.advance(hours=1)
            await table.run_jobs("jobs:summaries")
    assert 40 < len(asked) < 60  # every hour at most, once the pause has grown
    assert "given up" in caplog.text
    clock.advance(hours=1)
    await table.run_jobs("jobs:summaries")
    assert summary_parts(table) == []  # not posted days late out of the blue


@pytest.mark.slow
async def test_a_summary_whose_posters_keep_dying_is_given_up_after_two_days(
    clocked: tuple[Table, Clock], caplog: pytest.LogCaptureFixture
) -> None:
    table, clock = clocked
    await played(table)
    session = sessions.require_session(ledger(table), table.chat_id)
    sessions.end_session(ledger(table), table.chat_id, session_id=session.id)
    claims = 0
    for _ in range(300):  # a worker claims it and dies, again and again, for more than two days
        if ledger(table).write(summaries.claim, session.id, now=ledger(table).now(), ender=True) is None:
            break
        claims += 1
        clock.advance(minutes=10, seconds=1)
    assert 280 < claims < 290  # one every lease, for two days
    assert "given up" in caplog.text
    await table.run_jobs("jobs:summaries")
    assert summary_parts(table) == []


# ---- one poster sends ---------------------------------------------------------------------------------


def cards_of(table: Table, number: int) -> int:
    return len([r for r in table.replies() if r.text.startswith(f"🀄 第{number}场结束")])


@pytest.mark.slow
async def test_a_poster_whose_claim_another_took_over_sends_nothing(
    clocked: tuple[Table, Clock], monkeypatch: pytest.MonkeyPatch
) -> None:
    table, clock = clocked
    await played(table)
    session = sessions.require_session(ledger(table), table.chat_id)
    sessions.end_session(ledger(table), table.chat_id, session_id=session.id)  # its ender stopped
    clock.advance(seconds=61)
    real, taken = post_module.build_report, []

    def slow(book: Ledger, session_id: int) -> SessionReport:
        report = real(book, session_id)
        if not taken:  # this sweep was slow: its lease ran out, another worker's sweep took the summary
            clock.advance(minutes=10, seconds=1)
            taken.append(
                ledger(table).write(summaries.claim, session.id, now=ledger(table).now(), ender=True)
            )
        return report

    monkeypatch.setattr(post_module, "build_report", slow)
    await table.run_jobs("jobs:summaries")
    assert taken[0] is not None
    assert summary_parts(table) == []  # the stale poster sent nothing
    clock.advance(minutes=10, seconds=1)  # the other worker stopped holding it
    await table.run_jobs("jobs:summaries")
    assert summary_parts(table) == WHOLE


@pytest.mark.slow
async def test_a_backlog_of_summaries_is_claimed_one_at_a_time(
    clocked: tuple[Table, Clock], monkeypatch: pytest.MonkeyPatch
) -> None:
    table, clock = clocked
    book = ledger(table)
    await played(table)
    first = sessions.require_session(book, table.chat_id)
    sessions.end_session(book, table.chat_id, session_id=first.id)  # its ender stopped
    await played(table)
    second = sessions.require_session(book, table.chat_id)
    sessions.end_session(book, table.chat_id, session_id=second.id)  # so did this one's
    clock.advance(seconds=61)
    real, taken = post_module.build_report, []

    def slow(book_: Ledger, session_id: int) -> SessionReport:
        report = real(book_, session_id)
        if session_id == first.id and not taken:  # the first took 11 minutes; another worker's sweep came
            clock.advance(minutes=11)
            taken.append(book.write(summaries.claim, second.id, now=book.now(), ender=True))
        return report

    monkeypatch.setattr(post_module, "build_report", slow)
    await table.run_jobs("jobs:summaries")
    assert taken[0] is not None  # the other worker got the second: this sweep had not claimed it yet
    assert (cards_of(table, 1), cards_of(table, 2)) == (1, 0)
    clock.advance(minutes=10, seconds=1)  # the other worker stopped holding it
    await table.run_jobs("jobs:summaries")
    clock.advance(hours=1)
    await table.run_jobs("jobs:summaries")
    assert (cards_of(table, 1), cards_of(table, 2)) == (1, 1)


@pytest.mark.slow
async def test_the_sweep_leaves_a_just_ended_summary_to_its_ender(clocked: tuple[Table, Clock]) -> None:
    table, _clock = clocked
    await played(table)
    await table.say("bob", "/end")
    real, during = table.transport.do_request, []
    assert table.app.job_queue is not None
    [sweep] = [job for job in table.app.job_queue.jobs() if job.name == "jobs:summaries"]

    async def do_request(url: str, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        if url.endswith("/unpinChatMessage") and not during:  # the sweep's 30 s come as /end unpins
            await sweep.run(table.app)
            during.append(summary_parts(table))
        return await real(url, *args, **kwargs)

    table.transport.do_request = do_request  # type: ignore[method-assign]
    try:
        await table.press("cat", END)
    finally:
        table.transport.do_request = real  # type: ignore[method-assign]
    assert during == [[]]  # the sweep did not take it from the ender
    assert summary_parts(table) == WHOLE


# ---- the CSV -------------------------------------------------------------------------------------------


async def test_the_csv_of_a_session_without_a_hand_is_its_header(clocked: tuple[Table, Clock]) -> None:
    table, _clock = clocked
    await seat_four(table)
    session = sessions.require_session(ledger(table), table.chat_id)
    await table.say("bob", "/end")
    press = table.state.press(table.chat_id, "eve", None, END)  # /ledger's whole-CSV button, as if here
    button = {"text": "📎 整场账本（CSV）", "callback_data": f"lc:{session.id}"}
    press["callback_query"].update(data=button["callback_data"])
    press["callback_query"]["message"].update(reply_markup={"inline_keyboard": [[button]]})
    turn = await table.deliver(press)
    [document] = turn.of("sendDocument")
    assert document.ok
    rows = list(csv.reader(io.StringIO(document.files["document"].content.decode("utf-8-sig"))))
    assert len(rows) == 1 and rows[0][0]  # the header, nothing under it
