"""LMClient against the fake OpenAI-compatible server on 127.0.0.1: what real endpoints do
(429 with Retry-After, 500, a 200 that is not JSON, slow drip, truncation, an echoed key, a
dead port) ends as an answer or a recorded failure, never a traceback or a hang."""

from __future__ import annotations

import threading
import time

import pytest

from factory.errors import EndpointDown
from factory.lm.cache import CallCache
from factory.lm.client import LMClient
from factory.lm.reply import Call
from factory.lm.settings import LMSettings
from tests.fake_server import Raw, completion, drip, echoing_key, status, text, truncated, unreadable

KEY = "sk-test-4f9a1c2e7b"
ASK = [{"role": "user", "content": "What is 6 x 7?"}]


def client(server, cache=None, **settings) -> LMClient:
    values = {"model": "openai/fake", "api_base": server.api_base, "backoff": 0.01, "timeout": 5.0} | settings
    return LMClient(LMSettings(**values), cache)


def scripted(*replies):
    """Replies in order; the last one repeats."""
    queue = list(replies)
    lock = threading.Lock()

    def respond(request):
        with lock:
            return queue.pop(0) if len(queue) > 1 else queue[0]

    return respond


class RecordingWaits(LMClient):
    waits: list[float]

    def _wait(self, attempt, retry_after):
        delay = super()._wait(attempt, retry_after)
        self.waits = getattr(self, "waits", []) + [delay]
        return delay


def test_429_with_retry_after_is_honoured_then_answered(fake_server):
    server = fake_server(scripted(status(429, "slow down", retry_after=0.3), text("42")))
    lm = RecordingWaits(LMSettings(model="openai/fake", api_base=server.api_base, backoff=0.01))
    reply = lm.complete(ASK)
    assert reply.text == "42" and reply.attempts == 2 and len(server.requests) == 2
    assert lm.waits[0] >= 0.3  # the server's wait, not the 0.01 s backoff
    assert lm.usage.summary(priced=False).retried == {"rate_limited": 1}


def test_backoff_grows_with_jitter_and_stays_under_the_ceiling():
    lm = LMClient(LMSettings(model="openai/fake", api_base="http://127.0.0.1:9", backoff=1.0, max_backoff=5.0))
    waits = [[lm._wait(attempt, None) for attempt in (1, 2, 3, 4, 5)] for _ in range(20)]
    assert all(0.5 <= w[0] <= 1.0 and 1.0 <= w[1] <= 2.0 and w[4] <= 5.0 for w in waits)
    assert len({w[0] for w in waits}) > 1  # jitter: retries of many clients do not line up
    assert lm._wait(1, retry_after=60.0) == 5.0  # a Retry-After beyond the ceiling is capped


def test_500_is_retried_then_recorded_as_an_endpoint_failure(fake_server):
    server = fake_server(scripted(status(500, "boom"), status(503, "busy"), text("ok")))
    assert client(server).complete(ASK).text == "ok" and len(server.requests) == 3
    server = fake_server(scripted(status(500, "boom")))
    lm = client(server, max_retries=2)
    reply = lm.complete(ASK)
    assert not reply.ok and reply.endpoint_failure and reply.error_kind == "server_error" and reply.attempts == 3
    assert len(server.requests) == 3 and lm.usage.summary(priced=False).errors == {"server_error": 1}


@pytest.mark.parametrize("body", [unreadable(), unreadable("data: {\"choices\": ["), completion({"content": "x"}) | {"choices": []},
                                  Raw(200, {"error": {"message": "model overloaded"}})])
def test_a_200_without_a_readable_answer_is_retried_then_an_endpoint_error(fake_server, body):
    server = fake_server(scripted(body))
    reply = client(server, max_retries=1).complete(ASK)
    assert reply.error_kind == "unreadable" and reply.endpoint_failure and len(server.requests) == 2
    server = fake_server(scripted(body, text("fine")))
    assert client(server, max_retries=1).complete(ASK).text == "fine"


def test_a_slow_drip_is_cut_at_the_total_timeout(fake_server):
    server = fake_server(scripted(drip(text("x" * 400), interval=0.02, chunk=4)))  # ~2 s of body
    started = time.monotonic()
    reply = client(server, timeout=0.4, max_retries=1).complete(ASK)
    elapsed = time.monotonic() - started
    assert reply.error_kind == "timeout" and reply.attempts == 2
    assert elapsed < 1.6, elapsed  # two attempts of 0.4 s plus the backoff, not two full drips


def test_a_truncated_answer_is_flagged_counted_and_not_cached(fake_server, tmp_path):
    server = fake_server(scripted(truncated('[{"api_name": "lookup", "parameters": {"city": "Par')))
    cache = CallCache(tmp_path / "calls.sqlite")
    lm = client(server, cache)
    reply = lm.complete(ASK)
    assert reply.ok and reply.truncated and not reply.complete and reply.text.startswith('[{"api_name"')
    assert len(cache) == 0 and lm.usage.summary(priced=False).truncated == 1
    client(server, cache).complete(ASK)
    assert len(server.requests) == 2  # asked again on a rerun


