"""The message catalogs: same keys and placeholders in every language, lookups and fallbacks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, catalog, normalize_language, t
from tests.bot.i18n.templates import placeholders

BOT = Path(__file__).resolve().parents[3] / "bot"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != DEFAULT_LANGUAGE])
def test_every_catalog_has_the_same_keys_and_placeholders(lang: str) -> None:
    base, other = catalog(DEFAULT_LANGUAGE), catalog(lang)
    assert sorted(set(base) - set(other)) == [], f"missing in {lang}"
    assert sorted(set(other) - set(base)) == [], f"only in {lang}"
    differing = {
        key: (placeholders(base[key]), placeholders(other[key]))
        for key in base
        if placeholders(base[key]) != placeholders(other[key])
    }
    assert differing == {}


def test_every_template_formats_with_its_own_placeholders() -> None:
    for lang in LANGUAGES:
        for key, template in catalog(lang).items():
            params = {name: 2 for name in placeholders(template)}
            assert "{" not in t(lang, key, **params).replace("{{", ""), (lang, key)


def test_english_plurals_follow_the_count() -> None:
    assert t("en", "preview.win_line", winner="S", how="self-draw", hua=1).endswith("1 flower")
    assert t("en", "preview.win_line", winner="S", how="self-draw", hua=2).endswith("2 flowers")
    assert t("zh-Hans", "preview.win_line", winner="南", how="自摸", hua=1).endswith("1花")


def test_every_key_the_bot_code_uses_exists() -> None:
    """Literal keys in handlers/render/commands are in the default catalog (f-string keys excluded)."""
    pattern = re.compile(r'(?:\bt\(\s*[\w.]+\s*,\s*|\.t\(|\.reply\(|Refusal\()\s*"([a-z_]+\.[\w.-]+)"')
    used: set[str] = set()
    for path in [*BOT.glob("handlers/*.py"), *BOT.glob("render/*.py"), BOT / "commands.py"]:
        used |= set(pattern.findall(path.read_text(encoding="utf-8")))
    assert len(used) > 50
    assert sorted(used - set(catalog(DEFAULT_LANGUAGE))) == []


def test_lookup_in_each_language() -> None:
    assert t("zh-Hans", "wind.E") == "东"
    assert t("zh-Hant", "wind.E") == "東"
    assert t("en", "wind.E") == "E"
    assert t("en", "result.streak", streak=2) == " (streak 2)"


def test_unknown_language_falls_back_to_simplified_chinese() -> None:
    assert t("fr", "wind.S") == "南"
    assert t(None, "wind.S") == "南"


def test_missing_key_and_missing_parameter_never_raise() -> None:
    assert t("en", "no.such.key") == "no.such.key"
    assert t("en", "seat.joined", player="Ann") == "Ann sits at ."


@pytest.mark.parametrize(
    ("typed", "lang"),
    [
        ("en", "en"),
        ("English", "en"),
        ("zh-hant", "zh-Hant"),
        ("ZH-HANT", "zh-Hant"),
        ("繁體", "zh-Hant"),
        ("zh-hans", "zh-Hans"),
        ("简体", "zh-Hans"),
        ("zh", "zh-Hans"),
        ("fr", None),
        ("", None),
    ],
)
def test_normalize_language(typed: str, lang: str | None) -> None:
    assert normalize_language(typed) == lang
