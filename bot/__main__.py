"""`python -m bot` / `mahjong-bot`: console mode without a token, else long polling or a webhook."""

from __future__ import annotations

import logging
import sys

from telegram import Update

from bot import console
from bot.app import build_application
from bot.handlers.errors import install_redaction
from bot.settings import Settings


def configure_logging(secret: str | None) -> None:
    """Plain logging to stderr with the token redacted; httpx's per-request lines (with URLs) kept quiet."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
    install_redaction(secret)


def main(argv: list[str] | None = None) -> int:
    """Run the bot as the settings say; returns the process exit code."""
    settings = Settings()
    if settings.token is None:
        return console.run_console(settings)
    configure_logging(settings.token)
    application = build_application(settings)
    if settings.mode == "webhook":
        assert settings.webhook_url is not None  # checked by Settings
        application.run_webhook(
            listen=settings.webhook_listen,
            port=settings.webhook_port,
            url_path=settings.webhook_path,
            webhook_url=settings.webhook_url,
            secret_token=settings.webhook_secret.get_secret_value() if settings.webhook_secret else None,
            allowed_updates=Update.ALL_TYPES,
        )
    else:
        application.run_polling(allowed_updates=Update.ALL_TYPES)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
