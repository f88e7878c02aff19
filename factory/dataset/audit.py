"""`factory audit`: a review sheet of a stratified sample of instances, so a person can read a
release before trusting it: each instance with its query, offered tools, gold chain, trace,
final answer, milestones, minefields, where its NesTools row went, and what the automatic
checks found. Defects a cold reading found are named on the sheet in their own words (a gold
literal copied from a tool's documented example, a name stated in full twice, a detour, an
item a stock NesTools scorer cannot score fairly, descriptions stacked, a value said twice,
situations stacked), whether or not the policy rejects them."""

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
from factory.checks.readability import RULES as READABILITY_RULES
from factory.checks.readability import readability_problems
from factory.dataset.export import NESTOOLS, NESTOOLS_EXCLUDED, nestools_row
from factory.dataset.nestools import UNSTATED_VALUE, stock_unfair
from factory.errors import ConfigError
from factory.generation.progress import QUIET, Steps
from factory.records import Instance, ToolSpec

# What a cold reading draws at least, per 40 instances (AUDIT_RUBRIC.md): deep requests and
# every scenario, so a sheet shows the hard cases, not just the common ones.
QUOTAS_PER_40 = (
    ("depth 3+", 12, lambda i: i.depth >= 3),
    ("state dependency, condition stated", 2, lambda i: "state_dependency" in i.categories and bool(i.stated_conditions)),
    ("state dependency, condition not stated", 2,
     lambda i: "state_dependency" in i.categories and not i.stated_conditions),
    ("insufficient information", 4, lambda i: "insufficient_information" in i.categories),
    ("canonicalisation", 4, lambda i: "canonicalisation" in i.categories),
    ("cross-domain", 4, lambda i: "cross_domain" in i.categories),
)

NAMED_RULES = ("glitch", "example", "repeated", "detour", *READABILITY_RULES)  # said on the sheet in their own words
# How the sheet says what the readability check finds (factory.checks.readability).
READABILITY_WORDS = {
    "stacked": "descriptions stacked",
    "crowded": "a description crowded with a value said again",
    "redescribed": "a value described again in full",
    "restated": "a value said twice",
    "day_after_day": "a day right after another day",
    "situations": "situations stacked",
    "role": "a situation off the goal's role",
}


def stratified_sample(instances: list[Instance], k: int, seed: int) -> list[Instance]:
    """Up to k instances: first the rubric's quotas (scaled to k), each drawn across domains,
    then round-robin over (domain, depth) strata, all in a seeded order."""
    rng = random.Random(seed)
    pool = instances[:]
    rng.shuffle(pool)
    picked: list[Instance] = []
    taken: set[str] = set()

    def take(candidates: list[Instance], wanted: int) -> None:
        by_domain: dict[str, list[Instance]] = defaultdict(list)
        for instance in candidates:
            if instance.id not in taken:
                by_domain[instance.domain].append(instance)
        order = sorted(by_domain, key=lambda d: (sum(p.domain == d for p in picked), rng.random()))
        while wanted > 0 and len(picked) < k and any(by_domain.values()):
            for domain in order:
                if by_domain[domain] and wanted > 0 and len(picked) < k:
                    instance = by_domain[domain].pop()
                    picked.append(instance)
                    taken.add(instance.id)
                    wanted -= 1
    for _, per_40, fits in QUOTAS_PER_40:
        already = sum(1 for p in picked if fits(p))
        take([i for i in pool if fits(i)], max(0, round(per_40 * k / 40) - already))
    strata: dict[tuple[str, int], list[Instance]] = defaultdict(list)
    for instance in pool:
        if instance.id not in taken:
            strata[(instance.domain, instance.depth)].append(instance)
    queues = [strata[key] for key in sorted(strata)]
    rng.shuffle(queues)
    while len(picked) < k and any(queues):
        for queue in queues:
            if queue and len(picked) < k:
                picked.append(queue.pop())
    return picked


def call_in_world(instance: Instance, seeds: dict[str, Any], tool: str, arguments: dict[str, Any],
                  after: int = 0) -> tuple[ToolSpec, Any]:
    """Run one tool of an instance (offered, withheld, or any seed's) in the instance's own
    world as it starts, or after its first `after` gold calls, to test another reading of the
    request. Returns the tool's spec and the simulator's result (values or error)."""
    from factory.world.simulator import Simulator, run_chain

    specs = {t.name: t for t in (*instance.tools, *instance.withheld_tools)}
    specs.update({n: s for seed in seeds.values() for n, s in seed.specs.items() if n not in specs})
    if tool not in specs:
        raise ConfigError(f"no tool {tool!r} in instance {instance.id} or any seed")
    simulator = Simulator(seeds, instance.world)
    if after:
        run_chain(instance.chain.model_copy(update={"calls": instance.chain.calls[:after]}), specs, simulator)
    return specs[tool], simulator.call(specs[tool], arguments)


