"""Distractor check: every offered non-gold tool keeps its distance from the gold tools, none
is an alternative that yields what the chain needs from a gold call (run on the gold
arguments), and none is a twin of a gold tool (factory.seeds.twins) that answers the gold call
differently or only in part, so the gold answer is the only right one and the world does not
contradict itself."""

from __future__ import annotations

from factory.checks.context import CheckContext
from factory.instances.distractors import alternative_to_gold, description_similarity, too_close, twin_of_gold
from factory.records import CheckResult, Instance
from factory.seeds.twins import library_rule
from factory.world.simulator import Simulator


def check_distractors(instance: Instance, ctx: CheckContext) -> CheckResult:
    policy = ctx.policy.checks["distractors"]
    gold = [t for t in (*instance.tools, *instance.withheld_tools) if t.name in set(instance.gold_tools)]
    distractors = [t for t in instance.tools if t.name not in set(instance.gold_tools)]
    problems = []
    if gold and distractors:
        sims = description_similarity(gold, distractors, ctx.embeddings)
        for c, tool in enumerate(distractors):
            why = too_close(tool, gold, sims[:, c], policy.get("min_name_distance"), policy.get("max_description_similarity"))
            if why:
                problems.append(why)
    if instance.world is not None:
        specs = {t.name: t for t in gold}
        rule = library_rule(ctx.seeds, policy.get("twin_similarity"))

        def world() -> Simulator:
            return Simulator(ctx.seeds, instance.world)

        for tool in distractors:
            why = alternative_to_gold(tool, instance.chain, instance.trace, specs, world) or twin_of_gold(
                tool, instance.chain, instance.trace, specs, world, rule, ctx.embeddings)
            if why:
                problems.append(why)
    return CheckResult(name="distractors", passed=not problems, blocking=policy.blocking, reason="; ".join(problems[:5]))
