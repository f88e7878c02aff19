"""The conversation check: a conversational item is a fair conversation. The first message
leaves out every value the person is to be asked for and the turns state every other literal;
no turn gives away a value only a tool knows; each held value is one a gold call takes; the
turns' answers are the whole answer."""

from __future__ import annotations

from factory.checks.context import CheckContext
from factory.checks.faithfulness import free_arguments, missing_values, states
from factory.records import CheckResult, Instance, Value


def conversation_problems(instance: Instance) -> list[str]:
    conversation = instance.conversation
    if conversation is None:
        return []
    problems = []
    first = conversation.turns[0].text
    taken = {(c.tool, name, repr(a.value)) for c in instance.chain.calls for name, a in c.arguments.items()
             if isinstance(a, Value)}
    for known in conversation.held:
        if states(first, known.value):
            problems.append(f"the first message states the held {known.label} {known.value!r}")
        if (known.tool, known.argument, repr(known.value)) not in taken:
            problems.append(f"no gold call takes the held {known.label} {known.value!r}")
    said = " ".join(t.text for t in conversation.turns)
    for unknown in conversation.unknown:
        # (a word the whole request says as well, "cancelled" of "cancel it", gives nothing away)
        if isinstance(unknown.value, (str, list)) and states(said, unknown.value) and not states(instance.query,
                                                                                                  unknown.value):
            problems.append(f"a turn gives away {unknown.label} {unknown.value!r}, which only a tool knows")
    answered = [v for t in conversation.turns for v in t.answers]
    if sorted(answered) != sorted(instance.trace.answer):
        problems.append(f"the turns' answers {answered} are not the answer {sorted(instance.trace.answer)}")
    if conversation.kind == "ask_user" and not conversation.held:
        problems.append("an ask-the-user item holds no value back")
    if conversation.kind == "multi_turn" and len(conversation.turns) < 2:
        problems.append("a goal in several turns has one turn")
    return problems


def unsaid(instance: Instance, ctx: CheckContext) -> list[str]:
    """Literals that no turn states and that are not held back to be asked for."""
    conversation = instance.conversation
    said = " ".join(t.text for t in conversation.turns) if conversation else instance.query
    held = {(k.tool, k.argument) for k in conversation.held} if conversation else set()
    return [m for m in missing_values(instance.chain, said, free_arguments(instance, ctx))
            if not any(f" {tool}.{arg}=" in m for tool, arg in held)]


def check_conversation(instance: Instance, ctx: CheckContext) -> CheckResult:
    problems = conversation_problems(instance) + [f"no turn states {m}" for m in unsaid(instance, ctx)]
    return CheckResult(name="conversation", passed=not problems, reason="; ".join(problems))
