"""Error → text: what a user did wrong, in the group's language. A `Refusal` (a catalog key and its
params, raised by a handler), a grammar, ledger or scoring error each become one short reply; nothing here
sends anything."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from bot.grammar.errors import EXCERPT, GrammarError
from bot.i18n import has, t
from bot.ledger.errors import LedgerError
from bot.render.hands import refusal_text
from bot.render.items import join_clauses, join_words, term_name, tile_words
from bot.render.words import rules_name, wind
from bot.text import shorten
from scoring import find_pattern
from scoring.errors import ScoringError
from scoring.rules import RULESETS, is_rule_set_id

log = logging.getLogger(__name__)

QUOTED = ("value", "token", "command", "option", "word", "ref")  # params that echo what a user typed


def excerpt(text: object, limit: int = EXCERPT) -> str:
    """At most `limit` characters of something a user typed, "…" marking a cut."""
    return shorten(str(text), limit)


class Refusal(Exception):
    """A user-facing refusal: a catalog key and its params; nothing was recorded.

    With `usage=True` the reply ends with the command's usage line and example.
    """

    def __init__(self, key: str, /, *, usage: bool = False, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.usage = usage
        self.params = {k: excerpt(v) if k in (*QUOTED, "name") else v for k, v in params.items()}


def ledger_params(lang: str | None, params: Mapping[str, Any]) -> dict[str, Any]:
    """Ledger error params made printable: seats as wind names, lists joined, reasons per winner."""
    out: dict[str, Any] = {
        k: excerpt(v) if k in QUOTED else excerpt(v, 64) if isinstance(v, str) else v
        for k, v in params.items()
    }
    if "seat" in params:
        out["wind"] = wind(lang, params["seat"])
    if "empty" in params:
        empty = list(params["empty"])
        out["missing"] = len(empty)
        out["seats"] = join_words(lang, [wind(lang, s) for s in empty])
    if "names" in params:
        out["names"] = join_words(lang, [str(n) for n in params["names"]])
    if "reasons" in params:
        out["reasons"] = join_clauses(lang, [refusal_text(lang, r) for r in params["reasons"]])
    if "field" in params:
        out["field"] = field_name(lang, params["field"])
    out.setdefault("who", out.get("name") or (wind(lang, params["seat"]) if "seat" in params else ""))
    return out


def field_name(lang: str | None, field: object) -> str:
    """A request field in words: `wins[0].declared.hard_flowers` → 硬花数 (its last part, `field.<name>`);
    a field the catalog does not name reads "this value"."""
    last = str(field or "").rsplit(".", 1)[-1].split("[", 1)[0]
    key = f"field.{last}"
    return t(lang, key if last and has(key) else "field.value")


def _term_or_flag(lang: str | None, name: object) -> str:
    """A flag (`after_kong` → 杠开), a pattern by id or by name (`qingyise`, 清一色 → 清一色 / 清一色 /
    Full flush) or a condition (`self_draw` → 自摸) in words; other text as typed."""
    for key in (f"flag.{name}", f"need.{name}"):
        if has(key):
            return t(lang, key)
    pattern = find_pattern(str(name))
    return term_name(lang, pattern.id if pattern is not None else str(name), excerpt(name))


def _need(lang: str | None, need: object) -> str:
    key = f"need.{need}"
    if has(key):
        return t(lang, key)
    flag = f"flag.{need}"
    return t(lang, flag) if has(flag) else t(lang, "need.other")


def scoring_params(lang: str | None, params: Mapping[str, Any]) -> dict[str, Any]:
    """A ScoringError's params made printable in `lang`: tiles by name, flags, patterns and fields in
    words, typed text cut short."""
    out: dict[str, Any] = {k: excerpt(v) if isinstance(v, str) else v for k, v in params.items()}
    for key in ("tile", "meld"):
        if key in params:
            out[key] = tile_words(lang, params[key])
    for key in ("flag", "other", "pattern"):
        if key in params:
            out[key] = _term_or_flag(lang, params[key])
    if "needs" in params:
        out["needs"] = _need(lang, params["needs"])
    if "rules" in params:
        rules = str(params["rules"])
        out["rules"] = rules_name(lang, rules) if is_rule_set_id(rules) else excerpt(rules)
    if "field" in params:
        out["field"] = field_name(lang, params["field"])
    if "option" in params:
        key = f"option.{params['option']}.name"
        out["option"] = t(lang, key) if has(key) else excerpt(params["option"])
    if "choices" in params:  # bad_option: each allowed value in words (`option.<id>.<value>`)
        option = params.get("option")
        words = [
            t(lang, f"option.{option}.{c}") if has(f"option.{option}.{c}") else c
            for c in str(params["choices"]).split(", ")
        ]
        out["choices"] = join_words(lang, words)
    if "known" in params:  # unknown_option: the rule set's options by name
        names = [
            t(lang, f"option.{o}.name") if has(f"option.{o}.name") else o
            for o in str(params["known"]).split(", ")
        ]
        out["known"] = join_words(lang, names)
    if "wind" in params:
        out["wind"] = (
            wind(lang, params["wind"]) if str(params["wind"]) in "ESWN" else tile_words(lang, params["wind"])
        )
    named = "field" in params and field_name(None, params["field"]) != field_name(None, "")
    out["where"] = t(lang, "scoring.where", field=out["field"]) if named else ""
    return out


WAITING_TILES = 13  # a hand before its winning tile (scoring's tile count for /ting)


def scoring_text(lang: str | None, error: ScoringError) -> str:
    """What is wrong with a hand or a request, in the group's language: catalog `scoring.<code>` with the
    error's params; the English message never reaches a group."""
    code = getattr(error, "code", "invalid")
    params = getattr(error, "params", None) or {}
    if code == "pattern_conflict" and params.get("other") in ("self_draw", "hua"):
        code = "pattern_self_draw" if params["other"] == "self_draw" else "pattern_no_hua"
    if code == "pattern_rules" and "option" not in params:
        code = "pattern_rules_set"  # the pattern does not score in this rule set at all
    if code == "flag_needs" and str(params.get("needs")).replace("_", "-") in RULESETS:
        # 上牌 at a 苏州 table: the flag is the other rule set's, not a condition this hand missed
        code, params = "flag_rules", {**params, "rules": str(params["needs"]).replace("_", "-")}
    if code == "tile_count" and params.get("expected") == WAITING_TILES:
        code = "tile_count_ting"  # /ting: a waiting hand, before the winning tile
    key = f"scoring.{code}" if has(f"scoring.{code}") else "scoring.invalid"
    if key == "scoring.invalid" and code != "invalid":
        log.warning("no catalog text for scoring error %r (%s)", code, error)
    return t(lang, key, **scoring_params(lang, params))


