"""A fake OpenAI-compatible chat-completions server on 127.0.0.1 for tests.

A test gives it a `responder(request) -> reply` (called from the server's threads, so it
guards its own state if requests overlap): a reply is an assistant message dict
(wrapped into a completion), a full completion dict, or `(status, body)` for an HTTP
error. Every request body is recorded. It answers like real servers do, with whatever
content the responder puts there: prose around JSON, tool calls in text, broken
arguments, unknown tool names.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Responder = Callable[[dict[str, Any]], Any]


def completion(message: dict[str, Any], finish_reason: str | None = None, model: str = "fake") -> dict[str, Any]:
    reason = finish_reason or ("tool_calls" if message.get("tool_calls") else "stop")
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", **message}, "finish_reason": reason}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def tool_call(name: str, arguments: str | dict[str, Any], call_id: str = "call_0") -> dict[str, Any]:
    """An assistant message with one native tool call (arguments sent verbatim when a str)."""
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"content": None, "tool_calls": [{"id": call_id, "type": "function", "function": {"name": name, "arguments": raw}}]}


def text(content: str) -> dict[str, Any]:
    return {"content": content}


class FakeServer:
    def __init__(self, responder: Responder):
        self.responder = responder
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                with server.lock:
                    server.requests.append(body)
                    server.headers.append(dict(self.headers))
                reply = server.responder(body)  # unlocked: concurrent requests overlap, as on a real server
                status, payload = 200, reply
                if isinstance(reply, tuple):
                    status, payload = reply
                elif isinstance(reply, dict) and "choices" not in reply:
                    payload = completion(reply)
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler


@contextmanager
def serve(responder: Responder) -> Iterator[FakeServer]:
    server = FakeServer(responder)
    server.thread.start()
    try:
        yield server
    finally:
        server.httpd.shutdown()
        server.httpd.server_close()
