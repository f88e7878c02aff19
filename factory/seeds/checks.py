"""What a seed's declarations must satisfy for its requests to read well and make sense:
phrasings that state every argument, descriptions for every output a later call can use,
groups and sense rules over real parameters, knowable fix-ups; and across seeds, twin tools
that agree in one world. `factory domains --check` prints these problems; the seed library's
tests require none."""

from __future__ import annotations

import random
import re

from factory.chains.composer import NEVER_COMPOSED, can_feed
from factory.chains.pool import ToolPool, groups_of, placeholders, pool_of
from factory.lm.embeddings import EmbeddingCache
from factory.queries.frames import kind_of
from factory.records import WorldSetup
from factory.seeds.record import Seed
from factory.seeds.twins import Twin, TwinRule, disagreement, library_twins, sampled_arguments
from factory.toolbox import CONSENTS
from factory.toolbox.sense import OUTPUT_RULES, Trip
from factory.world.simulator import Simulator, ToolCrash

MIN_ASKS = 3
MIN_GOAL_TOOLS = 3
# Wording that cold readers marked as a glitch wherever it came up: a phrasing or description
# never says it (what to say instead in the message).
STILTED = (
    (re.compile(r"\b(?:shortest|smallest) distance\b"), "'nearest' or 'closest', not 'with the shortest distance'"),
    (re.compile(r"\bhome (?:city|country|town) of\b|\b(?:city|country) of residence of\b"
                r"|\b(?:makes|has) their home\b"), "'the city {name} lives in', not 'the home city of'"),
    (re.compile(r"\bmap (?:position|id)\b"), "'location' or 'place id', not 'map position'"),
    (re.compile(r"\b(?:spot|one|place) among the\b|\bamong the cities of\b"), "'the hottest city in', not 'the spot among the cities of'"),
    (re.compile(r"\binto a proper\b"), "ask for the value ('what's the course code for'), not the agent's step"),
    (re.compile(r"\b(?:course|title|name|one) written \""), "the form itself ('the code of \"History 102\"'), not 'the course written'"),
    (re.compile(r"\bin its own city\b"), "'local time', not 'in its own city'"),
    (re.compile(r", counted in \w+\??$"), "the unit in the question ('how many bottles'), not 'counted in' after it"),
    (re.compile(r"\bstore category\b"), "'the category of {sku}': the request is already about the store"),
    (re.compile(r"^(?:nearest|closest|cheapest|lowest|earliest|latest|highest)\b[^.?!:]*: (?:which|what|how)\b"),
     "a question ('which campus is nearest to {city}?'), not a fragment before ': which is it?'"),
)
# A description stacking a relation on a relation ("the date of the next birthday of {name}"):
# a value it describes may be taken by "the weekday of ...", three deep.
STACKED = re.compile(r"^the [\w -]+? of (?:the|a) [\w -]+? of \{\w+\}")


def unended(ask: str) -> bool:
    """Whether an ask with a subject of its own ("for a valuation memo, I need ...") lacks the
    full stop or question mark that keeps request frames from taking it for a verb phrase."""
    bare = re.sub(r"\[[^\]]*\]$", "", ask)  # (an optional part at the end: "[ in {currency}]")
    return kind_of(bare) == "vp" and re.search(r"(?:^|, |; )(?:I|we)\b", bare) is not None


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
    for text in filter(unended, entry.asks):
        problems.append(f"{where}: ask {text!r} has a subject of its own: end it with '.' or '?', or a request "
                        "frame wraps it as a verb phrase ('Need you to for a valuation memo, I need ...')")
    for label, text in texts:
        problems += [f"{where}: {label} {text!r} reads stilted: say {say}" for pattern, say in STILTED if pattern.search(text)]
        if label != "ask" and STACKED.search(text):
            problems.append(f"{where}: {label} {text!r} stacks 'of the ... of': say it with one relation "
                            "('{name}'s next birthday', 'the city {name} lives in')")
    outputs = {o.name for o in spec.returns}
    for key in entry.gives:
        if set(key) - outputs:
            problems.append(f"{where}: gives describes unknown outputs {sorted(set(key) - outputs)}")
    described = {o for key in entry.gives for o in key}
    for output in sorted(linked_outputs - described):
        problems.append(f"{where}: output {output!r} feeds other tools but has no description in gives")
    for rule in entry.sense:
        used = set(rule.params) if not isinstance(rule, Trip) else {*rule.start, *rule.end, rule.mode}
        if isinstance(rule, OUTPUT_RULES):
            used -= outputs
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
        if condition.consent is not None and condition.consent not in CONSENTS:
            problems.append(f"{where}: consent {condition.consent!r} is not one of {', '.join(CONSENTS)}")
    return problems


