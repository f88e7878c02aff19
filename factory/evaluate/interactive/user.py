"""The simulated user of a conversational item: a backend of the interactive episode beside
the agent, offline (scripted, deterministic) or a model (`factory.evaluate.interactive.model_user`).

Whenever the agent writes to the person instead of calling a tool, the user answers. The
offline user reads the agent's message against its knowledge boundary: asked about a value it
knows it says that value, in one of a few phrasings; asked about anything else, that it does
not know; given an answer, it hands over the next part of its goal, or ends the conversation
(ToolSandbox's `end_conversation`) once the last part is answered or the agent gives up.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any, Protocol

from factory.errors import ConfigError
from factory.records import Conversation, Instance, KnownValue, UnknownValue

Message = dict[str, Any]
OFFLINE = "offline"

SAY_VALUE = ("It's {v}.", "{v}.", "Let's go with {v}.", "I'd like {v}, please.", "That would be {v}.")
DONT_KNOW = ("I don't know that, sorry.", "I'm afraid I don't know.", "No idea, sorry; I don't know that.")
CLOSING = ("Thanks, that's all.", "Great, thank you. That's everything.", "Thanks, that's all I needed.")
GIVING_UP = ("OK, never mind then.", "Alright, thanks anyway.")
# A closing courtesy is no question to the person ("Anything else I can help with?").
_SIGN_OFF = re.compile(r"\b(anything else|let me know|help (you )?with|can i help|further assistance|need more)\b", re.I)
# The agent gives up on the goal (not: "that room is not available").
_GIVES_UP = re.compile(r"\bI (?:cannot|can ?not|can't|am unable to|'m unable to|won't be able to) "
                       r"(?:complete|help|do|finish|proceed|carry)", re.I)
_STOP = frozenset("the a an of to for in on at by and or is it its your my what which who when where how do you "
                  "would like want should please name".split())


class UserError(Exception):
    """The user simulator could not answer (its model endpoint failed after its retries)."""


@dataclass(frozen=True)
class UserReply:
    """What the user says back to one message of the agent's."""

    text: str | None  # what it says; None when it ends without a word
    end: bool = False  # it called end_conversation
    answered: bool = False  # the agent's message answered the current part of the goal
    about: str | None = None  # what the agent asked: "held" (a value it had to ask for), "known", "unknown"


class UserSession(Protocol):
    def respond(self, messages: list[Message]) -> UserReply: ...


class User(Protocol):
    name: str

    def session(self, instance: Instance, trial: int) -> UserSession: ...


def words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _STOP and len(w) > 1}


def asks_person(text: str) -> bool:
    """Whether a message of the agent's asks the person something (a question that is no
    closing courtesy)."""
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s]
    return any(s.rstrip().endswith("?") and not _SIGN_OFF.search(s) for s in sentences)


def about(text: str, conversation: Conversation, told: set[int]) -> KnownValue | UnknownValue | None:
    """What a question is about: a value the person knows whose label it names (those held back
    and not yet told first), else one they do not know whose label it names most closely; a
    question naming neither, when exactly one held value is still untold, is about that one."""
    said = words(text)
    held = [k for k in range(len(conversation.knows)) if conversation.knows[k].held]
    order = [*(k for k in held if k not in told), *(k for k in range(len(conversation.knows)) if k not in held)]
    for k in order:
        label = words(conversation.knows[k].label)
        if label and label <= said:
            return conversation.knows[k]
    best = max(conversation.unknown, key=lambda u: len(words(u.label) & said), default=None)
    if best is not None and len(words(best.label) & said) >= min(2, len(words(best.label))):
        return best
    untold = [k for k in held if k not in told]
    return conversation.knows[untold[0]] if len(untold) == 1 else None


def render(value: Any, rng: random.Random) -> str:
    from factory.queries.values import render_value

    return render_value(value, rng)


@dataclass
class OfflineSession:
    conversation: Conversation
    rng: random.Random
    turn: int = 0  # the part of the goal the agent is on
    told: set[int] = field(default_factory=set)  # known values said so far (positions in `knows`)

    def respond(self, messages: list[Message]) -> UserReply:
        text = str(messages[-1].get("content") or "") if messages else ""
        if asks_person(text):
            value = about(text, self.conversation, self.told)
            if isinstance(value, KnownValue):
                position = self.conversation.knows.index(value)
                kind = "held" if value.held and position not in self.told else "known"
                self.told.add(position)
                return UserReply(self.rng.choice(SAY_VALUE).format(v=render(value.value, self.rng)), about=kind)
            return UserReply(self.rng.choice(DONT_KNOW), about="unknown")
        if gives_up(text):
            return UserReply(self.rng.choice(GIVING_UP), end=True)
        if self.turn + 1 >= len(self.conversation.turns):
            return UserReply(self.rng.choice(CLOSING), end=True, answered=True)
        self.turn += 1
        return UserReply(self.conversation.turns[self.turn].text, answered=True)


@dataclass
class OfflineUser:
    """The scripted user: deterministic per (seed, instance, trial)."""

    name: str = OFFLINE
    seed: int = 0

    def session(self, instance: Instance, trial: int) -> OfflineSession:
        if instance.conversation is None:
            raise ConfigError(f"instance {instance.id} is no conversation: it has no user to simulate")
        return OfflineSession(instance.conversation, random.Random(f"user:{self.seed}:{instance.id}:{trial}"))


def offline_user(spec: str, seed: int = 0) -> OfflineUser:
    if spec != OFFLINE:
        raise ConfigError(f"unknown user {spec!r}: use offline, or a model name")
    return OfflineUser(seed=seed)


def gives_up(text: str) -> bool:
    """Whether the agent says it cannot go on with the goal."""
    return bool(_GIVES_UP.search(text))
