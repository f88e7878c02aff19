"""The graph composer: fills a nesting shape with tools so that every edge is a real
producer → consumer link (an output's kind and type fit a later parameter), and every other
argument is a literal drawn from the world's value generators, so the chain executes."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from factory.records import Call, Chain, Param, Ref, ToolSpec, Value, type_accepts

OPTIONAL_ARGUMENT_RATE = 0.25  # how often an optional parameter is given a literal


@dataclass
class ToolPool:
    """The tools a chain may use, the literal values each kind can take, and the links."""

    specs: dict[str, ToolSpec]
    values: dict[str, dict[str, list[Any]]]  # toolbox → kind → candidate literal values
    links: dict[tuple[str, str], list[tuple[int, str]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
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

    def options(self, spec: ToolSpec, param: Param) -> list[Any]:
        """Literal values a parameter can take: its enum, its kind's values (the tool's own
        toolbox first), or both booleans."""
        if param.enum:
            return list(param.enum)
        kind = param.kind or ""
        own = self.values.get(spec.toolbox or "", {}).get(kind)
        if own:
            return own
        for toolbox in sorted(self.values):
            if self.values[toolbox].get(kind):
                return self.values[toolbox][kind]
        return [True, False] if param.type == "bool" else []

    def fillable(self, spec: ToolSpec, bound: set[str]) -> bool:
        return all(p.name in bound or self.options(spec, p) for p in spec.parameters if p.required)


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
            binding = _match(pool, [tools[i] for i in preds[j]], name, rng)
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


def _build_chain(
    pool: ToolPool, tools: list[str], bindings: list[dict[str, tuple[int, int]]], rng: random.Random
) -> Chain:
    calls: list[Call] = []
    counter = 0
    for name, binding in zip(tools, bindings, strict=True):
        spec = pool.specs[name]
        arguments: dict[str, Any] = {}
        for param in spec.parameters:
            if param.name in binding:
                producer, out_index = binding[param.name]
                arguments[param.name] = Ref(ref=calls[producer].outputs[out_index])
                continue
            if not param.required and rng.random() >= OPTIONAL_ARGUMENT_RATE:
                continue
            options = pool.options(spec, param)
            if options:
                arguments[param.name] = Value(value=rng.choice(options))
        outputs = [f"data{counter + k}" for k in range(len(spec.returns))]
        counter += len(outputs)
        calls.append(Call(tool=name, arguments=arguments, outputs=outputs))
    return Chain(calls=calls)
