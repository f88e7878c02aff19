"""Model judges, APIGen's third stage: would a person make this request (plausibility), and does
it ask for exactly what the chain does, with an answer that answers it (semantics)? One model
call gives both verdicts; each is a check in the registry with its policy in validators/. They
run only when a model is configured for generation; otherwise they are not applied.

A judge's veto rejects a candidate only where it has earned it: the precision of its vetoes,
measured on cases whose answer is known (`factory calibrate`, factory.checks.judge_calibration),
reaches the policy's `min_precision`. Otherwise its verdict is recorded and advisory: a small
model that calls sound requests absurd does not empty the run."""

from __future__ import annotations

import json
import threading
from typing import Any

from factory.checks.context import CheckContext
from factory.lm.signatures import model_answer, signature, verdict_format
from factory.records import CheckResult, Instance

NOT_APPLIED = "not applied: "  # how a check that did not run says so, with the reason after it


ASKS = [("request", str, "the user's request"),
        ("calls", str, "the tool calls that serve it, with what each returned"),
        ("answer", str, "the final answer")]
GIVES = [("plausible", bool, "would a real person make this request?"),
         ("faithful", bool, "does it ask for exactly what the calls do, and does the answer answer it?"),
         ("reason", str, "one sentence")]


def describe_calls(instance: Instance) -> str:
    lines = []
    for step in instance.trace.steps:
        lines.append(f"{step.tool}({json.dumps(step.arguments, ensure_ascii=False)}) -> "
                     f"{json.dumps(step.outputs, ensure_ascii=False)}")
    return "\n".join(lines)


class Judge:
    """Both verdicts for an instance, asked once per instance and remembered."""

    def __init__(self, lm: Any, instructions: str, structured: bool = False, precision: dict[str, float] | None = None):
        import dspy

        self.lm = lm
        # check name → the measured precision of its vetoes (`factory calibrate`); none: advisory
        self.precision = dict(precision or {})
        self.predict = dspy.Predict(signature("JudgeRequest", instructions, ASKS, GIVES))
        # under a schema where the endpoint takes one: the verdicts as a JSON object, nothing else
        self.config = {"response_format": verdict_format("verdicts", GIVES)} if structured else None
        self.verdicts: dict[str, tuple[bool | None, bool | None, str]] = {}
        self.lock = threading.Lock()

    def __call__(self, instance: Instance) -> tuple[bool | None, bool | None, str]:
        """(plausible, faithful, reason); None verdicts when the model gave no readable answer."""
        key = instance.content_id()
        with self.lock:
            if key in self.verdicts:
                return self.verdicts[key]
        verdict = self.ask(instance.query, describe_calls(instance), json.dumps(instance.trace.answer, ensure_ascii=False))
        with self.lock:
            self.verdicts[key] = verdict
        return verdict

    def ask(self, request: str, calls: str, answer: str) -> tuple[bool | None, bool | None, str]:
        """Both verdicts on a request, its calls (as `describe_calls` writes them) and its answer."""
        found: dict[str, Any] = {}

        def ask() -> str:
            import dspy

            inputs = dict(request=request, calls=calls, answer=answer)
            if self.config:
                with dspy.context(adapter=dspy.JSONAdapter()):
                    out = self.predict(**inputs, config=self.config)
            else:
                out = self.predict(**inputs)
            found.update(plausible=out.plausible, faithful=out.faithful)
            return out.reason

        reason, failed = model_answer(ask, self.lm)
        return found.get("plausible"), found.get("faithful"), failed or reason or "no readable verdict"


def trusted(ctx: CheckContext, name: str) -> tuple[bool, str]:
    """Whether a judge's veto blocks, and why not: its measured precision against the policy's."""
    measured = getattr(ctx.judge, "precision", {}).get(name)
    needed = ctx.policy.checks[name].get("min_precision")
    if measured is None:
        return False, "advisory, not calibrated"
    if measured < needed:
        return False, f"advisory, precision {measured:.2f} < {needed}"
    return True, ""


def _verdict(instance: Instance, ctx: CheckContext, name: str, which: int) -> CheckResult:
    policy = ctx.policy.checks[name]
    if ctx.judge is None:
        return CheckResult(name=name, passed=True, blocking=False, reason=NOT_APPLIED + "no model configured")
    verdict = ctx.judge(instance)
    value, reason = verdict[which], verdict[2]
    blocks, why = trusted(ctx, name)
    blocking = policy.blocking and blocks
    if value is None:
        return CheckResult(name=name, passed=not policy.get("reject_unreadable"), blocking=blocking,
                           reason=f"the judge gave no readable verdict ({reason})")
    return CheckResult(name=name, passed=bool(value), blocking=blocking,
                       reason="" if value else f"{reason} ({why})" if why else reason)


def check_judge_plausibility(instance: Instance, ctx: CheckContext) -> CheckResult:
    return _verdict(instance, ctx, "judge_plausibility", 0)


def check_judge_semantics(instance: Instance, ctx: CheckContext) -> CheckResult:
    return _verdict(instance, ctx, "judge_semantics", 1)
