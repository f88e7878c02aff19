"""Detours a composer can see before anything runs: a call whose consumed outputs are all of
kinds a call it depends on already returned (the coordinates and country of the nearest city,
geocoded again), so that once executed it finds only what is known without it. The
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


def re_derives(pool: ToolPool, tools: list[str], bindings: list[Binding]) -> bool:
    """Whether some call's consumed outputs are all of kinds (and roles) that one of the calls
    feeding it, directly or not, returns too: the same things, found again."""
    consumed: dict[int, set[int]] = {}
    for binding in bindings:
        for producer, out in binding.values():
            consumed.setdefault(producer, set()).add(out)
    for j, outs in consumed.items():
        returns = pool.specs[tools[j]].returns
        wanted = {(returns[k].kind, returns[k].role) for k in outs}
        if any(kind is None for kind, _ in wanted):
            continue  # kinds say nothing about what a model-written tool returns
        for i in _ancestors(bindings, j):
            if wanted <= {(o.kind, o.role) for o in pool.specs[tools[i]].returns}:
                return True
    return False
