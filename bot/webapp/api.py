"""The picker's HTTP endpoints: who is asking (initData, checked), which table (the signed start parameter),
the table as the page draws it, a score as the hand is tapped, and the submission of the hand.

Every request carries `Authorization: tma <initData>`; the table comes from the `start_param` inside that
signed initData, never from the body. Each refusal is an HTTP 4xx with `{"error": <text in the group's
language>, "code": <catalog key>}`; nothing is stored or posted then.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections import deque
from typing import Any

from cachetools import TTLCache
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from telegram.error import TelegramError
from telegram.ext import Application, CallbackContext

from bot.app import AnyApplication
from bot.grammar.words import hu_words, short_words
from bot.handlers.calc import calc_lines, default_table
from bot.handlers.permissions import require
from bot.handlers.picker import PickerSubmission, page_turn
from bot.handlers.turn import Turn
from bot.i18n import DEFAULT_LANGUAGE, catalog, normalize_language, t
from bot.ledger import SEATS, ChatState, Ledger
from bot.ledger.errors import LedgerError
from bot.ledger.play import groups, recording
from bot.render import preview_text, rules_name, wind
from bot.render.errors import USER_ERRORS, Refusal, error_text
from bot.services import ledger_in, settings_in
from bot.settings import Settings
from bot.webapp.page import table_view
from bot.webapp.submit import NotRunning, submitted
from bot.webauth import WebAppUser, WebAuthError, check_init_data, read_table_token
from scoring import score_request
from scoring.entry import EntryJSON, entry_args_from_json, entry_from_json, request_for
from scoring.errors import ScoringError
from scoring.rules import RULESETS, SUZHOU, RuleSetId, is_rule_set_id
from scoring.tiles import FLOWER_NAMES, WIND_FLOWERS

log = logging.getLogger(__name__)

MAX_BODY = 16 * 1024  # bytes: a hand is a few hundred
MAX_DEPTH = 8  # JSON nesting: an entry is five deep (entry, wins, a win, its hand, a meld)
# Requests a user may make in a minute, per worker: a tap scores, a submission posts to the group, the
# season page reads a whole season.
LIMITS = {"score": 240, "submit": 10, "season": 30}
WINDOW = 60.0
READ_TIMEOUT = 10.0  # seconds for the whole body
MAX_SHOWN = 200  # characters of a submission's words kept as its typed text
KEY = re.compile(r"^[A-Za-z0-9_-]{8,64}$")  # a submission's idempotency key, made by the page
INLINE_RULES: dict[RuleSetId, str] = {
    "suzhou": "苏州",
    "suzhou-anhui": "宿州",
}  # the rule set's word in the text sent back


class ApiError(Exception):
    """A refused request: HTTP status and a catalog key (with params) for the page."""

    def __init__(self, status: int, key: str, **params: Any) -> None:
        super().__init__(key)
        self.status, self.key, self.params = status, key, params


def _application(request: Request) -> AnyApplication:
    application = request.app.state.application
    assert isinstance(application, Application)  # bot.webapp.server.build_web keeps it there
    return application


def _settings(request: Request) -> Settings:
    return settings_in(_application(request).bot_data)


def _ledger(request: Request) -> Ledger:
    return ledger_in(_application(request).bot_data)


def _bot_token(request: Request) -> str:
    return str(_application(request).bot.token)


def read_turn(request: Request, state: ChatState, user: WebAppUser) -> Turn:
    """The turn of a page request that only reads (the table, a score): a callback context of its own, for
    the permission check; nothing is written outside the Application's updates."""
    assert state.session is not None
    context = CallbackContext(_application(request), chat_id=state.session.chat_id, user_id=user.user_id)
    return page_turn(context, state, user)


async def read_body(request: Request) -> dict[str, Any]:
    """The JSON object of a request, at most MAX_BODY bytes (413), well-formed (400)."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY:
        raise ApiError(413, "webapp.body_too_large", limit=MAX_BODY // 1024)
    body = bytearray()
    try:
        async with asyncio.timeout(READ_TIMEOUT):  # a half-open request does not hold a worker
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY:
                    raise ApiError(413, "webapp.body_too_large", limit=MAX_BODY // 1024)
    except TimeoutError:
        raise ApiError(408, "webapp.bad_request") from None
    if _depth(body) > MAX_DEPTH:  # bounded before parsing: json.loads recurses
        raise ApiError(400, "webapp.bad_request")
    try:
        data = json.loads(body)
    except ValueError:
        raise ApiError(400, "webapp.bad_request") from None
    if not isinstance(data, dict):
        raise ApiError(400, "webapp.bad_request")
    return data


def _depth(body: bytes | bytearray) -> int:
    """How deep the brackets of a JSON text nest (those inside strings too: a bound, not a parse)."""
    depth = deepest = 0
    for byte in body:
        if byte in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        elif byte in b"]}":
            depth -= 1
    return deepest


Recent = TTLCache[tuple[str, int], deque[float]]
USERS_KEPT = 10_000  # (kind, user) windows kept: the least recently active forgotten first beyond that


def new_recent() -> Recent:
    """Each (kind, user)'s request times of the last WINDOW, forgotten once they have been quiet that long."""
    return TTLCache(maxsize=USERS_KEPT, ttl=WINDOW, timer=time.monotonic)


