"""Every zh-Hans and zh-Hant message, rendered with the values a table would see, read against the glossary
(bot/i18n/glossary.toml): one word for each idea, full-width brackets, one quote style per script, numbers
stuck to their measure words, and no rule set's words or formula variables in the other's messages."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot.grammar.vocab import is_vocabulary, looks_like_tiles, parse_hua
from bot.i18n import catalog, t
from bot.render import payments_text, rules_name, wind
from bot.render.items import term_name
from scoring import ScoringError, find_term
from scoring.rules import RULESETS, ruleset
from scoring.seats import parse_seat
from scoring.tiles import scan
from tests.bot.i18n.templates import placeholders

CHINESE = ("zh-Hans", "zh-Hant")
GLOSSARY = Path(__file__).parents[3] / "bot" / "i18n" / "glossary.toml"

# What a person types is the grammar's, which takes every spelling (冲, 放冲, 点炮): a command and the words
# typed after it, tile shorthand and placeholders are left out of the reading. A command's words run while
# they are words the grammar reads (seats, ways to win, 5花, patterns, tiles, ASCII); the prose after them
# (发 /newgame 开一场) is read like any other text.
COMMAND = re.compile(r"/[a-z]+(?:@\w+)?")
TYPED = re.compile(
    r"[\[(][0-9]+[mpsz][\])]"  # [555p] (7777s)
    r"|[^\s/]+ <[^>]*>"  # 冲 <点炮的人>
    r"|: \[[^\]\n]*\]"  # the console's 名字: [按钮]
)
WORD = re.compile(r"[ \t]+([^\s，。；：、（）“”「」]+)")
ASCII_BRACKET = re.compile(r"[()\[\]]")
LOOSE_NUMBER = re.compile(r"[0-9] (局|场|場|花|张|張|组|組|秒|次|人|小时|小時)|第 ")
LOOSE_PARTICLE = re.compile(r"\S 等(?=[，。\s]|$)| 不受此限")
# A single Latin letter standing alone is a formula's variable (f, b, T), unless it is a seat (E S W N).
VARIABLE = re.compile(r"(?<![A-Za-z0-9_@-])[A-DF-MO-RT-VX-Za-z](?![A-Za-z0-9_])")


@cache
def glossary() -> dict[str, Any]:
    with GLOSSARY.open("rb") as fh:
        return tomllib.load(fh)


def realistic(lang: str) -> dict[str, Any]:
    """The values a message gets at a real table: winds, names, amounts, composed pieces in `lang`."""
    west, east = wind(lang, "W"), wind(lang, "E")
    return {
        "winner": f"{west} 张强",
        "discarder": f"{east} 李梅",
        "player": "张强",
        "name": "张强",
        "payer": f"{east} 李梅",
        "payee": f"{west} 张强",
        "seat": west,
        "wind": west,
        "dealer": east,
        "round_wind": east,
        "left": "刘洋",
        "who": "张强",
        "players": "张强、李梅",
        "names": "张强、李梅",
        "winners": f"{west}、{wind(lang, 'N')}",
        "ref": "老王",
        "token": "冲冲",
        "value": "很多",
        "how": t(lang, "result.discard", winner=west, discarder=east),
        "rules": rules_name(lang, "suzhou"),
        "payments": payments_text(lang, {"W": 40, "E": -40}, ["W"]),
        "amount": 40,
        "amounts": "+40 −40 0 0",
        "hua": 8,
        "soft": 2,
        "typed": 2,
        "n": 3,
        "number": 3,
        "hand": 7,
        "hands": 16,
        "count": 2,
        "stake": 5,
        "streak": 1,
        "factor": 2,
        "seconds": 120,
        "minutes": 2,
        "hours": 6,
        "total": 14,
        "expected": 14,
        "concealed": 11,
        "melds": 1,
        "position": 17,
        "index": 3,
        "low": 1,
        "high": 99,
        "limit": 16,
        "need": 4,
        "have": 2,
        "missing": 1,
        "copies": 1,
        "net": "+120",
        "biggest": 40,
        "session": "+120",
        "alltime": "−35",
        "sessions": 3,
        "wins": 5,
        "self_draws": 2,
        "discards": 1,
        "dealt_in": 1,
        "patterns": term_name(lang, "qingyise"),
        "pattern": term_name(lang, "qidui"),
        "other": term_name(lang, "pengpenghu"),
        "tile": "9p",
        "flower": "春",
        "meld": "56p",
        "flag": "杠开",
        "needs": t(lang, "need.self_draw"),
        "option": t(lang, "option.threshold.name"),
        "choices": "3/4、2/3",
        "meaning": t(lang, "option.threshold.3/4"),
        "date": "2026-12-02",
        "start": "11-30",
        "end": "12-06",
        "day": t(lang, "jobs.weekday_sun"),
        "time": "20:00",
        "tz": t(lang, "zone.Asia/Shanghai"),
        "zone": t(lang, "zone.Asia/Shanghai"),
        "city": "东京",
        "next": "2026-12-06 20:00",
        "rank": 1,
        "note": "茶水",
        "items": term_name(lang, "qingyise"),
        "exempt": "",
        "times": " ×2",
        "what": "荒庄",
        "results": "张强 +120",
        "summary": "第3局",
        "reason": "不是四组加一对",
        "reasons": "要4张硬花",
        "detail": "牌数不对",
        "message": "牌数不对",
        "problem": "缺少参数。",
        "usage": "/hu 南 自摸 5花",
        "command": "hu",
        "suggestion": "hu",
        "description": t(lang, "cmd.hu"),
        "field": "每花多少",
        "where": "（每花多少）",
        "language": t(lang, "lang.name"),
        "options": "七对：15花",
        "dealer_mark": "",
        "text": "第3局",
        "seats": west,
        "a": 3,
        "b": 3,
        "self_draw": 8,
        "discard": 10,
        "rank_m": "",
    }


def composed(lang: str, key: str) -> dict[str, Any]:
    """Values that are other messages where `key` is rendered (a result line's streak, a summary's how)."""
    if key.startswith("result.") and key != "result.streak":
        return {"streak": t(lang, "result.streak", streak=1), "times": t(lang, "result.times", factor=2)}
    if key.startswith("summary."):
        return {"how": t(lang, "summary.how_discard"), "items": t(lang, "summary.items", items="清一色")}
    if key == "calc.header":
        return {"how": t(lang, "flow.discard")}
    return {}


def rendered(lang: str) -> dict[str, str]:
    out = {}
    for key, template in catalog(lang).items():
        values = realistic(lang) | composed(lang, key)
        params = {name: values.get(name, 2) for name in placeholders(template)}
        out[key] = t(lang, key, **params)
    return out


def typable(word: str) -> bool:
    """A word the grammar reads after a command: ASCII, a seat, a way to win, a count, a pattern, tiles."""
    return (
        not word
        or word.isascii()
        or is_vocabulary(word)
        or parse_seat(word) is not None
        or parse_hua(word) is not None
        or find_term(word) is not None
        or looks_like_tiles(word)
        or word in ("苏州", "蘇州", "宿州", "荒庄", "荒莊", "逃跑", "夜宵", "茶水", "宵夜")
        or all(tile_kind(c) == "flower" for c in word)
    )


def tile_kind(char: str) -> str | None:
    try:
        tokens = scan(char)
    except ScoringError:
        return None
    return tokens[0].kind if len(tokens) == 1 else None


def _words_after(text: str, at: int) -> Iterator[re.Match[str]]:
    """The words typed after a command at `at`, up to the first punctuation that ends a clause."""
    while (word := WORD.match(text, at)) is not None:
        yield word
        at = word.end()


def read(text: str) -> str:
    """The text as a reader meets it, what a person types left out."""
    text = TYPED.sub(" ", text)
    out, at = [], 0
    for command in COMMAND.finditer(text):
        if command.start() < at:
            continue
        out.append(text[at : command.start()])
        at = command.end()
        words = list(_words_after(text, at))
        if any(any(c in w.group(1) for c in "[]|<>") for w in words):  # usage notation: /adjust 付款人 [备注]
            at = words[-1].end()
        else:
            for word in words:
                if not typable(word.group(1)):
                    break
                at = word.end()
        out.append(" ")
    return "".join(out) + text[at:]


def test_the_reading_leaves_out_what_is_typed_and_keeps_the_prose() -> None:
    assert read("发 /newgame 开一场。").split() == ["发", "开一场。"]
    assert read("例如 /hu 南 自摸 5花 清一色").strip() == "例如"
    assert read("用 /dealer 东 或 /roll 定庄").split() == ["用", "或", "定庄"]


@pytest.mark.parametrize("lang", CHINESE)
def test_every_message_uses_the_glossary_words(lang: str) -> None:
    misses = []
    for key, text in rendered(lang).items():
        for term_id, term in glossary()["term"].items():
            for avoid in [
                *term["avoid"],
                *term.get(f"avoid_{lang}", []),
            ]:  # some words are wrong in one script
                if re.search(avoid, read(text)):
                    misses.append(f"{key}: {term_id} says {term[lang]}, not /{avoid}/ in {text!r}")
    assert misses == []


@pytest.mark.parametrize("lang", CHINESE)
def test_brackets_are_full_width_and_quotes_one_style(lang: str) -> None:
    other = {"zh-Hans": "「」", "zh-Hant": "“”"}[lang]
    assert glossary()["style"][f"{lang}_quotes"] not in other
    wrong = {
        key: text
        for key, text in rendered(lang).items()
        if ASCII_BRACKET.search(read(text)) or any(q in text for q in other)
    }
    assert wrong == {}


@pytest.mark.parametrize("lang", CHINESE)
def test_numbers_stick_to_their_measure_words(lang: str) -> None:
    loose = {
        key: text
        for key, text in rendered(lang).items()
        if LOOSE_NUMBER.search(read(text)) or LOOSE_PARTICLE.search(read(text))
    }
    assert loose == {}


@pytest.mark.parametrize("lang", CHINESE)
def test_no_message_names_a_formula_variable(lang: str) -> None:
    named = {}
    for key, text in rendered(lang).items():
        plain = re.sub(r"[0-9]+[mpszh]\b|hua[0-9]+|\b[mpsz](?=（)", " ", read(text))
        if VARIABLE.search(plain):
            named[key] = text
    assert named == {}


# Messages of one rule set only: 宿州's flower count (keys ending in `_count`, its dice), 苏州's 硬花 and
# threshold. A message for one never uses the other's words.
RULES_OF = {
    "suzhou-anhui": lambda key: (
        key.endswith(("_count", "_anhui")) or key in ("roll.baozi_none", "stake_label.suzhou-anhui")
    ),
    "suzhou": lambda key: (
        key in ("flow.hua", "flow.melds", "flow.state", "refusal.below_threshold", "stake_label.suzhou")
        or key.startswith(("option.threshold", "option.qidui", "option.doubling_stack"))
    ),
}


@pytest.mark.parametrize("lang", CHINESE)
@pytest.mark.parametrize("rules", ["suzhou", "suzhou-anhui"])
def test_a_rule_sets_messages_use_none_of_the_others_words(lang: str, rules: str) -> None:
    others = [w for r, spec in glossary()["rules"].items() if r != rules for w in spec["only"]]
    mine = {key: text for key, text in rendered(lang).items() if RULES_OF[rules](key)}
    assert mine, rules
    assert {key: text for key, text in mine.items() if any(w in text for w in others)} == {}


def test_the_glossary_gives_every_term_in_every_language() -> None:
    for term_id, term in glossary()["term"].items():
        assert {"meaning", "zh-Hans", "zh-Hant", "en", "avoid"} <= set(term), term_id
        for lang in CHINESE:  # the word itself is in use somewhere
            assert any(term[lang] in text for text in catalog(lang).values()), (term_id, lang)


def test_a_discard_win_reads_one_way() -> None:
    """The preview and the result both say who dealt in and who won, in that order."""
    assert t("zh-Hans", "result.discard", winner="西", discarder="东") == "东 放冲，西 胡"
    assert t("zh-Hant", "preview.discard", winner="西", discarder="東") == "東 放沖，西 胡"


def shown_names(lang: str, rules: str) -> dict[str, str]:
    """Every item and pattern name a table of `rules` sees (previews, /calc, the summary, the CSV), by id:
    scoring's names, or the rule set's own where the catalogs give one (宿州's 花牌, 碰杠花)."""
    spec = ruleset(rules)
    ids = [*spec.items, *spec.patterns, *spec.extended_patterns]
    if rules == "suzhou":
        ids += ["di", "baojiaozi", "qianggang", "baozi", "diling"]  # the base and the settlement terms
    return {term_id: term_name(lang, term_id, rules=rules) for term_id in ids}


@pytest.mark.parametrize("lang", CHINESE)
@pytest.mark.parametrize("rules", RULESETS)
def test_item_and_pattern_names_are_the_rule_sets_own(lang: str, rules: str) -> None:
    """scoring's TERMS name items for 苏州 (硬花, 软花); a 宿州 table sees its own names, and no name of
    either breaks the glossary."""
    others = [w for r, spec in glossary()["rules"].items() if r != rules for w in spec["only"]]
    names = shown_names(lang, rules)
    assert names
    wrong = {i: n for i, n in names.items() if any(w in n for w in others)}
    wrong |= {
        i: n
        for i, n in names.items()
        for term in glossary()["term"].values()
        for avoid in term["avoid"]
        if re.search(avoid, n)
    }
    assert wrong == {}


def wait(self_draw: dict[str, Any], discard: dict[str, Any]) -> dict[str, Any]:
    return {"tile": "1p", "self_draw": self_draw, "discard": discard}


WON = {"allowed": True, "hua": 8}
REFUSED = {  # the refusals each rule set can give (宿州 has no threshold, 苏州 no 混子)
    "suzhou": ("below_threshold",),
    "suzhou-anhui": ("wild_discard", "self_draw_only", "multi_win_off"),
}


def composed_lines(lang: str, rules: str) -> list[str]:
    """The lines the bot puts together from pieces, in every shape a table of `rules` meets: /ting's waits,
    a refusal inside a preview, /calc and the ledger's refusal, 宿州's formula."""
    from bot.handlers.calc import ting_line
    from bot.render.hands import refusal_text

    lines = [ting_line(lang, wait(WON, WON))]
    who = f"{wind(lang, 'S')} 张强"
    for reason in REFUSED[rules]:
        refused = {"allowed": False, "reason": reason, "hua": 2}
        lines.append(ting_line(lang, wait(WON, refused)))
        if reason == "below_threshold":
            lines.append(ting_line(lang, wait(refused, WON)))
            lines.append(ting_line(lang, wait(refused, refused)))
        why = refusal_text(lang, {"winner": "S", "reason": reason, "threshold": {"have": 2, "need": 4}}, who)
        lines += [
            t(lang, "preview.not_allowed", reason=why),
            t(lang, "calc.not_allowed", reason=why),
            t(lang, "ledger.win_not_allowed", reasons=why),
        ]
    if rules == "suzhou-anhui":
        part = t(lang, "preview.formula_dealer", stake=1, hua=2, k=4, amount=8, times="")
        lines.append(t(lang, "preview.formula", parts=part))
    return lines


@pytest.mark.parametrize("lang", CHINESE)
@pytest.mark.parametrize("rules", RULESETS)
def test_every_composed_line_reads_as_one_sentence(lang: str, rules: str) -> None:
    """A line made of pieces (`ting.line` with its reasons, a refusal in `ledger.win_not_allowed`) says each
    thing once: one colon, 不能胡 at most once, no piece's own separator (·) inside a sentence, and none of
    the other rule set's words."""
    others = [w for r, spec in glossary()["rules"].items() if r != rules for w in spec["only"]]
    wrong = []
    for line in composed_lines(lang, rules):
        body = line.strip()
        if (
            body.count("：") > 1
            or body.count(":") > 0
            or sum(body.count(w) for w in ("不能胡", "胡不了")) > 1
            or (" · " in body and "算法" not in body and "算法" not in body)
            or any(w in body for w in others)
            or LOOSE_NUMBER.search(read(body))
        ):
            wrong.append(line)
    assert wrong == []


# ---------------------------------------------------------------- what a 宿州 table reads

ANHUI_NIGHT = (  # (who, what they type, or the label they press)
    ("ann", "/newgame 宿州 2"),
    *((name, "/join") for name in ("ann", "bob", "cat", "dan")),
    ("ann", "/dealer 东"),
    ("ann", "/rules"),
    ("ann", "/seat"),
    ("ann", "/hu 南 自摸 123m456m789m123p99p 东"),
    ("bob", "!确认"),
    ("ann", "/hu 东 冲 西 3花"),
    ("bob", "!确认"),
    ("ann", "/hu 西 北 冲 东 2花"),
    ("bob", "!确认"),
    ("ann", "/draw"),
    ("bob", "!确认"),
    ("ann", "/calc 南 自摸 123m456m789m123p99p 东"),
    ("ann", "/calc 西 北 冲 东 2花"),
    ("ann", "/score"),
    ("ann", "/ledger"),
    ("ann", "/stats"),
    ("ann", "/end"),
    ("ann", "!结束并结算"),
)


@pytest.mark.slow
@pytest.mark.parametrize("lang", CHINESE)
async def test_a_suzhou_anhui_table_reads_its_own_words(
    table: Any, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every screen of a 宿州 night (the lobby, the card, /rules, /seat, previews, results, /calc, /score,
    /ledger, /stats, the summary and its chart) says the stake 宿州's way (底分 N) and its flower count as
    花数 N, never 苏州's words (每花, 硬花, 软花) nor a count written N花."""
    from harness import TINY_PNG

    charts: list[str] = []

    def render_chart(data: Any, **_options: Any) -> bytes:
        charts.append(data.title)
        return TINY_PNG

    monkeypatch.setattr("bot.summary.chart.render_chart", render_chart)
    await table.say("zoe", f"/lang {lang}")
    seen: list[str] = []
    for who, text in ANHUI_NIGHT:
        label = {"!确认": "preview.confirm", "!结束并结算": "end.confirm"}.get(text)
        turn = await (table.press(who, t(lang, label)) if label else table.say(who, text))
        seen += [*turn.texts, *(reply.text for reply in turn.edits)]
    seen += charts
    others = glossary()["rules"]["suzhou"]["only"]
    assert len(charts) == 1 and any(t(lang, "stake_label.suzhou-anhui", stake=2) in s for s in seen)
    assert any(t(lang, "row.draw_anhui") in s for s in seen)  # 荒庄（黄庄）
    assert [s for s in seen if any(w in s for w in others) or re.search(r"[0-9]花(?!牌)", s)] == []
