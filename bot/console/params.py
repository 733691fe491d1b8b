"""Bot API request parameters: form fields decoded as Telegram reads them, and the checks methods share."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bot.console.markup import EntityParseError, visible_text
from bot.console.model import JSON, bad_request

# Parameters that stay strings even when they look like JSON ("123", "true").
_STRING_PARAMS = frozenset(
    {
        "text",
        "caption",
        "emoji",
        "callback_query_id",
        "parse_mode",
        "url",
        "action",
        "language_code",
        "title",
        "description",
        "short_description",
        "name",
        "secret_token",
        "file_id",
        "business_connection_id",
        "inline_message_id",
        "message_effect_id",
        "custom_title",
    }
)
MAX_TEXT = 4096
MAX_CAPTION = 1024


def decode_params(params: Mapping[str, Any]) -> JSON:
    """Form fields as Telegram reads them: JSON values decoded, text fields kept as strings."""
    decoded: JSON = {}
    for key, value in params.items():
        if isinstance(value, str) and key not in _STRING_PARAMS:
            try:
                decoded[key] = json.loads(value)
            except ValueError:
                decoded[key] = value
        else:
            decoded[key] = value
    return decoded


def required_param(params: JSON, name: str) -> Any:
    """The parameter's value; 400 "<name> is empty" when it is missing or empty."""
    value = params.get(name)
    if value is None or value == "":
        raise bad_request(f"{name} is empty" if name != "chat_id" else "chat_id is empty")
    return value


def check_markup(markup: Any) -> JSON | None:
    """A reply_markup as Telegram validates an inline keyboard (button texts, 1-64 bytes of callback data)."""
    if markup is None:
        return None
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" in markup:
        rows = markup["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise bad_request('field "inline_keyboard" of InlineKeyboardMarkup must be an Array of Arrays')
        for row in rows:
            for button in row:
                if not button.get("text"):
                    raise bad_request("button text is empty")
                data = button.get("callback_data")
                if data is not None and not 1 <= len(str(data).encode()) <= 64:
                    raise bad_request("BUTTON_DATA_INVALID")
                kinds = {
                    "callback_data",
                    "url",
                    "switch_inline_query",
                    "switch_inline_query_current_chat",
                    "copy_text",
                    "web_app",
                    "login_url",
                    "pay",
                    "callback_game",
                    "switch_inline_query_chosen_chat",
                }
                if not kinds & set(button):
                    raise bad_request(
                        "can't parse inline keyboard button: "
                        "Text buttons are unallowed in the inline keyboard"
                    )
    return markup


def text_param(params: JSON, name: str = "text", limit: int = MAX_TEXT, required: bool = True) -> str | None:
    """The text (or caption) as the chat shows it after parse_mode, checked for emptiness and length."""
    raw = params.get(name)
    if raw is None or raw == "":
        if required:
            raise bad_request("message text is empty")
        return None
    try:
        shown = visible_text(str(raw), params.get("parse_mode"))
    except EntityParseError as exc:
        raise bad_request(f"can't parse entities: {exc}") from None
    if required and not shown.strip():
        raise bad_request("message text is empty")
    if len(shown) > limit:
        raise bad_request("message is too long" if name == "text" else "message caption is too long")
    return shown
