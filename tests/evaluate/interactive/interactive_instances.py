"""Instances built by hand from the Food and Beverage seed, for interactive-mode tests:
a gold chain, executed in the simulator, with milestones derived from its trace."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from factory.config import load_settings
from factory.instances.milestones import derive_milestones, withheld_tool_minefields
from factory.records import Call, Chain, Instance, Milestone, Provenance, Ref, Value, WorldSetup
from factory.seeds.library import load_seeds
from factory.seeds.record import Seed
from factory.world.simulator import Simulator, run_chain

SLUG = "food_and_beverage"
WINE_QUERY = (
    "Find the best-selling wine in California on 2025-05-08, find the country that wine comes from, "
    "and give the export quantity of that wine from that country on 2025-05-08."
)
WINE_CHAIN = [
    ("get_top_selling_wine", {"location": "California", "date": "2025-05-08"}, ["data0", "data1"]),
    ("get_product_origin", {"product": "$data0"}, ["data2"]),
    ("get_export_quantity", {"location": "$data2", "date": "2025-05-08", "product": "$data0"}, ["data3"]),
]


@cache
def seeds() -> dict[str, Seed]:
    return load_seeds(load_settings().seeds_dir)


def make_chain(calls: list[tuple[str, dict[str, Any], list[str]]]) -> Chain:
    def arg(v: Any) -> Value | Ref:
        return Ref(ref=v[1:]) if isinstance(v, str) and v.startswith("$") else Value(value=v)

    return Chain(calls=[Call(tool=t, arguments={k: arg(v) for k, v in a.items()}, outputs=o) for t, a, o in calls])


def make_instance(
    calls: list[tuple[str, dict[str, Any], list[str]]],
    query: str,
    *,
    distractors: int = 3,
    withhold: str | None = None,
    world_seed: int = 0,
) -> Instance:
    seed = seeds()[SLUG]
    chain = make_chain(calls)
    world = WorldSetup(toolboxes=[SLUG], seed=world_seed)
    trace = run_chain(chain, seed.specs, Simulator(seeds(), world))
    assert trace.ok, trace
    gold = list(dict.fromkeys(c.tool for c in chain.calls))
    others = sorted(set(seed.specs) - set(gold))
    extra = random.Random(query).sample(others, distractors)
    offered = [t for t in gold if t != withhold] + extra
    milestones = derive_milestones(chain, trace)
    minefields = withheld_tool_minefields(chain, trace, withhold) if withhold else []
    if withhold:  # as the generator builds insufficient-information instances
        milestones = [Milestone(index=0, kind="answer", description="say the task cannot be completed")]
    return Instance(
        domain=seed.domain,
        query=query,
        tools=[seed.specs[t] for t in offered],
        gold_tools=gold,
        withheld_tools=[seed.specs[withhold]] if withhold else [],
        chain=chain,
        trace=trace,
        milestones=milestones,
        minefields=minefields,
        depth=chain.depth(),
        shape=chain.shape(),
        world=world,
        provenance=Provenance(generator="tests", seed=world_seed, attempt=0, factory_version="0"),
    ).with_id()


def wine_instance(**kw: Any) -> Instance:
    return make_instance(WINE_CHAIN, WINE_QUERY, **kw)


def _kinds(seed: Seed) -> tuple[dict[str, list[tuple[str, int]]], Any]:
    """kind → [(tool, output position)], and the seed's world for literal values."""
    producers: dict[str, list[tuple[str, int]]] = {}
    for name, spec in seed.specs.items():
        for k, out in enumerate(spec.returns):
            if out.kind and out.type == "str":
                producers.setdefault(out.kind, []).append((name, k))
    return producers, seed.build_world(0)


def random_instances(n: int, rng_seed: int = 0, max_calls: int = 4) -> list[Instance]:
    """`n` executable chains drawn over kind-compatible producer → consumer edges."""
    seed = seeds()[SLUG]
    producers, world = _kinds(seed)
    rng = random.Random(rng_seed)
    found: list[Instance] = []
    while len(found) < n:
        calls = _draw_chain(seed, producers, world, rng, rng.randint(1, max_calls))
        if calls is None:
            continue
        try:
            found.append(make_instance(calls, f"task {len(found)}: " + "; ".join(c[0] for c in calls)))
        except AssertionError:
            continue
    return found


def _draw_chain(seed: Seed, producers: dict, world: Any, rng: random.Random, length: int) -> list | None:
    calls: list[tuple[str, dict[str, Any], list[str]]] = []
    outputs: list[tuple[str, str]] = []  # (variable, kind)
    names = sorted(seed.specs)
    for _ in range(length):
        kinds = {kind for _, kind in outputs}
        consumers = [t for t in names if any(p.kind in kinds for p in seed.specs[t].parameters)]
        tool = rng.choice(consumers if consumers and rng.random() < 0.8 else names)
        spec = seed.specs[tool]
        args: dict[str, Any] = {}
        for p in spec.parameters:
            feeding = [var for var, kind in outputs if kind == p.kind and p.type == "str"]
            if feeding and rng.random() < 0.8:
                args[p.name] = "$" + rng.choice(feeding)
            elif p.kind in seed.toolbox.values:
                args[p.name] = rng.choice(seed.toolbox.values[p.kind](world))
            elif p.required:
                return None
        start = sum(len(c[2]) for c in calls)
        outs = [f"data{start + k}" for k in range(len(spec.returns))]
        outputs += [(v, o.kind or "") for v, o in zip(outs, spec.returns, strict=True)]
        calls.append((tool, args, outs))
    return calls
