"""Checks: each maps (instance, context) to a CheckResult; an instance is kept only when every
blocking check passes. The registry below is the whole list, in the order they run."""

from __future__ import annotations

from collections.abc import Callable

from factory.checks.context import CheckContext
from factory.checks.conversation import check_conversation
from factory.checks.distractors import check_distractors
from factory.checks.execution import check_execution
from factory.checks.faithfulness import check_faithfulness
from factory.checks.judges import check_judge_plausibility, check_judge_semantics
from factory.checks.plausibility import check_plausibility
from factory.checks.readability import check_readability
from factory.checks.structure import check_dataflow, check_format, check_signature
from factory.records import CheckResult, Instance

CHECKS: dict[str, Callable[[Instance, CheckContext], CheckResult]] = {
    "format": check_format,
    "signature": check_signature,
    "dataflow": check_dataflow,
    "execution": check_execution,
    "plausibility": check_plausibility,
    "faithfulness": check_faithfulness,
    "readability": check_readability,
    "distractors": check_distractors,
    "judge_plausibility": check_judge_plausibility,
    "judge_semantics": check_judge_semantics,
    "conversation": check_conversation,
}
# Checks of one kind of instance only, run where they apply (a single request has no turns).
APPLIES: dict[str, Callable[[Instance], bool]] = {"conversation": lambda instance: instance.conversation is not None}
# The run-level check, near-duplicates, compares an instance with those kept before it:
# factory.checks.duplicates.DuplicateIndex.


MODEL_CHECKS = ("judge_plausibility", "judge_semantics")  # each costs a model call
SPARED = "not applied: a blocking check failed already, so no model call was spent"


def run_checks(instance: Instance, ctx: CheckContext) -> list[CheckResult]:
    """Every enabled instance-level check; later checks are skipped once the structure is
    broken, and the model judges once any blocking check has failed."""
    results: list[CheckResult] = []
    for name, check in CHECKS.items():
        policy = ctx.policy.checks.get(name)
        if policy is None or not policy.enabled or not APPLIES.get(name, lambda _: True)(instance):
            continue
        if name in MODEL_CHECKS and ctx.judge is not None and blocking_failures(results):
            results.append(CheckResult(name=name, passed=True, blocking=False, reason=SPARED))
            continue
        result = check(instance, ctx)
        results.append(result)
        if not result.passed and result.blocking and name in ("format", "signature", "dataflow"):
            break  # executing or reading a malformed chain says nothing more
    return results


def blocking_failures(results: list[CheckResult]) -> list[CheckResult]:
    return [r for r in results if r.blocking and not r.passed]
