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
