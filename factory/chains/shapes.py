"""Nesting shapes: the catalogue of call DAGs the composer can target, their families, and
the default mix.

A shape is the call count plus the dependency edges over call positions, written as in
`factory.records.shape_of` ("3:1>2,2>3"). Edges always point forward (i < j), so call order
is a topological order.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable
from functools import cache
from itertools import combinations
from pathlib import Path

from factory.errors import ConfigError
from factory.records import parse_shape, shape_of

MAX_CALLS = 5
FAMILIES = ("single", "independent", "chain", "fan-out", "fan-in", "diamond", "dag", "mixed")

# The default mix follows the shapes of the NesTools test set (nestools_shapes.json, computed
# from the reference data; tests/chains/test_shapes.py recomputes it). Outside those shapes
# (a depth or family they do not reach) a depth is drawn by DEPTH_WEIGHTS, then a call count
# by CALL_WEIGHTS, then a shape uniformly.
DEPTH_WEIGHTS = {1: 0.1, 2: 0.3, 3: 0.42, 4: 0.12, 5: 0.06}
CALL_WEIGHTS = {1: 0.25, 2: 0.45, 3: 1.0, 4: 0.4, 5: 0.15}
SHAPES_FILE = Path(__file__).with_name("nestools_shapes.json")
# How far a shape's weight may move with how far its share of the kept instances is from
# NesTools': a shape kept at half its share is drawn 1.5 times as often (at most 1 + CATCH_UP).
CATCH_UP = 0.6


@cache
def nestools_shares() -> dict[str, float]:
    """Share of each nesting shape in the NesTools test set."""
    counts = json.loads(SHAPES_FILE.read_text())["shapes"]
    total = sum(counts.values())
    return {shape: count / total for shape, count in counts.items()}


def common_shapes(top: int = 13) -> tuple[str, ...]:
    """The shapes NesTools uses most (the 13 it uses at least five times)."""
    return tuple(sorted(nestools_shares(), key=lambda s: -nestools_shares()[s])[:top])


def depth_of(n: int, edges: list[tuple[int, int]]) -> int:
    import networkx as nx  # here: scoring reads families (below), never depths (networkx takes 60 ms to load)

    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    g.add_edges_from(edges)
    return nx.dag_longest_path_length(g) + 1 if n else 0


def family_of(n: int, edges: list[tuple[int, int]]) -> str:
    if not edges:
        return "single" if n == 1 else "independent"
    # The graph of calls 0..n-1 (and any node an edge names) with each distinct edge once, as a
    # networkx DiGraph holds it, read in plain Python: a report names the family of every shape.
    nodes = dict.fromkeys([*range(n), *(v for edge in edges for v in edge)])
    distinct = set(edges)
    if len(_weak_components(nodes, distinct)) > 1:
        return "mixed"
    ins = [sum(1 for _, b in distinct if b == v) for v in nodes]
    outs = [sum(1 for a, _ in distinct if a == v) for v in nodes]
    if max(ins) <= 1 and max(outs) <= 1:
        return "chain"
    if sum(1 for d in ins if d == 0) == 1 and max(ins) <= 1 and n >= 3 and outs.count(0) == n - 1:
        return "fan-out"
    if outs.count(0) == 1 and ins.count(0) == n - 1 and n >= 3:
        return "fan-in"
    if n == 4 and sorted(edges) == [(0, 1), (0, 2), (1, 3), (2, 3)]:
        return "diamond"
    return "dag"


def _weak_components(nodes: Iterable[int], edges: set[tuple[int, int]]) -> set[int]:
    """The weakly connected components of a graph, each named by one of its nodes."""
    root = {v: v for v in nodes}

    def find(v: int) -> int:
        while root[v] != v:
            v = root[v]
        return v

    for a, b in edges:
        root[find(a)] = find(b)
    return {find(v) for v in root}


@cache
def catalogue() -> tuple[tuple[str, int, int, str], ...]:
    """Every shape of 1..MAX_CALLS calls: (shape, calls, depth, family)."""
    rows = []
    for n in range(1, MAX_CALLS + 1):
        pairs = list(combinations(range(n), 2))
        for mask in range(1 << len(pairs)):
            edges = [p for bit, p in enumerate(pairs) if mask >> bit & 1]
            rows.append((shape_of(n, edges), n, depth_of(n, edges), family_of(n, edges)))
    return tuple(rows)


def validate_shape_request(shape: str | None) -> None:
    """Fail early on a --shape that is neither a family nor a well-formed shape string."""
    if shape is None or shape in FAMILIES:
        return
    try:
        n, edges = parse_shape(shape)
    except ValueError:
        n, edges = 0, []
    if not 1 <= n <= MAX_CALLS or any(not 0 <= i < j < n for i, j in edges):
        raise ConfigError(
            f"--shape {shape!r} is neither a family ({', '.join(FAMILIES)}) nor a shape like '3:1>2,2>3' "
            f"(1-{MAX_CALLS} calls, edges i>j with i < j)"
        )


def candidates(min_depth: int, max_depth: int, shape: str | None) -> list[tuple[str, int, int]]:
    """(shape, calls, depth) rows allowed by the depth bounds and the --shape request."""
    rows = [row for row in catalogue() if min_depth <= row[2] <= max_depth]
    if shape in FAMILIES:
        rows = [row for row in rows if row[3] == shape]
    elif shape is not None:
        exact = shape_of(*parse_shape(shape))
        rows = [row for row in rows if row[0] == exact]
    return [(s, n, d) for s, n, d, _ in rows]


def sample_shape(rng: random.Random, rows: list[tuple[str, int, int]], kept: Counter | None = None,
                 run_size: float = 0.0) -> str:
    """Draw a shape among `rows`: by its NesTools share when NesTools uses any of them;
    otherwise a depth by DEPTH_WEIGHTS, then a call count by CALL_WEIGHTS, then a shape. Given
    the shapes a run has `kept` of `run_size` instances, a shape behind its share is drawn
    more and one ahead of it less: some shapes are rejected more often than others, and the
    kept mix still follows NesTools'."""
    shares = nestools_shares()
    known = sorted(s for s, _, _ in rows if s in shares)
    if known:
        total = sum(shares[s] for s in known)
        weights = [shares[s] / total for s in known]
        if kept is not None and run_size >= 1:
            # as far above its share as it is behind it, within CATCH_UP of it
            weights = [w * min(max(2 - kept[s] / (w * run_size), 1 - CATCH_UP), 1 + CATCH_UP)
                       for s, w in zip(known, weights, strict=True)]
        return rng.choices(known, weights=weights)[0]
    depths = sorted({d for _, _, d in rows})
    depth = rng.choices(depths, weights=[DEPTH_WEIGHTS[d] for d in depths])[0]
    counts = sorted({n for _, n, d in rows if d == depth})
    calls = rng.choices(counts, weights=[CALL_WEIGHTS[n] for n in counts])[0]
    return rng.choice([s for s, n, d in rows if d == depth and n == calls])
