"""The graph composer: fills a nesting shape with tools so that every edge is a real
producer → consumer link (an output's kind and type fit a later parameter), and every other
argument is a literal drawn from the world's value generators, so the chain executes."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from factory.records import Call, Chain, Param, Ref, ToolSpec, Value, type_accepts, value_matches_type

OPTIONAL_ARGUMENT_RATE = 0.25  # how often an optional parameter is given a literal


@dataclass
class ToolPool:
    """The tools a chain may use, the literal values each kind can take, and the links."""

    specs: dict[str, ToolSpec]
    values: dict[str, dict[str, list[Any]]]  # toolbox → kind → candidate literal values
    joint: dict[str, dict[tuple[str, ...], list[tuple[Any, ...]]]] = field(default_factory=dict)  # toolbox → kinds → tuples
    links: dict[tuple[str, str], list[tuple[int, str]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._options: dict[tuple[str | None, str | None, str], list[Any]] = {}
        for a in self.specs.values():
            for b in self.specs.values():
                if a.name == b.name:
                    continue
                pairs = [
                    (k, p.name)
                    for k, out in enumerate(a.returns)
                    for p in b.parameters
                    if out.kind and out.kind == p.kind and type_accepts(p.type, out.type)
                ]
                if pairs:
                    self.links[(a.name, b.name)] = pairs
        self.feeds = {name: any(a == name for a, _ in self.links) for name in self.specs}
        self.groups = sorted({kinds for by_toolbox in self.joint.values() for kinds in by_toolbox})

    def options(self, spec: ToolSpec, param: Param) -> list[Any]:
        """Literal values a parameter can take: its enum, its kind's values of the right type
        (the tool's own toolbox first; single values become one-item lists for a list
        parameter), or both booleans."""
        if param.enum:
            return list(param.enum)
        key = (spec.toolbox, param.kind, param.type)
        if key not in self._options:
            toolboxes = [spec.toolbox or ""] + sorted(t for t in self.values if t != spec.toolbox)
            found = (_fitting(self.values.get(t, {}).get(param.kind or "") or [], param.type) for t in toolboxes)
            self._options[key] = next((f for f in found if f), [True, False] if param.type == "bool" else [])
        return self._options[key]

    def fillable(self, spec: ToolSpec, bound: set[str]) -> bool:
        return all(p.name in bound or self.options(spec, p) for p in spec.parameters if p.required)


def _fitting(values: list[Any], type_: str) -> list[Any]:
    fitting = [v for v in values if value_matches_type(v, type_)]
    if not fitting and type_.startswith("list"):
        fitting = [[v] for v in values if value_matches_type([v], type_)]
    return fitting


def _match(pool: ToolPool, preds: list[str], consumer: str, rng: random.Random) -> dict[str, tuple[int, int]] | None:
    """Bind each predecessor (by position in `preds`) to a distinct parameter of `consumer`:
    param → (predecessor position, output index), or None when impossible."""
    options = []
    for producer in preds:
        links = list(pool.links.get((producer, consumer), []))
        if not links:
            return None
        rng.shuffle(links)
        options.append(links)

    def assign(k: int, used: dict[str, tuple[int, int]]) -> dict[str, tuple[int, int]] | None:
        if k == len(options):
            return dict(used)
        for out_index, param in options[k]:
            if param not in used:
                used[param] = (k, out_index)
                found = assign(k + 1, used)
                if found is not None:
                    return found
                del used[param]
        return None

    return assign(0, {})


def _complete_groups(pool: ToolPool, binding: dict[str, tuple[int, int]], preds: list[str],
                     consumer: str) -> dict[str, tuple[int, int]] | None:
    """Keep values that belong together coherent: when a parameter of a joint kind group
    (latitude, longitude) is nested, its partners come from the same producing call; None
    when that producer cannot supply them."""
    spec = pool.specs[consumer]
    by_kind = {p.kind: p.name for p in spec.parameters if p.kind}
    extended = dict(binding)
    for kinds in pool.groups:
        if not all(k in by_kind for k in kinds):
            continue
        members = [by_kind[k] for k in kinds]
        sources = {extended[m][0] for m in members if m in extended}
        if not sources:
            continue
        if len(sources) > 1:
            return None
        (source,) = sources
        outputs = pool.specs[preds[source]].returns
        for kind, member in zip(kinds, members, strict=False):
            if member in extended:
                continue
            index = next((i for i, out in enumerate(outputs) if out.kind == kind
                          and type_accepts(spec.param(member).type, out.type)), None)
            if index is None:
                return None
            extended[member] = (source, index)
    return extended


def compose(
    pool: ToolPool,
    n_calls: int,
    edges: list[tuple[int, int]],
    rng: random.Random,
    *,
    allowed: Callable[[int, str], bool] | None = None,
    accept: Callable[[list[str]], bool] | None = None,
    budget: int = 3000,
) -> Chain | None:
    """A chain of `n_calls` distinct tools with exactly the given dependency edges, or None
    when the pool cannot fill the shape within the search budget."""
    preds = {j: sorted(i for i, jj in edges if jj == j) for j in range(n_calls)}
    has_succ = {i: any(a == i for a, _ in edges) for i in range(n_calls)}
    names = sorted(pool.specs)
    tools: list[str] = []
    bindings: list[dict[str, tuple[int, int]]] = []
    spent = 0

    def extend(j: int) -> bool:
        nonlocal spent
        if j == n_calls:
            return accept is None or accept(tools)
        order = names[:]
        rng.shuffle(order)
        for name in order:
            spent += 1
            if spent > budget:
                return False
            if name in tools or (has_succ[j] and not pool.feeds[name]) or (allowed and not allowed(j, name)):
                continue
            producers = [tools[i] for i in preds[j]]
            binding = _match(pool, producers, name, rng)
            binding = _complete_groups(pool, binding, producers, name) if binding is not None else None
            if binding is None or not pool.fillable(pool.specs[name], set(binding)):
                continue
            tools.append(name)
            bindings.append({p: (preds[j][k], out) for p, (k, out) in binding.items()})
            if extend(j + 1):
                return True
            tools.pop()
            bindings.pop()
        return False

    if not extend(0):
        return None
    return _build_chain(pool, tools, bindings, rng)


def _joint_literals(pool: ToolPool, spec: ToolSpec, params: list[Param], rng: random.Random) -> dict[str, Any]:
    """Values for literal parameters whose kinds a joint generator covers together (a
    latitude with its longitude), drawn as one tuple; the tool's own toolbox first."""
    by_kind: dict[str, list[Param]] = {}
    for p in params:
        if p.kind:
            by_kind.setdefault(p.kind, []).append(p)
    chosen: dict[str, Any] = {}
    toolboxes = [spec.toolbox or ""] + sorted(t for t in pool.joint if t != spec.toolbox)
    for toolbox in toolboxes:
        for kinds, tuples in sorted(pool.joint.get(toolbox, {}).items()):
            slots = [by_kind.get(k, []) for k in kinds]
            if tuples and all(len(s) == 1 and s[0].name not in chosen for s in slots):
                for (param,), value in zip(slots, rng.choice(tuples), strict=True):
                    chosen[param.name] = value
    return chosen


def _build_chain(
    pool: ToolPool, tools: list[str], bindings: list[dict[str, tuple[int, int]]], rng: random.Random
) -> Chain:
    calls: list[Call] = []
    counter = 0
    for name, binding in zip(tools, bindings, strict=True):
        spec = pool.specs[name]
        literal = [p for p in spec.parameters if p.name not in binding
                   and (p.required or rng.random() < OPTIONAL_ARGUMENT_RATE)]
        joint = _joint_literals(pool, spec, literal, rng)
        arguments: dict[str, Any] = {}
        for param in spec.parameters:
            if param.name in binding:
                producer, out_index = binding[param.name]
                arguments[param.name] = Ref(ref=calls[producer].outputs[out_index])
            elif param.name in joint:
                arguments[param.name] = Value(value=joint[param.name])
            elif param in literal and (options := pool.options(spec, param)):
                arguments[param.name] = Value(value=rng.choice(options))
        outputs = [f"data{counter + k}" for k in range(len(spec.returns))]
        counter += len(outputs)
        calls.append(Call(tool=name, arguments=arguments, outputs=outputs))
    return Chain(calls=calls)
