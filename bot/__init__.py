"""The Telegram group bot: handlers, ledger storage, scheduled jobs. It calls scoring, never the other way."""
