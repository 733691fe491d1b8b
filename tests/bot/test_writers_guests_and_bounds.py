"""Through the real Application: who may write (channels, anonymous admins, who seats a guest),
guest names, numbers, money bounds, and a batch of commands delivered again after a restart."""

from __future__ import annotations

from typing import Any

import pytest
from harness import END, GROUP_ID, PLAYERS, Table, ledger
from reads import open_pending

from bot.console.driver import deliver
from bot.i18n import t
from bot.ledger.errors import BadGuestName
from bot.ledger.play import books, groups, sessions
from bot.render.errors import error_text

CHANNEL_USER = {"id": 136817688, "is_bot": True, "first_name": "Channel", "username": "Channel_Bot"}
ANONYMOUS_ADMIN = {"id": 1087968824, "is_bot": True, "first_name": "Group", "username": "GroupAnonymousBot"}
CHANNEL_SENDER = "以频道身份发的消息不能入座，也不能改动牌桌；请用自己的账号发。"
NOT_ALLOWED_GUEST = "只有开这场的人、已入座的玩家或群管理员可以让客人入座。"
CONFIRM = "✅ 确认"


def session(table: Table) -> Any:
    return groups.chat_state(ledger(table), table.chat_id).session


async def as_chat(table: Table, text: str, sender_chat: dict[str, Any], user: dict[str, Any]) -> Any:
    """A message posted on behalf of `sender_chat` (Telegram sets `from` to a shared placeholder user)."""
    update = table.state.message(table.chat_id, "ann", text)
    update["message"]["from"] = user
    update["message"]["sender_chat"] = sender_chat
    return await table._run(update)


async def from_channel(table: Table, text: str, channel_id: int = -1002000000001) -> Any:
    channel = {"id": channel_id, "type": "channel", "title": f"channel {channel_id}"}
    return await as_chat(table, text, channel, CHANNEL_USER)


async def from_anonymous_admin(table: Table, text: str) -> Any:
    group = {"id": table.chat_id, "type": "supergroup", "title": "周五麻将"}
    return await as_chat(table, text, group, ANONYMOUS_ADMIN)


# ---- senders on behalf of a chat --------------------------------------------------------------------


async def test_a_channel_never_takes_a_seat_and_may_not_write(table: Table) -> None:
    await table.say("ann", "/newgame")
    turn = await from_channel(table, "/join")
    assert turn.texts == [CHANNEL_SENDER]
    assert session(table).seats == {}
    for name in ("bob", "cat", "dan"):
        await table.say(name, "/join")
    await table.say("ann", "/join")
    for text in ("/dealer 东", "/hu 南 自摸 5花", "/join 小王", "/newgame", "/end", "/rules threshold 2/3"):
        turn = await from_channel(table, text, channel_id=-1002000000002)
        assert turn.texts == [CHANNEL_SENDER], text
    assert not session(table).dealer_set and not open_pending(ledger(table), table.chat_id)
    assert len(session(table).seats) == 4 and session(table).is_open
    turn = await from_channel(table, "/score")  # reading is open to anyone
    assert turn.texts and CHANNEL_SENDER not in turn.text


async def test_a_second_channel_cannot_act_as_a_first_one(seated_table: Table) -> None:
    """Every channel shares the placeholder user: none of them is a player, so none acts as another."""
    await from_channel(seated_table, "/join")
    turn = await from_channel(seated_table, "/hu 南 自摸 5花", channel_id=-1002000000009)
    assert turn.texts == [CHANNEL_SENDER]
    players = {p.telegram_id for p in session(seated_table).seats.values()}
    assert CHANNEL_USER["id"] not in players


async def test_an_anonymous_admin_counts_as_admin_but_cannot_take_a_seat(undealt_table: Table) -> None:
    turn = await from_anonymous_admin(undealt_table, "/join")
    assert turn.texts == ["匿名管理员不能入座：请用自己的账号发 /join（或让客人入座：/join 路人甲）。"]
    turn = await from_anonymous_admin(undealt_table, "/dealer 东")  # an admin may write
    assert session(undealt_table).dealer_set and session(undealt_table).state.dealer == "E", turn.text
    turn = await from_anonymous_admin(undealt_table, "/rules threshold 2/3")  # and change the rules
    assert session(undealt_table).options["threshold"] == "2/3", turn.text
    turn = await from_anonymous_admin(undealt_table, "/hu 南 自摸 5花")
    assert CONFIRM in turn.sent[-1].buttons
    assert ANONYMOUS_ADMIN["id"] not in {p.telegram_id for p in session(undealt_table).seats.values()}


