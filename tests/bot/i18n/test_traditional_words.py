"""A zh-Hant group in its own script and words (issue 28), through the real Application: the 混子 picker's
tile faces (五萬, 五條, never 万 条), a suit's faces a row of at most five, 使用者名稱 and 指令 in the
replies, and the console's lines about pins in the group's language."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from harness import Table, seat_four

from bot.console import ConsolePrinter, group_language
from bot.i18n import catalog


async def traditional(table: Table, rules: str = "苏州") -> Table:
    await table.say("zoe", "/lang zh-hant")
    return await seat_four(table, rules=rules)


async def test_the_wild_picker_shows_traditional_faces_five_a_row(table: Table) -> None:
    await traditional(table, "宿州")
    await table.say("ann", "/hu")
    for label in ("南 Bob", "自摸", "3", "牌型 ▸"):
        await table.press("ann", label)
    await table.press("ann", "混子：無 ▸")
    rows = table.replies()[-1].rows
    faces = [label for row in rows for label in row]
    assert "五萬" in faces and "五條" in faces and "五筒" in faces, faces
    assert not any(("万" in f or "条" in f) for f in faces)
    assert max(len(row) for row in rows) <= 5
    assert rows[0] == ["一萬", "二萬", "三萬", "四萬", "五萬"] and rows[1] == ["六萬", "七萬", "八萬", "九萬"]


def test_zh_hant_says_shiyongzhe_and_zhiling() -> None:
    texts = "\n".join(catalog("zh-Hant").values())
    assert "用戶名" not in texts and "命令" not in texts and "群組" not in texts
    assert "使用者名稱" in texts and "指令" in texts


async def test_an_unknown_command_in_zh_hant_says_zhiling(table: Table) -> None:
    await table.say("zoe", "/lang zh-hant")
    turn = await table.say("ann", "/hulala")
    assert turn.text == "沒有 /hulala 這個指令。發 /help 看所有指令。"


async def test_the_console_prints_pins_in_the_groups_language(table: Table, tmp_path: Path) -> None:
    out = io.StringIO()
    printer = ConsolePrinter(out, tmp_path, table.chat_id, lambda: group_language(table.app))
    unsubscribe = table.state.subscribe(printer)
    try:
        await traditional(table)
    finally:
        unsubscribe()
    pins = [line for line in out.getvalue().splitlines() if line.startswith("bot 📌")]
    assert pins and all(line.endswith("已置頂") for line in pins), pins


@pytest.mark.slow
async def test_the_picker_gets_its_tile_faces_in_the_groups_script(seated_table: Table) -> None:
    from tests.bot.webapp.test_webapp_api import client, init_data, token_of

    table = seated_table
    for lang, (man, tiao, east, fa) in {
        "zh-hant": "萬條東發",
        "zh-hans": "万条东发",
        "en": "万条东发",
    }.items():
        await table.say("zoe", f"/lang {lang}")
        async with client(table) as http:
            auth = f"tma {init_data(table, 'bob', token_of(table))}"
            faces = (await http.get("/api/table", headers={"Authorization": auth})).json()["faces"]
        assert faces["suits"] == {"m": man, "p": "筒", "s": tiao}, lang
        assert faces["honours"][0] == east and faces["honours"][5] == fa
        assert faces["flowers"]["发"] == fa and faces["flowers"]["东"] == east
