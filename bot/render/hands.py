"""A hand in words: its preview, its one-line result, why it was refused."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

from bot.i18n import has, t
from bot.ledger.values import (
    AdjustJSON,
    AdjustResponse,
    HandPreview,
    HandRecord,
    PendingInfo,
    SessionInfo,
    payload_of,
    wins_of,
)
from bot.render.items import (
    item_lines,
    join_words,
    term_name,
    tile_words,
)
from bot.render.words import payments_text, seat_and_name, wind
from scoring.entry import EntryJSON, RequestJSON, WinJSON
from scoring.response import ScoreResponse, WinResult
from scoring.rules import SUZHOU_ANHUI
from scoring.seats import Seat, is_seat

EXEMPT_SHOWN = 3  # a refusal names this many exempt patterns, then 等 / …


def refusal_text(lang: str | None, reason: Mapping[str, Any], winner: str | None = None) -> str:
    """Why one win was refused, with its numbers: `refusal.<reason>` (below_threshold: what the hand has,
    what it needs, and the first few patterns exempt from the threshold, 等 for the rest). `reason` is a
    refused win of the scoring core's response (or of `HandPreview.reasons`); `winner` names the winner
    instead of its wind alone.

    >>> refusal_text("zh-Hans", {"winner": "W", "reason": "self_draw_only"})
    '本桌只许自摸，西 这手是冲胡。'
    """
    code = str(reason.get("reason") or "other")
    key = f"refusal.{code}" if has(f"refusal.{code}") else "refusal.other"
    threshold = reason.get("threshold") or {}
    exempt = [term_name(lang, str(p)) for p in threshold.get("exempt") or ()]
    patterns = join_words(lang, exempt[:EXEMPT_SHOWN])
    if len(exempt) > EXEMPT_SHOWN:
        patterns = t(lang, "refusal.exempt_more", patterns=patterns)
    return t(
        lang,
        key,
        winner=winner or wind(lang, reason.get("winner")),
        have=threshold.get("have", 0),
        need=threshold.get("need", 0),
        exempt=t(lang, "refusal.exempt", patterns=patterns) if exempt else "",
    )


def _times(lang: str | None, win: WinResult | None) -> str:
    """` ×2` after a result's 花 when the win was multiplied; "" otherwise."""
    factor = win["multiplier"] if win is not None else 1
    return t(lang, "result.times", factor=factor) if factor != 1 else ""


def counted(key: str, rules: object) -> str:
    """A message about a winner's 花 in its rule set's words: 宿州 says 花数 N (`<key>_count`), 苏州 N花.

    >>> counted("result.win", "suzhou-anhui"), counted("result.win", "suzhou")
    ('result.win_count', 'result.win')
    """
    return f"{key}_count" if rules == SUZHOU_ANHUI else key


def in_own_words(key: str, rules: object) -> str:
    """A message a 宿州 table says its own way (`<key>_anhui`: 荒庄 beside its 黄庄), else the key.

    >>> in_own_words("row.draw", "suzhou-anhui"), in_own_words("row.draw", "suzhou")
    ('row.draw_anhui', 'row.draw')
    """
    return f"{key}_anhui" if rules == SUZHOU_ANHUI else key


def _rules(hand: HandRecord | HandPreview) -> object:
    """The rule set a row was scored under (an adjustment's request names none)."""
    return cast("Mapping[str, object]", hand.request).get("rules")


def _streak(lang: str | None, streak: int) -> str:
    return t(lang, "result.streak", streak=streak) if streak > 0 else ""


def _discarder(entry: EntryJSON | AdjustJSON) -> Seat | None:
    """The discarder (robbed player) a hand's entry names; None for a self-draw or an adjustment."""
    hand = _as_hand(entry)
    return hand.get("discarder") if hand is not None else None


def _as_hand(entry: EntryJSON | AdjustJSON) -> EntryJSON | None:
    """A row's entry as a hand's (a win, 荒庄, 逃跑); None for an adjustment's, which says no event."""
    return cast(EntryJSON, entry) if "event" in entry else None


