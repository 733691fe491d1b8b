"""Every error code, option and refusal through all three catalogs: a key missing from one
language fails, and so does an ASCII identifier (a word of letters and `_`, 2+ characters) inside a rendered
zh-Hans or zh-Hant reply; tile shorthand (9p, 555p, 123m) and command names (/hu) aside."""

from __future__ import annotations

import inspect
import re
from typing import Any

import pytest

from bot.grammar.errors import MESSAGES, GrammarError
from bot.handlers import rules as rules_handlers
from bot.i18n import LANGUAGES, catalog
from bot.ledger import errors as ledger_errors
from bot.ledger.errors import BadGuestName, LedgerError
from bot.ledger.options import OPTIONS
from bot.render import refusal_text
from bot.render.errors import error_text
from scoring import RULESETS, option_specs
from scoring import errors as scoring_errors
from scoring.errors import ScoringError

CHINESE = ("zh-Hans", "zh-Hant")
IDENTIFIER = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z_]{2,}(?![A-Za-z0-9_])")
COMMAND = re.compile(r"/[A-Za-z_]+")  # /hu, /newgame: what people type
TILES = re.compile(r"[0-9]+[mpsz]\b|\[[0-9]+[mpsz]\]|\([0-9]+[mpsz]\)")

# The scoring core's codes and their params (the contract with scoring.ScoringError).
SCORING: dict[str, dict[str, Any]] = {
    "tile_count": {"concealed": 15, "melds": 1, "total": 18, "expected": 14},
    "too_many_copies": {"tile": "9p", "count": 5},
    "unknown_token": {"token": "冲", "position": 23},
    "bad_meld": {"meld": "56p"},
    "flower_in_hand": {"tile": "5z"},
    "flag_needs": {"flag": "after_kong", "needs": "kong"},
    "flag_conflict": {"flag": "heavenly", "other": "earthly"},
    "pattern_conflict": {"pattern": "da_menqing", "other": "xiao_menqing"},
    "unknown_pattern": {"pattern": "大四喜喜"},
    "out_of_range": {"field": "wins[0].declared.hard_flowers", "value": 99, "low": 0, "high": 28},
    "unknown_flower": {"flower": "龙"},
    "no_wild": {"rules": "suzhou"},
    "wild_is_flower": {"tile": "7z"},
    "invalid": {"field": "wins[0].declared.hard_flowers"},
    "no_suit": {"token": "123", "position": 4},
    "bad_marker": {"position": 7},
    "no_tiles": {},
    "after_flowers": {"token": "9p", "position": 17},
    "not_flower": {"flower": "东", "rules": "suzhou"},
    "not_wind_flower": {"flower": "南", "wind": "E"},
    "too_many_flowers": {"flower": "春", "count": 2, "copies": 1},
    "not_complete": {},
    "pattern_rules": {"pattern": "小门清", "option": "menqing_stack"},
    "bad_option": {"option": "damenqing", "value": "很松", "choices": "strict, pung"},
    "unknown_option": {"option": "门清", "known": "menqing_stack, songgang"},
}
# Variants one code renders differently (pattern_conflict with a condition, pattern_rules by rule set).
SCORING_VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("pattern_conflict", {"pattern": "海底捞月", "other": "self_draw"}),
    ("pattern_conflict", {"pattern": "大门清", "other": "hua"}),
    ("pattern_conflict", {"pattern": "大门清", "other": "小门清"}),
    ("pattern_rules", {"pattern": "小门清", "option": "menqing_stack"}),
    ("pattern_rules", {"pattern": "一条龙", "option": "extended"}),
    ("pattern_rules", {"pattern": "清一色", "rules": "suzhou-anhui"}),
    *[
        ("flag_needs", {"flag": flag, "needs": needs})
        for flag, needs in [
            ("after_kong", "self_draw"),
            ("kong_fed_by", "other_feeder"),
            ("heavenly", "dealer_self_draw"),
            ("earthly", "player_self_draw"),
            ("shangpai", "suzhou_anhui"),
            ("after_kong", "kong"),
            ("kong_fed_by", "exposed_kong"),
            ("heavenly", "no_melds"),
            ("after_flower", "self_draw"),
        ]
    ],
]
REFUSALS: dict[str, dict[str, Any]] = {
    "below_threshold": {"threshold": {"have": 2, "need": 4, "exempt": ["qidui", "dadiaoche"]}},
    "self_draw_only": {},
    "multi_win_off": {},
    "wild_discard": {},
}
# Params a ledger error may carry; each code's message takes what it needs.
LEDGER_PARAMS: dict[str, Any] = {
    "seat": "W",
    "name": "路人甲",
    "ref": "路人甲",
    "names": ["路人甲", "路人乙"],
    "empty": ["N"],
    "field": "stake",
    "value": "很多",
    "number": 3,
    "total": 1,
    "limit": 16,
    "missing": 1,
    "reasons": [{"winner": "W", "reason": "below_threshold", "threshold": {"have": 2, "need": 4}}],
}
GRAMMAR_PARAMS: dict[str, Any] = {
    "token": "路人甲",
    "position": 3,
    "index": 2,
    "how": "自摸",
    "reason": "牌不对",
    "low": 1,
    "high": 99,
}
# The group's own options in /rules, from their one table: a switch's words are on/off, a choice's its own
# (a settling-up option's value reads through `rules.settle_<id>`).
GROUP_OPTIONS = {
    option.id: (False, True)
    if option.kind == "switch"
    else option.choices
    if option.kind == "choice" and not option.settle
    else ()
    for option in OPTIONS
    if option.in_rules
}


