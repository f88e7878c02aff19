"""Execution check: the chain runs without error, results have their declared types, a rerun
gives the same trace, and the stored trace is what the chain really produces."""

from __future__ import annotations

from factory.checks.context import CheckContext
from factory.records import CheckResult, Instance, Trace, value_matches_type
from factory.world.simulator import Simulator, ToolCrash, run_chain


def execute(instance: Instance, ctx: CheckContext) -> Trace:
    specs = {t.name: t for t in (*instance.tools, *instance.withheld_tools)}
    return run_chain(instance.chain, specs, Simulator(ctx.seeds, instance.world))


def check_execution(instance: Instance, ctx: CheckContext) -> CheckResult:
    blocking = ctx.policy.checks["execution"].blocking

    def fail(reason: str) -> CheckResult:
        return CheckResult(name="execution", passed=False, blocking=blocking, reason=reason)

    if instance.world:
        unknown = [t for t in instance.world.toolboxes if t not in ctx.seeds]
        if unknown:
            return fail(f"toolboxes {unknown} are not among the installed seeds")
    try:
        first = execute(instance, ctx)
        second = execute(instance, ctx)
    except ToolCrash as exc:
        return fail(str(exc))
    failed = next((s for s in first.steps if s.error), None)
    if failed:
        return fail(f"call {failed.call + 1} ({failed.tool}) failed: {failed.error}")
    if first != second:
        return fail("two runs of the chain gave different traces (non-deterministic tools)")
    for step in first.steps:
        spec = instance.tool(step.tool)
        assert spec is not None
        for (var, value), out in zip(step.outputs.items(), spec.returns, strict=False):
            if not value_matches_type(value, out.type):
                return fail(f"call {step.call + 1} ({step.tool}): {out.name}={value!r} is not {out.type}")
    if first != instance.trace:
        return fail("the stored trace differs from re-executing the chain")
    return CheckResult(name="execution", passed=True, blocking=blocking)
