"""Milestone matching: the exact matcher against exhaustive search, and against the plain DP.

Three parts, each printing its figures:
1. Agreement: 2,000 seeded small cases (random DAGs from antichains to dense orders, with
   steps shared between milestones or not); `best_mapping`, the plain dynamic programme
   (`ordered_mapping` on the whole problem) and `exhaustive_mapping` must find the same best
   total, and the mapping must respect the order.
2. Large ordered cases: a random milestone DAG (10+ call milestones and the final answer) and
   an agent trajectory of 60+ tool calls: every gold call is attempted two or three times
   with some arguments wrong, mixed with calls of other tools, in a shuffled order that
   mostly follows the DAG; times of `best_mapping` and exhaustive search.
3. Wide cases: 16 unordered call milestones of a few shared tools (parallel look-ups) and the
   answer, over 72 steps; times of `best_mapping` and the plain DP, whose states grow
   exponentially with that width.

    python benchmarks/milestone_matching.py [--agreement 2000] [--cases 6] [--repeats 3] [--milestones 12] [--steps 72] [--wide 16]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from factory.evaluate.matching import (
    Step,
    ancestors,
    best_mapping,
    exhaustive_mapping,
    milestone_edges,
    ordered_mapping,
    similarity_matrix,
)
from factory.records import Expected, Milestone


def random_dag_milestones(rng: random.Random, n: int, parents: float, tools: int | None = None) -> list[Milestone]:
    """n call milestones, each after about `parents` earlier ones, then the answer; with
    `tools`, the calls share that many tools (parallel calls of one tool)."""
    milestones = []
    for i in range(n):
        after = sorted(j for j in range(i) if rng.random() < parents / max(i, 1))
        args = {f"a{k}": Expected(value=rng.randint(0, 9)) for k in range(rng.randint(1, 3))}
        tool = f"tool_{i if tools is None else i % tools}"
        milestones.append(Milestone(index=i, kind="call", description="", tool=tool, arguments=args, after=after))
    sinks = [i for i in range(n) if all(i not in m.after for m in milestones)]
    milestones.append(Milestone(index=n, kind="answer", description="", answer={"x": 4242}, after=sinks))
    return milestones


def attempt(rng: random.Random, m: Milestone) -> Step:
    """A call of the milestone's tool with each argument right with probability 0.7."""
    args = {name: e.value if rng.random() < 0.7 else e.value + 10 for name, e in m.arguments.items()}
    return Step(m.tool or "", args)


def random_trajectory(rng: random.Random, milestones: list[Milestone], steps: int) -> list[Step]:
    calls = [m for m in milestones if m.kind == "call"]
    keyed = []
    for position, m in enumerate(calls):
        for _ in range(rng.choice([2, 3])):
            keyed.append((position + rng.gauss(0, 2.5), attempt(rng, m)))
    while len(keyed) < steps:
        keyed.append((rng.uniform(0, len(calls)), Step(f"other_{rng.randint(0, 30)}", {"a0": 1})))
    return [step for _, step in sorted(keyed, key=lambda item: item[0])]


def small_case(rng: random.Random) -> tuple[list[list[float]], list[tuple[int, int]]]:
    """A random similarity matrix (up to 8 milestones, 12 steps) and DAG: an antichain, a
    sparse, a medium or a dense order; steps either scored by many milestones or by few."""
    n, t = rng.randint(1, 8), rng.randint(0, 12)
    density = rng.choice([0.0, 0.0, 0.1, 0.3, 0.6, 0.9])
    order = list(range(n))
    rng.shuffle(order)  # milestone positions need not be topological
    edges = [(order[u], order[v]) for v in range(n) for u in range(v) if rng.random() < density]
    zero = rng.choice([0.3, 0.6, 0.85])  # share of (milestone, step) pairs that cannot match
    values = [0.25, 1 / 3, 0.5, 2 / 3, 1.0, 1.0]
    weights = [[0.0 if rng.random() < zero else rng.choice(values) for _ in range(t)] for _ in range(n)]
    return weights, edges


def respects_order(steps: dict[int, int], edges: list[tuple[int, int]], n: int) -> bool:
    up = ancestors(n, edges)
    return len(set(steps.values())) == len(steps) and all(
        steps[u] < steps[v] for u in steps for v in steps if u != v and up[v] >> u & 1)


