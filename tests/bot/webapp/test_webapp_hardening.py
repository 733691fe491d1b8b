"""The picker's API as a hostile or unlucky client meets it: every endpoint of a table is for its players
and the group's admins; nesting, future-dated initData and floods are refused with a 4xx, never a 500; every
response carries CSP, nosniff and Referrer-Policy; static files are compressed and cacheable; a resent
submission says it was sent already."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from harness import Table
from test_webapp_api import SELF_DRAW, client, init_data, post, token_of

from bot.ledger.play import books, groups, pending
from bot.webapp import api
from bot.webauth import sign_init_data


async def test_a_tables_score_is_for_its_players_and_admins(seated_table: Table) -> None:
    """eve, neither seated nor an admin, gets no preview of the table (its names, its hand number)."""
    response = await post(
        seated_table,
        "/api/score",
        {"entry": SELF_DRAW},
        init_data(seated_table, "eve", token_of(seated_table)),
    )
    assert response.status_code == 403
    assert "preview" not in response.text and "Bob" not in response.json()["error"]
    seated = await post(
        seated_table,
        "/api/score",
        {"entry": SELF_DRAW},
        init_data(seated_table, "bob", token_of(seated_table)),
    )
    assert seated.status_code == 200


async def test_deep_nesting_is_refused_before_parsing(seated_table: Table) -> None:
    auth = init_data(seated_table, "bob", token_of(seated_table))
    async with client(seated_table) as http:
        response = await http.post(
            "/api/score",
            content=b'{"entry": ' + b"[" * 8000 + b"]" * 8000 + b"}",
            headers={"Authorization": f"tma {auth}"},
        )
    assert (response.status_code, response.json()["code"]) == (400, "webapp.bad_request")


async def test_init_data_dated_in_the_future_is_refused(seated_table: Table) -> None:
    user = seated_table.user("bob")
    later = str(int(time.time()) + 10 * 365 * 86400)
    auth = sign_init_data(
        seated_table.app.bot.token,
        {
            "auth_date": later,
            "user": f'{{"id": {user["id"]}, "first_name": "Bob"}}',
            "start_param": token_of(seated_table),
        },
    )
    response = await post(seated_table, "/api/score", {"entry": SELF_DRAW}, auth)
    assert (response.status_code, response.json()["code"]) == (401, "webapp.init_data_future")
    soon = sign_init_data(  # a phone's clock a minute fast is fine
        seated_table.app.bot.token,
        {
            "auth_date": str(int(time.time()) + 60),
            "user": f'{{"id": {user["id"]}, "first_name": "Bob"}}',
            "start_param": token_of(seated_table),
        },
    )
    assert (await post(seated_table, "/api/score", {"entry": SELF_DRAW}, soon)).status_code == 200


async def test_every_response_carries_the_security_headers(seated_table: Table) -> None:
    async with client(seated_table) as http:
        page = await http.get("/app/")
        script = await http.get("/app/static/picker.js", headers={"Accept-Encoding": "gzip"})
        refused = await http.post("/api/score", json={})
    for response in (page, script, refused):
        csp = response.headers["content-security-policy"]
        assert "script-src 'self' https://telegram.org" in csp and "frame-ancestors" in csp
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"
    assert script.headers["content-encoding"] == "gzip" and "max-age" in script.headers["cache-control"]
    assert page.headers["cache-control"] == "no-cache"
    async with client(seated_table) as http:
        assert (await http.get("/app/static/favicon.svg")).status_code == 200
        icon = await http.get("/favicon.ico")
        assert icon.status_code == 301 and icon.headers["location"] == "/app/static/favicon.svg"


async def test_a_flood_of_submissions_is_limited(
    seated_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(api.LIMITS, "submit", 3)
    auth = init_data(seated_table, "bob", token_of(seated_table))
    codes = []
    async with client(seated_table) as http:  # one server: its limits hold across requests
        for _ in range(5):
            response = await http.post(
                "/api/submit",
                json={"entry": SELF_DRAW, "key": uuid.uuid4().hex},
                headers={"Authorization": f"tma {auth}"},
            )
            codes.append(response.status_code)
    assert codes[:3] == [200, 200, 200] and codes[3:] == [429, 429]
    assert "太频繁" in response.json()["error"]


async def test_a_resent_submission_says_it_was_sent_already(seated_table: Table) -> None:
    auth = init_data(seated_table, "bob", token_of(seated_table))
    key = uuid.uuid4().hex
    await post(seated_table, "/api/submit", {"entry": SELF_DRAW, "key": key}, auth)
    again = await post(seated_table, "/api/submit", {"entry": SELF_DRAW, "key": key}, auth)
    assert again.json() == {"status": "duplicate", "text": "这手牌已经发过了，没有重复记录。"}


@contextmanager
def bad_gateway(table: Table, *methods: str) -> Iterator[None]:
    """Telegram answers these methods with 502 Bad Gateway for the block (the others as usual)."""
    state = table.transport.state
    real = state.handle

    def failing(name: str, params: Any, files: Any = None) -> Any:
        if name in methods:
            return 502, {"ok": False, "error_code": 502, "description": "Bad Gateway"}
        return real(name, params, files)

    state.handle = failing  # type: ignore[method-assign]
    try:
        yield
    finally:
        state.handle = real  # type: ignore[method-assign]


async def test_a_retry_after_the_group_message_failed_records_nothing_twice(seated_table: Table) -> None:
    """/rules instant on: the hand is recorded, the group's message fails (Telegram answers 502), the page
    says so; the page sends the same hand again with the same key: nothing new is recorded, and it says the
    hand was sent already (Bob +120 once, not +240)."""
    await seated_table.say("ann", "/rules instant on")
    auth = init_data(seated_table, "bob", token_of(seated_table))
    key = uuid.uuid4().hex
    with bad_gateway(seated_table, "sendMessage", "editMessageText"):
        first = await post(seated_table, "/api/submit", {"entry": SELF_DRAW, "key": key}, auth)
    assert first.status_code == 502 and first.json()["code"] == "TelegramError"
    again = await post(seated_table, "/api/submit", {"entry": SELF_DRAW, "key": key}, auth)
    assert again.json() == {"status": "duplicate", "text": "这手牌已经发过了，没有重复记录。"}
    ledger = seated_table.app.bot_data["ledger"]
    [row] = ledger.read(books.ledger_rows, groups.chat_state(ledger, seated_table.chat_id).session.id)
    assert row.running == {"E": -40, "S": 120, "W": -40, "N": -40}


async def test_a_retry_after_the_preview_could_not_be_posted_posts_it(
    seated_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The group's message fails (Telegram answers 502, and again when it is sent once more): the entry is
    stored, shown nowhere; the page says so; the page sends the same hand again with the same key: now the
    preview is posted (not "sent already"), and Confirm records it once (Bob +120)."""
    from bot.handlers import recording

    monkeypatch.setattr(recording, "RESEND_AFTER", 0.0)
    auth = init_data(seated_table, "bob", token_of(seated_table))
    key = uuid.uuid4().hex
    with bad_gateway(seated_table, "sendMessage"):
        first = await post(seated_table, "/api/submit", {"entry": SELF_DRAW, "key": key}, auth)
    assert first.status_code == 502 and first.json()["code"] == "TelegramError"
    ledger = seated_table.app.bot_data["ledger"]
    [unshown] = ledger.read(pending.waiting_in, groups.chat_state(ledger, seated_table.chat_id).session.id)
    assert unshown.message_id is None
    told = len(seated_table.replies())
    again = await post(seated_table, "/api/submit", {"entry": SELF_DRAW, "key": key}, auth)
    assert again.json()["status"] == "sent"
    [preview] = seated_table.replies()[told:]
    assert "南 +120" in preview.text and preview.buttons == ("✅ 确认", "✖ 取消")
    once_more = await post(seated_table, "/api/submit", {"entry": SELF_DRAW, "key": key}, auth)
    assert once_more.json()["status"] == "duplicate"
    await seated_table.press("cat", "✅ 确认")
    [row] = ledger.read(books.ledger_rows, groups.chat_state(ledger, seated_table.chat_id).session.id)
    assert row.running == {"E": -40, "S": 120, "W": -40, "N": -40}
