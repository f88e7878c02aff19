"""The error types a noisy reference agent injects into a correct static call list.

Each injector edits the list in place and does nothing when it does not apply (no second
call to swap, no nested argument to point elsewhere). `malformed_output` acts on the text.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

from factory.dataset.nestools import PLACEHOLDER
from factory.evaluate.static.tasks import StaticTask

Calls = list[dict[str, Any]]
INVENTED = ("lookup", "fetch", "compute", "verify", "estimate", "resolve", "sync", "summarize")


def _placeholders(calls: Calls) -> list[str]:
    return [p for c in calls for p in c.get("responses", {}).values()]


def _is_ref(value: Any) -> bool:
    return isinstance(value, str) and PLACEHOLDER.fullmatch(value) is not None


def wrong_tool(calls: Calls, task: StaticTask, rng: random.Random) -> None:
    used = {c["api_name"] for c in calls}
    others = [t for t in task.tools if t["api_name"] not in used]
    if calls and others:
        call, tool = rng.choice(calls), rng.choice(others)
        call["api_name"], call["api_id"] = tool["api_name"], tool["api_id"]


def order_swap(calls: Calls, task: StaticTask, rng: random.Random) -> None:
    if len(calls) > 1:
        i = rng.randrange(len(calls) - 1)
        calls[i], calls[i + 1] = calls[i + 1], calls[i]


def perturb(value: Any, rng: random.Random) -> Any:
    """A different value of the same kind."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice((1, 2, 7, 10))
    if isinstance(value, float):
        return round(value * rng.choice((0.5, 1.5, 2.0)) + 1, 2)
    if isinstance(value, str):
        words = value.split()
        return " ".join(reversed(words)) + " (other)" if len(words) > 1 else f"{value}-x{rng.randint(1, 9)}"
    if isinstance(value, list):
        return value[:-1] if len(value) > 1 else [*value, perturb(value[0], rng) if value else "extra"]
    return "wrong"


def wrong_literal(calls: Calls, task: StaticTask, rng: random.Random) -> None:
    slots = [(c, k) for c in calls for k, v in c["parameters"].items() if not PLACEHOLDER.search(str(v))]
    if slots:
        call, name = rng.choice(slots)
        call["parameters"][name] = perturb(call["parameters"][name], rng)


def wrong_nested_reference(calls: Calls, task: StaticTask, rng: random.Random) -> None:
    slots = [(c, k) for c in calls for k, v in c["parameters"].items() if _is_ref(v)]
    if slots:
        call, name = rng.choice(slots)
        others = [p for p in _placeholders(calls) if p != call["parameters"][name]]
        call["parameters"][name] = rng.choice(others) if others else "API_call_99"


def omitted_call(calls: Calls, task: StaticTask, rng: random.Random) -> None:
    if calls:
        del calls[rng.randrange(len(calls))]


def hallucinated_tool(calls: Calls, task: StaticTask, rng: random.Random) -> None:
    words = [re.sub(r"[^a-z]", "", w) for w in task.query.lower().split()]
    topic = rng.choice([w for w in words if len(w) > 3] or ["item"])
    start = sum(len(c.get("responses", {})) for c in calls) + 50
    invented = {"api_name": f"{rng.choice(INVENTED)}_{topic}_details", "api_id": rng.randint(990_000, 999_999),
                "parameters": {"query": task.query[:40]}, "responses": {"result": f"API_call_{start}"}}
    calls.insert(rng.randint(0, len(calls)), invented)


def malformed_output(text: str, rng: random.Random) -> str:
    """One of the ways models break the format: cut off, a key renamed, prose without a list, missing commas."""
    kind = rng.randrange(4)
    if kind == 0:
        return text[: max(1, len(text) * rng.randint(3, 8) // 10)]
    if kind == 1:
        return text.replace('"api_id"', '"id"')
    if kind == 2:
        return "I would call the tools in this order: " + ", then ".join(re.findall(r'"api_name": "([^"]+)"', text))
    if "}, {" in text:
        return text.replace("}, {", "}\n{")  # objects without separating commas
    return text[:-1] + " ...and that is all."


INJECTORS: dict[str, Callable[[Calls, StaticTask, random.Random], None]] = {
    "wrong_tool": wrong_tool,
    "order_swap": order_swap,
    "wrong_literal": wrong_literal,
    "wrong_nested_reference": wrong_nested_reference,
    "omitted_call": omitted_call,
    "hallucinated_tool": hallucinated_tool,
}
ERRORS = (*INJECTORS, "malformed_output")


def inject(calls: Calls, errors: list[str], task: StaticTask, rng: random.Random) -> str:
    for error in errors:
        if error in INJECTORS:
            INJECTORS[error](calls, task, rng)
    text = json.dumps(calls, ensure_ascii=False)
    return malformed_output(text, rng) if "malformed_output" in errors else text
