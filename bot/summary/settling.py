"""The settling-up part of the summary: each transfer's line with its state, the 我已付 / 已收到 buttons under
the summary (their callback data: `bot.buttons.SettlePress`), and the /balance text."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from zoneinfo import ZoneInfo

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.buttons import PAYCODE_START, SettlePress
from bot.i18n import t
from bot.ledger import Balance, PaymentLine, PlayerInfo, SettleFigures, Transfer
from bot.render import person_name, signed
from bot.summary.csvfile import BOM, cell

MAX_BUTTON_ROWS = 20  # transfers with buttons under one summary; the rest are paid with /paid


def _plain_line(lang: str | None, tr: Transfer, amount: int) -> str:
    """`1. Cat → Ann 21`: a transfer's number, who pays whom (told apart by name) and `amount`."""
    payer, payee = person_name(lang, tr.payer), person_name(lang, tr.payee)
    return t(lang, "settle.line", number=tr.number, payer=payer, payee=payee, amount=amount)


def transfer_line(lang: str | None, tr: Transfer, *, session: bool = False) -> str:
    """`1. Cat → Ann 21 · 已付 5 · 待确认 16`, `✅`, `↪ 转入第3场`; with `session`, its session first."""
    line = _plain_line(lang, tr, tr.amount)
    if session:
        line = t(lang, "settle.of_session", number=tr.session_number, line=line)
    if tr.status == "settled":
        return line + t(lang, "settle.state_settled")
    if tr.status == "carried":
        if tr.paid:
            rest = tr.amount - tr.paid
            return line + t(
                lang, "settle.state_carried_rest", paid=tr.paid, rest=rest, number=tr.carried_to_number or ""
            )
        return line + t(lang, "settle.state_carried", number=tr.carried_to_number or "")
    if tr.paid:
        line += t(lang, "settle.state_paid", paid=tr.paid, open=tr.open)
    if tr.claimed:
        line += t(lang, "settle.state_claimed", claimed=tr.claimed)
    return line


def transfer_lines(
    lang: str | None,
    transfers: Sequence[Transfer],
    figures: Iterable[SettleFigures] = (),
    carried_in: Sequence[Transfer] = (),
) -> list[str]:
    """The summary's settling-up block: the transfers (with their state), the earlier debts they replace
    (each with what of it was open and went in), and, where 抹零, the 收盘倍数 or a carried balance changed
    what someone settles, that person's figures."""
    lines = [t(lang, "summary.transfers")] if transfers else [t(lang, "summary.settled")]
    lines += [transfer_line(lang, tr) for tr in transfers]
    if carried_in:
        lines.append(t(lang, "settle.carried_in_header"))
    for tr in carried_in:
        line = _plain_line(lang, tr, tr.amount - tr.paid)  # what of it was open and went in
        lines.append("  " + t(lang, "settle.of_session", number=tr.session_number, line=line))
    changed = [f for f in figures if f.carried or f.fee or f.rake or f.raw != f.net or f.rounded != f.raw]
    if changed:
        lines.append(t(lang, "settle.figures_header"))
    for f in changed:
        lines.append(figure_line(lang, f))
    return lines


def figure_line(lang: str | None, f: SettleFigures) -> str:
    """`Ann：本场 +30 · 上次欠的 −9 · 应结 +21（抹零前 +23）`."""
    parts = [t(lang, "settle.figure_net", net=signed(f.net))]
    multiplier = (f.raw + f.fee + f.rake - f.carried) // f.net if f.net else 1  # raw = net×m + carried − both
    if multiplier != 1:
        parts[0] += t(lang, "settle.figure_multiplier", multiplier=multiplier)
    if f.carried:
        parts.append(t(lang, "settle.figure_carried", carried=signed(f.carried)))
    if f.rake:
        parts.append(t(lang, "settle.figure_rake", rake=signed(-f.rake)))
    if f.fee:
        parts.append(t(lang, "settle.figure_fee", fee=signed(-f.fee)))
    text = t(lang, "settle.figure_due", due=signed(f.rounded))
    if f.rounded != f.raw:
        text += t(lang, "settle.figure_unrounded", raw=signed(f.raw))
    parts.append(text)
    return t(lang, "settle.figure", name=person_name(lang, f.player), parts=" · ".join(parts))