def _goal_problems(seed: Seed, pool: ToolPool, require_goals: bool) -> list[str]:
    """Goals name real tools, each has a role and enough tools to nest, and every tool a
    request may ask for serves at least one goal."""
    goals = seed.toolbox.goals
    if not goals:
        return [f"{seed.slug}: declares no goals (toolbox.goal): chains would mix every tool of the seed"] if require_goals else []
    problems = []
    for goal in goals.values():
        where = f"{seed.slug} goal {goal.name!r}"
        unknown = sorted(t for t in goal.tools if t not in pool.specs)
        if unknown:
            problems.append(f"{where}: names unknown tools {unknown}")
        if not goal.role or not goal.wants:
            problems.append(f"{where}: says neither who asks (role) nor what they want (wants)")
        own = [t for t in goal.tools if t in seed.toolbox.tools]
        if len(own) < MIN_GOAL_TOOLS:
            problems.append(f"{where}: {len(own)} of this seed's tools, want at least {MIN_GOAL_TOOLS}")
        unknown_conditions = sorted(set(goal.conditions or ()) - set(seed.toolbox.conditions))
        if unknown_conditions:
            problems.append(f"{where}: names unknown conditions {unknown_conditions}")
        fix_only = sorted(t for t in own if "fix_only" in seed.toolbox.tools[t].tags)
        if fix_only:
            problems.append(f"{where}: fix-only tools {fix_only} are never asked for; leave them out")
    served = {t for goal in goals.values() for t in goal.tools}
    for name, entry in seed.toolbox.tools.items():
        if name not in served and not NEVER_COMPOSED & set(entry.tags):
            problems.append(f"{seed.slug}.{name}: serves no goal")
    return problems


def seed_problems(seed: Seed, pool: ToolPool, require_goals: bool = True) -> list[str]:
    """Every declaration problem of one seed; `pool` holds every seed's tools, so outputs that
    feed other seeds (through their bridges) count as used. A model-written seed is vetted
    without `require_goals`: the sandbox carries no goals yet, so it composes as one goal."""
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
    problems += _goal_problems(seed, pool, require_goals)
    for kind in seed.toolbox.facts:
        if kind not in seed.toolbox.values:
            problems.append(f"{seed.slug}: facts_about({kind!r}) but no values_for({kind!r}) to draw such values from")
    return problems


def library_pool(seeds: dict[str, Seed], world_seed: int = 0, slugs: list[str] | None = None) -> ToolPool:
    """Every seed's tools (or those of `slugs`) in one pool, with links, bridges and literal values."""
    return pool_of(seeds, slugs or list(seeds), world_seed)


def twin_problems(seeds: dict[str, Seed], pool: ToolPool, embeddings: EmbeddingCache, rule: TwinRule,
                  world_seed: int = 0, samples: int = 8) -> list[str]:
    """Twin tools (factory.seeds.twins) that answer differently in one world: each pair is run, both
    ways, on argument sets drawn from the seeds' values, and the first set on which both answer
    and a shared output differs is reported."""
    problems = []
    for pair in library_twins(list(pool.specs.values()), embeddings, rule):
        found = _disagreeing_call(seeds, pool, pair, world_seed, samples) or _disagreeing_call(
            seeds, pool, pair.flipped(), world_seed, samples)
        if found:
            where = f"{pair.a.toolbox}.{pair.a.name} and {pair.b.toolbox}.{pair.b.name}"
            problems.append(f"{where} answer the same question differently in one world: {found}")
    return problems


def _disagreeing_call(seeds: dict[str, Seed], pool: ToolPool, pair: Twin, world_seed: int, samples: int) -> str | None:
    groups = [(g.params, pool.joint_options(pair.a, g)) for g in pool.groups.get(pair.a.name, [])]
    rng = random.Random(f"twins:{pair.a.name}:{pair.b.name}")
    setup = WorldSetup(toolboxes=sorted({pair.a.toolbox or "", pair.b.toolbox or ""} & set(seeds)), seed=world_seed)
    for arguments in sampled_arguments(pair.a, pool.options, groups, rng, samples):
        simulator = Simulator(seeds, setup)
        try:
            first = simulator.call(pair.a, arguments)
            second = simulator.call(pair.b, pair.arguments_for_b(arguments))
        except ToolCrash:
            continue  # a seed defect, reported by the run that meets it
        if first.error is None and second.error is None:
            why = disagreement(pair, first.values, second.values)
            if why:
                return f"on {arguments}, {why}"
    return None
