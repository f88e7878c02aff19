"""What a responder gives back in static mode: one raw answer per (task, trial) job.

A model's reply and a line of a predictions file become the same record, so scoring reads
both alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from factory.evaluate.static.tasks import StaticTask

Job = tuple[StaticTask, int]  # (task, trial)


@dataclass(frozen=True)
class Answer:
    text: Any  # the raw response (a model's text, or whatever a predictions file holds)
    answered: bool = True  # False: the request never got a response
    error: str | None = None  # why not
    endpoint_failure: bool = False  # the endpoint failed (not the model)
    truncated: bool = False  # cut at max_tokens (finish_reason "length")


Responder = Callable[[Sequence[Job]], list[Answer]]
