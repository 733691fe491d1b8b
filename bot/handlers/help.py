"""/help: the command table in the chat's language, with examples of the recording grammar."""

from __future__ import annotations

from bot.handlers.common import Turn, command


@command("help", group_only=False)
async def help_command(turn: Turn) -> None:
    """/help: one line per command (from the command table) and a few recording examples."""
    from bot.commands import COMMANDS

    lines = [turn.t("help.header")]
    lines += [turn.t("help.line", command=c.name, description=c.description(turn.lang)) for c in COMMANDS]
    lines.append("")
    lines.append(turn.t("help.examples"))
    await turn.say("\n".join(lines))
