"""What a seed's declarations must satisfy for its requests to read well and make sense:
phrasings that state every argument, descriptions for every output a later call can use,
groups and sense rules over real parameters, knowable fix-ups. `factory domains --check`
prints these problems; the seed library's tests require none."""

from __future__ import annotations

from factory.chains.composer import can_feed
from factory.chains.pool import ToolPool, groups_of, placeholders, pool_of
from factory.seeds import Seed
from factory.sense import Trip

MIN_ASKS = 3


def _mentions(template: str, groups: dict[str, tuple[str, ...]]) -> set[str]:
    return {p for slot in placeholders(template) for p in groups.get(slot, (slot,))}


def _tool_problems(seed: Seed, name: str, linked_outputs: set[str], joint_kinds: list[tuple[str, ...]]) -> list[str]:
    entry, spec = seed.toolbox.tools[name], seed.specs[name]
    where = f"{seed.slug}.{name}"
    params = {p.name for p in spec.parameters}
    required = {p.name for p in spec.parameters if p.required}
    groups = {g.name: g.params for g in groups_of(spec, entry, joint_kinds)}
    problems = []
    if len(entry.asks) < MIN_ASKS:
        problems.append(f"{where}: {len(entry.asks)} phrasing(s) in asks, want at least {MIN_ASKS}")
    for group, members in groups.items():
        if set(members) - params:
            problems.append(f"{where}: group {group!r} names unknown parameters {sorted(set(members) - params)}")
    texts = [("ask", t) for t in entry.asks] + [("description of " + ",".join(k), t) for k, ts in entry.gives.items() for t in ts]
    for label, text in texts:
        unknown = {s for s in placeholders(text) if s not in params and s not in groups}
        if unknown:
            problems.append(f"{where}: {label} {text!r} has unknown placeholders {sorted(unknown)}")
        missing = required - _mentions(text, groups)
        if missing:
            problems.append(f"{where}: {label} {text!r} does not state {sorted(missing)}")
    outputs = {o.name for o in spec.returns}
    for key in entry.gives:
        if set(key) - outputs:
            problems.append(f"{where}: gives describes unknown outputs {sorted(set(key) - outputs)}")
    described = {o for key in entry.gives for o in key}
    for output in sorted(linked_outputs - described):
        problems.append(f"{where}: output {output!r} feeds other tools but has no description in gives")
    for rule in entry.sense:
        used = set(rule.params) if not isinstance(rule, Trip) else {*rule.start, *rule.end, rule.mode}
        if used - params:
            problems.append(f"{where}: sense rule {rule.kind} names unknown parameters {sorted(used - params)}")
    return problems


def _condition_problems(seed: Seed) -> list[str]:
    problems = []
    for condition in seed.toolbox.conditions.values():
        where = f"{seed.slug} condition {condition.name!r}"
        said = [set(placeholders(text)) for text in condition.context]
        stated = said[0] if said else set()
        if any(s != stated for s in said):
            problems.append(f"{where}: its context wordings state different arguments")
        fix_args = set(condition.fix_arguments)
        for arg in sorted(fix_args - set(condition.free) - stated):
            problems.append(f"{where}: fix argument {arg!r} is neither free nor stated by its context sentence")
        for arg in sorted((set(condition.free) | stated) - fix_args):
            problems.append(f"{where}: {arg!r} is not an argument of the fix call")
    return problems


def seed_problems(seed: Seed, pool: ToolPool) -> list[str]:
    """Every declaration problem of one seed; `pool` holds every seed's tools, so outputs that
    feed other seeds (through their bridges) count as used."""
    linked: dict[str, set[str]] = {}
    for (producer, consumer), pairs in pool.links.items():
        if can_feed(pool, producer, consumer):  # a half of a group alone feeds nothing
            spec = pool.specs[producer]
            linked.setdefault(producer, set()).update(spec.returns[i].name for i, _ in pairs)
    joint_kinds = sorted({k for by in pool.joint.values() for k in by})
    problems = []
    for name in seed.toolbox.tools:
        problems += _tool_problems(seed, name, linked.get(name, set()), joint_kinds)
    problems += _condition_problems(seed)
    for kind in seed.toolbox.facts:
        if kind not in seed.toolbox.values:
            problems.append(f"{seed.slug}: facts_about({kind!r}) but no values_for({kind!r}) to draw such values from")
    return problems


def library_pool(seeds: dict[str, Seed], world_seed: int = 0, slugs: list[str] | None = None) -> ToolPool:
    """Every seed's tools (or those of `slugs`) in one pool, with links, bridges and literal values."""
    return pool_of(seeds, slugs or list(seeds), world_seed)
