"""`factory audit`: a review sheet of a stratified sample of instances, so a person can read a
release before trusting it: each instance with its query, offered tools, gold chain, trace,
final answer, milestones, minefields, where its NesTools row went, and what the automatic
checks found. Defects a cold reading found are named on the sheet in their own words (a gold
literal copied from a tool's documented example, a name stated in full twice, a detour, an
item a stock NesTools scorer cannot score fairly), whether or not the policy rejects them."""

from __future__ import annotations

import json
import random
from collections import Counter, defaultdict
from typing import Any

from factory.chains.code import render_chain
from factory.chains.seeded import MIN_SEED_SHARE
from factory.checks import run_checks
from factory.checks.context import CheckContext
from factory.checks.faithfulness import example_literals, repeated_names, text_glitches
from factory.checks.plausibility import detours
from factory.export import NESTOOLS, NESTOOLS_EXCLUDED
from factory.nestools import UNSTATED_VALUE, stock_unfair
from factory.records import Instance

NAMED_RULES = ("glitch", "example", "repeated", "detour")  # said on the sheet in their own words


def stratified_sample(instances: list[Instance], k: int, seed: int) -> list[Instance]:
    """Up to k instances, drawn round-robin over (domain, depth) strata in a seeded order."""
    rng = random.Random(seed)
    strata: dict[tuple[str, int], list[Instance]] = defaultdict(list)
    for instance in instances:
        strata[(instance.domain, instance.depth)].append(instance)
    queues = []
    for key in sorted(strata):
        members = strata[key][:]
        rng.shuffle(members)
        queues.append(members)
    rng.shuffle(queues)
    picked: list[Instance] = []
    while len(picked) < k and any(queues):
        for queue in queues:
            if queue and len(picked) < k:
                picked.append(queue.pop())
    return picked


def _value(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 160 else text[:157] + "..."


def _findings(instance: Instance, ctx: CheckContext | None) -> list[str]:
    found = [f"query {g}" for g in text_glitches(instance.query)]
    found += [f"gold literal copied from a documented example: {e}" for e in example_literals(instance)]
    found += [f"name stated in full more than once: {r}" for r in repeated_names(instance.chain, instance.query)]
    if ctx is not None and instance.world is not None and all(t in ctx.seeds for t in instance.world.toolboxes):
        found += [f"detour: {d}" for d in detours(instance, ctx)]
    unfair = stock_unfair(instance)
    if unfair and unfair[0] == UNSTATED_VALUE:  # the other reasons are scenarios by design, said on the NesTools line
        found.append(f"gold needs a value the request does not state: {unfair[1]}")
    if ctx is not None:
        for result in run_checks(instance, ctx):
            parts = [p for p in result.reason.split("; ") if p.split(":", 1)[0] not in NAMED_RULES]
            if not result.passed and parts:
                found.append(f"{result.name}: {'; '.join(parts)}")
    found += [f"{c.name} (recorded at generation): {c.reason}" for c in instance.checks if not c.passed]
    return found


def instance_sheet(number: int, instance: Instance, ctx: CheckContext | None) -> str:
    gold = set(instance.gold_tools)
    lines = [
        f"## {number}. {instance.domain} / {instance.subdomain} · depth {instance.depth} · shape `{instance.shape}`",
        "",
        f"id `{instance.id}` · categories: {', '.join(instance.categories)}",
        "",
        f"> {instance.query}",
        "",
        "**Offered tools:** " + ", ".join(f"`{t.name}`" + (" (gold)" if t.name in gold else "") for t in instance.tools),
    ]
    if instance.withheld_tools:
        lines.append("**Withheld:** " + ", ".join(f"`{t.name}`" for t in instance.withheld_tools))
    lines += ["", "**Gold chain**", "", "```python", render_chain(instance.chain), "```", "", "**Trace**", ""]
    for step in instance.trace.steps:
        call = instance.chain.calls[step.call]
        note = f" (fixes {call.fixes})" if call.fixes else ""
        lines.append(f"{step.call + 1}. `{step.tool}`{note}({_value(step.arguments)}) → {_value(step.outputs)}"
                     + (f" **error:** {step.error}" if step.error else ""))
    unfair = stock_unfair(instance)
    lines += ["", f"**Final answer:** {_value(instance.trace.answer)}", "",
              f"**NesTools row:** in `{NESTOOLS_EXCLUDED}` ({unfair[0]}: {unfair[1]})" if unfair
              else f"**NesTools row:** in `{NESTOOLS}`",
              "", "**Milestones**", ""]
    lines += [f"- m{m.index} ({m.kind}{', after ' + str(m.after) if m.after else ''}): {m.description}"
              for m in instance.milestones]
    if instance.minefields:
        lines += ["", "**Minefields**", ""] + [f"- `{m.tool}`: {m.reason}" for m in instance.minefields]
    findings = _findings(instance, ctx)
    lines += ["", "**Automatic findings:** " + ("; ".join(findings) if findings else "none"), "",
              "**Reviewer:** sensible request? [ ] yes [ ] no · defect that changes a score? [ ] no [ ] yes: ____", ""]
    return "\n".join(lines)


def _shares(instances: list[Instance]) -> str:
    """Instances per domain, and the domains of a mixed release below MIN_SEED_SHARE of it."""
    counts = Counter(i.domain for i in instances)
    listed = ", ".join(f"{domain} {n}" for domain, n in sorted(counts.items(), key=lambda x: (x[1], x[0])))
    low = [d for d, n in counts.items() if len(counts) > 1 and n < MIN_SEED_SHARE * len(instances)]
    flag = f"below {MIN_SEED_SHARE:.0%} of the instances: {', '.join(sorted(low))}" if low else \
        f"none below {MIN_SEED_SHARE:.0%} of the instances"
    return f"**Domains:** {listed} ({flag})."


def audit_sheet(instances: list[Instance], k: int, seed: int, ctx: CheckContext | None, title: str) -> str:
    sample = stratified_sample(instances, k, seed)
    strata = sorted({(i.domain, i.depth) for i in sample})
    head = [
        f"# Review sheet: {title}",
        "",
        f"{len(sample)} of {len(instances)} instances, stratified by domain and depth (seed {seed}); "
        f"{len(strata)} strata. For each: would a person make this request, and can a careful agent "
        "reach the gold answer from what the query and the offered tools give it?",
        "",
        _shares(instances),
        "",
    ]
    return "\n".join(head + [instance_sheet(n, i, ctx) for n, i in enumerate(sample, start=1)])
