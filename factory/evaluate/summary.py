"""Human-readable views of results: summary.md and the leaderboard rows of `factory report`."""

from __future__ import annotations

from typing import Any

STATIC_COLUMNS = (
    ("format_accuracy", "Format"), ("selection_f1", "Selection F1"), ("order_f1", "Order F1"),
    ("parameter_f1", "Parameter F1"), ("nested_param_f1", "NestedParam F1"), ("tree_pass_rate", "Tree pass"),
    ("average", "Average"), ("execution_pass_rate", "Exec pass"),
)
INTERACTIVE_COLUMNS = (
    ("milestone_similarity", "Milestones"), ("answer_match", "Answer"), ("success", "Success"),
    ("minefield_hit", "Minefield hit"), ("turns", "Turns"),
)
COUNTS = ("turns", "tool_calls")  # shown as numbers, not percentages
HEADLINE = {"static": "average", "interactive": "success"}


def columns(mode: str) -> tuple[tuple[str, str], ...]:
    return STATIC_COLUMNS if mode == "static" else INTERACTIVE_COLUMNS


def show(name: str, value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.2f}" if name in COUNTS else f"{100 * value:.1f}"


def show_ci(name: str, metric: dict[str, Any]) -> str:
    if metric.get("value") is None:
        return "-"
    low, high = metric.get("ci_low"), metric.get("ci_high")
    interval = f" [{show(name, low)}, {show(name, high)}]" if low is not None else ""
    return show(name, metric["value"]) + interval


def who(results: dict[str, Any]) -> str:
    model = results.get("model") or {}
    return results.get("label") or model.get("name") or results.get("agent") or "?"


def left_out_line(dataset: dict[str, Any]) -> str:
    """How many instances static mode left out, and why, in one line."""
    from factory.evaluate.static.tasks import LEFT_OUT_WHY

    reasons = dataset.get("left_out_reasons") or {}
    why = "; ".join(f"{n} {LEFT_OUT_WHY.get(reason, reason)}" for reason, n in reasons.items())
    considered = dataset["evaluated"] + dataset["left_out"]
    scope = f"the first {considered}" if considered < dataset.get("instances", considered) else f"the {considered}"
    return (f"left out of static mode: {dataset['left_out']} of {scope} instances ({why or 'reasons not recorded'}); "
            "interactive mode scores them")


def _breakdown_table(title: str, groups: dict[str, dict[str, Any]], mode: str, top: int = 20) -> list[str]:
    cols = columns(mode)
    lines = ["", f"### By {title}", "", "| " + " | ".join([title, "n", *(c[1] for c in cols)]) + " |",
             "| " + " | ".join(["---"] + ["---:"] * (len(cols) + 1)) + " |"]
    rows = sorted(groups.items(), key=lambda kv: -kv[1]["n"]) if title == "shape" else list(groups.items())
    for name, metrics in rows[:top]:
        cells = [f"`{name}`" if title == "shape" else name, str(metrics["n"]), *(show(k, metrics.get(k)) for k, _ in cols)]
        lines.append("| " + " | ".join(cells) + " |")
    if len(rows) > top:
        lines.append(f"| ({len(rows) - top} more) | {sum(m['n'] for _, m in rows[top:])} |" + " |" * len(cols))
    return lines


