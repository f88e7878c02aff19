"""Accounting: counts by kind, and cost from LiteLLM's local cost map (None when unknown)."""

from __future__ import annotations

import pytest

from factory.lm.usage import Usage, cost

pytestmark = pytest.mark.slow  # LiteLLM's cost map: importing LiteLLM takes seconds


def test_cost_from_the_local_cost_map_or_unknown():
    assert cost("openai/gpt-4o-mini", 1_000_000, 1_000_000) == pytest.approx(0.15 + 0.60)
    assert cost("hosted_vllm/my-model", 1000, 1000) is None  # self-served: no price
    assert cost("openai/no-such-model-xyz", 1000, 1000) is None


def test_the_summary_counts_every_kind_of_outcome():
    usage = Usage("openai/gpt-4o-mini")
    usage.count(requests=3, cached=2)
    for seconds in (0.1, 0.2, 0.3, 0.4):
        usage.attempt(seconds)
    usage.retry("rate_limited")
    usage.answer(100, 20, truncated=False)
    usage.answer(100, 50, truncated=True)
    usage.failure("timeout", endpoint=True)
    summary = usage.summary()
    assert (summary.requests, summary.cached, summary.attempts, summary.retries) == (3, 2, 4, 1)
    assert (summary.answered, summary.truncated, summary.endpoint_failures) == (2, 1, 1)
    assert summary.errors == {"timeout": 1} and summary.prompt_tokens == 200 and summary.completion_tokens == 70
    assert summary.cost_usd == pytest.approx(200 * 0.15e-6 + 70 * 0.6e-6)
    assert "3 model calls, 2 cached, 1 retries, 1 truncated" in summary.line() and "$0.0001" in summary.line()
