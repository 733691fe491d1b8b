"""The picker in a real headless Chromium (Debian's `chromium`, driven by Playwright), opened as console
mode opens it: bob taps 清一色七对 with five flowers, sees the score, sends it; the group gets the preview,
cat's Confirm records it, the ledger has it. A tampered initData and another table's token are refused on
the page. Screenshots at 360 px, light and dark, go to SCREENS (default /work/screens)."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import parse_qs, quote

import browsers
import pytest
from browsers import SCREENS, browser_fixture  # noqa: F401  (the `browser` fixture)
from harness import Table, seat_four

from bot.console import picker_url
from bot.console.transport import InProcessBotAPI
from bot.ledger.play import books, groups
from bot.webapp.server import LocalServer, build_web

HAND = ["1p", "1p", "2p", "2p", "3p", "3p", "5p", "5p", "7p", "7p", "8p", "8p", "9p", "9p"]
FLOWERS = ["中", "发", "春", "梅", "百搭"]
pytestmark = pytest.mark.slow


@pytest.fixture
async def page_server(seated_table: Table) -> AsyncIterator[str]:
    server = LocalServer(build_web(seated_table.app, seated_table.app.bot_data["settings"], console=True))
    url = await server.start()
    try:
        yield url
    finally:
        await server.stop()


async def open_page(browser: Any, url: str, *, dark: bool = False) -> Any:
    return await browsers.open_page(browser, url, height=780, dark=dark)


def url_for(table: Table, page: str, name: str, chat_id: int | None = None) -> str:
    ledger = table.app.bot_data["ledger"]
    session = groups.chat_state(ledger, chat_id if chat_id is not None else table.chat_id).session
    return picker_url(page, table.app.bot.token, table.user(name), session)


async def tap_hand(page: Any) -> None:
    for tile in HAND:
        await page.click(f'#palette [data-tile="{tile}"]')
    for flower in FLOWERS:
        await page.click(f'#flower-palette [data-tile="{flower}"]')


async def test_tap_a_hand_send_it_and_confirm_it_in_the_group(
    seated_table: Table, page_server: str, browser: Any
) -> None:
    page = await open_page(browser, url_for(seated_table, page_server, "bob"))
    assert await page.text_content("#submit") == "发到群里"
    await page.click('#palette [data-tile="4m"]')  # a wrong tap ...
    assert await page.text_content("#count") == "1 / 14"
    await page.click('[data-action="undo"]')  # ... taken back
    assert await page.text_content("#count") == "0 / 14"
    await tap_hand(page)
    await page.wait_for_function("() => document.querySelector('#score-text').textContent.includes('清一色')")
    text = await page.text_content("#score-text")
    assert "七对 15" in text and "南 +120" in text
    SCREENS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SCREENS / "picker-360-light.png"), full_page=True)
    before = len(seated_table.replies())
    await page.click('[data-action="submit"]')
    await page.wait_for_selector("body[data-submitted=sent]")
    preview = seated_table.replies()[before]
    assert preview.buttons == ("✅ 确认", "✖ 取消") and "南 Bob 自摸 · 40花" in preview.text
    await seated_table.press("cat", "✅ 确认")
    ledger = seated_table.app.bot_data["ledger"]
    [row] = ledger.read(books.ledger_rows, groups.chat_state(ledger, seated_table.chat_id).session.id)
    assert row.running == {"E": -40, "S": 120, "W": -40, "N": -40}  # bob (南) is paid by the three others
    assert "南 +120" in seated_table.message(preview.message_id).text


async def test_dark_theme_a_pung_from_west_and_a_discard_win(
    seated_table: Table, page_server: str, browser: Any
) -> None:
    page = await open_page(browser, url_for(seated_table, page_server, "bob"), dark=True)
    await page.click('[data-action="mode-pung"]')
    await page.click('[data-action="from-W"]')
    await page.click('#palette [data-tile="5p"]')
    assert "碰 · 西" in await page.text_content("#melds")
    await page.click('[data-action="mode-concealed"]')
    for tile in ["1m", "2m", "3m", "4m", "5m", "6m", "7s", "8s", "9s", "9s", "9s"]:
        await page.click(f'#palette [data-tile="{tile}"]')
    for flower in ["春", "夏", "秋", "冬"]:
        await page.click(f'#flower-palette [data-tile="{flower}"]')
    await page.click('[data-action="how-discard"]')
    await page.click('[data-action="by-W"]')
    # 底 5 + 硬花 4 = 9 花 (a suited 碰 adds none); on 西's discard 西 alone pays.
    await page.wait_for_function("() => document.querySelector('#score-text').textContent.includes('西 −9')")
    assert "南 +9" in await page.text_content("#score-text")
    background = await page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert background != "rgb(255, 255, 255)"
    SCREENS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SCREENS / "picker-360-dark.png"), full_page=True)


async def test_tampered_init_data_is_refused_on_the_page(
    seated_table: Table, page_server: str, browser: Any
) -> None:
    url = url_for(seated_table, page_server, "bob")
    base, fragment = url.split("#", 1)
    data = parse_qs(fragment)["tgWebAppData"][0].replace("Bob", "Ann")
    page = await open_page(browser, f"{base}#tgWebAppData={quote(data, safe='')}")
    assert await page.get_attribute("main", "data-state") == "refused"
    assert "签名不对" in await page.text_content("#error")
    assert not await page.is_visible("footer")  # no blank buttons on a refused page
    assert seated_table.replies()[-1].buttons != ("✅ 确认", "✖ 取消")


async def test_another_tables_token_is_refused_on_the_page(
    seated_table: Table, transport: InProcessBotAPI, page_server: str, browser: Any
) -> None:
    other = -1002000000002
    transport.add_group(other, "隔壁桌", creator="zoe")
    elsewhere = Table(seated_table.app, transport, other)
    await elsewhere.say("eve", "/newgame 宿州 2")
    page = await open_page(browser, url_for(seated_table, page_server, "bob", chat_id=other))
    assert await page.get_attribute("main", "data-state") == "refused"
    assert "入座" in await page.text_content("#error")


async def test_from_inline_mode_the_picker_sends_the_hand_back_as_an_inline_query(
    table: Table, browser: Any
) -> None:
    """Opened from inline mode's button (no table, no start parameter), inside Telegram (its WebApp
    object stood in for, with a dark theme): the picker scores by the rule set chosen on the page and
    sends the hand back through switchInlineQuery, as text that inline mode scores the same way."""
    server = LocalServer(build_web(table.app, table.app.bot_data["settings"], console=True))
    page_url = await server.start()
    try:
        init = picker_url(page_url, table.app.bot.token, table.user("eve"), None).split("tgWebAppData=")[1]
        init = init.split("&")[0]
        context = await browser.new_context(viewport={"width": 360, "height": 780})
        await context.add_init_script(
            "window.Telegram = {WebApp: {initData: decodeURIComponent('" + init + "'),"
            " themeParams: {bg_color: '#101820', text_color: '#eeeeee', button_color: '#aa3322'},"
            " ready() {}, expand() {}, onEvent() {}, switchInlineQuery(q) { window.sentQuery = q; }}};"
        )
        page = await context.new_page()
        await page.goto(page_url)
        await page.wait_for_selector("main[data-state=ready]")
        assert await page.text_content("#submit") == "发到聊天"
        background = await page.evaluate("() => getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(16, 24, 32)"  # Telegram's bg_color
        await page.click('[data-action="rules-suzhou-anhui"]')
        for tile in HAND:
            await page.click(f'#palette [data-tile="{tile}"]')
        assert await page.locator('#flower-palette [data-tile="百搭"]').count() == 0  # not a 宿州 flower
        for flower in ["中", "发", "春", "梅"]:
            await page.click(f'#flower-palette [data-tile="{flower}"]')
        await page.wait_for_function(
            "() => document.querySelector('#score-text').textContent.includes('南 +')"
        )
        await page.click('[data-action="submit"]')
        sent = await page.evaluate("() => window.sentQuery")
        assert sent == "宿州 11223355778899p 中发春梅 自摸"
        from bot.handlers.inline import inline_answer

        [(_id, title, _description, _body)] = inline_answer(sent, "zh-Hans")
        assert title.startswith("宿州麻将")
    finally:
        await server.stop()


async def test_a_traditional_group_sees_traditional_tile_faces(
    seated_table: Table, page_server: str, browser: Any
) -> None:
    await seated_table.say("zoe", "/lang zh-hant")
    page = await open_page(browser, url_for(seated_table, page_server, "bob"))
    assert await page.get_attribute('#palette [data-tile="5m"]', "aria-label") == "五萬"
    assert await page.get_attribute('#palette [data-tile="7s"]', "aria-label") == "七條"
    assert await page.get_attribute('#flower-palette [data-tile="发"]', "aria-label") == "發"
    faces = await page.locator('#palette [data-tile="5m"] text').all_text_contents()
    assert faces == ["五", "萬"]


# ---------------------------------------------------------------- flags, 一炮多响, the inline round trip

PHONE = {"width": 360, "height": 740}
PUNG_HAND = ["1m", "2m", "3m", "4m", "5m", "6m", "5p", "5p", "5p", "7s", "8s", "9s", "9s", "9s"]
FLAG_WORDS = {
    "after_kong": "杠开",
    "after_flower": "花开",
    "last_tile": "海底",
    "heavenly": "天胡",
    "earthly": "地胡",
}
AMOUNT = re.compile(r"([东南西北]) ([+−-]\d+)")
SEAT_OF = {"东": "E", "南": "S", "西": "W", "北": "N"}


async def open_phone(browser: Any, url: str) -> Any:
    context = await browser.new_context(viewport=PHONE, device_scale_factor=2)
    page = await context.new_page()
    await page.goto(url)
    await page.wait_for_selector("main[data-state=ready]")
    return page


async def settled(page: Any) -> dict[str, int] | None:
    """The page's amounts by seat once the hand as it stands is scored (None: it could not be)."""
    await page.wait_for_function(
        "() => document.querySelector('#score-text').dataset.score !== ''"
        " || document.querySelector('#error').textContent !== ''"
    )
    score = await page.get_attribute("#score-text", "data-score")
    return json.loads(score) if score else None


