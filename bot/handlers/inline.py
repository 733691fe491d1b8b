"""Inline mode: `@bot 11223355778899p 中发春梅` in any chat scores the hand, as /calc's short form does
(南 wins, by self-draw unless the text says 冲; 苏州 defaults, 东 dealing), under both rule sets unless the
text names one; /hu's words (`@bot 东 冲 西 <hand> 海底 混子 5p`, what the picker sends back) say more.
Nothing is recorded. One answer per query text and language is kept (lru_cache), and
Telegram caches the answer too; a button above the results opens the tile picker (WEBAPP_URL)."""

from __future__ import annotations

import functools
import hashlib
import logging

from telegram import (
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
    Update,
    WebAppInfo,
)
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.handlers.calc import calc_lines, default_table, words_entry
from bot.i18n import normalize_language, t
from bot.render import rules_name
from bot.render.errors import USER_ERRORS, error_text
from bot.services import settings_in
from bot.settings import Settings
from scoring import RULESETS, resolve_rules, score_request
from scoring.entry import request_for
from scoring.errors import ScoringError
from scoring.rules import RuleSetId

log = logging.getLogger(__name__)

CACHE_SECONDS = 300  # Telegram keeps an answer this long for the same query text
MAX_QUERY = 256  # Telegram's own bound on an inline query's text
Answer = tuple[tuple[str, str, str, str], ...]  # (id, title, description, message text) per result


def _rules_word(word: str) -> RuleSetId | None:
    try:
        return resolve_rules(word)
    except ScoringError:
        return None


def _result_id(*parts: str) -> str:
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()[:32]


@functools.lru_cache(maxsize=1024)
def inline_answer(text: str, lang: str) -> Answer:
    """The results for one query text in one language (at most one per rule set; one error result when
    the text is not a hand). Pure: the same text always gets the same answer."""
    words = text.split()
    named = [rules for rules in map(_rules_word, words) if rules is not None]
    rest = [word for word in words if _rules_word(word) is None]
    try:
        entry = words_entry(" ".join(rest))
    except USER_ERRORS as exc:
        return (
            (
                _result_id(text, lang, "bad"),
                t(lang, "webapp.inline_bad", reason=error_text(lang, exc)),
                text,
                t(lang, "webapp.inline_bad", reason=error_text(lang, exc)),
            ),
        )
    answers = []
    for rules in dict.fromkeys(named) or RULESETS:
        request = request_for(default_table(rules), entry)
        try:
            response = score_request(request)
        except ScoringError as exc:
            reason = error_text(lang, exc)
            title = t(lang, "webapp.inline_bad", reason=reason)
            answers.append((_result_id(text, lang, rules), title, rules_name(lang, rules), title))
            continue
        win = response["wins"][0]
        name = rules_name(lang, rules)
        key = "webapp.inline_title" if win["allowed"] else "webapp.inline_refused"
        title = t(lang, key, rules=name, hua=win["hua"])
        lines = calc_lines(lang, request, entry, response)
        body = "\n".join([f"🀄 {' '.join(rest)}", title, *lines])
        answers.append((_result_id(text, lang, rules), title, lines[-1] if lines else "", body))
    return tuple(answers)


def picker_button(settings: Settings, lang: str) -> InlineQueryResultsButton | None:
    """The button above the results that opens the picker (a Mini App; it sends the hand back here)."""
    if not settings.webapp_url:
        return None
    return InlineQueryResultsButton(t(lang, "webapp.inline_button"), web_app=WebAppInfo(settings.webapp_url))


async def inline_query(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Answer `@bot <hand>` with the scored hand, in the user's Telegram language."""
    query = update.inline_query
    if query is None:
        return
    settings = settings_in(context.bot_data)
    lang = normalize_language(query.from_user.language_code) or settings.default_language
    text = query.query.strip()[:MAX_QUERY]
    button = picker_button(settings, lang)
    if not text:
        results: list[InlineQueryResultArticle] = []
        help_text = t(lang, "webapp.inline_help")
        results.append(
            InlineQueryResultArticle(_result_id("help", lang), help_text, InputTextMessageContent(help_text))
        )
    else:
        results = [
            InlineQueryResultArticle(rid, title, InputTextMessageContent(body), description=description)
            for rid, title, description, body in inline_answer(text, lang)
        ]
    try:
        await query.answer(results[:50], cache_time=CACHE_SECONDS, is_personal=False, button=button)
    except TelegramError as exc:  # too late (Telegram waits a few seconds) or the query was answered
        log.info("inline query %s not answered: %s", query.id, exc)
