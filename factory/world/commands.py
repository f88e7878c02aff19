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
    from factory.world.sandbox import Sandbox
    from factory.world.sandbox_process import CALL_LIMITS

    try:
        arguments = json.loads(args)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"--args is not JSON: {exc}") from None
    if not isinstance(arguments, dict):
        raise ConfigError(f"--args must be a JSON object of arguments, got {type(arguments).__name__}")
    if not file.is_file():
        raise ConfigError(f"{file}: no such file")
    limits = CALL_LIMITS if timeout is None else CALL_LIMITS.model_copy(update={"wall_seconds": timeout,
                                                                                 "cpu_seconds": timeout})
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


def seed_new(
    domain: Annotated[str, typer.Argument(help="The domain to write a seed for, e.g. \"Marine Biology\".")],
    model: Annotated[Optional[str], typer.Option("--model", help="The model that writes the toolbox (default FACTORY_MODEL).")] = None,
    api_base: Annotated[Optional[str], typer.Option("--api-base", help="OpenAI-compatible endpoint of the model, e.g. http://localhost:8000/v1.")] = None,
    rounds: Annotated[int, typer.Option("--rounds", help="Rounds of writing: the first answer, then repairs of what the vetting found.")] = 3,
    out: Annotated[Optional[Path], typer.Option("--out", help="Folder of model-written seeds (default generated/seeds, or FACTORY_GENERATED_SEEDS_DIR).")] = None,
    max_tokens: Annotated[int, typer.Option("--max-tokens", help="Longest answer the model may write.")] = 12000,
    temperature: Annotated[float, typer.Option("--temperature", help="The model's sampling temperature.")] = 0.2,
    timeout: Annotated[Optional[float], typer.Option("--timeout", help="Seconds for a whole model request (default 120).")] = None,
) -> None:
    """Have a model write a seed (seed.toml, toolbox.py, phrasings.toml), vet it in the sandbox, repair, and save it.

    The toolbox is model-written code: it runs only in the sandbox, here and whenever `factory generate --domain DOMAIN` uses it afterwards. Tools that still fail after the last round are dropped, with the reason in manifest.json.
    """
    from rich.console import Console

    from factory.config import load_settings, read_prompts
    from factory.generation.progress import progress
    from factory.lm.client import LMClient
    from factory.lm.settings import lm_settings
    from factory.seeds.writer import PROMPTS, example_dir, write_seed

    settings = load_settings({"model": model, "api_base": api_base, "timeout": timeout})
    if not settings.model:
        raise ConfigError("factory seed new needs a model: --model NAME (and --api-base URL for your own server)")
    client = LMClient(lm_settings(settings, model=settings.model, temperature=temperature, max_tokens=max_tokens))
    client.check()
    folder = out or settings.generated_seeds_path

    def usage() -> str:
        return client.usage.summary().line()

    try:
        with progress(Console(stderr=True), f"round 1 of {rounds}: {settings.model} writes and the sandbox vets",
                      note=usage()) as steps:

            def vetted(round_: int, found) -> None:
                state = "clean" if found.clean else f"{len(found.messages())} problem(s)"
                typer.echo(f"round {round_}: {state}", err=True)
                if round_ < rounds and not found.clean:
                    steps.step(f"round {round_ + 1} of {rounds}: {settings.model} repairs and the sandbox vets", note=usage())

            written = write_seed(domain, client, read_prompts(settings.prompts_dir, PROMPTS), settings.seeds_dir, folder,
                                 rounds=rounds, model=settings.model, on_round=vetted,
                                 example=example_dir(settings.prompts_dir))
    finally:
        client.close()
    vetting = written.manifest["vetting"]
    typer.echo(f"saved {written.folder} after {written.rounds} round(s): {len(vetting['tools_run'])} tools, "
               f"{len(written.dropped_tools)} dropped, {len(vetting['declaration_problems'])} declaration problem(s), "
               f"{len(vetting['chains'])} chain(s) composed")
    for name, why in written.dropped_tools.items():
        typer.echo(f"dropped {name}: {why}")
    for problem in vetting["declaration_problems"] + vetting["dropped_declarations"]:
        typer.echo(f"note: {problem}")
    typer.echo(f"generate with: factory generate --domain \"{written.manifest['domain']}\"")
