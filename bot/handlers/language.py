"""/lang: show or switch the chat's language (zh-Hans, zh-Hant, en)."""

from __future__ import annotations

from bot.handlers.callbacks import command
from bot.handlers.permissions import require
from bot.handlers.turn import Turn
from bot.i18n import normalize_language, t
from bot.ledger.play import groups
from bot.render.errors import Refusal


@command("lang", group_only=False)
async def lang(turn: Turn) -> None:
    """/lang shows the language; `/lang en` / `/lang zh-hant` / `/lang 简体` switches it.

    Anyone may switch while no table is open; during a session, seated players and admins."""
    if not turn.text:
        await turn.say(turn.t("lang.current", language=turn.t("lang.name")) + "\n" + turn.t("lang.usage"))
        return
    chosen = normalize_language(turn.text)
    if chosen is None:
        raise Refusal("err.unknown_language", usage=True, value=turn.text)
    if turn.is_group and turn.session is not None:
        await require(turn, "language", turn.session)
    await turn.run(groups.update_group, turn.ledger, turn.chat_id, language=chosen, key=turn.source_key)
    await turn.say(t(chosen, "lang.set"))
