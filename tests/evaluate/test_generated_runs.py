"""A generated run scored as a newcomer scores it: from its own nestools.jsonl, with the
execution pass rate in every breakdown, the instances static mode leaves out counted by reason
on screen and in summary.md, no results folder left behind by an evaluation that could not
start, one default results folder whatever is drawn, and the cause of a dead endpoint said."""

from __future__ import annotations

import json
import re
import socket
from collections import Counter
from io import StringIO

import pytest
from rich.console import Console

from tests.evaluate.conftest import invoke
from tests.fake_server import text


def predictions_from(nestools_jsonl, path):
    """Each row's gold calls as a model writes them: the row's api_id, each output named by the
    tool's `responses` (NesTools' predicted format), nothing else added."""
    lines = []
    for row in map(json.loads, nestools_jsonl.read_text().splitlines()):
        outputs = {api["api_name"]: list(api["responses"]) for api in row["api"]}
        calls = [{"api_name": c["api_name"], "api_id": c["api_id"], "parameters": c["parameters"],
                  "responses": dict(zip(outputs[c["api_name"]], c["responses"], strict=True))} for c in row["call"]]
        lines.append(json.dumps({"test_id": row["test_id"], "response": json.dumps(calls)}) + "\n")
    path.write_text("".join(lines))
    return path


def results_of(folder):
    return json.loads((folder / "results.json").read_text())


def test_a_run_scored_from_its_own_nestools_jsonl_scores_100(mixed_run, tmp_path):
    predictions = predictions_from(mixed_run.path / "nestools.jsonl", tmp_path / "gold.jsonl")
    result = invoke("evaluate", mixed_run.path, "--predictions", predictions, "--out", tmp_path / "r")
    assert result.exit_code == 0, result.output
    results = results_of(tmp_path / "r")
    coverage = results["coverage"]
    assert coverage["predicted"] == coverage["tasks"] == len(predictions.read_text().splitlines())
    assert coverage["missing"] == coverage["unknown"] == coverage["outside"] == 0
    assert {name: m["value"] for name, m in results["metrics"].items()} == dict.fromkeys(results["metrics"], 1.0)
    assert "execution_pass_rate" in results["metrics"]


def test_the_readme_says_predictions_carry_the_api_id():
    from pathlib import Path

    readme = " ".join((Path(__file__).parents[2] / "README.md").read_text().split())
    assert '{"api_name", "api_id", "parameters", "responses"}' in readme


def test_the_execution_pass_rate_is_in_every_breakdown(food_run, tmp_path):
    result = invoke("evaluate", food_run.path, "--agent", "oracle", "--out", tmp_path / "r")
    assert result.exit_code == 0, result.output
    results = results_of(tmp_path / "r")
    for title, groups in results["breakdowns"].items():
        assert all(group["execution_pass_rate"] == 1.0 for group in groups.values()), title
    tables = [part.split("\n\n#")[0] for part in (tmp_path / "r" / "summary.md").read_text().split("### By ")[1:]]
    assert len(tables) == 4
    for table in tables:
        header, _, *rows = [line for line in table.splitlines() if line.startswith("|")]
        assert header.rstrip(" |").endswith("Exec pass")
        assert rows and all(row.rstrip(" |").rsplit("|", 1)[1].strip() == "100.0" for row in rows), table


