"""The running-total chart: a real PNG, drawn with a CJK font that has every glyph of the players' names."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from jobs_game import Table

from bot.summary import build_report, chart_data
from bot.summary.chart import (
    PNG_SIGNATURE,
    ChartData,
    ChartSeries,
    CjkFont,
    find_cjk_font,
    render_chart,
)
from tests.bot.summary.pictures import png_size

NAMES = ["张三", "李四", "王五", "發財", "老鼠精", "Ann"]


def missing_glyphs(font_path: Path, text: str) -> set[str]:
    """The characters of `text` (spaces aside) the font file has no glyph for, by its cmap as matplotlib's
    own FreeType reads it (a .ttc collection: its first face; the CJK faces share their glyphs)."""
    from matplotlib.ft2font import FT2Font

    cmap = FT2Font(str(font_path)).get_charmap()
    return {ch for ch in text if not ch.isspace() and ord(ch) not in cmap}


def cjk_font() -> CjkFont:
    font = find_cjk_font()
    if font is None:
        pytest.fail("no CJK font installed: install fonts-noto-cjk (.ci/run and the Dockerfile do)")
    return font


def test_the_chart_font_has_the_glyphs_of_chinese_names() -> None:
    font = cjk_font()
    assert "CJK" in font.family or "Han" in font.family
    assert missing_glyphs(font.path, "".join(NAMES) + "东南西北局累计第场") == set()
    # the check is real: a character outside the font is reported
    assert missing_glyphs(font.path, "张\U0001f600") == {"\U0001f600"}


def test_matplotlib_resolves_the_names_to_that_font() -> None:
    from matplotlib import font_manager

    font = cjk_font()
    properties = font_manager.FontProperties(family=[font.family])
    resolved = font_manager.findfont(properties, fallback_to_default=False)
    assert missing_glyphs(Path(resolved), "".join(NAMES)) == set()


def test_a_font_installed_after_matplotlib_cached_its_list_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """matplotlib never rescans by itself: a host that ran it before `apt-get install fonts-noto-cjk` has
    a cached font list without the CJK fonts. The chart adds what the system has and the list lacks."""
    from matplotlib import font_manager

    installed = cjk_font()
    stale = [e for e in font_manager.fontManager.ttflist if "CJK" not in e.name and "Han" not in e.name]
    monkeypatch.setattr(font_manager.fontManager, "ttflist", stale)  # the list of before the install
    find_cjk_font.cache_clear()
    try:
        found = find_cjk_font()
    finally:
        find_cjk_font.cache_clear()
    assert found is not None and "CJK" in found.family
    assert missing_glyphs(found.path, "".join(NAMES)) == set()
    assert found.path.parent == installed.path.parent


def test_session_chart_is_a_png_without_missing_glyphs(table: Table) -> None:
    report = build_report(table.ledger, table.session_id)
    data = chart_data(report, "zh-Hans")
    assert [s.name for s in data.series] == ["东 张三", "南 李四", "西 王五", "北 Ann"]
    assert [s.totals[-1] for s in data.series] == [line.net for line in report.players]
    # one point per hand: the closing 茶水 adjustment moves the last point, it is not one of its own
    assert data.hands == tuple(str(row.hand.number) for row in report.rows if row.hand.kind != "adjust")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        png = render_chart(data)
    assert not [w for w in caught if "missing from" in str(w.message) or "Glyph" in str(w.message)]
    assert png[:8] == PNG_SIGNATURE
    assert png_size(png) == (960, 540)
    assert len(png) > 10_000  # lines, labels and legend, not a blank canvas


def test_long_sessions_and_bad_series() -> None:
    hands = tuple(str(i) for i in range(1, 201))
    png = render_chart(ChartData("第9场", "局", "累计", hands, (ChartSeries("发财", tuple(range(200))),)))
    assert png_size(png) == (960, 540)
    with pytest.raises(ValueError, match="has 2 totals for 3 hands"):
        ChartData("t", "x", "y", ("1", "2", "3"), (ChartSeries("a", (1, 2)),))


def test_long_names_are_cut_in_the_legend_and_the_title_stays_readable() -> None:
    from bot.summary.chart import LEGEND_NAME, TITLE
    from bot.text import shorten

    name = "Bartholomew the Magnificent of the Long Table"
    assert len(shorten(name, LEGEND_NAME)) == LEGEND_NAME and shorten(name, LEGEND_NAME).endswith("…")
    assert shorten("老王", LEGEND_NAME) == "老王"
    png = render_chart(
        ChartData("第1场 " * 40, "局", "分", ("1",), (ChartSeries(name, (3,)), ChartSeries("b", (-3,))))
    )
    assert png[:8] == PNG_SIGNATURE and len(shorten("第1场 " * 40, TITLE)) == TITLE
