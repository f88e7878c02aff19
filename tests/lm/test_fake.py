"""The shipped fake model: scripted, mapped and rule-based answers, real models' bad habits,
transient failures, and its two uses (an LMClient transport, a DSPy engine)."""

from __future__ import annotations

import json

from factory.lm.client import LMClient
from factory.lm.fake import FakeAnswer, FakeLM, in_fence, in_prose, misbehaving, near_miss, truncated
from factory.lm.reply import Call
from factory.lm.settings import LMSettings

PLAN = json.dumps([{"api_name": "lookup", "api_id": 1, "parameters": {"city": "Paris", "open": True}}])


def ask(fake: FakeLM, *prompts: str, **settings):
    lm = LMClient(LMSettings(model="openai/fake", backoff=0.0, **settings), transport=fake)
    return lm, lm.complete_many([Call(messages=[{"role": "user", "content": p}]) for p in prompts])


def test_scripted_answers_come_in_order_and_the_last_repeats():
    _, replies = ask(FakeLM(["one", FakeAnswer("two"), "three"]), "a", "b", "c", "d", concurrency=1)
    assert [r.text for r in replies] == ["one", "two", "three", "three"]


def test_mapped_and_rule_based_answers():
    _, replies = ask(FakeLM({"France": "Paris", "Peru": "Lima"}, default="no idea"), "capital of Peru?", "of Mars?")
    assert [r.text for r in replies] == ["Lima", "no idea"]
    _, replies = ask(FakeLM(lambda request: request.prompt.upper()), "shout")
    assert replies[0].text == "SHOUT"


def test_styles_are_what_real_models_write():
    assert in_prose(PLAN).startswith("Sure!") and PLAN in in_prose(PLAN)
    assert in_fence(PLAN) == f"```json\n{PLAN}\n```"
    miss = near_miss(PLAN)
    assert "'api_name'" in miss and "True" in miss and miss.rstrip("]").endswith(",")
    cut = truncated(PLAN)
    assert cut.finish_reason == "length" and PLAN.startswith(cut.text) and len(cut.text) < len(PLAN)
    styled = misbehaving(lambda request: PLAN)
    _, replies = ask(FakeLM(styled), *[f"prompt {i}" for i in range(40)])
    assert {r.text == PLAN for r in replies} == {True, False}  # a mix, decided per prompt
    assert any(r.truncated for r in replies) and any("```json" in (r.text or "") for r in replies)


def test_transient_failures_are_retried_by_the_client_and_never_exceed_the_limit():
    fake = FakeLM(lambda request: "ok " + request.prompt, failure_rate=0.3, max_failures=2)
    lm, replies = ask(fake, *[f"q{i}" for i in range(50)], max_retries=2)
    assert all(r.ok and r.text == f"ok q{i}" for i, r in enumerate(replies))
    summary = lm.usage.summary(priced=False)
    assert summary.retries == len(fake.requests) - 50 > 0
    assert set(summary.retried) <= {"rate_limited", "server_error", "unreadable"}


def test_tool_calls_and_truncation_pass_through_the_client():
    call = {"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": '{"city": "Paris"}'}}
    _, replies = ask(FakeLM([FakeAnswer(tool_calls=[call]), truncated(PLAN)]), "a", "b", concurrency=1)
    assert replies[0].tool_calls == [call] and replies[0].finish_reason == "tool_calls"
    assert replies[1].truncated
