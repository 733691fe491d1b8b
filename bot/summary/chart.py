"""The PNG chart of each player's running total by hand (matplotlib Agg, a CJK font, imported lazily).

matplotlib is imported inside the functions, never at bot import time: it costs about a second and is only
needed when a session ends or someone asks for the chart.
"""

from __future__ import annotations

import asyncio
import io
import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from bot.text import shorten

log = logging.getLogger(__name__)

# Preferred CJK families, best first: Simplified Chinese forms, then the other Noto CJK regions, then
# other common CJK fonts a host may have. The first one installed is used for every label.
CJK_FAMILIES = (
    "Noto Sans CJK SC",
    "Noto Sans CJK TC",
    "Noto Sans CJK HK",
    "Noto Sans CJK JP",
    "Noto Sans CJK KR",
    "Noto Sans SC",
    "Source Han Sans SC",
    "WenQuanYi Zen Hei",
    "WenQuanYi Micro Hei",
    "Droid Sans Fallback",
)
FALLBACK_FAMILY = "DejaVu Sans"  # matplotlib's own font, for Latin text and anything the CJK font lacks

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

LEGEND_NAME = 12  # characters of a name shown in the legend (the CSV has the full name)
TITLE = 60  # characters of the title

# rc_context changes matplotlib's global rcParams: charts drawn in threads (`draw`) take turns.
_RENDER_LOCK = threading.Lock()


@dataclass(frozen=True, slots=True)
class ChartSeries:
    """One player's line: the name shown in the legend and the running total after each hand."""

    name: str
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ChartData:
    """Everything the chart shows: a title, x labels (hand numbers) and one series per player.

    Each series has one total per label; the chart adds the starting point 0 before the first hand.
    """

    title: str
    xlabel: str
    ylabel: str
    hands: tuple[str, ...]
    series: tuple[ChartSeries, ...]

    def __post_init__(self) -> None:
        for line in self.series:
            if len(line.totals) != len(self.hands):
                raise ValueError(
                    f"chart series {line.name!r} has {len(line.totals)} totals for {len(self.hands)} hands"
                )


@dataclass(frozen=True, slots=True)
class CjkFont:
    """The CJK font the chart uses: its family name and file (a .ttc collection or a single font)."""

    family: str
    path: Path


@cache
def find_cjk_font() -> CjkFont | None:
    """The installed CJK font for names on the chart, by matplotlib's font list; None when none exists.

    fonts-noto-cjk (Debian) provides Noto Sans CJK SC; .ci/run and the Dockerfile install it. matplotlib
    keeps its font list in a cache file built on first use and never rescans by itself: fonts installed
    after that (an `apt-get install` on a host where matplotlib already ran) are added here, once.
    """
    from matplotlib import font_manager

    font = _pick_cjk(font_manager.fontManager.ttflist)
    if font is None and _add_fonts_installed_since_the_cache(font_manager):
        font = _pick_cjk(font_manager.fontManager.ttflist)
    if font is None:
        log.warning("no CJK font (install fonts-noto-cjk): Chinese names on the chart will show as boxes")
    return font


def _pick_cjk(entries: Sequence[Any]) -> CjkFont | None:
    """The first family of CJK_FAMILIES among matplotlib's font entries, at its most regular weight."""
    installed: dict[str, list[Any]] = {}
    for entry in entries:
        installed.setdefault(entry.name, []).append(entry)
    for family in CJK_FAMILIES:
        candidates = installed.get(family)
        if candidates:
            # The regular weight reads best on a small chart; any weight has the same glyphs.
            entry = min(candidates, key=lambda e: (abs(_weight(e.weight) - 400), e.style != "normal"))
            return CjkFont(family=family, path=Path(entry.fname))
    return None


def _add_fonts_installed_since_the_cache(font_manager: Any) -> bool:
    """Give matplotlib the system fonts its cached list lacks; True if there were any."""
    known = {entry.fname for entry in font_manager.fontManager.ttflist}
    added = False
    for path in font_manager.findSystemFonts():
        if path in known:
            continue
        try:
            font_manager.fontManager.addfont(path)
        except Exception as exc:  # an unreadable font file: matplotlib's own scan skips those too
            log.debug("font %s not added: %s", path, exc)
            continue
        added = True
    return added


def _weight(value: object) -> int:
    if isinstance(value, int):
        return value
    names = {"light": 300, "normal": 400, "regular": 400, "medium": 500, "bold": 700, "heavy": 900}
    return names.get(str(value).lower(), 400)


def font_families() -> list[str]:
    """The font family list given to matplotlib: the CJK font first, then the Latin fallback."""
    cjk = find_cjk_font()
    return [cjk.family, FALLBACK_FAMILY] if cjk else [FALLBACK_FAMILY]


def render_chart(data: ChartData, *, width: float = 8.0, height: float = 4.5, dpi: int = 120) -> bytes:
    """Draw the running totals as a PNG and return its bytes.

    >>> png = render_chart(ChartData("第1场", "局", "分", ("1", "2"),
    ...     (ChartSeries("东风", (3, -1)), ChartSeries("Bob", (-3, 1)))))
    >>> png[:8] == PNG_SIGNATURE
    True
    """
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    families = font_families()
    # A Figure with its own canvas, not pyplot's figure manager; the lock covers the rcParams change.
    with _RENDER_LOCK, matplotlib.rc_context({"font.family": families, "axes.unicode_minus": False}):
        figure = Figure(figsize=(width, height), dpi=dpi, layout="constrained")
        FigureCanvasAgg(figure)
        axes = figure.add_subplot()
        xs = list(range(len(data.hands) + 1))
        for line in data.series:
            axes.plot(
                xs,
                [0, *line.totals],
                marker="o" if len(xs) <= 40 else None,
                markersize=3,
                linewidth=1.8,
                label=shorten(line.name, LEGEND_NAME),
            )
        axes.axhline(0, color="#888888", linewidth=0.8)
        axes.set_title(shorten(data.title, TITLE))
        axes.set_xlabel(data.xlabel)
        axes.set_ylabel(data.ylabel)
        step = max(1, -(-len(xs) // 20))  # at most about 20 labelled ticks
        labels = ["0", *data.hands]
        axes.set_xticks(xs[::step], labels[::step])
        axes.yaxis.set_major_locator(MaxNLocator(integer=True))
        axes.grid(True, alpha=0.3)
        if data.series:
            axes.legend(loc="best", fontsize="small")
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png")
    return buffer.getvalue()


async def draw(data: ChartData) -> bytes:
    """The one path every chart takes (the session's, /history's, /stats'): `render_chart` in a worker
    thread, so the event loop goes on answering other tables while matplotlib draws."""
    return await asyncio.to_thread(render_chart, data)