def rate_limit(request: Request, kind: str, user: WebAppUser) -> None:
    """At most LIMITS[kind] requests of a kind a minute from one user to this server (429 beyond)."""
    now = time.monotonic()
    _recent: Recent = request.app.state.recent  # bot.webapp.server.build_web keeps it there
    times = _recent.get((kind, user.user_id)) or deque()
    while times and now - times[0] > WINDOW:
        times.popleft()
    if len(times) >= LIMITS[kind]:
        raise ApiError(429, "webapp.too_many")
    times.append(now)
    _recent[(kind, user.user_id)] = times  # kept WINDOW from now


def page_user(request: Request) -> WebAppUser:
    """The user of the request's initData (401 when it is missing, forged or stale)."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    try:
        return check_init_data(_bot_token(request), value.strip() if scheme.lower() == "tma" else "")
    except WebAuthError as exc:
        raise ApiError(401, f"webapp.{exc.code}") from None


async def page_table(request: Request, user: WebAppUser) -> ChatState | None:
    """The chat state of the table the start parameter names (None: opened without one, from inline mode).
    A token this bot did not sign is refused (403), one of a table that has ended since is gone (410)."""
    if not user.start_param:
        return None
    try:
        chat_id, session_id = read_table_token(_bot_token(request), user.start_param)
    except WebAuthError as exc:
        raise ApiError(403, f"webapp.{exc.code}") from None
    ledger = _ledger(request)
    state = await asyncio.to_thread(groups.chat_state, ledger, chat_id)
    if state.session is None or state.session.id != session_id:
        raise ApiError(410, "webapp.table_closed", lang=state.group.language)
    return state


def user_language(request: Request, user: WebAppUser | None) -> str:
    """The page's language without a table: the user's Telegram language, else the bot's default."""
    chosen = normalize_language(user.language_code) if user and user.language_code else None
    return chosen or _settings(request).default_language


def page_strings(lang: str) -> dict[str, str]:
    """Every text the page shows, from the catalog of its language (`webapp.page.*`), as templates: the page
    fills in `{n}` and picks `{n:p:one|other}` itself."""
    prefix = "webapp.page."
    own, default = catalog(lang), catalog(DEFAULT_LANGUAGE)
    return {key[len(prefix) :]: own.get(key, text) for key, text in default.items() if key.startswith(prefix)}


def tile_faces(lang: str) -> dict[str, Any]:
    """The characters the page draws on its tiles, in the group's script (`tiles.face_*`: 萬 條 東 發 in a
    zh-Hant group): each suit's, each honour's (1z–7z) and each flower's by its canonical name (the 令风
    too)."""
    suits = dict(zip("mps", t(lang, "tiles.face_suits").split(), strict=True))
    honours = t(lang, "tiles.face_honours").split()
    flowers = dict(zip(FLOWER_NAMES, t(lang, "tiles.face_flowers").split(), strict=True))
    flowers |= dict(zip(WIND_FLOWERS, honours[:4], strict=True))
    return {"suits": suits, "honours": honours, "flowers": flowers}


async def table(request: Request) -> JSONResponse:
    """GET /api/table: the table as the page draws it (rule set, seats, flowers, 混子) and its texts."""
    user = page_user(request)
    state = await page_table(request, user)
    lang = state.group.language if state else user_language(request, user)
    if state is not None:  # a page for a table is for its players and the group's admins
        try:
            await require(read_turn(request, state, user), "record", state.session)
        except Refusal as exc:
            return _refused(403, error_text(lang, exc), exc.key)
    view = table_view(state.session if state and state.session else None, user.user_id)
    words = {
        "faces": tile_faces(lang),
        "winds": {seat: wind(lang, seat) for seat in SEATS},
        "rules_names": {rules: rules_name(lang, rules) for rules in RULESETS},
    }
    return JSONResponse({**view, **words, "lang": lang, "strings": page_strings(lang)})


def _entry(data: dict[str, Any]) -> EntryJSON:
    """The hand of a request, built by `scoring.entry.build_entry` as any other: the page posts the
    builder's arguments (`args`, read by `entry_args_from_json`); an entry in the JSON interface of
    docs/rules.md §4 (`entry`, read by `entry_from_json`) is read into the same arguments. 400 when there
    is neither object; a ScoringError naming the field when it is not a hand."""
    args, entry = data.get("args"), data.get("entry")
    if isinstance(args, dict):
        return entry_args_from_json(args).build()
    if isinstance(entry, dict):
        return entry_from_json(entry)
    raise ApiError(400, "webapp.bad_request")


