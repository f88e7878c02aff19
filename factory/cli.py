"""The `factory` command line. Heavy libraries are imported inside commands so `--help` is fast."""

from __future__ import annotations

import functools
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console
from rich.text import Text

from factory.errors import ConfigError, FactoryError, FactoryWarning

app = typer.Typer(
    help="Generate fresh, verified, executable benchmarks of nested tool use, and score models on them.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
console = Console()
err_console = Console(stderr=True)
_state = {"debug": False}


def offline_defaults() -> None:
    """factory.config's offline defaults, imported when a command runs: it loads pydantic,
    which `--help` does not need."""
    from factory.config import offline_defaults as set_defaults

    set_defaults()


@app.callback()
def main(
    debug: Annotated[bool, typer.Option("--debug", help="Show full tracebacks on errors.")] = False,
) -> None:
    _state["debug"] = debug


def _warning_printer(previous: Callable[..., None]) -> Callable[..., None]:
    """Warnings the user can act on become one yellow line; others keep their usual format."""

    def show(message: Any, category: type[Warning], *args: Any, **kwargs: Any) -> None:
        if issubclass(category, FactoryWarning):
            err_console.print(Text.assemble(("warning: ", "yellow"), str(message)), soft_wrap=True)
        else:
            previous(message, category, *args, **kwargs)

    return show


def command(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Run a command body: a FactoryError is one red line and exit code 1; tracebacks only with
    --debug; a FactoryWarning is one yellow line. (A command line typer cannot parse is a usage
    error: typer prints the usage and exits 2.)"""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("always", FactoryWarning)
                warnings.showwarning = _warning_printer(warnings.showwarning)
                return fn(*args, **kwargs)
        except FactoryError as exc:
            if _state["debug"]:
                raise
            _error_line(str(exc))
            raise typer.Exit(1) from None
        except KeyboardInterrupt:
            err_console.print("[red]interrupted[/red]")
            raise typer.Exit(130) from None
        except OSError as exc:  # a file, a folder or the network the command met, not a bug of ours
            if _state["debug"]:
                raise
            _error_line(_os_error(exc))
            raise typer.Exit(1) from None
        except Exception as exc:  # noqa: BLE001 - a bug: one line here too; --debug shows where
            if _state["debug"] or type(exc).__module__.startswith(("typer", "click")):
                raise  # typer's own exits and usage errors are its to print
            _error_line(f"internal error ({type(exc).__name__}: {exc}). This is a bug of the factory, not of your "
                        "input: run the command again with --debug (factory --debug COMMAND ...) and report the traceback")
            raise typer.Exit(1) from None

    return run


def _error_line(message: str) -> None:
    err_console.print(Text.assemble(("error: ", "red"), message), highlight=False, soft_wrap=True)


def _os_error(exc: OSError) -> str:
    """What the system refused, on which path, and what to check."""
    what = exc.strerror or str(exc) or type(exc).__name__
    where = f" {exc.filename}" if exc.filename else ""
    return (f"{what}:{where} ({type(exc).__name__}); check the path, its permissions and free space (or the network "
            "connection), then run the command again; --debug shows where it happened")


def settings(**flags: Any):
    from factory.config import load_settings

    return load_settings(flags)


@app.command()
@command
def domains(
    check: Annotated[bool, typer.Option("--check", help="Also check every seed's declarations (phrasings, descriptions, groups, sense rules, fix-ups) and that twin tools of different seeds agree in one world, and list the problems.")] = False,
) -> None:
    """List the seed domains (offline generation works for these) with their tool counts."""
    from rich.table import Table

    from factory.seeds.library import seeds_for

    config = settings()
    seeds = seeds_for(config)
    if check:
        from factory.checks.policy import load_policy
        from factory.generation.progress import progress
        from factory.lm.embeddings import EmbeddingCache
        from factory.seeds.checks import library_pool, seed_problems, twin_problems
        from factory.seeds.twins import library_rule

        with progress(err_console, "checking each seed's declarations", len(seeds)) as steps:
            pool = library_pool(seeds)
            problems = []
            for seed in seeds.values():
                problems += seed_problems(seed, pool, require_goals=not getattr(seed, "sandboxed", False))
                steps.advance()
            steps.step("checking that twin tools of different seeds agree")
            policy = load_policy(config.validators_dir).checks["distractors"]
            problems += twin_problems(seeds, pool, EmbeddingCache(), library_rule(seeds, policy.get("twin_similarity")))
        for problem in problems:
            console.print(problem, highlight=False, soft_wrap=True)
        console.print(f"{len(problems)} declaration problem(s) in {len(seeds)} seeds")
        if problems:
            raise typer.Exit(1)
        return
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
    n: Annotated[Optional[int], typer.Option("-n", help="Number of instances to keep (default 50, or the sum of --splits).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Run seed: the same seed and options give the same dataset bytes.")] = 0,
    max_depth: Annotated[int, typer.Option("--max-depth", help="Maximum nesting depth (1-5).")] = 5,
    min_depth: Annotated[int, typer.Option("--min-depth", help="Minimum nesting depth.")] = 1,
    shape: Annotated[Optional[str], typer.Option("--shape", help="Shape family (chain, fan-out, fan-in, diamond, dag, mixed, independent, single) or an exact shape like '3:1>2,2>3'.")] = None,
    distractors: Annotated[int, typer.Option("--distractors", help="Distractor tools offered per instance.")] = 5,
    split: Annotated[str, typer.Option("--split", help="Split name in the exported dataset.")] = "test",
    splits: Annotated[Optional[str], typer.Option("--splits", help="Cut the run into named splits of given sizes, e.g. train=800,validation=100,test=100 (one Parquet split each; -n is their sum).")] = None,
    hold_out: Annotated[Optional[str], typer.Option("--hold-out", help="What the test split (else the last one) keeps to itself: tools (no other split calls one of its tools), skeletons (tools and wiring) or domains.")] = None,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Run directory (default: generated/<domain>/<run-id>/).")] = None,
    exclude_from: Annotated[Optional[list[str]], typer.Option("--exclude-from", help="Drop candidates a reference may already hold, as `factory contamination` counts them (repeatable; 'nestools', a run or dataset folder, NesTools' test_data.jsonl, or a cached Hub dataset id); each is a counted reject.")] = None,
    max_attempts: Annotated[Optional[int], typer.Option("--max-attempts", help="Stop after this many candidates (default 20n+50).")] = None,
    fresh: Annotated[bool, typer.Option("--fresh", help="Start over instead of resuming: remove the files an earlier run wrote there (refused when the folder holds anything else).")] = False,
    model: Annotated[Optional[str], typer.Option("--model", help="Drive generation with a model (e.g. openai/gpt-4o-mini, hosted_vllm/NAME, ollama/NAME): it writes the tools and chains of a domain no seed covers, and the queries of any domain; default from FACTORY_MODEL; none: offline.")] = None,
    api_base: Annotated[Optional[str], typer.Option("--api-base", help="OpenAI-compatible endpoint of the model (vLLM, llama.cpp, Ollama...), e.g. http://localhost:8000/v1.")] = None,
    temperature: Annotated[float, typer.Option("--temperature", help="The model's sampling temperature.")] = 0.7,
    concurrency: Annotated[Optional[int], typer.Option("--concurrency", help="Candidates (and model requests) in flight at once (default 4, or FACTORY_CONCURRENCY).")] = None,
    timeout: Annotated[Optional[float], typer.Option("--timeout", help="Seconds for a whole model request, however slowly the answer arrives (default 120).")] = None,
    max_retries: Annotated[Optional[int], typer.Option("--max-retries", help="Retries of a model request after timeouts, 429, 5xx or unreadable answers, with backoff, jitter and Retry-After (default 4).")] = None,
    structured_output: Annotated[Optional[str], typer.Option("--structured-output", help="How the endpoint constrains an answer to a JSON schema, so a weak model cannot break the chain's structure: json_schema (OpenAI, vLLM, llama-server, LM Studio, Ollama), json_object (llama-cpp-python's server), or off (default: tools and chains as Python code, read leniently).")] = None,
    workers: Annotated[Optional[int], typer.Option("--workers", "-j", help="Processes computing offline candidates (default: the cores available); the output is the same bytes for any number. With --model, --concurrency applies instead.")] = None,
    conversations: Annotated[bool, typer.Option("--conversations/--no-conversations", help="Also compose conversational items (a value the agent must ask the person for; a goal that arrives in several user turns), written to the dataset's `conversations` config, never to nestools.jsonl.")] = False,
    judge_calibration: Annotated[Optional[Path], typer.Option("--judge-calibration", help="What `factory calibrate` measured for this --model: a model judge's veto rejects a candidate only where the precision of its vetoes reaches the policy's min_precision; without it the judges' verdicts are recorded and advisory.")] = None,
    ray: Annotated[Optional[str], typer.Option("--ray", metavar="ADDRESS", help="Compute offline candidates as Ray tasks (pip install 'toolbench-factory\\[ray]'): 'local' starts Ray on this machine for the run, 'auto' or HOST:PORT uses a running cluster; the same bytes as without.")] = None,
) -> None:
    """Generate a verified benchmark (resumes an interrupted run): offline from a seed toolbox,
    or with --model for any domain; one split, or several with --splits, fresh against the
    references of --exclude-from."""
    offline_defaults()
    from factory.generation.generate import generate as run_generation
    from factory.generation.progress import progress
    from factory.generation.splits import parse_splits
    from factory.records import GenerateConfig

    config_settings = settings(model=model, api_base=api_base, concurrency=concurrency, timeout=timeout,
                               max_retries=max_retries, structured_output=structured_output)
    generator = config_settings.model or "offline"
    sizes = parse_splits(splits) if splits else {}
    n = n if n is not None else sum(sizes.values()) or 50
    config = GenerateConfig(domain=domain, n=n, seed=seed, max_depth=max_depth, min_depth=min_depth, shape=shape,
                            distractors=distractors, split=split, generator=generator, temperature=temperature,
                            exclude_from=exclude_from or [], splits=sizes, hold_out=hold_out,
                            conversations=conversations, judge_precision=_judge_precision(judge_calibration, generator))
    with progress(err_console, "generating", n, "loading the seeds and the embedding model") as steps:
        result = run_generation(
            config, config_settings, out, fresh=fresh, max_attempts=max_attempts, workers=workers, ray=ray,
            on_attempt=lambda kept, tried, note: steps.update(kept, note=", ".join(filter(None, (f"{tried} candidates", note)))),
        )
    _print_run_summary(result)


def _judge_precision(path: Path | None, generator: str) -> dict[str, float]:
    """The measured precision of each judge's vetoes, from a `factory calibrate` file for the run's model."""
    if path is None:
        return {}
    import json

    from factory.checks.judge_calibration import precisions

    if generator == "offline":
        raise ConfigError("--judge-calibration needs --model: offline runs have no model judges")
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise ConfigError(f"--judge-calibration {path}: not a calibration file ({exc})") from exc
    if not isinstance(record, dict) or record.get("model") != generator:
        raise ConfigError(f"--judge-calibration {path} was measured for {record.get('model') if isinstance(record, dict) else None!r}, "
                          f"not for {generator!r}: calibrate this model (factory calibrate RUN --model {generator})")
    return precisions(record)


def _print_run_summary(result) -> None:
    from rich.table import Table

    from factory.dataset.stats import distribution

    m = result.manifest
    stats = distribution(result.instances[: m.config.n])
    table = Table(title=f"{m.config.domain}: {m.accepted} kept of {m.attempts} candidates", show_header=False)
    table.add_column("what", no_wrap=True)
    table.add_column("value", overflow="fold")  # paths are shown whole, folded over lines
    table.add_row("run directory", str(result.path))
    if result.already_complete:
        table.add_row("already complete", "an earlier run with these settings kept every instance; nothing was "
                      "generated (--fresh starts over)")
    elif result.resumed_from:
        table.add_row("resumed at candidate", str(result.resumed_from))
    table.add_row("depth", ", ".join(f"{d}: {c}" for d, c in stats["depth"].items()))
    table.add_row("shape families", ", ".join(f"{k}: {v}" for k, v in stats["shape_families"].items()))
    table.add_row("distinct shapes", str(len(stats["shapes"])))
    table.add_row("categories", ", ".join(f"{k}: {v}" for k, v in stats["categories"].items()))
    table.add_row("rejects", ", ".join(f"{k}: {v}" for k, v in m.reject_reasons.items()) or "none")
    for name, usage in m.model_usage.items():
        from factory.lm.usage import UsageSummary

        table.add_row(f"model {name}", UsageSummary(**usage).line())
    table.add_row("dataset", str(result.path / "dataset"))
    console.print(table)


def _dataset_dir(path: Path) -> Path:
    """Accept a run directory or its dataset/ folder."""
    return path / "dataset" if (path / "dataset").is_dir() else path


@app.command()
@command
def validate(
    path: Annotated[Path, typer.Argument(help="An exported dataset folder, or the run directory holding it.")],
    failures: Annotated[Optional[Path], typer.Option("--failures", help="Write every failure here as JSON lines (default: validation-failures.jsonl beside the dataset folder).")] = None,
    all_checks: Annotated[bool, typer.Option("--all-checks", help="Apply every check to imported instances too, even those of this factory's own writing rules.")] = False,
) -> None:
    """Re-run every check on an exported dataset, and for a run directory check its files; exits 1 on any failure."""
    offline_defaults()
    from factory.dataset.validate import validate_dataset, write_failures
    from factory.generation.progress import progress
    from factory.generation.runs import MANIFEST, VALIDATION_FAILURES

    dataset = _dataset_dir(path)
    with progress(err_console, "loading the dataset") as steps:
        report = validate_dataset(dataset, settings(), run_dir=path if (path / MANIFEST).is_file() else None,
                                  all_checks=all_checks, steps=steps)
    target = failures or dataset.parent / VALIDATION_FAILURES
    if report.failures or failures:
        write_failures(report, target)
    else:
        target.unlink(missing_ok=True)  # a list from an earlier validation would no longer be true
    _print_validation(report, target, all_checks)
    if not report.ok:
        raise typer.Exit(1)


SHOWN_FAILURES = 5  # on screen; the failures file holds every one


def _print_validation(report, target: Path, all_checks: bool) -> None:
    from rich.table import Table

    from factory.dataset.validate import IMPORTED, RUN_FILES_CHECK

    table = Table("check", "passed", "failed", "skipped", "not applied", box=None, pad_edge=False)
    for name, count in report.checks.items():
        why = "; ".join(f"{n} ({reason})" for reason, n in count.not_applied.most_common())
        table.add_row(name, str(count.passed), str(count.failed), str(count.skipped), why or "0")
    console.print(table)
    files = [f for f in report.failures if f.check == RUN_FILES_CHECK]
    shown = files + [f for f in report.failures if f.check != RUN_FILES_CHECK][:SHOWN_FAILURES]
    for failure in shown:
        where = f"{failure.instance} {failure.check}: " if failure.instance else ""
        err_console.print(f"[red]FAIL[/red] {where}{failure.reason}", highlight=False, soft_wrap=True)
    idle = [name for name, count in report.checks.items() if count.not_applied]
    applied = f" applied ({', '.join(idle)} not applied)" if idle else ""
    console.print(f"{report.passed} of {report.total} instances pass every check{applied}", highlight=False)
    if report.failures:
        more = f"the first {len(shown)} shown; " if len(shown) < len(report.failures) else ""
        console.print(f"{len(report.failures)} failures ({more}all, with instance, check and reason, in {target})",
                      highlight=False, soft_wrap=True)
    for importer, count in report.imported.items():
        source = IMPORTED[importer]
        skipped = "; ".join(f"{name}: {why}" for name, why in source.not_applicable.items())
        rules = ("Every check was applied, so expect failures from checks of this factory's own writing rules "
                 f"({skipped})." if all_checks else
                 f"Checks of this factory's own writing rules are skipped for them ({skipped}); --all-checks applies them.")
        console.print(f"{count} instances were imported from {source.name}: written by its rules, not this factory's. "
                      f"{rules} The other checks apply to any instance; {source.note}.", highlight=False, soft_wrap=True)


@app.command()
@command
def stats(
    path: Annotated[Path, typer.Argument(help="A run directory or an exported dataset folder.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """The distribution report: depth, shapes, categories, tools, reject reasons."""
    offline_defaults()
    import json

    from factory.dataset.export import load_instances, split_names
    from factory.dataset.stats import distribution, markdown, split_markdown, split_report
    from factory.generation.runs import RunDir
    from factory.generation.splits import held_split

    manifest = RunDir(path).read_manifest() if (path / "manifest.json").exists() else None
    dataset = _dataset_dir(path)
    instances = load_instances(dataset, conversations=True)
    report = distribution(instances)
    names = split_names(dataset)
    if len(names) > 1:
        hold_out = manifest.config.hold_out if manifest and manifest.config.splits else None
        groups = {name: load_instances(dataset, name) for name in (manifest.config.splits if hold_out else names)}
        report["splits"] = split_report(groups, hold_out, held_split(manifest.config.splits) if hold_out else None)
    reasons = manifest.reject_reasons if manifest else None
    if as_json:
        console.print_json(json.dumps({**report, "reject_reasons": reasons}))
    else:
        from rich.markdown import Markdown

        text = markdown(report, reasons, top=40)
        console.print(Markdown(split_markdown(report["splits"]) + "\n" + text if "splits" in report else text))


@app.command()
@command
def calibrate(
    path: Annotated[Path, typer.Argument(help="A run directory or dataset whose instances are sound (an offline run will do): the cases are drawn from it.")],
    model: Annotated[Optional[str], typer.Option("--model", help="The judge's model, as for generate (default from FACTORY_MODEL).")] = None,
    api_base: Annotated[Optional[str], typer.Option("--api-base", help="OpenAI-compatible endpoint of the model.")] = None,
    cases: Annotated[int, typer.Option("--cases", "-k", help="Sound instances drawn; each also gives up to four copies with a planted defect.")] = 12,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the draw and of the planted defects.")] = 0,
    structured_output: Annotated[Optional[str], typer.Option("--structured-output", help="As for generate: json_schema, json_object or off.")] = None,
    temperature: Annotated[float, typer.Option("--temperature", help="The judge's sampling temperature: the one the runs will use (generate's default 0.7).")] = 0.7,
    timeout: Annotated[Optional[float], typer.Option("--timeout", help="Seconds for a whole model request.")] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Where to write the calibration (JSON), for generate --judge-calibration.")] = Path("judge_calibration.json"),
) -> None:
    """Measure how far each model judge's veto can be trusted: sound instances of a run and
    copies with planted defects (two errands in one request, another request, a changed value,
    a dropped part) are judged, and the precision and recall of each judge's vetoes written."""
    offline_defaults()
    if cases < 1:
        raise ConfigError(f"--cases must be at least 1, got {cases}")
    import json

    from rich.table import Table

    from factory.checks.judge_calibration import calibration_record, measure, planted
    from factory.dataset.export import load_instances
    from factory.generation.progress import progress
    from factory.generation.stages import model_judge

    config = settings(model=model, api_base=api_base, timeout=timeout, structured_output=structured_output)
    if not config.model:
        raise ConfigError("calibrate needs --model (or FACTORY_MODEL): the judge to measure")
    instances = [i for i in load_instances(_dataset_dir(path)) if i.trace.ok and i.trace.answer]
    if len(instances) < 2:
        raise ConfigError(f"{path} holds {len(instances)} answered instance(s); calibration needs at least 2")
    drawn = planted(instances, cases, seed)
    judge, digest, close = model_judge(config, out.parent / "calibration_calls.sqlite", temperature)
    try:
        with progress(err_console, "judging", len(drawn)) as steps:
            scores = measure(judge.ask, drawn, on_case=lambda k: steps.update(k))
    finally:
        close()
    record = calibration_record(config.model, digest, scores, drawn)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    table = Table(title=f"{config.model}: {len(drawn)} cases", show_header=True)
    for column in ("judge", "defects", "vetoes", "caught", "precision", "recall", "unread"):
        table.add_column(column)
    for name, score in scores.items():
        fmt = lambda v: "-" if v is None else f"{v:.2f}"  # noqa: E731
        table.add_row(name, str(score.defects), str(score.vetoes), str(score.caught), fmt(score.precision),
                      fmt(score.recall), str(score.unread))
    console.print(table)
    console.print(f"wrote {out}")


@app.command()
@command
def audit(
    path: Annotated[Path, typer.Argument(help="A run directory or an exported dataset folder.")],
    sample: Annotated[int, typer.Option("--sample", "-k", help="Instances on the sheet.")] = 20,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the stratified draw.")] = 0,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Write the sheet here (default: print it).")] = None,
) -> None:
    """A Markdown review sheet of a sample drawn as the reading rubric asks (deep requests and
    every scenario, across domains): query, tools, gold chain, trace, answer, milestones,
    minefields, the NesTools row and what the checks find, for reading a release cold."""
    offline_defaults()
    if sample < 1:
        raise ConfigError(f"--sample must be at least 1 (the instances on the sheet), got {sample}")
    from factory.checks.context import CheckContext
    from factory.checks.policy import load_policy
    from factory.dataset.audit import audit_sheet
    from factory.dataset.export import load_instances
    from factory.generation.progress import progress
    from factory.seeds.library import seeds_for

    config = settings()
    with progress(err_console, "loading the dataset") as steps:
        instances = load_instances(_dataset_dir(path))
        steps.step("loading the seeds")
        seeds = seeds_for(config) if any(i.world for i in instances) else {}
        ctx = CheckContext(seeds, load_policy(config.validators_dir)) if seeds else None
        sheet = audit_sheet(instances, sample, seed, ctx, str(path), steps)
    if out is None:
        console.print(sheet, markup=False, highlight=False, soft_wrap=True)
    else:
        out.write_text(sheet + "\n", encoding="utf-8")
        console.print(f"wrote {out}")


