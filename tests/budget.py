"""How many examples a property test tries: its budget under the `ci` Hypothesis profile, scaled to the
profile this run loaded (tests/conftest.py registers `dev` and `ci`; HYPOTHESIS_PROFILE picks one).

    @settings(max_examples=examples(150))  # 150 in CI, 30 in the dev loop
"""

from __future__ import annotations

from hypothesis import settings


def examples(ci: int) -> int:
    """`ci` examples under the `ci` profile, proportionally fewer under `dev` (never fewer than one)."""
    scale = settings.default.max_examples / settings.get_profile("ci").max_examples
    return max(1, round(ci * scale))
