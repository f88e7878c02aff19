"""Step labels of an interactive trajectory (process supervision, as ToolComp labels steps),
from the milestones and the world, with no annotator:

- a tool call `advances` when the best milestone mapping gives it a milestone in full; it is a
  `minefield` when it hits one; a `wrong_call` when it failed, met a milestone only in part
  (the right tool, some argument wrong) or changed the world towards no milestone; else
  `harmless` (it read something and changed nothing);
- a question to the person is `asked_needed` when it asked for a value held back from the
  first message and not yet given, else `asked_needless`;
- an answer `advances` when it states its turn's answer in full, else it is a `wrong_answer`.
"""

from __future__ import annotations

from factory.evaluate.interactive.transcript import Episode, needs_refusal
from factory.evaluate.matching import minefield_hit, score_milestones
from factory.records import Instance, StepLabel


def label_steps(instance: Instance, episode: Episode) -> list[StepLabel]:
    replies = episode.replies if instance.conversation is not None else []
    score = score_milestones(instance.milestones, instance.minefields, episode.steps, episode.final,
                             query=instance.query, refusal=needs_refusal(instance), replies=replies)
    met = {step: score.per_milestone[m] for m, step in score.mapping.items()}
    exchanges = {e.message: e for e in episode.exchanges}
    labels, k, reply = [], 0, 0
    for position, message in enumerate(episode.messages):
        if message.get("role") != "assistant" or message.get("error"):
            continue
        calls = message.get("tool_calls") or []
        for c in range(len(calls)):
            if k < len(episode.steps):
                labels.append(_call_label(instance, episode, k, met.get(k), position, c))
            k += 1
        if calls:
            continue
        exchange = exchanges.get(position)
        if exchange is not None and exchange.about is not None:
            needed = exchange.about == "held"
            labels.append(StepLabel(message=position, kind="question",
                                    label="asked_needed" if needed else "asked_needless",
                                    reason="asked for a value held back from the first message" if needed else
                                    f"asked for a value the person {'stated already' if exchange.about == 'known' else 'does not know'}"))
            continue
        column = len(episode.steps) + (reply if replies else 0)
        reply += bool(exchange is not None and exchange.answered)
        full = met.get(column, 0.0) >= 1.0
        labels.append(StepLabel(message=position, kind="answer", label="advances" if full else "wrong_answer",
                                reason="states the answer in full" if full else "misses or misstates a value asked for"))
    return labels


def _call_label(instance: Instance, episode: Episode, k: int, weight: float | None, message: int,
                call: int) -> StepLabel:
    step = episode.steps[k]
    mines = [mine for mine in instance.minefields if minefield_hit(mine, step)]
    if mines:
        return StepLabel(message=message, call=call, kind="call", label="minefield", reason=mines[0].reason)
    if weight is not None and weight >= 1.0:
        return StepLabel(message=message, call=call, kind="call", label="advances", reason="meets a milestone")
    if weight is not None:
        reason = "the right tool with an argument wrong"
    elif not step.ok:
        reason = "the call failed"
    elif step.changed:
        reason = "changed the world towards no milestone"
    else:
        return StepLabel(message=message, call=call, kind="call", label="harmless", reason="read something, changed nothing")
    return StepLabel(message=message, call=call, kind="call", label="wrong_call", reason=reason)
