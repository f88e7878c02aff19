"""Generation with a model, end to end over HTTP against a fake OpenAI-compatible server that
answers like a real model (tests/generation_model.py): any domain, bad output never fatal."""

import json
import re
from pathlib import Path

import pytest

from factory.config import load_settings
from factory.errors import EndpointDown, FactoryError
from factory.generation.generate import generate
from factory.lm.cache import CallCache
from factory.records import GenerateConfig
from tests.generation_model import server_responder

pytestmark = pytest.mark.slow  # end-to-end runs: `make test` runs them, `pytest -m "not slow"` leaves them out


def settings_for(server, tmp_path, **extra):
    return load_settings({"api_base": server.api_base, "output_dir": str(tmp_path), "concurrency": 4, **extra})


def test_a_domain_no_seed_covers_gets_model_written_tools_and_validates(fake_server, tmp_path):
    from factory.dataset.validate import validate_dataset

    server = fake_server(server_responder)
    config = GenerateConfig(domain="Marine Biology", n=20, seed=1, generator="openai/any")
    result = generate(config, settings_for(server, tmp_path), tmp_path / "run")
    assert len(result.instances) == 20
    for instance in result.instances:
        assert all(t.toolbox is None for t in instance.tools)  # the model's tools, no seed's
        assert all(s.error is None and s.outputs for s in instance.trace.steps)  # a concrete result per call
        assert {s.backend for s in instance.trace.steps} == {"recorded"}
        assert {r.source for r in instance.world.recorded} <= {"writer", "model", "mock"}
        assert instance.provenance.generator == "openai/any" and instance.provenance.prompts
    report = validate_dataset(result.path / "dataset", load_settings())
    assert report.passed == report.total == 20, report.failures[:3]
    every_step = [i for i in result.instances if "Give me its" in i.query]
    for instance in every_step:  # a request asking for every call gets every call's findings in the gold answer
        assert set(instance.trace.answer) == {var for call in instance.chain.calls for var in call.outputs}
    assert every_step and any(set(i.trace.answer) != set(i.trace.steps[-1].outputs) for i in every_step)
    usage = result.manifest.model_usage["openai/any"]
    assert usage["requests"] > 20 and usage["completion_tokens"] > 0
    rejects = [json.loads(line) for line in (result.path / "rejects.jsonl").read_text().splitlines()]
    written = [r for r in rejects if r["reasons"][0].startswith("chain writer")]
    assert written and all(r["raw"] for r in written)  # a bad answer is a reject with its raw output
    repaired = [r for i in result.instances for r in i.provenance.repairs]
    assert any(r.startswith("chain writer: repaired (") for r in repaired)  # a mended answer says so
    asked = len(server.requests)
    again = generate(config, settings_for(server, tmp_path), tmp_path / "run")
    assert len(server.requests) == asked  # a rerun asks nothing
    assert [i.id for i in again.instances] == [i.id for i in result.instances]


def test_a_seed_domain_keeps_its_tools_and_takes_its_queries_from_the_model(fake_server, tmp_path):
    server = fake_server(server_responder)
    config = GenerateConfig(domain="Food and Beverage", n=6, seed=2, generator="openai/any")
    result = generate(config, settings_for(server, tmp_path), tmp_path / "run")
    for instance in result.instances:
        toolboxes = {t.toolbox for t in (*instance.tools, *instance.withheld_tools) if t.name in instance.gold_tools}
        assert "food_and_beverage" in toolboxes and None not in toolboxes  # the seed's own tools and execution
        assert instance.query == instance.query_variants["model"] != instance.query_variants["template"]
        assert {s.backend for s in instance.trace.steps} == {"seed"}


@pytest.mark.parametrize("domain", ["Food and Beverage", "Marine Biology/Coral Reefs"])
def test_a_fresh_run_keeps_its_call_cache_for_a_resume(fake_server, tmp_path, domain):
    """--fresh empties the folder before the call cache opens in it: it once deleted the cache
    it had just opened, so the answers of a fresh run were lost to a resume and asked again."""
    server = fake_server(server_responder)
    config = GenerateConfig(domain=domain, n=3, seed=4, generator="openai/any")
    generate(config, settings_for(server, tmp_path), tmp_path / "run", fresh=True)
    cache = CallCache(tmp_path / "run" / "calls.sqlite")
    assert len(cache) >= 3  # every answer the run got, there for a resume
    cache.close()
    asked = len(server.requests)
    generate(config, settings_for(server, tmp_path), tmp_path / "run", fresh=True)  # starts over: asks again
    assert len(server.requests) > asked


