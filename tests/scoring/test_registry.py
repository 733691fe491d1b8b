"""Rule-set tables, options and the pattern registry: names, aliases and find_pattern."""

import pytest

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

PATTERN_IDS = [
    "da_menqing",
    "xiao_menqing",
    "hunyise",
    "qingyise",
    "duiduihu",
    "qidui",
    "gangkai",
    "huakai",
    "dadiaoche",
    "tianhu",
    "dihu",
    "haidi",
    "yitiaolong",
    "xiaosanfeng",
    "sanfengke",
    "xiaosixi",
    "dasixi",
    "haohua_qidui",
    "shuanghao_qidui",
    "sanhao_qidui",
    "hua_dasanyuan",
    "hua_xiaosanyuan",
]


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


def test_suzhou_table_values() -> None:
    rule = ruleset("suzhou")
    assert dict(rule.items) == {
        "di": 5,
        "yinghua": 1,
        "minggang": 1,
        "angang": 2,
        "fengpeng": 1,
        "feng_anke": 2,
        "feng_minggang": 3,
        "feng_angang": 4,
        "ruanhua": 1,
    }
    assert dict(rule.patterns) == {
        "da_menqing": 10,
        "xiao_menqing": 5,
        "hunyise": 5,
        "qingyise": 10,
        "duiduihu": 5,
        "qidui": 15,
        "gangkai": 5,
        "huakai": 5,
        "dadiaoche": 5,
        "tianhu": 50,
        "dihu": 50,
        "haidi": 5,
    }
    assert dict(rule.extended_patterns) == {
        "yitiaolong": 10,
        "xiaosanfeng": 6,
        "sanfengke": 12,
        "xiaosixi": 48,
        "dasixi": 64,
        "haohua_qidui": 15,
        "shuanghao_qidui": 30,
        "sanhao_qidui": 50,
        "hua_dasanyuan": 24,
        "hua_xiaosanyuan": 16,
    }
    assert "haidi" not in rule.exempt
    assert {
        "xiao_menqing",
        "da_menqing",
        "duiduihu",
        "hunyise",
        "qidui",
        "qingyise",
        "gangkai",
        "huakai",
        "baojiaozi",
        "dadiaoche",
        "tianhu",
        "dihu",
    } <= rule.exempt


def test_option_specs_and_defaults() -> None:
    specs = {spec.id: spec for spec in option_specs("suzhou")}
    assert {k: s.default for k, s in specs.items()} == {
        "menqing_stack": False,
        "qidui": "15x2",
        "dadiaoche": "5",
        "threshold": "3/4",
        "threshold_counts_soft": False,
        "doubling_stack": False,
        "dealer_after_draw": "next",
        "extended": False,
        "damenqing": "strict",
        "xiaomenqing_kong": False,
        "qidui_menqing": False,
        "songgang": "replacement",
        "duiduihu": "5",
        "hunyise": "5",
        "qingyise": "10",
        "sanfengke": "12",
        "haoqidui": "3/6",
    }
    assert specs["threshold"].choices == ("3/4", "2/3")
    assert all(spec.zh and spec.en for spec in specs.values())
    assert {s.id: s.default for s in option_specs("宿州")} == {"multi_win": True, "self_draw_only": False}


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
    assert list(PATTERNS) == PATTERN_IDS
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
