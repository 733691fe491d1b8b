"""A local HTTP Bot API test server on the in-memory state, with a JSON control API to play the humans."""

from __future__ import annotations

import email.parser
import email.policy
import json
import sys
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx

from bot.console.state import JSON, BotAPIState, Call, UploadedFile

MAX_POLL_SECONDS = 30.0


def parse_body(content_type: str, body: bytes) -> tuple[dict[str, Any], dict[str, UploadedFile]]:
    """Bot API request parameters from a POST body: JSON, urlencoded form, or multipart with uploads."""
    kind = content_type.split(";", 1)[0].strip().lower()
    if not body:
        return {}, {}
    if kind == "application/json":
        data = json.loads(body)
        return {k: v for k, v in data.items() if v is not None}, {}
    if kind == "multipart/form-data":
        raw = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode() + body
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(raw)
        params: dict[str, Any] = {}
        files: dict[str, UploadedFile] = {}
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            payload = part.get_payload(decode=True) or b""
            filename = part.get_filename()
            if filename is not None:
                files[str(name)] = UploadedFile(filename, payload, part.get_content_type())
            elif name is not None:
                params[str(name)] = payload.decode(part.get_content_charset() or "utf-8")
        return params, files
    return dict(parse_qsl(body.decode(), keep_blank_values=True)), {}


