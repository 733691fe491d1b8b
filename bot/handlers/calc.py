"""/calc scores a hand and /ting lists a waiting hand's tiles, from the scoring core; nothing is recorded.

/calc takes the words of /hu (`/calc 南 冲 西 <hand>`, `/calc 东 自摸 5花 清一色`), scored with the open
table's rules, options, stake and dealer state (东 before the first dealer is chosen), else 苏州 defaults
with 东 dealing; the answer says which rules and dealer it used. The short form `/calc <hand> [自摸|冲]`
scores the hand as 南 (a non-dealer), on 北's discard. /ting accepts `混子 <tile>` and reads the hand with
the table's rule set (宿州: 令风 flowers after the first flower, the wild)."""

from __future__ import annotations

from typing import Any

from bot.grammar import make_resolver, parse_hu, vocab
from bot.grammar.errors import GrammarError
from bot.grammar.hu import Resolve
from bot.grammar.lexer import tokenize
from bot.grammar.shorthand import hand_object
from bot.handlers.callbacks import command
from bot.handlers.turn import Turn, seat_resolver
from bot.i18n import has, t
from bot.render import payments_text, refusal_text, rules_name, stake_text, wind
from bot.render.errors import Refusal
from bot.render.hands import counted, formula_lines, paid_to, wild_lines
from bot.render.items import item_lines, join_words, tile_words
from scoring import score_request, ting_request
from scoring.entry import Claim, EntryJSON, How, RequestJSON, TableJSON, build_entry, request_for
from scoring.response import ScoreResponse
from scoring.rules import SUZHOU_ANHUI, RuleSetId
from scoring.seats import SEATS, Seat
from scoring.tiles import tile_from_name, tile_name

CALC_WINNER: Seat = "S"
CALC_DISCARDER: Seat = "N"  # a non-dealer wins; the player before the dealer discards
ALL_SEATS = make_resolver({seat: [] for seat in SEATS})  # seat words only, when no table is open
# The table keys of a request when no table is open: 苏州 defaults, stake 1, 东 dealing in the 东风圈.
DEFAULT_TABLE: TableJSON = {"rules": "suzhou", "options": {}, "stake": 1, "dealer": "E", "round_wind": "E"}


def default_table(rules: RuleSetId = "suzhou") -> TableJSON:
    """The table keys of a request without a table (a fresh copy): `DEFAULT_TABLE` under `rules`."""
    return {**DEFAULT_TABLE, "options": {}, "rules": rules}


def _table(turn: Turn) -> tuple[TableJSON, bool]:
    """The table keys of a request and whether they are the open table's: its rules, options, stake and
    dealer state; else 苏州 with its default options, stake 1, 东 dealing in the 东风圈."""
    session = turn.session if turn.is_group else None
    if session is not None:
        state = session.state
        return {
            "rules": session.rules,
            "options": dict(session.options),
            "stake": session.stake,
            "dealer": state.dealer,
            "round_wind": state.round_wind,
            "baozi": state.baozi,
            "diling": state.diling,
        }, True
    return default_table(), False


def short_form(words: list[str]) -> EntryJSON:
    """`<hand> [自摸|冲]`: the hand as 南's, by self-draw or on 北's discard."""
    how: How = "self_draw"
    if words and vocab.HOW_WORDS.get(words[-1].casefold()) in (vocab.DISCARD, vocab.SELF_DRAW):
        how = "discard" if vocab.HOW_WORDS[words.pop().casefold()] == vocab.DISCARD else "self_draw"
    if not words:
        raise Refusal("err.calc_needs_tiles", usage=True)
    hand = hand_object(tokenize(" ".join(words)))
    other = CALC_DISCARDER if how == "discard" else None
    return build_entry(how, [Claim(CALC_WINNER, hand)], other=other)


def calc_entry(turn: Turn, text: str) -> EntryJSON:
    """The entry /calc scores: the words of /hu (players by seat, or by name at the open table), else the
    short form (a hand first)."""
    session = turn.session if turn.is_group else None
    return words_entry(text, seat_resolver(session) if session is not None else ALL_SEATS)


def words_entry(text: str, resolve: Resolve[Seat] = ALL_SEATS) -> EntryJSON:
    """The entry of /hu's words (`东 冲 西 <hand> 海底`), else of the short form (a hand first)."""
    try:
        return parse_hu(text, resolve)
    except GrammarError as exc:
        if exc.code not in ("missing_winner", "unknown_player"):
            raise
        try:
            return short_form(text.split())
        except GrammarError:
            if exc.code == "missing_winner":  # `5花 清一色`: /calc's own example, not /hu's
                raise GrammarError("calc_missing_winner", **exc.params) from None
            raise exc from None


@command("calc", group_only=False)
async def calc(turn: Turn) -> None:
    """/calc <winner> <how> [discarder] <hand or 花 count and patterns>, or /calc <hand> [自摸|冲]: score a
    hand without recording it."""
    if not turn.text:
        raise Refusal("err.calc_needs_tiles", usage=True)
    entry = calc_entry(turn, turn.text)
    table, at_table = _table(turn)
    request = request_for(table, entry)
    response = await turn.run(score_request, request)
    first = entry["wins"][0]
    how = {"discard": "flow.discard", "rob_kong": "flow.rob_kong"}.get(first["type"], "flow.self_draw")
    key = "calc.defaults"
    if at_table:  # no dealer chosen yet: the stored 东, said so (nothing is recorded)
        key = "calc.at_table" if turn.session is not None and turn.session.dealer_known else "calc.no_dealer"
    used = turn.t(key, dealer=wind(turn.lang, table["dealer"]))
    lines = [
        turn.t("calc.header", rules=rules_name(turn.lang, table["rules"]), how=turn.t(how)) + " · " + used,
        *calc_lines(turn.lang, request, entry, response),
    ]
    await turn.say("\n".join(lines))


