"""The season page's endpoint: who asks (initData, checked), which group (the signed group token in its
start parameter, `webauth.group_token`), whether they are of the group (getChatMember: a member, an
admin, the owner), and the current season's figures as the page draws them, in the group's language.

Refusals are as the picker's (`api.ApiError`): 401 without genuine initData, 403 for a token this bot did
not sign or someone not of the group, 429 beyond the rate limit. The page never gets who owes whom: only
each person's money, nights and hands."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from zoneinfo import ZoneInfo

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from telegram.error import TelegramError

from bot.i18n import DEFAULT_LANGUAGE, catalog, t
from bot.ledger.seasons import state as seasons
from bot.ledger.seasons.figures import SeasonFigures
from bot.ledger.seasons.state import Title
from bot.render.items import term_name
from bot.render.seasons import person, season_name, title_line
from bot.webapp.api import ApiError, _application, _bot_token, _ledger, page_user, rate_limit
from bot.webauth import WebAuthError, read_group_token

MEMBER_STATUSES = frozenset({"creator", "administrator", "member"})
Json = dict[str, object]


def season_strings(lang: str) -> dict[str, str]:
    """The page's texts (`season.page.*`) in its language, as templates the page fills in."""
    prefix = "season.page."
    own, default = catalog(lang), catalog(DEFAULT_LANGUAGE)
    return {key[len(prefix) :]: own.get(key, text) for key, text in default.items() if key.startswith(prefix)}


async def is_member(request: Request, chat_id: int, user_id: int) -> bool:
    """Whether Telegram says the user is in the group now (a restricted member too); False when it
    cannot say."""
    try:
        member = await _application(request).bot.get_chat_member(chat_id, user_id)
    except TelegramError:
        return False
    return member.status in MEMBER_STATUSES or bool(getattr(member, "is_member", False))


async def season(request: Request) -> JSONResponse:
    """GET /api/season: the current season of the group the start parameter names, for its members."""
    user = page_user(request)
    rate_limit(request, "season", user)
    try:
        chat_id = read_group_token(_bot_token(request), user.start_param or "")
    except WebAuthError as exc:
        raise ApiError(403, f"webapp.{exc.code}") from None
    ledger = _ledger(request)
    lang = ledger.cached_language(chat_id)
    if not await is_member(request, chat_id, user.user_id):
        raise ApiError(403, "webapp.not_member", lang=lang)
    data = await asyncio.to_thread(ledger.read, seasons.page_data, chat_id, ledger.now())
    lang = data.language or lang
    body = page_json(lang, data.number, data.figures, data.timezone or "UTC")
    return JSONResponse({**body, "lang": lang, "strings": season_strings(lang)})


def page_json(lang: str, number: int, seen: SeasonFigures, timezone: str) -> Json:
    """The figures as the page draws them: people by id with their names, every money an integer."""
    zone = ZoneInfo(timezone)
    names = {pid: person(lang, who) for pid, who in seen.people.items()}
    running = dict.fromkeys(names, 0)
    trend: dict[str, list[int]] = {names[pid]: [] for pid in names}
    for night in seen.nights:
        for pid in names:
            running[pid] += night.money.get(pid, 0)
            trend[names[pid]].append(running[pid])
    return {
        "title": season_name(lang, number, None),
        "number": number,
        "people": [{"id": pid, "name": name, "table": seen.people[pid].table} for pid, name in names.items()],
        "nights": [
            {
                "n": night.index,
                "session": night.session,
                "date": night.ended_at.astimezone(zone).date().isoformat(),
                "stake": night.stake,
                "money": _by_id(night.money),
            }
            for night in seen.nights
        ],
        "standings": [
            {
                "id": line.person.id,
                "name": names[line.person.id],
                "net": line.net,
                "nights": line.nights,
                "per_night": line.per_night,
                "profit_nights": line.profit_nights,
                "week": line.week,
                "hands": line.hands,
                "wins": line.wins,
                "self_draws": line.self_draws,
                "dealt_in": line.dealt_in,
                "skill": seen.skill.get(line.person.id),  # None until their fifth night
            }
            for line in seen.lines
        ],
        "trend": trend,
        "fed": [
            {"from": a, "to": b, "count": fed.count, "money": fed.money}
            for (a, b), fed in sorted(seen.fed.items())
        ],
        "pairs": [
            {"a": a, "b": b, "nights": together, "money": paid}
            for (a, b), (together, paid) in sorted(seen.between.items())
        ],
        "hands": dict(seen.hands),
        "hua": {str(pid): {"wins": wins, "hua": hua} for pid, (wins, hua) in seen.hua.items()},
        "patterns": {
            str(pid): {term_name(lang, key): count for key, count in found.items()}
            for pid, found in seen.patterns.items()
        },
        "records": [
            {
                "key": r.key,
                "id": r.person,
                "text": title_line(
                    lang, Title(r.key, seen.people[r.person].name, seen.people[r.person].twin, r.value)
                ),
                "night": r.night,
                "hand": r.hand,
            }
            for r in seen.records
            if r.person in seen.people
        ],
        "note": t(lang, "season.page.money_note"),
    }


def _by_id(money: Mapping[int, int]) -> dict[str, int]:
    return {str(pid): amount for pid, amount in money.items()}


ROUTES = [Route("/api/season", season, methods=["GET"])]
