"""Drift: one hand said three ways (typed /hu words, the button flow's presses, the tile picker's post) builds
one entry (`scoring.entry.build_entry`), one scoring request and one score; and the words the picker sends
back to a chat from inline mode read into that entry again.

The button flow's state is taken through its callback data (what a press carries) before it makes its
entry; the page's post is what picker.js sends, the builder's own arguments (tiles in tap order, flags by
name, a kong's kind), read by the API's reader (`scoring.entry.entry_args_from_json`); an entry sent as JSON
(`scoring.entry.entry_from_json`) reads back to itself."""

from __future__ import annotations

import json
from typing import Any

from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.buttons import HUA_CHOICES, MAX_SOFT, PATTERN_BITS, HuFlow, Win, pattern_choices
from bot.grammar import make_resolver, parse_hu
from bot.grammar.words import hu_words, short_words
from bot.handlers.calc import calc_lines, default_table, words_entry
from scoring import PATTERNS, ScoringError, score_request
from scoring.entry import FLAG_NAMES, EntryJSON, entry_args_from_json, entry_from_json, request_for

SEATS = ("E", "S", "W", "N")
WORD = {"E": "东", "S": "南", "W": "西", "N": "北"}
HOW_WORD = {
    "self_draw": "自摸",
    "discard": "冲",
    "multi": "冲",
    "rob_kong": "抢杠",
    "bao": "包",
    "songgang": "送杠",
}
FLAG_WORD = {
    "after_kong": "杠开",
    "after_flower": "花开",
    "last_tile": "海底",
    "heavenly": "天胡",
    "earthly": "地胡",
    "shangpai": "上牌",
}
WILDS = ("5p", "9m", "2s", "1z")
RESOLVE = make_resolver({seat: [] for seat in SEATS})


def outcome(entry: EntryJSON, rules: str) -> tuple[str, Any]:
    """What the scoring core makes of an entry at a table without one (东 dealing): the response and /calc's
    lines, or the error."""
    request = request_for(default_table(rules), entry)
    try:
        response = score_request(request)
    except ScoringError as exc:
        return "refused", str(exc)
    return "scored", (response, calc_lines("zh-Hans", request, entry, response))


def page_json(entry: EntryJSON) -> Any:
    """The entry as the page's JSON: through json, keys shuffled by nothing but the wire."""
    return json.loads(json.dumps(entry, ensure_ascii=False))


# ---------------------------------------------------------------- the declared form: words and buttons


@st.composite
def declared_hand(draw: st.DrawFn) -> tuple[str, str, HuFlow]:
    """A hand in the declared form: its rule set, the /hu words, the button flow's finished state."""
    rules = draw(st.sampled_from(("suzhou", "suzhou-anhui")))
    how = draw(st.sampled_from(sorted(HOW_WORD)))
    seats = draw(st.permutations(SEATS))
    count = draw(st.integers(2, 3)) if how == "multi" else 1
    winners, other = seats[:count], seats[count] if how != "self_draw" else None
    wild = draw(st.sampled_from((None, *WILDS))) if rules == "suzhou-anhui" else None
    won_on_wild = wild is not None and how in ("discard", "multi") and draw(st.booleans())
    choices = pattern_choices(rules, {})
    wins = []
    for seat in winners:
        chosen = draw(st.sets(st.sampled_from(choices), max_size=3))
        patterns = tuple(p for p in PATTERN_BITS if p in chosen)
        wins.append(Win(seat, draw(st.sampled_from(HUA_CHOICES)), draw(st.integers(0, MAX_SOFT)), patterns))
    words: list[str] = []
    for win in wins:
        words.append(WORD[win.seat])
        words.append(f"{win.hua}花")
        if win.soft:
            words.append(f"{win.soft}软花")
        words += [FLAG_WORD["shangpai"] if p == "shangpai" else PATTERNS[p].zh for p in win.patterns]
        if won_on_wild:
            words.append(f"+{wild}")
    words.append(HOW_WORD[how])
    if other is not None:
        words.append(WORD[other])
    if wild is not None:
        words += ["混子", wild]
    flow = HuFlow(1, "done", tuple(wins), how, other, 0, wild, None, won_on_wild)  # type: ignore[arg-type]
    return rules, " ".join(words), flow


@settings(max_examples=examples(300), deadline=None)
@given(declared_hand())
def test_typed_words_and_button_presses_build_one_entry(case: tuple[str, str, HuFlow]) -> None:
    rules, text, flow = case
    pressed = HuFlow.parse(flow.data)  # what the last press carries
    assert pressed is not None, flow.data
    from_buttons = pressed.entry()
    typed = parse_hu(text, RESOLVE)
    assert typed == from_buttons, text
    from_page = entry_from_json(page_json(typed))
    assert from_page == typed
    said_back = words_entry(short_words(typed) or hu_words(typed))  # the picker's inline round trip
    assert said_back == typed
    assert outcome(typed, rules) == outcome(from_buttons, rules) == outcome(from_page, rules)


# ---------------------------------------------------------------- the tile form: words and the page

