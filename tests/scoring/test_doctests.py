"""The runnable examples in the docstrings of the rules layer stay true."""

import doctest
import importlib

import pytest

MODULES = [
    "scoring.rules",
    "scoring.patterns",
    "scoring.items",
    "scoring.score",
    "scoring.settle",
    "scoring.dealer",
    "scoring.request",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