def calc_amounts(text: str) -> dict[str, int] | None:
    """The amounts of /calc's answer by seat (None: /calc refused the hand)."""
    lines = [line for line in text.splitlines() if "每花" in line or "底分" in line]
    if not lines and "✖" not in text:
        return None
    found = {SEAT_OF[w]: int(a.replace("−", "-")) for w, a in AMOUNT.findall(lines[-1] if lines else "")}
    return {seat: found.get(seat, 0) for seat in "ESWN"}


async def test_each_flag_scores_on_the_page_as_calc_scores_it(
    seated_table: Table, page_server: str, browser: Any
) -> None:
    """At 360×740: 南 self-draws 123456m555p789s99s with 春夏秋; each flag toggled on the page
    (data-action="flag-<name>") gives the amounts /calc gives with the same word, and toggled off again
    the hand's own (海底 adds 5花: 13 → 18)."""
    page = await open_phone(browser, url_for(seated_table, page_server, "bob"))
    for tile in PUNG_HAND:
        await page.click(f'#palette [data-tile="{tile}"]')
    for flower in ["春", "夏", "秋"]:
        await page.click(f'#flower-palette [data-tile="{flower}"]')
    plain = await settled(page)
    typed = "123456m555p789s99s 春夏秋"
    said = await seated_table.say("bob", f"/calc 南 自摸 {typed}")
    assert plain == calc_amounts(said.texts[-1]) and plain == {"E": -13, "S": 39, "W": -13, "N": -13}
    assert await page.locator('[data-action="flag-shangpai"]').count() == 0  # 上牌 is 宿州's
    results = {}
    for flag, word in FLAG_WORDS.items():
        await page.click(f'[data-action="flag-{flag}"]')
        assert await page.get_attribute(f'[data-action="flag-{flag}"]', "aria-pressed") == "true"
        on_page = await settled(page)
        said = await seated_table.say("bob", f"/calc 南 自摸 {typed} {word}")
        assert on_page == calc_amounts(said.texts[-1]), (flag, said.texts[-1])
        results[flag] = on_page
        await page.click(f'[data-action="flag-{flag}"]')
        assert await settled(page) == plain
    assert results["last_tile"] == results["after_flower"] == {"E": -18, "S": 54, "W": -18, "N": -18}
    assert results["after_kong"] is None and results["heavenly"] is None  # no kong; 南 does not deal
    # 杠开 on a hand with a kong: (7777m) 456m789p12399s
    await page.click('[data-action="clear"]')
    await page.click('[data-action="mode-concealed_kong"]')
    await page.click('#palette [data-tile="7m"]')
    await page.click('[data-action="mode-concealed"]')
    for tile in ["4m", "5m", "6m", "7p", "8p", "9p", "1s", "2s", "3s", "9s", "9s"]:
        await page.click(f'#palette [data-tile="{tile}"]')
    for flower in ["春", "夏", "秋"]:
        await page.click(f'#flower-palette [data-tile="{flower}"]')
    kong_plain = await settled(page)
    await page.click('[data-action="flag-after_kong"]')
    kong_after = await settled(page)
    typed = "(7777m) 456m789p12399s 春夏秋"
    assert kong_plain == calc_amounts((await seated_table.say("bob", f"/calc 南 自摸 {typed}")).texts[-1])
    said = await seated_table.say("bob", f"/calc 南 自摸 {typed} 杠开")
    assert kong_after == calc_amounts(said.texts[-1]) and kong_after is not None and kong_plain is not None
    assert kong_after["S"] > kong_plain["S"]
    # the main tap targets are at least 44 CSS px each way at 360 px wide
    sizes = await page.evaluate(
        "() => [...document.querySelectorAll('#palette .tile, #flower-palette .tile, #hand .tile, .chip')]"
        ".filter((b) => b.offsetParent).map((b) => [b.dataset.tile || b.dataset.action,"
        " b.getBoundingClientRect().width, b.getBoundingClientRect().height])"
    )
    small = [(name, w, h) for name, w, h in sizes if w < 44 or h < 44]
    assert sizes and not small, small
    # the score stays in sight above the footer, its total line included
    box = await page.locator("#score").bounding_box()
    footer = await page.locator("footer").bounding_box()
    assert box["y"] + box["height"] <= footer["y"] + 1 and box["y"] < PHONE["height"]
    SCREENS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SCREENS / "picker-360-flags.png"))