def _wins(entry: EntryJSON | AdjustJSON) -> list[WinJSON]:
    """The wins an entry says (none for an adjustment)."""
    hand = _as_hand(entry)
    return list(hand.get("wins") or []) if hand is not None else []


def _how(
    lang: str | None,
    prefix: str,
    entry: EntryJSON | AdjustJSON,
    win: WinJSON,
    name: Callable[[Seat], str] | None = None,
) -> str:
    """Who won and how, in the tables' words: 南 自摸 / 东 点炮，西 胡 / 西 抢 东 的杠 / 南 包饺子（北 包）.
    `name` names a seat (the wind alone by default; the preview adds the player)."""
    who: Callable[[Seat], str] = name or (lambda seat: wind(lang, seat))
    # A stored row may be older than the builder's whole shape: a key it lacks reads as the default.
    winner = who(win["winner"])
    flags = win.get("flags")
    fed = flags.get("kong_fed_by") if flags else None
    if fed:  # 包饺子 on the replacement tile; 送杠 a later self-draw (option songgang)
        key = "kong_fed" if flags and flags.get("after_kong") else "songgang"
        return t(lang, f"{prefix}.{key}", winner=winner, discarder=who(fed))
    kind = win.get("type", "self_draw")
    said = _discarder(entry)
    discarder = who(said) if said else "?"
    if kind == "discard":
        return t(lang, f"{prefix}.discard", winner=winner, discarder=discarder)
    if kind == "rob_kong":
        return t(lang, f"{prefix}.rob_kong", winner=winner, discarder=discarder)
    return t(lang, f"{prefix}.self_draw", winner=winner)


def scored_win(response: ScoreResponse | AdjustResponse, seat: Seat) -> WinResult | None:
    """The scoring core's answer for one winner (None if it has none)."""
    return next((w for w in wins_of(response) if w["winner"] == seat), None)


def _allowed(response: ScoreResponse | AdjustResponse, seat: Seat) -> bool:
    """Whether the winner at `seat` was allowed (a winner the core did not answer for counts as allowed)."""
    scored = scored_win(response, seat)
    return scored is None or scored["allowed"]


def _hua_by_winner(response: ScoreResponse | AdjustResponse) -> dict[Seat, int]:
    return {w["winner"]: w["hua"] for w in wins_of(response)}


def hand_summary(lang: str | None, hand: HandRecord | HandPreview) -> str:
    """A short description of one row: `南 自摸 40花`, `荒庄`, `北 逃跑`, `调账 东→西 50`."""
    entry, response = hand.entry, hand.response
    if hand.kind == "draw":
        return t(lang, in_own_words("row.draw", _rules(hand)))
    if hand.kind == "escape":
        return t(lang, "row.escape", player=wind(lang, entry.get("escaper")))
    if hand.kind == "adjust":
        payer = next((s for s, a in hand.payments.items() if a < 0), "?")
        payee = next((s for s, a in hand.payments.items() if a > 0), "?")
        return t(
            lang,
            "row.adjust",
            payer=wind(lang, payer),
            payee=wind(lang, payee),
            amount=max(hand.payments.values(), default=0),
        )
    hua = _hua_by_winner(response)
    # the allowed winners, as in the result line: a refused or unpaid one of a 一炮多响 is no winner
    wins = [w for w in _wins(entry) if _allowed(response, w["winner"])] or _wins(entry)
    if len(wins) == 1:
        win = wins[0]
        return t(
            lang,
            counted("row.win", _rules(hand)),
            how=_how(lang, "result", entry, win),
            hua=hua.get(win["winner"], 0),
            times=_times(lang, scored_win(response, win["winner"])),
        )
    seats = [w["winner"] for w in wins]
    winners = join_words(lang, (_winner_hua(lang, hand, seat) for seat in seats))
    return t(lang, "row.multi", winners=winners, discarder=wind(lang, entry.get("discarder")))


def _winner_hua(lang: str | None, hand: HandRecord | HandPreview, seat: Seat) -> str:
    """One winner of a 一炮多响 with their 花 and multiplier: `西 8花 ×2`."""
    win = scored_win(hand.response, seat)
    return t(
        lang,
        counted("result.winner_hua", _rules(hand)),
        winner=wind(lang, seat),
        hua=win["hua"] if win is not None else 0,
        times=_times(lang, win),
    )


