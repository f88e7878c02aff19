"""`factory audit`: a review sheet of a stratified sample of instances, so a person can read a
release before trusting it: each instance with its query, offered tools, gold chain, trace,
final answer, milestones, minefields, and what the automatic checks found."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from typing import Any

from factory.chains.code import render_chain
from factory.checks import run_checks
from factory.checks.context import CheckContext
from factory.checks.faithfulness import text_glitches
from factory.records import Instance


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
    if ctx is not None:
        found += [f"{r.name}: {r.reason}" for r in run_checks(instance, ctx) if not r.passed]
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
    lines += ["", f"**Final answer:** {_value(instance.trace.answer)}", "", "**Milestones**", ""]
    lines += [f"- m{m.index} ({m.kind}{', after ' + str(m.after) if m.after else ''}): {m.description}"
              for m in instance.milestones]
    if instance.minefields:
        lines += ["", "**Minefields**", ""] + [f"- `{m.tool}`: {m.reason}" for m in instance.minefields]
    findings = _findings(instance, ctx)
    lines += ["", "**Automatic findings:** " + ("; ".join(findings) if findings else "none"), "",
              "**Reviewer:** sensible request? [ ] yes [ ] no · defect that changes a score? [ ] no [ ] yes: ____", ""]
    return "\n".join(lines)


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
    ]
    return "\n".join(head + [instance_sheet(n, i, ctx) for n, i in enumerate(sample, start=1)])
