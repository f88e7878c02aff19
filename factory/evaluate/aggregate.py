"""From per-sample scores to a run's metrics, with 95% bootstrap confidence intervals.

Static metrics are NesTools' micro averages: tallies summed over the samples, then
precision = correct / predicted (0 when nothing was predicted), recall = correct / gold,
F1 their harmonic mean; Format accuracy, Tree pass rate and the execution-based pass rate
(over the samples that could be re-run in their world) are means. The average is the
mean of the Selection, Order, Parameter and NestedParam F1. A family without gold items in
a subset has no scores; in the average its F1 is replaced by Format accuracy, as NesTools'
scorer does for NestedParam on subsets without nesting (depth 1). Interactive metrics are
means of the per-sample scores. Confidence intervals resample samples with replacement.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
from threadpoolctl import ThreadpoolController

from factory.evaluate.static.metrics import TALLIES
from factory.records import SampleResult

BOOTSTRAP = 1000
FAMILIES = {"selection": "api", "order": "order", "parameter": "param", "nested_param": "nest"}


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    return np.divide(num, den, out=np.zeros_like(num, dtype=float), where=den != 0)


def nestools_from_sums(sums: dict[str, np.ndarray], count: np.ndarray) -> dict[str, np.ndarray]:
    """NesTools' metrics from summed tallies (arrays: one entry per bootstrap resample)."""
    out: dict[str, np.ndarray] = {"format_accuracy": _ratio(sums["format"], count)}
    f1s = []
    for family, key in FAMILIES.items():
        p = _ratio(sums[f"{key}_correct"], sums[f"{key}_predicted"])
        r = _ratio(sums[f"{key}_correct"], sums[f"{key}_gold"])
        f1 = _ratio(2 * p * r, p + r)
        out.update({f"{family}_precision": p, f"{family}_recall": r, f"{family}_f1": f1})
        f1s.append(np.where(sums[f"{key}_gold"] > 0, f1, out["format_accuracy"]))
    out["tree_pass_rate"] = _ratio(sums["tree"], count)
    out["average"] = sum(f1s) / len(f1s)
    return out


def _scored(samples: Iterable[SampleResult]) -> list[SampleResult]:
    """Samples that carry scores (NesTools leaves out requests that never got a response)."""
    return [s for s in samples if s.scores]


def tally_matrix(samples: list[SampleResult]) -> np.ndarray:
    """One row of NesTools tallies (TALLIES order) per sample."""
    return np.array(score_rows(samples, TALLIES), dtype=float).reshape(len(samples), len(TALLIES))


def score_rows(samples: Iterable[SampleResult], keys: tuple[str, ...]) -> list[tuple[float, ...]]:
    """Each sample's scores under `keys` (0.0 for one it lacks), read in one call when it has them all."""
    pick = operator.itemgetter(*keys)
    rows = []
    for sample in samples:
        try:
            rows.append(pick(sample.scores) if len(keys) > 1 else (pick(sample.scores),))
        except KeyError:
            rows.append(tuple(sample.scores.get(k, 0.0) for k in keys))
    return rows


EXECUTION = "exec_pass"  # the per-sample score behind the execution-based pass rate


def static_metrics(samples: Iterable[SampleResult], matrix: np.ndarray | None = None) -> dict[str, float | None]:
    """NesTools' metrics (a family without gold items, as at depth 1, has none), and the
    execution-based pass rate over the samples that could be executed (`matrix`: the
    tally_matrix of the scored samples, when the caller has it)."""
    samples = _scored(samples)
    if not samples:
        return {}
    return with_execution(tally_metrics(tally_matrix(samples) if matrix is None else matrix), samples)


def with_execution(values: dict[str, float | None], samples: Iterable[SampleResult]) -> dict[str, float | None]:
    """The metrics with the execution-based pass rate of the samples that could be executed
    (none: no such rate), for a run and for each group of its breakdowns alike."""
    executed = [s.scores[EXECUTION] for s in samples if EXECUTION in s.scores]
    if executed:
        values["execution_pass_rate"] = float(np.mean(executed))
    return values


def tally_metrics(rows: np.ndarray) -> dict[str, float | None]:
    """NesTools' metrics from the tally rows of scored samples."""
    return group_metrics(rows.sum(axis=0)[None, :], np.array([len(rows)]))[0]


def group_metrics(totals: np.ndarray, counts: np.ndarray) -> list[dict[str, float | None]]:
    """NesTools' metrics of several groups of samples at once, from each group's summed tallies
    (a row per group) and size: the same arithmetic, element by element, as group by group."""
    sums = {k: totals[:, i] for i, k in enumerate(TALLIES)}
    columns = {k: v.tolist() for k, v in nestools_from_sums(sums, counts).items()}
    empty = [(family, sums[f"{key}_gold"] == 0) for family, key in FAMILIES.items()]
    out = []
    for g in range(len(counts)):
        values: dict[str, float | None] = {k: v[g] for k, v in columns.items()}
        for family, none in empty:
            if none[g]:
                values.update({f"{family}_{m}": None for m in ("precision", "recall", "f1")})
        out.append(values)
    return out


