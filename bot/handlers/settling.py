"""Settling up: /paid (a payment, or part of one), /balance (who still owes whom, across sessions), and the
我已付 / 已收到 buttons under a summary. A payer's word is a claim; the payee (or an admin) confirms it; a
payee's own word is a receipt. Each write is one ledger call keyed by its update: a redelivery is silent.
After a payment the summary it belongs to is edited in place, and the open table's card too (it shows what
is still owed from before)."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from functools import partial

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputFile
from telegram.error import TelegramError

from bot.buttons import PAYCODE, PayPress, SettlePress
from bot.grammar.errors import GrammarError
from bot.grammar.lexer import parse_number
from bot.handlers.callbacks import button, command
from bot.handlers.card import show_card
from bot.handlers.permissions import is_admin, person, sole_admin
from bot.handlers.turn import Turn
from bot.ledger import PaymentResult, PlayerInfo, Transfer
from bot.ledger.errors import OwnDebtGuest
from bot.ledger.money import payments, settling
from bot.ledger.money.settling import MAX_PAYMENT
from bot.ledger.play import sessions
from bot.render import person_name
from bot.render.errors import Refusal
from bot.summary.post import refresh_summary
from bot.summary.settling import balance_text, settlement_csv, transfer_line

log = logging.getLogger(__name__)

SHEET_WORDS = {"csv", "表", "表格", "sheet"}


def parse_amount(word: str) -> int:
    """A payment's amount: a whole number above zero (the one numeric parser; Refusal otherwise)."""
    try:
        return parse_number(word, low=1, high=MAX_PAYMENT)
    except GrammarError:
        raise Refusal("settle.bad_amount", usage=True, value=word) from None


@command("paid")
async def paid(turn: Turn) -> None:
    """/paid <player> [amount]: I paid them (they confirm), or they paid me (done); no amount: all of it."""
    words = turn.text.split()
    if not words or len(words) > 2:
        key = "err.missing_args" if not words else "err.too_many_args"
        raise Refusal(key, usage=True, value=" ".join(words[2:]))
    amount = parse_amount(words[1]) if len(words) == 2 else None
    sender = person(turn)
    choices = await turn.read(payments.payment_parties, turn.chat_id, sender, words[0])
    if len(choices) > 1:
        await ask_which(turn, words[0], choices, amount)
        return
    other = choices[0][0]
    result = await turn.run(
        payments.pay, turn.ledger, turn.chat_id, sender, other.id, amount, key=turn.source_key
    )
    await turn.say(payment_text(turn, result))
    await _refresh(turn, result.transfers)


async def ask_which(
    turn: Turn, ref: str, choices: Sequence[tuple[PlayerInfo, Sequence[Transfer]]], amount: int | None
) -> None:
    """A name in /paid fits several people: each, told apart as "Ann（1）", with what is open between the
    sender and them, and a button per person (the press is the presser's /paid to that person)."""
    lines = [turn.t("settle.pay_which", name=ref)]
    buttons = []
    for n, (player, transfers) in enumerate(choices, 1):
        label = turn.t("summary.legend_twin", name=player.display_name, n=player.twin or n)
        open_ = "; ".join(transfer_line(turn.lang, tr, session=True) for tr in transfers)
        lines.append(
            turn.t("settle.pay_which_line", who=label, transfers=open_ or turn.t("settle.pay_which_none"))
        )
        buttons.append([InlineKeyboardButton(label, callback_data=PayPress(player.id, amount).data)])
    await turn.say("\n".join(lines), InlineKeyboardMarkup(buttons))


@button(PayPress.parse)
async def pay_pressed(turn: Turn, press: PayPress) -> None:
    """The person /paid meant, pressed: the presser's /paid to them (a claim or a receipt), once."""
    sender = person(turn)
    result = await turn.run(
        payments.pay, turn.ledger, turn.chat_id, sender, press.player_id, press.amount, key=turn.source_key
    )
    await turn.answer(payment_text(turn, result).split("\n")[0])
    await turn.say(payment_text(turn, result))
    await _refresh(turn, result.transfers)


def payment_text(turn: Turn, result: PaymentResult) -> str:
    """What a payment did, and the transfers it touched as they stand now."""
    first = result.transfers[0]
    lang = turn.lang
    names = {
        "payer": person_name(lang, first.payer),
        "payee": person_name(lang, first.payee),
        "amount": result.amount,
    }
    key = f"settle.done_{result.kind}"
    if result.by is not None:  # an admin (or a guest's seater) pressed for the guest payer, or for the payee
        key, names["by"] = (
            key + ("_by" if result.role == "admin" else "_by_seater"),
            person_name(lang, result.by),
        )
    if result.kind == "claimed" and first.payee.telegram_id is None:  # an admin confirms for a guest
        key += "_guest"
    lines = [turn.t(key, **names)]
    lines += [transfer_line(turn.lang, tr, session=True) for tr in result.transfers]
    return "\n".join(lines)


async def _refresh(turn: Turn, transfers: Iterable[Transfer]) -> None:
    """Edit the summaries of these transfers' sessions, then the open table's card."""
    hours = getattr(turn.settings, "idle_end_hours", None)
    for session_id in dict.fromkeys(tr.session_id for tr in transfers):
        await refresh_summary(turn.context.bot, turn.ledger, session_id, lang=turn.lang, idle_hours=hours)
    if turn.session is not None:
        await show_card(turn, turn.session)


