"""Telegram's parse modes (HTML, MarkdownV2, Markdown): the plain text a chat shows, or the 400 error."""

from __future__ import annotations

import re
from html.parser import HTMLParser

# Tags the Bot API accepts in parse_mode=HTML (https://core.telegram.org/bots/api#html-style).
_HTML_TAGS = frozenset(
    {
        "b",
        "strong",
        "i",
        "em",
        "u",
        "ins",
        "s",
        "strike",
        "del",
        "a",
        "code",
        "pre",
        "span",
        "tg-spoiler",
        "tg-emoji",
        "blockquote",
    }
)
_MDV2_RESERVED = frozenset("_*[]()~`>#+-=|{}.!")


class EntityParseError(ValueError):
    """The text does not parse in the requested parse mode; str() is Telegram's description tail."""


class _TelegramHTML(HTMLParser):
    """Collects the visible text and rejects what Telegram's HTML parser rejects."""

    def __init__(self, raw: str) -> None:
        super().__init__(convert_charrefs=True)
        self.raw = raw
        self.parts: list[str] = []
        self.stack: list[str] = []

    def _offset(self) -> int:
        line, col = self.getpos()
        lines = self.raw.split("\n")
        chars = sum(len(text) + 1 for text in lines[: line - 1]) + col
        return len(self.raw[:chars].encode())

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br":
            raise EntityParseError(f'Unsupported start tag "{tag}" at byte offset {self._offset()}')
        if tag not in _HTML_TAGS:
            raise EntityParseError(f'Unsupported start tag "{tag}" at byte offset {self._offset()}')
        if tag == "span" and dict(attrs).get("class") != "tg-spoiler":
            raise EntityParseError(f'Unsupported start tag "span" at byte offset {self._offset()}')
        self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        raise EntityParseError(f'Unsupported start tag "{tag}" at byte offset {self._offset()}')

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            raise EntityParseError(
                f"Unexpected end tag at byte offset {self._offset()}"
                if self.stack
                else f'Unmatched end tag at byte offset {self._offset()}, expected "</{tag}>"'
            )
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _parse_html(text: str) -> str:
    parser = _TelegramHTML(text)
    parser.feed(text)
    parser.close()
    if parser.stack:
        raise EntityParseError(f'Can\'t find end tag corresponding to start tag "{parser.stack[-1]}"')
    if "<" in parser.rawdata:  # an unterminated "<..." left in the buffer
        raise EntityParseError("Unclosed start tag")
    return "".join(parser.parts)


def _parse_markdown_v2(text: str) -> str:
    out: list[str] = []
    open_marks: list[tuple[str, int]] = []
    i, n = 0, len(text)

    def byte_offset(pos: int) -> int:
        return len(text[:pos].encode())

    def toggle(mark: str, pos: int) -> None:
        if open_marks and open_marks[-1][0] == mark:
            open_marks.pop()
        else:
            open_marks.append((mark, pos))

    while i < n:
        c = text[i]
        if c == "\\":
            if i + 1 >= n:
                raise EntityParseError(
                    "Character '\\' is reserved and must be escaped with the preceding '\\'"
                )
            out.append(text[i + 1])
            i += 2
            continue
        if c == "`":
            fence = "```" if text.startswith("```", i) else "`"
            end = text.find(fence, i + len(fence))
            if end < 0:
                raise EntityParseError(
                    f"Can't find end of Pre entity at byte offset {byte_offset(i)}"
                    if fence == "```"
                    else f"Can't find end of Code entity at byte offset {byte_offset(i)}"
                )
            body = text[i + len(fence) : end]
            if fence == "```" and "\n" in body:
                first, rest = body.split("\n", 1)
                body = rest if re.fullmatch(r"[\w+-]*", first) else body
            out.append(body.replace("\\`", "`").replace("\\\\", "\\"))
            i = end + len(fence)
            continue
        if c == "*" or c == "~":
            toggle(c, i)
            i += 1
            continue
        if c == "_":
            mark = "__" if text.startswith("__", i) else "_"
            toggle(mark, i)
            i += len(mark)
            continue
        if c == "|":
            if text.startswith("||", i):
                toggle("||", i)
                i += 2
                continue
            raise EntityParseError("Character '|' is reserved and must be escaped with the preceding '\\'")
        if c == "[":
            open_marks.append(("[", i))
            i += 1
            continue
        if c == "]":
            if not open_marks or open_marks[-1][0] != "[":
                raise EntityParseError(
                    "Character ']' is reserved and must be escaped with the preceding '\\'"
                )
            open_marks.pop()
            if text.startswith("(", i + 1):
                close = text.find(")", i + 2)
                if close < 0:
                    raise EntityParseError(f"Can't find end of a URL at byte offset {byte_offset(i + 1)}")
                i = close + 1
            else:
                i += 1
            continue
        if c == ">" and (i == 0 or text[i - 1] == "\n"):
            i += 1
            continue
        if c in _MDV2_RESERVED:
            raise EntityParseError(f"Character '{c}' is reserved and must be escaped with the preceding '\\'")
        out.append(c)
        i += 1
    if open_marks:
        mark, pos = open_marks[-1]
        raise EntityParseError(f"Can't find end of the entity starting at byte offset {byte_offset(pos)}")
    return "".join(out)


def _parse_markdown(text: str) -> str:
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "*_`":
            fence = "```" if text.startswith("```", i) else c
            end = text.find(fence, i + len(fence))
            if end < 0:
                raise EntityParseError(
                    f"Can't find end of the entity starting at byte offset {len(text[:i].encode())}"
                )
            out.append(text[i + len(fence) : end])
            i = end + len(fence)
            continue
        if c == "[":
            close = text.find("]", i)
            if close < 0:
                raise EntityParseError(
                    f"Can't find end of the entity starting at byte offset {len(text[:i].encode())}"
                )
            out.append(text[i + 1 : close])
            i = close + 1
            if text.startswith("(", i):
                end = text.find(")", i)
                i = end + 1 if end >= 0 else i
            continue
        out.append(c)
        i += 1
    return "".join(out)


def visible_text(text: str, parse_mode: str | None) -> str:
    """The text a Telegram client shows for `text` in `parse_mode`; EntityParseError if Telegram refuses it.

    >>> visible_text("<b>南</b> +600", "HTML")
    '南 +600'
    >>> visible_text("第7局\\\\. 南", "MarkdownV2")
    '第7局. 南'
    """
    if not parse_mode:
        return text
    mode = parse_mode.lower()
    if mode == "html":
        return _parse_html(text)
    if mode == "markdownv2":
        return _parse_markdown_v2(text)
    if mode == "markdown":
        return _parse_markdown(text)
    raise EntityParseError(f"Unsupported parse_mode {parse_mode!r}")


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, the unit of Telegram's entity offsets."""
    return len(text.encode("utf-16-le")) // 2


_ENTITY_RE = re.compile(r"(?<![\w/@])(/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?|@[A-Za-z0-9_]{3,32})")


def incoming_entities(text: str) -> list[dict[str, object]]:
    """bot_command and mention entities Telegram attaches to a user's message text."""
    entities: list[dict[str, object]] = []
    for match in _ENTITY_RE.finditer(text):
        token = match.group(0)
        entities.append(
            {
                "type": "bot_command" if token.startswith("/") else "mention",
                "offset": utf16_len(text[: match.start()]),
                "length": utf16_len(token),
            }
        )
    return entities
