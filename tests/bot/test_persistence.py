"""Bot state in the database (bot.persistence): buttons and card across restarts and workers; the codec."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from harness import GROUP_ID, Table, seat_four
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import Column, Float, MetaData, Text, Unicode, create_engine, inspect, text
from sqlalchemy import Table as SATable

from bot.console.transport import InProcessBotAPI
from bot.handlers.flow import HuFlow
from bot.handlers.recording import PendingPress
from bot.handlers.rules import RulesPress
from bot.handlers.table import JoinPress
from bot.ledger.db import MIGRATIONS, create_db_engine, migrate, open_database
from bot.persistence import (
    CodecError,
    DatabasePersistence,
    JsonCodec,
    callback_data_table,
    chat_data_table,
)

CONFIRM = "✅ 确认"
EXPIRED = "这个按钮已经过期了，请重新发 /hu。"
CALLBACK_TYPES = (PendingPress, HuFlow, JoinPress, RulesPress)


def settings_for(db_url: str, data_dir: Path) -> Any:
    from bot.settings import Settings

    return Settings(
        _env_file=None,
        telegram_bot_token="123:TEST",
        data_dir=data_dir,  # type: ignore[call-arg]
        database_url=db_url,
        telegram_base_url=None,
        card_edit_seconds=0,
    )  # each card edit at once: the cross-worker checks read it right away


class Workers:
    """Applications built by bot.app on one database and one in-process Telegram; stopped at the end."""

    def __init__(self, db_url: str, data_dir: Path) -> None:
        self.settings = settings_for(db_url, data_dir)
        self.transport = InProcessBotAPI(seed=0)
        self.tables: list[Table] = []

    async def start(self) -> Table:
        from bot.app import build_application

        app = build_application(self.settings, request=self.transport, get_updates_request=self.transport)
        table = await Table.start(app, self.transport, chat_id=GROUP_ID)
        self.tables.append(table)
        return table

    async def kill(self, table: Table) -> None:
        """Stop a worker as a hard kill would: whatever it had not written yet is not written now."""

        async def nothing(*_args: Any) -> None:
            return None

        persistence = table.app.persistence
        assert isinstance(persistence, DatabasePersistence)
        for name in ("update_callback_data", "update_chat_data", "drop_chat_data"):
            setattr(persistence, name, nothing)
        await self.stop(table)

    async def stop(self, table: Table) -> None:
        self.tables.remove(table)
        await table.stop()


@pytest.fixture
async def workers(db_url: str, tmp_path: Path) -> AsyncIterator[Workers]:
    running = Workers(db_url, tmp_path)
    try:
        yield running
    finally:
        for table in list(running.tables):
            await running.stop(table)


def hands(table: Table) -> list[Any]:
    ledger = table.app.bot_data["ledger"]
    return list(ledger.hands(ledger.current_session(table.chat_id).id))


def stored_rows(table: Table, which: SATable) -> list[Any]:
    with table.app.bot_data["ledger"].engine.connect() as conn:
        return list(conn.execute(which.select()).all())


# --------------------------------------------------------------------------- restarts and workers


async def test_confirm_and_the_card_survive_a_hard_kill(workers: Workers) -> None:
    first = await seat_four(await workers.start())
    card = first.pinned()
    assert card is not None
    preview = (await first.say("bob", "/hu 南 自摸 5花 清一色")).sent[0]
    assert preview.buttons == (CONFIRM, "✖ 取消")
    # Already in the database before any shutdown: the keyboard and the card's message id.
    keyboards = stored_rows(first, callback_data_table)
    assert any("PendingPress" in row.buttons for row in keyboards)
    cards = {row.key: json.loads(row.value) for row in stored_rows(first, chat_data_table)}
    assert cards["cards"] == {str(first.app.bot_data["ledger"].current_session(GROUP_ID).id): card.message_id}
    await workers.kill(first)

    second = await workers.start()
    turn = await second.press("cat", CONFIRM, message_id=preview.message_id)
    assert turn.answers == ["已记入"]
    assert turn.texts[0].startswith("第1局 南 自摸")
    assert len(hands(second)) == 1
    # The same card is edited in place; no second card is posted or pinned.
    assert second.pins() == [card.message_id]
    assert card.message_id in [edit.message_id for edit in turn.edits]
    assert len(second.calls("pinChatMessage")) == 1  # the one pin of /newgame, before the kill
    assert second.message(card.message_id).text != card.text


async def test_preview_of_one_worker_is_confirmed_through_another_exactly_once(workers: Workers) -> None:
    a = await workers.start()
    b = await workers.start()  # both running before anything happens: B loaded an empty state
    await seat_four(a)
    card = a.pinned()
    assert card is not None
    preview = (await a.say("bob", "/hu 南 自摸 5花 清一色")).sent[0]
    # Three taps on the same Confirm (Telegram may route each to any worker): B, then B, then A.
    taps = [a.state.press(GROUP_ID, name, preview.message_id, CONFIRM) for name in ("cat", "dan", "ann")]
    turn = await b._run(taps[0])
    assert turn.answers == ["已记入"]
    assert len(hands(b)) == 1
    assert a.pins() == [card.message_id]  # B found A's card in the database and edited it
    assert card.message_id in [edit.message_id for edit in turn.edits]
    again_b, again_a = await b._run(taps[1]), await a._run(taps[2])
    assert again_b.answers == again_a.answers == ["这条记录已经处理过了。"]
    assert len(hands(a)) == 1
    # The next hand's preview from B, confirmed on A: A edits the same card with both hands.
    after_one = a.message(card.message_id).text
    preview = (await b.say("cat", "/hu 西 冲 东 6花")).sent[0]
    turn = await a.press("ann", CONFIRM, message_id=preview.message_id)
    assert turn.answers == ["已记入"] and len(hands(a)) == 2
    assert a.pins() == [card.message_id]
    assert card.message_id in [edit.message_id for edit in turn.edits]
    assert a.message(card.message_id).text != after_one
    assert len(a.calls("pinChatMessage")) == 1


async def test_language_set_on_one_worker_is_used_by_the_other(workers: Workers) -> None:
    a = await workers.start()
    b = await workers.start()
    assert (await b.say("eve", "/lang")).texts[0] == "语言：简体中文"  # B caches the language now
    assert (await a.say("eve", "/lang en")).text == "This group now speaks English."
    assert (await b.say("eve", "/lang")).texts[0] == "Language: English"


async def test_a_button_unknown_everywhere_has_expired(workers: Workers) -> None:
    table = await seat_four(await workers.start())
    await table.say("bob", "/hu 南 自摸 5花 清一色")
    table.app.bot.callback_data_cache.clear_callback_data()
    with table.app.bot_data["ledger"].engine.begin() as conn:
        conn.execute(callback_data_table.delete())
    turn = await table.press("cat", CONFIRM)
    assert turn.answers == [EXPIRED]
    assert hands(table) == []


async def test_a_button_dropped_from_memory_is_read_back_from_the_database(workers: Workers) -> None:
    table = await seat_four(await workers.start())
    await table.say("bob", "/hu 南 自摸 5花 清一色")
    table.app.bot.callback_data_cache.clear_callback_data()
    turn = await table.press("cat", CONFIRM)
    assert turn.answers == ["已记入"]
    assert len(hands(table)) == 1


# --------------------------------------------------------------------------- chat_data merge


async def test_chat_data_merges_changes_of_other_processes(db_url: str) -> None:
    engine = open_database(db_url)
    try:
        one, two = DatabasePersistence(engine), DatabasePersistence(engine)
        await one.update_chat_data(7, {"lang": "en", "cards": {"1": 10}})
        mine: dict[int, Any] = await two.get_chat_data()
        assert mine == {7: {"lang": "en", "cards": {"1": 10}}}
        local = mine[7]
        local["instant"] = True  # changed here, not written yet
        await one.update_chat_data(7, {"lang": "zh-Hant", "cards": {"1": 10}})
        await two.refresh_chat_data(7, local)
        assert local == {"lang": "zh-Hant", "cards": {"1": 10}, "instant": True}
        await one.update_chat_data(7, {"lang": "zh-Hant"})  # "cards" deleted by the other process
        await two.refresh_chat_data(7, local)
        assert local == {"lang": "zh-Hant", "instant": True}
        await two.update_chat_data(7, local)
        fresh: dict[str, Any] = {}
        await DatabasePersistence(engine).refresh_chat_data(7, fresh)
        assert fresh == {"lang": "zh-Hant", "instant": True}
        await two.drop_chat_data(7)
        assert await DatabasePersistence(engine).get_chat_data() == {}
    finally:
        engine.dispose()


async def test_keyboards_are_upserted_not_overwritten_and_old_ones_pruned(db_url: str) -> None:
    engine = open_database(db_url)
    now = time.time()
    a, b, c = "a" * 32, "c" * 32, "f" * 32
    try:
        one = DatabasePersistence(engine, callback_types=CALLBACK_TYPES)
        two = DatabasePersistence(engine, callback_types=CALLBACK_TYPES)
        await one.update_callback_data(([(a, now - 2, {"b" * 32: PendingPress("p1", "confirm")})], {}))
        await two.update_callback_data(([(b, now - 1, {"d" * 32: JoinPress(3)})], {}))
        loaded = await DatabasePersistence(engine, callback_types=CALLBACK_TYPES).get_callback_data()
        assert loaded == (
            [(a, now - 2, {"b" * 32: PendingPress("p1", "confirm")}), (b, now - 1, {"d" * 32: JoinPress(3)})],
            {},
        )
        assert await one.load_keyboard(b) == (b, now - 1, {"d" * 32: JoinPress(3)})
        assert await one.load_keyboard("e" * 32) is None
        # A keyboard unused for longer than keep_seconds goes at the next hourly prune.
        three = DatabasePersistence(engine, callback_types=CALLBACK_TYPES, keep_seconds=60)
        await three.update_callback_data(([(c, now - 3600, {"d" * 32: JoinPress(4)})], {}))
        assert await three.load_keyboard(c) is None and await three.load_keyboard(a) is not None
    finally:
        engine.dispose()


# --------------------------------------------------------------------------- codec


@dataclass(frozen=True, slots=True)
class Unregistered:
    x: int


ROUND_TRIP = [
    PendingPress("0a1b2c", "confirm"),
    HuFlow(5, "patterns", winner="S", how="discard", discarder="E", hua=6, patterns=("qingyise", "qidui")),
    HuFlow(5, "winner"),
    JoinPress(12),
    RulesPress("instant", True),
    RulesPress("diling", 2),
    RulesPress("baozi", "on"),
    {"cards": {"3": 41}, "pin_refused": [3], "lang": "zh-Hant", "instant": False},
    {1: "int keys", (2, "x"): {"nested": [1.5, None, True]}},
    {"__t": "a dict using the tag key"},
    {"set": {3, 1, 2}, "frozen": frozenset({"a"}), "tuple": (1, (2, 3)), "list": [(), []]},
    "中文 ✅",
]


@pytest.mark.parametrize("value", ROUND_TRIP, ids=range(len(ROUND_TRIP)))
def test_codec_round_trip(value: object) -> None:
    codec = JsonCodec(CALLBACK_TYPES)
    stored = codec.dumps(value)
    json.loads(stored)  # plain JSON text
    back = codec.loads(stored)
    assert back == value and type(back) is type(value)
    if isinstance(value, HuFlow):
        assert type(back.patterns) is tuple  # type: ignore[attr-defined]
    assert codec.dumps(back) == stored


# JSON values without floats (orjson and json write floats differently, e.g. 1e+16 / 1e16; both read back).
PLAIN_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4),
    max_leaves=12,
)


@given(PLAIN_JSON)
@settings(max_examples=300, deadline=None)
def test_codec_text_is_what_json_dumps_wrote(value: object) -> None:
    """The codec writes through orjson; its text is the json module's (compact, sorted, UTF-8 as is), so
    rows stored before are not rewritten as changed, and it reads its own text back."""
    codec = JsonCodec(CALLBACK_TYPES)
    stored = codec.dumps(value)
    encoded = codec.encode(value)
    assert stored == json.dumps(encoded, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    assert codec.loads(stored) == value


def test_codec_stores_an_int_beyond_64_bits() -> None:
    codec = JsonCodec(CALLBACK_TYPES)
    assert codec.loads(codec.dumps({"big": 2**70})) == {"big": 2**70}


def test_codec_refuses_unknown_types_both_ways() -> None:
    codec = JsonCodec(CALLBACK_TYPES)
    with pytest.raises(CodecError, match="Unregistered"):
        codec.dumps(Unregistered(1))
    with pytest.raises(CodecError, match="Path"):
        codec.dumps({"where": Path("/tmp")})
    forged = json.dumps({"__t": "dataclass", "type": "os.system", "fields": {"command": "true"}})
    with pytest.raises(CodecError, match=r"unknown type 'os\.system'"):
        codec.loads(forged)
    wrong = json.dumps({"__t": "dataclass", "type": JsonCodec.type_name(JoinPress), "fields": {"id": 1}})
    with pytest.raises(CodecError, match="fields"):
        codec.loads(wrong)
    with pytest.raises(CodecError, match="unknown tag"):
        codec.loads('{"__t": "pickle", "items": []}')
    with pytest.raises(CodecError, match="only dataclasses"):
        codec.register(int)


async def test_unregistered_button_data_is_refused_loudly_and_not_stored(db_url: str) -> None:
    engine = open_database(db_url)
    try:
        persistence = DatabasePersistence(engine, callback_types=CALLBACK_TYPES)
        now = time.time()
        keyboards = [("a" * 32, now, {"b" * 32: Unregistered(1)}), ("c" * 32, now, {"d" * 32: JoinPress(1)})]
        with pytest.raises(CodecError, match="Unregistered"):
            await persistence.update_callback_data((keyboards, {}))
        with engine.connect() as conn:
            assert [r.keyboard_uuid for r in conn.execute(callback_data_table.select())] == ["c" * 32]
        await persistence.update_callback_data((keyboards, {}))  # said once, not on every save
    finally:
        engine.dispose()


# --------------------------------------------------------------------------- migration 0002


def _alembic(engine: Any, action: str, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("path_separator", "os")
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        getattr(command, action)(config, revision)


def test_a_database_of_0001_and_the_old_self_made_job_table_upgrades(db_url: str) -> None:
    engine = create_db_engine(db_url)
    try:
        _alembic(engine, "downgrade", "0001")
        assert not inspect(engine).has_table("scheduled_jobs")
        # What bot/jobs/store.py used to create by itself before migration 0002 existed.
        old = SATable(
            "scheduled_jobs",
            MetaData(),
            Column("id", Unicode(191), primary_key=True),
            Column("next_run_time", Float(25), index=True),
            Column("job_state", Text, nullable=False),
        )
        old.create(engine)
        with engine.begin() as conn:
            conn.execute(old.insert().values(id="weekly:1", next_run_time=5.0, job_state="{}"))
        migrate(engine)
        inspector = inspect(engine)
        assert {"scheduled_jobs", "bot_callback_data", "bot_chat_data"} <= set(inspector.get_table_names())
        with engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0003"
            assert conn.execute(text("SELECT id FROM scheduled_jobs")).scalars().all() == ["weekly:1"]
        migrate(engine)  # again: nothing to do
    finally:
        engine.dispose()


def test_job_store_migrates_a_bare_database(tmp_path: Path) -> None:
    from apscheduler.schedulers.background import BackgroundScheduler

    from bot.jobs.store import DatabaseJobStore

    url = f"sqlite:///{tmp_path / 'bare.db'}"
    store = DatabaseJobStore(None, url=url)  # type: ignore[arg-type]
    store.start(BackgroundScheduler(), "persistent")
    try:
        assert inspect(store.engine).has_table("scheduled_jobs")
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0003"
    finally:
        store.shutdown()
    create_engine(url).dispose()


async def test_harness_runs_named_jobs(workers: Workers) -> None:
    table = await seat_four(await workers.start())
    preview = (await table.say("bob", "/hu 南 自摸 5花 清一色")).sent[0]
    assert await table.run_jobs("expire:") == 1  # the preview's expiry, not due yet: it leaves the entry
    assert table.message(preview.message_id).buttons == (CONFIRM, "✖ 取消")
    assert await table.run_jobs("no such job") == 0


async def test_a_card_cached_by_one_worker_shows_an_undo_made_on_another(workers: Workers) -> None:
    from bot.handlers.table import _load_rows
    from bot.render import table_card

    a = await workers.start()
    b = await workers.start()
    await seat_four(a)
    card = a.pinned()
    assert card is not None
    for hand in ("/hu 南 自摸 5花 清一色", "/hu 西 冲 东 6花"):
        await a.say("bob", hand)
        await a.press("cat", CONFIRM)  # A caches the card's rows
    await b.say("ann", "/undo")
    assert "已撤销" in (await b.press("dan", "撤销")).text  # B voids hand 2
    assert len(hands(a)) == 1
    await a.say("bob", "/hu 北 自摸 5花 清一色")
    await a.press("cat", CONFIRM)  # A appends hand 2 again: its cache of the voided row must not be used
    ledger = a.app.bot_data["ledger"]
    session = ledger.current_session(GROUP_ID)
    rows = _load_rows(ledger, session.id)
    expected = table_card("zh-Hans", session, rows.recent, rows.totals, rows.rows)
    assert a.message(card.message_id).text == expected
    assert a.pins() == [card.message_id]


async def test_refresh_reads_the_rows_only_when_the_chat_version_moved(db_url: str) -> None:
    engine = open_database(db_url)
    try:
        one, two = DatabasePersistence(engine), DatabasePersistence(engine)
        full_reads: list[int | None] = []
        read_rows = two._read_chat_rows

        def counting(chat_id: int | None) -> list[Any]:
            full_reads.append(chat_id)
            return read_rows(chat_id)

        two._read_chat_rows = counting  # type: ignore[method-assign]
        await one.update_chat_data(7, {"lang": "en"})
        local: dict[str, Any] = {}
        await two.refresh_chat_data(7, local)  # never seen: loaded
        assert local == {"lang": "en"} and full_reads == [7]
        await two.refresh_chat_data(7, local)  # nobody wrote since: only the version row is read
        assert full_reads == [7]
        local["instant"] = True
        await two.update_chat_data(7, local)  # its own write keeps it current
        await two.refresh_chat_data(7, local)
        assert full_reads == [7]
        await one.update_chat_data(7, {"lang": "zh-Hant"})  # another worker writes: loaded and merged
        await two.refresh_chat_data(7, local)
        assert full_reads == [7, 7] and local == {"lang": "zh-Hant", "instant": True}
        await two.refresh_chat_data(7, local)
        assert full_reads == [7, 7]
        # Written by both in between: this worker's version is no longer trusted, the next refresh merges.
        await one.update_chat_data(7, {"lang": "en", "instant": True})
        local["cards"] = 3
        await two.update_chat_data(7, local)
        await two.refresh_chat_data(7, local)
        assert full_reads == [7, 7, 7] and local == {"lang": "en", "instant": True, "cards": 3}
        with engine.connect() as conn:
            stored = dict(conn.execute(text("SELECT key, value FROM bot_chat_data WHERE chat_id = 7")).all())
        assert stored == {"__version": "5", "lang": json.dumps("en"), "instant": "true", "cards": "3"}
        await one.flush()
        await two.flush()
    finally:
        engine.dispose()


async def test_a_dropped_chat_written_again_is_never_mistaken_for_an_old_version(db_url: str) -> None:
    engine = open_database(db_url)
    try:
        one, two = DatabasePersistence(engine), DatabasePersistence(engine)
        await one.update_chat_data(9, {"lang": "en"})
        local: dict[str, Any] = {}
        await two.refresh_chat_data(9, local)  # two has seen version 1
        await one.drop_chat_data(9)
        await one.update_chat_data(9, {"lang": "zh-Hant"})  # a fresh write after the drop: version 3, not 1
        await two.refresh_chat_data(9, local)
        assert local == {"lang": "zh-Hant"}
        await one.drop_chat_data(9)
        await two.refresh_chat_data(9, local)
        assert local == {}
        assert await DatabasePersistence(engine).get_chat_data() == {}  # the version row is not chat_data
        with pytest.raises(CodecError, match="__version"):
            await one.update_chat_data(9, {"__version": 1})
        await two.flush()
    finally:
        engine.dispose()


async def test_keyboards_are_listed_for_saving_only_after_an_update_that_touched_one(
    seated_table: Table,
) -> None:
    """The button cache counts its changes (CountingCallbackDataCache): the save after each update lists
    the whole cache, up to 1024 keyboards of every group, only when a keyboard was made or used."""
    from bot.persistence import CountingCallbackDataCache

    app = seated_table.app
    cache = app.bot.callback_data_cache
    assert isinstance(cache, CountingCallbackDataCache)
    persistence = app.persistence
    listed: list[int] = []
    original = persistence.update_callback_data

    async def spy(data: Any) -> None:
        listed.append(len(data[0]))
        await original(data)

    persistence.update_callback_data = spy  # type: ignore[method-assign]
    await seated_table.say("ann", "/dealer 东")  # no keyboard made or used
    assert listed == []
    preview = (await seated_table.say("bob", "/hu 南 自摸 5花")).sent[0]  # a preview with its buttons
    assert listed and listed[-1] >= 1
    assert any("PendingPress" in row.buttons for row in stored_rows(seated_table, callback_data_table))
    count = len(listed)
    await seated_table.say("cat", "/help")  # nothing to do with buttons
    assert len(listed) == count
    await seated_table.press("cat", CONFIRM, message_id=preview.message_id)  # a keyboard used
    assert len(listed) == count + 1
