"""Detours a composer can see before anything runs: a call whose consumed outputs are all of
kinds a call it depends on already returned (the coordinates and country of the nearest city,
geocoded again), so that once executed it finds only what is known without it, or a call
given a city taken only for what people know of it (its country). The
plausibility check's `detour` rule judges the executed values; this spares the composer the
chains that rule would reject for certain."""

from __future__ import annotations

from factory.chains.pool import ToolPool

Binding = dict[str, tuple[int, int]]  # parameter → (producing call, output index)


def _ancestors(bindings: list[Binding], j: int) -> set[int]:
    found: set[int] = set()
    frontier = [producer for producer, _ in bindings[j].values()]
    while frontier:
        i = frontier.pop()
        if i not in found:
            found.add(i)
            frontier += [producer for producer, _ in bindings[i].values()]
    return found


def _consumed(bindings: list[Binding]) -> dict[int, set[int]]:
    """The outputs (by index) of each call that later calls take."""
    consumed: dict[int, set[int]] = {}
    for binding in bindings:
        for producer, out in binding.values():
            consumed.setdefault(producer, set()).add(out)
    return consumed


def re_derives(pool: ToolPool, tools: list[str], bindings: list[Binding]) -> bool:
    """Whether some call's consumed outputs are all of kinds (and roles) that one of the calls
    feeding it, directly or not, returns too: the same things, found again."""
    for j, outs in _consumed(bindings).items():
        returns = pool.specs[tools[j]].returns
        wanted = {(returns[k].kind, returns[k].role) for k in outs}
        if any(kind is None for kind, _ in wanted):
            continue  # kinds say nothing about what a model-written tool returns
        for i in _ancestors(bindings, j):
            if wanted <= {(o.kind, o.role) for o in pool.specs[tools[i]].returns}:
                return True
    return False


def finds_what_people_know(pool: ToolPool, tools: list[str], bindings: list[Binding]) -> bool:
    """Whether some call given only a city is consumed only for what people know of a city (its
    country, policy `common_knowledge`): the check's `detour` rule refuses it once executed."""
    known = set(pool.limits.get("common_knowledge", []))
    for j, outs in _consumed(bindings).items():
        spec = pool.specs[tools[j]]
        given = [p for p in spec.parameters if p.required]
        if given and all(p.kind == "city" for p in given) and all(spec.returns[k].kind in known for k in outs):
            return True
    return False
