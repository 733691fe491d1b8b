"""The picture card of a season's standings (/season): each person's money as a bar, best on top, with
their money and nights beside it; matplotlib Agg with the chart's CJK font, drawn in a worker thread."""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass

from bot.summary.chart import _RENDER_LOCK, font_families
from bot.text import shorten

NAME = 10  # characters of a name on the card
GAIN, LOSS = "#2e7d32", "#c62828"


@dataclass(frozen=True, slots=True)
class CardRow:
    """One person's bar: the name, the money, and the text beside the bar ("+150 · 2 晚")."""

    name: str
    net: int
    label: str


@dataclass(frozen=True, slots=True)
class SeasonCard:
    """What the card shows: a title, a subtitle, one row per person, best first."""

    title: str
    subtitle: str
    rows: tuple[CardRow, ...]


def render_card(card: SeasonCard, *, dpi: int = 150) -> bytes:
    """The card as a PNG, sized for a phone (about 1000 px wide), its height growing with the rows."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    rows = card.rows
    height = 1.6 + 0.42 * max(1, len(rows))
    with _RENDER_LOCK, matplotlib.rc_context({"font.family": font_families(), "axes.unicode_minus": False}):
        figure = Figure(figsize=(6.6, height), dpi=dpi, layout="constrained")
        FigureCanvasAgg(figure)
        axes = figure.add_subplot()
        ys = list(range(len(rows)))[::-1]
        nets = [row.net for row in rows]
        axes.barh(ys, nets, color=[GAIN if n >= 0 else LOSS for n in nets], height=0.62)
        axes.set_yticks(ys, [shorten(row.name, NAME) for row in rows], fontsize=12)
        reach = max([abs(n) for n in nets] + [1])
        axes.set_xlim(-reach * 1.9, reach * 1.9)
        for y, row in zip(ys, rows, strict=True):
            x = row.net + (reach * 0.04 if row.net >= 0 else -reach * 0.04)
            axes.text(x, y, row.label, va="center", ha="left" if row.net >= 0 else "right", fontsize=11)
        axes.axvline(0, color="#888888", linewidth=0.8)
        axes.set_xticks([])
        for side in ("top", "right", "bottom"):
            axes.spines[side].set_visible(False)
        axes.set_title(f"{card.title}\n{card.subtitle}", fontsize=14)
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png")
    return buffer.getvalue()


async def draw_card(card: SeasonCard) -> bytes:
    """`render_card` in a worker thread: the event loop goes on answering other tables while it draws."""
    return await asyncio.to_thread(render_card, card)
