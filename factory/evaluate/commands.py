"""The evaluation commands: `factory evaluate`, `factory import nestools`, `factory report`.

Thin typer functions; the work happens in factory.evaluate.run / importer / report, imported
inside the commands so `factory --help` stays fast. Registered in factory/cli.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from factory.config import offline_defaults

console = Console()
err_console = Console(stderr=True)


def evaluate(
    dataset: Annotated[Path, typer.Argument(help="A generated run directory, an exported dataset folder, or an import's --out directory.")],
    mode: Annotated[str, typer.Option("--mode", help="static (whole call list, NesTools metrics) or interactive (tool by tool, milestones).")] = "static",
    agent: Annotated[Optional[str], typer.Option("--agent", help="Reference agent: oracle, noisy:P (0..1) or random.")] = None,
    model: Annotated[Optional[str], typer.Option("--model", help="Model name (e.g. openai/gpt-4o-mini); default from FACTORY_MODEL.")] = None,
    api_base: Annotated[Optional[str], typer.Option("--api-base", help="OpenAI-compatible endpoint (vLLM, llama.cpp, Ollama...).")] = None,
    predictions: Annotated[Optional[Path], typer.Option("--predictions", help="Static mode: score NesTools raw responses ({\"test_id\", \"response\"} per line).")] = None,
    trials: Annotated[int, typer.Option("--trials", help="Attempts per instance (pass^k is reported when > 1).")] = 1,
    limit: Annotated[Optional[int], typer.Option("--limit", help="Evaluate the first N instances only.")] = None,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Results directory (default under the output dir).")] = None,
    augment: Annotated[Optional[list[str]], typer.Option("--augment", help="Static-mode robustness variants: distractors=0|3|10|all, scramble, no-descriptions, no-arg-descriptions, no-types, no-conjunctions (repeat or comma-separate).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the reference agents and of distractor sampling.")] = 0,
    concurrency: Annotated[int, typer.Option("--concurrency", help="Concurrent model requests.")] = 4,
    max_tokens: Annotated[int, typer.Option("--max-tokens", help="Completion token limit per model request.")] = 1024,
    temperature: Annotated[float, typer.Option("--temperature", help="Model sampling temperature (raise it so --trials differ).")] = 0.0,
    max_turns: Annotated[int, typer.Option("--max-turns", help="Interactive mode: assistant turns before the episode is cut off.")] = 15,
    split: Annotated[Optional[str], typer.Option("--split", help="Dataset split (default: every split).")] = None,
    cache_dir: Annotated[Optional[Path], typer.Option("--cache-dir", help="Model response cache (default RESULTS_DIR/cache).")] = None,
) -> None:
    """Score a reference agent, a model or a predictions file on a dataset; writes RESULTS_DIR."""
    offline_defaults()
    from factory.config import load_settings
    from factory.evaluate.run import EvalRequest
    from factory.evaluate.run import evaluate as run_evaluation

    settings = load_settings({"model": model, "api_base": api_base})
    if not (agent or predictions):
        model, api_base = settings.model, settings.api_base
    request = EvalRequest(dataset=dataset, mode=mode, agent=agent, model=model, api_base=api_base, predictions=predictions,
                          trials=trials, limit=limit, augment=augment or [], seed=seed, concurrency=concurrency,
                          max_tokens=max_tokens, temperature=temperature, max_turns=max_turns, split=split, cache_dir=cache_dir)
    if model:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        with Progress(TextColumn(f"[bold]{model}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=err_console, transient=True) as bar:
            task = bar.add_task("requests", total=None)
            path, results = run_evaluation(request, settings, out, lambda done, total: bar.update(task, completed=done, total=total))
    else:
        path, results = run_evaluation(request, settings, out)
    _print_results(path, results)


def _print_results(path: Path, results: dict) -> None:
    from rich.table import Table

    from factory.evaluate.summary import show_ci, who

    table = Table(title=f"{who(results)} ({results['mode']} mode, {results['scored_samples']} scored samples)")
    table.add_column("metric")
    table.add_column("value [95% CI]", justify="right")
    for name, metric in results["metrics"].items():
        table.add_row(name, show_ci(name, metric))
    console.print(table)
    for problem in results.get("problems", [])[:10]:
        err_console.print(f"[yellow]warning:[/yellow] {problem}", highlight=False)
    unanswered = results["samples"] - results["scored_samples"]
    if unanswered:
        err_console.print(f"[yellow]warning:[/yellow] {unanswered} request(s) got no response and are not scored", highlight=False)
    console.print(f"results: {path}")


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

    if distractors < 0:
        raise ConfigError(f"--distractors must be 0 or more, got {distractors}")
    rows, ids = read_nestools(path)
    imported, rejects = convert(rows, ids, distractors=distractors, seed=seed)
    fingerprint = write_import(imported, rejects, {r.get("test_id"): r.get("call") for r in rows}, out, distractors)
    for reason in rejects[:10]:
        err_console.print(f"[yellow]skipped:[/yellow] {reason}", highlight=False)
    console.print(f"imported {len(imported)} of {len(rows)} NesTools instances into {out / 'dataset'} "
                  f"(fingerprint {fingerprint}); api ids in {out / 'nestools_api_ids.jsonl'}")


def report(
    results: Annotated[list[Path], typer.Argument(help="Results directories of `factory evaluate` runs.")],
) -> None:
    """A side-by-side leaderboard of several evaluation results."""
    from rich.table import Table

    from factory.evaluate.report import read_results
    from factory.evaluate.summary import leaderboard

    runs = [(p.name or str(p), read_results(p)) for p in results]
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
        if len(fingerprints) > 1:
            err_console.print(f"[yellow]warning:[/yellow] the {mode} runs scored different datasets", highlight=False)
