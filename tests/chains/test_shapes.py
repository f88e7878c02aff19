import json
import random
from collections import Counter
from pathlib import Path

import pytest

from factory.chains.shapes import (
    FAMILIES,
    candidates,
    catalogue,
    common_shapes,
    family_of,
    nestools_shares,
    sample_shape,
    validate_shape_request,
)
from factory.errors import ConfigError
from factory.records import parse_shape, shape_of

NESTOOLS = Path(__file__).parents[1] / "data" / "nestools" / "test_data.jsonl"


def nestools_shape(row):
    owner = {out: i for i, call in enumerate(row["call"]) for out in call["responses"]}
    edges = set()
    for j, call in enumerate(row["call"]):
        for value in call["parameters"].values():
            for v in value if isinstance(value, list) else [value]:
                if isinstance(v, str) and v in owner:
                    edges.add((owner[v], j))
    return shape_of(len(row["call"]), edges)


def test_the_shipped_shape_mix_is_the_nestools_test_set():
    counts = Counter(nestools_shape(json.loads(line)) for line in NESTOOLS.read_text().splitlines())
    total = sum(counts.values())
    assert nestools_shares() == {s: c / total for s, c in counts.items()}
    frequent = {s for s, c in counts.items() if c >= 5}
    assert len(frequent) == 13 and frequent == set(common_shapes())


def test_catalogue_holds_every_forward_dag_up_to_five_calls():
    rows = catalogue()
    assert len(rows) == 1 + 2 + 8 + 64 + 1024
    assert all(depth <= calls for _, calls, depth, _ in rows)


@pytest.mark.parametrize(
    "shape, family",
    [("1:", "single"), ("3:", "independent"), ("3:1>2,2>3", "chain"), ("3:1>2,1>3", "fan-out"),
     ("3:1>3,2>3", "fan-in"), ("4:1>2,1>3,2>4,3>4", "diamond"), ("3:1>2", "mixed"), ("3:1>2,1>3,2>3", "dag")],
)
def test_families(shape, family):
    assert family_of(*parse_shape(shape)) == family


def _networkx_family(n, edges):
    """family_of as it read the shape's networkx graph before it was read in plain Python."""
    import networkx as nx

    if not edges:
        return "single" if n == 1 else "independent"
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    g.add_edges_from(edges)
    if nx.number_weakly_connected_components(g) > 1:
        return "mixed"
    ins, outs = [g.in_degree(v) for v in g], [g.out_degree(v) for v in g]
    if max(ins) <= 1 and max(outs) <= 1:
        return "chain"
    if sum(1 for d in ins if d == 0) == 1 and max(ins) <= 1 and n >= 3 and outs.count(0) == n - 1:
        return "fan-out"
    if outs.count(0) == 1 and ins.count(0) == n - 1 and n >= 3:
        return "fan-in"
    if n == 4 and sorted(edges) == [(0, 1), (0, 2), (1, 3), (2, 3)]:
        return "diamond"
    return "dag"


def test_families_are_those_of_the_networkx_graph_for_every_shape():
    shapes = [parse_shape(shape) for shape, *_ in catalogue()]
    odd = [(3, [(0, 1), (0, 1), (1, 2)]), (2, [(0, 4)]), (3, [(1, 1), (0, 2)]), (2, [(1, 0)]), (6, [(0, 1), (2, 3), (4, 5)])]
    families = Counter(family_of(n, edges) for n, edges in shapes)
    assert set(families) == set(FAMILIES)
    assert all(family_of(n, edges) == _networkx_family(n, edges) for n, edges in shapes + odd)


def test_requests_filter_candidates():
    assert {d for _, _, d in candidates(3, 3, None)} == {3}
    assert all(family_of(*parse_shape(s)) == "diamond" for s, _, _ in candidates(1, 5, "diamond"))
    assert [s for s, _, _ in candidates(1, 5, "3:1>2,2>3")] == ["3:1>2,2>3"]
    assert candidates(1, 2, "3:1>2,2>3") == []  # depth 3 is out of bounds


def test_default_mix_follows_nestools():
    rng = random.Random(0)
    drawn = Counter(sample_shape(rng, candidates(1, 5, None)) for _ in range(4000))
    shares = nestools_shares()
    tv = 0.5 * sum(abs(drawn[s] / 4000 - shares.get(s, 0.0)) for s in set(drawn) | set(shares) if s.split(":")[0] != "6")
    assert tv < 0.05
    assert set(common_shapes()) <= set(drawn)


def test_bounds_outside_nestools_shapes_still_draw_every_allowed_depth_and_family():
    rng = random.Random(1)
    deep = {sample_shape(rng, candidates(5, 5, None)) for _ in range(200)}
    assert deep == {"5:1>2,2>3,3>4,4>5"} or all(s.startswith("5:") for s in deep)
    diamonds = {sample_shape(rng, candidates(1, 5, "diamond")) for _ in range(50)}
    assert all(family_of(*parse_shape(s)) == "diamond" for s in diamonds)


@pytest.mark.parametrize("bad", ["spiral", "3:2>1", "9:", "3:1>4", "x:y"])
def test_bad_shape_requests_are_config_errors(bad):
    with pytest.raises(ConfigError):
        validate_shape_request(bad)


def test_a_shape_behind_its_share_of_the_run_is_drawn_more():
    """Some shapes are rejected more than others; the draw leans towards those the run has kept
    too few of, within CATCH_UP, so the kept mix stays near NesTools'."""
    import random
    from collections import Counter

    from factory.chains.shapes import CATCH_UP, candidates, nestools_shares, sample_shape

    rows = candidates(1, 5, None)
    shares = nestools_shares()
    top = max(shares, key=shares.get)
    plain = Counter(sample_shape(random.Random(k), rows) for k in range(3000))
    behind = Counter(sample_shape(random.Random(k), rows, Counter(), 100.0) for k in range(3000))  # none kept yet
    ahead = Counter(sample_shape(random.Random(k), rows, Counter({top: 100}), 100.0) for k in range(3000))
    assert behind[top] == plain[top]  # every shape equally behind: the NesTools mix
    assert ahead[top] < plain[top] * (1 - CATCH_UP / 2)  # kept all 100: drawn far less
    assert sample_shape(random.Random(1), rows, Counter(), 0.0) == sample_shape(random.Random(1), rows)
