"""The season page's endpoint over the real Application and ledger: the issue's two nights as the page
reads them (standings, who fed whom, the trend), the same figures as /score all-time and /stats under
收盘倍数, 台费, 抽水 and 抹零 (computed by hand), and its refusals: no or forged initData, a table's token or
one this bot did not sign, someone not of the group; the security headers; the rate limit; no transfer in
what it says."""

from __future__ import annotations

import httpx
from harness import Table
from season_nights import night, two_nights
from test_webapp_api import client, init_data

from bot.webapp.api import LIMITS
from bot.webauth import group_token, table_token


async def get(table: Table, auth: str | None) -> httpx.Response:
    headers = {"Authorization": f"tma {auth}"} if auth is not None else {}
    async with client(table) as http:
        return await http.get("/api/season", headers=headers)


def as_member(table: Table, name: str) -> str:
    return init_data(table, name, group_token(table.app.bot.token, table.chat_id))


def by_name(data: dict[str, object]) -> dict[str, tuple[int, int]]:
    return {row["name"]: (row["net"], row["nights"]) for row in data["standings"]}  # type: ignore[index, union-attr]


async def test_the_issues_two_nights_as_the_page_reads_them(table: Table) -> None:
    await two_nights(table)
    response = await get(table, as_member(table, "dan"))
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["lang"] == "zh-Hans" and data["title"] == "第1赛季"
    assert by_name(data) == {"Cat": (150, 2), "Ann": (-50, 2), "Bob": (-50, 2), "Dan": (-50, 2)}
    names = {p["id"]: p["name"] for p in data["people"]}
    fed = {(names[f["from"]], names[f["to"]]): (f["count"], f["money"]) for f in data["fed"]}
    assert fed == {("Ann", "Bob"): (1, 50), ("Bob", "Ann"): (1, 50)}
    assert data["trend"] == {"Ann": [-100, -50], "Bob": [0, -50], "Cat": [150, 150], "Dan": [-50, -50]}
    assert data["hands"] == {
        "hands": 3,
        "wins": 3,
        "self_draws": 1,
        "fed_wins": 2,
        "dealer_wins": 1,
        "draws": 0,
        "baozi": 0,
    }  # night 2's win is 东 Ann's, dealing
    pairs = {(names[p["a"]], names[p["b"]]): (p["nights"], p["money"]) for p in data["pairs"]}
    assert pairs[("Ann", "Bob")] == (2, 0)  # 50 each way
    assert pairs[("Ann", "Cat")] == (2, -50)  # Ann paid Cat 50 (Cat's self-draw)
    text = response.text
    assert "transfer" not in text and "owe" not in text and "payer" not in text  # never who owes whom


async def test_figures_agree_with_score_and_stats_under_every_settling_option(db_table: Table) -> None:
    """收盘倍数 2, 台费 5 a player, 抽水 10% of each win, 抹零 to 10 (largest remainder, ties to the older
    person: zoe, then ann, bob, cat, dan, then the 台). Each night's money is what its settling stored, what
    was carried in taken off (money.by_session); the season's is their sum, /score all-time's figure.

    Night 1 (stake 5): 南 Bob wins 10花 on 东 Ann's discard (+50), 西 Cat self-draws 10花 (+150):
        points Ann −100, Bob 0, Cat +150, Dan −50; ×2: −200, 0, +300, −100;
        fees: 5 each, 抽水 Bob 50×2×10% = 10, Cat 150×2×10% = 30: Ann 5, Bob 15, Cat 35, Dan 5, 台 +60;
        raw −205, −15, +265, −105, 台 +60; to 10: −210, −20, +260, −110, +60 leave 20, to Ann and Bob:
        Ann −200, Bob −10, Cat +260, Dan −110, 台 +60.
    Night 2: 东 Ann wins 10花 on 南 Bob's discard: points Ann +50, Bob −50; ×2: +100, −100;
        fees: 5 each, 抽水 Ann 10: Ann 15, Bob 5, Cat 5, Dan 5, 台 +30; raw +85, −105, −5, −5, +30;
        to 10: +80, −110, −10, −10, +30 leave 20, to Ann and Bob: Ann +90, Bob −100, Cat −10, Dan −10, 台 +30
        (what night 1 left open is carried in, and taken off again: multiples of 10, the same rounding).
    The season: Ann −110, Bob −110, Cat +250, Dan −120, 台 +90. On SQLite and PostgreSQL."""
    table = db_table
    table.set_admins("zoe")
    for option in ("结算倍数 2", "台费 5", "抽水 10", "抹零 10"):
        await table.say("zoe", f"/rules {option}")
    await night(table, "/hu 南 冲 东 5花", "/hu 西 自摸 5花")
    await night(table, "/hu 东 冲 南 5花")
    data = (await get(table, as_member(table, "zoe"))).json()
    season = {row["name"]: row["net"] for row in data["standings"]}
    assert season == {"Ann": -110, "Bob": -110, "Cat": 250, "Dan": -120, "台": 90}
    names = {p["id"]: p["name"] for p in data["people"]}
    assert [{names[int(pid)]: n for pid, n in x["money"].items()} for x in data["nights"]] == [
        {"Ann": -200, "Bob": -10, "Cat": 260, "Dan": -110, "台": 60},
        {"Ann": 90, "Bob": -100, "Cat": -10, "Dan": -10, "台": 30},
    ]
    score = (await table.say("eve", "/score")).text.splitlines()[1:]
    alltime = {line.rsplit(" ", 1)[0]: int(line.rsplit(" ", 1)[1].replace("−", "-")) for line in score}
    assert alltime == season
    for name in ("Ann", "Bob", "Cat", "Dan"):
        stats = (await table.say("eve", f"/stats {name}")).sent[0].text
        assert stats.endswith(f"· 实付 {alltime[name]:+d}".replace("-", "−")), stats


