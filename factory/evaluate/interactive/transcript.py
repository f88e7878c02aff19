"""The record of one interactive episode: the transcript, the tool calls as steps, the replies
and what the simulated user said back; shared by the episode loop, its scoring, the step labels
and the user checks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from factory.evaluate.matching import Step
from factory.records import Instance

Message = dict[str, Any]


@dataclass
class Exchange:
    """One message of the agent's to the person and the simulated user's answer."""

    message: int  # position of the agent's message in the transcript
    said: str | None  # the user's words
    end: bool = False  # the user ended the conversation
    answered: bool = False  # the agent's message answered a part of the goal
    about: str | None = None  # what the agent asked ("held", "known", "unknown"; None: no question)


@dataclass
class Episode:
    messages: list[Message]
    steps: list[Step] = field(default_factory=list)
    final: str | None = None  # the final answer; None when the episode never gave one
    turns: int = 0  # assistant messages
    errors: list[str] = field(default_factory=list)  # error labels, in order of occurrence
    replies: list[str] = field(default_factory=list)  # a conversation: the agent's answer to each user turn
    exchanges: list[Exchange] = field(default_factory=list)  # a conversation: what the user said back
    ended: bool = False  # a conversation: the user called end_conversation

    def label(self, error: str) -> None:
        self.errors.append(error)


def needs_refusal(instance: Instance) -> bool:
    """Whether the right final reply says (part of) the task cannot be completed: a needed
    tool is withheld, or the gold chain itself failed."""
    return bool(instance.withheld_tools) or not instance.trace.ok
