"""Mini App credentials: Telegram's `initData` checked as the Bot API documents it, and the opaque
`startapp` token naming one table session (signed by the bot, so no one can craft one for another table).

initData is a query string signed by Telegram: `hash` is HMAC-SHA256 over the other fields as sorted
`key=value` lines joined by a line feed, with the key HMAC-SHA256("WebAppData", bot token). It is trusted
only after that check, and for `MAX_AGE_SECONDS` after its `auth_date`.

>>> token = "123:TEST"
>>> data = sign_init_data(token, {"auth_date": "1000", "user": '{"id": 7, "first_name": "Ann"}'})
>>> check_init_data(token, data, now=1100).user_id
7
>>> read_table_token(token, table_token(token, -100123, 42))
(-100123, 42)
>>> read_group_token(token, group_token(token, -100123))
-100123
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import struct
import time
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode

MAX_AGE_SECONDS = 3600  # initData older than this is refused (the page is reopened for a fresh one)
CLOCK_SKEW_SECONDS = 120  # initData dated further ahead than this is refused (a clock off by a minute is not)
MAX_INIT_DATA = 4096  # longer than anything Telegram sends
_TOKEN_MAC = 12  # bytes of the table token's MAC: 96 bits
_TOKEN_PAYLOAD = struct.Struct(">qq")  # chat id, session id
_GROUP_PAYLOAD = struct.Struct(">q")  # chat id


class WebAuthError(ValueError):
    """initData or a table token that is not to be trusted; `code` says why (catalog `webapp.<code>`)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class WebAppUser:
    """Who opened the Mini App, from checked initData."""

    user_id: int
    first_name: str
    last_name: str | None
    username: str | None
    language_code: str | None
    auth_date: int
    start_param: str | None

    @property
    def full_name(self) -> str:
        """First and last name, as Telegram shows them."""
        return " ".join(part for part in (self.first_name, self.last_name) if part)


def _secret(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def _data_check_string(fields: dict[str, str]) -> str:
    return "\n".join(f"{key}={fields[key]}" for key in sorted(fields) if key != "hash")


def sign_init_data(token: str, fields: dict[str, str]) -> str:
    """initData as Telegram would send it for `fields` (console mode and tests stand in for Telegram)."""
    digest = hmac.new(_secret(token), _data_check_string(fields).encode(), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest})


def _fields(init_data: str) -> dict[str, str]:
    if not init_data or len(init_data) > MAX_INIT_DATA:
        raise WebAuthError("init_data_missing" if not init_data else "init_data_malformed", "no initData")
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise WebAuthError("init_data_malformed", "initData is not a query string") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise WebAuthError("init_data_malformed", "a field of initData appears twice")
    return fields


def _user(fields: dict[str, str]) -> dict[str, object]:
    try:
        user = json.loads(fields.get("user", ""))
    except ValueError:
        user = None
    if not isinstance(user, dict) or isinstance(user.get("id"), bool) or not isinstance(user.get("id"), int):
        raise WebAuthError("init_data_no_user", "initData names no user")
    return user


def check_init_data(
    token: str, init_data: str, *, now: float | None = None, max_age: int = MAX_AGE_SECONDS
) -> WebAppUser:
    """The user of genuine, fresh initData (WebAuthError otherwise: missing, malformed, forged, stale,
    dated in the future)."""
    fields = _fields(init_data)
    given = fields.get("hash", "")
    expected = hmac.new(_secret(token), _data_check_string(fields).encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(given.encode(), expected.encode()):
        raise WebAuthError("init_data_forged", "initData does not carry this bot's signature")
    try:
        auth_date = int(fields.get("auth_date", ""))
    except ValueError:
        raise WebAuthError("init_data_malformed", "initData has no auth_date") from None
    moment = time.time() if now is None else now
    if moment - auth_date > max_age:
        raise WebAuthError("init_data_stale", f"initData is older than {max_age} s")
    if auth_date - moment > CLOCK_SKEW_SECONDS:  # never stale otherwise
        raise WebAuthError("init_data_future", f"initData is dated {auth_date - moment:.0f} s in the future")
    user = _user(fields)

    def text(key: str) -> str | None:
        value = user.get(key)
        return value if isinstance(value, str) and value else None

    user_id = user["id"]
    assert isinstance(user_id, int)
    return WebAppUser(
        user_id=user_id,
        first_name=text("first_name") or str(user_id),
        last_name=text("last_name"),
        username=text("username"),
        language_code=text("language_code"),
        auth_date=auth_date,
        start_param=fields.get("start_param") or None,
    )


def _token_mac(token: str, payload: bytes) -> bytes:
    key = hmac.new(b"StartAppTable", token.encode(), hashlib.sha256).digest()
    return hmac.new(key, payload, hashlib.sha256).digest()[:_TOKEN_MAC]


def table_token(token: str, chat_id: int, session_id: int) -> str:
    """The `startapp` value for one table session of one chat: 38 characters of [A-Za-z0-9_-], as a
    direct-link Mini App's start parameter must be."""
    payload = _TOKEN_PAYLOAD.pack(chat_id, session_id)
    return base64.urlsafe_b64encode(payload + _token_mac(token, payload)).decode().rstrip("=")


def read_table_token(token: str, value: str) -> tuple[int, int]:
    """(chat id, session id) of a table token this bot signed (WebAuthError `table_token_bad` otherwise)."""
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (ValueError, TypeError):
        raw = b""
    payload, mac = raw[: _TOKEN_PAYLOAD.size], raw[_TOKEN_PAYLOAD.size :]
    whole = len(raw) == _TOKEN_PAYLOAD.size + _TOKEN_MAC
    if not whole or not hmac.compare_digest(mac, _token_mac(token, payload)):
        raise WebAuthError("table_token_bad", "the table token was not signed by this bot")
    chat_id, session_id = _TOKEN_PAYLOAD.unpack(payload)
    return chat_id, session_id


def _group_mac(token: str, payload: bytes) -> bytes:
    key = hmac.new(b"StartAppGroup", token.encode(), hashlib.sha256).digest()  # not a table token's key
    return hmac.new(key, payload, hashlib.sha256).digest()[:_TOKEN_MAC]


def group_token(token: str, chat_id: int) -> str:
    """The `startapp` value of a group's season page: 27 characters of [A-Za-z0-9_-], signed by the bot
    under another key than a table token's (neither can stand for the other)."""
    payload = _GROUP_PAYLOAD.pack(chat_id)
    return base64.urlsafe_b64encode(payload + _group_mac(token, payload)).decode().rstrip("=")


def read_group_token(token: str, value: str) -> int:
    """The chat id of a group token this bot signed (WebAuthError `table_token_bad` otherwise)."""
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (ValueError, TypeError):
        raw = b""
    payload, mac = raw[: _GROUP_PAYLOAD.size], raw[_GROUP_PAYLOAD.size :]
    whole = len(raw) == _GROUP_PAYLOAD.size + _TOKEN_MAC
    if not whole or not hmac.compare_digest(mac, _group_mac(token, payload)):
        raise WebAuthError("table_token_bad", "the group token was not signed by this bot")
    (chat_id,) = _GROUP_PAYLOAD.unpack(payload)
    return int(chat_id)


def is_group_token(value: str | None) -> bool:
    """Whether a start parameter has a group token's length (the season page), not a table token's."""
    return value is not None and len(value) == 27
