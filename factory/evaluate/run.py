"""One evaluation run: load a dataset, answer it (reference agent, model or predictions file)
in static or interactive mode, score it, write the report."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from factory.config import Settings
from factory.errors import ConfigError
from factory.records import Instance, SampleResult, content_hash

MODES = ("static", "interactive")


@dataclass
class EvalRequest:
    dataset: Path
    mode: str = "static"
    agent: str | None = None  # oracle | noisy:P | random
    model: str | None = None
    api_base: str | None = None
    predictions: Path | None = None  # static mode: NesTools raw responses
    trials: int = 1
    limit: int | None = None
    augment: list[str] = field(default_factory=list)
    seed: int = 0
    concurrency: int = 4
    max_tokens: int = 1024
    temperature: float = 0.0
    max_turns: int = 15
    split: str | None = None
    cache_dir: Path | None = None

    def source(self) -> str:
        return "predictions" if self.predictions else "model" if self.model else "agent"

    def who(self) -> str:
        return self.model or (f"predictions:{self.predictions.name}" if self.predictions else self.agent or "?")


def validate(request: EvalRequest) -> None:
    if request.mode not in MODES:
        raise ConfigError(f"--mode {request.mode!r}: use static or interactive")
    given = [name for name, v in (("--agent", request.agent), ("--model", request.model),
                                  ("--predictions", request.predictions)) if v]
    if len(given) != 1:
        raise ConfigError("give exactly one of --agent (oracle, noisy:P, random), --model M or --predictions FILE"
                          + (f" (got {', '.join(given)})" if given else ""))
    if request.trials < 1 or (request.limit is not None and request.limit < 1):
        raise ConfigError(f"--trials and --limit must be at least 1 (got {request.trials}, {request.limit})")
    if request.mode == "interactive" and (request.predictions or request.augment):
        raise ConfigError("--predictions and --augment apply to static mode only")
    if request.predictions and not request.predictions.is_file():
        raise ConfigError(f"--predictions {request.predictions} does not exist")


def dataset_dir(path: Path) -> Path:
    """Accept a run directory or its dataset/ folder."""
    return path / "dataset" if (path / "dataset").is_dir() else path


def load_dataset(request: EvalRequest) -> tuple[list[Instance], Path]:
    from factory.export import load_instances

    folder = dataset_dir(request.dataset)
    return load_instances(folder, request.split), folder


def default_out(request: EvalRequest, settings: Settings) -> Path:
    slug = re.sub(r"[^A-Za-z0-9.]+", "-", request.who()).strip("-").lower()
    tag = content_hash([asdict(request)], 6)
    return settings.output_dir / "evaluations" / f"{request.dataset.resolve().name}-{request.mode}-{slug}-{tag}"


def _static(request: EvalRequest, instances: list[Instance], folder: Path, settings: Settings, out: Path,
            progress: Callable[[int, int], None] | None) -> tuple[list[SampleResult], dict[str, Any]]:
    from factory.evaluate.augment import parse_augment
    from factory.evaluate.static import read_predictions, run_static, score_predictions
    from factory.evaluate.static_tasks import build_tasks, fingerprint, load_template
    from factory.evaluate.tool_ids import identities

    augment = parse_augment(request.augment)
    every = identities(instances, folder)
    chosen = instances[: request.limit] if request.limit else instances
    tasks, left_out = build_tasks(chosen, every[: len(chosen)], augment, load_template(settings.prompts_dir), request.seed)
    info: dict[str, Any] = {"augment": augment.label, "left_out": len(left_out), "view_fingerprint": fingerprint(tasks),
                            "problems": []}
    if request.predictions:
        predictions = read_predictions(request.predictions, tasks, {i.test_id for i in every})
        info["problems"] = predictions.problems
        info["predictions_outside_limit"] = predictions.unmatched
        info["tasks_without_prediction"] = len({t.test_id for t in tasks} - {t.test_id for t, _, _ in predictions.jobs})
        return score_predictions(predictions, request.who()), info
    return run_static(tasks, _responder(request, out, len(tasks) * request.trials, progress), request.who(),
                      request.trials), info


def _responder(request: EvalRequest, out: Path, total: int, progress: Callable[[int, int], None] | None):
    if request.agent:
        from factory.evaluate.agents import agent_responder, static_agent

        return agent_responder(static_agent(request.agent, request.seed))
    from factory.evaluate.models import ChatModel
    from factory.evaluate.static import model_responder

    model = ChatModel(_model_settings(request), _response_cache(request, out))
    return model_responder(model, (lambda done: progress(done, total)) if progress else None)


def _model_settings(request: EvalRequest):
    from factory.evaluate.models import ModelSettings

    return ModelSettings(request.model or "", request.api_base, temperature=request.temperature,
                         max_tokens=request.max_tokens, concurrency=request.concurrency)


def _response_cache(request: EvalRequest, out: Path):
    from factory.evaluate.models import ResponseCache

    return ResponseCache((request.cache_dir or out / "cache") / "responses.sqlite")


def _interactive(request: EvalRequest, instances: list[Instance], settings: Settings,
                 out: Path) -> tuple[list[SampleResult], dict[str, Any]]:
    from factory.evaluate.interactive import run_interactive

    if request.agent:
        from factory.evaluate.interactive_agents import reference_agent

        agent = reference_agent(request.agent, request.seed)
    else:
        from factory.evaluate.interactive_model import ModelAgent

        agent = ModelAgent(_model_settings(request), _response_cache(request, out))
    chosen = instances[: request.limit] if request.limit else instances
    mock_seed = next((i.provenance.seed for i in chosen if i.world is None), 0)
    from factory.seeds import load_seeds

    seeds = load_seeds(settings.seeds_dir) if any(i.world for i in chosen) else {}
    samples = run_interactive(chosen, agent, trials=request.trials, max_turns=request.max_turns, seeds=seeds,
                              mock_seed=mock_seed, workers=request.concurrency if request.model else 1)
    return samples, {"augment": "none", "left_out": 0, "problems": []}


def evaluate(request: EvalRequest, settings: Settings, out: Path | None = None,
             progress: Callable[[int, int], None] | None = None) -> tuple[Path, dict[str, Any]]:
    """Run the evaluation and write its report; returns (results dir, results)."""
    from factory.evaluate.report import write_report

    validate(request)
    instances, folder = load_dataset(request)
    out = out or default_out(request, settings)
    started = time.perf_counter()
    if request.mode == "static":
        samples, info = _static(request, instances, folder, settings, out, progress)
    else:
        samples, info = _interactive(request, instances, settings, out)
    seconds = time.perf_counter() - started
    chosen = instances[: request.limit] if request.limit else instances
    run = {
        "mode": request.mode,
        "label": request.who(),
        "agent": request.agent,
        "model": {"name": request.model, "api_base": request.api_base} if request.model else None,
        "predictions": str(request.predictions) if request.predictions else None,
        "config": {k: str(v) if isinstance(v, Path) else v for k, v in asdict(request).items()},
        "trials": request.trials,
        "augment": info.pop("augment"),
        "dataset": {"path": str(request.dataset), "fingerprint": content_hash([i.id for i in instances]),
                    "instances": len(instances), "evaluated": len(chosen) - info.get("left_out", 0),
                    "left_out": info.pop("left_out"), "view_fingerprint": info.pop("view_fingerprint", None)},
        "problems": info.pop("problems"),
        **info,
        "seconds": round(seconds, 3),
    }
    return out, write_report(out, samples, run)
