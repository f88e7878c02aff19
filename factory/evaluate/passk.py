"""pass^k: the chance that k independent trials of an instance all succeed.

Estimated per instance, as tau-bench does, without bias from n >= k trials with c
successes: C(c, k) / C(n, k); the score is the mean over instances.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from math import comb

from factory.records import SampleResult


def pass_hat_k(successes: int, trials: int, k: int) -> float:
    """Unbiased estimate of P(all k trials succeed) from `successes` out of `trials`."""
    if not 1 <= k <= trials:
        raise ValueError(f"pass^{k} needs 1 <= k <= trials ({trials})")
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    return comb(successes, k) / comb(trials, k)


def success_counts(results: Iterable[SampleResult], key: str = "success") -> dict[str, tuple[int, int]]:
    """instance id → (successes, trials); a trial succeeds when scores[key] == 1."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in results:
        counts[r.instance_id][0] += int(r.scores.get(key, 0.0) >= 1.0)
        counts[r.instance_id][1] += 1
    return {i: (c, n) for i, (c, n) in counts.items()}


def pass_power_k(results: Iterable[SampleResult], k: int, key: str = "success") -> float:
    """Mean pass^k over instances; every instance needs at least k trials."""
    counts = success_counts(results, key)
    if not counts:
        return 0.0
    return sum(pass_hat_k(c, n, k) for c, n in counts.values()) / len(counts)


def pass_curve(results: Iterable[SampleResult], key: str = "success") -> dict[int, float]:
    """pass^k for k = 1 .. the smallest trial count of any instance."""
    counts = success_counts(results, key)
    if not counts:
        return {}
    top = min(n for _, n in counts.values())
    return {k: sum(pass_hat_k(c, n, k) for c, n in counts.values()) / len(counts) for k in range(1, top + 1)}
