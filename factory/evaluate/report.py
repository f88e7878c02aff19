"""A run's report in RESULTS_DIR: results.json (config, model, dataset fingerprint, project
version and commit, every metric with its 95% interval, breakdowns, error counts),
samples.jsonl (one SampleResult per line), summary.md and plots; and reading them back."""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

from factory import __version__
from factory.errors import RunError
from factory.evaluate.aggregate import breakdown, confidence_intervals, interactive_metrics, static_metrics
from factory.records import SampleResult

RESULTS = "results.json"
SAMPLES = "samples.jsonl"
SUMMARY = "summary.md"


def git_commit() -> str | None:
    """The project's commit, with "+dirty" when the work tree has changes; None outside git."""
    root = Path(__file__).resolve().parents[2]
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=5)
        if commit.returncode != 0:
            return None
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, timeout=5)
        return commit.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None


def _family(shape: str) -> str:
    from factory.chains.shapes import family_of
    from factory.records import parse_shape

    try:
        return family_of(*parse_shape(shape))
    except (ValueError, IndexError):
        return "unknown"


def metric_table(samples: list[SampleResult], mode: str) -> dict[str, dict[str, float | None]]:
    """Every metric with its 95% bootstrap interval."""
    point = static_metrics(samples) if mode == "static" else interactive_metrics(samples)
    intervals = confidence_intervals(samples, mode)
    return {name: {"value": value, "ci_low": intervals.get(name, (None, None))[0] if value is not None else None,
                   "ci_high": intervals.get(name, (None, None))[1] if value is not None else None}
            for name, value in point.items()}


def breakdowns(samples: list[SampleResult], mode: str) -> dict[str, dict[str, dict[str, Any]]]:
    metrics = static_metrics if mode == "static" else interactive_metrics
    return {
        "depth": breakdown(samples, lambda s: [str(s.depth)], metrics),
        "shape_family": breakdown(samples, lambda s: [_family(s.shape)], metrics),
        "shape": breakdown(samples, lambda s: [s.shape], metrics),
        "category": breakdown(samples, lambda s: s.categories or ["uncategorised"], metrics),
    }


def error_counts(samples: list[SampleResult]) -> dict[str, int]:
    """Error labels by number of samples showing them; taxonomy counts summed over samples."""
    labels = Counter(label.split(":", 1)[0] if label.startswith("model_error") else label
                     for s in samples for label in dict.fromkeys(s.errors))
    return dict(labels.most_common())


def taxonomy(samples: list[SampleResult]) -> dict[str, int]:
    from factory.evaluate.static_metrics import NEST_ERRORS, PARAM_ERRORS

    return {name: int(sum(s.scores.get(name, 0.0) for s in samples)) for name in PARAM_ERRORS + NEST_ERRORS}


def build_results(samples: list[SampleResult], run: dict[str, Any]) -> dict[str, Any]:
    mode = run["mode"]
    scored = [s for s in samples if s.scores]
    results = {
        **run,
        "factory_version": __version__,
        "git_commit": git_commit(),
        "samples": len(samples),
        "scored_samples": len(scored),
        "metrics": metric_table(scored, mode),
        "breakdowns": breakdowns(scored, mode),
        "errors": error_counts(samples),
    }
    if mode == "static":
        results["error_taxonomy"] = taxonomy(scored)
    if run.get("trials", 1) > 1:
        from factory.evaluate.passk import pass_curve

        curve = pass_curve(scored, key="tree" if mode == "static" else "success")
        results["pass_k"] = {str(k): v for k, v in curve.items()}
    return results


def write_report(out: Path, samples: list[SampleResult], run: dict[str, Any], plots: bool = True) -> dict[str, Any]:
    from factory.evaluate.summary import summary_markdown

    out.mkdir(parents=True, exist_ok=True)
    results = build_results(samples, run)
    (out / RESULTS).write_text(json.dumps(results, indent=2, ensure_ascii=False, default=str) + "\n", encoding="utf-8")
    with (out / SAMPLES).open("w", encoding="utf-8") as handle:
        for sample in samples:
            handle.write(sample.to_json() + "\n")
    (out / SUMMARY).write_text(summary_markdown(results), encoding="utf-8")
    if plots:
        from factory.evaluate.plots import write_plots

        results["plots"] = write_plots(out, results)
        (out / RESULTS).write_text(json.dumps(results, indent=2, ensure_ascii=False, default=str) + "\n", encoding="utf-8")
    return results


def read_results(path: Path) -> dict[str, Any]:
    file = path / RESULTS if path.is_dir() else path
    if not file.is_file():
        raise RunError(f"{path} holds no {RESULTS}: pass the --out directory of a `factory evaluate` run")
    try:
        return json.loads(file.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise RunError(f"{file} is not valid JSON: {exc}") from exc


def read_samples(path: Path) -> list[SampleResult]:
    file = path / SAMPLES if path.is_dir() else path
    return [SampleResult.model_validate_json(line) for line in file.read_text(encoding="utf-8").splitlines() if line.strip()]