async def test_two_winners_on_one_discard_are_recorded_together(
    seated_table: Table, page_server: str, browser: Any
) -> None:
    """一炮多响 on the page: 北 discards, 南 (bob) and 西 win with their own tiles; Confirm records both."""
    page = await open_phone(browser, url_for(seated_table, page_server, "bob"))
    await page.click('[data-action="how-discard"]')
    await page.click('[data-action="by-N"]')
    for tile in HAND:
        await page.click(f'#palette [data-tile="{tile}"]')
    await page.click('[data-action="win-add"]')
    await page.click('[data-action="winner-W"]')
    assert await page.text_content("#count") == "0 / 14"  # the second winner's own tiles
    for tile in PUNG_HAND:
        await page.click(f'#palette [data-tile="{tile}"]')
    amounts = await settled(page)
    assert amounts is not None and amounts["S"] > 0 and amounts["W"] > 0 and amounts["N"] < 0
    SCREENS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SCREENS / "picker-360-two-winners.png"))
    before = len(seated_table.replies())
    await page.click('[data-action="submit"]')
    await page.wait_for_selector("body[data-submitted=sent]")
    assert seated_table.replies()[before].buttons == ("✅ 确认", "✖ 取消")
    await seated_table.press("cat", "✅ 确认")
    ledger = seated_table.app.bot_data["ledger"]
    [row] = ledger.read(books.ledger_rows, groups.chat_state(ledger, seated_table.chat_id).session.id)
    assert row.running == amounts
    assert [win["winner"] for win in row.hand.entry["wins"]] == ["S", "W"]


