"""What the catalog tests read of a template: its named fields."""

from __future__ import annotations

import string


def placeholders(template: str) -> set[str]:
    """The named fields of one template: `"{a} pays {b}"` → {"a", "b"}."""
    return {
        field.split(".")[0].split("[")[0] for _, field, _, _ in string.Formatter().parse(template) if field
    }
