"""Telegram handlers, one small module per topic; `bot.commands` wires them."""
