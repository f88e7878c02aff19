"""What a seed's goals let the composer build, for tests of goal declarations."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

from factory.chains.composer import compose
from factory.chains.pool import links_to, pool_of
from factory.config import resource_dir
from factory.records import parse_shape
from factory.seeds.library import load_seeds

TRIES = 20  # tool draws per goal and shape: enough to find any pair the composer would take


@cache
def _library() -> dict:
    return load_seeds(Path(resource_dir("seeds")))


def requests_without_the_seed(slug: str) -> dict[str, set[tuple[str, ...]]]:
    """Per goal of the seed, the two-call chains its borrowed tools (another seed's) make on
    their own. A goal that borrows a forecast for the city of my next event must not yield a
    request about the forecast alone, filed under the calendar: such a goal borrows tools
    that neither feed each other nor take the same thing from the person."""
    seeds = _library()
    seed = seeds[slug]
    owner = {name: s.slug for s in seeds.values() for name in s.specs}
    found: dict[str, set[tuple[str, ...]]] = {}
    for goal in seed.toolbox.goals.values():
        borrowed = frozenset(t for t in goal.tools if owner[t] != slug)
        if len(borrowed) < 2:
            continue
        pool = pool_of(seeds, sorted({owner[t] for t in borrowed}), 0, tools=borrowed)
        for shape in ("2:", "2:1>2"):
            n, edges = parse_shape(shape)
            for k in range(TRIES):
                chain = compose(pool, n, edges, random.Random(k))
                if chain is not None:
                    found.setdefault(goal.name, set()).add(tuple(c.tool for c in chain.calls))
    return found


def consumers_of(slug: str, tool: str, output: str) -> list[tuple[str, str]]:
    """(goal, consumer) pairs where another tool of one of the seed's goals takes `output` of
    `tool`: what a request of that goal may build on that output."""
    seeds = _library()
    specs = {name: spec for s in seeds.values() for name, spec in s.specs.items()}
    bridges = {s.slug: set(s.toolbox.bridges) for s in seeds.values()}
    producer = specs[tool]
    out = next(o for o in producer.returns if o.name == output)
    return [(goal.name, name) for goal in seeds[slug].toolbox.goals.values() if tool in goal.tools
            for name in goal.tools if name != tool
            if any(links_to(out, p, producer, specs[name], bridges) for p in specs[name].parameters)]