def calc_lines(lang: str, request: RequestJSON, entry: EntryJSON, response: ScoreResponse) -> list[str]:
    """A scored hand without a table's preview: each winner's items (or why the win is refused), then the
    total and everyone's amount (also inline mode's and the picker's answer without a table)."""
    winners = [w["winner"] for w in entry["wins"]]
    typed = {w["winner"]: w for w in entry["wins"]}
    scored = {w["winner"]: w for w in response["wins"]}
    lines: list[str] = wild_lines(lang, list(entry["wins"]))
    for seat in winners:
        win = scored[seat]
        if len(winners) > 1:
            each = counted("result.winner_hua", request["rules"])
            times = t(lang, "result.times", factor=win["multiplier"]) if win["multiplier"] != 1 else ""
            lines.append(t(lang, each, winner=wind(lang, seat), hua=win["hua"], times=times))
        if not win["allowed"]:
            lines.append(t(lang, "calc.not_allowed", reason=refusal_text(lang, win)))
            continue
        lines += item_lines(lang, win, typed.get(seat), request["rules"])
        if request["rules"] == SUZHOU_ANHUI:
            paid = paid_to(response["payments"], seat, request.get("discarder"), len(winners))
            lines += formula_lines(lang, request["stake"], request["dealer"], win, paid)
    if any(w["allowed"] for w in scored.values()):
        payments = payments_text(lang, response["payments"], winners)
        stake = stake_text(lang, request["rules"], request["stake"])
        if len(winners) > 1:  # each winner's 花 is on its own line above
            lines.append(t(lang, "calc.total_multi", stake=stake, payments=payments))
        else:
            hua = scored[winners[0]]["hua"]
            lines.append(
                t(lang, counted("calc.total", request["rules"]), hua=hua, stake=stake, payments=payments)
            )
    return lines


def ting_words(text: str) -> tuple[str, str | None]:
    """The hand of /ting and its 混子: `混子 5p` (or 混子5p, wild 5p) anywhere among the words."""
    words, wild, rest = text.split(), None, []
    i = 0
    while i < len(words):
        word = words[i]
        glued = None if word.casefold() in vocab.WILD_WORDS else vocab.split_wild(word)
        if word.casefold() in vocab.WILD_WORDS or glued is not None:
            tile_text = glued if glued is not None else (words[i + 1] if i + 1 < len(words) else "")
            i += 1 if glued is not None else 2
            try:
                wild = tile_name(tile_from_name(tile_text))
            except ValueError:
                raise Refusal("grammar.bad_wild", usage=True, token=tile_text or word) from None
            continue
        rest.append(word)
        i += 1
    return " ".join(rest), wild


def ting_line(
    lang: str, wait: dict[str, Any], rules: RuleSetId | None = None, tiles: list[str] | None = None
) -> str:
    """One wait as one sentence: the tile (or `tiles`, several that score alike), then its self-draw and
    discard, each its 花 when it wins (宿州: 花数 N), else why not (硬花不够, a discarded 混子, only
    self-draw); one phrase when too few 硬花 stop both."""
    tile = join_words(lang, [tile_words(lang, code) for code in tiles or [wait["tile"]]])
    said = _ting_said(lang, wait, rules)
    if said is None:
        return t(lang, "ting.line_both", tile=tile, both=t(lang, "ting.both_below"))
    return t(lang, "ting.line", tile=tile, **said)


def _ting_said(lang: str, wait: dict[str, Any], rules: RuleSetId | None) -> dict[str, str] | None:
    """What a wait's self-draw and discard say; None when too few 硬花 stop both."""
    cases = {how: wait[how] for how in ("self_draw", "discard")}
    if all(c.get("reason") == "below_threshold" for c in cases.values()):
        return None
    said = {}
    for how, case in cases.items():
        if case.get("allowed", True):
            said[how] = t(lang, counted(f"ting.{how}", rules), hua=case.get("hua", 0))
        else:
            key = f"ting.{case.get('reason')}_{how}"
            said[how] = t(lang, key if has(key, lang) else f"ting.no_{how}")
    return said


def ting_lines(lang: str, waits: list[dict[str, Any]], rules: RuleSetId | None) -> list[str]:
    """The waits, those that score alike on one line (九张一样的行 read as one: 一万、四万、七万：…)."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for wait in waits:
        groups.setdefault(repr(_ting_said(lang, wait, rules)), []).append(wait)
    return [ting_line(lang, alike[0], rules, [w["tile"] for w in alike]) for alike in groups.values()]


@command("ting", group_only=False)
async def ting(turn: Turn) -> None:
    """/ting <13 tiles> [flowers] [混子 <tile>]: the tiles completing the hand, with their 花 by self-draw
    and discard, under the table's rule set."""
    if not turn.text:
        raise Refusal("err.missing_args", usage=True)
    hand, wild = ting_words(turn.text)
    table, _at_table = _table(turn)
    request = {**table, "seat": CALC_WINNER, "hand": hand, **({"wild": wild} if wild else {})}
    response = await turn.run(ting_request, request)
    waits = response.get("waits", [])
    if not waits:
        await turn.reply("ting.none")
        return
    lines = [turn.t("ting.header", count=len(waits))]
    lines += ting_lines(turn.lang, waits, table["rules"])
    await turn.say("\n".join(lines))