async def score(request: Request) -> JSONResponse:
    """POST /api/score {args or entry, rules?}: the hand scored as it stands: the table's preview text (or,
    without a table, the /calc reading under the rule set asked for), or what is wrong with it (422)."""
    user = page_user(request)
    rate_limit(request, "score", user)
    data = await read_body(request)
    state = await page_table(request, user)
    if state is not None and state.session is not None:
        session, lang = state.session, state.group.language
        try:  # a table's preview (names, hand number) is for its players and the group's admins
            await require(read_turn(request, state, user), "record", session)
        except Refusal as exc:
            return _refused(403, error_text(lang, exc), exc.key)
        try:
            entry = _entry(data)
            ledger = _ledger(request)
            preview = await asyncio.to_thread(
                recording.preview, ledger, session.chat_id, entry, session=session
            )
        except (LedgerError, ScoringError) as exc:
            return _refused(422, error_text(lang, exc), type(exc).__name__)
        text = preview_text(lang, preview, session)
        return JSONResponse({"text": text, "allowed": preview.allowed, "payments": preview.payments})
    lang = user_language(request, user)
    asked = data.get("rules")
    rules = asked if is_rule_set_id(asked) else SUZHOU
    try:
        entry = _entry(data)
        request_ = request_for(default_table(rules), entry)
        response = await asyncio.to_thread(score_request, request_)
    except ScoringError as exc:
        return _refused(422, error_text(lang, exc), "ScoringError")
    allowed = all(w["allowed"] for w in response["wins"])
    text = "\n".join(calc_lines(lang, request_, entry, response))
    query = f"{INLINE_RULES[rules]} {short_words(entry) or hu_words(entry)}"  # what inline mode reads
    return JSONResponse({"text": text, "allowed": allowed, "payments": response["payments"], "query": query})


async def submit(request: Request) -> JSONResponse:
    """POST /api/submit {args or entry, key}: the hand's preview posted to the table's group with
    Confirm/Cancel, the same pending entry as /hu. Seated players and admins only (403); once per key (a
    repeat, from any worker, answers `duplicate` and posts nothing)."""
    user = page_user(request)
    rate_limit(request, "submit", user)
    data = await read_body(request)
    state = await page_table(request, user)
    if state is None:
        raise ApiError(403, "webapp.no_table")
    key = data.get("key")
    if not isinstance(key, str) or not KEY.match(key):
        raise ApiError(400, "webapp.bad_request")
    try:
        entry = _entry(data)
    except ScoringError as exc:
        return _refused(422, error_text(state.group.language, exc), "ScoringError")
    assert state.session is not None  # page_table: the table the token names, open
    lang = state.group.language
    submission = PickerSubmission(
        chat_id=state.session.chat_id,
        session_id=state.session.id,
        user=user,
        key=key,
        entry=entry,
        shown=hu_words(entry)[:MAX_SHOWN],
    )
    try:
        outcome = await submitted(_application(request), submission)
    except USER_ERRORS as exc:
        status = 403 if isinstance(exc, Refusal) and exc.key.startswith("err.not_allowed") else 422
        return _refused(status, error_text(lang, exc), type(exc).__name__)
    except TelegramError as exc:  # the group could not be told: say so rather than fail silently
        log.warning("picker submission to chat %s not posted: %s", submission.chat_id, exc)
        return _refused(502, t(lang, "webapp.telegram_failed"), "TelegramError")
    except NotRunning:
        return _refused(503, t(lang, "err.internal"), "NotRunning")
    except Exception:  # logged by the Application's error handler
        return _refused(500, t(lang, "err.internal"), "InternalError")
    if outcome == "closed":
        raise ApiError(410, "webapp.table_closed", lang=lang)
    said = {"sent": "webapp.sent", "recorded": "webapp.recorded", "duplicate": "webapp.duplicate"}[outcome]
    return JSONResponse({"status": "duplicate" if outcome == "duplicate" else "sent", "text": t(lang, said)})


def _refused(status: int, text: str, code: str) -> JSONResponse:
    return JSONResponse({"error": text, "code": code}, status_code=status)


def api_error_response(request: Request, exc: Exception) -> JSONResponse:
    """An ApiError as JSON, in the table's language when known, else the user's or the default."""
    assert isinstance(exc, ApiError)
    lang = exc.params.pop("lang", None) or _settings(request).default_language
    return _refused(exc.status, t(lang, exc.key, **exc.params), exc.key)


ROUTES = [
    Route("/api/table", table, methods=["GET"]),
    Route("/api/score", score, methods=["POST"]),
    Route("/api/submit", submit, methods=["POST"]),
]
