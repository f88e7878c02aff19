"""Interactive mode on imported NesTools instances: tools without implementations answered by
the typed mock, the gold chain replayed through the loop."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from factory.evaluate.interactive.agents import reference_agent
from factory.evaluate.interactive.episode import run_interactive

nestools = pytest.importorskip("factory.dataset.nestools")
DATA = Path(__file__).resolve().parents[2] / "data" / "nestools"


@pytest.fixture(scope="module")
def imported():
    rows = [json.loads(line) for line in (DATA / "test_data.jsonl").read_text().splitlines()[:150]]
    ids = {r["test_id"]: r["api_ids"] for r in map(json.loads, (DATA / "test_api_ids.jsonl").read_text().splitlines())}
    return [nestools.nestools_to_instance(row, ids[row["test_id"]]) for row in rows]


def test_oracle_scores_100_on_nestools(imported):
    results = run_interactive(imported, reference_agent("oracle"))
    failed = [(r.instance_id, r.errors) for r in results if r.scores["success"] < 1 or r.scores["milestone_similarity"] < 1]
    assert not failed


def test_noisy_rates_rank_on_nestools(imported):
    means = [
        statistics.mean(r.scores["milestone_similarity"] for r in run_interactive(imported, reference_agent(a)))
        for a in ("noisy:0.1", "noisy:0.3", "noisy:0.5")
    ]
    assert means[0] > means[1] > means[2]


def test_the_mock_answers_the_same_way_every_run(imported):
    first = run_interactive(imported[:20], reference_agent("random"), mock_seed=3)
    again = run_interactive(imported[:20], reference_agent("random"), mock_seed=3)
    assert [r.to_json() for r in first] == [r.to_json() for r in again]
