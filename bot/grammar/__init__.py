"""The recording grammar: typed /hu, /escape, /draw, /adjust and /edit arguments → ledger entries (pure).

``parse_hu(text, resolve)`` reads ``<winner> <how> [details]`` into the entry (the partial docs/rules.md §4
request ``{"event", "discarder", "escaper", "wins"}``); ``resolve(word) -> seat | None`` names players.

- how: 自摸 zimo tsumo zm · 冲/沖/点炮/放冲/放铳/pao/chong/ron <discarder> (or ``北 点炮``) ·
  抢杠/搶槓/qg/rob <robbed> · 包/包饺子/bao <feeder> (a self-draw after a kong the feeder fed).
  杠开 花开 海底 天胡 地胡 imply a self-draw when the way is left out.
- quick form: a 花 count (5花 5h hua5 五花 十二花, a bare 5, flower names 中发春), 软花 (3软 soft3), pattern
  words (any name ``scoring.find_pattern`` knows: 清一色 qys "full flush"), 杠开 花开 海底 天胡 地胡 (flag and
  pattern), 上牌 (flag).
- tile form: the hand shorthand then flowers (``11223355778899p 中发春梅百搭``, ``[555p] (7777s)``), read by
  ``scoring.parse_hand``; 杠开 花开 海底 天胡 地胡 上牌 are flags, the patterns come from the tiles.
- several winners on one discard: ``东 8花 西 清一色 冲 北``; each winner's details follow the winner.
- 混子 5p / wild 5p (宿州) anywhere. Words may be glued (南自摸5花清一色), full-width, any case, in either
  script; separators: spaces, ，、；+.

Every problem is a ``GrammarError`` with ``.code`` (message key ``grammar.<code>``) and ``.params``
(``token`` as typed, its 1-based ``position`` and word ``index``).
"""

from bot.grammar.commands import (
    Adjustment,
    local_entry,
    make_resolver,
    parse_adjust,
    parse_draw,
    parse_edit,
    parse_entry,
    parse_escape,
)
from bot.grammar.errors import MESSAGES, GrammarError
from bot.grammar.hu import parse_hu

__all__ = [
    "MESSAGES",
    "Adjustment",
    "GrammarError",
    "local_entry",
    "make_resolver",
    "parse_adjust",
    "parse_draw",
    "parse_edit",
    "parse_entry",
    "parse_escape",
    "parse_hu",
]