def test_left_out_instances_are_counted_by_reason_on_screen_and_in_the_summary(mixed_run, tmp_path):
    from factory.evaluate.static.tasks import left_out_reason

    reasons = Counter(filter(None, map(left_out_reason, mixed_run.instances)))
    assert len(reasons) >= 2  # withheld tools and unstated fix-ups at least
    result = invoke("evaluate", mixed_run.path, "--agent", "oracle", "--out", tmp_path / "all", env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    results = results_of(tmp_path / "all")
    assert results["dataset"]["left_out_reasons"] == dict(reasons.most_common())
    assert results["scored_samples"] + sum(reasons.values()) == len(mixed_run.instances)
    line = next(line for line in result.output.splitlines() if line.startswith("left out of static mode"))
    assert line.startswith(f"left out of static mode: {sum(reasons.values())} of the {len(mixed_run.instances)} instances")
    assert "withhold a gold tool" in line and "condition the request does not say holds" in line
    assert line.split(": ", 1)[1] in " ".join((tmp_path / "all" / "summary.md").read_text().split())

    first = next(k for k, i in enumerate(mixed_run.instances) if left_out_reason(i)) + 1
    limited = invoke("evaluate", mixed_run.path, "--agent", "oracle", "--limit", first, "--out", tmp_path / "lim",
                     env={"COLUMNS": "300"})
    assert f"{first - 1} scored samples" in limited.output
    assert f"left out of static mode: 1 of the first {first} instances" in limited.output


@pytest.mark.parametrize("model, env", [("hosted_vllm/qwen", {}), ("openai/gpt-4o-mini", {"OPENAI_API_KEY": None})])
def test_an_evaluation_that_cannot_start_leaves_no_results_folder(food_run, tmp_path, monkeypatch, model, env):
    monkeypatch.delenv("FACTORY_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("FACTORY_OUTPUT_DIR", str(tmp_path / "generated"))
    result = invoke("evaluate", food_run.path, "--model", model, env=env)
    assert result.exit_code == 1 and result.output.startswith("error: ") and "Traceback" not in result.output
    assert not (tmp_path / "generated").exists()
    assert invoke("evaluate", food_run.path, "--model", model, "--out", tmp_path / "r", env=env).exit_code == 1
    assert not (tmp_path / "r").exists()


def test_report_over_a_glob_skips_a_folder_without_results_and_says_so(food_run, tmp_path):
    assert invoke("evaluate", food_run.path, "--agent", "oracle", "--out", tmp_path / "results" / "oracle").exit_code == 0
    (tmp_path / "results" / "stopped" / "cache").mkdir(parents=True)  # an evaluation stopped before its report
    result = invoke("report", tmp_path / "results" / "oracle", tmp_path / "results" / "stopped")
    assert result.exit_code == 0, result.output
    assert "oracle" in result.output and "stopped holds no results.json" in result.output
    alone = invoke("report", tmp_path / "results" / "stopped")
    assert alone.exit_code == 1 and "holds no results.json" in alone.output


def answering(request):
    return text("[]")


@pytest.fixture
def fake_key(monkeypatch):
    monkeypatch.setenv("FACTORY_API_KEY", "sk-test")


def test_plots_change_nothing_that_is_asked_so_the_cache_answers_again(food_run, tmp_path, fake_server, monkeypatch,
                                                                       fake_key):
    server = fake_server(answering)
    monkeypatch.setenv("FACTORY_OUTPUT_DIR", str(tmp_path / "generated"))
    first = invoke("evaluate", food_run.path, "--model", "openai/fake", "--api-base", server.api_base, "--limit", "3")
    assert first.exit_code == 0, first.output
    asked = len(server.requests)
    again = invoke("evaluate", food_run.path, "--model", "openai/fake", "--api-base", server.api_base, "--limit", "3",
                   "--plots", "--concurrency", "2")
    assert again.exit_code == 0, again.output
    assert len(server.requests) == asked  # every answer came from the cache of the same results folder
    [folder] = (tmp_path / "generated" / "evaluations").iterdir()
    assert (folder / "results.json").is_file() and any(folder.glob("*.png"))


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_dead_endpoint_names_its_cause_even_below_the_failure_limit(food_run, tmp_path, fake_key):
    base = f"http://127.0.0.1:{closed_port()}/v1"
    result = invoke("evaluate", food_run.path, "--model", "openai/fake", "--api-base", base, "--limit", "2",
                    "--max-retries", "0", "--out", tmp_path / "r", env={"COLUMNS": "300"})
    assert result.exit_code == 1 and "Traceback" not in result.output
    [error] = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert "nothing could be scored" in error and "Connection refused" in error and "--api-base" in error
    assert "Connection refused" in (tmp_path / "r" / "summary.md").read_text()


def test_a_model_run_shows_its_progress_with_calls_and_tokens_on_a_terminal(food_run, tmp_path, fake_server,
                                                                           monkeypatch, fake_key):
    import factory.evaluate.commands as commands

    screen = StringIO()
    monkeypatch.setattr(commands, "err_console", Console(file=screen, force_terminal=True, width=200))
    server = fake_server(answering)
    result = invoke("evaluate", food_run.path, "--model", "openai/fake", "--api-base", server.api_base, "--limit", "3",
                    "--out", tmp_path / "r")
    assert result.exit_code == 0, result.output
    drawn = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen.getvalue())  # the frames, without terminal codes
    asking = [frame for frame in drawn.split("\r") if "asking openai/fake" in frame]
    assert asking and all(re.search(r" [0-3]/3 .*model calls, .* completion tokens", frame) for frame in asking), asking


def test_static_scoring_reads_nothing_it_leaves_unread(mixed_run, tmp_path, monkeypatch):
    """Static mode loads instances without their milestones, minefields and checks: scored
    with them read, every sample and result is the same (execution in the worlds included)."""
    import factory.evaluate.run as run

    def scored(folder, agent):
        result = invoke("evaluate", mixed_run.path, "--agent", agent, "--out", tmp_path / folder)
        assert result.exit_code == 0, result.output
        results = results_of(tmp_path / folder)
        results.pop("seconds")
        return (tmp_path / folder / "samples.jsonl").read_text(), results

    for agent in ("noisy:0.3", "request-order"):
        unread = scored(f"unread-{agent}", agent)
        monkeypatch.setattr(run, "STATIC_UNREAD", ())
        read = scored(f"read-{agent}", agent)
        monkeypatch.undo()
        assert unread == read and "execution_pass_rate" in read[1]["metrics"], agent
    from factory.dataset.export import load_instances

    with pytest.raises(ValueError, match="chain"):  # a field without a default is always read
        load_instances(mixed_run.path / "dataset", unread=("chain",))
