"""The page and the button flow offer the same ways of winning at every rule set, because both ask
`scoring.rules.ways_to_win`: 包 at 苏州 but not at 宿州 (a 杠开 there is a plain self-draw), 送杠 where the
table's `songgang` option is `any`; and the same 混子 choices (`scoring.rules.wild_choices`) and 上牌
(`scoring.rules.has_shangpai`)."""

from __future__ import annotations

import pytest
from harness import Table, seat_four
from test_webapp_api import client, init_data, token_of

from bot.i18n import t
from bot.render.errors import tile_words
from bot.render.items import term_name

CASES = [
    ("苏州", None, ["self_draw", "discard", "rob_kong", "bao"]),
    ("苏州", "songgang any", ["self_draw", "discard", "rob_kong", "bao", "songgang"]),
    ("宿州", None, ["self_draw", "discard", "rob_kong"]),
]


async def page_view(table: Table) -> dict[str, object]:
    auth = init_data(table, "bob", token_of(table))
    async with client(table) as http:
        response = await http.get("/api/table", headers={"Authorization": f"tma {auth}"})
    assert response.status_code == 200, response.text
    view: dict[str, object] = response.json()
    return view


@pytest.mark.parametrize(("rules", "option", "ways"), CASES)
async def test_the_page_and_the_flow_offer_the_same_ways_of_winning(
    table: Table, rules: str, option: str | None, ways: list[str]
) -> None:
    await seat_four(table, rules=rules)
    if option is not None:
        await table.say("ann", f"/rules {option}")
    view = await page_view(table)
    [rule_set] = view["rule_sets"]  # type: ignore[misc]
    assert view["hows"] == rule_set["hows"] == ways
    await table.say("bob", "/hu")
    await table.press("bob", "南 Bob")
    offered = table.buttons()
    shared = ("flow.multi", "flow.back", "flow.cancel")  # the flow's own: 一炮多响 and its way around
    assert offered[-len(shared) :] == [t("zh-Hans", key) for key in shared], offered
    assert offered[: -len(shared)] == [t("zh-Hans", f"flow.{way}") for way in ways]


@pytest.mark.parametrize("rules", ["苏州", "宿州"])
async def test_the_page_and_the_flow_offer_the_same_wild_tiles_and_shangpai(table: Table, rules: str) -> None:
    """In the 东风圈: 宿州's 混子 is any playing tile but 东 (the 令风), in the same order on both, and 上牌
    is offered on both; 苏州 has neither, on either."""
    await seat_four(table, rules=rules)
    view = await page_view(table)
    [rule_set] = view["rule_sets"]  # type: ignore[misc]
    await table.say("bob", "/hu")
    for label in ("南 Bob", t("zh-Hans", "flow.self_draw"), "5", t("zh-Hans", "flow.to_patterns")):
        await table.press("bob", label)
    patterns = table.buttons()
    assert (
        ("shangpai" in rule_set["flags"])
        == (term_name("zh-Hans", "shangpai") in patterns)
        == (rules == "宿州")
    )
    wild = view["wild"]
    assert isinstance(wild, list) and wild == rule_set["wild"]
    wild_button = t("zh-Hans", "flow.wild_button", tile=t("zh-Hans", "flow.none"))
    assert (wild_button in patterns) == bool(wild) == (rules == "宿州")
    if not wild:
        return
    await table.press("bob", wild_button)
    offered = table.buttons()
    assert offered[-3:] == [t("zh-Hans", key) for key in ("flow.no_wild", "flow.back", "flow.cancel")]
    assert "1z" not in wild and len(wild) == 30  # 东风圈: 东 is the 令风, a flower
    assert offered[:-3] == [tile_words("zh-Hans", tile) for tile in wild]
