"""Run metrics with bootstrap intervals, breakdowns, tool ids, and the written report."""

from __future__ import annotations

import json

import numpy as np
import pytest

from factory.evaluate.aggregate import (
    breakdown,
    confidence_intervals,
    interactive_metrics,
    percentile,
    static_breakdown,
    static_metrics,
    tally_matrix,
)
from factory.evaluate.report import read_samples, write_report
from factory.evaluate.tool_ids import derived_tool_ids, identities
from factory.records import SampleResult
from tests.evaluate.static.static_helpers import imported, run, tasks


def interactive_samples():
    return [SampleResult(instance_id=str(i // 2), mode="interactive", agent="t", trial=i % 2,
                         scores={"success": float(i % 3 == 0), "turns": float(2 + i % 4)},
                         categories=["nested"] if i % 2 else ["plain"], depth=1 + i % 3, shape="2:1>2")
            for i in range(60)]


def test_intervals_are_deterministic_and_hold_the_estimate():
    samples = run("noisy:0.3", tasks(200))
    point = static_metrics(samples)
    first = confidence_intervals(samples, "static")
    assert confidence_intervals(samples, "static") == first
    for name, (low, high) in first.items():
        assert low <= point[name] <= high, name
    assert first["average"][1] - first["average"][0] > 0.01


def test_interval_ends_are_numpys_percentiles_to_the_bit():
    rng = np.random.default_rng(1)
    for n in (1, 2, 3, 40, 999, 1000, 1001):
        columns = np.column_stack([rng.random(n), rng.integers(0, 4, n) / 3, np.round(rng.normal(size=n) * 1e6, 2)])
        ordered = np.sort(columns, axis=0)
        for q in (0.0, 2.5, 50.0, 97.5, 100.0):
            assert np.array_equal(percentile(ordered, q), np.percentile(columns, q, axis=0)), (n, q)


def test_breakdown_groups_computed_at_once_equal_each_group_scored_alone():
    from factory.evaluate.report import taxonomy
    from factory.evaluate.static.metrics import NEST_ERRORS, PARAM_ERRORS, TALLIES

    samples = [s for s in run("noisy:0.3", tasks(300)) if s.scores]
    matrix = tally_matrix(samples)
    for key in (lambda s: [str(s.depth)], lambda s: [s.shape], lambda s: s.categories or ["uncategorised"]):
        assert static_breakdown(samples, key, matrix) == breakdown(samples, key, static_metrics)
    partial = samples[:5] + [samples[5].model_copy(update={"scores": {"format": 1.0, "param_type": 2.0}})]
    assert tally_matrix(partial).tolist() == [[s.scores.get(k, 0.0) for k in TALLIES] for s in partial]
    names = PARAM_ERRORS + NEST_ERRORS
    assert taxonomy(partial) == {n: int(sum(s.scores.get(n, 0.0) for s in partial)) for n in names}
    assert taxonomy([]) == dict.fromkeys(names, 0)


def test_the_view_fingerprint_is_the_content_hash_of_each_task_s_view():
    from factory.evaluate.static.tasks import StaticTask, fingerprint
    from factory.records import content_hash, stable_json

    first = tasks(1)[0]
    odd_query = 'Say "hi" \\ then\n\tstop\x01 — é {{tools}} {{query}}'
    odd = [StaticTask(first.instance, first.identity, first.tools[:2], first.names, query, first.gold, template, texts)
           for query, template, texts in [
               (odd_query, 'A "quoted" \\ {{tools}}\n{{query}} and {{tools}} again {{que{{tools}}ry}}', first.texts[:2]),
               ("q", "{{query}} {{tools}}", ['{"api_description": "fills {{query}} in"}', first.texts[0]]),
               ("q", "{{tools}}{{query}}", [])]]
    for chosen in (tasks(30), tasks(30, ("scramble",)), [], odd):
        assert fingerprint(chosen) == content_hash([stable_json([t.test_id, t.prompt, t.gold]) for t in chosen])


def test_interactive_metrics_are_means():
    samples = interactive_samples()
    metrics = interactive_metrics(samples)
    assert metrics["success"] == pytest.approx(20 / 60) and metrics["turns"] == pytest.approx(3.5)
    low, high = confidence_intervals(samples, "interactive")["success"]
    assert low < 20 / 60 < high


def test_breakdowns_group_by_any_key():
    groups = breakdown(interactive_samples(), lambda s: s.categories, interactive_metrics)
    assert groups["nested"]["n"] == 30 and groups["plain"]["success"] == pytest.approx(10 / 30)
    by_depth = breakdown(interactive_samples(), lambda s: [str(s.depth)], interactive_metrics)
    assert list(by_depth) == ["1", "2", "3"]


def test_report_files_round_trip(tmp_path):
    samples = interactive_samples()
    run_info = {"mode": "interactive", "label": "t", "agent": "t", "trials": 2, "dataset": {"path": "x"}, "problems": []}
    results = write_report(tmp_path, samples, run_info)
    assert read_samples(tmp_path) == samples
    assert json.loads((tmp_path / "results.json").read_text())["pass_k"] == results["pass_k"]
    assert list(results["pass_k"]) == ["1", "2"] and results["pass_k"]["2"] <= results["pass_k"]["1"]
    assert "| success |" in (tmp_path / "summary.md").read_text()


def test_derived_tool_ids_are_stable_and_distinct():
    instance = imported(5)[0].instance
    ids = derived_tool_ids(instance)
    assert ids == derived_tool_ids(instance) and len(set(ids.values())) == len(ids)
    assert set(ids) == {t.name for t in instance.tools}


def test_identities_prefer_the_side_file(tmp_path):
    from factory.evaluate.importer import side_record

    items = imported(5)
    (tmp_path / "nestools_api_ids.jsonl").write_text("".join(json.dumps(side_record(i)) + "\n" for i in items[:3]))
    found = identities([i.instance for i in items], tmp_path / "dataset")
    assert [f.test_id for f in found[:3]] == [1, 2, 3] and found[0].tool_ids["scan_isbn"] == 9031
    assert found[3].tool_ids == derived_tool_ids(items[3].instance) and found[3].test_id == 4