def _value(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 160 else text[:157] + "..."


def _findings(instance: Instance, ctx: CheckContext | None) -> list[str]:
    found = [f"query {g}" for g in text_glitches(instance.query)]
    found += [f"gold literal copied from a documented example: {e}" for e in example_literals(instance)]
    found += [f"name stated in full more than once: {r}" for r in repeated_names(instance.chain, instance.query)]
    if ctx is not None and instance.world is not None and all(t in ctx.seeds for t in instance.world.toolboxes):
        found += [f"detour: {d}" for d in detours(instance, ctx)]
    if ctx is not None and "readability" in ctx.policy.checks:
        for problem in readability_problems(instance, ctx):
            rule, _, detail = problem.partition(": ")
            found.append(f"{READABILITY_WORDS[rule]}: {detail}")
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


def _tool_line(tool: ToolSpec, gold: bool) -> str:
    """A tool as the agent sees it: name, description, parameters and returns."""
    params = "; ".join(f"{p.name}: {p.type}{'' if p.required else ', optional'}: {p.description}" for p in tool.parameters)
    returns = "; ".join(f"{o.name}: {o.type}: {o.description}" for o in tool.returns)
    return f"- `{tool.name}`{' (gold)' if gold else ''}: {tool.description} Parameters: {params or 'none'}. Returns: {returns}."


def instance_sheet(number: int, instance: Instance, ctx: CheckContext | None,
                   test_id: int | None = None) -> str:
    gold = set(instance.gold_tools)
    lines = [
        f"## {number}. {instance.domain} / {instance.subdomain} · depth {instance.depth} · shape `{instance.shape}`",
        "",
        f"id `{instance.id}` · categories: {', '.join(instance.categories)}",
        "",
        f"> {instance.query}",
        "",
        "**Offered tools:**",
        "",
        *(_tool_line(t, t.name in gold) for t in instance.tools),
    ]
    if instance.withheld_tools:
        lines += ["", "**Withheld (gold tools not offered):**", "", *(_tool_line(t, True) for t in instance.withheld_tools)]
    lines += ["", "**Gold chain**", "", "```python", render_chain(instance.chain), "```", "", "**Trace**", ""]
    for step in instance.trace.steps:
        call = instance.chain.calls[step.call]
        note = f" (fixes {call.fixes})" if call.fixes else ""
        lines.append(f"{step.call + 1}. `{step.tool}`{note}({_value(step.arguments)}) → {_value(step.outputs)}"
                     + (f" **error:** {step.error}" if step.error else ""))
    lines += ["", f"**Final answer:** {_value(instance.trace.answer)}", "", "**Milestones**", ""]
    lines += [f"- m{m.index} ({m.kind}{', after ' + str(m.after) if m.after else ''}): {m.description}"
              + (f"; or any call whose results include {', '.join(_value(v) for v in m.needs)} (another tool's, a "
                 "search's list holding it alone, or a list holding it among others when a later call is given it)" if m.kind == "call" and m.needs else "")
              for m in instance.milestones]
    if instance.minefields:
        lines += ["", "**Minefields**", ""] + [f"- `{m.tool}`: {m.reason}" for m in instance.minefields]
    file, row = nestools_row(instance, test_id or number)  # (test_id: its place in the dataset, as in the file)
    where = (f"in `{NESTOOLS_EXCLUDED}`, the file of rows a stock NesTools scorer cannot score fairly "
             f"and is not given ({row['excluded']['reason']}: {row['excluded']['detail']})" if file == NESTOOLS_EXCLUDED
             else f"in `{NESTOOLS}`, the file a stock NesTools scorer is given")
    lines += ["", f"**NesTools export row**, {where}:", "", "```json", json.dumps(row, ensure_ascii=False), "```"]
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


def audit_sheet(instances: list[Instance], k: int, seed: int, ctx: CheckContext | None, title: str,
                steps: Steps = QUIET) -> str:
    sample = stratified_sample(instances, k, seed)
    positions = {instance.id: n for n, instance in enumerate(instances, start=1)}  # its test_id in either file
    strata = sorted({(i.domain, i.depth) for i in sample})
    quotas = ", ".join(f"{sum(1 for i in sample if fits(i))} {label}" for label, _, fits in QUOTAS_PER_40)
    head = [
        f"# Review sheet: {title}",
        "",
        f"{len(sample)} of {len(instances)} instances (seed {seed}): {quotas}; the rest spread over "
        f"{len(strata)} (domain, depth) strata. For each: would a person make this request, and can a careful "
        "agent reach the gold answer from what the query and the offered tools give it? "
        "`factory call RUN ID TOOL --args JSON` runs any tool in an instance's own world.",
        "",
        _shares(instances),
        "",
    ]
    steps.step("reading the sample (checks and findings)", len(sample))
    sheets = []
    for n, instance in enumerate(sample, start=1):
        sheets.append(instance_sheet(n, instance, ctx, positions[instance.id]))
        steps.advance()
    return "\n".join(head + sheets)
