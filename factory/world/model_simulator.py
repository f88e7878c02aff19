"""A model that simulates tools without an implementation (StableToolBench's virtual API).

Given the tool's spec, the call's arguments and the session so far, the model answers with JSON
of the declared return types. Every answer that conforms is kept in a persistent cache keyed
by the tool and the arguments, so the same call always gets the same answer, and earlier
answers of the same tool are shown with each new call to keep the tool consistent. An answer
that is not JSON of the declared types is not cached and not used: the next backend (the typed
mock) answers instead.
"""

from __future__ import annotations

import ast
import json
import re
import sqlite3
import threading
from pathlib import Path
from typing import Any

from factory.lm.signatures import json_type, model_answer, signature, structured_answer
from factory.records import RecordedCall, ToolSpec, stable_json, value_matches_type
from factory.world.simulator import ToolResult, call_key

SHOWN_EARLIER = 5  # earlier answers of the same tool shown with a call


class SimulatedCalls:
    """The cache: (tool spec, arguments) → outputs, on disk, shared by threads."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.lock = threading.Lock()
        self.db = sqlite3.connect(str(path), check_same_thread=False)
        self.db.execute("CREATE TABLE IF NOT EXISTS calls (key TEXT PRIMARY KEY, tool TEXT, arguments TEXT, outputs TEXT)")
        self.db.commit()

    @staticmethod
    def key(spec: ToolSpec, arguments: dict[str, Any]) -> str:
        return call_key(stable_json(spec.model_dump(mode="json")), arguments)

    def get(self, spec: ToolSpec, arguments: dict[str, Any]) -> list[Any] | None:
        with self.lock:
            row = self.db.execute("SELECT outputs FROM calls WHERE key = ?", (self.key(spec, arguments),)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, spec: ToolSpec, arguments: dict[str, Any], outputs: list[Any]) -> None:
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO calls VALUES (?, ?, ?, ?)",
                            (self.key(spec, arguments), spec.name, stable_json(arguments), json.dumps(outputs)))
            self.db.commit()

    def earlier(self, tool: str, limit: int = SHOWN_EARLIER) -> list[RecordedCall]:
        with self.lock:
            rows = self.db.execute("SELECT arguments, outputs FROM calls WHERE tool = ? ORDER BY rowid LIMIT ?",
                                   (tool, limit)).fetchall()
        return [RecordedCall(tool=tool, arguments=json.loads(a), outputs=json.loads(o)) for a, o in rows]


def read_outputs(text: str, spec: ToolSpec) -> list[Any] | str:
    """The declared return values from a model's answer (a JSON object by return name, maybe
    fenced or in prose), or the reason it cannot be used. An {"error": ...} answer is the tool
    refusing the call."""
    match = re.search(r"\{.*\}", text, re.S)
    if not match:
        return "the answer holds no JSON object"
    value: Any = None
    for read in (json.loads, ast.literal_eval):
        try:
            value = read(match.group(0))
            break
        except (ValueError, SyntaxError):
            continue
    if not isinstance(value, dict):
        return "the answer's object is not readable JSON"
    if set(value) == {"error"}:
        return f"error: {value['error']}"
    outputs = []
    for out in spec.returns:
        if out.name not in value:
            return f"the answer lacks {out.name!r}"
        if not value_matches_type(value[out.name], out.type):
            return f"{out.name}={value[out.name]!r} is not {out.type}"
        outputs.append(value[out.name])
    return outputs


ASKS = [("tool", str, "the tool's specification as JSON"),
        ("arguments", str, "the call's arguments as JSON"),
        ("session", str, "earlier calls and answers, one JSON object per line")]
GIVES = [("answer", str, "a JSON object with one key per declared return value")]


class ModelToolSimulator:
    """A simulator backend (factory.world.simulator.ToolBackend) answering with a model."""

    def __init__(self, lm: Any, instructions: str, cache: SimulatedCalls, structured: bool = False):
        import dspy

        self.lm, self.cache = lm, cache
        self.predict = dspy.Predict(signature("SimulateCall", instructions, ASKS, GIVES))
        self.instructions, self.structured = instructions, structured  # structured: the answer under its schema

    def ask(self, spec: ToolSpec, arguments: dict[str, Any], session: str) -> tuple[str, str]:
        if not self.structured:
            return model_answer(lambda: self.predict(tool=spec.to_json(), arguments=stable_json(arguments),
                                                     session=session).answer, self.lm)
        properties = {o.name: json_type(o.type) for o in spec.returns}
        fmt = {"type": "json_schema", "json_schema": {"name": "result", "schema": {
            "type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}}}
        asked = f"tool: {spec.to_json()}\narguments: {stable_json(arguments)}\nsession:\n{session}"
        return structured_answer(self.lm, [{"role": "system", "content": self.instructions},
                                           {"role": "user", "content": asked}], fmt)

    def answer(self, spec: ToolSpec, arguments: dict[str, Any], history: list[RecordedCall]) -> ToolResult | None:

        cached = self.cache.get(spec, arguments)
        if cached is not None:
            return ToolResult(cached, backend="model")
        shown = [*self.cache.earlier(spec.name), *history][-2 * SHOWN_EARLIER:]
        session = "\n".join(r.to_json() for r in shown) or "(no earlier calls)"
        text, failed = self.ask(spec, arguments, session)
        outputs = read_outputs(text, spec) if not failed else failed
        if isinstance(outputs, str):
            if outputs.startswith("error: "):
                return ToolResult([], outputs.removeprefix("error: "), backend="model")
            return None  # not a usable answer: the typed mock answers instead
        self.cache.put(spec, arguments, outputs)
        return ToolResult(outputs, backend="model")
