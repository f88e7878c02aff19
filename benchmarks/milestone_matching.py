"""Milestone matching: the exact DP against exhaustive search, on large trajectories.

Each case is a random milestone DAG (10+ call milestones and the final answer) and an
agent trajectory of 60+ tool calls: every gold call is attempted two or three times with
some arguments wrong, mixed with calls of other tools, in a shuffled order that mostly
follows the DAG. Both searches get the same similarity matrix; the script checks they find
the same best total and prints their times and the speed ratio, over several repetitions.

    python benchmarks/milestone_matching.py [--cases 6] [--repeats 3] [--milestones 12] [--steps 72]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from factory.evaluate.matching import (
    Step,
    best_mapping,
    exhaustive_mapping,
    milestone_edges,
    similarity_matrix,
)
from factory.records import Expected, Milestone


def random_dag_milestones(rng: random.Random, n: int, parents: float) -> list[Milestone]:
    """n call milestones, each after about `parents` earlier ones, then the answer."""
    milestones = []
    for i in range(n):
        after = sorted(j for j in range(i) if rng.random() < parents / max(i, 1))
        args = {f"a{k}": Expected(value=rng.randint(0, 9)) for k in range(rng.randint(1, 3))}
        milestones.append(Milestone(index=i, kind="call", description="", tool=f"tool_{i}", arguments=args, after=after))
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


def timed(fn, *args, repeats: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn(*args)
        times.append(time.perf_counter() - start)
    return min(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--milestones", type=int, default=12, help="call milestones per DAG (plus the answer)")
    parser.add_argument("--steps", type=int, default=72)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    ratios = []
    print(f"{'case':>4} {'milestones':>10} {'edges':>5} {'steps':>5} {'score':>7} {'dp ms':>9} {'brute ms':>10} {'ratio':>8}")
    for case in range(args.cases):
        parents = (0.5, 1.0, 2.0)[case % 3]  # wide, chain-like and dense DAGs in turn
        milestones = random_dag_milestones(rng, args.milestones, parents)
        steps = random_trajectory(rng, milestones, args.steps)
        weights = similarity_matrix(milestones, steps, "the answer is 4242")
        edges = milestone_edges(milestones)
        fast_s, fast = timed(best_mapping, weights, edges, repeats=args.repeats)
        slow_s, slow = timed(exhaustive_mapping, weights, edges, repeats=args.repeats)
        if abs(fast.total - slow.total) > 1e-9:
            raise SystemExit(f"case {case}: DP found {fast.total}, exhaustive search {slow.total}")
        ratios.append(slow_s / fast_s)
        score = fast.total / len(milestones)
        print(f"{case:>4} {len(milestones):>10} {len(edges):>5} {len(steps):>5} {score:>7.3f} "
              f"{fast_s * 1e3:>9.2f} {slow_s * 1e3:>10.1f} {ratios[-1]:>7.0f}x")
    print(f"same best score in all {args.cases} cases; exhaustive / DP time (best of {args.repeats}): "
          f"median {statistics.median(ratios):.0f}x, min {min(ratios):.0f}x, max {max(ratios):.0f}x")


if __name__ == "__main__":
    main()