# (concealed tiles as tapped, the index of the winning tile, melds as the page holds them, flowers)
HANDS: list[tuple[list[str], int, list[tuple[str, str, str | None]], list[str]]] = [
    (["1m", "2m", "3m", "4m", "5m", "6m", "7s", "8s", "9s", "9s", "5p", "5p", "5p", "9s"], 13, [], ["春"]),
    (
        ["1m", "2m", "3m", "4m", "5m", "6m", "9p", "9p", "7s", "8s", "9s"],
        10,
        [("pung", "5p", "N")],
        ["中", "春", "菊"],
    ),
    (["1m", "2m", "3m", "4m", "5m", "6m", "9p", "9p"], 7, [("pung", "5p", "W"), ("kong", "7m", "N")], []),
    (
        ["4m", "5m", "6m", "9p", "9p", "1s", "2s", "3s", "7p", "8p", "9p"],
        6,
        [("concealed_kong", "7m", None)],
        ["梅", "兰"],
    ),
    (
        ["1p", "1p", "2p", "2p", "3p", "3p", "5p", "5p", "6p", "6p", "7p", "7p", "9p", "9p"],
        2,
        [],
        ["中", "发"],
    ),
    (["1m", "2m", "3m", "4m", "5m", "6m", "7s", "8s", "9s", "9s", "5p", "5p", "5p", "9s"], 13, [], ["东"]),
    (
        ["1m", "2m", "3m", "4m", "5m", "6m", "7s", "8s", "9s", "9s", "5p", "5p", "5p", "9s"],
        13,
        [],
        ["东", "春"],
    ),
]
SUIT_ORDER = "mpsz"


def shorthand(tiles: list[str]) -> str:
    """picker.js's shorthand(): tiles sorted by suit then number, one suit letter a run."""
    out, suit = "", None
    for tile in sorted(tiles, key=lambda t: (SUIT_ORDER.index(t[1]), t[0])):
        if suit is not None and tile[1] != suit:
            out += suit
        out += tile[0]
        suit = tile[1]
    return out + (suit or "")


def meld_json(mode: str, tile: str, source: str | None) -> dict[str, Any]:
    """picker.js's meldJSON()."""
    size = 3 if mode == "pung" else 4
    out: dict[str, Any] = {
        "type": "pung" if size == 3 else "kong",
        "tiles": tile[0] * size + tile[1],
        "exposed": mode != "concealed_kong",
    }
    if mode == "kong":
        out["kind"] = "direct"
    if source and out["exposed"]:
        out["from"] = source
    return out


def meld_words(mode: str, tile: str, source: str | None) -> str:
    """The same meld typed: [555p:N], [7777m:direct:N], (7777m)."""
    tiles = tile[0] * (3 if mode == "pung" else 4) + tile[1]
    if mode == "concealed_kong":
        return f"({tiles})"
    quals = "".join(f":{q}" for q in ("direct" if mode == "kong" else None, source) if q)
    return f"[{tiles}{quals}]"


@st.composite
def tile_hand(draw: st.DrawFn) -> tuple[str, str, Any, list[tuple[str, str, Any]]]:
    """A hand in tiles: its rule set, the /hu words, the page's post (the builder's arguments), and a second
    and third winner's parts on the same discard (一炮多响) as (seat, words, claim)."""
    rules = draw(st.sampled_from(("suzhou", "suzhou-anhui")))
    how = draw(st.sampled_from(("self_draw", "discard", "rob_kong", "bao", "multi")))
    seats = draw(st.permutations(SEATS))
    count = draw(st.integers(2, 3)) if how == "multi" else 1
    winners, other = seats[:count], seats[count] if how != "self_draw" else None
    wild = draw(st.sampled_from((None, *WILDS))) if rules == "suzhou-anhui" else None
    parts = []
    for seat in winners:
        concealed, winning, melds, flowers = draw(st.sampled_from(HANDS))
        flags = sorted(draw(st.sets(st.sampled_from(FLAG_NAMES), max_size=2)))
        rest = concealed[:winning] + concealed[winning + 1 :]
        typed = " ".join(
            [
                *(meld_words(*m) for m in melds),
                shorthand(rest) + "+" + concealed[winning],
                ("|" if flowers and flowers[0] in WORD.values() else "") + "".join(flowers),  # |东: 令风
                *(FLAG_WORD[f] for f in flags),
            ]
        )
        hand = {
            "concealed": shorthand(concealed),
            "winning_tile": concealed[winning],
            "melds": [meld_json(*m) for m in melds],
            "flowers": list(flowers),
        }
        claim = {"winner": seat, "hand": hand, "flags": flags}
        parts.append((seat, WORD[seat] + " " + typed.strip(), claim))
    words = [part[1] for part in parts] + [HOW_WORD[how]] + ([WORD[other]] if other else [])
    words += ["混子", wild] if wild else []
    how_said = "discard" if how == "multi" else how
    page = {"how": how_said, "other": other, "wild": wild, "claims": [part[2] for part in parts]}
    return rules, " ".join(words), page, parts


@settings(max_examples=examples(300), deadline=None)
@given(tile_hand())
def test_typed_tiles_and_the_pages_post_build_one_entry(case: tuple[str, str, Any, Any]) -> None:
    rules, text, page, _parts = case
    typed = parse_hu(text, RESOLVE)
    from_page = entry_args_from_json(page_json(page)).build()
    assert from_page == typed, text
    assert entry_from_json(page_json(from_page)) == from_page  # an entry sent as JSON reads back to itself
    said_back = words_entry(short_words(from_page) or hu_words(from_page))  # the inline round trip
    assert said_back == from_page, hu_words(from_page)
    assert outcome(from_page, rules) == outcome(typed, rules) == outcome(said_back, rules)
