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


def test_webhook_mode_runs_the_one_web_server_with_the_webhook_route(env: pytest.MonkeyPatch) -> None:
    """Webhook mode without the picker: the same Starlette server as with it (no second server), on the
    webhook's address, with the webhook's route and secret and no picker routes."""
    from starlette.testclient import TestClient

    import bot.webapp.server as server

    env.setenv("TELEGRAM_BOT_TOKEN", "123:HOOK")
    env.setenv("MODE", "webhook")
    env.setenv("WEBHOOK_URL", "https://bot.example.org/tg/hook")
    env.setenv("WEBHOOK_PORT", "8080")
    env.setenv("WEBHOOK_SECRET", "s3cret")
    env.setattr(Application, "run_webhook", lambda self, **kw: pytest.fail("PTB's own webhook server ran"))
    seen: dict[str, Any] = {}

    def serve(application: Any, settings: Any) -> int:
        seen.update(app=application, settings=settings, web=server.build_web(application, settings))
        return 0

    env.setattr(server, "serve", serve)
    assert entry.main([]) == 0
    settings = seen["settings"]
    assert (settings.webhook_listen, settings.webhook_port) == ("0.0.0.0", 8080)
    client = TestClient(seen["web"])
    refused = client.post(
        "/tg/hook", json={"update_id": 1}, headers={"X-Telegram-Bot-Api-Secret-Token": "no"}
    )
    assert refused.status_code == 403
    assert client.get("/app/").status_code == 404  # no picker without WEBAPP_URL
    assert client.get("/healthcheck").json() == {"ok": True}
