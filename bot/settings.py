"""Typed settings of the bot, read from the environment and `.env` (pydantic-settings)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.i18n import DEFAULT_LANGUAGE, Language

WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")  # what setWebhook's secret_token accepts


class Settings(BaseSettings):
    """Everything the bot reads from its environment; one object, passed explicitly.

    >>> Settings(_env_file=None, telegram_bot_token=None).mode
    'polling'
    """

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", hide_input_in_errors=True
    )  # a settings error never prints what was read: the token is among it

    telegram_bot_token: SecretStr | None = None
    data_dir: Path = Path("data")
    database_url: str = ""
    telegram_base_url: str | None = None
    mode: Literal["polling", "webhook"] = "polling"
    webhook_url: str | None = None
    webhook_listen: str = "0.0.0.0"
    webhook_port: int = 8443
    webhook_secret: SecretStr | None = None
    webhook_path: str = ""  # the path the local server listens on; empty = the path of WEBHOOK_URL
    default_language: Language = DEFAULT_LANGUAGE
    confirm_timeout_seconds: int = 120
    idle_end_hours: float = 6
    # The tile picker (a Mini App registered with BotFather's /newapp): its public HTTPS page, e.g.
    # https://bot.example.org/app/ (served by the bot itself, behind the webhook's host or a reverse proxy),
    # the app's short name for the t.me direct link, and where the web server listens in polling mode
    # (in webhook mode it is the webhook's server).
    webapp_url: str | None = None
    webapp_short_name: str | None = None
    webapp_listen: str = "0.0.0.0"
    webapp_port: int = 8080

    @field_validator("telegram_bot_token", "webhook_secret", mode="before")
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        # An empty TELEGRAM_BOT_TOKEN= line in .env means "no token": console mode.
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("telegram_base_url", "webhook_url", "webapp_url", "webapp_short_name", mode="before")
    @classmethod
    def _empty_url_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("confirm_timeout_seconds")
    @classmethod
    def _positive_timeout(cls, value: int) -> int:
        if value <= 0:
            raise ValueError("confirm_timeout_seconds must be positive")
        return value

    @model_validator(mode="after")
    def _defaults_and_webhook(self) -> Settings:
        if not self.database_url:
            self.database_url = f"sqlite:///{self.data_dir / 'mahjong.db'}"
        if self.mode == "webhook":
            if not self.webhook_url:
                raise ValueError("mode=webhook needs WEBHOOK_URL")
            secret = self.webhook_secret.get_secret_value() if self.webhook_secret else ""
            if not WEBHOOK_SECRET.fullmatch(secret):
                raise ValueError(
                    "mode=webhook needs WEBHOOK_SECRET (1-256 of A-Z a-z 0-9 _ -, the same on every worker,"
                    " e.g. `openssl rand -hex 32`): Telegram sends it with every update, and a POST without"
                    " it is answered 403; without one anybody could post forged updates"
                )
            if not self.webhook_path:
                self.webhook_path = urlsplit(self.webhook_url).path.lstrip("/")
        return self

    @property
    def token(self) -> str | None:
        """The bot token in clear, for the ApplicationBuilder only (never log it)."""
        return self.telegram_bot_token.get_secret_value() if self.telegram_bot_token else None
