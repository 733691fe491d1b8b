"""Rule sets, their options and the pattern registry: names, aliases and find_pattern, shown on hands."""

import pytest
from scoring_helpers import items, one, score, win

from scoring import (
    PATTERNS,
    RULESETS,
    ScoringError,
    find_pattern,
    find_term,
    option_specs,
    resolve_rules,
    validate_options,
)
from scoring.rules import ruleset


def test_rulesets() -> None:
    assert RULESETS == ("suzhou", "suzhou-anhui")


@pytest.mark.parametrize(
    ("name", "rules"),
    [
        ("suzhou", "suzhou"),
        ("苏州", "suzhou"),
        ("蘇州", "suzhou"),
        ("Suzhou", "suzhou"),
        ("suzhou-anhui", "suzhou-anhui"),
        ("宿州", "suzhou-anhui"),
        ("宿州麻将", "suzhou-anhui"),
    ],
)
def test_resolve_rules(name: str, rules: str) -> None:
    assert resolve_rules(name) == rules


def test_resolve_rules_unknown() -> None:
    with pytest.raises(ScoringError, match="rules: unknown rule set '杭州'"):
        resolve_rules("杭州")


def test_option_defaults_are_what_a_request_without_options_plays() -> None:
    # Each rule set's defaults are among their own choices, and a request without options scores as one
    # giving every option at its default: 七对 counts 硬花 twice (15x2), so 七对 15 + 底 5 + 硬花 2 × 2 = 24.
    for rules in RULESETS:
        specs = option_specs(rules)
        assert specs and all(spec.default in spec.choices for spec in specs)
        assert validate_options(rules, None) == {spec.id: spec.default for spec in specs}
    hand = win("S", "self_draw", "1122m3355p778899s 中发")
    defaults = {spec.id: spec.default for spec in option_specs("suzhou")}
    assert score(hand) == score(hand, options=defaults)
    assert one(score(hand))["hua"] == 24


@pytest.mark.parametrize("rules", RULESETS)
def test_every_choice_of_every_option_is_accepted_as_itself(rules: str) -> None:
    for spec in option_specs(rules):
        for choice in spec.choices:
            assert validate_options(rules, {spec.id: choice})[spec.id] == choice


def test_validate_options_normalizes() -> None:
    got = validate_options(
        "suzhou", {"qidui": 10, "dadiaoche": "X2", "menqing_stack": "on", "extended": "false"}
    )
    assert got["qidui"] == "10" and got["dadiaoche"] == "x2"
    assert got["menqing_stack"] is True and got["extended"] is False
    assert validate_options("suzhou-anhui", None) == {"multi_win": True, "self_draw_only": False}


@pytest.mark.parametrize(
    ("rules", "options", "match"),
    [
        ("suzhou", {"multi_win": True}, "unknown option 'multi_win'"),
        ("suzhou-anhui", {"threshold": "2/3"}, "unknown option 'threshold'"),
        ("suzhou", {"qidui": "20"}, r"options.qidui: invalid value '20' \(choices: 15x2, 10\)"),
        ("suzhou", {"extended": "maybe"}, "options.extended: invalid value"),
    ],
)
def test_validate_options_rejects(rules: str, options: dict[str, object], match: str) -> None:
    with pytest.raises(ScoringError, match=match):
        validate_options(rules, options)


def test_registry_ids_and_names() -> None:
    for rules in RULESETS:  # every pattern a rule set scores is in the registry, with its names
        rule = ruleset(rules)
        assert set(rule.patterns) | set(rule.extended_patterns) <= set(PATTERNS)
    for pattern in PATTERNS.values():
        assert pattern.zh and pattern.zh_hant and pattern.en and pattern.aliases
        assert pattern.predicate is not None
        assert find_pattern(pattern.id) is pattern
        assert find_pattern(pattern.zh) is pattern
        assert find_pattern(pattern.zh_hant) is pattern
        assert find_pattern(pattern.en.upper()) is pattern
        assert all(find_pattern(alias) is pattern for alias in pattern.aliases)


@pytest.mark.parametrize(
    ("word", "pattern_id"),
    [
        ("qys", "qingyise"),
        ("hys", "hunyise"),
        ("ddh", "duiduihu"),
        ("碰碰胡", "duiduihu"),
        ("qd", "qidui"),
        ("七小对", "qidui"),
        ("gk", "gangkai"),
        ("杠上开花", "gangkai"),
        ("槓開", "gangkai"),
        ("ddc", "dadiaoche"),
        ("大吊車", "dadiaoche"),
        ("海底", "haidi"),
        ("dmq", "da_menqing"),
        ("门清", "xiao_menqing"),
        ("豪華七對", "haohua_qidui"),
        ("Half Flush", "hunyise"),
        ("all_pungs", "duiduihu"),
        (" qys ", "qingyise"),
    ],
)
def test_find_pattern_aliases(word: str, pattern_id: str) -> None:
    found = find_pattern(word)
    assert found is not None and found.id == pattern_id


@pytest.mark.parametrize(
    ("words", "patterns", "hua"),
    [
        # 清一色 10 + 七对 15 + 底 5 + 硬花 5 × 2 (七对 counts them twice) = 40; each of three pays 40.
        (["清一色", "七对"], {"qingyise": 10, "qidui": 15}, 40),
        (["qys", "qd"], {"qingyise": 10, "qidui": 15}, 40),
        (["Full Flush", "七小对"], {"qingyise": 10, "qidui": 15}, 40),
        # 对对胡 5 + 大吊车 5 + 底 5 + 硬花 5 = 20.
        (["碰碰胡", "大吊車"], {"duiduihu": 5, "dadiaoche": 5}, 20),
    ],
)
def test_a_declared_pattern_by_any_of_its_names_scores_alike(
    words: list[str], patterns: dict[str, int], hua: int
) -> None:
    r = score(win("S", "self_draw", hard=5, patterns=tuple(words)), stake=5)
    assert items(r) == {**patterns, "di": 5, "yinghua": hua - 5 - sum(patterns.values())}
    assert one(r)["hua"] == hua
    assert r["payments"] == {"E": -5 * hua, "S": 15 * hua, "W": -5 * hua, "N": -5 * hua}


def test_find_pattern_unknown_and_terms() -> None:
    assert find_pattern("包饺子") is None and find_pattern("") is None
    term = find_term("包饺子")
    assert term is not None and term.id == "baojiaozi" and term.kind == "settlement"
    for word, term_id in (
        ("抢杠", "qianggang"),
        ("豹子", "baozi"),
        ("滴零", "diling"),
        ("上牌", "shangpai"),
        ("硬花", "yinghua"),
        ("暗槓", "angang"),
        ("风碰", "fengpeng"),
        ("清一色", "qingyise"),
    ):
        found = find_term(word)
        assert found is not None and found.id == term_id
    qys = find_pattern("qys")
    assert qys is not None and qys.name("en") == "Full flush" and qys.name("zh-Hant") == "清一色"
