"""`factory evaluate --fresh-split`: the split generated, checked and recorded; refused flags;
and `factory report`'s verdict on whether fresh splits of the same settings are comparable."""

from __future__ import annotations

import json

import pytest

from factory.evaluate.fresh import split_groups
from tests.evaluate.conftest import invoke

FOOD = ["--domain", "Food and Beverage", "-n", 6]


def results_of(path):
    return json.loads((path / "results.json").read_text())


@pytest.mark.slow  # a generation run end to end
def test_the_split_is_generated_checked_and_recorded(tmp_path):
    run = tmp_path / "split"
    result = invoke("evaluate", run, "--fresh-split", 3, *FOOD, "--exclude-from", "nestools", "--agent", "oracle",
                    "--out", tmp_path / "static")
    assert result.exit_code == 0, result.output
    manifest = json.loads((run / "manifest.json").read_text())
    split = results_of(tmp_path / "static")["fresh_split"]
    assert split["seed"] == 3 and split["fingerprint"] == manifest["dataset_fingerprint"] and split["instances"] == 6
    assert split["settings"]["domain"] == "Food and Beverage" and "seed" not in split["settings"]
    assert split["settings"]["generator"] == "offline"
    contamination = split["contamination"]
    assert contamination["references"] == ["nestools"] and contamination["crossed"] == 0
    assert contamination["rejected"] == manifest["reject_reasons"].get("contamination", 0)
    assert contamination["thresholds"] == {"max_ngram": 12, "max_cosine": 0.9}
    (reference,) = contamination["by_reference"]
    assert reference["reference"] == "nestools" and reference["entries"] == 1000 and "matches" not in reference
    assert json.loads((run / "contamination.json").read_text())["crossed"] == 0  # as `factory contamination` writes it
    assert f"fingerprint {split['fingerprint']}" in result.output
    assert "fresh split seed 3" in (tmp_path / "static" / "summary.md").read_text()

    again = invoke("evaluate", run, "--fresh-split", 3, *FOOD, "--exclude-from", "nestools", "--agent", "oracle",
                   "--mode", "interactive", "--out", tmp_path / "interactive")
    assert again.exit_code == 0, again.output
    interactive = results_of(tmp_path / "interactive")
    assert interactive["fresh_split"]["fingerprint"] == split["fingerprint"]  # the complete run is reused
    assert interactive["metrics"]["success"]["value"] == 1.0


@pytest.mark.slow  # a generation run end to end
def test_without_references_nothing_is_claimed(tmp_path):
    result = invoke("evaluate", tmp_path / "split", "--fresh-split", 4, *FOOD, "--agent", "noisy:0.3",
                    "--out", tmp_path / "r")
    assert result.exit_code == 0, result.output
    contamination = results_of(tmp_path / "r")["fresh_split"]["contamination"]
    assert contamination["references"] == [] and contamination["crossed"] is None
    assert "nothing was checked for contamination" in result.output
    assert not (tmp_path / "split" / "contamination.json").exists()


@pytest.mark.parametrize("args, message", [
    (["--agent", "oracle"], "give the dataset to evaluate"),
    (["--fresh-split", 1, "--agent", "genius"], "unknown agent"),
    (["--fresh-split", 1, "--mode", "interactive", "--agent", "request-order"], "static-mode agent"),
    (["--fresh-split", 1, "-n", 0, "--agent", "oracle"], "-n must be at least 1"),
    (["--fresh-split", 1, "--predictions", "x.jsonl"], "--predictions answer a dataset that already exists"),
    (["--fresh-split", 1], "give exactly one of --agent"),
    (["--fresh-split", 1, "--agent", "oracle", "--trials", 0], "at least 1"),
])
def test_bad_flags_are_refused_before_anything_is_generated(tmp_path, args, message, monkeypatch):
    monkeypatch.delenv("FACTORY_MODEL", raising=False)
    monkeypatch.setenv("FACTORY_OUTPUT_DIR", str(tmp_path / "generated"))
    result = invoke("evaluate", *args)
    assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output
    assert not (tmp_path / "generated").exists()


def test_split_options_without_fresh_split_are_refused(imported):
    for args in (["--domain", "all"], ["-n", 5], ["--exclude-from", "nestools"]):
        result = invoke("evaluate", imported, "--agent", "oracle", *args)
        assert result.exit_code == 1 and "add --fresh-split SEED" in result.output, result.output


def fake_results(folder, seed, average, half_width, n=300, mode="static", fingerprint=None):
    """A results folder as `factory evaluate --fresh-split` writes it, with the fields the report reads."""
    headline = "average" if mode == "static" else "success"
    results = {
        "mode": mode, "label": "noisy:0.3", "agent": "noisy:0.3", "augment": "none", "scored_samples": n,
        "config": {"dataset": str(folder / "run"), "mode": mode, "agent": "noisy:0.3", "seed": 0, "trials": 1},
        "dataset": {"fingerprint": fingerprint or f"ids{seed}"},
        "metrics": {headline: {"value": average, "ci_low": average - half_width, "ci_high": average + half_width},
                    "tree_pass_rate": {"value": 0.2, "ci_low": 0.15, "ci_high": 0.25}},
        "fresh_split": {"seed": seed, "fingerprint": fingerprint or f"split{seed}",
                        "settings": {"domain": "all", "n": n, "exclude_from": ["nestools"]}},
    }
    folder.mkdir(parents=True)
    (folder / "results.json").write_text(json.dumps(results))
    return folder


def test_report_says_whether_fresh_splits_are_comparable(tmp_path):
    narrow = [fake_results(tmp_path / f"a{seed}", seed, 0.60 + 0.01 * seed, 0.05) for seed in range(5)]
    result = invoke("report", *narrow, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "5 fresh splits (seeds 0, 1, 2, 3, 4): comparable" in result.output
    assert "scored different datasets" not in result.output  # different splits are the point

    wide = [fake_results(tmp_path / f"b{seed}", seed, 0.40 + 0.05 * seed, 0.05) for seed in range(5)]
    result = invoke("report", *wide, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "not comparable on 1 of 2 metrics (average spreads 20.0 over an interval of 10.0)" in result.output


def test_only_distinct_splits_of_the_same_settings_are_compared(tmp_path):
    def read(*folders):
        return [(f.name, json.loads((f / "results.json").read_text())) for f in folders]

    same = read(fake_results(tmp_path / "a", 1, 0.5, 0.05), fake_results(tmp_path / "b", 1, 0.5, 0.05))
    assert split_groups(same) == []  # one split scored twice
    other_n = read(fake_results(tmp_path / "c", 1, 0.5, 0.05), fake_results(tmp_path / "d", 2, 0.5, 0.05, n=200))
    assert split_groups(other_n) == []
    other_mode = read(fake_results(tmp_path / "e", 1, 0.5, 0.05), fake_results(tmp_path / "f", 2, 0.5, 0.05,
                                                                                  mode="interactive"))
    assert split_groups(other_mode) == []
    (group,) = split_groups(read(tmp_path / "a", tmp_path / "c", fake_results(tmp_path / "g", 3, 0.7, 0.05)))
    assert group.seeds == [1, 3]  # seed 1 (a and c, the same split) counted once
    average = next(s for s in group.spreads if s.metric == "average")
    assert average.values == [0.5, 0.7] and round(average.interval, 6) == 0.1 and not average.comparable