class _QuietHTTPServer(ThreadingHTTPServer):
    """Ignores clients that vanish mid-request (the e2e test SIGKILLs the bot while it long-polls)."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def call_json(call: Call) -> JSON:
    """A recorded call as the control API shows it (uploads as name, size and MIME type)."""
    return {
        "index": call.index,
        "method": call.method,
        "params": call.params,
        "status": call.status,
        "result": call.result,
        "description": call.description,
        "at": call.at,
        "files": {
            k: {"filename": f.filename, "size": f.size, "mime_type": f.mime_type}
            for k, f in call.files.items()
        },
    }


class BotAPIServer:
    """Serves `/bot<token>/<method>` from a BotAPIState over HTTP on 127.0.0.1, in a thread.

    getUpdates long-polls (waits up to `timeout` seconds for an update past `offset`); after setWebhook the
    queued updates are POSTed to the bot's webhook instead. The control API,
    JSON in and out, plays the people in the chat:
      POST /control/group {chat_id, title, admins, creator, can_pin}   POST /control/user {name, user_id}
      POST /control/message {chat_id, user, text, reply_to}             POST /control/press {chat_id, user,
      label | index, message_id}   POST /control/dice {values}   GET /control/calls?since=N
      GET /control/messages?chat_id=C   (updates from message/press are queued for getUpdates)
    """

    def __init__(self, state: BotAPIState | None = None, *, token: str = "123:TEST", port: int = 0) -> None:
        self.state = state or BotAPIState()
        self.token = token
        self.httpd = _QuietHTTPServer(("127.0.0.1", port), self._handler_class())
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, args=(0.05,), name="bot-api-server", daemon=True
        )
        self._stopping = threading.Event()
        self.pusher = threading.Thread(target=self._push_webhook, name="bot-api-webhook", daemon=True)
        self.webhook_deliveries: list[tuple[int, int]] = []  # (update_id, HTTP status of the bot's answer)

    @property
    def port(self) -> int:
        return int(self.httpd.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """What TELEGRAM_BASE_URL should be for a bot talking to this server."""
        return f"{self.url}/bot"

    def start(self) -> BotAPIServer:
        self.thread.start()
        self.pusher.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        with self.state.lock:
            self.state.updates_changed.notify_all()

    def __enter__(self) -> BotAPIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _push_webhook(self) -> None:
        """While a webhook is set, POSTs queued updates to it in order, as Telegram does (with the secret
        token header); an update is dropped from the queue once the bot answers 200, retried otherwise."""
        with httpx.Client(timeout=10) as http:
            while not self._stopping.is_set():
                with self.state.updates_changed:
                    url, secret = self.state.webhook_url, self.state.webhook_secret
                    update = self.state.pending[0] if url and self.state.pending else None
                    if update is None:
                        self.state.updates_changed.wait(0.1)
                        continue
                headers = {"X-Telegram-Bot-Api-Secret-Token": secret} if secret else {}
                try:
                    status = http.post(url, json=update, headers=headers).status_code
                except httpx.HTTPError:
                    status = 0
                self.webhook_deliveries.append((update["update_id"], status))
                if status == 200:
                    self.state.acknowledge(update["update_id"])
                else:
                    self._stopping.wait(0.2)

    # ------------------------------------------------------------------ HTTP

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
                return

            def do_GET(self) -> None:
                self._dispatch()

            def do_POST(self) -> None:
                self._dispatch()

            def _dispatch(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                split = urlsplit(self.path)
                query = dict(parse_qsl(split.query, keep_blank_values=True))
                try:
                    content_type = self.headers.get("Content-Type", "")
                    status, answer = server.route(split.path, query, content_type, body)
                except Exception as exc:  # a server bug must show up as a readable answer, not a hang
                    status, answer = 500, {"ok": False, "error_code": 500, "description": f"server: {exc!r}"}
                payload = json.dumps(answer, ensure_ascii=False).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        return Handler

    def route(self, path: str, query: dict[str, str], content_type: str, body: bytes) -> tuple[int, JSON]:
        """Answers one HTTP request: (status, JSON body)."""
        if path.startswith("/control/"):
            data = json.loads(body) if body else {}
            return self.control(path.removeprefix("/control/"), {**query, **data})
        parts = path.strip("/").split("/")
        if len(parts) != 2 or not parts[0].startswith("bot"):
            return 404, {"ok": False, "error_code": 404, "description": "Not Found"}
        if parts[0].removeprefix("bot") != self.token:
            return 401, {"ok": False, "error_code": 401, "description": "Unauthorized"}
        method = parts[1]
        params, files = parse_body(content_type, body)
        params = {**query, **params}
        if method.lower() == "getupdates":
            timeout = min(float(params.get("timeout") or 0), MAX_POLL_SECONDS)
            offset = int(params["offset"]) if params.get("offset") not in (None, "") else None
            self.state.wait_for_updates(offset, 1, timeout)
        return self.state.handle(method, params, files)

    def control(self, action: str, data: dict[str, Any]) -> tuple[int, JSON]:
        """The control API behind /control/<action>."""
        state = self.state
        try:
            if action == "group":
                chat_id = state.add_group(
                    data.get("chat_id"),
                    data.get("title", "麻将桌"),
                    admins=data.get("admins", ()),
                    creator=data.get("creator"),
                    can_pin=data.get("can_pin", True),
                )
                return 200, {"chat_id": chat_id}
            if action == "user":
                return 200, {"user": state.add_user(data["name"], user_id=data.get("user_id"))}
            if action == "message":
                update = state.message(
                    int(data["chat_id"]),
                    data["user"],
                    data["text"],
                    reply_to=data.get("reply_to"),
                    enqueue=True,
                )
                return 200, {"update": update}
            if action == "press":
                button = data["label"] if "label" in data else int(data["index"])
                update = state.press(
                    int(data["chat_id"]), data["user"], data.get("message_id"), button, enqueue=True
                )
                return 200, {"update": update}
            if action == "dice":
                state.force_dice(*[int(v) for v in data["values"]])
                return 200, {}
            if action == "calls":
                since = int(data.get("since", 0))
                with state.lock:
                    calls = [call_json(c) for c in state.calls[since:]]
                return 200, {"calls": calls, "next": since + len(calls)}
            if action == "status":
                with state.lock:
                    return 200, {
                        "calls": len(state.calls),
                        "polls_started": state.polls_started,
                        "pending_updates": len(state.pending),
                    }
            if action == "messages":
                return 200, {"messages": state.bot_messages(int(data["chat_id"]))}
            if action == "pinned":
                chat = state.chat(int(data["chat_id"]))
                pinned = state.stored_message(chat.id, chat.pinned[-1]) if chat.pinned else None
                return 200, {"pinned": pinned}
        except (KeyError, ValueError) as exc:
            return 400, {"error": str(exc.args[0] if exc.args else exc)}
        return 404, {"error": f"unknown control action {action!r}"}


class ControlClient:
    """The test's side of the control API (httpx, synchronous)."""

    def __init__(self, url: str, chat_id: int) -> None:
        self.http = httpx.Client(base_url=url, timeout=10)
        self.chat_id = chat_id
        self.seen = 0

    def close(self) -> None:
        self.http.close()

    def _post(self, action: str, **data: Any) -> JSON:
        response = self.http.post(f"/control/{action}", json=data)
        body: JSON = response.json()
        if response.status_code != 200:
            raise AssertionError(f"control {action} failed: {body}")
        return body

    def group(self, **data: Any) -> int:
        return int(self._post("group", chat_id=self.chat_id, **data)["chat_id"])

    def user(self, name: str, user_id: int) -> JSON:
        return dict(self._post("user", name=name, user_id=user_id)["user"])

    def say(self, user: str, text: str) -> JSON:
        return dict(self._post("message", chat_id=self.chat_id, user=user, text=text)["update"])

    def press(self, user: str, label: str, message_id: int | None = None) -> JSON:
        return dict(
            self._post("press", chat_id=self.chat_id, user=user, label=label, message_id=message_id)["update"]
        )

    def calls(self, since: int = 0) -> list[JSON]:
        response = self.http.get("/control/calls", params={"since": since})
        return list(response.json()["calls"])

    def status(self) -> JSON:
        return dict(self.http.get("/control/status").json())

    def wait_polling(self, since: int, *, timeout: float = 60) -> None:
        """Until a getUpdates request arrives after `since` requests had (the bot is polling)."""
        deadline = time.monotonic() + timeout
        while self.status()["polls_started"] <= since:
            if time.monotonic() > deadline:
                raise AssertionError(f"no getUpdates within {timeout}s")
            time.sleep(0.05)

    def messages(self) -> list[JSON]:
        return list(self.http.get("/control/messages", params={"chat_id": self.chat_id}).json()["messages"])

    def pinned(self) -> JSON | None:
        return self.http.get("/control/pinned", params={"chat_id": self.chat_id}).json()["pinned"]

    def wait_for(self, predicate: Callable[[JSON], bool], *, timeout: float = 30, what: str = "") -> JSON:
        """The first call after the last one waited for that matches; AssertionError after `timeout`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for call in self.calls(self.seen):
                self.seen = call["index"] + 1
                if predicate(call):
                    return call
            time.sleep(0.05)
        raise AssertionError(f"timed out after {timeout}s waiting for {what or predicate}")

    def wait_sent(self, *contains: str, button: str | None = None, timeout: float = 30) -> JSON:
        """The next message the bot sends or edits whose text contains every one of `contains` (and that
        has a button whose label contains `button`)."""

        def match(call: JSON) -> bool:
            result = call["result"]
            if call["status"] != 200 or not isinstance(result, dict) or "message_id" not in result:
                return False
            text = result.get("text") or result.get("caption") or ""
            rows = (result.get("reply_markup") or {}).get("inline_keyboard", [])
            labels = [b.get("text", "") for row in rows for b in row]
            return all(part in text for part in contains) and (
                button is None or any(button in label for label in labels)
            )

        what = f"a message containing {contains!r}" + (f" with a {button!r} button" if button else "")
        return self.wait_for(match, timeout=timeout, what=what)
