"""initData and the table token, checked against values built here by hand with hmac/hashlib, the way the
Bot API documents the signature (not with the module's own signer)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from urllib.parse import quote

import pytest

from bot.webauth import (
    MAX_AGE_SECONDS,
    WebAuthError,
    check_init_data,
    read_table_token,
    sign_init_data,
    table_token,
)

TOKEN = "5768337691:AAH5YkoiEuPk8-FZa32hStHTqXiLPtAEhx8"
NOW = 1_700_000_000
USER = {"id": 1001, "first_name": "Ann", "last_name": "Lee", "username": "ann", "language_code": "zh-hans"}


def by_hand(fields: dict[str, str], token: str = TOKEN) -> str:
    """initData as Telegram builds it: the hex HMAC-SHA256 of the sorted key=value lines under the key
    HMAC-SHA256(key="WebAppData", message=token), appended as `hash`, every value percent-encoded."""
    secret = hmac.new(key=b"WebAppData", msg=token.encode(), digestmod=hashlib.sha256).digest()
    lines = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    digest = hmac.new(key=secret, msg=lines.encode(), digestmod=hashlib.sha256).hexdigest()
    return "&".join(f"{k}={quote(v, safe='')}" for k, v in [*fields.items(), ("hash", digest)])


def fields(**extra: str) -> dict[str, str]:
    return {
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
        "user": json.dumps(USER, ensure_ascii=False, separators=(",", ":")),
        "auth_date": str(NOW - 60),
        **extra,
    }


def test_genuine_init_data_names_its_user_and_start_param() -> None:
    user = check_init_data(TOKEN, by_hand(fields(start_param="abc_DEF-1")), now=NOW)
    assert (user.user_id, user.full_name, user.username) == (1001, "Ann Lee", "ann")
    assert user.start_param == "abc_DEF-1"
    assert user.auth_date == NOW - 60


def test_a_known_vector_matches_the_documented_construction() -> None:
    # The digest of one fixed initData, written out: any change to the construction breaks it.
    data = by_hand({"auth_date": "1700000000", "user": '{"id":7,"first_name":"A"}'}, "123:ABC")
    assert data.endswith("hash=" + data.rsplit("hash=", 1)[1])
    assert check_init_data("123:ABC", data, now=1_700_000_000).user_id == 7
    secret = hmac.new(b"WebAppData", b"123:ABC", hashlib.sha256).digest()
    expected = hmac.new(secret, b'auth_date=1700000000\nuser={"id":7,"first_name":"A"}', hashlib.sha256)
    assert data.rsplit("hash=", 1)[1] == expected.hexdigest()


def test_unicode_names_survive_percent_encoding() -> None:
    user = dict(USER, first_name="安", last_name="李")
    data = by_hand({"auth_date": str(NOW), "user": json.dumps(user, ensure_ascii=False)})
    assert check_init_data(TOKEN, data, now=NOW).full_name == "安 李"


def test_our_signer_agrees_with_the_hand_built_one() -> None:
    # Console mode signs initData for its user; the server must accept exactly what Telegram would send.
    f = fields(start_param="x")
    assert check_init_data(TOKEN, sign_init_data(TOKEN, f), now=NOW) == check_init_data(
        TOKEN, by_hand(f), now=NOW
    )


@pytest.mark.parametrize(
    "tamper",
    [
        lambda d: d.replace("%22id%22%3A1001", "%22id%22%3A1002"),  # another user id
        lambda d: d.replace(f"auth_date={NOW - 60}", f"auth_date={NOW}"),  # a fresher date
        lambda d: d + "&start_param=other",  # a field added
        lambda d: d.rsplit("&hash=", 1)[0],  # no hash
        lambda d: d[:-1] + ("0" if d[-1] != "0" else "1"),  # one hex digit of the hash
    ],
)
def test_tampered_init_data_is_refused(tamper: object) -> None:
    data = tamper(by_hand(fields()))  # type: ignore[operator]
    with pytest.raises(WebAuthError) as info:
        check_init_data(TOKEN, data, now=NOW)
    assert info.value.code == "init_data_forged"


def test_init_data_signed_with_another_bots_token_is_refused() -> None:
    with pytest.raises(WebAuthError) as info:
        check_init_data(TOKEN, by_hand(fields(), "999:OTHER"), now=NOW)
    assert info.value.code == "init_data_forged"


def test_init_data_older_than_an_hour_is_stale() -> None:
    data = by_hand(fields(auth_date=str(NOW - MAX_AGE_SECONDS - 1)))
    with pytest.raises(WebAuthError) as info:
        check_init_data(TOKEN, data, now=NOW)
    assert info.value.code == "init_data_stale"
    assert check_init_data(TOKEN, by_hand(fields(auth_date=str(NOW - MAX_AGE_SECONDS))), now=NOW)


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ("", "init_data_missing"),
        ("%%%", "init_data_malformed"),
        ("a=1&a=2&hash=00", "init_data_malformed"),
        ("x" * 5000, "init_data_malformed"),
    ],
)
def test_malformed_init_data(data: str, code: str) -> None:
    with pytest.raises(WebAuthError) as info:
        check_init_data(TOKEN, data, now=NOW)
    assert info.value.code == code


def test_signed_init_data_without_a_user_is_refused() -> None:
    with pytest.raises(WebAuthError) as info:
        check_init_data(TOKEN, by_hand({"auth_date": str(NOW), "chat_type": "group"}), now=NOW)
    assert info.value.code == "init_data_no_user"


def test_the_table_token_round_trips_and_is_start_param_safe() -> None:
    value = table_token(TOKEN, -1001000000001, 42)
    assert read_table_token(TOKEN, value) == (-1001000000001, 42)
    assert len(value) <= 64 and all(c.isalnum() or c in "_-" for c in value)
    assert "42" not in value  # opaque: the ids are not spelled out


def test_a_table_token_cannot_be_moved_to_another_table_or_bot() -> None:
    value = table_token(TOKEN, -1001000000001, 42)
    other = table_token(TOKEN, -1001000000001, 43)
    assert value != other
    with pytest.raises(WebAuthError):
        read_table_token("999:OTHER", value)
    # Flip one payload byte (the session id's last): the MAC no longer fits.
    raw = bytearray(base64.urlsafe_b64decode(value + "=="))
    raw[15] ^= 1
    forged = base64.urlsafe_b64encode(bytes(raw)).decode().rstrip("=")
    for bad in (forged, "", "abc", "é" * 38, value[:-2]):
        with pytest.raises(WebAuthError) as info:
            read_table_token(TOKEN, bad)
        assert info.value.code == "table_token_bad"
