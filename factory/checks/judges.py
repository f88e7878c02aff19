"""Model judges, APIGen's third stage: would a person make this request (plausibility), and does
it ask for exactly what the chain does, with an answer that answers it (semantics)? One model
call gives both verdicts; each is a check in the registry with its policy in validators/. They
run only when a model is configured for generation; otherwise they are not applied."""

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

    def __init__(self, lm: Any, instructions: str, structured: bool = False):
        import dspy

        self.lm = lm
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
        found: dict[str, Any] = {}

        def ask() -> str:
            import dspy

            inputs = dict(request=instance.query, calls=describe_calls(instance),
                          answer=json.dumps(instance.trace.answer, ensure_ascii=False))
            if self.config:
                with dspy.context(adapter=dspy.JSONAdapter()):
                    out = self.predict(**inputs, config=self.config)
            else:
                out = self.predict(**inputs)
            found.update(plausible=out.plausible, faithful=out.faithful)
            return out.reason

        reason, failed = model_answer(ask, self.lm)
        verdict = (found.get("plausible"), found.get("faithful"), failed or reason or "no readable verdict")
        with self.lock:
            self.verdicts[key] = verdict
        return verdict


def _verdict(instance: Instance, ctx: CheckContext, name: str, which: int) -> CheckResult:
    policy = ctx.policy.checks[name]
    if ctx.judge is None:
        return CheckResult(name=name, passed=True, blocking=False, reason=NOT_APPLIED + "no model configured")
    verdict = ctx.judge(instance)
    value, reason = verdict[which], verdict[2]
    if value is None:
        return CheckResult(name=name, passed=not policy.get("reject_unreadable"), blocking=policy.blocking,
                           reason=f"the judge gave no readable verdict ({reason})")
    return CheckResult(name=name, passed=bool(value), blocking=policy.blocking, reason="" if value else reason)


def check_judge_plausibility(instance: Instance, ctx: CheckContext) -> CheckResult:
    return _verdict(instance, ctx, "judge_plausibility", 0)


def check_judge_semantics(instance: Instance, ctx: CheckContext) -> CheckResult:
    return _verdict(instance, ctx, "judge_semantics", 1)