def interactive_metrics(samples: Iterable[SampleResult]) -> dict[str, float | None]:
    samples = _scored(samples)
    keys = sorted({k for s in samples for k in s.scores})
    return {k: float(np.mean([s.scores.get(k, 0.0) for s in samples])) for k in keys}


@functools.cache
def _blas() -> ThreadpoolController:
    """The process's BLAS, found once (each look scans the loaded libraries). The bootstrap's
    products run on one of its threads: they are small, and the threads BLAS would start,
    spinning for more work once done, take the cores the rest of a run needs on a busy machine."""
    return ThreadpoolController()


@functools.lru_cache(maxsize=4)  # several runs of one dataset (predictions files) draw the same resamples
def _resample_weights(n: int, resamples: int, seed: int) -> np.ndarray:
    """How often each sample is drawn in each resample (n draws with replacement): counts of
    uniform draws, the same distribution as a multinomial and several times faster."""
    draws = np.random.default_rng(seed).integers(0, n, size=(resamples, n))
    draws += np.arange(resamples)[:, None] * n  # each resample's draws counted in its own row (in place: 8 MB)
    weights = np.bincount(draws.ravel(), minlength=resamples * n).reshape(resamples, n).astype(float)
    weights.flags.writeable = False
    return weights


def confidence_intervals(samples: Iterable[SampleResult], mode: str, resamples: int = BOOTSTRAP,
                         seed: int = 0, matrix: np.ndarray | None = None) -> dict[str, tuple[float, float]]:
    """95% percentile bootstrap interval of every metric (deterministic for a seed; `matrix`:
    the tally_matrix of the scored samples of a static run, when the caller has it)."""
    samples = _scored(samples)
    if not samples:
        return {}
    weights = _resample_weights(len(samples), resamples, seed)
    keys = TALLIES if mode == "static" else sorted({k for s in samples for k in s.scores})
    if mode == "static":
        matrix = tally_matrix(samples) if matrix is None else matrix
    else:
        matrix = np.array([[s.scores.get(k, 0.0) for k in keys] for s in samples])
    with _blas().limit(limits=1, user_api="blas"):  # see _blas
        sums = weights @ matrix  # resamples x keys
        columns = {k: sums[:, i] for i, k in enumerate(keys)}
        count = weights.sum(axis=1)
        metrics = nestools_from_sums(columns, count) if mode == "static" else {k: v / count for k, v in columns.items()}
        executed = [i for i, s in enumerate(samples) if EXECUTION in s.scores]
        if mode == "static" and executed:
            column = np.array([samples[i].scores[EXECUTION] for i in executed])
            drawn = weights[:, executed]
            metrics["execution_pass_rate"] = _ratio(drawn @ column, drawn.sum(axis=1))
    ordered = np.sort(np.column_stack(list(metrics.values())), axis=0)
    low, high = percentile(ordered, 2.5), percentile(ordered, 97.5)
    return {k: (float(low[i]), float(high[i])) for i, k in enumerate(metrics)}


def percentile(ordered: np.ndarray, q: float) -> np.ndarray:
    """The q-th percentile of each column of a column-sorted array, to the bit what
    `np.percentile(column, q)` gives (its default linear method) for values without NaN:
    the same virtual index, neighbours and interpolation. np.percentile itself imports
    numpy.ma on first use, a tenth of a second of a scoring run."""
    n = len(ordered)
    at = (n - 1) * (q / 100)
    below = min(int(at), n - 1)
    above = min(below + 1, n - 1)
    gamma = at - below
    a, b = ordered[below], ordered[above]
    diff = b - a
    return b - diff * (1 - gamma) if gamma >= 0.5 else a + diff * gamma


def breakdown(samples: Iterable[SampleResult], key: Callable[[SampleResult], Iterable[str]],
              metrics: Callable[[Iterable[SampleResult]], dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Metrics per group; a sample may fall in several groups (categories)."""
    groups: dict[str, list[SampleResult]] = {}
    for s in samples:
        for name in key(s):
            groups.setdefault(name, []).append(s)
    return {name: {"n": len(group), **metrics(group)} for name, group in sorted(groups.items(), key=_natural)}


def static_breakdown(samples: list[SampleResult], key: Callable[[SampleResult], Iterable[str]],
                     matrix: np.ndarray) -> dict[str, dict[str, Any]]:
    """`breakdown` with static_metrics, every group's metrics computed at once from the rows of
    `matrix` (the samples' tally_matrix): each group's tallies summed as static_metrics sums them."""
    groups: dict[str, list[int]] = {}
    for i, s in enumerate(samples):
        for name in key(s):
            groups.setdefault(name, []).append(i)
    ordered = sorted(groups.items(), key=_natural)
    if not ordered:
        return {}
    totals = np.array([matrix[rows].sum(axis=0) for _, rows in ordered])
    metrics = group_metrics(totals, np.array([len(rows) for _, rows in ordered]))
    return {name: {"n": len(rows), **with_execution(values, (samples[i] for i in rows))}
            for (name, rows), values in zip(ordered, metrics, strict=True)}


def _natural(item: tuple[str, Any]) -> tuple[int, str]:
    name = item[0]
    return (int(name), "") if name.isdigit() else (10**9, name)
