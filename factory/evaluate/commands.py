"""The evaluation commands: `factory evaluate`, `factory import nestools`, `factory report`.

Thin typer functions; the work happens in factory.evaluate.run / importer / report, imported
inside the commands so `factory --help` stays fast. Registered in factory/cli.py.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console


def offline_defaults() -> None:
    """factory.config's offline defaults, imported when a command runs: it loads pydantic,
    which `--help` does not need."""
    from factory.config import offline_defaults as set_defaults

    set_defaults()


class _Console(Console):
    """Tables stay whole when output goes to a file or a pipe, where rich would otherwise
    fold them at its 80-column default (COLUMNS, when set, still wins)."""

    @property
    def size(self):  # type: ignore[override]
        size = super().size
        if self.is_terminal or self._width is not None or os.environ.get("COLUMNS"):
            return size
        return size._replace(width=max(size.width, 200))

    @size.setter
    def size(self, new_size):  # type: ignore[override]
        Console.size.fset(self, new_size)


console = _Console()
err_console = _Console(stderr=True)


def evaluate(
    dataset: Annotated[Optional[Path], typer.Argument(help="A generated run directory, an exported dataset folder, or an import's --out directory; with --fresh-split, the run directory the split is generated into (default generated/<domain>/<run-id>/).")] = None,
    mode: Annotated[str, typer.Option("--mode", help="static (whole call list, NesTools metrics) or interactive (tool by tool, milestones).")] = "static",
    agent: Annotated[Optional[str], typer.Option("--agent", help="Reference agent: oracle, noisy:P (0..1), random, guesser (interactive: never asks the person), or request-order (static mode: the gold calls in the order the request's text gives).")] = None,
    model: Annotated[Optional[str], typer.Option("--model", help="Model name (e.g. openai/gpt-4o-mini, hosted_vllm/NAME, ollama/NAME); default from FACTORY_MODEL.")] = None,
    api_base: Annotated[Optional[str], typer.Option("--api-base", help="OpenAI-compatible endpoint (vLLM, llama.cpp, Ollama...), e.g. http://localhost:8000/v1.")] = None,
    predictions: Annotated[Optional[list[Path]], typer.Option("--predictions", help="Static mode: score NesTools raw responses ({\"test_id\", \"response\"} per line); repeat for several files (the dataset is loaded once).")] = None,
    allow_missing: Annotated[bool, typer.Option("--allow-missing", help="Predictions: leave tasks without a line out of the metrics (as NesTools' scorer does) instead of scoring them as failures.")] = False,
    trials: Annotated[int, typer.Option("--trials", help="Attempts per instance (pass^k is reported when > 1).")] = 1,
    limit: Annotated[Optional[int], typer.Option("--limit", help="Evaluate the first N instances of the dataset only (static mode scores those of them it does not leave out).")] = None,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Results directory (default under the output dir); one sub-folder per file with several --predictions.")] = None,
    augment: Annotated[Optional[list[str]], typer.Option("--augment", help="Static-mode robustness variants: distractors=0|3|10|all, scramble, no-descriptions, no-arg-descriptions, no-types, no-conjunctions (repeat or comma-separate).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the reference agents and of distractor sampling.")] = 0,
    concurrency: Annotated[Optional[int], typer.Option("--concurrency", help="Concurrent model requests (default 4, or FACTORY_CONCURRENCY).")] = None,
    max_tokens: Annotated[int, typer.Option("--max-tokens", help="Completion token limit per model request.")] = 1024,
    temperature: Annotated[float, typer.Option("--temperature", help="Model sampling temperature (raise it so --trials differ).")] = 0.0,
    timeout: Annotated[Optional[float], typer.Option("--timeout", help="Seconds for a whole model request, however slowly the answer arrives (default 120, or FACTORY_TIMEOUT).")] = None,
    max_retries: Annotated[Optional[int], typer.Option("--max-retries", help="Retries of a request after timeouts, connection errors, 429, 5xx or unreadable answers, with backoff, jitter and Retry-After (default 4).")] = None,
    max_endpoint_failures: Annotated[Optional[int], typer.Option("--max-endpoint-failures", help="Stop after this many requests in a row fail at the endpoint (default 5).")] = None,
    max_turns: Annotated[int, typer.Option("--max-turns", help="Interactive mode: assistant turns before the episode is cut off.")] = 15,
    user: Annotated[str, typer.Option("--user", help="Interactive mode, conversational items: the simulated user, 'offline' (scripted from the knowledge boundary) or a model name (prompts/user_simulator.md, with end_conversation as its one tool).")] = "offline",
    user_api_base: Annotated[Optional[str], typer.Option("--user-api-base", help="OpenAI-compatible endpoint of the user model (default: --api-base).")] = None,
    user_prompt: Annotated[str, typer.Option("--user-prompt", help="The user model's prompt: full, or an ablation to measure it by: no-boundary, no-demonstrations.")] = "full",
    split: Annotated[Optional[str], typer.Option("--split", help="Dataset split (default: every split).")] = None,
    cache_dir: Annotated[Optional[Path], typer.Option("--cache-dir", help="Model call cache (default RESULTS_DIR/cache).")] = None,
    plots: Annotated[bool, typer.Option("--plots", help="Also draw PNG plots by depth, shape and category (or later: factory report DIR --plots).")] = False,
    fresh_split: Annotated[Optional[int], typer.Option("--fresh-split", metavar="SEED", help="First generate a fresh split with this run seed (offline, as factory generate does; a complete run of the same settings is reused), kept clear of the --exclude-from references, then evaluate on it; results.json records the split's fingerprint and contamination summary.")] = None,
    domain: Annotated[Optional[str], typer.Option("--domain", "-d", help="With --fresh-split: the split's seed domain (default all).")] = None,
    n: Annotated[Optional[int], typer.Option("-n", help="With --fresh-split: the split's instances (default 300).")] = None,
    exclude_from: Annotated[Optional[list[str]], typer.Option("--exclude-from", help="With --fresh-split: a reference the split must not resemble (repeatable; 'nestools', a run or dataset folder, NesTools' test_data.jsonl, or a cached Hub dataset id); candidates over the contamination thresholds are counted rejects.")] = None,
) -> None:
    """Score a reference agent, a model or predictions files on a dataset, or on a fresh split
    it generates first (--fresh-split SEED); writes RESULTS_DIR."""
    offline_defaults()
    from factory.config import load_settings
    from factory.evaluate.run import EvalRequest
    from factory.evaluate.run import evaluate as run_evaluation
    from factory.generation.progress import progress

    fresh = _fresh_split(dataset, fresh_split, domain, n, exclude_from or [], predictions or [], mode, agent)
    settings = load_settings({"model": model, "api_base": api_base})
    if not (agent or predictions):
        model, api_base = settings.model, settings.api_base
    request = EvalRequest(dataset=dataset, mode=mode, agent=agent, model=model, api_base=api_base,
                          predictions=predictions or [], allow_missing=allow_missing, trials=trials, limit=limit,
                          augment=augment or [], seed=seed, concurrency=concurrency, max_tokens=max_tokens,
                          temperature=temperature, timeout=timeout, max_retries=max_retries,
                          max_endpoint_failures=max_endpoint_failures, max_turns=max_turns, split=split,
                          cache_dir=cache_dir, plots=plots, user=user, user_api_base=user_api_base,
                          user_prompt=user_prompt)
    record = None if fresh is None else _generate_fresh_split(request, fresh, settings, dataset)
    with progress(err_console, "evaluating") as steps:
        runs = run_evaluation(request, settings, out, steps, fresh_split=record)
    if len(runs) == 1:
        _print_results(*runs[0])
    else:
        _print_many(runs)
    _fail_if_nothing_scored(runs)


def _fresh_split(dataset: Optional[Path], seed: Optional[int], domain: Optional[str], n: Optional[int],
                 exclude_from: list[str], predictions: list[Path], mode: str, agent: Optional[str]) -> Any:
    """The fresh split --fresh-split asks for (None without it), its flags checked."""
    from factory.errors import ConfigError
    from factory.evaluate.fresh import DEFAULT_DOMAIN, DEFAULT_N, FreshSplit, check_flags

    fresh = None if seed is None else FreshSplit(seed, domain or DEFAULT_DOMAIN, DEFAULT_N if n is None else n,
                                                 exclude_from)
    check_flags(fresh, domain, n, exclude_from, predictions, mode, agent)
    if dataset is None and fresh is None:
        raise ConfigError("give the dataset to evaluate (a run directory or a dataset folder), or --fresh-split SEED "
                          "to generate a fresh split and evaluate on it")
    return fresh


def _generate_fresh_split(request: Any, fresh: Any, settings: Any, into: Optional[Path]) -> Any:
    """Generate the fresh split the request is then evaluated on (request.dataset); its record."""
    from factory.evaluate.fresh import generate_split
    from factory.evaluate.run import validate
    from factory.evaluate.summary import split_line
    from factory.generation.progress import progress

    validate(request)  # a bad flag is one line before the split is generated
    with progress(err_console, "generating the fresh split", fresh.n) as steps:
        request.dataset, record = generate_split(fresh, settings, into, steps)
    console.print(split_line(record), highlight=False, soft_wrap=True)
    return record


def _print_results(path: Path, results: dict) -> None:
    from rich.table import Table

    from factory.evaluate.summary import show_ci, who

    table = Table(title=f"{who(results)} ({results['mode']} mode, {results['scored_samples']} scored samples)")
    table.add_column("metric")
    table.add_column("value [95% CI]", justify="right")
    for name, metric in results["metrics"].items():
        table.add_row(name, show_ci(name, metric))
    console.print(table)
    _print_left_out(results)
    _print_notes(results)
    console.print(f"results: {path}")


def _print_left_out(results: dict) -> None:
    from factory.evaluate.summary import left_out_line

    if results.get("dataset", {}).get("left_out"):
        console.print(left_out_line(results["dataset"]), highlight=False, soft_wrap=True)


def _print_notes(results: dict) -> None:
    """Coverage, model usage and what was left out, each on one line."""
    warn = lambda text: err_console.print(f"[yellow]warning:[/yellow] {text}", highlight=False)  # noqa: E731
    for problem in results.get("problems", [])[:10]:
        warn(problem)
    coverage = results.get("coverage")
    if coverage:
        line = _coverage_line(coverage)
        (warn if coverage["missing"] or coverage["unknown"] or coverage["duplicates"] else console.print)(line)
    if results.get("lm_usage"):
        from factory.lm.usage import UsageSummary

        console.print(f"model usage: {UsageSummary(**results['lm_usage']).line()}", highlight=False)
    causes = _causes(results)
    for reason, count in results.get("unscored", {}).items():
        what = {"endpoint_error": "failed at the endpoint", "request_error": "were refused by the endpoint",
                "no_response": "got no response"}[reason]
        warn(f"{count} request(s) {what} and are not scored" + (f" ({causes})" if causes else ""))
    if results.get("truncated"):
        warn(f"{results['truncated']} answer(s) were cut at --max-tokens (finish_reason 'length') and score as given; "
             "raise --max-tokens")


def _causes(results: dict) -> str:
    """Why requests failed, as the endpoint said it (first message of each kind)."""
    return "; ".join((results.get("lm_usage") or {}).get("causes", {}).values())


def _coverage_line(coverage: dict) -> str:
    from factory.evaluate.static.predictions import Coverage

    return "coverage: " + Coverage(**coverage).line()


def _print_many(runs: list) -> None:
    from rich.table import Table

    from factory.evaluate.summary import columns, show

    table = Table(title=f"{len(runs)} predictions files ({runs[0][1]['mode']} mode)")
    table.add_column("file", overflow="fold")
    table.add_column("predicted", justify="right")
    keys = columns(runs[0][1]["mode"])
    for _, label in keys:
        table.add_column(label, justify="right")
    for path, results in runs:
        coverage = results.get("coverage") or {}
        table.add_row(coverage.get("file", path.name), f"{coverage.get('predicted', '?')}/{coverage.get('tasks', '?')}",
                      *(show(key, results["metrics"].get(key, {}).get("value")) for key, _ in keys))
    console.print(table)
    for path, results in runs:
        if results.get("problems") or (results.get("coverage") or {}).get("missing"):
            _print_notes(results)
    console.print(f"results: {runs[0][0].parent}")


def _fail_if_nothing_scored(runs: list) -> None:
    from factory.errors import FactoryError

    for path, results in runs:
        coverage = results.get("coverage") or {}
        if results["samples"] and not results["scored_samples"]:
            reasons = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in results.get("unscored", {}).items())
            causes = _causes(results)
            raise FactoryError(f"nothing could be scored: {results['samples']} of {results['samples']} requests got "
                               f"no answer ({reasons}{': ' + causes if causes else ''}). Check that the server is up "
                               f"and --model/--api-base are right, then run again; the report is in {path}")
        if coverage and coverage["tasks"] and not coverage["predicted"]:
            raise FactoryError(f"--predictions {coverage['file']}: none of its lines is for a task of this dataset "
                               f"({coverage['unknown']} unknown test_ids, {coverage['outside']} outside the evaluated "
                               f"tasks); the report is in {path}")


def import_nestools(
    path: Annotated[Path, typer.Argument(help="NesTools' test_data.jsonl, or the folder holding it (with test_api_ids.jsonl).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for dataset/ and nestools_api_ids.jsonl.")],
    distractors: Annotated[int, typer.Option("--distractors", help="Distractors per gold tool (NesTools uses 5).")] = 5,
    seed: Annotated[int, typer.Option("--seed", help="Mock seed of the executed traces and of the tool order.")] = 0,
) -> None:
    """Convert the NesTools test set into a dataset every evaluator feature runs on."""
    offline_defaults()
    from factory.errors import ConfigError
    from factory.evaluate.importer import convert, read_nestools, write_import
    from factory.generation.progress import progress

    if distractors < 0:
        raise ConfigError(f"--distractors must be 0 or more, got {distractors}")
    with progress(err_console, f"reading {path}") as steps:
        rows, ids = read_nestools(path)
        imported, rejects = convert(rows, ids, distractors=distractors, seed=seed, steps=steps)
        steps.step(f"writing {len(imported)} instances")
        fingerprint = write_import(imported, rejects, {r.get("test_id"): r.get("call") for r in rows}, out, distractors)
    for reason in rejects[:10]:
        err_console.print(f"[yellow]skipped:[/yellow] {reason}", highlight=False)
    console.print(f"imported {len(imported)} of {len(rows)} NesTools instances into {out / 'dataset'} "
                  f"(fingerprint {fingerprint}); api ids in {out / 'nestools_api_ids.jsonl'}")


def report(
    results: Annotated[list[Path], typer.Argument(help="Results directories of `factory evaluate` runs (a folder of several, as --predictions writes, is read whole).")],
    plots: Annotated[bool, typer.Option("--plots", help="Draw each run's PNG plots (by depth, shape, category) into its directory.")] = False,
) -> None:
    """A side-by-side leaderboard of several evaluation results; for results on fresh splits of
    the same settings (evaluate --fresh-split), each metric's split-to-split spread beside its
    bootstrap interval, and whether the splits are comparable."""
    from rich.table import Table

    from factory.evaluate.report import draw_plots, read_results
    from factory.evaluate.summary import leaderboard

    results = _results_dirs(results)
    runs = [(p.name or str(p), read_results(p)) for p in results]
    if plots:
        offline_defaults()
        for path in results:
            console.print(f"plots: {', '.join(str(path / name) for name in draw_plots(path))}")
    for mode in ("static", "interactive"):
        headers, rows = leaderboard(runs, mode)
        if not headers:
            continue
        table = Table(title=f"{mode} mode")
        table.add_column("metric")
        for header in headers:
            table.add_column(header, justify="right", overflow="fold")
        for row in rows:
            table.add_row(*row)
        console.print(table)
        fingerprints = {r["dataset"].get("fingerprint") for _, r in runs if r.get("mode") == mode}
        fresh = all(r.get("fresh_split") for _, r in runs if r.get("mode") == mode)
        if len(fingerprints) > 1 and not fresh:
            err_console.print(f"[yellow]warning:[/yellow] the {mode} runs scored different datasets", highlight=False)
    _print_split_spreads(runs)


def _print_split_spreads(runs: list) -> None:
    """For results on fresh splits of the same settings: each metric's split-to-split spread
    beside its bootstrap interval, and whether the splits are comparable."""
    from rich.table import Table

    from factory.evaluate.fresh import split_groups, verdict
    from factory.evaluate.summary import show

    for group in split_groups(runs):
        table = Table(title=f"{group.who} ({group.mode} mode) on {len(group.seeds)} fresh splits ({group.describe()})")
        for column in ("metric", "mean", "min", "max", "sd", "spread", "95% interval", "comparable"):
            table.add_column(column, justify="left" if column == "metric" else "right")
        for s in group.spreads:
            table.add_row(s.metric, *(show(s.metric, v) for v in (s.mean, min(s.values), max(s.values), s.sd,
                                                                   s.spread, s.interval)),
                          "yes" if s.comparable else "[red]no[/red]")
        console.print(table)
        console.print(verdict(group), highlight=False, soft_wrap=True)


def _results_dirs(paths: list[Path]) -> list[Path]:
    """The results directories among `paths`: a folder holding one per predictions file
    counts as those; with several paths, one holding no results (an evaluation that was
    stopped, or another folder a glob caught) is skipped with a warning."""
    from factory.evaluate.report import RESULTS

    found, skipped = [], []
    for path in paths:
        inner = sorted(q.parent for q in path.glob(f"*/{RESULTS}")) if path.is_dir() else []
        if (path / RESULTS).is_file() or path.is_file() or (not inner and len(paths) == 1):
            found.append(path)  # a single path without results is read, and its error is the answer
        elif inner:
            found += inner
        else:
            skipped.append(path)
    if skipped and not found:
        from factory.errors import RunError

        raise RunError(f"none of {', '.join(map(str, skipped))} holds {RESULTS}: pass the results directories of "
                       "`factory evaluate` runs (by default generated/evaluations/<dataset>-<mode>-<who>-<tag>)")
    for path in skipped:
        err_console.print(f"[yellow]warning:[/yellow] {path} holds no {RESULTS} (an evaluation that did not finish?): "
                          "skipped", highlight=False, soft_wrap=True)
    return found


def export_steps(
    results: Annotated[Path, typer.Argument(help="Results directory of an interactive `factory evaluate` run.")],
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Dataset folder to write (default RESULTS_DIR/steps).")] = None,
) -> None:
    """Write the step labels of interactive results as a (context, step, label) dataset for
    scoring process reward models (ToolComp style); `datasets.load_dataset(OUT)` reads it."""
    from factory.evaluate.step_dataset import export_steps as write

    target = out or results / "steps"
    count = write(results, target)
    console.print(f"wrote {count} labelled steps to {target}")
