"""Reading a model's raw static-mode answer as NesTools does, and saying why it failed.

NesTools takes the text from the first "[" to the last "]", reads it as a Python literal or
else as JSON, and accepts it when every item is an object with `api_name`, `api_id` and an
object of `parameters`. Anything else is a format failure: scored (Format accuracy 0, no
predicted calls), never an exception. The failure gets a label for error analysis.
"""

from __future__ import annotations

import ast
import json
import warnings
from dataclasses import dataclass
from typing import Any

REQUIRED_KEYS = ("api_name", "api_id", "parameters")


@dataclass(frozen=True)
class Parsed:
    calls: list[dict[str, Any]] | None  # None: a format failure
    problem: str | None = None  # format failure label

    @property
    def ok(self) -> bool:
        return self.calls is not None


def _bracketed(text: str) -> str:
    # Python slicing semantics on purpose: no "[" gives start -1, no "]" gives end 0.
    return text[text.find("["): text.rfind("]") + 1]


def _read(snippet: str) -> tuple[bool, Any]:
    # Without a backslash, a text that is both JSON and a Python literal means the same in
    # both (and JSON's true/false/null are no Python literals), so the fast C parser can go
    # first without changing NesTools' reading (and need not be asked again after Python).
    # Any failure to read is a format failure, whatever the parser raised.
    if not snippet:  # no list at all: neither JSON nor a Python literal
        return False, None
    plain = "\\" not in snippet
    if plain:
        try:
            return True, json.loads(snippet)
        except (ValueError, RecursionError):  # ("[" * 100000 nests past the parser's depth)
            pass
    try:
        with warnings.catch_warnings():  # a model's "\/" is an invalid escape to Python: not the user's problem
            warnings.simplefilter("ignore")
            return True, ast.literal_eval(snippet)
    except Exception:  # noqa: BLE001
        if plain:
            return False, None
    try:
        return True, json.loads(snippet)
    except Exception:  # noqa: BLE001
        return False, None


def _unreadable(text: str) -> str:
    if "[" not in text:
        return "format:no_list"
    opened = text.count("[") + text.count("{")
    closed = text.count("]") + text.count("}")
    return "format:truncated" if opened > closed else "format:invalid_json"


def _item_problem(item: Any) -> str | None:
    if not isinstance(item, dict):
        return "format:not_a_call"
    for key in REQUIRED_KEYS:
        if key not in item:
            return f"format:missing_{key}"
    if not isinstance(item["parameters"], dict):
        return "format:parameters_not_object"
    return None


def parse_response(raw: Any) -> Parsed:
    """The predicted call list of a raw response, or the reason it has none."""
    if not isinstance(raw, str):
        return Parsed(None, "format:not_text")
    ok, value = _read(_bracketed(raw))
    if not ok:
        return Parsed(None, _unreadable(raw))
    try:
        items = list(value)
    except TypeError:
        return Parsed(None, "format:not_a_list")
    if isinstance(value, (str, bytes, dict)):
        return Parsed(None, "format:not_a_list")
    for item in items:
        problem = _item_problem(item)
        if problem:
            return Parsed(None, problem)
    return Parsed(items)