async def test_an_anonymous_admin_may_seat_a_guest(table: Table) -> None:
    await table.say("ann", "/newgame")
    await from_anonymous_admin(table, "/join 小王")
    assert session(table).seats == {}  # asked first: any admin answers for the anonymous one
    turn = await table.press("ann", "按客人 小王 入座")  # the opener, no admin: not hers to answer
    assert turn.answers == ["只有发这条命令的人或群管理员可以回答。"]
    await table.press("zoe", "按客人 小王 入座")
    assert [p.name for p in session(table).seats.values()] == ["小王"]


# ---- who may seat a guest ---------------------------------------------------------------------------


async def test_only_the_opener_a_seated_player_or_an_admin_seats_a_guest(table: Table) -> None:
    await table.say("ann", "/newgame")
    turn = await table.say("eve", "/join 小王")  # eve only watches
    assert turn.texts == [NOT_ALLOWED_GUEST] and session(table).seats == {}
    await table.seat_guest("ann", "/join 小王")  # the opener, not seated herself
    await table.say("bob", "/join")
    await table.seat_guest("bob", "/join 小李")  # a seated player
    await table.seat_guest("zoe", "/join 小张")  # the group's creator (an admin)
    assert [p.name for p in session(table).seats.values()] == ["小王", "Bob", "小李", "小张"]


# ---- guest names ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "word", ["自摸", "zimo", "冲", "放冲", "混子", "杠开", "清一色", "qys", "5花", "123m", "豹子"]
)
async def test_a_guest_name_is_no_word_of_the_recording_grammar(table: Table, word: str) -> None:
    await table.say("ann", "/newgame")
    turn = await table.say("ann", f"/join {word}")
    assert turn.texts == [f"“{word}”是记分用语（/hu 里的词），不能当客人名字。例如：/join 路人甲"]
    assert session(table).seats == {}


async def test_the_ledgers_guest_rules_are_refused_with_their_reason(table: Table) -> None:
    await table.say("ann", "/newgame")
    await table.say("bob", "/join")
    cases = {
        "/join 一二三四五六七八九十一二三四五六七": "客人名字最多16个字",
        "/join 东": "是座位的叫法",
        "/join BOB": "Bob 已经坐在东位",  # a member's name seats that member: Bob sits already
        "/join @bob": "客人名字不要带 @",
    }
    for text, expected in cases.items():
        turn = await table.say("bob", text)
        assert len(turn.texts) == 1 and expected in turn.texts[0], (text, turn.texts)
    assert [p.name for p in session(table).seats.values()] == ["Bob"]


@pytest.mark.parametrize("rule", ["too_long", "space", "seat_word", "taken"])
@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant", "en"])
def test_every_guest_rule_reads_in_every_language(rule: str, lang: str) -> None:
    error = BadGuestName("bad guest", name="东", rule=rule, limit=16)
    text = error_text(lang, error)
    assert "ledger" not in text and "{" not in text and "/join" in text, text


# ---- numbers and money ------------------------------------------------------------------------------


# ², ① and other odd digits get the one message of every number: tests/bot/money/test_money_digits.py
@pytest.mark.parametrize("word", ["+-5", "1.5", "-3", "0", "1e3", "1000001"])
async def test_a_bad_stake_gets_a_clear_refusal(table: Table, word: str) -> None:
    turn = await table.say("ann", f"/newgame 苏州 {word}")
    assert turn.texts == [f"每花多少要写正整数，“{word}”不行（1 到 1000000）。例如：/newgame 苏州 5"]
    assert session(table) is None


@pytest.mark.parametrize("word", ["+-5", "1.5", "4", "86401"])
async def test_a_bad_timeout_gets_a_clear_refusal(table: Table, word: str) -> None:
    turn = await table.say("zoe", f"/rules timeout {word}")
    assert turn.texts == [f"选项 确认时限 不能取“{word}”。可以取：5–86400"]
    assert groups.chat_state(ledger(table), table.chat_id).group.confirm_timeout_seconds == 120


@pytest.mark.parametrize("word", ["²:00", "①", "25:00", "20:6O"])
async def test_a_bad_schedule_time_gets_a_clear_refusal(table: Table, word: str) -> None:
    turn = await table.say("zoe", f"/schedule weekly 日 {word}")
    assert len(turn.texts) == 1 and word in turn.texts[0], turn.texts
    assert groups.chat_state(ledger(table), table.chat_id).group.weekly_schedule is False


@pytest.mark.slow
async def test_money_at_the_limits_on_sqlite(table: Table) -> None:
    await money_at_the_limits(table)


@pytest.mark.slow
async def test_money_at_the_limits_on_postgresql(pg_table: Table) -> None:
    await money_at_the_limits(pg_table)


