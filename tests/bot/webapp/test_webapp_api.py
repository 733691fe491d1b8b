"""The picker's server over the real Application and ledger: score as you tap, submit to the group's
preview (the same pending entry as /hu), Confirm records it; and every refusal is a 4xx with nothing
posted: forged or stale initData, another table's token, a player not seated, a bad hand, a huge body."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from typing import Any

import httpx
import pytest
from harness import Table, seat_four

from bot.app import build_application
from bot.console.transport import InProcessBotAPI
from bot.ledger.play import books, groups
from bot.settings import Settings
from bot.webapp.server import build_web
from bot.webauth import sign_init_data, table_token

HAND = {
    "concealed": "11223355778899p",
    "winning_tile": "9p",
    "melds": [],
    "flowers": ["中", "发", "春", "梅", "百搭"],
}
SELF_DRAW = {"event": "win", "wins": [{"winner": "S", "type": "self_draw", "hand": HAND}]}


def init_data(table: Table, name: str, start_param: str | None, *, age: int = 0) -> str:
    user = table.user(name)
    fields = {
        "auth_date": str(int(time.time()) - age),
        "user": json.dumps(
            {"id": user["id"], "first_name": user["first_name"], "username": user.get("username")}
        ),
    }
    if start_param is not None:
        fields["start_param"] = start_param
    return sign_init_data(table.app.bot.token, fields)


def token_of(table: Table) -> str:
    session = groups.chat_state(table.app.bot_data["ledger"], table.chat_id).session
    return table_token(table.app.bot.token, table.chat_id, session.id)


def client(table: Table) -> httpx.AsyncClient:
    settings = table.app.bot_data["settings"].model_copy(update={"webapp_url": "https://picker.test/app/"})
    web = build_web(table.app, settings)
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=web), base_url="http://picker.test")


async def post(table: Table, path: str, body: Any, auth: str | None) -> httpx.Response:
    headers = {"Authorization": f"tma {auth}"} if auth is not None else {}
    async with client(table) as http:
        return await http.post(path, json=body, headers=headers)


async def test_table_view_names_seats_rules_and_texts(seated_table: Table) -> None:
    async with client(seated_table) as http:
        response = await http.get(
            "/api/table",
            headers={"Authorization": f"tma {init_data(seated_table, 'bob', token_of(seated_table))}"},
        )
    assert response.status_code == 200
    view = response.json()
    assert view["table"] is True and view["lang"] == "zh-Hans"
    assert [s["name"] for s in view["seats"]] == ["Ann", "Bob", "Cat", "Dan"]
    assert [s["seat"] for s in view["seats"] if s["me"]] == ["S"]
    assert view["rule_sets"][0]["rules"] == "suzhou"
    assert {"name": "百搭", "copies": 4} in view["rule_sets"][0]["flowers"]
    assert view["strings"]["submit"] == "发到群里"


@pytest.mark.slow
async def test_score_as_you_tap_is_the_groups_preview(seated_table: Table) -> None:
    auth = init_data(seated_table, "bob", token_of(seated_table))
    response = await post(seated_table, "/api/score", {"entry": SELF_DRAW}, auth)
    assert response.status_code == 200, response.text
    body = response.json()
    # 清一色 10 + 七对 15 + 底 5 + 硬花 5×2 = 40 per payer, stake 1: the three others pay 40 each.
    assert body["payments"] == {"E": -40, "S": 120, "W": -40, "N": -40}
    assert "清一色" in body["text"] and "七对" in body["text"]
    assert not seated_table.calls("sendMessage")[-1].params.get("text", "").startswith("第")  # nothing posted


async def test_an_incomplete_hand_says_what_is_wrong_in_the_groups_language(seated_table: Table) -> None:
    auth = init_data(seated_table, "bob", token_of(seated_table))
    short = {**SELF_DRAW, "wins": [{**SELF_DRAW["wins"][0], "hand": {**HAND, "concealed": "1122335577889p"}}]}
    response = await post(seated_table, "/api/score", {"entry": short}, auth)
    assert response.status_code == 422
    assert "张" in response.json()["error"]


async def test_submit_posts_the_same_preview_as_hu_and_confirm_records_it(seated_table: Table) -> None:
    # What /hu shows for the same hand, typed (then cancelled): the picker's preview must read the same.
    await seated_table.say("bob", "/hu 南 自摸 11223355778899p 中发春梅百搭")
    typed = seated_table.last_reply()
    await seated_table.press("bob", "✖ 取消")
    before = len(seated_table.replies())
    auth = init_data(seated_table, "bob", token_of(seated_table))
    response = await post(seated_table, "/api/submit", {"entry": SELF_DRAW, "key": uuid.uuid4().hex}, auth)
    assert response.status_code == 200, response.text
    assert response.json()["status"] == "sent"
    preview = seated_table.replies()[before]
    assert preview.text == typed.text and preview.buttons == ("✅ 确认", "✖ 取消")
    assert "清一色 10" in preview.text and "南 +120" in preview.text
    await seated_table.press("cat", "✅ 确认")
    ledger = seated_table.app.bot_data["ledger"]
    [row] = ledger.read(books.ledger_rows, groups.chat_state(ledger, seated_table.chat_id).session.id)
    assert row.running == {"E": -40, "S": 120, "W": -40, "N": -40}
    assert "南 +120" in seated_table.message(preview.message_id).text  # the preview became the result


async def test_one_submission_sent_twice_posts_once(seated_table: Table) -> None:
    auth = init_data(seated_table, "bob", token_of(seated_table))
    key = uuid.uuid4().hex
    first = await post(seated_table, "/api/submit", {"entry": SELF_DRAW, "key": key}, auth)
    sends = len(seated_table.calls("sendMessage"))
    second = await post(seated_table, "/api/submit", {"entry": SELF_DRAW, "key": key}, auth)
    assert (first.json()["status"], second.json()["status"]) == ("sent", "duplicate")
    assert len(seated_table.calls("sendMessage")) == sends


@pytest.mark.parametrize("age", [0, 3700])
async def test_tampered_or_stale_init_data_is_refused(seated_table: Table, age: int) -> None:
    auth = init_data(seated_table, "bob", token_of(seated_table), age=age)
    if age == 0:
        auth = auth.replace("bob", "ann")  # the user changed after signing
    sends = len(seated_table.calls("sendMessage"))
    response = await post(seated_table, "/api/submit", {"entry": SELF_DRAW, "key": uuid.uuid4().hex}, auth)
    assert response.status_code == 401
    assert response.json()["code"] == ("webapp.init_data_stale" if age else "webapp.init_data_forged")
    assert len(seated_table.calls("sendMessage")) == sends


async def test_no_init_data_is_refused(seated_table: Table) -> None:
    response = await post(seated_table, "/api/score", {"entry": SELF_DRAW}, None)
    assert response.status_code == 401
    assert "Telegram" in response.json()["error"]


async def test_a_player_not_seated_cannot_submit(seated_table: Table) -> None:
    auth = init_data(seated_table, "eve", token_of(seated_table))
    response = await post(seated_table, "/api/submit", {"entry": SELF_DRAW, "key": uuid.uuid4().hex}, auth)
    assert response.status_code == 403
    assert "入座" in response.json()["error"]
    assert not any(r.buttons == ("✅ 确认", "✖ 取消") for r in seated_table.replies())


async def test_another_tables_token_is_refused(seated_table: Table, transport: InProcessBotAPI) -> None:
    other = -1002000000002
    transport.add_group(other, "隔壁桌", creator="zoe")
    elsewhere = Table(seated_table.app, transport, other)
    await elsewhere.say("eve", "/newgame 宿州 2")
    await elsewhere.say("eve", "/join")
    # bob is seated at GROUP_ID's table, not at the other one: its token does not let him in.
    auth = init_data(seated_table, "bob", token_of(elsewhere))
    response = await post(seated_table, "/api/submit", {"entry": SELF_DRAW, "key": uuid.uuid4().hex}, auth)
    assert response.status_code == 403
    assert not any(r.buttons == ("✅ 确认", "✖ 取消") for r in elsewhere.replies())
    # A token that was never signed by this bot.
    forged = token_of(seated_table)[:-3] + "AAA"
    response = await post(
        seated_table,
        "/api/submit",
        {"entry": SELF_DRAW, "key": uuid.uuid4().hex},
        init_data(seated_table, "bob", forged),
    )
    assert (response.status_code, response.json()["code"]) == (403, "webapp.table_token_bad")


async def test_an_ended_tables_token_is_gone(seated_table: Table) -> None:
    token = token_of(seated_table)
    await seated_table.say("ann", "/end")
    await seated_table.press("ann", "✅ 结束并结算")
    await seat_four(seated_table)
    response = await post(
        seated_table, "/api/score", {"entry": SELF_DRAW}, init_data(seated_table, "bob", token)
    )
    assert response.status_code == 410


async def test_an_oversized_body_is_refused(seated_table: Table) -> None:
    auth = init_data(seated_table, "bob", token_of(seated_table))
    async with client(seated_table) as http:
        response = await http.post(
            "/api/score",
            content=b'{"entry": "' + b"x" * 20000 + b'"}',
            headers={"Authorization": f"tma {auth}"},
        )
    assert response.status_code == 413


async def test_without_a_table_the_picker_scores_by_the_rules_asked(table: Table) -> None:
    auth = init_data(table, "eve", None)
    response = await post(table, "/api/score", {"entry": SELF_DRAW, "rules": "suzhou"}, auth)
    assert response.status_code == 200
    assert response.json()["payments"]["S"] == 120
    response = await post(table, "/api/submit", {"entry": SELF_DRAW, "key": uuid.uuid4().hex}, auth)
    assert (response.status_code, response.json()["code"]) == (403, "webapp.no_table")


async def test_two_workers_accept_one_submission_once(
    db_url: str, tmp_path: Any, transport: InProcessBotAPI
) -> None:
    """Two bot processes on one database (PostgreSQL too) get the same submission at the same moment (a
    proxy retrying, a double tap): one posts the preview, the other answers `duplicate`."""
    workers = []
    for n in range(2):
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            telegram_bot_token="123:TEST",
            data_dir=tmp_path / str(n),
            database_url=db_url,
        )
        app = build_application(settings, request=transport, get_updates_request=transport)
        workers.append(await Table.start(app, transport))
    try:
        first, second = workers
        await seat_four(first)
        auth = init_data(first, "bob", token_of(first))
        body = {"entry": SELF_DRAW, "key": uuid.uuid4().hex}
        sends = len(first.calls("sendMessage"))
        answers = await asyncio.gather(
            post(first, "/api/submit", body, auth), post(second, "/api/submit", body, auth)
        )
        assert sorted(a.json()["status"] for a in answers) == ["duplicate", "sent"]
        previews = [c for c in first.calls("sendMessage")[sends:] if "预览" in c.params.get("text", "")]
        assert len(previews) == 1
    finally:
        for worker in workers:
            await worker.stop()


async def test_the_page_of_a_table_is_for_its_players_and_admins(seated_table: Table) -> None:
    token = token_of(seated_table)
    async with client(seated_table) as http:
        eve = await http.get(
            "/api/table", headers={"Authorization": f"tma {init_data(seated_table, 'eve', token)}"}
        )
        seated_table.set_admins("eve")
        admin = await http.get(
            "/api/table", headers={"Authorization": f"tma {init_data(seated_table, 'eve', token)}"}
        )
    assert eve.status_code == 403 and "入座" in eve.json()["error"]
    assert admin.status_code == 200 and not any(s["me"] for s in admin.json()["seats"])


async def test_a_suzhou_anhui_table_offers_its_wild_and_round_wind_flowers(table: Table) -> None:
    """宿州: the page is told the 混子 choices and that 东 is a flower (令风) in the 东风圈; a 明杠 from 西
    and three flowers score f = 春 1 + 夏 1 + 东 1 + 明杠 2 = 5: each 闲 pays 2f+2 = 12, the 庄 东
    2f+4 = 14."""
    await table.say("ann", "/newgame 宿州 1")
    for name in ("ann", "bob", "cat", "dan"):
        await table.say(name, "/join")
    auth = init_data(table, "bob", token_of(table))
    async with client(table) as http:
        view = (await http.get("/api/table", headers={"Authorization": f"tma {auth}"})).json()
    [rules] = view["rule_sets"]
    assert rules["rules"] == "suzhou-anhui" and "1z" not in rules["tiles"] and "5z" not in rules["tiles"]
    assert {"name": "东", "copies": 4} in rules["flowers"] and "5p" in view["wild"]
    hand = {
        "concealed": "123m456m789p99s",
        "winning_tile": "9s",
        "melds": [{"type": "kong", "tiles": "7777s", "exposed": True, "kind": "direct", "from": "W"}],
        "flowers": ["春", "夏", "东"],
    }
    entry = {"event": "win", "wins": [{"winner": "S", "type": "self_draw", "hand": hand, "wild": "5p"}]}
    response = await post(table, "/api/score", {"entry": entry}, auth)
    assert response.status_code == 200, response.text
    assert response.json()["payments"] == {"E": -14, "S": 38, "W": -12, "N": -12}


async def test_an_instant_group_records_a_submission_at_once(seated_table: Table) -> None:
    await seated_table.say("ann", "/rules instant on")
    auth = init_data(seated_table, "bob", token_of(seated_table))
    response = await post(seated_table, "/api/submit", {"entry": SELF_DRAW, "key": uuid.uuid4().hex}, auth)
    assert response.status_code == 200 and response.json()["text"] == "已记入账本，结果已发到群里。"
    ledger = seated_table.app.bot_data["ledger"]
    [row] = ledger.read(books.ledger_rows, groups.chat_state(ledger, seated_table.chat_id).session.id)
    assert row.running == {"E": -40, "S": 120, "W": -40, "N": -40}
