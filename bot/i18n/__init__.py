"""Message catalogs (zh-Hans default, zh-Hant, en) and `t(lang, key, **params)`.

Each language is one TOML file next to this module. Tables nest into dotted keys: a `[grammar]` table
with `bad_tile = "…"` is the key `grammar.bad_tile`. Placeholders are `str.format` fields: `{player}`.

>>> t("en", "lang.current", language="English")
'Language: English'
>>> t("zh-hant", "lang.current", language="繁體中文")
'語言：繁體中文'
"""

from __future__ import annotations

import logging
import string
import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, Literal, get_args

log = logging.getLogger(__name__)

Language = Literal["zh-Hans", "zh-Hant", "en"]
LANGUAGES: tuple[Language, ...] = get_args(Language)  # the one list: settings, ledger, /lang
DEFAULT_LANGUAGE: Language = "zh-Hans"
_DIR = Path(__file__).parent

# What a user may type after /lang, lower-cased.
_LANGUAGE_ALIASES = {
    "zh-hans": "zh-Hans",
    "zh_hans": "zh-Hans",
    "zh": "zh-Hans",
    "zh-cn": "zh-Hans",
    "cn": "zh-Hans",
    "简体": "zh-Hans",
    "简体中文": "zh-Hans",
    "简": "zh-Hans",
    "中文": "zh-Hans",
    "簡體": "zh-Hans",
    "zh-hant": "zh-Hant",
    "zh_hant": "zh-Hant",
    "zh-tw": "zh-Hant",
    "zh-hk": "zh-Hant",
    "tw": "zh-Hant",
    "繁体": "zh-Hant",
    "繁體": "zh-Hant",
    "繁體中文": "zh-Hant",
    "繁体中文": "zh-Hant",
    "繁": "zh-Hant",
    "en": "en",
    "english": "en",
    "英文": "en",
    "英语": "en",
    "英語": "en",
    "eng": "en",
}


def normalize_language(text: str | None) -> str | None:
    """Map what a user typed (`zh-hant`, `English`, `繁體`) to a catalog id, or None.

    >>> normalize_language("ZH-HANT"), normalize_language("english"), normalize_language("fr")
    ('zh-Hant', 'en', None)
    """
    if not text:
        return None
    return _LANGUAGE_ALIASES.get(text.strip().lower())


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    flat: dict[str, str] = {}
    for name, value in table.items():
        key = f"{prefix}{name}"
        if isinstance(value, Mapping):
            flat.update(_flatten(value, key + "."))
        elif isinstance(value, str):
            flat[key] = value
        else:
            raise TypeError(f"catalog value of {key} must be a string, not {type(value).__name__}")
    return flat


@cache
def catalog(lang: str) -> dict[str, str]:
    """The flat key → template mapping of one language."""
    if lang not in LANGUAGES:
        raise KeyError(f"unknown language {lang!r}")
    with (_DIR / f"{lang}.toml").open("rb") as fh:
        return _flatten(tomllib.load(fh))


def has(key: str, lang: str = DEFAULT_LANGUAGE) -> bool:
    """Whether the catalog of `lang` (or the default) knows `key`."""
    return key in catalog(_resolve(lang)) or key in catalog(DEFAULT_LANGUAGE)


def _resolve(lang: str | None) -> str:
    if lang in LANGUAGES:
        return lang
    return normalize_language(lang) or DEFAULT_LANGUAGE


class _Formatter(string.Formatter):
    """`str.format` with one addition, plurals: `{n:p:flower|flowers}` is "flower" when n is 1, else
    "flowers" (for English; the Chinese catalogs never need it)."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith("p:"):
            one, _, other = format_spec[2:].partition("|")
            return one if value == 1 else other
        return str(super().format_field(value, format_spec))


_FORMATTER = _Formatter()


@cache
def _plural(template: str) -> bool:
    """Whether a template needs `_Formatter` (a `p:` plural field, or one `str.format` cannot read so that
    `_Formatter` reports it): the others are formatted by `str.format_map`, which formats them alike."""
    try:
        return any(spec and spec.startswith("p:") for _, _, spec, _ in _FORMATTER.parse(template))
    except ValueError:
        return True


def t(lang: str | None, key: str, /, **params: object) -> str:
    """The text of `key` in `lang`, formatted with `params`; `{n:p:one|other}` picks a plural.

    Falls back to the default language, then to the key itself, so a missing message never breaks a reply;
    a missing parameter renders empty (and is logged).

    >>> t("en", "preview.win_line", winner="S", how="self-draw", hua=1)
    'self-draw · 1 flower'
    >>> t("en", "preview.win_line", winner="S", how="self-draw", hua=5)
    'self-draw · 5 flowers'
    """
    code = _resolve(lang)
    template = catalog(code).get(key) or catalog(DEFAULT_LANGUAGE).get(key)
    if template is None:
        log.warning("missing message key %s", key)
        return key
    try:
        if _plural(template):
            return _FORMATTER.vformat(template, (), _Params(key, params))
        return template.format_map(_Params(key, params))
    except (IndexError, ValueError, AttributeError, TypeError):
        log.warning("bad template or parameters for message %s in %s: %s", key, code, sorted(params))
        return template


class _Params(dict[str, object]):
    """Format parameters where a missing one renders empty (and is logged) instead of failing a reply."""

    def __init__(self, key: str, params: Mapping[str, object]) -> None:
        super().__init__(params)
        self.key = key

    def __missing__(self, name: str) -> str:
        log.warning("message %s has no parameter %s", self.key, name)
        return ""
