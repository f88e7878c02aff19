"""The tools a chain may use: which output may feed which parameter (kind, role, type and
declared bridges), the literal values each parameter can take, and the parameters that
travel together (a latitude with its longitude, an amount with its currency)."""

from __future__ import annotations

import string
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from factory.records import Output, Param, ToolSpec, type_accepts, value_matches_type
from factory.seeds.specs import documented_examples
from factory.toolbox import ToolEntry
from factory.toolbox.gazetteer import NOW


@dataclass(frozen=True)
class Group:
    """Parameters of one call that form one value: all literal, or all from one producing call."""

    name: str
    template: str  # how the literal value reads, e.g. "{latitude}, {longitude}"
    params: tuple[str, ...]


TODAY = NOW.date().isoformat()


def placeholders(template: str) -> list[str]:
    return [f for _, f, _, _ in string.Formatter().parse(template) if f]


def states(template: str, arguments: Collection[str], groups: Sequence[Group]) -> bool:
    """Whether a phrasing has a slot for each of the arguments (its own or its group's)."""
    slots = set(placeholders(template))
    return all(name in slots or any(g.name in slots and name in g.params for g in groups) for name in arguments)


def links_to(out: Output, param: Param, producer: ToolSpec, consumer: ToolSpec, bridges: dict[str, set[str]]) -> bool:
    """Whether an output may feed a parameter: same kind and role, a fitting type, and, across
    seeds, a bridge the consumer's seed declares for the kind."""
    if not out.kind or out.kind != param.kind or out.role != param.role or not type_accepts(param.type, out.type):
        return False
    return producer.toolbox == consumer.toolbox or out.kind in bridges.get(consumer.toolbox or "", set())


@dataclass
class ToolPool:
    specs: dict[str, ToolSpec]
    values: dict[str, dict[str, list[Any]]]  # toolbox → kind (or "kind/role") → candidate literal values
    joint: dict[str, dict[tuple[str, ...], list[tuple[Any, ...]]]] = field(default_factory=dict)  # toolbox → kinds → tuples
    entries: dict[str, ToolEntry] = field(default_factory=dict)  # tool → its seed registration
    bridges: dict[str, set[str]] = field(default_factory=dict)  # toolbox → kinds it takes from other seeds
    internal: dict[str, set[str]] = field(default_factory=dict)  # toolbox → kinds a user never states
    limits: dict[str, Any] = field(default_factory=dict)  # the plausibility policy's thresholds (sense rules)
    facts: dict[str, dict[str, dict[Any, dict[str, Any]]]] = field(default_factory=dict)  # toolbox → kind → value → facts
    links: dict[tuple[str, str], list[tuple[int, str]]] = field(default_factory=dict)
    # (producer, consumer) → their links, shared by the pools of one run: which output feeds
    # which parameter depends only on the two tools and the consumer's seed's bridges.
    known_links: dict[tuple[str, str], list[tuple[int, str]]] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._options: dict[tuple[str | None, str | None, str | None, str], list[Any]] = {}
        self._unfillable: dict[tuple[str | None, str], frozenset[str]] = {}
        self._examples = {name: documented_examples(spec) for name, spec in self.specs.items()}
        known = {} if self.known_links is None else self.known_links
        for a in self.specs.values():
            for b in self.specs.values():
                if a.name == b.name:
                    continue
                pairs = known.get((a.name, b.name))
                if pairs is None:
                    pairs = known[(a.name, b.name)] = [(k, p.name) for k, out in enumerate(a.returns)
                                                       for p in b.parameters if links_to(out, p, a, b, self.bridges)]
                if pairs:
                    self.links[(a.name, b.name)] = pairs
        producers = {a for a, _ in self.links}
        self.feeds = {name: name in producers for name in self.specs}
        # Tools that give only ids a user never sees (the place ids a map lists): they feed a
        # later call, never end a request (the plausibility rule `ids`).
        self.only_ids = {name: bool(spec.returns) and all(o.kind in self.internal.get(spec.toolbox or "", set())
                                                          for o in spec.returns) for name, spec in self.specs.items()}
        joint_kinds = sorted({kinds for by_toolbox in self.joint.values() for kinds in by_toolbox})
        self.groups = {name: groups_of(spec, self.entries.get(name), joint_kinds) for name, spec in self.specs.items()}

    def entry(self, tool: str) -> ToolEntry | None:
        return self.entries.get(tool)

    def examples(self, tools: list[str]) -> frozenset[str]:
        """The example values these tools' documentation shows (`documented_examples`)."""
        return frozenset().union(*(self._examples[t] for t in tools))

    def options(self, spec: ToolSpec, param: Param) -> list[Any]:
        """Literal values a parameter can take: its enum, its kind's values of the right type
        (role-specific values first, the tool's own toolbox first; single values become
        one-item lists for a list parameter), or both booleans."""
        if param.enum:
            return list(param.enum)
        if param.kind in self.internal.get(spec.toolbox or "", set()):
            return []  # never stated by a user: only an earlier call gives it
        key = (spec.toolbox, param.kind, param.role, param.type)
        if key not in self._options:
            toolboxes = [spec.toolbox or ""] + sorted(t for t in self.values if t != spec.toolbox)
            names = ([f"{param.kind}/{param.role}"] if param.role else []) + [param.kind or ""]
            found = (_fitting(self.values.get(t, {}).get(n) or [], param.type) for t in toolboxes for n in names)
            options = next((f for f in found if f), [True, False] if param.type == "bool" else [])
            if param.kind in ("date", "datetime"):  # a person says "today", not "Friday, June 13, 2025"
                options = [v for v in options if not str(v).startswith(TODAY)] or options
            self._options[key] = options
        return self._options[key]

    def joint_options(self, spec: ToolSpec, group: Group) -> list[tuple[Any, ...]]:
        """Coherent tuples for a group of literal parameters, from a joint generator over their kinds."""
        kinds = tuple(spec.param(p).kind for p in group.params)
        toolboxes = [spec.toolbox or ""] + sorted(t for t in self.joint if t != spec.toolbox)
        for toolbox in toolboxes:
            for declared, tuples in sorted(self.joint.get(toolbox, {}).items()):
                if sorted(declared) == sorted(kinds) and len(set(kinds)) == len(kinds):
                    order = [declared.index(k) for k in kinds]
                    return [tuple(t[i] for i in order) for t in tuples]
        return []

    def facts_of(self, kind: str | None, value: Any, role: str | None = None) -> dict[str, Any]:
        """What a literal value implies about other kinds (`Toolbox.facts_about`, declared for
        "kind/role" or for the kind), from any seed."""
        if not kind or not isinstance(value, (str, int, float)):
            return {}
        for key in ([f"{kind}/{role}"] if role else []) + [kind]:
            for by_kind in self.facts.values():
                found = by_kind.get(key, {}).get(value)
                if found:
                    return found
        return {}

    def fillable(self, spec: ToolSpec, bound: set[str]) -> bool:
        """Whether every required parameter is bound or has literal values to draw from."""
        key = (spec.toolbox, spec.name)
        if key not in self._unfillable:  # the required parameters only an earlier call can give
            self._unfillable[key] = frozenset(p.name for p in spec.parameters if p.required and not self.options(spec, p))
        return self._unfillable[key] <= bound


