"""Static mode against a fake OpenAI-compatible server on 127.0.0.1: answers like real models
give them (prose, fences, truncation, wrong tools, errors), concurrency, retries, the cache."""

from __future__ import annotations

import json
import threading
import time

from factory.evaluate.aggregate import static_metrics
from factory.evaluate.agents import oracle_calls
from factory.evaluate.models import ChatModel, ModelSettings, ResponseCache, served_name
from factory.evaluate.static import model_responder, run_static
from tests.evaluate.fake_openai_server import completion, serve, text
from tests.evaluate.static_helpers import tasks


def by_prompt(task_list):
    return {t.prompt: t for t in task_list}


def answering(task_list, style):
    known = by_prompt(task_list)

    def respond(request):
        task = known[request["messages"][0]["content"]]
        return style(task, json.dumps(oracle_calls(task)))

    return respond


def model(server, tmp_path, **settings):
    defaults = {"retries": 2, "backoff": 0.01, "concurrency": 4}
    cache = ResponseCache(tmp_path / "cache.sqlite")
    return ChatModel(ModelSettings("openai/fake", server.api_base, **(defaults | settings)), cache)


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
    assert problems.count("format:truncated") == 3 and problems.count("format:no_list") == 3
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
            return 401, {"error": {"message": "bad key"}}
        if attempts[prompt] < 3:
            return 503, {"error": {"message": "overloaded"}}
        return text(json.dumps(oracle_calls(task)))

    with serve(flaky) as server:
        samples = run_static(task_list, model_responder(model(server, tmp_path)), "fake")
    assert samples[0].scores == {} and samples[0].errors[0] == "no_response" and "401" in samples[0].errors[1]
    assert all(s.scores["tree"] == 1.0 for s in samples[1:])
    assert attempts[task_list[0].prompt] == 1 and attempts[task_list[1].prompt] == 3


class CountingModel(ChatModel):
    """Counts requests in flight on the client side (the fake server answers one at a time)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.lock, self.now, self.peak = threading.Lock(), 0, 0

    def _request(self, prompt):
        with self.lock:
            self.now += 1
            self.peak = max(self.peak, self.now)
        try:
            return super()._request(prompt)
        finally:
            with self.lock:
                self.now -= 1


def test_requests_run_concurrently_and_answers_are_cached(tmp_path):
    task_list = tasks(8)

    def slow(request):
        time.sleep(0.05)
        return text(json.dumps(oracle_calls(by_prompt(task_list)[request["messages"][0]["content"]])))

    with serve(slow) as server:
        settings = ModelSettings("fake", server.api_base, concurrency=8, backoff=0.01)
        chat = CountingModel(settings, ResponseCache(tmp_path / "cache.sqlite"))
        first = run_static(task_list, model_responder(chat), "fake")
        again = run_static(task_list, model_responder(model(server, tmp_path)), "fake")
    assert chat.peak > 1
    assert len(server.requests) == len(task_list)  # the second run was answered from the cache
    assert [s.output for s in again] == [s.output for s in first]


def test_trials_are_separate_requests(tmp_path):
    task_list = tasks(3)
    with serve(answering(task_list, lambda t, j: text(j))) as server:
        samples = run_static(task_list, model_responder(model(server, tmp_path)), "fake", trials=2)
    assert len(server.requests) == 6 and [s.trial for s in samples] == [0, 1] * 3


def test_provider_prefixes_are_dropped():
    assert served_name("openai/gpt-4o-mini") == "gpt-4o-mini"
    assert served_name("hosted_vllm/Qwen/Qwen2.5-7B") == "Qwen/Qwen2.5-7B"
    assert served_name("meta-llama/Llama-3.1-8B") == "meta-llama/Llama-3.1-8B"
