"""`python -m bot` / `mahjong-bot`: console mode without a token, else long polling or a webhook."""

from __future__ import annotations

import logging
import sys
import threading
from types import TracebackType

from telegram import Update

from bot import console
from bot.app import build_application
from bot.handlers.errors import format_redacted, install_redaction
from bot.settings import Settings
from bot.webapp import server as webapp_server


def configure_logging(secret: str | None) -> None:
    """Plain logging to stderr with the token redacted; httpx's per-request lines (with URLs) kept quiet."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
    install_redaction(secret)


def install_excepthooks(secret: str | None) -> None:
    """The last word of the process without the token: an uncaught exception (in the main thread or any
    other) prints its traceback redacted."""

    def hook(kind: type[BaseException], error: BaseException, tb: TracebackType | None) -> None:
        sys.stderr.write(format_redacted(error.with_traceback(tb), secret))

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_value is not None:
            hook(args.exc_type, args.exc_value, args.exc_traceback)

    sys.excepthook = hook
    threading.excepthook = thread_hook


def main(argv: list[str] | None = None) -> int:
    """Run the bot as the settings say; returns the process exit code. An error that ends the bot (a
    rejected token, an upstream error page echoing the request URL) is printed without the token, exit 1."""
    settings = Settings()
    if settings.token is None:
        return console.run_console(settings)
    configure_logging(settings.token)
    install_excepthooks(settings.token)
    try:
        return serve(settings)
    except Exception as exc:
        logging.getLogger("bot").critical("the bot stopped: %s", format_redacted(exc, settings.token))
        return 1


def serve(settings: Settings) -> int:
    """Build the application and run it until it is stopped: by long polling alone, or with one web server
    (Starlette and uvicorn) beside it serving whatever is configured: Telegram's webhook in webhook mode,
    the picker's page and API with WEBAPP_URL."""
    application = build_application(settings)
    if settings.webapp_url or settings.mode == "webhook":
        return webapp_server.serve(application, settings)
    application.run_polling(allowed_updates=Update.ALL_TYPES)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
