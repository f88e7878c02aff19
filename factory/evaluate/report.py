"""A run's report in RESULTS_DIR: results.json (config, model, dataset fingerprint, project
version and commit, every metric with its 95% interval, breakdowns, error counts, model
usage, predictions coverage), samples.jsonl (one SampleResult per line), summary.md, and
plots when asked; and reading them back. Everything written goes through the one redaction
(factory.lm.secrets), so no configured secret reaches a file whatever path it came by."""

from __future__ import annotations

import functools
import json
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from factory import __version__
from factory.errors import RunError
from factory.evaluate.aggregate import (
    breakdown,
    confidence_intervals,
    interactive_metrics,
    score_rows,
    static_breakdown,
    static_metrics,
    tally_matrix,
)
from factory.lm.secrets import configured_secrets, redact
from factory.records import SampleResult

RESULTS = "results.json"
SAMPLES = "samples.jsonl"
SUMMARY = "summary.md"


@functools.lru_cache(maxsize=1)
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


@functools.lru_cache(maxsize=4096)
def _family(shape: str) -> str:
    from factory.chains.shapes import family_of
    from factory.records import parse_shape

    try:
        return family_of(*parse_shape(shape))
    except (ValueError, IndexError):
        return "unknown"


def metric_table(samples: list[SampleResult], mode: str, matrix: np.ndarray | None = None) -> dict[str, dict[str, float | None]]:
    """Every metric with its 95% bootstrap interval (`matrix`: the static tally_matrix of the
    scored samples, when the caller has it)."""
    if mode == "static":
        matrix = tally_matrix([s for s in samples if s.scores]) if matrix is None else matrix
        point, intervals = static_metrics(samples, matrix), confidence_intervals(samples, mode, matrix=matrix)
    else:
        point, intervals = interactive_metrics(samples), confidence_intervals(samples, mode)
    return {name: {"value": value, "ci_low": intervals.get(name, (None, None))[0] if value is not None else None,
                   "ci_high": intervals.get(name, (None, None))[1] if value is not None else None}
            for name, value in point.items()}


def breakdowns(samples: list[SampleResult], mode: str, matrix: np.ndarray | None = None) -> dict[str, dict[str, dict[str, Any]]]:
    """Metrics by depth, shape family, shape and category (`matrix`: the static tally_matrix of `samples`)."""
    keys = {"depth": lambda s: [str(s.depth)], "shape_family": lambda s: [_family(s.shape)], "shape": lambda s: [s.shape],
            "category": lambda s: s.categories or ["uncategorised"]}
    if mode == "static":  # each sample's tallies read once, every group's metrics computed at once
        matrix = tally_matrix(samples) if matrix is None else matrix
        return {name: static_breakdown(samples, key, matrix) for name, key in keys.items()}
    return {name: breakdown(samples, key, interactive_metrics) for name, key in keys.items()}


def error_counts(samples: list[SampleResult]) -> dict[str, int]:
    """Error labels by number of samples showing them; taxonomy counts summed over samples."""
    labels = Counter(label.split(":", 1)[0] if label.startswith("model_error") else label
                     for s in samples for label in dict.fromkeys(s.errors))
    return dict(labels.most_common())


def taxonomy(samples: list[SampleResult]) -> dict[str, int]:
    from factory.evaluate.static.metrics import NEST_ERRORS, PARAM_ERRORS

    names = PARAM_ERRORS + NEST_ERRORS
    columns = list(zip(*score_rows(samples, names))) or [()] * len(names)
    return {name: int(sum(column)) for name, column in zip(names, columns, strict=True)}


def unscored(samples: list[SampleResult]) -> dict[str, int]:
    """Samples left out of the metrics, by reason: the endpoint failed, it refused the
    request, or a predictions file says the request got no answer (-1)."""
    reasons: Counter[str] = Counter()
    for sample in samples:
        if not sample.scores:
            labels = " ".join(sample.errors)
            reasons["endpoint_error" if "endpoint_error" in labels else "request_error" if "request_error" in labels
                    else "no_response"] += 1
    return dict(reasons)


