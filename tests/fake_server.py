"""A fake OpenAI-compatible chat-completions server on 127.0.0.1, for tests and benchmarks.

A test gives it a `responder(request) -> reply`, called from the server's threads (it
guards its own state if requests overlap). A reply is:
- an assistant message dict (`text(...)`, `tool_call(...)`), wrapped into a completion;
- a full completion dict (`completion(message, finish_reason=...)`);
- `(status, body)` for an HTTP error;
- a `Raw` for anything else: headers (Retry-After), a body that is not JSON, a delay, a
  body sent a few bytes at a time.
The helpers below script what real servers and models do: prose and fences around the
answer, near-miss formats, truncation, slow replies, slow drip, 429 with Retry-After, 500, a
200 with an unreadable body, an answer echoing the key. Server options add a fixed latency
to every reply (benchmarks) and a transient failure rate (each request fails at most
`max_failures` times in a row, so a client with that many retries always gets through).
Every request body and its headers are recorded.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from factory.lm.fake import in_fence, in_prose, near_miss

Responder = Callable[[dict[str, Any]], Any]


@dataclass
class Raw:
    status: int = 200
    body: bytes | str | dict[str, Any] = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before the status line
    drip: float = 0.0  # seconds between body chunks (0: all at once)
    chunk: int = 1  # bytes per dripped chunk


def completion(message: dict[str, Any], finish_reason: str | None = None, model: str = "fake") -> dict[str, Any]:
    reason = finish_reason or ("tool_calls" if message.get("tool_calls") else "stop")
    tokens = len(str(message.get("content") or "").split()) + 1
    return {
        "id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", **message}, "finish_reason": reason}],
        "usage": {"prompt_tokens": 12, "completion_tokens": tokens, "total_tokens": 12 + tokens},
    }


def text(content: str) -> dict[str, Any]:
    return {"content": content}


def tool_call(name: str, arguments: str | dict[str, Any], call_id: str = "call_0") -> dict[str, Any]:
    """An assistant message with one native tool call (arguments sent verbatim when a str)."""
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"content": None, "tool_calls": [{"id": call_id, "type": "function", "function": {"name": name, "arguments": raw}}]}


def prose(content: str) -> dict[str, Any]:
    return text(in_prose(content))


def fenced(content: str) -> dict[str, Any]:
    return text(in_prose(in_fence(content)))


def near_miss_json(content: str) -> dict[str, Any]:
    return text(near_miss(content))


def truncated(content: str, share: float = 0.5) -> dict[str, Any]:
    return completion(text(content[: max(1, int(len(content) * share))]), finish_reason="length")


def status(code: int, message: str = "error", retry_after: float | str | None = None) -> Raw:
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
    return Raw(code, {"error": {"message": message, "code": code}}, headers)


def unreadable(body: str = "<html><body>502 Bad Gateway</body></html>") -> Raw:
    return Raw(200, body.encode(), {"Content-Type": "text/html"})


def slow(reply: Any, seconds: float) -> Raw:
    raw = as_raw(reply)
    raw.delay = seconds
    return raw


def drip(reply: Any, interval: float, chunk: int = 1) -> Raw:
    raw = as_raw(reply)
    raw.drip, raw.chunk = interval, chunk
    return raw


def as_raw(reply: Any) -> Raw:
    if isinstance(reply, Raw):
        return reply
    if isinstance(reply, tuple):
        return Raw(reply[0], reply[1])
    if isinstance(reply, dict) and "choices" not in reply:
        return Raw(200, completion(reply))
    return Raw(200, reply)


class FakeServer:
    def __init__(self, responder: Responder, latency: float = 0.0, failure_rate: float = 0.0, max_failures: int = 2):
        self.responder, self.latency = responder, latency
        self.failure_rate, self.max_failures = failure_rate, max_failures
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.failures: dict[str, int] = {}
        self.lock = threading.Lock()
        self.current = threading.local()  # the headers of the request a server thread is answering
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def key(self, index: int = -1) -> str:
        """The key a request was sent with (the Authorization header without "Bearer ")."""
        return self.headers[index].get("Authorization", "").removeprefix("Bearer ")

    def current_key(self) -> str:
        """The key of the request being answered (for a responder, in the server's thread)."""
        return self.current.headers.get("Authorization", "").removeprefix("Bearer ")

    def reply_to(self, body: dict[str, Any], headers: dict[str, str]) -> Raw:
        with self.lock:
            self.requests.append(body)
            self.headers.append(headers)
            failed = self._transient_failure(body)
        if failed is not None:
            return failed
        self.current.headers = headers
        raw = as_raw(self.responder(body))  # unlocked: concurrent requests overlap, as on a real server
        raw.delay += self.latency
        return raw

    def _transient_failure(self, body: dict[str, Any]) -> Raw | None:
        if not self.failure_rate:
            return None
        key = json.dumps(body, sort_keys=True)
        streak = self.failures.get(key, 0)
        digest = int(hashlib.sha256(f"{key}|{streak}".encode()).hexdigest(), 16)
        if streak >= self.max_failures or digest % 10_000 >= self.failure_rate * 10_000:
            self.failures[key] = 0
            return None
        self.failures[key] = streak + 1
        return [status(429, "slow down", retry_after=0), status(500, "internal"), unreadable()][digest % 3]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as real servers do
            disable_nagle_algorithm = True  # as real servers do: else headers then body wait ~40 ms for an ACK

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                raw = server.reply_to(body, dict(self.headers))
                data = raw.body if isinstance(raw.body, bytes) else (
                    raw.body.encode() if isinstance(raw.body, str) else json.dumps(raw.body).encode())
                time.sleep(raw.delay)
                try:
                    self.send_response(raw.status)
                    for name, value in {"Content-Type": "application/json", **raw.headers}.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self._write(data, raw)
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True  # the client gave up (its deadline): fine

            def _write(self, data: bytes, raw: Raw) -> None:
                if not raw.drip:
                    self.wfile.write(data)
                    return
                for start in range(0, len(data), raw.chunk):
                    self.wfile.write(data[start: start + raw.chunk])
                    self.wfile.flush()
                    time.sleep(raw.drip)

        return Handler


@contextmanager
def serve(responder: Responder, **options: Any) -> Iterator[FakeServer]:
    server = FakeServer(responder, **options)
    server.thread.start()
    try:
        yield server
    finally:
        server.httpd.shutdown()
        server.httpd.server_close()


def echoing_key(server: FakeServer, answer: str = "the answer is 42") -> Responder:
    """A responder whose answer repeats the key it was sent, as a misconfigured proxy would."""
    def respond(request: dict[str, Any]) -> dict[str, Any]:
        return text(f"Authenticated with {server.current_key()}; {answer}")

    return respond
