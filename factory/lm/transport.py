"""Sending one chat-completion request, within a total deadline.

`HTTPTransport` posts to an OpenAI-compatible `/chat/completions` with httpx; `LiteLLMTransport`
hands providers that speak another protocol to LiteLLM. Both return the completion as a
plain dict, or raise TransportError with a kind the client's retry policy understands. The
deadline bounds the whole request: a server that sends its answer a byte at a time is cut
when the deadline passes, not when a single read stalls (the request runs in a worker
thread; the caller stops waiting at the deadline, and the worker drops the connection at
its next chunk).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any, Protocol

from factory.errors import ConfigError

# kind -> (retried, an endpoint failure)
KINDS = {
    "timeout": (True, True),
    "connection": (True, True),
    "rate_limited": (True, True),
    "server_error": (True, True),
    "unreadable": (True, True),
    "auth": (False, True),
    "not_found": (False, True),
    "rejected": (False, False),
}


class TransportError(Exception):
    def __init__(self, kind: str, message: str, status: int | None = None, retry_after: float | None = None):
        super().__init__(message)
        self.kind, self.status, self.retry_after = kind, status, retry_after

    @property
    def retried(self) -> bool:
        return KINDS[self.kind][0]

    @property
    def endpoint(self) -> bool:
        return KINDS[self.kind][1]


class Transport(Protocol):
    def send(self, body: dict[str, Any], deadline: float) -> dict[str, Any]: ...

    def close(self) -> None: ...


def status_kind(status: int) -> str:
    if status == 429:
        return "rate_limited"
    if status >= 500 or status in (408, 409, 425):
        return "server_error"
    if status in (401, 403):
        return "auth"
    if status == 404:
        return "not_found"
    return "rejected"


def retry_after(value: str | None) -> float | None:
    """Seconds to wait from a Retry-After header: a number of seconds or an HTTP date."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())


def before_deadline(deadline: float, work: Callable[[threading.Event], Any]) -> Any:
    """Run `work(cancelled)` in a worker thread; stop waiting for it at the deadline."""
    box: dict[str, Any] = {}
    done, cancelled = threading.Event(), threading.Event()

    def run() -> None:
        try:
            box["value"] = work(cancelled)
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
            box["error"] = exc
        finally:
            done.set()

    threading.Thread(target=run, daemon=True, name="lm-request").start()
    if not done.wait(max(0.0, deadline - time.monotonic())):
        cancelled.set()
        raise TransportError("timeout", "no complete answer before the total timeout")
    if "error" in box:
        raise box["error"]
    return box["value"]


class HTTPTransport:
    """An OpenAI-compatible server: POST {base}/chat/completions."""

    def __init__(self, base_url: str, key: str | None, timeout: float, connections: int):
        import httpx

        self.url = base_url.rstrip("/") + "/chat/completions"
        self.headers = {"Authorization": f"Bearer {key}"} if key else {}
        self.timeout = timeout
        limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
        self.client = httpx.Client(timeout=httpx.Timeout(timeout), limits=limits)

    def send(self, body: dict[str, Any], deadline: float) -> dict[str, Any]:
        return before_deadline(deadline, lambda cancelled: self._post(body, deadline, cancelled))

    def _post(self, body: dict[str, Any], deadline: float, cancelled: threading.Event) -> dict[str, Any]:
        import httpx

        try:
            with self.client.stream("POST", self.url, json=body, headers=self.headers,
                                    timeout=max(0.01, deadline - time.monotonic())) as response:
                chunks = []
                for chunk in response.iter_bytes():
                    chunks.append(chunk)
                    if cancelled.is_set() or time.monotonic() > deadline:
                        raise TransportError("timeout", "the answer was still arriving at the total timeout")
                data = b"".join(chunks)
        except httpx.TimeoutException as exc:
            raise TransportError("timeout", f"{type(exc).__name__} before the total timeout") from exc
        except (httpx.InvalidURL, httpx.UnsupportedProtocol) as exc:
            raise ConfigError(f"--api-base {self.url.rsplit('/chat/completions', 1)[0]} is not a usable URL: {exc}") from exc
        except httpx.HTTPError as exc:
            raise TransportError("connection", f"{type(exc).__name__}: {exc}") from exc
        return _completion(response.status_code, response.headers.get("retry-after"), data)

    def close(self) -> None:
        self.client.close()


def _completion(status: int, retry_after_header: str | None, data: bytes) -> dict[str, Any]:
    text = data.decode("utf-8", errors="replace")
    if status != 200:
        raise TransportError(status_kind(status), f"HTTP {status}: {text[:300]}", status, retry_after(retry_after_header))
    try:
        payload = json.loads(text)
    except ValueError:
        raise TransportError("unreadable", f"HTTP 200 with a body that is not JSON: {text[:200]!r}", status) from None
    if not isinstance(payload, dict):
        raise TransportError("unreadable", f"HTTP 200 with a JSON {type(payload).__name__}, not an object", status)
    return payload


class LiteLLMTransport:
    """Providers with their own protocol (Anthropic, Gemini, Bedrock...), through LiteLLM."""

    def __init__(self, model: str, key: str | None):
        self.model, self.key = model, key

    def send(self, body: dict[str, Any], deadline: float) -> dict[str, Any]:
        return before_deadline(deadline, lambda cancelled: self._complete(body, deadline))

    def _complete(self, body: dict[str, Any], deadline: float) -> dict[str, Any]:
        import litellm

        request = {k: v for k, v in body.items() if k != "model"}
        try:
            response = litellm.completion(model=self.model, api_key=self.key, num_retries=0,
                                          timeout=max(0.01, deadline - time.monotonic()), **request)
        except Exception as exc:  # noqa: BLE001 - LiteLLM maps every provider's errors to its own types
            raise _litellm_error(exc) from exc
        return response.model_dump()

    def close(self) -> None:
        pass


def _litellm_error(exc: Exception) -> TransportError:
    status = getattr(exc, "status_code", None)
    name = type(exc).__name__
    headers = getattr(getattr(exc, "response", None), "headers", None) or {}
    if "Timeout" in name:
        return TransportError("timeout", f"{name}: {exc}"[:300])
    if "Connection" in name or not isinstance(status, int):
        return TransportError("connection", f"{name}: {exc}"[:300])
    return TransportError(status_kind(status), f"{name}: {exc}"[:300], status, retry_after(headers.get("retry-after")))
