"""The sandbox command: `factory sandbox run FILE FUNCTION --args JSON`.

A thin typer function registered in factory/cli.py; the sandbox modules are imported inside
it so `factory --help` stays fast.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from factory.errors import ConfigError, FactoryError


def sandbox_run(
    file: Annotated[Path, typer.Argument(help="A Python file: a seed toolbox.py or a module of plain functions.")],
    function: Annotated[str, typer.Argument(help="The function (or toolbox tool) to call.")],
    args: Annotated[str, typer.Option("--args", help="The call's arguments as a JSON object.")] = "{}",
    timeout: Annotated[Optional[float], typer.Option("--timeout", help="Wall-clock and CPU seconds the call may take.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="World seed, for a seed toolbox (its world is built as in generation).")] = 0,
) -> None:
    """Run one function of untrusted code in the sandbox and print its JSON result.

    The result must match the function's return annotation. A tool error, crash, timeout, exceeded limit or mismatched result prints one line with the reason and exits 1; so does a machine where no sandbox can be had (the code is then not run at all).
    """
    from factory.world.sandbox import Sandbox, SandboxLimits

    try:
        arguments = json.loads(args)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"--args is not JSON: {exc}") from None
    if not isinstance(arguments, dict):
        raise ConfigError(f"--args must be a JSON object of arguments, got {type(arguments).__name__}")
    if not file.is_file():
        raise ConfigError(f"{file}: no such file")
    limits = SandboxLimits() if timeout is None else SandboxLimits(wall_seconds=timeout, cpu_seconds=timeout)
    with Sandbox(file, limits) as box:
        if box.kind == "toolbox":
            box.open_world(seed)
        outcome = box.call(function, arguments)
    if outcome.status == "tool_error":
        raise FactoryError(f"{function} raised a tool error: {outcome.message}")
    if outcome.status == "failed":
        raise FactoryError(f"{function} failed: {outcome.message}")
    value = outcome.values[0] if len(outcome.values) == 1 else outcome.values
    print(json.dumps(value, ensure_ascii=False))