async def test_the_inline_pickers_hand_previews_in_the_chat_with_the_pages_figures(
    table: Table, browser: Any
) -> None:
    """From inline mode: a 宿州 hand won by 东 on 西's discard with 混子 5p, 海底 off and 上牌 on: the text
    sent back is read by inline mode into the same hand, and the chat shows the page's figures."""
    server = LocalServer(build_web(table.app, table.app.bot_data["settings"], console=True))
    page_url = await server.start()
    try:
        init = picker_url(page_url, table.app.bot.token, table.user("eve"), None).split("tgWebAppData=")[1]
        init = init.split("&")[0]
        context = await browser.new_context(viewport=PHONE)
        await context.add_init_script(
            "window.Telegram = {WebApp: {initData: decodeURIComponent('" + init + "'),"
            " ready() {}, expand() {}, onEvent() {}, switchInlineQuery(q) { window.sentQuery = q; }}};"
        )
        page = await context.new_page()
        await page.goto(page_url)
        await page.wait_for_selector("main[data-state=ready]")
        await page.click('[data-action="rules-suzhou-anhui"]')
        await page.click('[data-action="winner-E"]')
        await page.click('[data-action="how-discard"]')
        await page.click('[data-action="by-W"]')
        for tile in ["1m", "2m", "3m", "4m", "5m", "6m", "7s", "8s", "9s", "1p", "1p", "2s", "4s", "3s"]:
            await page.click(f'#palette [data-tile="{tile}"]')
        await page.click('#flower-palette [data-tile="春"]')
        await page.select_option("#wild", "5p")
        await page.click('[data-action="flag-shangpai"]')
        amounts = await settled(page)
        assert amounts is not None
        shown = await page.text_content("#score-text")
        await page.click('[data-action="submit"]')
        sent = await page.evaluate("() => window.sentQuery")
        assert sent.startswith("宿州 东 ") and "冲 西" in sent and "混子 5p" in sent and "上牌" in sent
        from bot.handlers.inline import inline_answer

        [(_id, title, _description, body)] = inline_answer(sent, "zh-Hans")
        assert title.startswith("宿州麻将") and shown in body
    finally:
        await server.stop()


