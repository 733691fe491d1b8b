"""The tile picker: a Telegram Mini App (static page in `static/`) and the web server beside the bot that
serves it, its API (score as you tap, submit to the table's preview) and, in webhook mode, the webhook."""
