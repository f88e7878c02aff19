"""Static mode against a fake OpenAI-compatible server on 127.0.0.1: answers like real models
give them (prose, fences, truncation, wrong tools, errors), concurrency, retries, the cache."""

from __future__ import annotations

import json
import threading
import time

from factory.evaluate.aggregate import static_metrics
from factory.evaluate.static.agents import oracle_calls
from factory.evaluate.static.scoring import model_responder, run_static
from factory.lm.cache import CallCache
from factory.lm.client import LMClient
from factory.lm.settings import LMSettings
from tests.evaluate.static.static_helpers import tasks
from tests.fake_server import completion, serve, text, unreadable


def by_prompt(task_list):
    return {t.prompt: t for t in task_list}


def answering(task_list, style):
    known = by_prompt(task_list)

    def respond(request):
        task = known[request["messages"][0]["content"]]
        return style(task, json.dumps(oracle_calls(task)))

    return respond


def model(server, tmp_path, **settings):
    defaults = {"max_retries": 2, "backoff": 0.01, "concurrency": 4}
    cache = CallCache(tmp_path / "calls.sqlite")
    return LMClient(LMSettings(model="openai/fake", api_base=server.api_base, **(defaults | settings)), cache)


def test_prose_and_fences_around_the_list_still_score(tmp_path):
    task_list = tasks(12)
    styles = [lambda t, j: text(j), lambda t, j: text(f"Here is the plan:\n```json\n{j}\n```\nDone."),
              lambda t, j: text(f"Plan: {j}")]
    with serve(answering(task_list, lambda t, j: styles[t.test_id % 3](t, j))) as server:
        samples = run_static(task_list, model_responder(model(server, tmp_path)), "fake")
    assert static_metrics(samples)["tree_pass_rate"] == 1.0
    assert server.requests[0]["model"] == "fake" and server.requests[0]["temperature"] == 0.0


def test_broken_answers_are_scored_as_format_failures(tmp_path):
    task_list = tasks(12)
    broken = [lambda t, j: completion(text(j[: len(j) // 2]), finish_reason="length"),
              lambda t, j: text("I cannot help with that."),
              lambda t, j: text(j.replace('"api_id"', '"id"')),
              lambda t, j: text(j.replace(t.gold[0]["api_name"], "made_up_tool"))]
    with serve(answering(task_list, lambda t, j: broken[t.test_id % 4](t, j))) as server:
        samples = run_static(task_list, model_responder(model(server, tmp_path)), "fake")
    problems = [s.errors[0] if s.errors else None for s in samples]
    assert problems.count("truncated") == 3 and problems.count("format:no_list") == 3
    assert all(s.errors == ["truncated", "format:truncated"] for s in samples if "truncated" in s.errors)
    assert problems.count("format:missing_api_id") == 3
    assert static_metrics(samples)["format_accuracy"] == 0.25  # a wrong name with the right id is still well formed


def test_transient_errors_are_retried_and_permanent_ones_recorded(tmp_path):
    task_list = tasks(4)
    attempts: dict[str, int] = {}

    def flaky(request):
        prompt = request["messages"][0]["content"]
        attempts[prompt] = attempts.get(prompt, 0) + 1
        task = by_prompt(task_list)[prompt]
        if task.test_id == 1:
            return 400, {"error": {"message": "context length exceeded"}}
        if attempts[prompt] < 3:
            return 503, {"error": {"message": "overloaded"}}
        return text(json.dumps(oracle_calls(task)))

    with serve(flaky) as server:
        samples = run_static(task_list, model_responder(model(server, tmp_path)), "fake")
    assert samples[0].scores == {} and samples[0].errors[0] == "no_response" and "400" in samples[0].errors[1]
    assert samples[0].errors[1].startswith("request_error: rejected")
    assert all(s.scores["tree"] == 1.0 for s in samples[1:])
    assert attempts[task_list[0].prompt] == 1 and attempts[task_list[1].prompt] == 3


def test_requests_run_concurrently_and_answers_are_cached(tmp_path):
    task_list = tasks(8)
    state = {"now": 0, "peak": 0}
    lock = threading.Lock()

    def slow(request):
        with lock:
            state["now"] += 1
            state["peak"] = max(state["peak"], state["now"])
        time.sleep(0.05)
        with lock:
            state["now"] -= 1
        return text(json.dumps(oracle_calls(by_prompt(task_list)[request["messages"][0]["content"]])))

    with serve(slow) as server:
        first = run_static(task_list, model_responder(model(server, tmp_path, concurrency=8)), "fake")
        again = run_static(task_list, model_responder(model(server, tmp_path)), "fake")
    assert state["peak"] > 1
    assert len(server.requests) == len(task_list)  # the second run was answered from the cache
    assert [s.output for s in again] == [s.output for s in first]


def test_unreadable_answers_and_a_failing_endpoint_are_left_out_with_their_reason(tmp_path):
    task_list = tasks(3)
    with serve(lambda request: unreadable()) as server:
        samples = run_static(task_list, model_responder(model(server, tmp_path, max_endpoint_failures=10)), "fake")
    assert all(s.scores == {} and s.errors[1].startswith("endpoint_error: unreadable") for s in samples)
    assert len(server.requests) == 9  # three attempts each


def test_trials_are_separate_requests(tmp_path):
    task_list = tasks(3)
    with serve(answering(task_list, lambda t, j: text(j))) as server:
        samples = run_static(task_list, model_responder(model(server, tmp_path)), "fake", trials=2)
    assert len(server.requests) == 6 and [s.trial for s in samples] == [0, 1] * 3
