"""/season: the current season's standings as a picture card (and, when the Mini App is set up, a button
opening the season page), the hall of fame of closed seasons; `/season close [name]` with a Confirm, for
admins: the final standings and titles posted, the next season begun. Money owed stays owed."""

from __future__ import annotations

import logging

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputFile
from telegram.error import TelegramError

from bot.buttons import SeasonPress
from bot.handlers.callbacks import button, command
from bot.handlers.permissions import require
from bot.handlers.turn import Turn
from bot.ledger.seasons import state as seasons
from bot.render.errors import Refusal
from bot.render.seasons import closed_text, current_text, hall_of_fame, person, season_name
from bot.render.words import signed
from bot.summary.season_card import CardRow, SeasonCard, draw_card
from bot.webauth import group_token

log = logging.getLogger(__name__)

CLOSE_WORDS = {"close", "end", "结束", "結束", "关闭", "關閉"}
CAPTION_LIMIT = 1024


def page_button(turn: Turn) -> InlineKeyboardButton | None:
    """The season page of this group: a direct-link Mini App with the signed group token; None until the
    app's short name is configured (WEBAPP_SHORT_NAME)."""
    short_name, bot = turn.settings.webapp_short_name, turn.context.bot
    if not short_name or not bot.username:
        return None
    token = group_token(bot.token, turn.chat_id)
    return InlineKeyboardButton(
        turn.t("season.page_button"), url=f"https://t.me/{bot.username}/{short_name}?startapp={token}"
    )


@command("season")
async def season(turn: Turn) -> None:
    """/season: the card and the hall of fame; /season close [name]: ask to close the season."""
    words = turn.text.split(maxsplit=1)
    if words and words[0].lower() in CLOSE_WORDS:
        await ask_close(turn, words[1] if len(words) > 1 else None)
        return
    if words:
        raise Refusal("err.too_many_args", usage=True, value=turn.text)
    view = await turn.read(seasons.current, turn.chat_id, turn.ledger.now())
    text = current_text(turn.lang, view.number, view.figures)
    past = hall_of_fame(turn.lang, view.past)
    text = f"{text}\n\n{past}" if past else text
    found = page_button(turn)
    markup = InlineKeyboardMarkup([[found]]) if found else None
    if not view.figures.nights:
        await turn.say(text, markup)
        return
    rows = tuple(
        CardRow(
            person(turn.lang, line.person),
            line.net,
            turn.t("season.card_label", net=signed(line.net), nights=line.nights),
        )
        for line in view.figures.lines
    )
    title = season_name(turn.lang, view.number, None)
    card = SeasonCard(title, turn.t("season.card_subtitle", nights=len(view.figures.nights)), rows)
    try:
        png = await draw_card(card)
        caption = text if len(text) <= CAPTION_LIMIT else None
        await turn.context.bot.send_photo(
            turn.chat_id,
            InputFile(png, filename="season.png"),
            caption=caption,
            reply_markup=markup,
            message_thread_id=turn.thread_id,
        )
        if caption is None:
            await turn.say(text)
    except (TelegramError, OSError, ValueError, RuntimeError):
        log.exception("could not send the season card of chat %s", turn.chat_id)
        await turn.say(text, markup)


async def ask_close(turn: Turn, name: str | None) -> None:
    """/season close [name], admins only: the question with Confirm and Keep."""
    await require(turn, "season", turn.session)
    if name is not None and len(name.strip()) > seasons.NAME_LIMIT:
        raise Refusal("season.name_too_long", limit=seasons.NAME_LIMIT, name=name.strip()[:8] + "…")
    now = turn.ledger.now()
    asked = await turn.write(turn.source_key, seasons.ask_close, turn.chat_id, turn.user, name, now)
    markup = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    turn.t("season.confirm"), callback_data=SeasonPress(asked.season_id).data
                ),
                InlineKeyboardButton(
                    turn.t("season.keep"), callback_data=SeasonPress(asked.season_id, False).data
                ),
            ]
        ]
    )
    await turn.reply(
        "season.ask", markup, season=season_name(turn.lang, asked.number, asked.name), nights=asked.nights
    )


@button(SeasonPress.parse)
async def season_pressed(turn: Turn, press: SeasonPress) -> None:
    """The question's buttons, admins only: close the season once (a second press, or one after it was
    closed, changes nothing), or keep playing it."""
    await require(turn, "season", turn.session)
    message = turn.pressed_message_id
    if not press.close:
        await turn.answer()
        if message is not None:
            await turn.edit(message, turn.t("season.kept"))
        return
    now = turn.ledger.now()
    closed = await turn.write(turn.source_key, seasons.close, turn.chat_id, press.season_id, turn.user, now)
    if closed is None:
        await turn.answer(turn.t("season.already_closed"), alert=True)
        return
    await turn.answer()
    text = closed_text(turn.lang, closed)
    if message is not None:
        await turn.edit(message, text)
    else:
        await turn.say(text)
