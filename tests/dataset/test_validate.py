"""`factory validate`: a count per check, every failure in a file, and imported data explained."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from factory.cli import app

pytestmark = pytest.mark.slow  # end-to-end runs: `make test` runs them, `pytest -m "not slow"` leaves them out

runner = CliRunner()
NESTOOLS = Path(__file__).parents[1] / "data" / "nestools"


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    """The first 40 NesTools test rows, imported."""
    root = tmp_path_factory.mktemp("nestools-import")
    (root / "source").mkdir()
    for name in ("test_data.jsonl", "test_api_ids.jsonl"):
        lines = (NESTOOLS / name).read_text().split("\n")[:40]
        (root / "source" / name).write_text("\n".join(lines) + "\n")
    result = runner.invoke(app, ["import", "nestools", str(root / "source"), "--out", str(root / "out")])
    assert result.exit_code == 0, result.output
    return root / "out"


def table_row(output: str, check: str) -> list[int]:
    line = next(line for line in output.splitlines() if line.split()[:1] == [check])
    return [int(x) for x in line.split()[1:4]]


def test_imported_data_skips_the_checks_of_this_factorys_writing_rules_and_says_why(imported):
    result = runner.invoke(app, ["validate", str(imported)])
    assert result.exit_code == 0, result.output
    for check in ("faithfulness", "plausibility", "distractors"):
        assert table_row(result.output, check) == [0, 0, 40]
    for check in ("format", "signature", "dataflow", "execution", "duplicates"):
        assert table_row(result.output, check) == [40, 0, 0]
    text = " ".join(result.output.split())
    assert "40 of 40 instances pass every check" in text
    assert "40 instances were imported from NesTools" in text and "--all-checks applies them" in text
    assert "do not state every argument literally" in text  # why faithfulness does not apply
    assert not (imported / "validation-failures.jsonl").exists()


def test_every_failure_is_written_to_a_file_and_its_place_is_said(imported):
    result = runner.invoke(app, ["validate", str(imported), "--all-checks"])
    assert result.exit_code == 1
    failures = [json.loads(line) for line in (imported / "validation-failures.jsonl").read_text().splitlines()]
    counted = sum(table_row(result.output, check)[1] for check in
                  ("format", "signature", "dataflow", "execution", "faithfulness", "readability", "plausibility",
                   "distractors", "duplicates"))
    assert len(failures) == counted > 5  # all of them, not only the 5 shown
    assert {f["check"] for f in failures} >= {"plausibility"} and all(f["imported_from"] == "NesTools" for f in failures)
    text = " ".join(result.output.split())
    assert f"{counted} failures (the first 5 shown; all, with instance, check and reason, in {imported / 'validation-failures.jsonl'})" in text
    assert text.count("FAIL ") == 5
    assert "Every check was applied" in text
    result = runner.invoke(app, ["validate", str(imported)])  # a clean run removes the stale list
    assert result.exit_code == 0 and not (imported / "validation-failures.jsonl").exists()


def test_failures_go_where_asked(food_run, tmp_path):
    import shutil

    copy = tmp_path / "run"
    shutil.copytree(food_run.path, copy)
    (copy / "dataset" / "README.md").write_text("edited card\n")
    target = tmp_path / "elsewhere" / "fails.jsonl"
    result = runner.invoke(app, ["validate", str(copy), "--failures", str(target)])
    assert result.exit_code == 1 and "dataset/README.md changed since the run wrote it" in result.output
    assert [json.loads(line)["check"] for line in target.read_text().splitlines()] == ["run files"]


def test_checks_that_did_not_run_say_so_instead_of_passing(food_run):
    """Without a model the judges never ran: 'not applied (no model configured)', not '16 passed'."""
    result = runner.invoke(app, ["validate", str(food_run.path)])
    assert result.exit_code == 0, result.output
    for judge in ("judge_plausibility", "judge_semantics"):
        line = next(line for line in result.output.splitlines() if line.split()[:1] == [judge])
        assert line.split()[1:5] == ["0", "0", "0", "16"] and "(no model configured)" in line, line
    assert table_row(result.output, "format") == [16, 0, 0]
    assert "16 of 16 instances pass every check applied (judge_plausibility, judge_semantics not applied)" in " ".join(result.output.split())
