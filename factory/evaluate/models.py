"""A model behind an OpenAI-compatible endpoint, for whole-prompt completions (static mode).

The openai client talks to the OpenAI API or to any compatible server (`--api-base`: vLLM,
llama.cpp, Ollama, a LiteLLM proxy); a LiteLLM-style provider prefix (`openai/`,
`hosted_vllm/`) is dropped from the model name. The API key comes from the environment
(FACTORY_API_KEY, else OPENAI_API_KEY) and is never recorded. Requests run concurrently;
timeouts, connection errors, 429 and 5xx are retried with exponential backoff; every answer
is stored in a persistent cache (SQLite) keyed by model, endpoint, prompt, settings and
trial, so a rerun or a resumed run asks only what it has not asked before.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from factory.records import content_hash

PERMANENT_STATUS = {400, 401, 403, 404, 422}
PREFIXES = ("openai", "hosted_vllm", "vllm", "ollama", "ollama_chat", "lm_studio", "llamafile", "litellm_proxy")
KEY_VARIABLES = ("FACTORY_API_KEY", "OPENAI_API_KEY")


def served_name(model: str) -> str:
    prefix, _, rest = model.partition("/")
    return rest if rest and prefix in PREFIXES else model


@dataclass(frozen=True)
class ModelSettings:
    model: str
    api_base: str | None = None
    temperature: float = 0.0
    max_tokens: int = 1024
    concurrency: int = 4
    retries: int = 4
    backoff: float = 1.0  # seconds before the first retry; doubles each time
    timeout: float = 120.0


class ModelCallError(Exception):
    """A request that failed for good (a permanent status, or every retry spent)."""


@dataclass(frozen=True)
class Completion:
    text: str | None  # None: no answer after every retry
    error: str | None = None
    cached: bool = False
    finish_reason: str | None = None


class ResponseCache:
    """Answers on disk, shared by threads; only successful answers are stored."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.lock = threading.Lock()
        self.db = sqlite3.connect(str(path), check_same_thread=False)
        self.db.execute("CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, text TEXT, finish TEXT)")
        self.db.commit()

    def get(self, key: str) -> tuple[str, str | None] | None:
        with self.lock:
            row = self.db.execute("SELECT text, finish FROM answers WHERE key = ?", (key,)).fetchone()
        return (row[0], row[1]) if row else None

    def put(self, key: str, text: str, finish: str | None) -> None:
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO answers VALUES (?, ?, ?)", (key, text, finish))
            self.db.commit()

    def close(self) -> None:
        with self.lock:
            self.db.close()


class ChatModel:
    def __init__(self, settings: ModelSettings, cache: ResponseCache | None = None):
        self.settings = settings
        self.cache = cache
        self._client: Any = None

    def client(self) -> Any:
        if self._client is None:
            from openai import OpenAI

            key = next((os.environ[v] for v in KEY_VARIABLES if os.environ.get(v)), None)
            if not key and not self.settings.api_base:
                from factory.errors import ConfigError

                raise ConfigError(f"{self.settings.model}: no API key: set {' or '.join(KEY_VARIABLES)}, or pass --api-base")
            self._client = OpenAI(base_url=self.settings.api_base, api_key=key or "EMPTY", max_retries=0,
                                  timeout=self.settings.timeout)
        return self._client

    def key(self, prompt: str, trial: int) -> str:
        s = self.settings
        return content_hash([served_name(s.model), s.api_base or "", prompt, s.temperature, s.max_tokens, trial], 32)

    def create(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None) -> Any:
        """One chat completion, retried with exponential backoff on transient failures
        (timeouts, connection errors, 429, 5xx); raises ModelCallError with the evidence."""
        import openai

        s = self.settings
        extra = {"tools": tools} if tools else {}
        delay = s.backoff
        for attempt in range(s.retries + 1):
            try:
                return self.client().chat.completions.create(
                    model=served_name(s.model), messages=messages, temperature=s.temperature,
                    max_tokens=s.max_tokens, **extra)
            except openai.APIError as exc:
                status = getattr(exc, "status_code", None)
                if status in PERMANENT_STATUS or attempt == s.retries:
                    raise ModelCallError(f"{type(exc).__name__} after {attempt + 1} attempt(s): {str(exc)[:300]}") from exc
            time.sleep(delay)
            delay *= 2
        raise AssertionError("unreachable")

    def _request(self, prompt: str) -> Completion:
        try:
            choice = self.create([{"role": "user", "content": prompt}]).choices[0]
            return Completion(choice.message.content or "", finish_reason=choice.finish_reason)
        except ModelCallError as exc:
            return Completion(None, str(exc))
        except (AttributeError, IndexError, TypeError) as exc:
            return Completion(None, f"unreadable response: {type(exc).__name__}: {exc}")

    def complete(self, prompt: str, trial: int = 0) -> Completion:
        key = self.key(prompt, trial)
        hit = self.cache.get(key) if self.cache else None
        if hit is not None:
            return Completion(hit[0], cached=True, finish_reason=hit[1])
        answer = self._request(prompt)
        if self.cache is not None and answer.text is not None:
            self.cache.put(key, answer.text, answer.finish_reason)
        return answer

    def complete_all(self, requests: Sequence[tuple[str, int]],
                     on_done: Callable[[int], None] | None = None) -> list[Completion]:
        """Answers to (prompt, trial) requests, in order, `concurrency` at a time."""
        self.client()  # fail fast on a missing key, before any thread starts
        done = 0
        lock = threading.Lock()

        def one(request: tuple[str, int]) -> Completion:
            nonlocal done
            answer = self.complete(*request)
            with lock:
                done += 1
                if on_done:
                    on_done(done)
            return answer

        with ThreadPoolExecutor(max_workers=max(1, self.settings.concurrency)) as pool:
            return list(pool.map(one, requests))
