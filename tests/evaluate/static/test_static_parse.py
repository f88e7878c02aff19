"""Raw static answers: read as NesTools reads them; any failure is a labelled format failure."""

from __future__ import annotations

import pytest

from factory.evaluate.static.parse import parse_response

CALL = '{"api_name": "f", "api_id": 3, "parameters": {"x": 1}, "responses": {"y": "API_call_0"}}'


@pytest.mark.parametrize("raw", [
    f"[{CALL}]",
    f"Sure, here is the plan:\n```json\n[{CALL}]\n```\nLet me know if you need more.",
    "[{'api_name': 'f', 'api_id': 3, 'parameters': {'x': 1}, 'responses': {'y': 'API_call_0'}}]",
    '[{"api_name": "f", "api_id": 3, "parameters": {"x": true, "z": null}}]',
])
def test_readable_answers(raw):
    parsed = parse_response(raw)
    assert parsed.ok and parsed.calls[0]["api_id"] == 3


@pytest.mark.parametrize("raw, problem", [
    ("I would first call f.", "format:no_list"),
    (f"[{CALL}, {CALL[:40]}", "format:truncated"),
    (f"[{CALL},, {CALL}]", "format:invalid_json"),
    ('[{"api_name": "f", "parameters": {}}]', "format:missing_api_id"),
    ('[{"api_name": "f", "api_id": 1, "parameters": "x=1"}]', "format:parameters_not_object"),
    ("[1, 2]", "format:not_a_call"),
    (f"[{CALL}], [{CALL}]", "format:not_a_call"),
    (None, "format:not_text"),
    (42, "format:not_text"),
])
def test_format_failures_are_labelled_not_raised(raw, problem):
    parsed = parse_response(raw)
    assert not parsed.ok and parsed.problem == problem


def test_text_between_the_first_and_last_bracket_is_what_counts():
    assert parse_response(f"[{CALL}] and also [oops").ok  # from the first "[" to the last "]"
    assert not parse_response(f"[draft] [{CALL}]").ok


def test_an_empty_list_is_well_formed():
    assert parse_response("[]").calls == []


def test_odd_answers_never_raise():
    import json
    import random

    from factory.evaluate.static.metrics import score_calls

    gold = [{"api_name": "f", "api_id": 1, "parameters": {"x": "API_call_9", "y": {"k": [1, "a"]}}, "responses": ["API_call_0"]}]
    atoms = [None, True, 0, -1, 2.5, "", "API_call_0", "UNK", [], {}, [1, "x"], {"k": None}, 1]
    rng = random.Random(0)

    def value(depth=0):
        if depth > 2 or rng.random() < 0.5:
            return rng.choice(atoms)
        if rng.random() < 0.5:
            return [value(depth + 1) for _ in range(rng.randint(0, 3))]
        keys = ["api_name", "api_id", "parameters", "responses", "x", "y", "k", 1]
        return {rng.choice(keys): value(depth + 1) for _ in range(rng.randint(0, 4))}

    for _ in range(2000):
        calls = [{"api_name": "f", "api_id": rng.choice([1, 1.0, "1", [1], {"a": 1}, None]), "parameters": value(1)
                  if rng.random() < 0.2 else {rng.choice(["x", "y", "z"]): value(1) for _ in range(rng.randint(0, 3))},
                  "responses": value(1)} for _ in range(rng.randint(0, 3))]
        text = json.dumps(calls) if rng.random() < 0.8 else repr(calls)
        parsed = parse_response(text)
        tally = score_calls(gold, parsed.calls, "task text")
        assert 0 <= tally.param_correct <= max(tally.param_predicted, 1)


def test_a_backslash_keeps_nestools_reading_order_python_literal_first():
    # "\/" is "/" to JSON but a kept backslash to Python: NesTools reads Python first.
    parsed = parse_response('[{"api_name": "f", "api_id": 1, "parameters": {"path": "a\\/b"}}]')
    assert parsed.calls[0]["parameters"]["path"] == "a\\/b"
    fast = parse_response('[{"api_name": "f", "api_id": 1, "parameters": {"ok": true, "n": 1.5, "none": null}}]')
    assert fast.calls[0]["parameters"] == {"ok": True, "n": 1.5, "none": None}


def test_an_answer_nested_past_the_parsers_depth_is_a_format_failure_not_a_crash():
    from factory.evaluate.static.parse import parse_response

    deep = parse_response("[" * 100000)
    assert deep.calls is None and deep.problem.startswith("format:")