def summary_markdown(results: dict[str, Any]) -> str:
    mode = results["mode"]
    dataset = results.get("dataset", {})
    lines = [
        f"# {who(results)} on {dataset.get('path', '?')} ({mode} mode)", "",
        f"- samples: {results['samples']} ({results['scored_samples']} scored), trials: {results.get('trials', 1)}",
        f"- dataset fingerprint: `{dataset.get('fingerprint')}`; instances evaluated: {dataset.get('evaluated')}"
        + (f"; {left_out_line(dataset)}" if dataset.get("left_out") else ""),
        f"- augment: {results.get('augment', 'none')}; factory {results['factory_version']} at `{results.get('git_commit')}`",
        *_notes(results),
        "", "## Metrics (95% bootstrap interval)", "", "| metric | value |", "| --- | ---: |",
    ]
    lines += [f"| {name} | {show_ci(name, m)} |" for name, m in results["metrics"].items()]
    if results.get("pass_k"):
        lines += ["", "pass^k: " + ", ".join(f"k={k}: {100 * v:.1f}" for k, v in results["pass_k"].items())]
    for title in ("depth", "shape_family", "shape", "category"):
        lines += _breakdown_table(title, results["breakdowns"][title], mode)
    if results.get("error_taxonomy"):
        lines += ["", "## Error taxonomy (NesTools)", "", "| error | count |", "| --- | ---: |"]
        lines += [f"| {k} | {v} |" for k, v in results["error_taxonomy"].items()]
    if results.get("user_simulator"):
        user = results["user_simulator"]
        lines += ["", "## Simulated user (checked against its knowledge boundary)", "",
                  f"{user['conversations']} conversations, {user['user_turns']} user turns after the first.", "",
                  "| error | rate |", "| --- | ---: |"]
        lines += [f"| {name.removesuffix('_rate').replace('_', ' ')} | {_percent(user[name])} |"
                  for name in ("hallucination_rate", "instruction_following_error_rate", "ended_early_rate",
                               "never_ended_rate")]
    if results.get("step_labels"):
        steps = results["step_labels"]
        lines += ["", "## Step labels", "", f"{steps['steps']} agent steps, {_percent(steps['correct_share'])} correct.",
                  "", "| label | steps |", "| --- | ---: |"]
        lines += [f"| {k} | {v} |" for k, v in steps["labels"].items()]
    if results.get("errors"):
        lines += ["", "## Error labels (samples)", "", "| label | samples |", "| --- | ---: |"]
        lines += [f"| {k} | {v} |" for k, v in results["errors"].items()]
    if results.get("problems"):
        lines += ["", "## Problems", ""] + [f"- {p}" for p in results["problems"][:50]]
    return "\n".join(lines) + "\n"


def split_line(record: dict[str, Any]) -> str:
    """The fresh split in one line: where, its fingerprint, and how clean."""
    c = record["contamination"]
    head = (f"fresh split seed {record['seed']}: {record['instances']} instances of {record['attempts']} candidates in "
            f"{record['run']} (fingerprint {record['fingerprint']})")
    if not c["references"]:
        return head + "; no --exclude-from reference, so nothing was checked for contamination"
    return (f"{head}; {c['rejected']} candidates dropped as contaminated by {', '.join(c['references'])}, "
            f"{c['crossed']} kept instances over the thresholds (more than {c['thresholds']['max_ngram']} shared words "
            f"in a row, cosine above {c['thresholds']['max_cosine']}, or the same chain)")


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.2f}%"


def _notes(results: dict[str, Any]) -> list[str]:
    """Coverage of a predictions file, model usage, and what was left out or cut."""
    lines = []
    if results.get("fresh_split"):
        lines.append(f"- {split_line(results['fresh_split'])}")
    if results.get("coverage"):
        from factory.evaluate.static.predictions import Coverage

        lines.append(f"- coverage: {Coverage(**results['coverage']).line()}")
    if results.get("lm_usage"):
        from factory.lm.usage import UsageSummary

        lines.append(f"- model usage: {UsageSummary(**results['lm_usage']).line()}")
    if results.get("unscored"):
        causes = "; ".join((results.get("lm_usage") or {}).get("causes", {}).values())
        lines.append("- not scored: " + ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in results["unscored"].items())
                     + (f" ({causes})" if causes else ""))
    if results.get("truncated"):
        lines.append(f"- truncated at max_tokens (scored as given): {results['truncated']}")
    return lines


def leaderboard(runs: list[tuple[str, dict[str, Any]]], mode: str) -> tuple[list[str], list[list[str]]]:
    """A side-by-side view of the runs in one mode, best headline first: (column headers:
    one per run, rows: one per metric, led by its label)."""
    headline = HEADLINE[mode]
    chosen = [(name, r) for name, r in runs if r.get("mode") == mode]
    chosen.sort(key=lambda nr: -(nr[1]["metrics"].get(headline, {}).get("value") or 0.0))
    headers = []
    for name, r in chosen:
        augment = r.get("augment", "none")
        headers.append(f"{name}\n{who(r)}" + (f"\n{augment}" if augment != "none" else ""))
    rows = [["n", *(str(r["scored_samples"]) for _, r in chosen)]]
    for key, label in columns(mode):
        rows.append([label, *(show(key, r["metrics"].get(key, {}).get("value")) for _, r in chosen)])
    return headers, rows
