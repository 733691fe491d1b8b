"""Properties: any legal request scores without raising; payments are integers that sum to zero."""

from typing import Any

from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import option_specs, score_request
from scoring.tiles import FLOWER_NAMES, tile_name

SEATS = ["E", "S", "W", "N"]
SUZHOU_FLOWERS = list(FLOWER_NAMES)  # every flower of 苏州's set
ANHUI_FLOWERS = ["中", "发", "白", "春", "夏", "秋", "冬", "梅", "兰", "竹", "菊"]
WIND_NAMES = {"E": "东", "S": "南", "W": "西", "N": "北"}


@st.composite
def tables(draw: st.DrawFn) -> dict[str, Any]:
    rules = draw(st.sampled_from(["suzhou", "suzhou-anhui"]))
    options = {
        spec.id: draw(st.sampled_from(spec.choices)) for spec in option_specs(rules) if draw(st.booleans())
    }
    return {
        "rules": rules,
        "options": options,
        "stake": draw(st.integers(1, 50)),
        "dealer": draw(st.sampled_from(SEATS)),
        "round_wind": draw(st.sampled_from(SEATS)),
        "baozi": draw(st.booleans()),
        "diling": draw(st.booleans()),
        "streak": draw(st.integers(0, 5)),
        "hand_number": draw(st.integers(1, 40)),
        "first_dealer": draw(st.sampled_from(SEATS)),
    }


@st.composite
def declared_entries(draw: st.DrawFn, rules: str, extended: bool) -> dict[str, Any]:
    if rules == "suzhou":
        seven_pairs = [["qidui"], *([["shuanghao_qidui"], ["sanhao_qidui"]] if extended else [])]
        patterns = [
            draw(st.sampled_from([[], ["qingyise"], ["hunyise"]])),
            draw(st.sampled_from([[], *seven_pairs, ["duiduihu"], ["duiduihu", "dadiaoche"]])),
        ]
        flat = [p for group in patterns for p in group]
        if not any(p.endswith("qidui") for p in flat) and draw(st.booleans()):
            flat.append("xiao_menqing")
        if extended and draw(st.booleans()):
            flat.append(draw(st.sampled_from(["yitiaolong", "sanfengke", "xiaosixi", "dasixi"])))
    else:
        flat = draw(st.sampled_from([[], ["qidui"], ["dadiaoche"]]))
    return {
        "hard_flowers": draw(st.integers(0, 8)),
        "soft_flowers": draw(st.integers(0, 12)),
        "patterns": flat,
    }


@st.composite
def hands(draw: st.DrawFn, rules: str, round_wind: str, melds_allowed: bool) -> dict[str, Any]:
    """A complete hand: four sets and a pair of playing tiles, some sets melded, some flowers."""
    playing = [t for t in range(31) if not (rules == "suzhou-anhui" and t == 27 + SEATS.index(round_wind))]
    counts = [0] * 34
    concealed: list[int] = []
    melds: list[dict[str, Any]] = []
    for _ in range(4):
        for _attempt in range(30):
            kind = draw(st.sampled_from(["chow", "pung"]))
            tile = draw(st.sampled_from(playing))
            if kind == "chow":
                if tile >= 27 or tile % 9 > 6:
                    continue
                tiles = [tile, tile + 1, tile + 2]
            else:
                tiles = [tile] * 3
            if all(counts[t] + tiles.count(t) <= 4 for t in set(tiles)):
                break
        else:
            continue
        meld = (
            draw(st.sampled_from(["no", "pung", "kong", "angang"]))
            if kind == "pung" and melds_allowed
            else "no"
        )
        if meld in ("kong", "angang") and counts[tile] > 0:
            meld = "pung"
        for t in tiles:
            counts[t] += 1
        if meld == "no":
            concealed += tiles
        elif meld == "pung":
            melds.append({"type": "pung", "tiles": tile_name(tile) * 3, "exposed": True})
        else:
            counts[tile] += 1
            melds.append({"type": "kong", "tiles": tile_name(tile) * 4, "exposed": meld == "kong"})
    pair = draw(st.sampled_from([t for t in playing if counts[t] <= 2]))
    concealed += [pair, pair]
    while len(concealed) + 3 * len(melds) < 14:  # a set could not be placed: fill with more pairs' worth
        extra = draw(st.sampled_from([t for t in playing if counts[t] == 0 and t not in concealed]))
        concealed += [extra] * 3
        counts[extra] += 3
    pool = SUZHOU_FLOWERS if rules == "suzhou" else [*ANHUI_FLOWERS, WIND_NAMES[round_wind]]
    flowers = draw(st.lists(st.sampled_from(pool), max_size=6))
    flowers = [
        f
        for i, f in enumerate(flowers)
        if flowers[:i].count(f) < (4 if f in ("中", "发", "白", "百搭", *WIND_NAMES.values()) else 1)
    ]
    return {
        "concealed": "".join(tile_name(t) for t in concealed),
        "winning_tile": tile_name(draw(st.sampled_from(concealed))),
        "melds": melds,
        "flowers": flowers,
    }


