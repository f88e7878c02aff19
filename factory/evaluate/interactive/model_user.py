"""A model as the simulated user (ToolSandbox's user simulator): a DSPy signature whose
instruction and demonstrations live in `prompts/user_simulator.md`, given the person's goal in
parts, their knowledge boundary (what they know and may say, what they do not know) and the
conversation so far, where the assistant is "User B" (role reversal confused ToolSandbox's
simulator). It says the person's next message, and its one tool, `end_conversation`, ends the
conversation. Answers outside DSPy's format (prose, fences, `reply:` lines, a tool call written
as text) are read leniently.

Which of the agent's messages were questions, what they asked about and when a part of the goal
was answered are read as the offline user reads them (`factory.evaluate.interactive.user`), so
the scoring and the user checks treat both backends alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from factory.config import Settings
from factory.errors import ConfigError
from factory.evaluate.interactive.user import Message, UserError, UserReply, about, asks_person
from factory.records import Conversation, Instance, KnownValue

PROMPT_FILE = "user_simulator.md"
DEMONSTRATIONS = "## Demonstrations"
ASKS = [("goal", str, "your goal, in parts: those said and those still to say"),
        ("knowledge_boundary", str, "what you know and may say, and what you do not know"),
        ("demonstrations", str, "example conversations of a person like you"),
        ("conversation", str, "the conversation so far, the last line User B's")]
GIVES = [("reply", str, "what you say next, as the person, in one or two sentences"),
         ("end_conversation", bool, "your one tool: true to end the conversation")]
_SECTION = re.compile(r"\[\[ ## (\w+) ## \]\]\s*(.*?)(?=\[\[ ## \w+ ## \]\]|$)", re.S)
_ENDS = re.compile(r"end_conversation[\"']?\s*(?:[:=]\s*[\"']?(true|yes|1)\b|\(\s*\))|\"name\"\s*:\s*\"end_conversation\"",
                   re.I)


def load_prompt(prompts_dir: Path) -> tuple[str, str]:
    """(instructions, demonstrations) of the user simulator's prompt file."""
    path = prompts_dir / PROMPT_FILE
    if not path.is_file():
        raise ConfigError(f"missing prompt file {path} (the instructions of the user simulator)")
    text = path.read_text(encoding="utf-8")
    instructions, _, demonstrations = text.partition(DEMONSTRATIONS)
    return " ".join(instructions.split()), demonstrations.strip()


def goal_text(conversation: Conversation, said: int) -> str:
    parts = []
    for t, turn in enumerate(conversation.turns):
        when = "said" if t < said else f"say once part {t} is answered"
        parts.append(f"part {t + 1} ({when}): {turn.text}")
    return "\n".join(parts)


def boundary_text(conversation: Conversation) -> str:
    """What the person knows, what they hold back until asked, what they do not know. A held
    value gets a sentence of its own: a small real model copied a note written after the value
    ("Samuel Costa (held back: say it when asked)") into its reply."""
    def known(values: list[KnownValue]) -> str:
        return "; ".join(f"{k.label}: {k.value}" for k in values)

    knows = known([k for k in conversation.knows if not k.held]) or "nothing beyond your goal"
    held = known([k for k in conversation.knows if k.held])
    unknown = "; ".join(u.label for u in conversation.unknown) or "anything else"
    return (f"You know and may say: {knows}.\n"
            + (f"You have not said yet, and say when User B asks for it: {held}.\n" if held else "")
            + f"You do not know: {unknown}.")


def transcript(messages: list[Message]) -> str:
    """The conversation as the person sees it: their messages and User B's words, no tool calls."""
    lines = []
    for message in messages:
        content = str(message.get("content") or "").strip()
        if message.get("role") == "user" and content:
            lines.append(f"You: {content}")
        elif message.get("role") == "assistant" and content:
            lines.append(f"User B: {content}")
    return "\n".join(lines)


def read_reply(text: str) -> tuple[str, bool]:
    """The person's words and whether end_conversation was called, from an answer outside
    DSPy's format: its sections, a `reply:` line, or the prose itself without fences."""
    sections = {name: body.strip() for name, body in _SECTION.findall(text)}
    end = bool(_ENDS.search(text)) or sections.get("end_conversation", "").lower().startswith(("true", "yes"))
    stated = _json_reply(text)
    if stated is not None:
        flag = stated.get("end_conversation")
        return str(stated.get("reply") or "").strip(), end or flag is True or str(flag).lower() in ("true", "yes")
    reply = sections.get("reply")
    if reply is None:
        line = re.search(r"(?im)^\s*\**(?:reply|you|user)\**\s*[:=]\s*(.+)$", text)
        reply = line.group(1) if line else re.sub(r"```\w*|```", "", text)
    reply = re.sub(r"\{(?:[^{}]|\{[^{}]*\})*end_conversation(?:[^{}]|\{[^{}]*\})*\}", "", reply)  # the tool call
    reply = _ENDS.sub("", reply)
    reply = re.sub(r"(?im)^\s*\[?end_conversation[^\n]*$", "", reply)
    return reply.strip().strip('"').strip(), end


