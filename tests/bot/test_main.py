"""`python -m bot`: console mode without a token, else polling or a webhook as the settings say."""

from __future__ import annotations

from typing import Any

import pytest
from telegram.ext import Application

import bot.__main__ as entry


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> pytest.MonkeyPatch:
    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    for name in ("TELEGRAM_BOT_TOKEN", "MODE", "WEBHOOK_URL", "WEBHOOK_SECRET", "TELEGRAM_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'bot.db'}")
    return monkeypatch


def test_no_token_starts_the_console(env: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []
    import bot.console

    env.setattr(bot.console, "run_console", lambda settings: seen.append(settings) or 0)
    assert entry.main([]) == 0
    assert len(seen) == 1 and seen[0].token is None


def test_token_starts_long_polling(env: pytest.MonkeyPatch) -> None:
    env.setenv("TELEGRAM_BOT_TOKEN", "123:POLL")
    seen: dict[str, Any] = {}
    env.setattr(Application, "run_polling", lambda self, **kw: seen.update(kw, app=self))
    assert entry.main([]) == 0
    assert seen["app"].bot.token == "123:POLL"
    assert seen["allowed_updates"]


def test_webhook_mode_passes_url_port_and_secret(env: pytest.MonkeyPatch) -> None:
    env.setenv("TELEGRAM_BOT_TOKEN", "123:HOOK")
    env.setenv("MODE", "webhook")
    env.setenv("WEBHOOK_URL", "https://bot.example.org/tg/hook")
    env.setenv("WEBHOOK_PORT", "8080")
    env.setenv("WEBHOOK_SECRET", "s3cret")
    seen: dict[str, Any] = {}
    env.setattr(Application, "run_webhook", lambda self, **kw: seen.update(kw))
    assert entry.main([]) == 0
    assert seen["webhook_url"] == "https://bot.example.org/tg/hook"
    assert (seen["listen"], seen["port"]) == ("0.0.0.0", 8080)
    assert (seen["url_path"], seen["secret_token"]) == ("tg/hook", "s3cret")
