"""The build backend: setuptools, plus mypy among the build requirements when the compiled build is asked for.

`SCORING_USE_MYPYC=1 pip install .` compiles `scoring/` with mypyc (setup.py); without it the install is pure
Python and needs no compiler. setuptools documents this way of adding build requirements on the fly
("in-tree build backend"); black and mypy make the same switch (black's hook `enable-by-default = false`,
mypy's `MYPY_USE_MYPYC=1`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (the backend's hooks: build_wheel, build_sdist, ...)

MYPYC_REQUIREMENT = "mypy==2.4.1"


def use_mypyc() -> bool:
    return os.environ.get("SCORING_USE_MYPYC", "").strip().lower() in ("1", "true", "yes", "on")


@contextmanager
def _setup_py_pure() -> Iterator[None]:
    """setuptools runs setup.py to collect its requirements, before mypy is installed: run it pure then."""
    saved = os.environ.pop("SCORING_USE_MYPYC", None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ["SCORING_USE_MYPYC"] = saved


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    extra = [MYPYC_REQUIREMENT] if use_mypyc() else []
    with _setup_py_pure():
        return [*_setuptools.get_requires_for_build_wheel(config_settings), *extra]


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    extra = [MYPYC_REQUIREMENT] if use_mypyc() else []
    with _setup_py_pure():
        return [*_setuptools.get_requires_for_build_editable(config_settings), *extra]