def _json_reply(text: str) -> dict[str, Any] | None:
    """The object with a `reply` the answer states as JSON (fenced, inline, or with Python's
    quotes and literals), if any."""
    import ast

    from factory.evaluate.interactive.final_answer import json_values

    for value in reversed(json_values(text)):
        if isinstance(value, dict) and "reply" in value:
            return value
    for match in reversed(list(re.finditer(r"\{[^{}]*\}", text))):
        try:
            value = ast.literal_eval(match.group(0))
        except (ValueError, SyntaxError):
            continue
        if isinstance(value, dict) and "reply" in value:
            return value
    return None


@dataclass
class ModelSession:
    user: ModelUser
    instance: Instance
    lm: Any
    turn: int = 0
    told: set[int] = field(default_factory=set)

    def respond(self, messages: list[Message]) -> UserReply:
        conversation = self.instance.conversation
        text = str(messages[-1].get("content") or "") if messages else ""
        kind, answered = None, False
        if asks_person(text):
            value = about(text, conversation, self.told)
            kind = "unknown"
            if isinstance(value, KnownValue):
                position = conversation.knows.index(value)
                kind = "held" if value.held and position not in self.told else "known"
                self.told.add(position)
        else:
            answered = True
        reply, end = self.user.ask(self.lm, goal=goal_text(conversation, self.turn + 1),
                                   knowledge_boundary=boundary_text(conversation) if self.user.boundary else
                                   "(not given)", demonstrations=self.user.demonstrations or "(none)",
                                   conversation=transcript(messages))
        if answered and self.turn + 1 < len(conversation.turns):
            self.turn += 1
        return UserReply(reply or None, end=end, answered=answered, about=kind)


@dataclass
class ModelUser:
    """The user simulator on a model. `boundary` and `demonstrations` switch those parts of
    the prompt (ToolSandbox's ablation: the simulator errs more without them)."""

    client: Any  # factory.lm.client.LMClient
    instructions: str
    demonstrations: str = ""
    boundary: bool = True

    def __post_init__(self) -> None:
        import dspy

        from factory.lm.signatures import signature

        self.predict = dspy.Predict(signature("SimulateUser", self.instructions, ASKS, GIVES))

    @property
    def name(self) -> str:
        ablated = "" if self.boundary and self.demonstrations else \
            " (no boundary)" if not self.boundary else " (no demonstrations)"
        return f"model:{self.client.settings.model}{ablated}"

    @classmethod
    def connect(cls, model: str, api_base: str | None, settings: Settings, cache: Path, temperature: float = 0.0,
                boundary: bool = True, demonstrations: bool = True) -> ModelUser:
        from factory.lm.cache import CallCache
        from factory.lm.client import LMClient
        from factory.lm.settings import lm_settings

        client = LMClient(lm_settings(settings, model=model, api_base=api_base, temperature=temperature))
        client.check()
        client.cache = CallCache(cache)
        instructions, demos = load_prompt(settings.prompts_dir)
        return cls(client, instructions, demos if demonstrations else "", boundary)

    def session(self, instance: Instance, trial: int) -> ModelSession:
        from factory.lm.dspy_bridge import dspy_lm

        if instance.conversation is None:
            raise ConfigError(f"instance {instance.id} is no conversation: it has no user to simulate")
        return ModelSession(self, instance, dspy_lm(self.client, sample=trial))

    def ask(self, lm: Any, **inputs: str) -> tuple[str, bool]:
        import dspy
        from dspy.utils.exceptions import AdapterParseError

        from factory.lm.dspy_bridge import CallFailed

        try:
            with dspy.context(lm=lm):
                prediction = self.predict(**inputs)
        except AdapterParseError as exc:
            return read_reply(str(exc.lm_response or ""))
        except CallFailed as exc:  # (an endpoint that is down stops the run, as for the agent)
            raise UserError(f"the user simulator's model failed: {exc}") from None
        reply, end = read_reply(str(prediction.reply or ""))
        return reply, bool(prediction.end_conversation) or end