def _scoring_cause(error: BaseException) -> ScoringError | None:
    """The ScoringError behind a grammar or ledger error (its chained cause), if any."""
    seen: set[int] = set()
    cause = error.__cause__
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, ScoringError):
            return cause
        seen.add(id(cause))
        cause = cause.__cause__
    return None


def error_text(lang: str | None, error: BaseException, usage_key: str | None = None) -> str:
    """The reply for an error a user caused: refusal, grammar, ledger or scoring error, every one in the
    group's language (a scoring error behind a grammar or ledger error through `scoring.<code>`)."""
    usage = False
    cause = _scoring_cause(error)
    if isinstance(error, Refusal):
        text, usage = t(lang, error.key, **error.params), error.usage
    elif isinstance(error, GrammarError):
        key = f"grammar.{error.code}"
        params = dict(error.params)
        if "seats" in params:  # the seats a name fits (ambiguous_player), in words
            params["seats"] = join_words(lang, [wind(lang, seat) for seat in str(params["seats"])])
        if cause is not None and "reason" in params:
            params["reason"] = scoring_text(lang, cause)
        text = t(lang, key, **params) if has(key, lang or "") else str(error)
        usage = True
    elif isinstance(error, LedgerError):
        key = f"ledger.{error.code}"
        params = ledger_params(lang, error.params)
        if key == "ledger.invalid_entry":
            params["detail"] = scoring_text(lang, cause or ScoringError("invalid entry"))
        if has(key, lang or ""):
            text = t(lang, key, **params)
        else:
            text = t(lang, "ledger.error", message=excerpt(error, 300))
    elif isinstance(error, ScoringError):
        text = t(lang, "err.scoring", message=scoring_text(lang, error))
    else:
        raise TypeError(f"not a user error: {error!r}")
    if usage and usage_key:
        return t(lang, "err.usage", problem=text, usage=t(lang, usage_key))
    return text


USER_ERRORS = (Refusal, GrammarError, LedgerError, ScoringError)
