"""/rules: show the table's rule options; admins or the opener change them by buttons or `/rules id value`."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.buttons import RulesPress
from bot.grammar.errors import GrammarError
from bot.grammar.lexer import normalize, parse_number
from bot.handlers.callbacks import button, command
from bot.handlers.permissions import own_session, require
from bot.handlers.turn import Turn
from bot.i18n import LANGUAGES, has, t
from bot.ledger import GroupInfo, SessionInfo
from bot.ledger.errors import InvalidValue
from bot.ledger.money import settling
from bot.ledger.options import BY_ID as OPTIONS_BY_ID
from bot.ledger.options import OPTIONS as GROUP_OPTION_TABLE
from bot.ledger.options import SETTLE_IDS
from bot.ledger.play import groups, sessions
from bot.render import rules_name, stake_text
from bot.render.errors import Refusal
from bot.render.items import join_words
from bot.render.zones import zone_name
from scoring import ScoringError, option_specs, resolve_rules, validate_options
from scoring.rules import RuleSetId

# The group's own options (bot.ledger.options, the one table of their bounds and defaults) beside the rule
# set's (scoring.option_specs).
INSTANT, TIMEOUT, CONFIRM_BY, TIMEZONE = "instant", "timeout", "confirm_by", "timezone"
CONFIRM_BY_CHOICES = OPTIONS_BY_ID[CONFIRM_BY].choices
GROUP_OPTIONS = tuple(option.id for option in GROUP_OPTION_TABLE if option.in_rules)
ZONE_WORDS = {  # place names people type for a time zone; any IANA name works too
    "北京": "Asia/Shanghai",
    "上海": "Asia/Shanghai",
    "苏州": "Asia/Shanghai",
    "蘇州": "Asia/Shanghai",
    "宿州": "Asia/Shanghai",
    "台北": "Asia/Taipei",
    "臺北": "Asia/Taipei",
    "香港": "Asia/Hong_Kong",
    "utc": "UTC",
}
_TRUE = {"true", "yes", "on", "1", "是", "开", "開"}
_FALSE = {"false", "no", "off", "0", "否", "关", "關"}


def show_value(lang: str | None, value: object) -> str:
    """Booleans as on/off (开/关), anything else as typed."""
    if isinstance(value, bool):
        return t(lang, "rules.on" if value else "rules.off")
    return str(value)


def value_key(value: object) -> str:
    """The catalog key part of an option value: `true`/`false` for switches, the value itself otherwise."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def option_name(lang: str | None, option: str) -> str:
    """An option's name in the group's language (`option.<id>.name`), its id when the catalog lacks it."""
    key = f"option.{option}.name"
    return t(lang, key) if has(key) else option


def option_value(lang: str | None, option: str, value: object) -> str:
    """What an option value means, in words (`option.<id>.<value>`); on/off or the raw value otherwise."""
    key = f"option.{option}.{value_key(value)}"
    return t(lang, key) if has(key) else show_value(lang, value)


def options_summary(lang: str | None, rules: RuleSetId, options: Mapping[str, Any]) -> str:
    """For /seat, the options this table set other than the defaults, one line each by name and value in
    words (`  起胡门槛：自摸要2张硬花，冲胡要3张`); every option is on /rules."""
    changed = [spec for spec in option_specs(rules) if options.get(spec.id, spec.default) != spec.default]
    if not changed:
        return t(lang, "seat.options_default")
    return "\n".join(
        "  "
        + t(
            lang,
            "rules.option_line",
            name=option_name(lang, spec.id),
            value=option_value(lang, spec.id, options[spec.id]),
        )
        for spec in changed
    )


def _spoken(text: object) -> str:
    """Text compared loosely: no spaces, case folded."""
    return "".join(str(text).split()).casefold()


def _matches(word: str, keys: Iterable[str]) -> bool:
    """Whether `word` is any catalog text of these keys, in any language."""
    spoken = _spoken(word)
    return any(has(key, lang) and _spoken(t(lang, key)) == spoken for key in keys for lang in LANGUAGES)


def _find_option(word: str, ids: Iterable[str]) -> str | None:
    """The option id a user typed: the id itself or its name in any of the three languages."""
    ids = list(ids)
    lowered = word.strip().lower()
    if lowered in ids:
        return lowered
    return next((option for option in ids if _matches(word, [f"option.{option}.name"])), None)


