"""`factory evaluate --model` against endpoints that misbehave: endpoint failures are not
model failures, a dead endpoint is one line and exit 1, nothing scored is exit 1, an
unreadable 200 is never a traceback, the timeout is total, secrets never reach an artifact,
and only complete answers are cached."""

from __future__ import annotations

import json

import pytest

from tests.evaluate.conftest import invoke
from tests.fake_server import drip, echoing_key, status, text, truncated, unreadable

KEY = "sk-live-9d8c7b6a5f4e"


@pytest.fixture(autouse=True)
def key(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("FACTORY_API_KEY", KEY)


def evaluate(imported, server_or_base, out, *args):
    base = server_or_base if isinstance(server_or_base, str) else server_or_base.api_base
    return invoke("evaluate", imported, "--model", "openai/fake", "--api-base", base, "--out", out, *args,
                  env={"COLUMNS": "200"})


def artifacts(folder) -> bytes:
    return b"".join(p.read_bytes() for p in folder.rglob("*") if p.is_file())


@pytest.mark.parametrize("mode", ["static", "interactive"])
def test_a_dead_endpoint_is_one_line_and_exit_1(imported, tmp_path, mode):
    result = evaluate(imported, "http://127.0.0.1:9/v1", tmp_path / "r", "--mode", mode, "--max-retries", "0",
                      "--max-endpoint-failures", "3", "--concurrency", "2")
    assert result.exit_code == 1 and "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "127.0.0.1:9" in errors[0] and "requests in a row" in errors[0], result.output


@pytest.mark.parametrize("mode", ["static", "interactive"])
def test_nothing_scored_is_exit_1_with_the_report_written(imported, tmp_path, fake_server, mode):
    server = fake_server(lambda request: status(503, "overloaded"))
    result = evaluate(imported, server, tmp_path / "r", "--mode", mode, "--limit", "3", "--max-retries", "0",
                      "--max-endpoint-failures", "50")
    assert result.exit_code == 1 and "nothing could be scored" in result.output and "Traceback" not in result.output
    results = json.loads((tmp_path / "r" / "results.json").read_text())
    assert results["scored_samples"] == 0 and results["unscored"] == {"endpoint_error": 3}
    assert results["lm_usage"]["endpoint_failures"] == 3 and results["lm_usage"]["errors"] == {"server_error": 3}


def test_an_unreadable_200_is_retried_then_an_endpoint_error_not_a_traceback(imported, tmp_path, fake_server):
    answers = iter([unreadable(), text("[]")] * 10)
    server = fake_server(lambda request: next(answers))
    result = evaluate(imported, server, tmp_path / "r", "--limit", "2", "--concurrency", "1", "--max-retries", "1")
    assert result.exit_code == 0, result.output
    results = json.loads((tmp_path / "r" / "results.json").read_text())
    assert results["scored_samples"] == 2 and results["lm_usage"]["retried"] == {"unreadable": 2}
    server = fake_server(lambda request: unreadable())
    result = evaluate(imported, server, tmp_path / "s", "--limit", "2", "--max-retries", "1")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert json.loads((tmp_path / "s" / "results.json").read_text())["unscored"] == {"endpoint_error": 2}


def test_timeout_is_total_and_the_flags_reach_the_client(imported, tmp_path, fake_server):
    server = fake_server(lambda request: drip(text("[" + " " * 300 + "]"), interval=0.02, chunk=4))
    result = evaluate(imported, server, tmp_path / "r", "--limit", "1", "--timeout", "0.3", "--max-retries", "1")
    assert result.exit_code == 1  # nothing scored
    usage = json.loads((tmp_path / "r" / "results.json").read_text())["lm_usage"]
    assert usage["errors"] == {"timeout": 1} and usage["attempts"] == 2 and usage["seconds"] < 1.5
    assert json.loads((tmp_path / "r" / "results.json").read_text())["config"]["timeout"] == 0.3


@pytest.mark.parametrize("mode", ["static", "interactive"])
def test_an_echoed_key_reaches_no_artifact(imported, tmp_path, fake_server, mode):
    server = fake_server(None)
    server.responder = echoing_key(server, "[]")
    result = evaluate(imported, server, tmp_path / "r", "--mode", mode, "--limit", "2")
    assert result.exit_code == 0, result.output
    assert server.key() == KEY and KEY not in result.output
    written = artifacts(tmp_path / "r")
    assert KEY.encode() not in written and b"[REDACTED]" in written


def test_truncated_answers_are_counted_warned_and_asked_again(imported, tmp_path, fake_server):
    server = fake_server(lambda request: truncated('[{"api_name": "scan_isbn", "api_id": 9031, "parameters": {'))
    first = evaluate(imported, server, tmp_path / "r", "--limit", "2")
    assert first.exit_code == 0 and "cut at --max-tokens" in first.output
    results = json.loads((tmp_path / "r" / "results.json").read_text())
    assert results["truncated"] == 2 and results["errors"]["truncated"] == 2
    assert evaluate(imported, server, tmp_path / "r", "--limit", "2").exit_code == 0
    assert len(server.requests) == 4  # not cached: the rerun asked again


def test_a_rerun_makes_no_call_and_usage_is_printed(imported, tmp_path, fake_server):
    server = fake_server(lambda request: text("Sure:\n```json\n[]\n```"))
    first = evaluate(imported, server, tmp_path / "r", "--limit", "3")
    assert "model usage: 3 model calls, 0 cached" in first.output
    again = evaluate(imported, server, tmp_path / "r", "--limit", "3")
    assert "model usage: 0 model calls, 3 cached" in again.output and len(server.requests) == 3


def test_a_missing_key_is_one_line(imported, tmp_path, monkeypatch):
    monkeypatch.delenv("FACTORY_API_KEY")
    result = invoke("evaluate", imported, "--model", "openai/gpt-4o-mini", "--out", tmp_path / "r")
    assert result.exit_code == 1 and "no API key" in result.output and "--api-base" in result.output
    result = invoke("evaluate", imported, "--model", "hosted_vllm/Qwen", "--out", tmp_path / "r")
    assert result.exit_code == 1 and "--api-base" in result.output
