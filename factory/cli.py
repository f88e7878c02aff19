"""The `factory` command line. Heavy libraries are imported inside commands so `--help` is fast."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console

from factory.config import offline_defaults
from factory.errors import FactoryError

app = typer.Typer(
    help="Generate fresh, verified, executable benchmarks of nested tool use, and score models on them.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
console = Console()
err_console = Console(stderr=True)
_state = {"debug": False}


@app.callback()
def main(
    debug: Annotated[bool, typer.Option("--debug", help="Show full tracebacks on errors.")] = False,
) -> None:
    _state["debug"] = debug


def command(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Run a command body: a FactoryError is one red line and exit code 1; tracebacks only with --debug."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except FactoryError as exc:
            if _state["debug"]:
                raise
            err_console.print(f"[red]error:[/red] {exc}", markup=True, highlight=False, soft_wrap=True)
            raise typer.Exit(1) from None
        except KeyboardInterrupt:
            err_console.print("[red]interrupted[/red]")
            raise typer.Exit(130) from None

    return run


def settings(**flags: Any):
    from factory.config import load_settings

    return load_settings(flags)


@app.command()
@command
def domains() -> None:
    """List the seed domains (offline generation works for these) with their tool counts."""
    from rich.table import Table

    from factory.seeds import load_seeds

    seeds = load_seeds(settings().seeds_dir)
    table = Table("domain", "slug", "tools", "subdomains")
    for seed in seeds.values():
        table.add_row(seed.domain, seed.slug, str(len(seed.specs)), ", ".join(seed.scenario.subdomains))
    console.print(table)
    total = sum(len(s.specs) for s in seeds.values())
    console.print(f"{len(seeds)} domains, {total} tools")


@app.command()
@command
def generate(
    domain: Annotated[str, typer.Option("--domain", "-d", help="Seed domain (forgiving match; 'Domain/Subdomain' picks a subdomain; 'all' mixes every seed).")],
    n: Annotated[int, typer.Option("-n", help="Number of instances to keep.")] = 50,
    seed: Annotated[int, typer.Option("--seed", help="Run seed: the same seed and options give the same dataset bytes.")] = 0,
    max_depth: Annotated[int, typer.Option("--max-depth", help="Maximum nesting depth (1-5).")] = 3,
    min_depth: Annotated[int, typer.Option("--min-depth", help="Minimum nesting depth.")] = 1,
    shape: Annotated[Optional[str], typer.Option("--shape", help="Shape family (chain, fan-out, fan-in, diamond, dag, mixed, independent, single) or an exact shape like '3:1>2,2>3'.")] = None,
    distractors: Annotated[int, typer.Option("--distractors", help="Distractor tools offered per instance.")] = 5,
    split: Annotated[str, typer.Option("--split", help="Split name in the exported dataset.")] = "test",
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Run directory (default: generated/<domain>/<run-id>/).")] = None,
    max_attempts: Annotated[Optional[int], typer.Option("--max-attempts", help="Stop after this many candidates (default 20n+50).")] = None,
    fresh: Annotated[bool, typer.Option("--fresh", help="Discard an existing run in the directory instead of resuming it.")] = False,
) -> None:
    """Generate a verified benchmark split offline from a seed toolbox (resumes an interrupted run)."""
    offline_defaults()
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from factory.generate import generate as run_generation
    from factory.records import GenerateConfig

    config = GenerateConfig(domain=domain, n=n, seed=seed, max_depth=max_depth, min_depth=min_depth, shape=shape,
                            distractors=distractors, split=split)
    with Progress(TextColumn("[bold]generating"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[attempts]} candidates"),
                  TimeElapsedColumn(), console=err_console, transient=True) as progress:
        task = progress.add_task("generate", total=n, attempts=0)
        result = run_generation(
            config, settings(), out, fresh=fresh, max_attempts=max_attempts,
            on_attempt=lambda kept, tried: progress.update(task, completed=kept, attempts=tried),
        )
    _print_run_summary(result)


def _print_run_summary(result) -> None:
    from rich.table import Table

    from factory.stats import distribution

    m = result.manifest
    stats = distribution(result.instances[: m.config.n])
    table = Table(title=f"{m.config.domain}: {m.accepted} kept of {m.attempts} candidates", show_header=False)
    table.add_column("what", no_wrap=True)
    table.add_column("value", overflow="fold")  # paths are shown whole, folded over lines
    table.add_row("run directory", str(result.path))
    table.add_row("resumed at candidate", str(result.resumed_from)) if result.resumed_from else None
    table.add_row("depth", ", ".join(f"{d}: {c}" for d, c in stats["depth"].items()))
    table.add_row("shape families", ", ".join(f"{k}: {v}" for k, v in stats["shape_families"].items()))
    table.add_row("distinct shapes", str(len(stats["shapes"])))
    table.add_row("categories", ", ".join(f"{k}: {v}" for k, v in stats["categories"].items()))
    table.add_row("rejects", ", ".join(f"{k}: {v}" for k, v in m.reject_reasons.items()) or "none")
    table.add_row("dataset", str(result.path / "dataset"))
    console.print(table)


def _dataset_dir(path: Path) -> Path:
    """Accept a run directory or its dataset/ folder."""
    return path / "dataset" if (path / "dataset").is_dir() else path


@app.command()
@command
def validate(
    path: Annotated[Path, typer.Argument(help="An exported dataset folder, or the run directory holding it.")],
) -> None:
    """Re-run every check on an exported dataset; exits non-zero if any instance fails."""
    offline_defaults()
    from factory.validate import validate_dataset

    report = validate_dataset(_dataset_dir(path), settings())
    for failure in report.failures[:20]:
        err_console.print(f"[red]FAIL[/red] {failure}", highlight=False)
    console.print(f"{report.passed} of {report.total} instances pass every check")
    if report.failures:
        raise typer.Exit(1)


@app.command()
@command
def stats(
    path: Annotated[Path, typer.Argument(help="A run directory or an exported dataset folder.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """The distribution report: depth, shapes, categories, tools, reject reasons."""
    offline_defaults()
    import json

    from factory.export import load_instances
    from factory.runs import RunDir
    from factory.stats import distribution, markdown

    manifest = RunDir(path).read_manifest() if (path / "manifest.json").exists() else None
    report = distribution(load_instances(_dataset_dir(path)))
    reasons = manifest.reject_reasons if manifest else None
    if as_json:
        console.print_json(json.dumps({**report, "reject_reasons": reasons}))
    else:
        from rich.markdown import Markdown

        console.print(Markdown(markdown(report, reasons, top=40)))


@app.command()
@command
def publish(
    path: Annotated[Path, typer.Argument(help="An exported dataset folder, or the run directory holding it.")],
    repo_id: Annotated[str, typer.Option("--repo-id", help="Hub dataset repository, 'owner/name'.")],
    private: Annotated[bool, typer.Option("--private", help="Create the repository as private.")] = False,
) -> None:
    """Upload an exported dataset to the Hugging Face Hub (token from HF_TOKEN or your Hub login)."""
    from factory.publish import publish as upload

    url = upload(_dataset_dir(path), repo_id, private=private)
    console.print(f"published {url}")


# Evaluation commands live with the evaluator; registered here explicitly.
# (evaluation commands: registration block)
from factory.evaluate import commands as evaluation  # noqa: E402

app.command("evaluate")(command(evaluation.evaluate))
app.command("report")(command(evaluation.report))
import_app = typer.Typer(help="Convert external benchmarks into datasets the evaluator runs on.", no_args_is_help=True)
import_app.command("nestools")(command(evaluation.import_nestools))
app.add_typer(import_app, name="import")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
