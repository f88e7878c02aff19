"""Static mode: the whole call list at once, scored with NesTools' metrics.

A responder answers a batch of (task, trial) jobs with raw answers. A request that never got
a response (the endpoint failed, or refused the request) is left out of every metric, as
NesTools does, and labelled with the reason. Each answer is parsed and scored into a
SampleResult whose scores are NesTools' per-instance tallies and error counts; `aggregate`
turns them into the run's metrics. Bad answers are scored, never raised; an answer cut at
max_tokens is scored as given and labelled `truncated`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from factory.evaluate.static.answers import Answer, Job, Responder
from factory.evaluate.static.execution import executable, execution_pass
from factory.evaluate.static.metrics import NEST_ERRORS, PARAM_ERRORS, score_calls
from factory.evaluate.static.parse import parse_response
from factory.evaluate.static.predictions import Predictions
from factory.evaluate.static.tasks import StaticTask
from factory.generation.progress import QUIET, Steps
from factory.records import SampleResult

if TYPE_CHECKING:
    from factory.lm.client import LMClient

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
    labels += [label for name, label in ERROR_LABELS if scores.get(name)]
    return labels


# The taxonomy's error counts (in the order the scores list them) and their labels.
ERROR_LABELS = tuple((name, name.replace("_", ":", 1)) for name in PARAM_ERRORS + NEST_ERRORS)


def score_response(task: StaticTask, answer: Answer, agent: str, trial: int = 0, shown: bool = True,
                   seeds: dict[str, Any] | None = None) -> SampleResult:
    """The sample of one answer; `shown`: the prompt is what the answer was given (not so for
    a predictions file, whose answers came from another prompt). With the seeds, an instance
    with a world is also scored by executing the prediction (`exec_pass`)."""
    # Each sample is a copy of the task's blank one with its own fields (fresh lists among them),
    # made without validation: every field is made here, of the right type.
    base = {"agent": agent, "trial": trial, "prompt": task.prompt if shown else None, "output": answer.text,
            "categories": list(task.instance.categories), "steps": []}
    if not answer.answered:
        reason = "endpoint_error" if answer.endpoint_failure else "request_error"
        errors = ["no_response"] + ([f"{reason}: {answer.error}"] if answer.error else [])
        return task.blank_sample.model_copy(update={**base, "scores": {}, "errors": errors})
    parsed = parse_response(answer.text)
    calls = unscramble(parsed.calls, task.names) if task.renamed else parsed.calls
    if calls is None:
        scores = dict(task.unread_scores)
    else:
        scores = score_calls(task.gold, calls, task.query, task.gold_side).as_scores()
    if seeds is not None and executable(task.instance):
        scores["exec_pass"] = execution_pass(task.instance, calls, seeds)
    errors = (["truncated"] if answer.truncated else []) + _labels(parsed.problem, scores)
    return task.blank_sample.model_copy(update={**base, "scores": scores, "errors": errors})


def score_missing(task: StaticTask, agent: str, seeds: dict[str, Any] | None = None) -> SampleResult:
    """A task a predictions file has no line for, scored as a failure (nothing predicted)."""
    sample = score_response(task, Answer(None), agent, shown=False, seeds=seeds)
    return sample.model_copy(update={"output": None, "errors": ["missing_prediction"]})


def run_static(tasks: Sequence[StaticTask], respond: Responder, agent: str, trials: int = 1,
               seeds: dict[str, Any] | None = None, steps: Steps = QUIET) -> list[SampleResult]:
    """One SampleResult per task per trial, in task order then trial order."""
    jobs = [(task, trial) for task in tasks for trial in range(trials)]
    answers = respond(jobs)
    steps.step("scoring" + (" (each answer run in its world)" if seeds is not None else ""), len(jobs))
    return [_counted(steps, score_response(task, answer, agent, trial, seeds=seeds))
            for (task, trial), answer in zip(jobs, answers, strict=True)]


def score_predictions(predictions: Predictions, agent: str, allow_missing: bool = False,
                      seeds: dict[str, Any] | None = None, steps: Steps = QUIET) -> list[SampleResult]:
    """Every prediction line scored; tasks without one scored as failures unless allowed."""
    steps.step("scoring" + (" (each answer run in its world)" if seeds is not None else ""), len(predictions.jobs))
    samples = [_counted(steps, score_response(task, answer, agent, trial, shown=False, seeds=seeds))
               for task, answer, trial in predictions.jobs]
    return samples if allow_missing else samples + [score_missing(task, agent, seeds) for task in predictions.missing]


def _counted(steps: Steps, sample: SampleResult) -> SampleResult:
    steps.advance()
    return sample


def model_responder(client: LMClient, on_done: Callable[[int], None] | None = None) -> Responder:
    """A static-mode responder asking a model through the shared client (concurrency,
    retries, call cache), one user message per job."""
    from factory.lm.reply import Call

    def respond(jobs: Sequence[Job]) -> list[Answer]:
        calls = [Call(messages=[{"role": "user", "content": task.prompt}], trial=trial) for task, trial in jobs]
        replies = client.complete_many(calls, on_done)
        return [Answer(r.text if r.ok else None, r.ok, r.error, r.endpoint_failure, r.truncated) for r in replies]

    return respond
