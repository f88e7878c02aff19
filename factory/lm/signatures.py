"""DSPy signatures for the model stages, built one way, and the one way their answers are read.

A stage declares its fields as (name, type, description) rows and its instruction (the
prompt file in `prompts/`); `signature` makes the DSPy Signature. `model_answer` runs a
prediction with the stage's LM and turns DSPy's failures into data a stage records.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

FieldRow = tuple[str, type, str]  # (name, type, description; "" for none)


def signature(name: str, instructions: str, inputs: Sequence[FieldRow], outputs: Sequence[FieldRow]) -> Any:
    """A DSPy Signature named `name`: the input fields, then the output fields, in order."""
    import dspy

    def field(kind: Callable[..., Any], desc: str) -> Any:
        return kind(desc=desc) if desc else kind()

    fields = {n: (t, field(dspy.InputField, d)) for n, t, d in inputs}
    fields.update({n: (t, field(dspy.OutputField, d)) for n, t, d in outputs})
    return dspy.make_signature(fields, instructions, signature_name=name)


def model_answer(ask: Callable[[], Any], lm: Any) -> tuple[str, str]:
    """(the answer's text, why it failed or ""): a DSPy prediction's output field, or, when the
    model ignored DSPy's answer format, its whole raw answer to read leniently. A call that
    failed after its retries gives its partial text and the reason; a dead endpoint raises."""
    import dspy
    from dspy.utils.exceptions import AdapterParseError

    from factory.lm.dspy_bridge import CallFailed

    try:
        with dspy.context(lm=lm):
            return str(ask()), ""
    except AdapterParseError as exc:
        return str(exc.lm_response or ""), ""
    except CallFailed as exc:
        reply = exc.reply
        return reply.text or "", str(exc) or "the model call failed"


def structured_answer(lm: Any, messages: list[dict[str, Any]], response_format: dict[str, Any],
                      **options: Any) -> tuple[str, str]:
    """(the answer's text, why it failed or ""): one call of a dspy.LM with chat messages under
    a `response_format` (a JSON schema) and other request `options`, failures as in
    `model_answer`."""
    import warnings

    from factory.lm.dspy_bridge import CallFailed

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # chat messages straight to the LM, on purpose
            out = lm(messages=messages, response_format=response_format, **options)
    except CallFailed as exc:
        return exc.reply.text or "", str(exc) or "the model call failed"
    first = out[0] if out else ""
    return str(first.get("text", "") if isinstance(first, dict) else first), ""


JSON_TYPES = {str: "string", bool: "boolean", int: "integer", float: "number"}


def json_type(type_: Any) -> dict[str, Any]:
    """A field's or a declared value's type ("list[str]" as tool specs write it) in JSON Schema."""
    names = {"str": str, "bool": bool, "int": int, "float": float}
    if isinstance(type_, str) and type_.startswith("list"):
        inner = type_[5:-1] if "[" in type_ else ""
        return {"type": "array", "items": json_type(inner)} if inner in names else {"type": "array"}
    if type_ == "dict":
        return {"type": "object"}
    type_ = names.get(type_, type_)
    return {"type": JSON_TYPES[type_]} if type_ in JSON_TYPES else {}


def verdict_format(name: str, outputs: Sequence[FieldRow]) -> dict[str, Any]:
    """A response_format whose schema is an object with the output fields, in order."""
    properties = {n: json_type(t) for n, t, _ in outputs}
    return {"type": "json_schema", "json_schema": {"name": name, "schema": {
        "type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}}}