def result_line(lang: str | None, hand: HandRecord) -> str:
    """The one line after a commit:
    `第7局 南 自摸 40花 → 南 +600 · 东 −200 · 西 −200 · 北 −200 · 下局庄 南 (连庄1)`."""
    entry, after = hand.entry, hand.after
    streak = _streak(lang, after.streak)
    dealer = wind(lang, after.dealer)
    if hand.kind == "adjust":
        payer = next((s for s, a in hand.payments.items() if a < 0), "?")
        payee = next((s for s, a in hand.payments.items() if a > 0), "?")
        note = t(lang, "result.note", note=hand.note) if hand.note else ""
        return t(
            lang,
            "result.adjust",
            payer=wind(lang, payer),
            payee=wind(lang, payee),
            amount=max(hand.payments.values(), default=0),
            note=note,
        )
    if hand.kind == "draw":
        return t(lang, in_own_words("result.draw", _rules(hand)), n=hand.number, dealer=dealer, streak=streak)
    if hand.kind == "escape":
        escaper = entry.get("escaper")
        return t(
            lang,
            "result.escape",
            n=hand.number,
            player=wind(lang, escaper),
            payments=payments_text(lang, hand.payments),
            dealer=dealer,
            streak=streak,
        )
    # the allowed winners: a refused one of a 一炮多响 is paid nothing (its preview said why)
    refused = {w["winner"] for w in wins_of(hand.response) if not w["allowed"]}
    wins = [w for w in _wins(entry) if w["winner"] not in refused]
    winners = [w["winner"] for w in wins]
    payments = payments_text(lang, hand.payments, winners)
    hua = _hua_by_winner(hand.response)
    if len(wins) == 1:
        win = wins[0]
        return t(
            lang,
            counted("result.win", _rules(hand)),
            n=hand.number,
            how=_how(lang, "result", entry, win),
            hua=hua.get(win["winner"], 0),
            times=_times(lang, scored_win(hand.response, win["winner"])),
            payments=payments,
            dealer=dealer,
            streak=streak,
        )
    listed = join_words(lang, (_winner_hua(lang, hand, seat) for seat in winners))
    return t(
        lang,
        "result.multi",
        n=hand.number,
        winners=listed,
        discarder=wind(lang, entry.get("discarder")),
        payments=payments,
        dealer=dealer,
        streak=streak,
    )


def formula_lines(
    lang: str | None, stake: int, dealer: Seat, win: WinResult, paid: Mapping[Seat, int]
) -> list[str]:
    """宿州's formula as a table checks it, each payer's amount from b, f and the 庄/闲 constant:
    `  庄付 1×（2×2+4）= 8 · 闲付 1×（2×2+2）= 6`, ×2 for 上牌 (docs/rules.md §2). `paid`: what each payer
    pays this winner (a 一炮多响's discarder: that winner's share). Empty when an amount is not of that
    form (nothing is guessed)."""
    hua, factor = win["hua"], win["multiplier"]
    parts: dict[tuple[str, int], int] = {}
    for seat, amount in paid.items():
        base, rest = divmod(amount, int(stake) * factor)
        if amount <= 0 or rest or base - 2 * hua not in (1, 2, 4):
            return []
        who = "dealer" if seat == dealer else "other"
        parts[(who, base - 2 * hua)] = amount
    shown = [
        t(
            lang,
            f"preview.formula_{who}",
            stake=stake,
            hua=hua,
            k=k,
            amount=amount,
            times=f"×{factor}" if factor != 1 else "",
        )
        for (who, k), amount in sorted(parts.items())
    ]
    return [t(lang, "preview.formula", parts=" · ".join(shown))] if shown else []


def wild_lines(lang: str | None, wins: list[WinJSON]) -> list[str]:
    """宿州's 混子 of the hand, named (`混子 五筒`); none without one."""
    wild = next((w.get("wild") for w in wins if w.get("wild")), None)
    return [t(lang, "preview.wild", tile=tile_words(lang, str(wild)))] if wild else []