@app.command()
@command
def call(
    path: Annotated[Path, typer.Argument(help="A run directory or an exported dataset folder.")],
    instance_id: Annotated[str, typer.Argument(help="The instance's id (as on an audit sheet).")],
    tool: Annotated[str, typer.Argument(help="The tool to run: offered, withheld, or any seed tool.")],
    args: Annotated[str, typer.Option("--args", help="The arguments as a JSON object.")] = "{}",
    after: Annotated[int, typer.Option("--after", help="Run the first N gold calls first (0: the world as the instance starts).")] = 0,
) -> None:
    """Run one tool in an instance's own world, to test another reading of its request."""
    import json

    from factory.dataset.audit import call_in_world
    from factory.dataset.export import load_instances
    from factory.seeds.library import seeds_for

    try:
        arguments = json.loads(args)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"--args is not a JSON object: {exc}") from None
    if not isinstance(arguments, dict):
        raise ConfigError("--args must be a JSON object, e.g. '{\"city\": \"Paris\"}'")
    instance = next((i for i in load_instances(_dataset_dir(path), conversations=True) if i.id == instance_id), None)
    if instance is None:
        raise ConfigError(f"no instance {instance_id!r} in {path}")
    spec, result = call_in_world(instance, seeds_for(settings()), tool, arguments, after)
    if result.error is not None:  # a tool's error is an answer an agent would read, not a failure of the command
        console.print(f"error: {result.error}", markup=False, highlight=False)
        return
    outputs = dict(zip((o.name for o in spec.returns), result.values, strict=False))
    console.print(json.dumps(outputs, ensure_ascii=False), markup=False, highlight=False)


