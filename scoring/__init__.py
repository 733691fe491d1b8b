"""Scoring core for 苏州麻将 and 宿州麻将: tiles, hands, patterns, settlement, dealer rotation (no I/O).

Public names are loaded lazily on first use so that `import scoring` stays cheap.
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path


def _compiled_library() -> Path | None:
    """The mypyc library of a compiled build (`SCORING_USE_MYPYC=1 pip install .`), or None when pure."""
    spec = importlib.util.find_spec("scoring__mypyc")
    return None if spec is None or spec.origin is None else Path(spec.origin)


def _refuse_stale_build(library: Path | None) -> None:
    """A compiled build older than its sources would run the old code: refuse, saying how to fix it.

    The tolerance covers an install writing the library and the sources a moment apart; an edit comes later.
    """
    if library is None:
        return
    built = library.stat().st_mtime
    for source in sorted(Path(__file__).parent.glob("*.py")):
        if source.stem not in ("__init__", "__main__") and source.stat().st_mtime > built + 2:
            raise ImportError(
                f"{source} changed after the scoring core was compiled ({library.name}): rebuild with "
                "`SCORING_USE_MYPYC=1 pip install -e .`, or go back to pure Python with `pip install -e .` "
                "after deleting the compiled files (scoring/*.so and scoring__mypyc*.so)"
            )


_LIBRARY = _compiled_library()
_refuse_stale_build(_LIBRARY)
COMPILED: bool = _LIBRARY is not None
"""Whether the scoring core runs compiled by mypyc (an opt-in build) or as pure Python (the default)."""

from scoring.errors import ScoringError  # noqa: E402  (after the stale-build check)

# Not `typing.TYPE_CHECKING`: importing typing alone would cost a good part of the 50 ms budget.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from scoring.hand import Hand, Meld, parse_hand, render_hand
    from scoring.hand_json import hand_from_json
    from scoring.patterns import PATTERNS, TERMS, Pattern, find_pattern, find_term
    from scoring.request import score_request
    from scoring.rules import RULESETS, OptionSpec, option_specs, resolve_rules, validate_options
    from scoring.tiles import parse_tiles, render_tiles
    from scoring.ting import ting_request

_EXPORTS: dict[str, str] = {
    "score_request": "scoring.request",
    "ting_request": "scoring.ting",
    "Hand": "scoring.hand",
    "Meld": "scoring.hand",
    "parse_hand": "scoring.hand",
    "render_hand": "scoring.hand",
    "hand_from_json": "scoring.hand_json",
    "parse_tiles": "scoring.tiles",
    "render_tiles": "scoring.tiles",
    "PATTERNS": "scoring.patterns",
    "TERMS": "scoring.patterns",
    "Pattern": "scoring.patterns",
    "find_pattern": "scoring.patterns",
    "find_term": "scoring.patterns",
    "RULESETS": "scoring.rules",
    "OptionSpec": "scoring.rules",
    "option_specs": "scoring.rules",
    "resolve_rules": "scoring.rules",
    "validate_options": "scoring.rules",
}

__all__ = [
    "PATTERNS", "RULESETS", "TERMS", "Hand", "Meld", "OptionSpec", "Pattern", "ScoringError",
    "find_pattern", "find_term", "hand_from_json", "option_specs", "parse_hand",
    "parse_tiles", "render_hand", "render_tiles", "resolve_rules", "score_request", "ting_request",
    "validate_options",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'scoring' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