def paid_to(
    payments: Mapping[Seat, int], winner: Seat, discarder: Seat | None, winners: int
) -> dict[Seat, int]:
    """What each payer pays one winner: every payer's amount when they alone won, the discarder's share
    (the winner's receipt) in a 一炮多响."""
    if winners == 1:
        return {seat: -amount for seat, amount in payments.items() if amount < 0}
    return {discarder: payments.get(winner, 0)} if discarder else {}


def preview_text(
    lang: str | None,
    preview: HandPreview,
    session: SessionInfo,
    *,
    number: int | None = None,
    note: str | None = None,
) -> str:
    """The itemized preview: each 花 item, T, multipliers, every player's amount, the next dealer."""
    n = number if number is not None else preview.before.hand_number
    lines = [t(lang, "preview.title_adjust") if preview.kind == "adjust" else t(lang, "preview.title", n=n)]
    entry, response = preview.entry, preview.response
    if preview.kind == "draw":
        lines.append(t(lang, in_own_words("preview.draw", session.rules)))
    elif preview.kind == "escape":
        escaper = entry.get("escaper")
        who = seat_and_name(lang, session, escaper) if is_seat(escaper) else "?"
        lines.append(t(lang, "preview.escape", player=who))
    elif preview.kind == "adjust":
        payer = next((s for s, a in preview.payments.items() if a < 0), None)
        payee = next((s for s, a in preview.payments.items() if a > 0), None)
        lines.append(
            t(
                lang,
                "preview.adjust",
                payer=seat_and_name(lang, session, payer) if payer else "?",
                payee=seat_and_name(lang, session, payee) if payee else "?",
                amount=max(preview.payments.values(), default=0),
                note=t(lang, "result.note", note=preview.note) if preview.note else "",
            )
        )
    else:
        by_winner = {w["winner"]: w for w in wins_of(response)}
        lines += wild_lines(lang, _wins(entry))
        for win in _wins(entry):
            seat = win["winner"]
            scored = by_winner.get(seat)
            who = seat_and_name(lang, session, seat)
            if scored is not None and not scored["allowed"]:
                lines.append(t(lang, "preview.not_allowed", reason=refusal_text(lang, scored, who)))
                continue
            lines.append(
                t(
                    lang,
                    counted("preview.win_line", session.rules),
                    how=_how(lang, "preview", entry, win, lambda s: seat_and_name(lang, session, s)),
                    hua=scored["hua"] if scored else 0,
                )
            )
            lines += item_lines(lang, scored, win, session.rules)
            if scored is not None and session.rules == SUZHOU_ANHUI:
                stake = cast("RequestJSON", preview.request)["stake"]
                paid = paid_to(preview.payments, seat, _discarder(entry), len(_wins(entry)))
                lines += formula_lines(lang, stake, preview.before.dealer, scored, paid)

    if preview.kind != "draw":
        winners = [w["winner"] for w in _wins(entry)]
        lines.append(t(lang, "preview.payments", payments=payments_text(lang, preview.payments, winners)))
    if preview.kind != "adjust":
        after = preview.after
        next_dealer = wind(lang, after.dealer)
        lines.append(t(lang, "preview.next", dealer=next_dealer, streak=_streak(lang, after.streak)))
        if preview.after.diling:
            lines.append(t(lang, "preview.next_diling"))
    if note:
        lines.append(note)
    return "\n".join(lines)


def closed_preview_text(lang: str | None, pending: PendingInfo, session: SessionInfo, status: str) -> str:
    """An entry's preview as it was shown (without the Confirm hint), and a line saying why it is closed
    (expired; dropped when its table ended)."""
    if pending.kind == "undo" or pending.preview is None:
        shown = t(lang, "undo.ask_short") if pending.kind == "undo" else pending.text or ""
    elif pending.kind == "edit":
        number = payload_of(pending, "edit")["number"]
        note = t(lang, "preview.replace", n=number)
        shown = preview_text(lang, pending.preview, session, number=number, note=note)
    else:
        shown = preview_text(lang, pending.preview, session)
    return "\n".join(line for line in (shown, status) if line)
