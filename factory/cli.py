"""The `factory` command line. Heavy libraries are imported inside commands so `--help` is fast."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

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


# Evaluation commands live with the evaluator; registered here explicitly.
# (evaluation commands: registration block)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
