"""The layout a newcomer finds their way in: no module of the bot or the scoring core over 600 lines (a module
that grows past it is two things in one file, to be split by what each owns)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 600
MODULES = sorted(
    path
    for package in ("bot", "scoring")
    for path in (ROOT / package).rglob("*.py")
    if "migrations" not in path.parts
)


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_module_is_over_600_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= LIMIT, (
        f"{path.relative_to(ROOT)} has {lines} lines (at most {LIMIT}): split it by what it owns"
    )


def test_the_modules_are_found() -> None:
    assert len(MODULES) > 100
