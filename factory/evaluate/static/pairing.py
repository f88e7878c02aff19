"""What the metrics and the error taxonomy both read: gold ↔ predicted call pairs and nesting.

A value is nested when it mentions `API_call` (a placeholder for an earlier call's output);
"UNK" is NesTools' value for a parameter the model could not fill.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PLACEHOLDER = "API_call"
UNKNOWN = "UNK"


def is_nested(value: Any) -> bool:
    return PLACEHOLDER in (value if isinstance(value, str) else str(value))


@dataclass
class Matching:
    """Gold ↔ predicted call pairs, in the order they were made, and each predicted call's outputs."""

    pairs: list[tuple[int, int]] = field(default_factory=list)  # (gold index, predicted index)
    outputs: list[list[Any]] = field(default_factory=list)
