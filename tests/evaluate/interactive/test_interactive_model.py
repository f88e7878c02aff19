"""Interactive mode end to end against a fake OpenAI-compatible tool-calling server."""

from __future__ import annotations

import json
from typing import Any

import pytest

from factory.errors import EndpointDown
from factory.evaluate.interactive.agents import OracleAgent
from factory.evaluate.interactive.episode import run_interactive
from factory.evaluate.interactive.model import ModelAgent, text_tool_calls
from factory.lm.cache import CallCache
from factory.lm.client import LMClient
from factory.lm.settings import LMSettings
from factory.records import Instance
from tests.evaluate.interactive.interactive_instances import seeds, wine_instance
from tests.fake_server import completion, serve, status, text, tool_call, unreadable

TOP = {"location": "California", "date": "2025-05-08"}


def replaying(instance: Instance):
    """A server-side model that plays the gold chain from the messages it is sent."""
    sessions: dict[int, Any] = {}

    def respond(request: dict[str, Any]) -> dict[str, Any]:
        messages = request["messages"]
        if len(messages) == 2:
            sessions.clear()
        policy = sessions.setdefault(0, OracleAgent().policy(instance, 0))
        message = policy.act(messages, request.get("tools", []))
        return {k: v for k, v in message.items() if k != "role"}

    return respond


def scripted(*replies: Any):
    """Replies in order; the last one repeats."""
    queue = list(replies)

    def respond(request: dict[str, Any]) -> Any:
        return queue.pop(0) if len(queue) > 1 else queue[0]

    return respond


def agent(api_base: str, model: str = "openai/fake-model", cache: CallCache | None = None, **settings: Any) -> ModelAgent:
    return ModelAgent(LMClient(LMSettings(model=model, api_base=api_base, backoff=0.01, **settings), cache))


def run(responder, instance: Instance | None = None, **settings: Any):
    instance = instance or wine_instance()
    max_turns = settings.pop("max_turns", 8)
    with serve(responder) as server:
        (result,) = run_interactive([instance], agent(server.api_base, **settings), seeds=seeds(), max_turns=max_turns)
    return result, server


def test_a_model_replaying_the_gold_chain_scores_100():
    instance = wine_instance()
    result, server = run(replaying(instance), instance)
    assert result.scores["milestone_similarity"] == 1 and result.scores["answer_match"] == 1, result.errors
    assert result.agent == "openai/fake-model" and server.requests[0]["model"] == "fake-model"
    first = server.requests[0]
    assert first["tools"] == [t.to_openai() for t in instance.tools]
    assert [m["role"] for m in first["messages"]] == ["system", "user"]
    last = server.requests[-1]["messages"]
    assert last[-1]["role"] == "tool" and "quantity" in json.loads(last[-1]["content"])


def test_unknown_tool_goes_back_as_an_observation_and_the_model_recovers():
    instance = wine_instance()
    oracle = replaying(instance)
    calls = {"n": 0}

    def respond(request):
        calls["n"] += 1
        if calls["n"] == 1:
            return tool_call("get_wine_sales_ranking", TOP, "bad_1")
        return oracle({**request, "messages": request["messages"][:2] if calls["n"] == 2 else request["messages"]})

    result, _ = run(respond, instance)
    tool_reply = result.output[3]
    assert tool_reply["tool_call_id"] == "bad_1" and "unknown tool 'get_wine_sales_ranking'" in tool_reply["content"]
    assert "unknown_tool" in result.errors
    assert result.scores["milestone_similarity"] == 1 and result.scores["tool_calls"] == 4


@pytest.mark.parametrize(
    ("arguments", "label"),
    [
        ('{"location": "California", "date": ', "malformed_arguments"),  # truncated
        ("{'location': 'California', 'date': '2025-05-08'}", "malformed_arguments"),  # python, not JSON
        ('["California", "2025-05-08"]', "malformed_arguments"),  # not an object
        ('{"location": "California", "date": 20250508}', "invalid_arguments"),  # wrong type
        ('{"location": "California"}', "invalid_arguments"),  # missing required
        ('{"location": "Narnia", "date": "2025-05-08"}', "tool_error"),  # the tool refuses
    ],
)
def test_bad_arguments_are_observations(arguments, label):
    result, _ = run(scripted(tool_call("get_top_selling_wine", arguments), text("I give up.")))
    assert label in result.errors
    assert "error" in json.loads(result.output[3]["content"])
    assert result.scores["turns"] == 2 and result.scores["milestone_similarity"] < 0.5


