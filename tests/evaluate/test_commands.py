"""`factory import nestools`, `factory evaluate` and `factory report` through typer's CliRunner."""

from __future__ import annotations

import json

import pytest

from factory.evaluate.static.agents import oracle_calls
from tests.evaluate.conftest import N, invoke
from tests.fake_server import serve, text


def results_of(path):
    return json.loads((path / "results.json").read_text())


def test_import_writes_the_dataset_and_the_api_ids(imported):
    assert (imported / "dataset" / "README.md").is_file() and list((imported / "dataset" / "data").glob("*.parquet"))
    records = [json.loads(line) for line in (imported / "nestools_api_ids.jsonl").read_text().splitlines()]
    assert [r["test_id"] for r in records] == list(range(1, N + 1))
    assert records[0]["api_ids"] == [9031, 10894, 1163] and len(records[0]["tool_ids"]) == 18


def test_oracle_run_writes_every_report_file(imported, tmp_path):
    result = invoke("evaluate", imported, "--agent", "oracle", "--out", tmp_path / "r", "--plots")
    assert result.exit_code == 0, result.output
    for name in ("results.json", "samples.jsonl", "summary.md", "score_by_depth.png", "score_by_shape.png",
                 "score_by_category.png"):
        assert (tmp_path / "r" / name).is_file(), name
    results = results_of(tmp_path / "r")
    assert all(m["value"] == 1.0 and m["ci_low"] == 1.0 for m in results["metrics"].values())
    assert results["dataset"]["instances"] == N and results["dataset"]["fingerprint"]
    assert results["factory_version"] and "git_commit" in results
    assert set(results["breakdowns"]) == {"depth", "shape_family", "shape", "category"}
    samples = (tmp_path / "r" / "samples.jsonl").read_text().splitlines()
    assert len(samples) == N and json.loads(samples[0])["mode"] == "static"


def test_scoring_is_deterministic(imported, tmp_path):
    for name in ("a", "b"):
        assert invoke("evaluate", imported, "--agent", "noisy:0.3", "--out", tmp_path / name).exit_code == 0
    first, second = results_of(tmp_path / "a"), results_of(tmp_path / "b")
    assert first["metrics"] == second["metrics"] and first["breakdowns"] == second["breakdowns"]
    assert (tmp_path / "a" / "samples.jsonl").read_bytes() == (tmp_path / "b" / "samples.jsonl").read_bytes()


def test_predictions_in_nestools_raw_format_with_bad_lines(imported, tmp_path):
    oracle = invoke("evaluate", imported, "--agent", "oracle", "--out", tmp_path / "o")
    assert oracle.exit_code == 0
    samples = [json.loads(line) for line in (tmp_path / "o" / "samples.jsonl").read_text().splitlines()]
    lines = [json.dumps({"test_id": i + 1, "response": s["output"]}) for i, s in enumerate(samples[:10])]
    lines += [json.dumps({"test_id": 11, "response": -1}), "not json", json.dumps({"response": "x"}),
              json.dumps({"test_id": 9999, "response": "[]"}), json.dumps({"test_id": 12, "response": "```json\n[{"})]
    predictions = tmp_path / "raw_response.jsonl"
    predictions.write_text("\n".join(lines) + "\n")
    result = invoke("evaluate", imported, "--predictions", predictions, "--out", tmp_path / "p", "--allow-missing")
    assert result.exit_code == 0, result.output
    results = results_of(tmp_path / "p")
    assert results["samples"] == 12 and results["scored_samples"] == 11  # the -1 response is left out
    assert results["metrics"]["format_accuracy"]["value"] == pytest.approx(10 / 11)
    assert results["metrics"]["selection_precision"]["value"] == 1.0
    assert len(results["problems"]) == 3 and any("unknown test_id 9999" in p for p in results["problems"])
    assert results["errors"]["format:truncated"] == 1 and results["errors"]["no_response"] == 1


def test_a_model_behind_a_fake_endpoint(imported, tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("FACTORY_API_KEY", "secret-value")
    from factory.evaluate.static.tasks import build_tasks

    calls_by_query = {}

    def respond(request):
        prompt = request["messages"][0]["content"]
        query = prompt.rsplit("Task:\n", 1)[1].rsplit("\n\nPlan:", 1)[0]
        return text("Here you go:\n```json\n" + calls_by_query.get(query, "[]") + "\n```")

    from factory.dataset.export import load_instances
    from factory.evaluate.static.augment import parse_augment
    from factory.evaluate.static.tasks import load_template
    from factory.evaluate.tool_ids import identities
    from tests.evaluate.static.static_helpers import PROMPTS

    instances = load_instances(imported / "dataset")
    tasks, _ = build_tasks(instances, identities(instances, imported / "dataset"), parse_augment([]), load_template(PROMPTS))
    calls_by_query.update({t.query: json.dumps(oracle_calls(t)) for t in tasks[:30]})
    with serve(respond) as server:
        result = invoke("evaluate", imported, "--model", "openai/fake-model", "--api-base", server.api_base,
                        "--out", tmp_path / "m", "--limit", 35)
    assert result.exit_code == 0, result.output
    results = results_of(tmp_path / "m")
    assert results["model"]["name"] == "openai/fake-model" and results["scored_samples"] == 35
    assert results["metrics"]["tree_pass_rate"]["value"] == pytest.approx(30 / 35)
    assert server.headers[0]["Authorization"] == "Bearer secret-value"
    written = "".join(p.read_text(errors="ignore") for p in (tmp_path / "m").rglob("*") if p.is_file())
    assert "secret-value" not in written


def test_report_lines_up_several_runs(imported, tmp_path):
    for agent in ("oracle", "noisy:0.5"):
        assert invoke("evaluate", imported, "--agent", agent, "--out", tmp_path / agent.replace(":", "")).exit_code == 0
    result = invoke("report", tmp_path / "noisy0.5", tmp_path / "oracle", env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert result.output.index("oracle") < result.output.index("noisy:0.5")  # best average first
    assert "Tree pass" in result.output


def test_interactive_mode_runs_the_imported_tools_through_the_mock(imported, tmp_path):
    result = invoke("evaluate", imported, "--mode", "interactive", "--agent", "oracle", "--limit", 10, "--out", tmp_path / "i")
    assert result.exit_code == 0, result.output
    metrics = results_of(tmp_path / "i")["metrics"]
    assert metrics["milestone_similarity"]["value"] == 1.0 and metrics["success"]["value"] == 1.0


@pytest.mark.parametrize("args, message", [
    ([], "give exactly one of --agent"),
    (["--agent", "oracle", "--model", "m"], "give exactly one of --agent"),
    (["--agent", "genius"], "unknown agent"),
    (["--agent", "oracle", "--augment", "shuffle"], "unknown --augment option"),
    (["--agent", "oracle", "--mode", "both"], "--mode 'both'"),
    (["--mode", "interactive", "--predictions", "x.jsonl"], "static mode only"),
    (["--predictions", "missing.jsonl"], "does not exist"),
    (["--agent", "oracle", "--trials", "0"], "at least 1"),
])
def test_bad_flags_are_one_red_line(imported, args, message, monkeypatch):
    monkeypatch.delenv("FACTORY_MODEL", raising=False)
    result = invoke("evaluate", imported, *args)
    assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output


def test_missing_inputs_are_one_red_line(tmp_path):
    assert "not an exported dataset" in invoke("evaluate", tmp_path, "--agent", "oracle").output
    assert "does not exist" in invoke("import", "nestools", tmp_path / "none.jsonl", "--out", tmp_path / "o").output
    assert "holds no results.json" in invoke("report", tmp_path).output
