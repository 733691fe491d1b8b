"""A declared-form entry (the /hu buttons, the Mini App's quick form) back in words that /hu and /edit read
as the same entry: `南 自摸 5花 清一色`, `东 8花 西 清一色 冲 北`. The 花 are the 硬花 counted, never the
hand's total T. Only words that parse back to exactly the entry are given; anything else (a tile hand, a
混子) has none."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.grammar.errors import GrammarError
from bot.grammar.hu import parse_hu
from scoring import TERMS
from scoring.seats import Seat

SEAT_WORDS: dict[Seat, str] = {"E": "东", "S": "南", "W": "西", "N": "北"}
_SEATS: dict[str, Seat] = {word: seat for seat, word in SEAT_WORDS.items()}


def _win_words(win: Mapping[str, Any], discarder: Seat | None) -> list[str] | None:
    declared, flags = win.get("declared"), win.get("flags") or {}
    if not isinstance(declared, dict) or win.get("wild") or "winning_tile" in declared:
        return None
    words = [SEAT_WORDS[win["winner"]]]
    kind, fed = win.get("type"), flags.get("kong_fed_by")
    if kind == "self_draw" and fed:
        words += ["包" if flags.get("after_kong") else "送杠", SEAT_WORDS[fed]]
    elif kind == "self_draw":
        words.append("自摸")
    elif kind == "rob_kong" and discarder:
        words += ["抢杠", SEAT_WORDS[discarder]]
    elif kind != "discard":
        return None
    if declared.get("hard_flowers"):
        words.append(f"{declared['hard_flowers']}花")
    if declared.get("soft_flowers"):
        words.append(f"{declared['soft_flowers']}软")
    words += [TERMS[p].zh if p in TERMS else str(p) for p in declared.get("patterns") or []]
    if flags.get("shangpai"):
        words.append("上牌")
    return words


def declared_words(entry: Mapping[str, Any]) -> str | None:
    """The /hu words of a declared-form win entry, checked by reading them back; None when there are none."""
    wins, discarder = entry.get("wins") or [], entry.get("discarder")
    if entry.get("event") != "win" or not wins or entry.get("escaper"):
        return None
    words: list[str] = []
    for win in wins:
        part = _win_words(win, discarder)
        if part is None:
            return None
        words += part
    if discarder and all(w.get("type") == "discard" for w in wins):
        words += ["冲", SEAT_WORDS[discarder]]
    text = " ".join(words)
    try:
        return text if parse_hu(text, _SEATS.get) == dict(entry) else None
    except GrammarError:
        return None
