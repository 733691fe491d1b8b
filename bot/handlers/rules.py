"""/rules: show the table's rule options; admins or the opener change them by buttons or `/rules id value`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.handlers.common import Refusal, Turn, button, command
from bot.i18n import t
from bot.ledger.results import GroupInfo, SessionInfo
from bot.render import rules_name

INSTANT = "instant"
TIMEOUT = "timeout"
GROUP_OPTIONS = (INSTANT, TIMEOUT)
MIN_TIMEOUT, MAX_TIMEOUT = 5, 86400  # seconds, the ledger's bounds
_TRUE = {"true", "yes", "on", "1", "是", "开", "開"}
_FALSE = {"false", "no", "off", "0", "否", "关", "關"}


@dataclass(frozen=True, slots=True)
class RulesPress:
    """Callback data of a rules button: set `option` to `value` (for the table the message was about)."""

    option: str
    value: Any


def show_value(lang: str | None, value: object) -> str:
    """Booleans as on/off (开/关), anything else as typed."""
    if isinstance(value, bool):
        return t(lang, "rules.on" if value else "rules.off")
    return str(value)


def _description(lang: str | None, spec: Any) -> str:
    return str(spec.en if lang == "en" else spec.zh)


def options_summary(lang: str | None, rules: str, options: Mapping[str, Any]) -> str:
    """`threshold=3/4, qidui=15x2, …` for /seat."""
    from scoring import option_specs

    return ", ".join(f"{spec.id}={show_value(lang, options.get(spec.id, spec.default))}"
                     for spec in option_specs(rules))


async def _table(turn: Turn) -> tuple[GroupInfo, SessionInfo | None, str, dict[str, Any]]:
    group = await turn.run(turn.ledger.get_group, turn.chat_id)
    session = await turn.run(turn.ledger.current_session, turn.chat_id)
    rules = session.rules if session else group.rules
    options = dict(session.options if session else group.options)
    return group, session, rules, options


def _next_choice(choices: tuple[Any, ...], value: Any) -> Any:
    index = choices.index(value) if value in choices else -1
    return choices[(index + 1) % len(choices)]


def rules_view(turn: Turn, group: GroupInfo, session: SessionInfo | None, rules: str,
               options: Mapping[str, Any]) -> tuple[str, InlineKeyboardMarkup]:
    """The /rules message: every option with its meaning and value, and one button per option that moves
    it to its next choice."""
    from scoring import option_specs

    stake = session.stake if session else 1
    lines = [turn.t("rules.header", rules=rules_name(turn.lang, rules), stake=stake)]
    buttons = []
    for spec in option_specs(rules):
        value = options.get(spec.id, spec.default)
        lines.append(turn.t("rules.option", option=spec.id, description=_description(turn.lang, spec),
                            value=show_value(turn.lang, value)))
        nxt = _next_choice(spec.choices, value)
        buttons.append(InlineKeyboardButton(f"{spec.id} → {show_value(turn.lang, nxt)}",
                                            callback_data=RulesPress(spec.id, nxt)))
    lines.append(turn.t("rules.instant", value=show_value(turn.lang, group.instant)))
    lines.append(turn.t("rules.timeout", seconds=group.confirm_timeout_seconds))
    buttons.append(InlineKeyboardButton(f"{INSTANT} → {show_value(turn.lang, not group.instant)}",
                                        callback_data=RulesPress(INSTANT, not group.instant)))
    lines.append(turn.t("rules.choose"))
    return "\n".join(lines), InlineKeyboardMarkup([[b] for b in buttons])


async def require_rules_editor(turn: Turn, session: SessionInfo | None) -> None:
    """Rule changes are for group admins and the player who opened the table."""
    if await turn.is_admin():
        return
    if session is not None and session.opened_by is not None and turn.user is not None:
        me = await turn.run(turn.ledger.ensure_player, turn.chat_id, turn.user)
        if me.id == session.opened_by:
            return
    raise Refusal("err.not_allowed_rules")


async def apply_option(turn: Turn, session: SessionInfo | None, rules: str, option: str, value: Any) -> str:
    """Validate and store one option (the open table and the group's default); the text of the change."""
    from scoring import ScoringError, option_specs, validate_options

    ledger = turn.ledger
    if option == INSTANT:
        flag = _bool(option, value)
        await turn.run(ledger.update_group, turn.chat_id, instant=flag)
        turn.context.application.chat_data[turn.chat_id]["instant"] = flag
        return turn.t("rules.changed", option=option, value=show_value(turn.lang, flag))
    if option == TIMEOUT:
        seconds = str(value).strip()
        if not seconds.isdigit() or not MIN_TIMEOUT <= int(seconds) <= MAX_TIMEOUT:
            raise Refusal("err.bad_option_value", option=option, value=value,
                          choices=f"{MIN_TIMEOUT}–{MAX_TIMEOUT}")
        await turn.run(ledger.update_group, turn.chat_id, confirm_timeout_seconds=int(seconds))
        return turn.t("rules.changed", option=option, value=seconds)
    specs = {spec.id: spec for spec in option_specs(rules)}
    spec = specs.get(option.lower())
    if spec is None:
        raise Refusal("err.unknown_option", usage=True, option=option,
                      choices=", ".join([*specs, *GROUP_OPTIONS]))
    try:
        normalized = validate_options(rules, {spec.id: value})[spec.id]
    except ScoringError:
        raise Refusal("err.bad_option_value", option=spec.id, value=value,
                      choices=", ".join(show_value(turn.lang, c) for c in spec.choices)) from None
    if session is not None:
        await turn.run(ledger.update_session, turn.chat_id, options={spec.id: normalized})
    group = await turn.run(ledger.get_group, turn.chat_id)
    if group.rules == rules:
        await turn.run(ledger.update_group, turn.chat_id, options={spec.id: normalized})
    return turn.t("rules.changed", option=spec.id, value=show_value(turn.lang, normalized))


def _bool(option: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE | _FALSE:
        return text in _TRUE
    raise Refusal("err.bad_option_value", option=option, value=value, choices="on, off")


@command("rules")
async def rules(turn: Turn) -> None:
    """/rules shows the options with buttons; `/rules <option> <value>` changes one;
    `/rules 宿州` sets the group's rule set for the next /newgame."""
    from scoring import ScoringError, resolve_rules

    words = turn.text.split()
    group, session, rule_set, options = await _table(turn)
    if not words:
        text, markup = rules_view(turn, group, session, rule_set, options)
        await turn.say(text, markup)
        return
    if len(words) == 1:
        try:
            chosen = resolve_rules(words[0])
        except ScoringError:
            raise Refusal("err.missing_args", usage=True) from None
        await require_rules_editor(turn, session)
        await turn.run(turn.ledger.update_group, turn.chat_id, rules=chosen)
        await turn.reply("rules.default_changed", rules=rules_name(turn.lang, chosen))
        return
    if len(words) > 2:
        raise Refusal("err.too_many_args", usage=True, value=" ".join(words[2:]))
    await require_rules_editor(turn, session)
    await turn.say(await apply_option(turn, session, rule_set, words[0], words[1]))


@button
async def rules_pressed(turn: Turn, data: RulesPress) -> None:
    """A rules button: change that option, then redraw the rules message in place."""
    group, session, rule_set, _ = await _table(turn)
    await require_rules_editor(turn, session)
    text = await apply_option(turn, session, rule_set, data.option, data.value)
    await turn.answer(text)
    group, session, rule_set, options = await _table(turn)
    view, markup = rules_view(turn, group, session, rule_set, options)
    query = turn.update.callback_query
    assert query is not None and query.message is not None
    await turn.context.bot.edit_message_text(view, chat_id=turn.chat_id, message_id=query.message.message_id,
                                             reply_markup=markup)
