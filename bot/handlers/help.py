"""/help: the command table in the chat's language, with examples of the recording grammar."""

from __future__ import annotations

from collections.abc import Sequence

from bot.handlers.callbacks import Handler, command
from bot.handlers.turn import Turn


def help_command(names: Sequence[str]) -> Handler:
    """The /help handler for these commands (the command table passes its own names: bot.commands)."""

    @command("help", group_only=False)
    async def help_(turn: Turn) -> None:
        """/help: one line per command and a few recording examples."""
        lines = [turn.t("help.header")]
        lines += [turn.t("help.line", command=name, description=turn.t(f"cmd.{name}")) for name in names]
        lines += ["", turn.t("help.examples")]
        await turn.say("\n".join(lines))

    return help_
