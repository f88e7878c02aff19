"""Static mode: the whole call list at once, scored with NesTools' metrics.

A responder answers a batch of (task, trial) jobs with raw answers (a request that never got
a response is left out of every metric, as NesTools does). Each answer is parsed and scored into a SampleResult
whose scores are NesTools' per-instance tallies and error counts; `aggregate` turns them
into the run's metrics. Bad answers are scored, never raised.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from factory.evaluate.static_metrics import score_calls
from factory.evaluate.static_parse import parse_response
from factory.evaluate.static_tasks import StaticTask
from factory.records import SampleResult

if TYPE_CHECKING:
    from factory.evaluate.models import ChatModel

Job = tuple[StaticTask, int]  # (task, trial)


@dataclass(frozen=True)
class Answer:
    text: Any  # the raw response (a model's text, or whatever a predictions file holds)
    answered: bool = True  # False: the request never got a response
    error: str | None = None  # why not


Responder = Callable[[Sequence[Job]], list[Answer]]


def unscramble(calls: list[dict[str, Any]] | None, names: dict[str, str]) -> list[dict[str, Any]] | None:
    """The predicted calls with shown tool names mapped back to the real ones."""
    if calls is None:
        return None
    return [{**c, "api_name": names.get(c["api_name"], c["api_name"])} if isinstance(c.get("api_name"), str) else c
            for c in calls]


def _labels(parsed_problem: str | None, scores: dict[str, float]) -> list[str]:
    if parsed_problem:
        return [parsed_problem]
    labels = []
    if scores["api_correct"] < scores["api_gold"]:
        labels.append("selection:missed_call")
    if scores["api_predicted"] > scores["api_correct"]:
        labels.append("selection:extra_call")
    if scores["order_correct"] < scores["order_gold"]:
        labels.append("order")
    labels += [name.replace("_", ":", 1) for name, value in scores.items()
               if name.startswith(("param_", "nest_")) and ":" not in name and value and _is_error(name)]
    return labels


def _is_error(name: str) -> bool:
    return name.split("_", 1)[1] not in ("correct", "predicted", "gold")


def score_response(task: StaticTask, answer: Answer, agent: str, trial: int = 0) -> SampleResult:
    base = {"instance_id": task.instance.id, "mode": "static", "agent": agent, "trial": trial, "prompt": task.prompt,
            "output": answer.text, "depth": task.instance.depth, "shape": task.instance.shape,
            "categories": list(task.instance.categories)}
    if not answer.answered:
        return SampleResult(**base, errors=["no_response"] + ([f"model_error: {answer.error}"] if answer.error else []))
    parsed = parse_response(answer.text)
    tally = score_calls(task.gold, unscramble(parsed.calls, task.names), task.query)
    scores = tally.as_scores()
    return SampleResult(**base, scores=scores, errors=_labels(parsed.problem, scores))


def run_static(tasks: Sequence[StaticTask], respond: Responder, agent: str, trials: int = 1) -> list[SampleResult]:
    """One SampleResult per task per trial, in task order then trial order."""
    jobs = [(task, trial) for task in tasks for trial in range(trials)]
    answers = respond(jobs)
    return [score_response(task, answer, agent, trial) for (task, trial), answer in zip(jobs, answers, strict=True)]


@dataclass
class Predictions:
    jobs: list[tuple[StaticTask, Answer, int]] = field(default_factory=list)  # (task, answer, occurrence)
    problems: list[str] = field(default_factory=list)
    unmatched: int = 0  # predictions for test ids outside the evaluated tasks


def read_predictions(path: Path, tasks: Sequence[StaticTask], known_test_ids: set[int] | None = None) -> Predictions:
    """NesTools' raw response lines ({"test_id": ..., "response": ...}); a response of -1 is
    a request that never got an answer. Bad lines are reported and skipped."""
    by_id = {t.test_id: t for t in tasks}
    seen: dict[int, int] = {}
    out = Predictions()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            test_id = int(row["test_id"])
            response = row["response"]
        except (ValueError, KeyError, TypeError) as exc:
            out.problems.append(f"{path.name}:{number}: not a prediction line ({type(exc).__name__}: {exc})")
            continue
        task = by_id.get(test_id)
        if task is None:
            if known_test_ids is not None and test_id in known_test_ids:
                out.unmatched += 1
            else:
                out.problems.append(f"{path.name}:{number}: unknown test_id {test_id}")
            continue
        occurrence = seen.get(test_id, 0)
        seen[test_id] = occurrence + 1
        out.jobs.append((task, Answer(response, answered=response != -1), occurrence))
    return out


def score_predictions(predictions: Predictions, agent: str) -> list[SampleResult]:
    return [score_response(task, answer, agent, trial) for task, answer, trial in predictions.jobs]


def model_responder(model: ChatModel, on_done: Callable[[int], None] | None = None) -> Responder:
    """A static-mode responder asking a model, concurrently, through its response cache."""
    def respond(jobs: Sequence[Job]) -> list[Answer]:
        completions = model.complete_all([(task.prompt, trial) for task, trial in jobs], on_done)
        return [Answer(c.text, c.text is not None, c.error) for c in completions]

    return respond
