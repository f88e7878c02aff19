"""Token, call and cost accounting of a client (or of several sharing one Usage).

`requests` counts answers asked of a model (a cache hit is not one); `attempts` counts HTTP
attempts, so `attempts - requests` is the retries. Failures are counted by kind after their
retries: endpoint failures (timeouts, connection errors, 429/5xx, unreadable bodies,
authentication) apart from requests the server rejected (400, 413, 422). Cost comes from
LiteLLM's local cost map when it knows the model, else it is None ("unknown", not zero).
"""

from __future__ import annotations

import threading
from collections import Counter

from pydantic import BaseModel, Field

from factory.lm.settings import LOCAL_BASES, OPENAI_COMPATIBLE, provider_of


class UsageSummary(BaseModel):
    model: str
    requests: int = 0  # answers asked of the model
    cached: int = 0  # answers replayed from the call cache
    attempts: int = 0
    retries: int = 0
    answered: int = 0
    truncated: int = 0  # answers cut at max_tokens (finish_reason "length")
    endpoint_failures: int = 0
    rejected: int = 0  # requests the server refused (400, 413, 422)
    errors: dict[str, int] = Field(default_factory=dict)  # final failures by kind
    causes: dict[str, str] = Field(default_factory=dict)  # the first failure's message, by kind ("Connection refused")
    retried: dict[str, int] = Field(default_factory=dict)  # retried failures by kind
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0  # wall time spent in requests, summed over threads
    cost_usd: float | None = None

    def line(self) -> str:
        """One line for a terminal or a progress bar."""
        parts = [f"{self.requests} model calls", f"{self.cached} cached"]
        if self.retries:
            parts.append(f"{self.retries} retries")
        if self.truncated:
            parts.append(f"{self.truncated} truncated")
        if self.endpoint_failures or self.rejected:
            parts.append(f"{self.endpoint_failures} endpoint failures, {self.rejected} rejected")
        parts.append(f"{self.prompt_tokens:,} prompt + {self.completion_tokens:,} completion tokens")
        parts.append("cost unknown" if self.cost_usd is None else f"${self.cost_usd:.4f}")
        return ", ".join(parts)


class Usage:
    """Thread-safe counters, summarised on demand."""

    def __init__(self, model: str):
        self.model = model
        self._lock = threading.Lock()
        self._counts: Counter[str] = Counter()
        self._errors: Counter[str] = Counter()
        self._retried: Counter[str] = Counter()
        self._causes: dict[str, str] = {}
        self._seconds = 0.0

    def count(self, **amounts: int) -> None:
        with self._lock:
            self._counts.update(amounts)

    def attempt(self, seconds: float) -> None:
        with self._lock:
            self._counts["attempts"] += 1
            self._seconds += seconds

    def retry(self, kind: str) -> None:
        with self._lock:
            self._retried[kind] += 1

    def failure(self, kind: str, endpoint: bool, message: str | None = None) -> None:
        with self._lock:
            self._errors[kind] += 1
            if message:
                self._causes.setdefault(kind, message[:300])
            self._counts["endpoint_failures" if endpoint else "rejected"] += 1

    def answer(self, prompt_tokens: int, completion_tokens: int, truncated: bool) -> None:
        with self._lock:
            self._counts.update(answered=1, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens,
                                truncated=int(truncated))

    def carry(self, earlier: UsageSummary) -> None:
        """Count what an earlier process of the same run spent (a resumed run's manifest)."""
        counted = ("requests", "cached", "attempts", "answered", "truncated", "endpoint_failures", "rejected",
                   "prompt_tokens", "completion_tokens")
        with self._lock:
            self._counts.update({name: getattr(earlier, name) for name in counted})
            self._errors.update(earlier.errors)
            self._retried.update(earlier.retried)
            for kind, message in earlier.causes.items():
                self._causes.setdefault(kind, message)
            self._seconds += earlier.seconds

    def summary(self, priced: bool = True) -> UsageSummary:
        with self._lock:
            counts = dict(self._counts)
            errors, retried, seconds = dict(self._errors), dict(self._retried), self._seconds
            causes = dict(self._causes)
        summary = UsageSummary(model=self.model, errors=errors, causes=causes, retried=retried, seconds=round(seconds, 3),
                               retries=sum(retried.values()), **counts)
        if priced and (summary.prompt_tokens or summary.completion_tokens):
            summary.cost_usd = cost(self.model, summary.prompt_tokens, summary.completion_tokens)
        return summary


def cost(model: str, prompt_tokens: int, completion_tokens: int) -> float | None:
    """Dollars for the tokens by LiteLLM's local cost map; None when the model is not in it
    (a self-served model has no price)."""
    provider = provider_of(model)
    if provider in LOCAL_BASES or (provider in OPENAI_COMPATIBLE and provider != "openai"):
        return None
    from factory.config import offline_defaults

    offline_defaults()
    import litellm

    try:
        prompt, completion = litellm.cost_per_token(model=model, prompt_tokens=prompt_tokens,
                                                    completion_tokens=completion_tokens)
    except Exception:  # noqa: BLE001 - litellm raises several types for an unmapped model
        return None
    return round(prompt + completion, 6)
