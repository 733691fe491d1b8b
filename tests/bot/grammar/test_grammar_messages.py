"""Every grammar error has its message in the three catalogs, with the same placeholders as the default."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import bot.grammar
from bot.grammar import MESSAGES, GrammarError
from bot.i18n import LANGUAGES, catalog, t
from tests.bot.i18n.templates import placeholders

SOURCE = "".join(p.read_text() for p in Path(bot.grammar.__file__).parent.glob("*.py"))
RAISED = sorted(set(re.findall(r'GrammarError\(\s*"(\w+)"', SOURCE)))


def test_every_raised_code_has_a_default_message() -> None:
    assert RAISED and set(RAISED) <= set(MESSAGES)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_catalog_message(lang: str, code: str) -> None:
    key = f"grammar.{code}"
    assert key in catalog(lang)
    assert placeholders(catalog(lang)[key]) == placeholders(MESSAGES[code])


def test_a_message_names_the_word_in_each_language() -> None:
    error = GrammarError("bad_hua", token="5.5花", position=7, index=3)
    for lang in LANGUAGES:
        assert "5.5花" in t(lang, error.key, **error.params)
