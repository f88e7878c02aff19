import json
import random
from collections import Counter
from pathlib import Path

import pytest

from factory.chains.shapes import COMMON_SHAPES, FAMILIES, candidates, catalogue, family_of, sample_shape, validate_shape_request
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


def test_common_shapes_are_those_nestools_uses_at_least_five_times():
    counts = Counter(nestools_shape(json.loads(line)) for line in NESTOOLS.read_text().splitlines())
    frequent = {s for s, c in counts.items() if c >= 5}
    assert len(frequent) == 13 and frequent == set(COMMON_SHAPES)


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


def test_requests_filter_candidates():
    assert {d for _, _, d in candidates(3, 3, None)} == {3}
    assert all(family_of(*parse_shape(s)) == "diamond" for s, _, _ in candidates(1, 5, "diamond"))
    assert [s for s, _, _ in candidates(1, 5, "3:1>2,2>3")] == ["3:1>2,2>3"]
    assert candidates(1, 2, "3:1>2,2>3") == []  # depth 3 is out of bounds


def test_default_mix_covers_families_and_depths():
    rng = random.Random(0)
    rows = candidates(1, 5, None)
    drawn = [sample_shape(rng, rows) for _ in range(2000)]
    families = Counter(family_of(*parse_shape(s)) for s in drawn)
    assert set(families) == set(FAMILIES)
    assert set(COMMON_SHAPES) <= set(drawn)
    depth_of = {s: d for s, _, d, _ in catalogue()}
    depths = Counter(depth_of[s] for s in drawn)
    assert set(depths) == {1, 2, 3, 4, 5}
    assert sum(depths[d] for d in (3, 4, 5)) >= 0.4 * len(drawn)


@pytest.mark.parametrize("bad", ["spiral", "3:2>1", "9:", "3:1>4", "x:y"])
def test_bad_shape_requests_are_config_errors(bad):
    with pytest.raises(ConfigError):
        validate_shape_request(bad)
