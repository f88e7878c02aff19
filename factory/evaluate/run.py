"""One evaluation: load a dataset, answer it (reference agent, model or predictions files) in
static or interactive mode, score it, write the report.

The dataset is loaded and the static prompts are built once, however many predictions files
are scored: each file gets its own results directory. A model is reached through the shared
client (factory.lm), whose usage (calls, cache hits, retries, failures by kind, tokens, cost)
goes into results.json.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from factory.config import Settings
from factory.errors import ConfigError
from factory.generation.progress import QUIET, Steps
from factory.records import Instance, SampleResult, content_hash

MODES = ("static", "interactive")
USER_PROMPTS = ("full", "no-boundary", "no-demonstrations")  # the model user's prompt and its ablations


@dataclass
class EvalRequest:
    dataset: Path
    mode: str = "static"
    agent: str | None = None  # oracle | noisy:P | random
    model: str | None = None
    api_base: str | None = None
    predictions: list[Path] = field(default_factory=list)  # static mode: NesTools raw responses
    trials: int = 1
    limit: int | None = None
    augment: list[str] = field(default_factory=list)
    seed: int = 0
    concurrency: int | None = None  # None: from the settings (FACTORY_CONCURRENCY, config file)
    max_tokens: int = 1024
    temperature: float = 0.0
    timeout: float | None = None
    max_retries: int | None = None
    max_endpoint_failures: int | None = None
    max_turns: int = 15
    user: str = "offline"  # interactive conversations: the simulated user, offline or a model name
    user_api_base: str | None = None  # the user model's endpoint (default: --api-base)
    user_prompt: str = "full"  # the user model's prompt: full, no-boundary or no-demonstrations (ablations)
    split: str | None = None
    cache_dir: Path | None = None
    allow_missing: bool = False  # predictions: tasks without a line are left out, not failures
    plots: bool = False

    def source(self) -> str:
        return "predictions" if self.predictions else "model" if self.model else "agent"

    def who(self, predictions: Path | None = None) -> str:
        if predictions is not None:
            return f"predictions:{predictions.name}"
        return self.model or self.agent or "?"


@dataclass
class Evaluation:
    """One scored run, ready to be reported."""

    out: Path
    samples: list[SampleResult]
    run: dict[str, Any]


def validate(request: EvalRequest) -> None:
    if request.mode not in MODES:
        raise ConfigError(f"--mode {request.mode!r}: use static or interactive")
    given = [name for name, v in (("--agent", request.agent), ("--model", request.model),
                                  ("--predictions", request.predictions)) if v]
    if len(given) != 1:
        raise ConfigError("give exactly one of --agent (oracle, noisy:P, random, request-order), --model M or --predictions FILE"
                          + (f" (got {', '.join(given)})" if given else ""))
    if request.trials < 1 or (request.limit is not None and request.limit < 1):
        raise ConfigError(f"--trials and --limit must be at least 1 (got {request.trials}, {request.limit})")
    if request.mode == "interactive" and (request.predictions or request.augment):
        raise ConfigError("--predictions and --augment apply to static mode only")
    for path in request.predictions:
        if not path.is_file():
            raise ConfigError(f"--predictions {path} does not exist")


def dataset_dir(path: Path) -> Path:
    """Accept a run directory or its dataset/ folder."""
    return path / "dataset" if (path / "dataset").is_dir() else path


# What static mode never reads of an instance: it scores the call list, not the milestones,
# minefields and checks interactive mode scores by (left unread, loading NesTools' 1,000
# instances takes 0.14 s, not 0.19).
STATIC_UNREAD = ("milestones", "minefields", "checks")


def load_dataset(request: EvalRequest) -> tuple[list[Instance], Path]:
    """The instances, loaded without the garbage collector and then frozen: they live for the
    whole run, and re-scanning their million objects at every collection while thousands of
    answers are scored would cost more than the scoring (a third of the time on NesTools)."""
    import gc

    from factory.dataset.export import load_instances

    folder = dataset_dir(request.dataset)
    gc.disable()
    try:
        # conversational items need a simulated user: interactive mode only
        instances = load_instances(folder, request.split, conversations=request.mode == "interactive",
                                   unread=STATIC_UNREAD if request.mode == "static" else ())
    finally:
        gc.enable()
    gc.freeze()
    return instances, folder


# Settings that change neither what is asked nor how it is scored: the default results folder
# does not depend on them, so a rerun with --plots or another --concurrency finds its cache.
NOT_IN_RESULTS = ("plots", "concurrency", "timeout", "max_retries", "max_endpoint_failures", "cache_dir")


def default_out(request: EvalRequest, settings: Settings) -> Path:
    slug = re.sub(r"[^A-Za-z0-9.]+", "-", request.who(request.predictions[0] if len(request.predictions) == 1 else None)
                  if request.predictions else request.who()).strip("-").lower()
    # (a user option left at its default is left out, so results folders named before it keep their names)
    tag = content_hash([{k: v for k, v in asdict(request).items() if k not in NOT_IN_RESULTS
                         and (k, v) not in (("user", "offline"), ("user_api_base", None), ("user_prompt", "full"))}], 6)
    return settings.output_dir / "evaluations" / f"{request.dataset.resolve().name}-{request.mode}-{slug}-{tag}"


def prediction_dirs(out: Path, files: list[Path]) -> list[Path]:
    """One results directory per predictions file: `out` itself for one file; else a folder
    per file, named by the file (and its folder, when names repeat, as NesTools lays them out)."""
    if len(files) == 1:
        return [out]
    names = [p.stem for p in files]
    if len(set(names)) < len(names):
        names = [f"{p.parent.name}-{p.stem}" for p in files]
    if len(set(names)) < len(names):
        names = [f"{k + 1:02d}-{name}" for k, name in enumerate(names)]
    return [out / name for name in names]


def lm_client(request: EvalRequest, settings: Settings, out: Path):
    """The shared model client, its call cache under RESULTS_DIR/cache (or --cache-dir)."""
    from factory.lm.cache import CallCache
    from factory.lm.client import LMClient
    from factory.lm.settings import lm_settings

    lm = lm_settings(settings, model=request.model, api_base=request.api_base, temperature=request.temperature,
                     max_tokens=request.max_tokens, concurrency=request.concurrency, timeout=request.timeout,
                     max_retries=request.max_retries, max_endpoint_failures=request.max_endpoint_failures)
    client = LMClient(lm)
    client.check()  # a missing key or --api-base is one line before anything runs or is written
    client.cache = CallCache((request.cache_dir or out / "cache") / "calls.sqlite")
    return client


def _static(request: EvalRequest, instances: list[Instance], folder: Path, settings: Settings, out: Path,
            steps: Steps) -> Iterable[Evaluation]:
    from factory.evaluate.static.augment import parse_augment
    from factory.evaluate.static.scoring import run_static
    from factory.evaluate.static.tasks import build_tasks, fingerprint, load_template
    from factory.evaluate.tool_ids import identities

    augment = parse_augment(request.augment)
    every = identities(instances, folder)
    chosen = instances[: request.limit] if request.limit else instances
    tasks, left_out = build_tasks(chosen, every[: len(chosen)], augment, load_template(settings.prompts_dir), request.seed)
    info: dict[str, Any] = {"augment": augment.label, "left_out": sum(left_out.values()),
                            "left_out_reasons": dict(left_out.most_common()), "view_fingerprint": fingerprint(tasks),
                            "problems": []}
    steps.step("loading the seeds")
    seeds = _seeds_for(chosen, settings)
    if request.predictions:  # scored one at a time, as they are reported (one file's samples held at once)
        known = {i.test_id for i in every}
        return (_scored_file(request, path, tasks, known, dict(info), target, seeds, steps)
                for path, target in zip(request.predictions, prediction_dirs(out, request.predictions), strict=True))
    if request.agent:
        from factory.evaluate.static.agents import agent_responder, static_agent

        samples = run_static(tasks, agent_responder(static_agent(request.agent, request.seed, seeds)), request.who(),
                             request.trials, seeds, steps)
        return [Evaluation(out, samples, info)]
    from factory.evaluate.static.scoring import model_responder

    client = lm_client(request, settings, out)
    try:
        steps.step(f"asking {request.model}", len(tasks) * request.trials, usage_note(client))
        responder = model_responder(client, steps.counter(lambda: usage_note(client)))
        samples = run_static(tasks, responder, request.who(), request.trials, seeds, steps)
    finally:
        client.close()
    return [Evaluation(out, samples, {**info, "lm_usage": client.usage.summary().model_dump()})]


def _seeds_for(instances: list[Instance], settings: Settings) -> dict[str, Any] | None:
    """The seeds that re-run these instances' worlds (None: no instance has one, as imported data)."""
    if not any(i.world for i in instances):
        return None
    from factory.seeds.library import seeds_for

    return seeds_for(settings)