def user_rates(samples: list[SampleResult]) -> dict[str, Any]:
    """The simulated user's errors beside the agent's scores (ToolSandbox's Table 2): shares of
    user turns with a hallucination or an instruction-following error, shares of conversations
    it ended early or never ended."""
    checked = [s.user for s in samples if s.user is not None]
    turns = sum(c.turns for c in checked)

    def share(count: int, of: int) -> float | None:
        return round(count / of, 4) if of else None

    return {
        "conversations": len(checked), "user_turns": turns,
        "hallucination_rate": share(sum(c.hallucination for c in checked), turns),
        "instruction_following_error_rate": share(sum(c.instruction for c in checked), turns),
        "ended_early_rate": share(sum(c.ended_early for c in checked), len(checked)),
        "never_ended_rate": share(sum(c.never_ended for c in checked), len(checked)),
    }


def step_label_counts(samples: list[SampleResult]) -> dict[str, Any]:
    """How many agent steps took each label, and the share ToolComp would call correct."""
    labels = Counter(step.label for s in samples for step in s.steps)
    total = sum(labels.values())
    correct = sum(step.correct for s in samples for step in s.steps)
    return {"steps": total, "correct_share": round(correct / total, 4) if total else None,
            "labels": dict(labels.most_common())}


def build_results(samples: list[SampleResult], run: dict[str, Any]) -> dict[str, Any]:
    mode = run["mode"]
    scored = [s for s in samples if s.scores]
    matrix = tally_matrix(scored) if mode == "static" else None  # read once for the metrics, intervals and breakdowns
    results = {
        **run,
        "factory_version": __version__,
        "git_commit": git_commit(),
        "samples": len(samples),
        "scored_samples": len(scored),
        "unscored": unscored(samples),
        "truncated": sum("truncated" in s.errors for s in samples),
        "metrics": metric_table(scored, mode, matrix),
        "breakdowns": breakdowns(scored, mode, matrix),
        "errors": error_counts(samples),
    }
    if mode == "static":
        results["error_taxonomy"] = taxonomy(scored)
    if any(s.user for s in scored):
        results["user_simulator"] = user_rates(scored)
    if any(s.steps for s in scored):
        results["step_labels"] = step_label_counts(scored)
    if run.get("trials", 1) > 1:
        from factory.evaluate.passk import pass_curve

        curve = pass_curve(scored, key="tree" if mode == "static" else "success")
        results["pass_k"] = {str(k): v for k, v in curve.items()}
    return results


def write_report(out: Path, samples: list[SampleResult], run: dict[str, Any], plots: bool = False) -> dict[str, Any]:
    from factory.evaluate.summary import summary_markdown

    out.mkdir(parents=True, exist_ok=True)
    secrets = configured_secrets()
    results = redact(build_results(samples, run), secrets)
    if plots:
        from factory.evaluate.plots import write_plots

        results["plots"] = write_plots(out, results)
    _write(out / RESULTS, json.dumps(results, indent=2, ensure_ascii=False, default=str) + "\n", secrets)
    _write(out / SAMPLES, "".join(sample.to_json() + "\n" for sample in samples), secrets)
    _write(out / SUMMARY, summary_markdown(results), secrets)
    return results


def draw_plots(out: Path) -> list[str]:
    """Plots of a written report, drawn when asked (`factory report --plots`)."""
    from factory.evaluate.plots import write_plots

    results = read_results(out)
    results["plots"] = write_plots(out, results)
    _write(out / RESULTS, json.dumps(results, indent=2, ensure_ascii=False, default=str) + "\n", configured_secrets())
    return results["plots"]


def _write(path: Path, text: str, secrets: list[str]) -> None:
    path.write_text(redact(text, secrets), encoding="utf-8")


def read_results(path: Path) -> dict[str, Any]:
    file = path / RESULTS if path.is_dir() else path
    if not path.exists():
        raise RunError(f"{path} does not exist: pass the results directory of a `factory evaluate` run (the folder "
                       "it printed; by default under generated/evaluations/)")
    if not file.is_file():
        raise RunError(f"{path} holds no {RESULTS}: pass the --out directory of a `factory evaluate` run")
    try:
        return json.loads(file.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise RunError(f"{file} is not valid JSON: {exc}") from exc


def read_samples(path: Path) -> list[SampleResult]:
    file = path / SAMPLES if path.is_dir() else path
    return [SampleResult.model_validate_json(line) for line in file.read_text(encoding="utf-8").split("\n") if line.strip()]