@app.command()
@command
def contamination(
    path: Annotated[Path, typer.Argument(help="A run directory or an exported dataset folder.")],
    against: Annotated[list[str], typer.Option("--against", help="A reference to compare with (repeatable): 'nestools' (the NesTools test set shipped with the factory), NesTools' test_data.jsonl, a run or dataset folder, or a Hub dataset id (owner/name) read from the local datasets cache.")],
    max_ngram: Annotated[Optional[int], typer.Option("--max-ngram", help="Most words in a row a request may share with a reference request (default from validators/default.toml: 12, so a shared 13-gram counts).")] = None,
    max_cosine: Annotated[Optional[float], typer.Option("--max-cosine", help="Highest embedding cosine a request may have to a reference request (default from validators/default.toml).")] = None,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Folder for contamination.json and contamination.md (default: the run directory, or the dataset folder given).")] = None,
) -> None:
    """Compare a dataset with references a model may have seen: longest shared n-gram and
    13-gram overlap of each request, embedding cosine to the nearest reference request, the same
    chain with the same values, the same skeleton, the same tool set. Exits 1 when an instance
    is over the thresholds."""
    offline_defaults()
    from factory.dataset.contamination import check_dataset, summary_table, write_report
    from factory.generation.progress import progress

    with progress(err_console, "loading the dataset") as steps:
        report, thresholds = check_dataset(path, against, settings(), max_ngram, max_cosine, steps)
    written, table = write_report(report, out or path)
    console.print(summary_table(report), markup=False, highlight=False, soft_wrap=True)
    console.print(f"{report.crossed} of {report.instances} instances over the thresholds (more than "
                  f"{thresholds.max_ngram} shared words in a row, cosine above {thresholds.max_cosine}, or the same "
                  f"chain and values); report in {written} and {table}", highlight=False, soft_wrap=True)
    if report.crossed:
        raise typer.Exit(1)


