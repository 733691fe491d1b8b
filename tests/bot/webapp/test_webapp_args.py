"""The page posts the arguments of the one builder (`scoring.entry.build_entry`), read by
`scoring.entry.entry_args_from_json`: they score and post the same hand as the entry they build, and a bad
argument is refused (the reader's error naming its field), with nothing posted."""

from __future__ import annotations

import uuid

import pytest
from harness import Table
from test_webapp_api import HAND, SELF_DRAW, init_data, post, token_of

from bot.ledger.play import books, groups
from scoring.entry import entry_args_from_json
from scoring.errors import ScoringError

SELF_DRAW_ARGS = {"how": "self_draw", "other": None, "wild": None, "claims": [{"winner": "S", "hand": HAND}]}


async def test_the_builders_arguments_score_and_post_the_hand_they_build(seated_table: Table) -> None:
    auth = init_data(seated_table, "bob", token_of(seated_table))
    by_args = await post(seated_table, "/api/score", {"args": SELF_DRAW_ARGS}, auth)
    by_entry = await post(seated_table, "/api/score", {"entry": SELF_DRAW}, auth)
    assert by_args.status_code == 200, by_args.text
    assert by_args.json() == by_entry.json()
    assert by_args.json()["payments"] == {"E": -40, "S": 120, "W": -40, "N": -40}
    told = len(seated_table.replies())
    sent = await post(seated_table, "/api/submit", {"args": SELF_DRAW_ARGS, "key": uuid.uuid4().hex}, auth)
    assert sent.json()["status"] == "sent"
    [preview] = seated_table.replies()[told:]
    assert "南 +120" in preview.text
    await seated_table.press("cat", "✅ 确认")
    ledger = seated_table.app.bot_data["ledger"]
    [row] = ledger.read(books.ledger_rows, groups.chat_state(ledger, seated_table.chat_id).session.id)
    assert row.running == {"E": -40, "S": 120, "W": -40, "N": -40}


async def test_a_bad_argument_is_refused_naming_its_field(seated_table: Table) -> None:
    auth = init_data(seated_table, "bob", token_of(seated_table))
    sends = len(seated_table.calls("sendMessage"))
    cases = [
        ({**SELF_DRAW_ARGS, "how": "discard"}, "args.other"),  # 冲 names the discarder
        ({**SELF_DRAW_ARGS, "how": "zimo"}, "args.how"),
        ({**SELF_DRAW_ARGS, "claims": [{"winner": "S", "hand": HAND, "flags": ["gangkai"]}]}, "flags"),
        ({**SELF_DRAW_ARGS, "claims": []}, "args.claims"),
    ]
    for args, field in cases:
        with pytest.raises(ScoringError, match=field):
            entry_args_from_json(args)
        response = await post(seated_table, "/api/submit", {"args": args, "key": uuid.uuid4().hex}, auth)
        assert (response.status_code, response.json()["code"]) == (422, "ScoringError"), args
        assert "没有记入" in response.json()["error"], response.json()  # nothing recorded
    assert len(seated_table.calls("sendMessage")) == sends