def test_an_echoed_key_never_reaches_the_answer_or_the_cache(fake_server, tmp_path, monkeypatch):
    monkeypatch.setenv("FACTORY_API_KEY", KEY)
    server = fake_server(None)
    server.responder = echoing_key(server)
    cache = CallCache(tmp_path / "calls.sqlite")
    reply = client(server, cache).complete(ASK)
    assert server.key() == KEY  # it was sent
    assert KEY not in reply.text and "[REDACTED]" in reply.text
    cache.close()
    assert KEY.encode() not in b"".join(p.read_bytes() for p in tmp_path.iterdir())
    server = fake_server(scripted(status(500, f"bad key {KEY}")))
    failed = client(server, max_retries=0).complete(ASK)
    assert KEY not in failed.error and "[REDACTED]" in failed.error


def test_a_rejected_request_is_not_retried_and_not_an_endpoint_failure(fake_server):
    server = fake_server(scripted(status(400, "context length exceeded")))
    lm = client(server, max_endpoint_failures=2)
    replies = [lm.complete([{"role": "user", "content": str(i)}]) for i in range(4)]  # never stops the run
    assert all(r.error_kind == "rejected" and not r.endpoint_failure for r in replies) and len(server.requests) == 4
    assert lm.usage.summary(priced=False).rejected == 4


def test_a_dead_endpoint_stops_with_one_line_after_consecutive_failures():
    lm = LMClient(LMSettings(model="openai/fake", api_base="http://127.0.0.1:9/v1", backoff=0.01, max_retries=1,
                             max_endpoint_failures=3, concurrency=4))
    calls = [Call(messages=[{"role": "user", "content": str(i)}]) for i in range(200)]
    with pytest.raises(EndpointDown) as caught:
        lm.complete_many(calls)
    message = str(caught.value)
    assert "\n" not in message and "127.0.0.1:9" in message and "failed" in message and "in a row" in message
    summary = lm.usage.summary(priced=False)
    assert summary.endpoint_failures < 10 and summary.requests < 20  # stopped early, not 200 failures
    with pytest.raises(EndpointDown):
        lm.complete(ASK)


def test_a_success_resets_the_count_of_failures_in_a_row(fake_server):
    replies = [status(500)] * 2 + [text("ok")] + [status(500)] * 2 + [text("ok")]
    server = fake_server(scripted(*replies))
    lm = client(server, max_retries=0, max_endpoint_failures=3)
    outcomes = [lm.complete([{"role": "user", "content": str(i)}]).ok for i in range(6)]
    assert outcomes == [False, False, True, False, False, True]


def test_twenty_percent_transient_failures_lose_nothing(fake_server):
    server = fake_server(lambda request: text("answer to " + request["messages"][0]["content"]), failure_rate=0.2)
    lm = client(server, max_retries=2, concurrency=8)
    calls = [Call(messages=[{"role": "user", "content": f"question {i}"}]) for i in range(60)]
    replies = lm.complete_many(calls)
    assert [r.text for r in replies] == [f"answer to question {i}" for i in range(60)]
    per_request: dict[str, int] = {}
    for request in server.requests:
        per_request[request["messages"][0]["content"]] = per_request.get(request["messages"][0]["content"], 0) + 1
    assert max(per_request.values()) <= 3 and len(server.requests) > 60  # some were retried, none beyond the limit
    summary = lm.usage.summary(priced=False)
    assert summary.requests == 60 and summary.retries == len(server.requests) - 60 and not summary.errors


def test_concurrency_is_used_and_bounded(fake_server):
    state = {"now": 0, "peak": 0}
    lock = threading.Lock()

    def respond(request):
        with lock:
            state["now"] += 1
            state["peak"] = max(state["peak"], state["now"])
        time.sleep(0.1)
        with lock:
            state["now"] -= 1
        return text("ok")

    server = fake_server(respond)
    client(server, concurrency=3).complete_many([Call(messages=[{"role": "user", "content": str(i)}]) for i in range(12)])
    assert state["peak"] == 3


def test_the_cache_answers_a_rerun_and_keys_trials_and_settings_apart(fake_server, tmp_path):
    server = fake_server(lambda request: text(f"t={request['temperature']}"))
    cache = CallCache(tmp_path / "calls.sqlite")
    first = client(server, cache).complete(ASK)
    again = client(server, cache).complete(ASK)
    assert again.cached and again.text == first.text and len(server.requests) == 1
    client(server, cache).complete(ASK, trial=1)
    client(server, cache, temperature=0.7).complete(ASK)
    client(server, cache).complete(ASK, tools=[{"type": "function", "function": {"name": "f", "parameters": {}}}])
    assert len(server.requests) == 4
    lm = client(server, cache)
    lm.complete(ASK)
    assert lm.usage.summary(priced=False).cached == 1 and lm.usage.summary(priced=False).requests == 0


def test_tool_calls_come_back_with_string_arguments(fake_server):
    call = {"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": {"city": "Paris"}}}
    server = fake_server(scripted({"content": None, "tool_calls": [call]}))
    reply = client(server).complete(ASK)
    assert reply.tool_calls == [{"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": '{"city": "Paris"}'}}]
    assert reply.complete and reply.finish_reason == "tool_calls"


def test_the_key_is_sent_as_a_bearer_token_and_tokens_are_counted(fake_server, monkeypatch):
    monkeypatch.setenv("FACTORY_API_KEY", KEY)
    server = fake_server(scripted(text("one two three")))
    lm = client(server)
    lm.complete(ASK)
    assert server.headers[0]["Authorization"] == f"Bearer {KEY}" and server.requests[0]["model"] == "fake"
    summary = lm.usage.summary(priced=False)
    assert (summary.prompt_tokens, summary.completion_tokens, summary.answered) == (12, 4, 1)
    assert "1 model calls, 0 cached" in summary.line() and KEY not in summary.model_dump_json()