@command("balance")
async def balance(turn: Turn) -> None:
    """/balance: every transfer still open in the group, across sessions, and each person's balance."""
    if turn.text.strip().lower() in SHEET_WORDS:
        await send_sheet(turn)
        return
    if turn.text:
        raise Refusal("err.too_many_args", usage=True, value=turn.text)
    report = await turn.read(settling.balance, turn.chat_id)
    await turn.say(balance_text(turn.lang, report))


async def send_sheet(turn: Turn) -> None:
    """/balance csv: the group's settlement sheet (every transfer, every payment, what is open) as CSV."""
    sheet = await turn.read(settling.sheet, turn.chat_id)
    if not sheet:
        await turn.reply("settle.balance_none")
        return
    data = settlement_csv(turn.lang, sheet, timezone=turn.state.group.timezone)
    document = InputFile(data, filename="mahjong-settlement.csv")
    caption = turn.t("settle.csv_caption")
    await turn.context.bot.send_document(
        turn.chat_id, document, caption=caption, message_thread_id=turn.thread_id
    )


@button(SettlePress.parse)
async def settle_pressed(turn: Turn, press: SettlePress) -> None:
    """我已付 (the payer; an admin for a guest) or 已收到 (the payee, or an admin who is not the payer) under
    a summary; the ledger checks the transfer is this chat's and the presser's to press. An admin's press
    for someone else is announced in the admin's name."""
    user = turn.user
    if user is None:
        raise Refusal("err.not_allowed")
    admin = await is_admin(turn)
    if press.action == "paid":
        claim = partial(
            payments.claim_transfer, turn.ledger, turn.chat_id, press.transfer_id, user, admin=admin
        )
        result = await turn.run(claim, key=turn.source_key)
    else:
        confirm = partial(
            payments.confirm_transfer, turn.ledger, turn.chat_id, press.transfer_id, user, admin=admin
        )
        try:
            result = await turn.run(confirm, key=turn.source_key)
        except OwnDebtGuest:  # an admin's own debt to a guest: hers to confirm if no other admin can
            if not await sole_admin(turn):
                raise
            result = await turn.run(confirm, sole_admin=True, key=turn.source_key)
    await turn.answer(payment_text(turn, result).split("\n")[0])
    await turn.say(payment_text(turn, result))
    await _refresh(turn, result.transfers)
    await _take_stale_buttons(turn, result.transfers)


async def _take_stale_buttons(turn: Turn, transfers: Iterable[Transfer]) -> None:
    """A press under a copy of a summary that is not the one the ledger keeps (a card sent again after a
    send whose outcome was unknown, a 5xx after Telegram posted it): that copy's buttons are taken away,
    with a line pointing to the current one (the press itself counted, once)."""
    message = turn.pressed_message
    if message is None:
        return
    kept = set()
    for session_id in dict.fromkeys(tr.session_id for tr in transfers):
        kept.add((await turn.read(sessions.get_session, session_id)).summary_message_id)
    if message.message_id in kept:
        return
    try:
        await turn.edit(message.message_id, f"{message.text or ''}\n{turn.t('settle.stale_copy')}")
    except TelegramError as exc:
        log.info("stale summary copy %s keeps its buttons: %s", message.message_id, exc)


# ---- 收款码: stored in a private chat, shown in a private chat to those who owe ------------------------

DELETE_WORDS = {"delete", "off", "删除", "刪除", "删", "刪"}


@command("paycode", group_only=False)
async def paycode(turn: Turn) -> None:
    """/paycode in a private chat: how to store a payment QR (send the photo here); `/paycode delete`
    deletes it. In a group: points to the private chat (a QR is not for everyone's eyes)."""
    if turn.is_group:
        raise Refusal("settle.paycode_private")
    user = person(turn)
    if turn.text.split()[:1] and turn.text.split()[0].lower() in DELETE_WORDS:
        await turn.write(turn.source_key, settling.set_paycode, user.telegram_id, None)
        await turn.reply("settle.paycode_deleted")
        return
    await turn.reply("settle.paycode_howto")


@command("paycode", group_only=False)
async def paycode_photo(turn: Turn) -> None:
    """A photo sent to the bot in a private chat: the sender's payment QR, stored by Telegram file id in
    every group they play in."""
    message = turn.update.message if turn.update is not None else None
    if turn.is_group or message is None or not message.photo:
        return
    user = person(turn)
    file_id = message.photo[-1].file_id  # the largest size
    stored = await turn.write(turn.source_key, settling.set_paycode, user.telegram_id, file_id)
    await turn.reply("settle.paycode_stored" if stored else "settle.paycode_no_group")


@command("start", group_only=False)
async def start(turn: Turn) -> None:
    """/start pc<transfer> (the 收款码 button under a summary): the payee's payment QR, in this private
    chat, for the transfer's payer only; /start alone: what the bot is."""
    match = PAYCODE.fullmatch(turn.text.strip())
    if turn.is_group or match is None:
        await turn.reply("settle.start")
        return
    user = person(turn)
    transfer, file_id = await turn.read(settling.paycode_for, int(match.group(1)), user.telegram_id)
    payee = person_name(turn.lang, transfer.payee)
    line = transfer_line(turn.lang, transfer, session=True)
    caption = turn.t("settle.paycode_caption", payee=payee, amount=transfer.open, line=line)
    await turn.context.bot.send_photo(turn.chat_id, file_id, caption=caption)