async def test_patterns_and_drawn_hands_on_each_database(db_table: Table) -> None:
    """The patterns and 花 of each win as its result said them (南 自摸 40花 with 清一色 and 七对; 东 20花
    with 清一色), a 荒庄, on SQLite and PostgreSQL (the database reads the stored JSON)."""
    await night(db_table, "/hu 南 自摸 5花 清一色 七对", "/draw", "/hu 东 冲 西 5花 清一色")
    data = (await get(db_table, as_member(db_table, "ann"))).json()
    names = {str(p["id"]): p["name"] for p in data["people"]}
    assert {names[pid]: found for pid, found in data["patterns"].items()} == {
        "Bob": {"清一色": 1, "七对": 1},
        "Ann": {"清一色": 1},
    }
    assert data["hands"]["draws"] == 1 and data["hands"]["hands"] == 3 and data["hands"]["dealer_wins"] == 0
    assert {names[pid]: h for pid, h in data["hua"].items()} == {
        "Bob": {"wins": 1, "hua": 40},
        "Ann": {"wins": 1, "hua": 20},
    }


async def test_the_skill_rating_shows_from_the_fifth_night(table: Table) -> None:
    """Bob wins every night, Dan pays every time Cat or Bob wins: placed by each night's money, Bob's
    rating is the best and Dan's the worst, shown only once each has five nights, never ahead of money."""
    for _ in range(4):
        await night(table, "/hu 南 冲 北 5花")
    data = (await get(table, as_member(table, "ann"))).json()
    assert all(row["skill"] is None for row in data["standings"])
    await night(table, "/hu 南 冲 北 5花")
    data = (await get(table, as_member(table, "ann"))).json()
    skill = {row["name"]: row["skill"] for row in data["standings"]}
    assert skill["Bob"] > skill["Ann"] == skill["Cat"] > skill["Dan"]
    assert data["standings"][0]["name"] == "Bob"  # the standings go by money


async def test_refusals(table: Table) -> None:
    await two_nights(table)
    assert (await get(table, None)).status_code == 401
    forged = as_member(table, "eve").replace("hash=", "hash=0")
    assert (await get(table, forged)).status_code == 401
    tabled = init_data(table, "eve", table_token(table.app.bot.token, table.chat_id, 1))
    assert (await get(table, tabled)).status_code == 403  # a table's token is not a group's
    other = init_data(table, "eve", group_token("999:OTHER", table.chat_id))
    assert (await get(table, other)).status_code == 403
    stranger = await get(table, as_member(table, "mallory"))  # never in the group
    assert stranger.status_code == 403 and stranger.json()["code"] == "webapp.not_member"
    assert "赛季页只给本群的人看" in stranger.json()["error"]
    ok = await get(table, as_member(table, "ann"))
    assert ok.headers["x-content-type-options"] == "nosniff"
    assert "frame-ancestors" in ok.headers["content-security-policy"]


async def test_rate_limit(table: Table) -> None:
    await table.say("ann", "hello")
    auth = as_member(table, "ann")
    async with client(table) as http:
        codes = [
            (await http.get("/api/season", headers={"Authorization": f"tma {auth}"})).status_code
            for _ in range(LIMITS["season"] + 1)
        ]
    assert codes[:-1] == [200] * LIMITS["season"] and codes[-1] == 429


async def test_the_season_page_is_served_with_its_chart_library(table: Table) -> None:
    async with client(table) as http:
        page = await http.get("/app/season/")
        assert page.status_code == 200 and "season.js" in page.text and "uplot.min.js" in page.text
        for path in ("season.js", "season.css", "uplot.min.js", "uplot.min.css", "LICENSE-uplot"):
            assert (await http.get(f"/app/static/{path}")).status_code == 200, path