def _scored_file(request: EvalRequest, path: Path, tasks: list, known: set[int], info: dict[str, Any],
                 out: Path, seeds: dict[str, Any] | None, steps: Steps = QUIET) -> Evaluation:
    from factory.evaluate.static.predictions import read_predictions
    from factory.evaluate.static.scoring import score_predictions

    steps.step(f"reading {path.name}")
    predictions = read_predictions(path, tasks, known, request.allow_missing)
    samples = score_predictions(predictions, request.who(path), request.allow_missing, seeds, steps)
    info.update(problems=predictions.problems, coverage=predictions.coverage.model_dump(), predictions=str(path),
                label=request.who(path))
    return Evaluation(out, samples, info)


def _interactive(request: EvalRequest, instances: list[Instance], settings: Settings, out: Path,
                 steps: Steps) -> list[Evaluation]:
    from factory.evaluate.interactive.episode import run_interactive

    chosen = instances[: request.limit] if request.limit else instances
    mock_seed = next((i.provenance.seed for i in chosen if i.world is None), 0)
    steps.step("loading the seeds")
    seeds = _seeds_for(chosen, settings) or {}
    episodes = len(chosen) * request.trials
    info: dict[str, Any] = {"augment": "none", "left_out": 0, "problems": []}
    user = user_backend(request, settings, out) if any(i.conversation for i in chosen) else None
    if user is not None:
        info["user"] = user.name
    if request.agent:
        from factory.evaluate.interactive.agents import reference_agent

        steps.step(f"episodes of {request.agent}", episodes)
        samples = run_interactive(chosen, reference_agent(request.agent, request.seed), trials=request.trials,
                                  max_turns=request.max_turns, seeds=seeds, mock_seed=mock_seed,
                                  on_done=steps.counter(), user=user, workers=1 if user is None or
                                  user.name == "offline" else (request.concurrency or settings.concurrency))
        return [Evaluation(out, samples, info)]
    from factory.evaluate.interactive.model import ModelAgent

    client = lm_client(request, settings, out)
    try:
        steps.step(f"episodes of {request.model}", episodes, usage_note(client))
        samples = run_interactive(chosen, ModelAgent(client), trials=request.trials, max_turns=request.max_turns,
                                  seeds=seeds, mock_seed=mock_seed, workers=client.settings.concurrency,
                                  on_done=steps.counter(lambda: usage_note(client)), user=user)
    finally:
        client.close()
    return [Evaluation(out, samples, {**info, "lm_usage": client.usage.summary().model_dump()})]