@st.composite
def seven_pairs(draw: st.DrawFn, rules: str, round_wind: str) -> dict[str, Any]:
    """Seven pairs, some of them four of a kind (豪七对 under `extended`), with flowers."""
    playing = [t for t in range(31) if not (rules == "suzhou-anhui" and t == 27 + SEATS.index(round_wind))]
    tiles = draw(st.lists(st.sampled_from(playing), min_size=7, max_size=7))
    tiles = [t for i, t in enumerate(tiles) if tiles[:i].count(t) < 2]
    tiles += [t for t in playing if t not in tiles][: 7 - len(tiles)]
    concealed = sorted(tiles * 2)
    flowers = draw(st.lists(st.sampled_from(["中", "发", "白"]), max_size=9))
    flowers = [f for i, f in enumerate(flowers) if flowers[:i].count(f) < 4]
    return {
        "concealed": "".join(tile_name(t) for t in concealed),
        "winning_tile": tile_name(draw(st.sampled_from(concealed))),
        "flowers": flowers,
    }


@st.composite
def requests(draw: st.DrawFn) -> dict[str, Any]:
    table = draw(tables())
    event = draw(st.sampled_from(["win", "win", "win", "win", "draw", "escape"]))
    if event == "draw":
        return {**table, "event": "draw"}
    if event == "escape":
        return {**table, "event": "escape", "escaper": draw(st.sampled_from(SEATS))}
    how = draw(st.sampled_from(["self_draw", "discard", "rob_kong"]))
    seats = draw(st.permutations(SEATS))
    discarder = seats[0] if how != "self_draw" else None
    n = 1 if how == "self_draw" else draw(st.integers(1, 3))
    extended = bool(table["options"].get("extended"))
    wins = []
    for winner in seats[1 : 1 + n]:
        entry: dict[str, Any] = {"winner": winner, "type": how}
        form = draw(st.sampled_from(["hand", "hand", "seven_pairs", "declared", "declared"]))
        if form == "hand":
            entry["hand"] = draw(hands(table["rules"], table["round_wind"], draw(st.booleans())))
        elif form == "seven_pairs":
            entry["hand"] = draw(seven_pairs(table["rules"], table["round_wind"]))
        else:
            entry["declared"] = draw(declared_entries(table["rules"], extended))
        if table["rules"] == "suzhou-anhui" and "hand" in entry and draw(st.booleans()):
            entry["wild"] = entry["hand"]["winning_tile"]  # won on the 混子 itself: refused on a discard
        flags: dict[str, Any] = {"last_tile": draw(st.booleans())}
        if how == "self_draw":
            flags["after_flower"] = draw(st.booleans())
            if winner == table["dealer"] and "declared" in entry:
                flags["heavenly"] = draw(st.booleans())
            if "declared" in entry and draw(st.booleans()):  # a fed kong: 送杠 under songgang "any"
                flags["kong_fed_by"] = seats[0]
        if table["rules"] == "suzhou-anhui":
            flags["shangpai"] = draw(st.booleans())
        entry["flags"] = flags
        wins.append(entry)
    return {**table, "event": "win", "discarder": discarder, "wins": wins}


@settings(max_examples=examples(100))
@given(requests())
def test_legal_requests_score_and_pay_zero_sum(request: dict[str, Any]) -> None:
    response = score_request(request)
    payments = response["payments"]
    assert list(payments) == SEATS
    assert all(type(amount) is int for amount in payments.values())
    assert sum(payments.values()) == 0
    assert len(response["wins"]) == len(request.get("wins", []))
    for win in response["wins"]:
        assert type(win["hua"]) is int and win["hua"] >= 0 and type(win["multiplier"]) is int
        if win["allowed"]:
            assert win["hua"] == sum(item["hua"] for item in win["items"])
            assert payments[win["winner"]] > 0 or win["hua"] == 0 or len(response["wins"]) > 1
        else:
            assert win["reason"] and win["hua"] == 0
    assert response["next_dealer"] in SEATS and response["next_round_wind"] in SEATS
    assert response["next_hand_number"] == request["hand_number"] + 1


@settings(max_examples=examples(40))
@given(requests())
def test_stake_scales_payments(request: dict[str, Any]) -> None:
    one = score_request({**request, "stake": 1})["payments"]
    many = score_request({**request, "stake": 7})["payments"]
    assert many == {seat: 7 * amount for seat, amount in one.items()}


JUNK = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 300)
    | st.floats(allow_nan=False)
    | st.text(max_size=6)
    | st.sampled_from(["E", "W", "5z", "中", "9p", "qys", "2/3", "x2"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(obj, dict):
        for key, value in obj.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(obj, list):
        for index, value in enumerate(obj):
            found += _paths(value, (*prefix, index))
    return found


@settings(max_examples=examples(100))
@given(requests(), st.data())
def test_malformed_requests_raise_only_scoring_error(request: dict[str, Any], data: st.DataObject) -> None:
    from scoring import ScoringError

    path = data.draw(st.sampled_from(_paths(request)[1:]))
    junk = data.draw(JUNK)
    target: Any = request
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = junk
    try:
        response = score_request(request)
    except ScoringError as exc:
        assert str(exc)
    else:
        assert sum(response["payments"].values()) == 0