def _typed_value(option: str, choices: tuple[Any, ...], word: str) -> Any:
    """A typed value: one of the choices by its words in any language, a switch by on/off (开/關 …), else
    the text as typed with its full-width forms folded (the scoring core validates it)."""
    word = normalize(word)
    for choice in choices:
        if _matches(word, [f"option.{option}.{value_key(choice)}"]):
            return choice
    if all(isinstance(c, bool) for c in choices):
        text = word.strip().lower()
        if text in _TRUE | _FALSE:
            return text in _TRUE
    return word


def _choices_text(lang: str | None, option: str, choices: Iterable[Any]) -> str:
    """`3/4（自摸 3 张硬花，放冲 4 张）, 2/3（…）`: what may be typed, and what it means."""
    return join_words(
        lang,
        [
            option_value(
                lang, option, c
            )  # a word id (any, next) is not shown in Chinese: its words are typed
            if lang != "en" and isinstance(c, str) and c.replace("_", "").isalpha() and c.isascii()
            else t(lang, "rules.choice", value=show_value(lang, c), meaning=option_value(lang, option, c))
            for c in choices
        ],
    )


VALUE_CELLS = 18  # a /rules button's value part a phone shows beside the option's name (CJK counts two)


def _cells(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def button_label(lang: str | None, name: str, option: str, value: object) -> str:
    """A /rules button whose value a phone does not cut: `起胡门槛 → 2/3`. The next value's meaning where it
    is short, else its typed value (2/3, 15x2), else its meaning up to the first clause (`一炮多响 → 截胡`),
    else on/off or the clause cut with …. The message above says each in full."""
    meaning = option_value(lang, option, value)
    typed = show_value(lang, value)
    word_id = isinstance(value, str) and value.replace("_", "").isalpha()  # any, pung: no word to a reader
    clause = re.split(r"[，,（(；;:：]", meaning)[0].strip()
    for shown in (meaning, None if isinstance(value, bool) or word_id else typed, clause):
        if shown and _cells(shown) <= VALUE_CELLS:
            return f"{name} → {shown}"
    if isinstance(value, bool):
        return f"{name} → {typed}"
    cut = "".join(c for i, c in enumerate(clause) if _cells(clause[: i + 1]) < VALUE_CELLS)
    return f"{name} → {cut}…"


def _rules_of(group: GroupInfo, session: SessionInfo | None) -> tuple[RuleSetId, dict[str, Any]]:
    """The rule set and options in force: the open table's, else the group's defaults."""
    return (session.rules, dict(session.options)) if session else (group.rules, dict(group.options))


def _next_choice(choices: tuple[Any, ...], value: Any) -> Any:
    index = choices.index(value) if value in choices else -1
    return choices[(index + 1) % len(choices)]


def rules_view(turn: Turn, group: GroupInfo, session: SessionInfo | None) -> tuple[str, InlineKeyboardMarkup]:
    """The /rules message: every option by name (and id, for typing) with its value in words, and one
    button per option that moves it to its next choice, labelled in words too."""
    lang = turn.lang
    rules, options = _rules_of(group, session)
    session_id = session.id if session else 0
    stake = session.stake if session else 1
    lines = [turn.t("rules.header", rules=rules_name(lang, rules), stake=stake_text(lang, rules, stake))]
    buttons = []
    for spec in option_specs(rules):
        value = options.get(spec.id, spec.default)
        name = option_name(lang, spec.id)
        lines.append(turn.t("rules.option_line", name=name, value=option_value(lang, spec.id, value)))
        nxt = _next_choice(spec.choices, value)
        press = RulesPress(session_id, spec.id, spec.choices.index(nxt))
        buttons.append(InlineKeyboardButton(button_label(lang, name, spec.id, nxt), callback_data=press.data))
    lines.append(turn.t("rules.instant", value=show_value(lang, group.instant)))
    lines.append(turn.t("rules.timeout", seconds=group.confirm_timeout_seconds))
    lines.append(turn.t("rules.confirm_by", value=option_value(lang, CONFIRM_BY, group.confirm_by)))
    lines.append(turn.t("rules.timezone", zone=zone_name(turn.lang, group.timezone)))
    lines += [settle_line(lang, group), t(lang, "rules.settle_order")]
    flip = not group.instant
    buttons.append(
        InlineKeyboardButton(
            f"{option_name(lang, INSTANT)} → {show_value(lang, flip)}",
            callback_data=RulesPress(session_id, INSTANT, int(flip)).data,
        )
    )
    other = _next_choice(CONFIRM_BY_CHOICES, group.confirm_by)
    buttons.append(
        InlineKeyboardButton(
            button_label(lang, option_name(lang, CONFIRM_BY), CONFIRM_BY, other),
            callback_data=RulesPress(session_id, CONFIRM_BY, CONFIRM_BY_CHOICES.index(other)).data,
        )
    )
    lines.append(turn.t("rules.choose"))
    return "\n".join(lines), InlineKeyboardMarkup([[b] for b in buttons])


async def apply_option(turn: Turn, option: str, value: Any) -> str:
    """Validate and store one option (the open table and the group's default); the text of the change.

    `option` is an id or an option's name in any language; `value` a choice, its words, or on/off."""
    ledger, group, session = turn.ledger, turn.state.group, turn.session
    rules, _options = _rules_of(group, session)
    key = turn.source_key
    specs = {spec.id: spec for spec in option_specs(rules)}
    found = _find_option(option, [*specs, *GROUP_OPTIONS])
    if found == INSTANT:
        flag = _bool(turn.lang, option_name(turn.lang, INSTANT), value)
        await turn.run(groups.update_group, ledger, turn.chat_id, instant=flag, key=key)
        return turn.t(
            "rules.changed", option=option_name(turn.lang, INSTANT), value=show_value(turn.lang, flag)
        )
    if found == TIMEOUT:
        try:  # the one numeric parser: ², ①, +-5, 1.5 are refused like 1 or 86401
            timeout = OPTIONS_BY_ID[TIMEOUT]
            seconds = parse_number(str(value), low=timeout.low, high=timeout.high)
        except GrammarError as exc:
            if exc.code == "odd_digit":  # the one message for ², ①, 𝟗 wherever they are typed
                raise
            name = option_name(turn.lang, TIMEOUT)
            raise Refusal("err.bad_option_value", option=name, value=value, choices=timeout.bounds) from None
        await turn.run(groups.update_group, ledger, turn.chat_id, confirm_timeout_seconds=seconds, key=key)
        shown = turn.t("rules.seconds", seconds=seconds)
        return turn.t("rules.changed", option=option_name(turn.lang, TIMEOUT), value=shown)
    if found == TIMEZONE:
        zone = str(value).strip()
        zone = ZONE_WORDS.get(zone.casefold(), zone)  # the ledger checks the name (InvalidValue)
        try:
            await turn.run(groups.update_group, ledger, turn.chat_id, timezone=zone, key=key)
        except InvalidValue:  # 火星: said with the words that work
            raise Refusal("ledger.bad_timezone", value=value) from None
        return turn.t("rules.changed", option=option_name(turn.lang, TIMEZONE), value=zone)
    if found == CONFIRM_BY:
        who = str(_typed_value(CONFIRM_BY, CONFIRM_BY_CHOICES, str(value))).strip().lower()
        if who not in CONFIRM_BY_CHOICES:
            choices = _choices_text(turn.lang, CONFIRM_BY, CONFIRM_BY_CHOICES)
            name = option_name(turn.lang, CONFIRM_BY)
            raise Refusal("err.bad_option_value", option=name, value=value, choices=choices)
        await turn.run(groups.update_group, ledger, turn.chat_id, confirm_by=who, key=key)
        name = option_name(turn.lang, CONFIRM_BY)
        return turn.t("rules.changed", option=name, value=option_value(turn.lang, CONFIRM_BY, who))
    if found in SETTLE_IDS:
        return await _apply_settle(turn, found, value)
    spec = specs.get(found or "")
    if spec is None:
        names = [option_name(turn.lang, o) for o in [*specs, *GROUP_OPTIONS]]
        raise Refusal("err.unknown_option", usage=True, option=option, choices=join_words(turn.lang, names))
    typed = value if not isinstance(value, str) else _typed_value(spec.id, spec.choices, value)
    name = option_name(turn.lang, spec.id)
    try:
        normalized = validate_options(rules, {spec.id: typed})[spec.id]
    except ScoringError:
        raise Refusal(
            "err.bad_option_value",
            option=name,
            value=value,
            choices=_choices_text(turn.lang, spec.id, spec.choices),
        ) from None
    if session is not None:
        await turn.run(
            sessions.update_session, ledger, turn.chat_id, options={spec.id: normalized}, key=f"{key}:table"
        )
    if group.rules == rules:
        await turn.run(groups.update_group, ledger, turn.chat_id, options={spec.id: normalized}, key=key)
    return turn.t("rules.changed", option=name, value=option_value(turn.lang, spec.id, normalized))


async def _apply_settle(turn: Turn, option: str, value: Any) -> str:
    """A settling-up option: carry on/off, 抹零 0/1/5/10, 收盘倍数, 台费 (per player), 抽水 (percent)."""
    name = option_name(turn.lang, option)
    spec = OPTIONS_BY_ID[option]
    if spec.kind == "switch":
        typed: Any = _bool(turn.lang, name, value)
    else:
        low, high = (min(spec.choices), max(spec.choices)) if spec.kind == "choice" else (spec.low, spec.high)
        try:
            typed = parse_number(str(value), low=low, high=high)
        except GrammarError:
            raise Refusal("err.bad_option_value", option=name, value=value, choices=spec.bounds) from None
        if not spec.allows(typed):
            raise Refusal("err.bad_option_value", option=name, value=value, choices=spec.bounds)
    await turn.run(settling.update_settle, turn.ledger, turn.chat_id, {option: typed}, key=turn.source_key)
    return turn.t("rules.changed", option=name, value=settle_value(turn.lang, option, typed))


def settle_value(lang: str | None, option: str, value: Any) -> str:
    """A settling-up option's value in words: 开/关, 不抹零 / 抹到 5, ×10, 每人 20, 5%."""
    if OPTIONS_BY_ID[option].kind == "switch":
        return show_value(lang, bool(value))
    if not value and option != "multiplier":
        return t(lang, "rules.settle_none")
    return t(lang, f"rules.settle_{option}", value=value)


def settle_line(lang: str | None, group: GroupInfo) -> str:
    """/rules' settling-up line, every option by name and value after the one colon: `结算：没结清的转入下一场
    开 · 抹零 无 · 结算倍数 ×1 …` (a colon in each part would make the line a chain of them)."""
    parts = [
        t(lang, "rules.settle_item", name=option_name(lang, o), value=settle_value(lang, o, group.settle[o]))
        for o in SETTLE_IDS
    ]
    return t(lang, "rules.settle", options=" · ".join(parts))


def _bool(lang: str | None, option: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE | _FALSE:
        return text in _TRUE
    choices = join_words(lang, [show_value(lang, True), show_value(lang, False)])
    raise Refusal("err.bad_option_value", option=option, value=value, choices=choices)


@command("rules")
async def rules(turn: Turn) -> None:
    """/rules shows the options with buttons; `/rules <option> <value>` changes one;
    `/rules 宿州` sets the group's rule set for the next /newgame."""
    words = turn.text.split()
    session = turn.session
    rule_set, _options = _rules_of(turn.state.group, session)
    if not words:
        await turn.say(*rules_view(turn, turn.state.group, session))
        return
    if len(words) == 1:
        try:
            chosen = resolve_rules(words[0])
        except ScoringError:
            raise Refusal("err.missing_args", usage=True) from None
        await require(turn, "rules", session)
        await turn.run(groups.update_group, turn.ledger, turn.chat_id, rules=chosen, key=turn.source_key)
        await turn.reply("rules.default_changed", rules=rules_name(turn.lang, chosen))
        return
    option, value = words[0], words[-1]
    if len(words) > 2:  # an option named in words with spaces: `/rules winning threshold 2/3`
        option = " ".join(words[:-1])
        if _find_option(option, [*_option_ids(rule_set), *GROUP_OPTIONS]) is None:
            raise Refusal("err.too_many_args", usage=True, value=" ".join(words[2:]))
    await require(turn, "rules", session)
    await turn.say(await apply_option(turn, option, value))


def _option_ids(rules: RuleSetId) -> list[str]:
    return [spec.id for spec in option_specs(rules)]


@button(RulesPress.parse)
async def rules_pressed(turn: Turn, press: RulesPress) -> None:
    """A rules button: change that option, then redraw the rules message in place. The button must be of
    this chat's current table (or of the group's defaults while no table is open)."""
    session = await own_session(turn, press.session_id)
    await require(turn, "rules", session)
    rules, _options = _rules_of(turn.state.group, session)
    specs = {spec.id: spec for spec in option_specs(rules)}
    choices: tuple[Any, ...] = (False, True) if press.option == INSTANT else ()
    if press.option == CONFIRM_BY:
        choices = CONFIRM_BY_CHOICES
    if press.option in specs:
        choices = specs[press.option].choices
    if press.choice >= len(choices):
        raise Refusal("err.flow_stale")
    text = await apply_option(turn, press.option, choices[press.choice])
    await turn.answer(text)
    state = await turn.run(groups.chat_state, turn.ledger, turn.chat_id)
    message_id = turn.pressed_message_id
    if message_id is not None:
        await turn.edit(message_id, *rules_view(turn, state.group, state.session))
