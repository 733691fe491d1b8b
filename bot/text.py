"""The one shortening of text for display: at most `limit` characters, "…" where it was cut (a quoted
excerpt of what a user typed, a chart label, a message or an edit at Telegram's bound)."""

from __future__ import annotations


def shorten(text: str, limit: int) -> str:
    """`text` cut to `limit` characters in all, the last of them "…" where it was cut.

    >>> shorten("Alexander the Great", 12), shorten("老王", 12), len(shorten("x" * 50, 24))
    ('Alexander t…', '老王', 24)
    """
    return text if len(text) <= limit else text[: limit - 1] + "…"