def leaks(text: str) -> list[str]:
    """ASCII identifiers left in a Chinese reply once commands and tile shorthand are taken out."""
    return IDENTIFIER.findall(TILES.sub(" ", COMMAND.sub(" ", text)))


def coded(code: str, params: dict[str, Any]) -> ScoringError:
    error = ScoringError(f"English message of {code}")
    error.code = code  # type: ignore[attr-defined]
    error.params = dict(params)  # type: ignore[attr-defined]
    return error


def ledger_codes() -> list[tuple[str, type[LedgerError], dict[str, Any]]]:
    """Every ledger error class with a code (BadGuestName once per rule)."""
    out: list[tuple[str, type[LedgerError], dict[str, Any]]] = []
    for _, cls in inspect.getmembers(ledger_errors, inspect.isclass):
        if not issubclass(cls, LedgerError) or cls is LedgerError:
            continue
        if cls is BadGuestName:
            rules = ("too_long", "space", "seat_word", "taken")
            out += [(f"guest_{rule}", cls, {"rule": rule}) for rule in rules]
        else:
            out.append((cls.code, cls, {}))
    return out


def test_the_walk_covers_every_code() -> None:
    assert len(ledger_codes()) >= 25 and len(MESSAGES) >= 25
    codes = getattr(scoring_errors, "CODES", None)
    if codes is not None:  # the scoring core's own list, when it has one
        assert sorted(set(codes) - set(SCORING)) == []
    assert set(REFUSALS) == {"below_threshold", "self_draw_only", "multi_win_off", "wild_discard"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_exists_in_every_language(lang: str) -> None:
    keys = catalog(lang)
    wanted = {f"ledger.{code}" for code, _, _ in ledger_codes()}
    wanted |= {f"grammar.{code}" for code in MESSAGES}
    wanted |= {f"scoring.{code}" for code in SCORING} | {f"refusal.{reason}" for reason in REFUSALS}
    for rules in RULESETS:
        for spec in option_specs(rules):
            wanted.add(f"option.{spec.id}.name")
            wanted |= {f"option.{spec.id}.{rules_handlers.value_key(choice)}" for choice in spec.choices}
    for option, choices in GROUP_OPTIONS.items():
        wanted.add(f"option.{option}.name")
        if not all(isinstance(c, bool) for c in choices):
            wanted |= {f"option.{option}.{choice}" for choice in choices}
    assert sorted(wanted - set(keys)) == []


def rendered(lang: str) -> dict[str, str]:
    """Every error, refusal and option as a group in `lang` reads it."""
    out: dict[str, str] = {}
    for code, cls, extra in ledger_codes():
        out[f"ledger.{code}"] = error_text(lang, cls("English text", **LEDGER_PARAMS, **extra))
    for code in MESSAGES:
        out[f"grammar.{code}"] = error_text(lang, GrammarError(code, **GRAMMAR_PARAMS))
    for code, params in SCORING.items():
        out[f"scoring.{code}"] = error_text(lang, coded(code, params))
        cause = coded(code, params)
        try:
            raise ledger_errors.InvalidEntry("English detail", detail="English detail") from cause
        except ledger_errors.InvalidEntry as error:
            out[f"ledger.invalid_entry.{code}"] = error_text(lang, error)
    for i, (code, params) in enumerate(SCORING_VARIANTS):
        out[f"scoring.{code}.{i}"] = error_text(lang, coded(code, params))
    for reason, params in REFUSALS.items():
        out[f"refusal.{reason}"] = refusal_text(lang, {"winner": "W", "reason": reason, **params})
    for rules in RULESETS:
        for spec in option_specs(rules):
            out[f"option.{spec.id}"] = rules_handlers.option_name(lang, spec.id)
            for choice in spec.choices:
                out[f"option.{spec.id}.{choice}"] = rules_handlers.option_value(lang, spec.id, choice)
        out[f"options.{rules}"] = rules_handlers.options_summary(lang, rules, {})
    for option, choices in GROUP_OPTIONS.items():
        out[f"option.{option}"] = rules_handlers.option_name(lang, option)
        for choice in choices:
            out[f"option.{option}.{choice}"] = rules_handlers.option_value(lang, option, choice)
    return out


@pytest.mark.parametrize("lang", CHINESE)
def test_no_identifier_in_a_chinese_reply(lang: str) -> None:
    found = {key: leaks(text) for key, text in rendered(lang).items() if leaks(text)}
    assert found == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rendering_is_filled_and_not_a_bare_key(lang: str) -> None:
    for key, text in rendered(lang).items():
        assert text.strip(), key
        assert not re.fullmatch(r"[a-z_]+(\.[a-z_0-9-]+)+", text), (key, text)  # t() echoes a missing key
        assert "English" not in text, (key, text)  # the library's message never reaches a group


def test_the_identifier_check_catches_a_leak() -> None:
    assert leaks("这手不能胡：西 below_threshold") == ["below_threshold"]
    assert leaks("选项：menqing_stack=关") == ["menqing_stack"]
    assert leaks("/hu 南 自摸 11223355778899p [555p] (7777s) 九筒") == []