async def test_a_lost_connection_is_said_with_a_retry_and_no_submit(
    seated_table: Table, page_server: str, browser: Any
) -> None:
    """The score request fails (a proxy's 502 page): the page says the connection failed, offers 重试 and
    keeps 发到群里 disabled; 重试 once the server answers scores the hand. The hint says what a tap on a
    hand tile does, and the winning tile is named as such for a screen reader."""
    page = await open_phone(browser, url_for(seated_table, page_server, "bob"))
    assert "点牌放进" in await page.text_content("#hand-hint")

    async def bad_gateway(route: Any) -> None:
        await route.fulfill(status=502, body="<html>502 Bad Gateway</html>", content_type="text/html")

    await page.route("**/api/score", bad_gateway)
    for tile in HAND:
        await page.click(f'#palette [data-tile="{tile}"]')
    await page.wait_for_selector("#retry:not([hidden])")
    assert "连不上" in await page.text_content("#error") and "502" not in await page.text_content("#error")
    assert await page.is_disabled("#submit")
    assert await page.get_attribute("#score-text", "data-score") == ""
    assert "标成胡的那张" in await page.text_content("#hand-hint")
    assert (await page.get_attribute("#hand .tile.winning", "aria-label")).endswith("胡的那张")
    await page.unroute("**/api/score")
    await page.click('[data-action="retry"]')
    assert await settled(page) == {"E": -30, "S": 90, "W": -30, "N": -30}
    assert await page.is_enabled("#submit")


async def test_at_a_suzhou_anhui_table_shangpai_and_the_wild_score_as_calc(
    table: Table, browser: Any
) -> None:
    """A 宿州 table: the page offers 上牌 (data-action="flag-shangpai"); 南's self-draw with it, and with a
    混子, gives /calc's amounts for the same words."""
    await seat_four(table, rules="宿州")
    server = LocalServer(build_web(table.app, table.app.bot_data["settings"], console=True))
    page_url = await server.start()
    try:
        page = await open_phone(browser, url_for(table, page_url, "bob"))
        for tile in PUNG_HAND:
            await page.click(f'#palette [data-tile="{tile}"]')
        for flower in ["春", "夏"]:
            await page.click(f'#flower-palette [data-tile="{flower}"]')
        typed = "123456m555p789s99s 春夏"
        plain = await settled(page)
        assert plain == calc_amounts((await table.say("bob", f"/calc 南 自摸 {typed}")).texts[-1])
        await page.click('[data-action="flag-shangpai"]')
        doubled = await settled(page)
        assert doubled == calc_amounts((await table.say("bob", f"/calc 南 自摸 {typed} 上牌")).texts[-1])
        assert plain is not None and doubled is not None and doubled["S"] > plain["S"]
        await page.select_option("#wild", "1m")
        wild = await settled(page)
        said = await table.say("bob", f"/calc 南 自摸 {typed} 上牌 混子 1m")
        assert wild == calc_amounts(said.texts[-1])
    finally:
        await server.stop()


