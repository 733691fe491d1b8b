"""Settings from the environment: token, database default, webhook checks, base URL."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import Settings


def make(**values: object) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg, arg-type]


def test_defaults_without_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("TELEGRAM_BOT_TOKEN", "DATABASE_URL", "TELEGRAM_BASE_URL", "MODE", "DATA_DIR"):
        monkeypatch.delenv(name, raising=False)
    settings = make()
    assert settings.token is None
    assert settings.mode == "polling"
    assert settings.database_url == f"sqlite:///{Path('data') / 'mahjong.db'}"
    assert settings.default_language == "zh-Hans"
    assert settings.confirm_timeout_seconds == 120
    assert settings.idle_end_hours == 6


def test_environment_variables_are_read(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "123:abc")
    monkeypatch.setenv("TELEGRAM_BASE_URL", "http://127.0.0.1:8081/bot")
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.setenv("CONFIRM_TIMEOUT_SECONDS", "30")
    monkeypatch.setenv("DEFAULT_LANGUAGE", "en")
    settings = make()
    assert settings.token == "123:abc"
    assert "123:abc" not in repr(settings)
    assert settings.telegram_base_url == "http://127.0.0.1:8081/bot"
    assert settings.database_url == f"sqlite:///{tmp_path / 'mahjong.db'}"
    assert settings.confirm_timeout_seconds == 30
    assert settings.default_language == "en"


def test_empty_token_means_console_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "  ")
    assert make().token is None


def test_dotenv_file_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    env = tmp_path / ".env"
    env.write_text("TELEGRAM_BOT_TOKEN=999:xyz\nDATABASE_URL=sqlite:///x.db\n", encoding="utf-8")
    settings = Settings(_env_file=env)  # type: ignore[call-arg]
    assert settings.token == "999:xyz"
    assert settings.database_url == "sqlite:///x.db"


def test_webhook_mode_needs_a_url_and_takes_its_path() -> None:
    with pytest.raises(ValidationError, match="WEBHOOK_URL"):
        make(mode="webhook")
    with pytest.raises(ValidationError, match="WEBHOOK_SECRET"):  # no forged posts
        make(mode="webhook", webhook_url="https://example.org/hook/abc")
    with pytest.raises(ValidationError, match="WEBHOOK_SECRET"):  # Telegram's charset for the secret
        make(mode="webhook", webhook_url="https://example.org/hook/abc", webhook_secret="a b")
    settings = make(mode="webhook", webhook_url="https://example.org/hook/abc", webhook_secret="s3")
    assert settings.webhook_path == "hook/abc"
    assert settings.webhook_secret is not None and settings.webhook_secret.get_secret_value() == "s3"


def test_bad_values_are_refused() -> None:
    with pytest.raises(ValidationError):
        make(confirm_timeout_seconds=0)
    with pytest.raises(ValidationError):
        make(mode="carrier-pigeon")
    with pytest.raises(ValidationError):
        make(default_language="fr")


def test_a_settings_error_never_shows_the_token(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A bad setting stops the bot with pydantic's error: it names the setting, never what was read."""
    monkeypatch.chdir(tmp_path)
    token = "123456:SECRET-token-abcdefghijklmnopqrstuvwxyz"
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", token)
    monkeypatch.setenv("MODE", "webhook")
    monkeypatch.setenv("WEBHOOK_URL", "https://bot.example.org/hook")
    monkeypatch.delenv("WEBHOOK_SECRET", raising=False)
    with pytest.raises(ValidationError) as caught:
        Settings()
    shown = str(caught.value)
    assert "WEBHOOK_SECRET" in shown.upper()
    assert token not in shown and token[:1] + "..." not in shown and token[-3:] not in shown