def user_backend(request: EvalRequest, settings: Settings, out: Path):
    """The simulated user of conversational items: offline, or a model (its own call cache
    beside the agent's)."""
    from factory.evaluate.interactive.user import OFFLINE, OfflineUser

    if request.user == OFFLINE:
        return OfflineUser(seed=request.seed)
    from factory.evaluate.interactive.model_user import ModelUser

    if request.user_prompt not in USER_PROMPTS:
        raise ConfigError(f"--user-prompt {request.user_prompt!r}: use {', '.join(USER_PROMPTS)}")
    return ModelUser.connect(request.user, request.user_api_base or request.api_base or settings.api_base,
                             settings, (request.cache_dir or out / "cache") / "user_calls.sqlite",
                             temperature=request.temperature, boundary=request.user_prompt != "no-boundary",
                             demonstrations=request.user_prompt != "no-demonstrations")


def run_record(request: EvalRequest, evaluation: Evaluation, instances: list[Instance], seconds: float) -> dict[str, Any]:
    info = dict(evaluation.run)
    chosen = instances[: request.limit] if request.limit else instances
    return {
        "mode": request.mode,
        "label": info.pop("label", request.who()),
        "agent": request.agent,
        "model": {"name": request.model, "api_base": request.api_base} if request.model else None,
        "predictions": info.pop("predictions", None),
        "config": {k: str(v) if isinstance(v, Path) else [str(p) for p in v] if k == "predictions" else v
                   for k, v in asdict(request).items()},
        "trials": request.trials,
        "augment": info.pop("augment"),
        "dataset": {"path": str(request.dataset), "fingerprint": content_hash([i.id for i in instances]),
                    "instances": len(instances), "evaluated": len(chosen) - info.get("left_out", 0),
                    "left_out": info.pop("left_out"), "left_out_reasons": info.pop("left_out_reasons", {}),
                    "view_fingerprint": info.pop("view_fingerprint", None)},
        "problems": info.pop("problems"),
        **info,
        "seconds": round(seconds, 3),
    }