async def test_songgang_is_offered_where_the_table_says_any(
    seated_table: Table, page_server: str, browser: Any
) -> None:
    """`/rules songgang any`: the page offers 送杠; 南's self-draw after 西's fed kong is paid by 西 alone,
    as /calc says for `送杠 西`."""
    page = await open_phone(browser, url_for(seated_table, page_server, "bob"))
    assert await page.locator('[data-action="how-songgang"]').count() == 0  # the default: replacement
    await seated_table.say("ann", "/rules songgang any")
    page = await open_phone(browser, url_for(seated_table, page_server, "bob"))
    await page.click('[data-action="mode-kong"]')
    await page.click('[data-action="from-W"]')
    await page.click('#palette [data-tile="7m"]')
    await page.click('[data-action="mode-concealed"]')
    for tile in ["4m", "5m", "6m", "7p", "8p", "9p", "1s", "2s", "3s", "9s", "9s"]:
        await page.click(f'#palette [data-tile="{tile}"]')
    await page.click('[data-action="how-songgang"]')
    await page.click('[data-action="by-W"]')
    on_page = await settled(page)
    said = await seated_table.say("bob", "/calc 南 送杠 西 [7777m:direct:W] 456m789p12399s")
    assert on_page == calc_amounts(said.texts[-1]) and on_page is not None
    assert on_page["S"] == -on_page["W"] and on_page["E"] == on_page["N"] == 0


async def test_a_meld_mode_is_for_one_meld_then_tiles_go_into_the_hand(
    seated_table: Table, page_server: str, browser: Any
) -> None:
    """碰, 北, then 七筒: a 碰 of 北 and one concealed 七筒 (4 tiles), not a second 碰; the mode is back on
    the hand's tiles."""
    page = await open_phone(browser, url_for(seated_table, page_server, "bob"))
    await page.click('[data-action="mode-pung"]')
    await page.click('#palette [data-tile="4z"]')
    await page.click('#palette [data-tile="7p"]')
    assert await page.text_content("#count") == "4 / 14"
    assert await page.locator("#melds .meld").count() == 1
    assert (
        await page.locator("#hand .tile").all()
        and await page.get_attribute("#hand .tile", "data-tile") == "7p"
    )
    assert await page.get_attribute('[data-action="mode-concealed"]', "aria-pressed") == "true"


async def in_view(page: Any, selector: str) -> bool:
    """Whether the element's top is inside the visible part of the scrolling controls."""
    return await page.evaluate(
        "(sel) => { const c = document.querySelector('#controls').getBoundingClientRect();"
        " const e = document.querySelector(sel).getBoundingClientRect();"
        " return e.top >= c.top - 1 && e.top < c.bottom; }",
        selector,
    )


async def test_a_second_winner_is_shown_and_the_score_hides_no_control(
    seated_table: Table, page_server: str, browser: Any
) -> None:
    """一炮多响: after "再加一家" the new winner's (empty) hand is in view, not the bottom of the page; with
    two scored winners the score box sits below every control, over none of them."""
    page = await open_phone(browser, url_for(seated_table, page_server, "bob"))
    await page.click('[data-action="how-discard"]')
    await page.click('[data-action="by-N"]')
    for tile in HAND:
        await page.click(f'#palette [data-tile="{tile}"]')
    await page.click('[data-action="win-add"]')
    assert await in_view(page, "#hand-area") and await page.text_content("#count") == "0 / 14"
    for tile in PUNG_HAND:
        await page.click(f'#palette [data-tile="{tile}"]')
    for flower in ["春", "夏"]:
        await page.click(f'#flower-palette [data-tile="{flower}"]')
    assert await settled(page) is not None
    score = await page.locator("#score").bounding_box()
    controls = await page.locator("#controls").bounding_box()
    footer = await page.locator("footer").bounding_box()
    assert controls["y"] + controls["height"] <= score["y"] + 1
    assert (
        score["y"] + score["height"] <= footer["y"] + 1
        and footer["y"] + footer["height"] <= PHONE["height"] + 1
    )