def test_a_resumed_run_counts_every_process_s_calls(fake_server, tmp_path):
    """The manifest of a run stopped at --max-attempts and resumed counts the calls of both
    processes (it counted the last one's alone)."""
    from factory.errors import RunError

    server = fake_server(server_responder)
    config = GenerateConfig(domain="Marine Biology/Coral Reefs", n=4, seed=5, generator="openai/any")
    with pytest.raises(RunError):
        generate(config, settings_for(server, tmp_path), tmp_path / "run", max_attempts=2)
    first = len(server.requests)
    result = generate(config, settings_for(server, tmp_path), tmp_path / "run")
    usage = result.manifest.model_usage["openai/any"]
    assert usage["requests"] == len(server.requests) > first and usage["completion_tokens"] > 0


def test_transient_failures_cost_retries_not_instances(fake_server, tmp_path):
    server = fake_server(server_responder, failure_rate=0.2, max_failures=2)
    config = GenerateConfig(domain="Marine Biology", n=8, seed=3, generator="openai/any")
    result = generate(config, settings_for(server, tmp_path, max_retries=2), tmp_path / "run")
    usage = result.manifest.model_usage["openai/any"]
    assert len(result.instances) == 8 and usage["retries"] > 0 and usage["endpoint_failures"] == 0


def test_a_dead_endpoint_ends_with_one_line(tmp_path):
    settings = load_settings({"api_base": "http://127.0.0.1:9/v1", "output_dir": str(tmp_path), "max_retries": 0,
                              "max_endpoint_failures": 2})
    config = GenerateConfig(domain="Marine Biology", n=5, seed=1, generator="openai/any")
    with pytest.raises(EndpointDown, match="failed 2 requests in a row"):
        generate(config, settings, tmp_path / "run")


def test_without_a_model_a_domain_no_seed_covers_says_how_to_pass_one(tmp_path):
    with pytest.raises(FactoryError, match="--model"):
        generate(GenerateConfig(domain="Marine Biology", n=5), load_settings({"output_dir": str(tmp_path)}))


def test_the_cli_runs_the_model_path(fake_server, tmp_path):
    from typer.testing import CliRunner

    from factory.cli import app

    server = fake_server(server_responder)
    out = tmp_path / "cli-run"
    result = CliRunner().invoke(app, ["generate", "--domain", "Marine Biology/Coral Reefs", "-n", "3", "--model",
                                      "openai/any", "--api-base", server.api_base, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "model openai/any" in result.output and "model calls" in result.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["domain"] == "Marine Biology/Coral Reefs"
    assert all(json.loads(line)["instance"]["subdomain"] == "Coral Reefs"
               for line in (out / "instances.jsonl").read_text().splitlines())
    assert "api_key" not in (out / "manifest.json").read_text()


@pytest.fixture
def no_key(monkeypatch):
    for name in ("FACTORY_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def test_a_hosted_model_without_a_key_is_one_line(tmp_path, no_key):
    config = GenerateConfig(domain="Marine Biology", n=5, generator="openai/gpt-4o-mini")
    with pytest.raises(FactoryError, match="API_KEY"):
        generate(config, load_settings({"output_dir": str(tmp_path)}), Path(tmp_path) / "run")


@pytest.mark.parametrize("how", ["json_schema", "json_object"])
def test_under_a_schema_the_chain_writer_gets_its_shape_and_the_instances_validate(fake_server, tmp_path, how):
    from factory.dataset.validate import validate_dataset

    server = fake_server(server_responder)
    config = GenerateConfig(domain="Marine Biology", n=6, seed=4, generator="openai/any")
    result = generate(config, settings_for(server, tmp_path, structured_output=how), tmp_path / "run")
    assert len(result.instances) == 6
    formats = [body["response_format"] for body in server.requests if "call_1" in json.dumps(body.get("response_format"))]
    assert formats and all((f["type"], "json_schema" in f) == (how, how == "json_schema") for f in formats)
    assert all(i.shape == i.chain.shape() for i in result.instances)
    report = validate_dataset(result.path / "dataset", load_settings())
    assert report.passed == report.total == 6, report.failures[:3]


def test_requests_that_state_values_as_people_write_them_cost_few_calls(fake_server, tmp_path):
    """A model that writes "$1,250.00", "June 9th, 2025" and "six" keeps its requests: at most
    5 calls per kept instance (each of them was a repair and often a reject while only the
    exact forms counted)."""
    from tests.generation_model import written_forms_responder

    server = fake_server(written_forms_responder)
    config = GenerateConfig(domain="Food and Beverage", n=8, seed=5, generator="openai/any")
    result = generate(config, settings_for(server, tmp_path), tmp_path / "run")
    assert len(result.instances) == 8
    assert len(server.requests) <= 5 * len(result.instances), result.manifest.reject_reasons
    written = [i.query for i in result.instances if re.search(r"\d(st|nd|rd|th), \d{4}|\$[\d,]+\.\d\d|%", i.query)]
    assert written, [i.query for i in result.instances]  # the written forms were there, and were taken