async def money_at_the_limits(table: Table) -> None:
    """The largest stake and adjustment are taken, one more is refused; totals past 2**31 are kept
    (BIGINT columns on PostgreSQL)."""
    turn = await table.say("ann", "/newgame 苏州 1000001")
    assert "1000000" in turn.text and session(table) is None
    await table.say("ann", "/newgame 苏州 1000000")
    assert session(table).stake == 1_000_000
    for name in PLAYERS:
        await table.say(name, "/join")
    await table.say("ann", "/rules instant on")
    turn = await table.say("ann", "/adjust 东 南 10000001 too much")
    assert "10000000" in turn.text
    for _ in range(220):  # 220 × 10,000,000 = 2.2 × 10**9 > 2**31 - 1
        await table.say("ann", "/adjust 东 南 10000000")
    await table.say("ann", "/dealer 东")
    await table.say("ann", "/hu 南 自摸 20花")  # a hand at the largest stake
    assert session(table).hands_played == 1
    report = ledger(table).read(books.standings, table.chat_id)
    nets = {row.player.name: row.net for row in report.session_rows}
    assert nets["Ann"] < -2_200_000_000 and nets["Bob"] > 2_200_000_000 and sum(nets.values()) == 0
    turn = await table.say("ann", "/score")
    assert len(turn.texts) == 1 and table.handler_errors == []


# ---- nothing done twice -----------------------------------------------------------------------------


async def test_a_batch_delivered_again_after_a_restart_changes_nothing(
    seated_table: Table, bot_settings: Any, transport: Any
) -> None:
    """`/end`, `/newgame`, four joins, `/dealer`, two `/hu` (an instant group), then the bot restarts and
    Telegram delivers the whole batch again: the new table stays open with its two hands, the old stays
    ended with none, no result or card is posted again."""
    from bot.app import build_application

    await seated_table.say("ann", "/rules instant on")
    old = session(seated_table)
    state = seated_table.state
    texts = ["/end", "/newgame 苏州 2", *(["/join"] * 4), "/dealer 东", "/hu 南 自摸 5花", "/hu 南 自摸 6花"]
    names = ["ann", "ann", *PLAYERS, "ann", "bob", "bob"]
    batch = []
    for name, text in zip(names, texts, strict=True):
        batch.append(state.message(GROUP_ID, name, text))
        await deliver(seated_table.app, batch[-1])
        if text == "/end" and any(END in r.buttons for r in seated_table.replies()):  # /end asks first
            batch.append(state.press(GROUP_ID, "bob", None, END))
            await deliver(seated_table.app, batch[-1])
    new = session(seated_table)
    assert new.id != old.id and new.stake == 2 and len(new.seats) == 4
    hands_before = [(h.number, h.payments) for h in ledger(seated_table).read(books.hands, new.id)]
    assert len(hands_before) == 2 and ledger(seated_table).read(books.hands, old.id) == []
    messages_before = len(seated_table.replies())

    restarted_app = build_application(bot_settings, request=transport, get_updates_request=transport)
    restarted = await Table.start(restarted_app, transport, chat_id=GROUP_ID)
    try:
        for update in batch:  # new update ids (Telegram's may change after a week), the same messages
            update = {**update, "update_id": update["update_id"] + 10_000}
            await deliver(restarted_app, update)
        assert restarted.handler_errors == []
        now = session(restarted)
        assert now.id == new.id and now.is_open and now.hands_played == 2
        assert [(h.number, h.payments) for h in ledger(restarted).read(books.hands, new.id)] == hands_before
        assert ledger(restarted).read(books.hands, old.id) == []
        assert ledger(restarted).read(sessions.get_session, old.id).status == "ended"
        extra = [r.text for r in restarted.replies()[messages_before:]]
        # Only /end's question may show again (asking writes nothing, so it has no key yet): reported.
        assert all(text.startswith("结束第") for text in extra), extra
    finally:
        await restarted.stop()


async def test_confirm_by_other_is_not_bypassed_by_an_anonymous_admin(seated_table: Table) -> None:
    """Issue 18, problem 12: under `confirm_by other` an anonymous admin's entry has no recorder to tell
    apart from its confirmer: it is refused, and nothing waits for a Confirm."""
    seated_table.set_admins("ann")
    await seated_table.say("ann", "/rules confirm_by other")
    turn = await from_anonymous_admin(seated_table, "/hu 南 自摸 5花")
    assert turn.texts == [t("zh-Hans", "err.confirm_by_anonymous")]
    assert turn.texts[0].startswith("本群设置确认人为记录人以外的人：请用自己的账号记录")
    assert not open_pending(ledger(seated_table), seated_table.chat_id)
    await seated_table.say("ann", "/hu 南 自摸 5花")  # under her own name: someone else confirms
    turn = await seated_table.press("ann", "✅ 确认")
    assert "这条是你记的" in "".join(turn.answers)
    await seated_table.press("bob", "✅ 确认")
    assert session(seated_table).hands_played == 1