def test_a_model_that_never_stops_hits_the_turn_limit():
    result, server = run(scripted(tool_call("get_top_selling_wine", TOP)), max_turns=5)
    assert "turn_limit" in result.errors and "no_final_answer" in result.errors
    assert result.scores["turns"] == 5 and len(server.requests) == 5
    assert result.scores["answer_match"] == 0 and result.scores["milestone_similarity"] == 0.25


def test_tool_calls_written_as_text_are_executed_and_prose_answers_are_read():
    instance = wine_instance()
    session = OracleAgent().policy(instance, 0)

    def respond(request):
        message = session.act(request["messages"], [])
        if message.get("tool_calls"):
            fn = message["tool_calls"][0]["function"]
            return text(f'Let me check.\n<tool_call>{{"name": "{fn["name"]}", "arguments": {fn["arguments"]}}}</tool_call>')
        values = json.loads(message["content"].removeprefix("Final answer: "))
        return text(f"Sure! Here you go:\n```json\n{json.dumps({'final_answer': list(values.values())})}\n```")

    result, _ = run(respond, instance)
    assert "text_tool_call" in result.errors
    assert result.scores["milestone_similarity"] == 1 and result.scores["answer_match"] == 1


def test_transient_errors_are_retried_and_refused_requests_end_the_episode():
    result, server = run(scripted((503, {"error": {"message": "overloaded"}}), status(429, retry_after=0), text("42")))
    assert len(server.requests) == 3 and result.errors == ["wrong_answer", "missed_milestone"]
    result, server = run(scripted((400, {"error": {"message": "context length exceeded"}})))
    assert len(server.requests) == 1 and "model_error" in result.errors and result.scores  # the model's failure
    assert "rejected" in result.output[-1]["error"]


def test_an_endpoint_failure_leaves_the_episode_unscored():
    result, server = run(scripted((500, {"error": {}})), max_retries=2)
    assert len(server.requests) == 3 and result.errors == ["endpoint_error"] and result.scores == {}
    result, _ = run(scripted(unreadable()), max_retries=0)
    assert result.errors == ["endpoint_error"] and "unreadable" in result.output[-1]["error"]


def test_a_dead_endpoint_stops_the_run_with_one_line():
    with pytest.raises(EndpointDown, match="in a row"):
        run_interactive([wine_instance()] * 10, agent("http://127.0.0.1:9/v1", max_retries=0, max_endpoint_failures=3),
                        seeds=seeds(), workers=2)


def test_a_truncated_reply_is_labelled():
    result, _ = run(scripted(completion(text("The best seller is Ramey"), finish_reason="length")))
    assert "truncated" in result.errors and result.scores["answer_match"] == 0


def test_the_api_key_comes_from_the_environment_and_stays_out_of_results(monkeypatch):
    monkeypatch.setenv("FACTORY_API_KEY", "sk-secret-12345")
    result, server = run(scripted(text("done")))
    assert server.headers[0]["Authorization"] == "Bearer sk-secret-12345"
    assert "sk-secret-12345" not in result.to_json()


def test_text_tool_call_parsing():
    found = text_tool_calls('```json\n{"name": "f", "parameters": {"x": 1}}\n``` and {"name": "g"}', {"f"})
    assert found == [{"type": "function", "function": {"name": "f", "arguments": '{"x": 1}'}}]
    assert text_tool_calls('{"final_answer": 3}', {"f"}) == []


def test_a_cached_rerun_asks_the_endpoint_nothing(tmp_path):
    instance = wine_instance()
    cache = CallCache(tmp_path / "calls.sqlite")
    with serve(replaying(instance)) as server:
        first = run_interactive([instance], agent(server.api_base, "fake", cache), seeds=seeds(), trials=2)
        asked = len(server.requests)
        again = run_interactive([instance], agent(server.api_base, "fake", cache), seeds=seeds(), trials=2)
    assert asked == 8 and len(server.requests) == asked  # 4 turns x 2 trials, then nothing
    assert [r.to_json() for r in first] == [r.to_json() for r in again]
    cache.close()


def test_no_key_and_no_endpoint_is_a_clear_error(monkeypatch):
    from factory.errors import ConfigError

    monkeypatch.delenv("FACTORY_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="no API key"):
        run_interactive([wine_instance()], ModelAgent(LMClient(LMSettings(model="openai/gpt-4o-mini"))), seeds=seeds())
