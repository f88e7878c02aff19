"""DSPy programs through the project's client: a real dspy.Predict against the fake server
and the fake engine; truncation, failures and a dead endpoint surface as ours."""

from __future__ import annotations

import dspy
import pytest

from factory.errors import EndpointDown
from factory.lm.cache import CallCache
from factory.lm.client import LMClient
from factory.lm.dspy_bridge import CallFailed, dspy_lm, fake_dspy_lm
from factory.lm.fake import FakeAnswer, FakeLM, in_prose, truncated
from factory.lm.settings import LMSettings
from tests.fake_server import status, text

ANSWER = "[[ ## answer ## ]]\nParis\n\n[[ ## completed ## ]]"


class Capital(dspy.Signature):
    """Name the capital city of the country."""

    country: str = dspy.InputField()
    answer: str = dspy.OutputField()


def predict(lm, country="France"):
    with dspy.context(lm=lm):
        return dspy.Predict(Capital)(country=country)


def test_predict_against_the_fake_server_goes_through_the_client(fake_server, tmp_path):
    server = fake_server(lambda request: text(in_prose(ANSWER)))
    cache = CallCache(tmp_path / "calls.sqlite")
    client = LMClient(LMSettings(model="openai/fake", api_base=server.api_base, temperature=0.3, max_tokens=300), cache)
    assert predict(dspy_lm(client)).answer == "Paris"
    request = server.requests[0]
    assert request["model"] == "fake" and request["temperature"] == 0.3 and request["max_tokens"] == 300
    assert request["messages"][0]["role"] == "system" and "capital city" in request["messages"][0]["content"]
    assert predict(dspy_lm(client)).answer == "Paris" and len(server.requests) == 1  # our cache answered
    predict(dspy_lm(client, sample=1))
    assert len(server.requests) == 2  # another sample of the same prompt is another call
    summary = client.usage.summary(priced=False)
    assert (summary.requests, summary.cached) == (2, 1)


def test_predict_against_the_fake_engine_directly_and_through_the_client():
    assert predict(fake_dspy_lm(FakeLM([ANSWER]))).answer == "Paris"
    fake = FakeLM({"Peru": ANSWER.replace("Paris", "Lima")}, default=ANSWER)
    client = LMClient(LMSettings(model="openai/fake"), transport=fake)
    assert predict(dspy_lm(client), "Peru").answer == "Lima"
    assert "Peru" in fake.requests[0].prompt and client.usage.summary(priced=False).answered == 1


def test_a_truncated_answer_is_a_call_failure_with_the_partial_text():
    client = LMClient(LMSettings(model="openai/fake"), transport=FakeLM([truncated(ANSWER, 0.6)]))
    with pytest.raises(CallFailed) as caught:
        predict(dspy_lm(client))
    assert caught.value.reply.truncated and caught.value.reply.text.startswith("[[ ## answer")
    assert predict(dspy_lm(client, allow_truncated=True)).answer  # when a stage wants it anyway


def test_failures_and_a_dead_endpoint_come_out_as_ours(fake_server):
    client = LMClient(LMSettings(model="openai/fake", max_retries=0), transport=FakeLM([FakeAnswer(fail="rejected")]))
    with pytest.raises(CallFailed, match="rejected"):
        predict(dspy_lm(client))
    server = fake_server(lambda request: status(503, "down"))
    client = LMClient(LMSettings(model="openai/fake", api_base=server.api_base, max_retries=0, max_endpoint_failures=1))
    with pytest.raises(EndpointDown, match="in a row"):
        predict(dspy_lm(client))