@app.command()
@command
def publish(
    path: Annotated[Path, typer.Argument(help="A run directory (its dataset, NesTools file, manifest and contamination report are published) or an exported dataset folder.")],
    repo_id: Annotated[str, typer.Option("--repo-id", help="Hub dataset repository, 'owner/name'.")],
    private: Annotated[bool, typer.Option("--private", help="Create the repository as private.")] = False,
    revision: Annotated[Optional[str], typer.Option("--revision", help="Tag the upload with this revision (e.g. 2025-06); a tag that already exists is refused, so a fresh split never overwrites an older one.")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Print every file and the card that would be sent, and stop: no network, no token.")] = False,
) -> None:
    """Upload an exported dataset to the Hugging Face Hub (token from HF_TOKEN or your Hub login),
    with the run's provenance on the card."""
    from factory.dataset.publish import prepare
    from factory.dataset.publish import publish as upload

    prepared = prepare(path)
    if dry_run:
        console.print(prepared.card, markup=False, highlight=False, soft_wrap=True)
        for line in prepared.listing():
            console.print(line, markup=False, highlight=False)
        tag = f", tagged {revision}" if revision else ""
        console.print(f"dry run: {len(prepared.files)} files would be published to {repo_id}{tag}; nothing was sent",
                      highlight=False)
        return
    url = upload(path, repo_id, private=private, revision=revision, upload=prepared)
    console.print(f"published {url}" + (f" at revision {revision}" if revision else ""), highlight=False)


# Evaluation commands live with the evaluator; registered here explicitly.
# (evaluation commands: registration block)
from factory.evaluate import commands as evaluation  # noqa: E402

app.command("evaluate")(command(evaluation.evaluate))
app.command("report")(command(evaluation.report))
app.command("export-steps")(command(evaluation.export_steps))
import_app = typer.Typer(help="Convert external benchmarks into datasets the evaluator runs on.", no_args_is_help=True)
import_app.command("nestools")(command(evaluation.import_nestools))
app.add_typer(import_app, name="import")

# The sandbox command lives with the executors; registered here explicitly.
from factory.world import commands as world_commands  # noqa: E402

sandbox_app = typer.Typer(help="Run untrusted (model-written) tool code in the bubblewrap sandbox.", no_args_is_help=True)
sandbox_app.command("run")(command(world_commands.sandbox_run))
app.add_typer(sandbox_app, name="sandbox")
seed_app = typer.Typer(help="Seeds written by a model (run only in the sandbox).", no_args_is_help=True)
seed_app.command("new")(command(world_commands.seed_new))
app.add_typer(seed_app, name="seed")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
