"""An entry said back in words: the /hu line that `parse_hu` reads into the same entry (the tile picker's
inline round trip sends it to the chat, where inline mode scores it again).

>>> from bot.grammar.hu import parse_hu
>>> from bot.grammar.commands import make_resolver
>>> from scoring.entry import Claim, build_entry
>>> hand = {"concealed": "123456m99p789s", "winning_tile": "9p", "flowers": ["中"],
...         "melds": [{"type": "pung", "tiles": "555p", "exposed": True, "from": "N"}]}
>>> entry = build_entry("discard", [Claim("E", hand, flags=frozenset({"last_tile"}))], other="W", wild="5p")
>>> hu_words(entry)
'东 [555p:N] 123456m9p789s+9p 中 海底 冲 西 混子 5p'
>>> parse_hu(hu_words(entry), make_resolver({s: [] for s in "ESWN"})) == entry
True
>>> pairs = {**hand, "melds": [], "concealed": "11223355778899p"}
>>> short_words(build_entry("self_draw", [Claim("S", pairs)]))
'11223355778899p 中 自摸'
>>> short_words(build_entry("self_draw", [Claim("S", {**pairs, "winning_tile": "1p"})]))
'1223355778899p+1p 中 自摸'
"""

from __future__ import annotations

from scoring.entry import FLAG_NAMES, EntryJSON, HandJSON, WinJSON
from scoring.tiles import WIND_FLOWERS, parse_tiles, render_tiles

SEAT_WORD = {"E": "东", "S": "南", "W": "西", "N": "北"}
FLAG_WORD = {
    "after_kong": "杠开",
    "after_flower": "花开",
    "last_tile": "海底",
    "heavenly": "天胡",
    "earthly": "地胡",
    "shangpai": "上牌",
}
SHORT_WINNER, SHORT_DISCARDER = "S", "N"  # /calc's short form: 南 wins, on 北's discard


def hand_words(hand: HandJSON) -> str:
    """A hand object in the shorthand: melds, the concealed tiles with `+` before the winning tile (left
    out when the winning tile is written last anyway), the flowers."""
    words = []
    for meld in hand["melds"]:
        quals = "".join(f":{q}" for q in (meld.get("kind"), meld.get("from")) if q)
        words.append(f"[{meld['tiles']}{quals}]" if meld["exposed"] else f"({meld['tiles']})")
    words.append(_concealed(hand["concealed"], hand["winning_tile"]))
    flowers = hand["flowers"]
    if flowers:  # a wind first (宿州's 令风) is a flower only after `|`, as the shorthand writes it
        words.append(("|" if flowers[0] in WIND_FLOWERS else "") + "".join(flowers))
    return " ".join(words)


def _concealed(concealed: str, winning: str | None) -> str:
    tiles = parse_tiles(concealed)
    if winning is None:
        return concealed + "+?"
    won = parse_tiles(winning)[0]
    if tiles and tiles[-1] == won:
        return concealed
    rest = list(tiles)
    rest.remove(won)
    return render_tiles(rest) + "+" + winning


def _win_words(win: WinJSON) -> list[str]:
    words = [SEAT_WORD[win["winner"]]]
    hand = win.get("hand")
    if hand is not None:
        words.append(hand_words(hand))
    else:
        declared = win["declared"]
        words.append(f"{declared['hard_flowers']}花")
        if declared["soft_flowers"]:
            words.append(f"{declared['soft_flowers']}软花")
        words += declared["patterns"]
        if "winning_tile" in declared:
            words.append("+" + declared["winning_tile"])
    flags = win["flags"]
    for name in FLAG_NAMES:
        by_how = name == "after_kong" and flags["kong_fed_by"] is not None  # 包: the way says it
        in_patterns = hand is None and name != "shangpai"  # the declared form has its pattern
        if flags[name] and not by_how and not in_patterns:
            words.append(FLAG_WORD[name])
    return words


def hu_words(entry: EntryJSON) -> str:
    """The /hu words of a win entry: each winner's part, then how it was won (and from whom), the 混子."""
    wins = entry["wins"]
    words = [word for win in wins for word in _win_words(win)]
    first = wins[0]
    fed_by = first["flags"]["kong_fed_by"]
    if first["type"] == "self_draw" and fed_by is not None:
        words += ["包" if first["flags"]["after_kong"] else "送杠", SEAT_WORD[fed_by]]
    elif first["type"] == "self_draw":
        words.append("自摸")
    else:
        assert entry["discarder"] is not None
        words += ["冲" if first["type"] == "discard" else "抢杠", SEAT_WORD[entry["discarder"]]]
    if first["wild"] is not None:
        words += ["混子", first["wild"]]
    return " ".join(words)


def short_words(entry: EntryJSON) -> str | None:
    """/calc's short form of an entry (`<hand> 自摸|冲`: 南's tiles, by self-draw or on 北's discard, no
    flag, no 混子), or None when the entry says more than that."""
    if len(entry["wins"]) != 1:
        return None
    win = entry["wins"][0]
    hand = win.get("hand")
    plain = not any(win["flags"].values()) and win["wild"] is None
    if hand is None or not plain or win["winner"] != SHORT_WINNER:
        return None
    if win["type"] == "discard" and entry["discarder"] == SHORT_DISCARDER:
        return hand_words(hand) + " 冲"
    return hand_words(hand) + " 自摸" if win["type"] == "self_draw" else None