@lru_cache(maxsize=256)
def seed_tables(seed: Any, world_seed: int) -> tuple[dict, dict, dict]:
    """A seed's literal values, joint values and facts, drawn from its world for `world_seed`."""
    from factory.world.simulator import base_world

    world = base_world(seed, world_seed)
    values = {kind: fn(world) for kind, fn in seed.toolbox.values.items()}
    joint = {kinds: fn(world) for kinds, fn in seed.toolbox.joint_values.items()}
    facts = {kind: {v: fn(world, v) for key, drawn in values.items() if key == kind or key.split("/")[0] == kind
                    for v in drawn if isinstance(v, (str, int, float))}
             for kind, fn in seed.toolbox.facts.items()}
    return values, joint, facts


def pool_of(seeds: dict[str, Any], slugs: list[str] | tuple[str, ...], world_seed: int,
            limits: dict[str, Any] | None = None,
            known_links: dict[tuple[str, str], list[tuple[int, str]]] | None = None,
            tools: frozenset[str] | None = None) -> ToolPool:
    """The tools of these seeds (only those named in `tools`, when given: a goal's), with every
    seed's values, joint values and facts (values of other seeds serve as a fallback for kinds
    a seed has none of). Pools built from the same `seeds` may share `known_links`, so the
    links between two tools are found once."""
    tables = {slug: seed_tables(seed, world_seed) for slug, seed in seeds.items()}

    def kept(name: str) -> bool:
        return tools is None or name in tools

    return ToolPool(
        specs={n: s for slug in slugs for n, s in seeds[slug].specs.items() if kept(n)},
        values={slug: t[0] for slug, t in tables.items()},
        joint={slug: t[1] for slug, t in tables.items()},
        entries={n: e for slug in slugs for n, e in seeds[slug].toolbox.tools.items() if kept(n)},
        bridges={slug: set(seeds[slug].toolbox.bridges) for slug in slugs},
        internal={slug: set(seeds[slug].toolbox.internal) for slug in slugs},
        limits=dict(limits or {}),
        facts={slug: t[2] for slug, t in tables.items()},
        known_links=known_links,
    )


def _fitting(values: list[Any], type_: str) -> list[Any]:
    fitting = [v for v in values if value_matches_type(v, type_)]
    if not fitting and type_.startswith("list"):
        fitting = [[v] for v in values if value_matches_type([v], type_)]
    return fitting


def groups_of(spec: ToolSpec, entry: ToolEntry | None, joint_kinds: list[tuple[str, ...]]) -> list[Group]:
    """Declared groups, plus one per set of joint kinds the tool takes exactly once each."""
    groups = [Group(name, template, tuple(placeholders(template))) for name, template in (entry.groups if entry else {}).items()]
    taken = {p for g in groups for p in g.params}
    for kinds in joint_kinds:
        members = [[p for p in spec.parameters if p.kind == k and p.name not in taken] for k in kinds]
        if all(len(m) == 1 for m in members):
            params = tuple(m[0].name for m in members)
            groups.append(Group("+".join(params), ", ".join(f"{{{p}}}" for p in params), params))
            taken.update(params)
    return groups
