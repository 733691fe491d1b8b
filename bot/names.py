"""The one rule of whom a typed name means, for every command (/hu and the grammar's resolver, /sub, /join,
/seat, /dealer, /paid, /score, /stats): pure, below the grammar and the ledger that both ask it."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T")


def invisible(char: str) -> bool:
    """A character that shows nothing of its own yet changes a name: zero-width and bidirectional
    controls (Unicode category Cf: U+200B, U+200D, U+202E …) and other control characters (Cc).

    >>> invisible("\u200b"), invisible("\u202e"), invisible("台")
    (True, True, False)
    """
    return unicodedata.category(char) in ("Cf", "Cc") and not char.isspace()


def normalise(name: str) -> str:
    """A name as it is compared and shown: Unicode NFKC (full-width letters, compatibility ideographs
    folded), invisible characters (`invisible`) dropped.

    >>> normalise("Ａｎｎ"), normalise("台\u200b")
    ('Ann', '台')
    """
    return "".join(char for char in unicodedata.normalize("NFKC", name) if not invisible(char))


def name_key(word: str) -> str:
    """How a typed name is compared with a person's names: normalised (`normalise`), no white space
    around it, no leading @, any case.

    >>> name_key(" @Ａnn ")
    'ann'
    """
    return normalise(word).strip().removeprefix("@").casefold()


def answers_to(display_name: str, username: str | None) -> tuple[str, ...]:
    """The names a person answers to: their display (or guest) name, and their @username with its @."""
    return (display_name, *((f"@{username}",) if username else ()))


def named(word: str, people: Iterable[tuple[T, Iterable[str]]]) -> list[T]:
    """Whom `word` means: each of `people` comes with the names it answers to (`answers_to`: @username
    with its @). A word with a leading @ fits the @usernames first, then the display names; a word
    without, the display names first, then the @usernames; any case. Everyone the first of the two that
    fits anyone fits, in the order given (a caller with a table may then take the one seated among them;
    several left are asked, never guessed).

    >>> people = [("Liu", answers_to("Liu", None)), ("刘洋", answers_to("刘洋", "liu"))]
    >>> named("liu", people), named("@LIU", people), named("nobody", people)
    (['Liu'], ['刘洋'], [])
    """
    key = name_key(word)
    listed = [(who, {(name.startswith("@"), name_key(name)) for name in names}) for who, names in people]
    for by_username in (True, False) if word.strip().startswith("@") else (False, True):
        found = [who for who, keys in listed if (by_username, key) in keys]
        if found:
            return found
    return []
