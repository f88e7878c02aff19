"""Predictions files: coverage counted and printed, missing answers scored as failures unless
allowed, lines split on "\\n" only, several files scored in one process."""

from __future__ import annotations

import json

import pytest

from tests.evaluate.conftest import N, invoke


@pytest.fixture(scope="module")
def oracle_lines(imported, tmp_path_factory):
    """The oracle's answer per test_id, as NesTools raw-response lines."""
    out = tmp_path_factory.mktemp("oracle")
    assert invoke("evaluate", imported, "--agent", "oracle", "--out", out).exit_code == 0
    samples = [json.loads(line) for line in (out / "samples.jsonl").read_text().split("\n") if line]
    return {i + 1: s["output"] for i, s in enumerate(samples)}


def write(path, rows):
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    return path


def results(path):
    return json.loads((path / "results.json").read_text())


def test_a_file_with_5_of_40_answers_does_not_score_100(imported, oracle_lines, tmp_path):
    predictions = write(tmp_path / "five.jsonl", [{"test_id": i, "response": oracle_lines[i]} for i in range(1, 6)]
                        + [{"test_id": 3, "response": oracle_lines[3]}, {"test_id": 777, "response": "[]"}])
    result = invoke("evaluate", imported, "--predictions", predictions, "--out", tmp_path / "strict", env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    strict = results(tmp_path / "strict")
    assert strict["coverage"] == {"file": "five.jsonl", "tasks": N, "predicted": 5, "missing": N - 5, "duplicates": 1,
                                  "unknown": 1, "outside": 0, "unanswered": 0, "bad_lines": 0,
                                  "missing_scored_as": "failures"}
    # 5 tasks right, 35 failures: the second line for test_id 3 is not scored (one task, one score)
    assert strict["metrics"]["tree_pass_rate"]["value"] == pytest.approx(5 / N) and strict["samples"] == N
    assert strict["errors"]["missing_prediction"] == N - 5
    said = " ".join(result.output.split())  # rich wraps the line where the results path is long
    assert "5 of 40 tasks predicted, 35 missing (scored as failures), 1 duplicates (not scored), 1 unknown" in said
    assert "five.jsonl:6: test_id 3 again (first on line 3): only the first line of a test_id is scored" in said
    allowed = invoke("evaluate", imported, "--predictions", predictions, "--out", tmp_path / "nestools", "--allow-missing",
                     env={"COLUMNS": "200"})
    nestools = results(tmp_path / "nestools")
    assert nestools["metrics"]["tree_pass_rate"]["value"] == 1.0 and nestools["samples"] == 5
    assert "35 missing (left out)" in allowed.output and nestools["coverage"]["missing_scored_as"] == "left out"
    assert "35 missing" in (tmp_path / "nestools" / "summary.md").read_text()


def test_lines_are_split_on_newlines_only(imported, oracle_lines, tmp_path):
    odd = "\u2028".join(["Here is the plan", "\u2029", "\x85", oracle_lines[1]])
    predictions = tmp_path / "odd.jsonl"
    predictions.write_text(json.dumps({"test_id": 1, "response": odd}, ensure_ascii=False) + "\r\n"
                           + json.dumps({"test_id": 2, "response": oracle_lines[2]}) + "\n", encoding="utf-8")
    assert invoke("evaluate", imported, "--predictions", predictions, "--out", tmp_path / "r", "--allow-missing").exit_code == 0
    scored = results(tmp_path / "r")
    assert scored["samples"] == 2 and scored["coverage"]["bad_lines"] == 0 and not scored["problems"]
    assert scored["metrics"]["tree_pass_rate"]["value"] == 1.0


def test_several_files_are_scored_in_one_process(imported, oracle_lines, tmp_path):
    every = [{"test_id": i, "response": oracle_lines[i]} for i in range(1, N + 1)]
    first = write(tmp_path / "a" / "raw_response.jsonl" if (tmp_path / "a").mkdir() is None else None, every)
    second = write(tmp_path / "b" / "raw_response.jsonl" if (tmp_path / "b").mkdir() is None else None,
                   [{"test_id": r["test_id"], "response": "no idea"} for r in every])
    result = invoke("evaluate", imported, "--predictions", first, "--predictions", second, "--out", tmp_path / "r",
                    env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert results(tmp_path / "r" / "a-raw_response")["metrics"]["average"]["value"] == 1.0
    assert results(tmp_path / "r" / "b-raw_response")["metrics"]["format_accuracy"]["value"] == 0.0
    assert "2 predictions files" in result.output and f"{N}/{N}" in result.output
    assert not list((tmp_path / "r").rglob("*.png"))  # plots only when asked


def test_scoring_an_import_loads_no_module_it_does_not_use(imported, oracle_lines, tmp_path):
    # Loaded for nothing, these were a quarter of the time of scoring NesTools' prediction sets:
    # graphs, the generator's checks, the seeds, pyarrow's compute kernels and numpy's masked arrays.
    import subprocess
    import sys

    predictions = write(tmp_path / "all.jsonl", [{"test_id": i, "response": oracle_lines[i]} for i in range(1, N + 1)])
    probe = ("import sys\nfrom factory.cli import app\ntry:\n    app(sys.argv[1:])\nexcept SystemExit as done:\n"
             "    assert not done.code, done.code\nprint('loaded:', *sorted(m for m in sys.modules if m in ("
             "'networkx', 'numpy.ma', 'pyarrow.compute', 'factory.checks', 'factory.seeds.library', 'factory.world.simulator')))")
    done = subprocess.run([sys.executable, "-c", probe, "evaluate", str(imported), "--predictions", str(predictions),
                           "--out", str(tmp_path / "r")], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "loaded:", done.stdout
    assert results(tmp_path / "r")["metrics"]["average"]["value"] == 1.0


def test_a_file_for_another_dataset_is_an_error(imported, tmp_path):
    predictions = write(tmp_path / "other.jsonl", [{"test_id": 5000 + i, "response": "[]"} for i in range(3)])
    result = invoke("evaluate", imported, "--predictions", predictions, "--out", tmp_path / "r")
    assert result.exit_code == 1 and "none of its lines is for a task of this dataset" in result.output
    assert (tmp_path / "r" / "results.json").is_file()  # the report is still written


def test_plots_are_drawn_when_asked_later(imported, oracle_lines, tmp_path):
    predictions = write(tmp_path / "p.jsonl", [{"test_id": i, "response": oracle_lines[i]} for i in range(1, N + 1)])
    assert invoke("evaluate", imported, "--predictions", predictions, "--out", tmp_path / "r").exit_code == 0
    result = invoke("report", tmp_path / "r", "--plots", env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert {p.name for p in (tmp_path / "r").glob("*.png")} == {"score_by_depth.png", "score_by_shape.png",
                                                                 "score_by_category.png"}
