"""Raw static answers: read as NesTools reads them; any failure is a labelled format failure."""

from __future__ import annotations

import pytest

from factory.evaluate.static_parse import parse_response

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