def paycode_link(bot_username: str, transfer_id: int) -> str:
    """The deep link that opens a private chat with the bot showing the payee's 收款码 (to the payer)."""
    return f"https://t.me/{bot_username}?start={PAYCODE_START}{transfer_id}"


def _buttons(lang: str | None, tr: Transfer, bot_username: str | None) -> list[InlineKeyboardButton]:
    paid = SettlePress(tr.id, "paid").data
    received = SettlePress(tr.id, "received").data
    row = [
        InlineKeyboardButton(t(lang, "settle.button_paid", number=tr.number), callback_data=paid),
        InlineKeyboardButton(t(lang, "settle.button_received", number=tr.number), callback_data=received),
    ]
    if tr.paycode and bot_username:
        label = t(lang, "settle.button_paycode", number=tr.number)
        row.append(InlineKeyboardButton(label, url=paycode_link(bot_username, tr.id)))
    return row


def settle_markup(
    lang: str | None, transfers: Sequence[Transfer], bot_username: str | None = None
) -> InlineKeyboardMarkup | None:
    """One row per open transfer: [n 我已付] [n 已收到] and, when the payee stored one and the bot's
    username is known, [n 收款码] (a link to a private chat); None when nothing is open."""
    rows = [_buttons(lang, tr, bot_username) for tr in transfers if tr.id and tr.status in ("open", "partly")]
    return InlineKeyboardMarkup(rows[:MAX_BUTTON_ROWS]) if rows else None


def balance_text(lang: str | None, balance: Balance, names: Mapping[int, PlayerInfo] | None = None) -> str:
    """/balance: every open transfer (its session named) and each person's open balance."""
    if not balance.transfers:
        return t(lang, "settle.balance_none")
    people = dict(names or {})
    for tr in balance.transfers:
        people.setdefault(tr.payer.id, tr.payer)
        people.setdefault(tr.payee.id, tr.payee)
    lines = [t(lang, "settle.balance_header")]
    lines += [transfer_line(lang, tr, session=True) for tr in balance.transfers]
    lines.append(t(lang, "settle.balance_totals"))
    for pid, total in sorted(balance.totals.items(), key=lambda item: (-item[1], item[0])):
        lines.append(
            t(lang, "settle.balance_total", name=person_name(lang, people[pid]), amount=signed(total))
        )
    return "\n".join(lines)


SHEET_COLUMNS = (
    "session",
    "number",
    "payer",
    "payee",
    "payer_id",
    "payee_id",
    "amount",
    "paid",
    "open",
    "status",
    "payment",
    "payment_status",
    "time",
)


def settlement_csv(
    lang: str | None, sheet: Sequence[tuple[Transfer, Sequence[PaymentLine]]], *, timezone: str
) -> bytes:
    """The settlement sheet: one line per payment on each transfer (who paid whom, how much, when, and its
    state), a transfer without payments on a line of its own; what is still open on every line. UTF-8 with
    a BOM, times in the group's zone."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    names = [n.strip() for n in t(lang, "settle.csv_columns").split(",")]
    writer.writerow(names if len(names) == len(SHEET_COLUMNS) else list(SHEET_COLUMNS))
    zone = ZoneInfo(timezone)
    for tr, payments in sheet:
        payer, payee = cell(person_name(lang, tr.payer)), cell(person_name(lang, tr.payee))
        head = [
            tr.session_number,
            tr.number,
            payer,
            payee,
            tr.payer.id,
            tr.payee.id,
            tr.amount,
            tr.paid,
            tr.open,
            t(lang, f"settle.csv_{tr.status}"),
        ]
        for payment in payments or (None,):
            if payment is None:
                writer.writerow([*head, "", "", ""])
                continue
            when = payment.at.astimezone(zone).strftime("%Y-%m-%d %H:%M:%S")
            writer.writerow([*head, payment.amount, t(lang, f"settle.csv_payment_{payment.status}"), when])
    return (BOM + buffer.getvalue()).encode("utf-8")
