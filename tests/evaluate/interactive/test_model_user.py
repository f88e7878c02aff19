"""The model user simulator against the fake OpenAI-compatible server: answers that look like a
real model's (DSPy's sections, prose around fenced JSON, Python-quoted near misses, a tool call
written as text) are read, and the user checks count a simulator that invents values once its
prompt has no knowledge boundary."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from factory.evaluate.interactive.agents import reference_agent
from factory.evaluate.interactive.episode import run_interactive
from factory.evaluate.interactive.model_user import ModelUser, load_prompt, read_reply
from factory.evaluate.report import user_rates
from factory.lm.client import LMClient
from factory.lm.fake import in_fence, in_prose, near_miss
from factory.lm.settings import LMSettings
from tests.fake_server import serve, text

PROMPTS = Path(__file__).resolve().parents[3] / "prompts"


def _field(body: str, name: str) -> str:
    match = re.search(rf"\[\[ ## {name} ## \]\]\s*(.*?)(?=\[\[ ## |\Z)", body, re.S)
    return match.group(1).strip() if match else ""


def _person(request: dict[str, Any]) -> tuple[str, bool]:
    """What a model playing the person says: the value asked for from its boundary (or, with
    no boundary, one it makes up), the next part of its goal, or the end."""
    body = request["messages"][-1]["content"]
    boundary, goal = _field(body, "knowledge_boundary"), _field(body, "goal")
    last = [line for line in _field(body, "conversation").splitlines() if line.startswith("User B: ")][-1]
    if "?" in last:
        if boundary == "(not given)":
            return "I think it was 1987-03-05, or maybe 4512.", False
        held = re.search(r"say when User B asks for it: (.*?)\.$", boundary, re.M)
        for label, value in re.findall(r"(?:^|; )([^:;]+?): ([^;]+)", held.group(1) if held else ""):
            return f"It's {value}.", False
        return "I don't know that.", False
    later = re.search(r"part \d+ \(say once part \d+ is answered\): (.*)", goal)
    return (f"Thanks. {later.group(1)}", False) if later else ("Thanks, that's all.", True)


def person_model():
    """Replies in turn as a model does: DSPy's sections, prose around fenced JSON, a near miss
    with Python quotes, the end as a tool call written as text."""
    count = {"n": 0}

    def respond(request: dict[str, Any]) -> dict[str, Any]:
        reply, end = _person(request)
        count["n"] += 1
        style = count["n"] % 4
        if end and style == 3:
            return text(f'{reply}\n{{"name": "end_conversation", "arguments": {{}}}}')
        if style == 0:
            return text(f"[[ ## reply ## ]]\n{reply}\n\n[[ ## end_conversation ## ]]\n{end}\n\n[[ ## completed ## ]]")
        payload = json.dumps({"reply": reply, "end_conversation": end})
        return text(in_prose(in_fence(payload)) if style == 1 else near_miss(payload))

    return respond


@pytest.fixture(scope="module")
def talks(conversation_run):
    return [i for i in conversation_run.instances if i.conversation is not None][:12]


def _user(api_base: str, boundary: bool = True) -> ModelUser:
    instructions, demonstrations = load_prompt(PROMPTS)
    client = LMClient(LMSettings(model="openai/fake-user", api_base=api_base, backoff=0.01))
    return ModelUser(client, instructions, demonstrations, boundary)


def test_the_prompt_holds_the_boundary_demonstrations_and_the_tool():
    instructions, demonstrations = load_prompt(PROMPTS)
    assert "User B" in instructions and "end_conversation" in instructions
    assert "Knowledge boundary" in demonstrations and "[end_conversation: true]" in demonstrations


def test_a_held_value_has_a_sentence_of_its_own(talks):
    """A real 1.5B model copied a note written after a held value into its reply ("Samuel Costa
    (held back: say it when asked)"): the boundary says held values in a sentence of their own."""
    from factory.evaluate.interactive.model_user import boundary_text

    conversation = next(i.conversation for i in talks if i.conversation.held)
    text = boundary_text(conversation)
    held_line = next(line for line in text.splitlines() if line.startswith("You have not said yet"))
    assert all(f"{k.label}: {k.value}" in held_line for k in conversation.held)
    said_line = text.splitlines()[0]
    assert "held back" not in text and not any(f"{k.label}: {k.value}" in said_line for k in conversation.held)


@pytest.mark.parametrize("answer, expected", [
    ("[[ ## reply ## ]]\nIt's 2025-06-16.\n\n[[ ## end_conversation ## ]]\nFalse", ("It's 2025-06-16.", False)),
    (in_prose(in_fence('{"reply": "Thanks, bye.", "end_conversation": true}')), ("Thanks, bye.", True)),
    (near_miss('{"reply": "June 3, please.", "end_conversation": false}'), ("June 3, please.", False)),
    ("reply: Thanks!\nend_conversation: true", ("Thanks!", True)),
    ('Thanks, that is all.\n{"name": "end_conversation", "arguments": {}}', ("Thanks, that is all.", True)),
])
def test_answers_outside_the_format_are_read(answer, expected):
    assert read_reply(answer) == expected


def test_the_oracle_with_a_model_user_through_the_fake_server(talks):
    with serve(person_model()) as server:
        samples = run_interactive(talks, reference_agent("oracle"), user=_user(server.api_base))
    assert all(s.scores["success"] == 1.0 for s in samples), [s.errors for s in samples]
    rates = user_rates(samples)
    assert rates["hallucination_rate"] == 0.0 and rates["instruction_following_error_rate"] == 0.0
    assert rates["ended_early_rate"] == 0.0 and rates["never_ended_rate"] == 0.0
    sent = server.requests[0]["messages"][-1]["content"]
    assert "You know and may say" in sent and "User B" in sent


def test_without_the_knowledge_boundary_the_checks_count_invented_values(talks):
    asks = [i for i in talks if i.conversation.kind == "ask_user"]
    with serve(person_model()) as server:
        samples = run_interactive(asks, reference_agent("oracle"), user=_user(server.api_base, boundary=False))
    assert user_rates(samples)["hallucination_rate"] > 0
    assert all(s.user.hallucination for s in samples)
    assert all(s.scores["success"] == 0.0 for s in samples)  # the oracle never heard the value: it guessed


def test_evaluate_with_a_model_user_reports_its_errors_and_the_steps_export(conversation_run, tmp_path, monkeypatch):
    import datasets

    from tests.evaluate.conftest import invoke

    monkeypatch.setenv("FACTORY_API_KEY", "not-a-real-key")
    out = tmp_path / "results"
    with serve(person_model()) as server:
        result = invoke("evaluate", conversation_run.path, "--mode", "interactive", "--agent", "oracle",
                        "--user", "openai/fake-user", "--user-api-base", server.api_base, "--out", out)
    assert result.exit_code == 0, result.output
    results = json.loads((out / "results.json").read_text())
    assert results["user"] == "model:openai/fake-user"
    assert results["user_simulator"]["hallucination_rate"] == 0.0
    assert results["metrics"]["success"]["value"] == 1.0
    assert "## Simulated user" in (out / "summary.md").read_text()
    result = invoke("export-steps", out)
    assert result.exit_code == 0, result.output
    steps = datasets.load_dataset(str(out / "steps"), split="train", cache_dir=str(tmp_path / "hf"))
    assert len(steps) == results["step_labels"]["steps"] and all(steps["correct"])
    assert {"context", "step_message", "label"} <= set(steps.column_names)
    with serve(person_model()) as server:  # the same conversations, the prompt without the boundary
        result = invoke("evaluate", conversation_run.path, "--mode", "interactive", "--agent", "oracle",
                        "--user", "openai/fake-user", "--user-api-base", server.api_base, "--out", tmp_path / "ablated",
                        "--user-prompt", "no-boundary")
    assert result.exit_code == 0, result.output
    ablated = json.loads((tmp_path / "ablated" / "results.json").read_text())
    assert ablated["user"] == "model:openai/fake-user (no boundary)"
    assert ablated["user_simulator"]["hallucination_rate"] > results["user_simulator"]["hallucination_rate"]