def evaluate(request: EvalRequest, settings: Settings, out: Path | None = None, steps: Steps = QUIET,
             fresh_split: dict[str, Any] | None = None) -> list[tuple[Path, dict[str, Any]]]:
    """Run the evaluation and write its reports; returns (results dir, results) per run
    (one, or one per predictions file). `steps` follows its progress. `fresh_split` is the
    record of the split `--fresh-split` generated (factory.evaluate.fresh), kept in results.json."""
    from factory.evaluate.report import write_report

    validate(request)
    steps.step("loading the dataset")
    instances, folder = load_dataset(request)
    out = out or default_out(request, settings)
    extra = {"fresh_split": fresh_split} if fresh_split is not None else {}
    runs = []
    with _collector_paused(request):
        started = time.perf_counter()
        if request.mode == "static":
            evaluations = _static(request, instances, folder, settings, out, steps)
        else:
            evaluations = _interactive(request, instances, settings, out, steps)
        # each run's seconds: its own, and an even share of what the runs share (the tasks)
        count = len(request.predictions) or 1
        shared, started = (time.perf_counter() - started) / count, time.perf_counter()
        for evaluation in evaluations:  # a predictions file's report is written before the next file is read
            seconds = shared + time.perf_counter() - started
            steps.step("writing the report" + (" and plots" if request.plots else ""))
            record = {**run_record(request, evaluation, instances, seconds), **extra}
            runs.append((evaluation.out, write_report(evaluation.out, evaluation.samples, record, plots=request.plots)))
            started = time.perf_counter()
    return runs


@contextmanager
def _collector_paused(request: EvalRequest) -> Iterator[None]:
    """Static scoring without a model makes records without cycles (answers, calls, scores,
    samples), kept until the reports are written: the cyclic collector, rescanning them as
    they pile up, found nothing to free and took 0.06 s of scoring NesTools' 11 prediction
    sets. It is paused while they are made and then left to skip them, as the instances are."""
    import gc

    if request.mode != "static" or request.model or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


def usage_note(client) -> str:
    """Calls, tokens and cost so far, for the progress line."""
    return client.usage.summary().line()
