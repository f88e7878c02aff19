"""LMClient: chat completions with retries, a call cache, accounting and redaction, once.

Every model call of the project goes through here (generation stages through the DSPy
bridge, the evaluator directly):

- at most `concurrency` requests in flight, however many threads ask;
- timeouts, connection errors, 429, 5xx and unreadable 200s (a body that is not JSON, or
  has no choices) are retried up to `max_retries` times with exponential backoff and
  jitter, waiting what a Retry-After header asks (up to `max_backoff`); other statuses fail
  at once;
- a request that still fails is a Reply with `error` set: an endpoint failure or a rejected
  request. After `max_endpoint_failures` endpoint failures in a row the client stops, and
  every call raises EndpointDown (one line for the user, instead of thousands of errors);
- the answer is redacted (see factory.lm.secrets) before anyone sees it, and cached only
  when it is complete and readable: an empty or truncated answer (finish_reason "length")
  is returned, flagged, counted, and asked again on a rerun.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from factory.errors import EndpointDown
from factory.lm.cache import CallCache, call_key
from factory.lm.reply import Call, Reply, read_completion
from factory.lm.secrets import redact, register_secret
from factory.lm.settings import LMSettings, Route, route
from factory.lm.transport import HTTPTransport, LiteLLMTransport, Transport, TransportError
from factory.lm.usage import Usage


class LMClient:
    def __init__(self, settings: LMSettings, cache: CallCache | None = None, usage: Usage | None = None,
                 transport: Transport | None = None):
        self.settings = settings
        self.cache = cache
        self.usage = usage or Usage(settings.model)
        self._transport = transport
        self._route: Route | None = None
        self._slots = threading.BoundedSemaphore(settings.concurrency)
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._failures_in_a_row = 0
        self._down: str | None = None

    def check(self) -> Route:
        """Resolve the endpoint now: a missing key or --api-base is one ConfigError before any request."""
        if self._route is None:
            self._route = route(self.settings) if self._transport is None else Route("fake", self.settings.model, "fake")
            register_secret(self._route.key)
        return self._route

    def transport(self) -> Transport:
        with self._lock:
            if self._transport is None:
                r = self.check()
                connections = 2 * self.settings.concurrency + 2  # room for requests cut at their deadline
                self._transport = (HTTPTransport(r.endpoint, r.key, self.settings.timeout, connections) if r.kind == "http"
                                   else LiteLLMTransport(r.model, r.key))
            return self._transport

    def body(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None, options: dict[str, Any]) -> dict[str, Any]:
        s = self.settings
        body: dict[str, Any] = {"model": self.check().model, "messages": messages, "temperature": s.temperature,
                                "max_tokens": s.max_tokens}
        if tools:
            body["tools"] = tools
        body.update(options)
        return body

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None, *, trial: int = 0,
                 **options: Any) -> Reply:
        """One answer: from the cache, else from the model (redacted, retried, counted).
        `options` are extra request fields (response_format, stop, seed, a temperature)."""
        body = self.body(messages, tools, options)
        key = call_key(body["model"], self.check().endpoint, body, trial)
        hit = self.cache.get(key) if self.cache is not None else None
        if hit is not None:
            self.usage.count(cached=1)
            return Reply(**hit, cached=True)
        reply = self._ask(body)
        if self.cache is not None and reply.complete:
            self.cache.put(key, reply.model_dump(exclude={"cached", "attempts"}))
        return reply

    def complete_many(self, calls: Sequence[Call], on_done: Callable[[int], None] | None = None) -> list[Reply]:
        """Answers in order, `concurrency` at a time; EndpointDown ends the batch."""
        self.check()
        done = 0
        lock = threading.Lock()

        def one(call: Call) -> Reply:
            nonlocal done
            reply = self.complete(call.messages, call.tools, trial=call.trial, **call.options)
            with lock:
                done += 1
                if on_done:
                    on_done(done)
            return reply

        with ThreadPoolExecutor(max_workers=self.settings.concurrency) as pool:
            return list(pool.map(one, calls))

    def _ask(self, body: dict[str, Any]) -> Reply:
        attempts = 0
        while True:
            self._raise_if_down()
            if not attempts:
                self.usage.count(requests=1)
            attempts += 1
            try:
                reply = self._attempt(body)
            except TransportError as exc:
                if exc.retried and attempts <= self.settings.max_retries:
                    self.usage.retry(exc.kind)
                    self._stopped.wait(self._wait(attempts, exc.retry_after))
                    continue
                return self._failed(exc, attempts)
            with self._lock:
                self._failures_in_a_row = 0
            self.usage.answer(reply.prompt_tokens, reply.completion_tokens, reply.truncated)
            return Reply(**{**redact(reply.model_dump()), "attempts": attempts})

    def _attempt(self, body: dict[str, Any]) -> Reply:
        transport = self.transport()
        with self._slots:
            started = time.monotonic()
            try:
                payload = transport.send(body, started + self.settings.timeout)
            finally:
                self.usage.attempt(time.monotonic() - started)
        return read_completion(payload)

    def _wait(self, attempt: int, retry_after: float | None) -> float:
        """Exponential backoff with jitter; a server's Retry-After wins when it asks for longer."""
        s = self.settings
        delay = min(s.max_backoff, s.backoff * 2 ** (attempt - 1)) * random.uniform(0.5, 1.0)
        return min(s.max_backoff, max(delay, retry_after or 0.0))

    def _failed(self, exc: TransportError, attempts: int) -> Reply:
        message = redact(f"{exc.kind} after {attempts} attempt(s): {exc}")
        self.usage.failure(exc.kind, exc.endpoint, message)
        if exc.endpoint:
            with self._lock:
                self._failures_in_a_row += 1
                if self._failures_in_a_row >= self.settings.max_endpoint_failures and self._down is None:
                    self._down = self._down_message(message)
                    self._stopped.set()
            self._raise_if_down()
        return Reply(error=message, error_kind=exc.kind, endpoint_failure=exc.endpoint, attempts=attempts)

    def _down_message(self, last: str) -> str:
        where = self.check().endpoint
        resume = "; answers received so far are cached, so a rerun resumes" if self.cache is not None else ""
        return (f"the model endpoint {where} ({self.settings.model}) failed {self._failures_in_a_row} requests in a row, "
                f"stopping (last: {last[:200]}). Check that the server is up and --model/--api-base are right{resume}")

    def _raise_if_down(self) -> None:
        if self._down is not None:
            raise EndpointDown(self._down)

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()
