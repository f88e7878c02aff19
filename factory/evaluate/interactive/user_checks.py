"""The simulated user measured (ToolSandbox's Table 2, by machine): every user turn after the
first is checked against the conversation's knowledge boundary, which the factory knows exactly.

- hallucination: the turn states a value outside the boundary: one only a tool gives, or a
  day or number that is no value the person knows and that nobody said before, or, asked for
  a value it holds back, anything but that value ("Lyon" for the country it has in mind);
- instruction-following: the turn speaks as the assistant ("How can I help you?", "I have
  booked ...", "Let me look that up", and what a real small model said as the person: "I'm
  glad to help! Let's move on to the next part of your goal", "I don't have the information
  you need ... clarify what you're looking for"), and a held value kept back when asked for;
- ending early: the user ended before the goal was met, the agent not having given up;
- never ending: the goal was met and the user went on instead of ending the conversation.
"""

from __future__ import annotations

import re

from factory.checks.faithfulness import normalise, states
from factory.evaluate.interactive.answers import dates_in, numbers_in
from factory.evaluate.interactive.transcript import Episode
from factory.evaluate.interactive.user import gives_up
from factory.records import Instance, UserCheck

_ASSISTANT = re.compile(
    r"\b(how (can|may) i (help|assist)|is there anything else|i('ve| have) (booked|found|scheduled|checked|reserved|"
    r"cancelled|placed|sent|updated)|let me (check|look|find|search|see)|i('ll| will) (check|look|find|search|book)|"
    r"here (is|are) (the|your)|as an ai|i can help you|your request has been|according to (the|my) (search|tool)|"
    r"let me know if you need|(?:glad|happy) to (?:help|assist)|your goal|(?:the )?information you (?:need|want|are looking for)"
    r"|clarify what you(?:'re| are) looking for|anything else i can (?:help|assist)|feel free to ask)\b",
    re.I,
)


_NOT_KNOWN = re.compile(r"\b(?:(?:don't|do not|doesn't|does not) (?:know|have)|not sure|no idea|unknown)\b", re.I)


def _said_before(episode: Episode, upto: int) -> str:
    return " ".join(str(m.get("content") or "") for m in episode.messages[:upto])


def hallucinated(instance: Instance, text: str, before: str) -> list[str]:
    """Values the turn states that lie outside the boundary."""
    conversation = instance.conversation
    known = [k.value for k in conversation.knows]
    spoken = " ".join([before, *(t.text for t in conversation.turns)])
    found = [f"{u.label} {u.value!r}" for u in conversation.unknown
             if isinstance(u.value, (str, int, float)) and not isinstance(u.value, bool)
             and states(text, u.value) and not states(spoken, u.value)]
    for day in dates_in(text):
        if day not in {str(v)[:10] for v in known} and day not in dates_in(spoken):
            found.append(f"the day {day}")
    numbers = {float(v) for v in known if isinstance(v, (int, float)) and not isinstance(v, bool)}
    said = set(numbers_in(spoken)) | {n for v in known if isinstance(v, str) for n in numbers_in(v)}
    for number in numbers_in(text):
        if number not in numbers and number not in said and not any(states(text, v) for v in known):
            found.append(f"the number {number:g}")
    return found


def check_user(instance: Instance, episode: Episode) -> UserCheck:
    problems, hallucinations, instructions = [], 0, 0
    held = [k.value for k in instance.conversation.held]
    for exchange in episode.exchanges:
        text = exchange.said or ""
        if not text:
            continue
        invented = hallucinated(instance, text, _said_before(episode, exchange.message + 1))
        # asked for a value it holds, it gave another ("Lyon" for the country it has in mind)
        # or said it does not know it
        missed = exchange.about == "held" and not invented and not any(states(text, v) for v in held)
        if missed and not _NOT_KNOWN.search(text):
            invented = ["another value than the one it holds"]
        if invented:
            hallucinations += 1
            problems.append(f"hallucination after message {exchange.message}: {', '.join(invented)}")
        if missed and not invented:
            instructions += 1
            problems.append(f"withheld a value it holds after message {exchange.message}: {text[:80]!r}")
        elif _ASSISTANT.search(normalise(text)) or _ASSISTANT.search(text):
            instructions += 1
            problems.append(f"spoke as the assistant after message {exchange.message}: {text[:80]!r}")
    turns = len(instance.conversation.turns)
    answered = sum(e.answered for e in episode.exchanges)
    last = next((e for e in reversed(episode.exchanges) if e.end), None)
    agent = str(episode.messages[last.message].get("content") or "") if last is not None else ""
    early = last is not None and answered < turns and not gives_up(agent)
    never = answered >= turns and not episode.ended
    problems += ["ended before the goal was met"] * early + ["did not end once the goal was met"] * never
    return UserCheck(turns=sum(bool(e.said) for e in episode.exchanges), hallucination=hallucinations,
                     instruction=instructions, ended_early=early, never_ended=never, problems=problems)