def agreement(cases: int, seed: int) -> None:
    rng = random.Random(seed)
    unordered = 0
    for case in range(cases):
        weights, edges = small_case(rng)
        n = len(weights)
        fast = best_mapping(weights, edges)
        dp = ordered_mapping(weights, ancestors(n, edges)) if n else fast
        slow = exhaustive_mapping(weights, edges)
        if abs(fast.total - slow.total) > 1e-9 or abs(dp.total - slow.total) > 1e-9:
            raise SystemExit(f"case {case}: matcher {fast.total}, DP {dp.total}, exhaustive search {slow.total}")
        if not respects_order(fast.steps, edges, n):
            raise SystemExit(f"case {case}: the mapping {fast.steps} breaks the order {edges}")
        unordered += not edges
    print(f"agreement: same best total as exhaustive search and the plain DP in all {cases} cases "
          f"({unordered} without any order), every mapping respecting the order")


def timed(fn, *args, repeats: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn(*args)
        times.append(time.perf_counter() - start)
    return min(times), result


def large_ordered(args: argparse.Namespace, rng: random.Random) -> None:
    ratios = []
    print(f"{'case':>4} {'milestones':>10} {'edges':>5} {'steps':>5} {'score':>7} {'fast ms':>9} {'brute ms':>10} {'ratio':>8}")
    for case in range(args.cases):
        parents = (0.5, 1.0, 2.0)[case % 3]  # wide, chain-like and dense DAGs in turn
        milestones = random_dag_milestones(rng, args.milestones, parents)
        steps = random_trajectory(rng, milestones, args.steps)
        weights = similarity_matrix(milestones, steps, "the answer is 4242")
        edges = milestone_edges(milestones)
        fast_s, fast = timed(best_mapping, weights, edges, repeats=args.repeats)
        slow_s, slow = timed(exhaustive_mapping, weights, edges, repeats=args.repeats)
        if abs(fast.total - slow.total) > 1e-9:
            raise SystemExit(f"case {case}: matcher found {fast.total}, exhaustive search {slow.total}")
        ratios.append(slow_s / fast_s)
        score = fast.total / len(milestones)
        print(f"{case:>4} {len(milestones):>10} {len(edges):>5} {len(steps):>5} {score:>7.3f} "
              f"{fast_s * 1e3:>9.2f} {slow_s * 1e3:>10.1f} {ratios[-1]:>7.0f}x")
    print(f"same best score in all {args.cases} cases; exhaustive / matcher time (best of {args.repeats}): "
          f"median {statistics.median(ratios):.0f}x, min {min(ratios):.0f}x, max {max(ratios):.0f}x")


def wide(args: argparse.Namespace, rng: random.Random) -> None:
    fast_times, ratios = [], []
    print(f"{'case':>4} {'milestones':>10} {'tools':>5} {'steps':>5} {'score':>7} {'fast ms':>9} {'DP ms':>10} {'ratio':>8}")
    for case in range(args.cases):
        tools = (1, 2, 4)[case % 3]
        milestones = random_dag_milestones(rng, args.wide, 0.0, tools=tools)
        steps = random_trajectory(rng, milestones, args.steps)
        weights = similarity_matrix(milestones, steps, "the answer is 4242")
        edges = milestone_edges(milestones)
        fast_s, fast = timed(best_mapping, weights, edges, repeats=args.repeats)
        slow_s, slow = timed(ordered_mapping, weights, ancestors(len(weights), edges), repeats=1)
        if abs(fast.total - slow.total) > 1e-9:
            raise SystemExit(f"wide case {case}: matcher found {fast.total}, the DP {slow.total}")
        fast_times.append(fast_s)
        ratios.append(slow_s / fast_s)
        print(f"{case:>4} {len(milestones):>10} {tools:>5} {len(steps):>5} {fast.total / len(milestones):>7.3f} "
              f"{fast_s * 1e3:>9.2f} {slow_s * 1e3:>10.1f} {ratios[-1]:>7.0f}x")
    print(f"{args.wide} unordered milestones: matcher at most {max(fast_times) * 1e3:.2f} ms (best of {args.repeats}), "
          f"DP / matcher time median {statistics.median(ratios):.0f}x, min {min(ratios):.0f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agreement", type=int, default=2000, help="small cases checked against exhaustive search")
    parser.add_argument("--cases", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--milestones", type=int, default=12, help="call milestones per DAG (plus the answer)")
    parser.add_argument("--steps", type=int, default=72)
    parser.add_argument("--wide", type=int, default=16, help="unordered call milestones of the wide cases")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    best_mapping([[1.0, 0.5], [1.0, 0.0]], [])  # the first assignment loads scipy: timed apart
    print(f"first assignment in a process (loads scipy.optimize): {(time.perf_counter() - start) * 1e3:.0f} ms")
    agreement(args.agreement, args.seed)
    rng = random.Random(args.seed)
    large_ordered(args, rng)
    wide(args, rng)


if __name__ == "__main__":
    main()
