"""Conversational scenarios: an instance a person pursues over several messages (ToolSandbox's
multiple user turns and information only the user has).

- ask the user: a literal a tool needs and the person knows (the day they want, their card,
  their passport number) is left out of the first message, which says only that they have one
  in mind; the agent must ask. A call with any other value is a minefield: it was invented.
- several user turns: the request's asks arrive in parts; after the agent answers one part the
  person adds the next, which may lean on the first answer ("And book it").

The knowledge boundary is exact, since the chain says who holds every value: the person knows
every literal (they state it or are asked for it), and does not know what only a tool gives
(every output of the trace). The whole goal stays the instance's `query`, as one request.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass

from factory.checks.faithfulness import states
from factory.queries.frames import frame, greet
from factory.queries.wording import tidy
from factory.records import (
    Chain,
    Conversation,
    Expected,
    Instance,
    KnownValue,
    Milestone,
    Minefield,
    Param,
    ToolSpec,
    Trace,
    UnknownValue,
    UserTurn,
    Value,
    stable_json,
)
from factory.toolbox import ToolEntry

CONVERSATIONAL = ("ask_user", "multi_turn")
# Kinds of value a person holds and a tool needs, tried before any other literal.
PERSONAL = re.compile(r"date|time|card|passport|number|_id$|^id$|name|email|phone|account|amount|budget|seat|size")
_FREE_TEXT = ("_search_terms", "_query", "_text", "_mention", "_description")
_SAID_WITHOUT_CODE = ("currency", "language", "country", "airport")  # "the currency I want", not "currency code"
HELD_WORDS = ("the {noun} I have in mind", "the {noun} I want")
THANKS = ("Thanks.", "Got it, thanks.", "OK.", "Great.")


def held_label(param: Param) -> str:
    """What a value is, in the words a question about it uses: "travel date", "start time",
    "booking id", "currency code", "patient"."""
    from factory.queries.wording import reference_noun

    words = param.name.replace("_", " ")
    kind = param.kind or ""
    if kind == "date":
        return words if re.search(r"\b(date|day)\b", words) else f"{words} date"
    if kind == "datetime":
        return "time" if words in ("when", "at") else words if "time" in words.split() else f"{words} time"
    if kind.removesuffix("_code") in _SAID_WITHOUT_CODE:
        return kind.removesuffix("_code")
    if kind.endswith(("_id", "_code", "_number")):
        return kind.replace("_", " ")
    return reference_noun(kind, param.role) or words


def holdable(chain: Chain, specs: Mapping[str, ToolSpec], entries: Mapping[str, ToolEntry],
             joint_kinds: list[tuple[str, ...]] | None = None) -> list[tuple[int, str]]:
    """Literal arguments of task calls a person would know and could be asked for: a single
    value of a kind that is no free text, taken by one call only, no half of a pair stated
    together (a latitude without its longitude) and not the words a canonicalising call reads.
    Personal kinds (days, cards, ids, names) come first."""
    from factory.chains.pool import groups_of

    counts: dict[str, int] = {}
    for call in chain.calls:
        for arg in call.arguments.values():
            if isinstance(arg, Value):
                counts[stable_json(arg.value)] = counts.get(stable_json(arg.value), 0) + 1
    fit, personal = [], []
    for index, call in enumerate(chain.calls):
        entry = entries.get(call.tool)
        if call.fixes is not None or (entry is not None and "canonicalise" in entry.tags):
            continue
        paired = {p for g in groups_of(specs[call.tool], entry, joint_kinds or []) for p in g.params if len(g.params) > 1}
        for name, arg in call.arguments.items():
            param = specs[call.tool].param(name)
            # (not a number: "buy {n} shares" has no room for "the shares I want"; not a choice
            # among a few fixed options, which reads as a modifier: "a {mode} trip")
            if (not isinstance(arg, Value) or param is None or isinstance(arg.value, (bool, int, float, list, dict))
                    or param.enum
                    or arg.value in (None, "") or counts[stable_json(arg.value)] > 1 or name in paired
                    or (param.kind or "").endswith(_FREE_TEXT)):
                continue
            fit.append((index, name))
            if PERSONAL.search(param.kind or param.name):
                personal.append((index, name))
    return personal or fit


def held_words(chain: Chain, specs: Mapping[str, ToolSpec], spot: tuple[int, str], rng: random.Random) -> str:
    param = specs[chain.calls[spot[0]].tool].param(spot[1])
    return rng.choice(HELD_WORDS).format(noun=held_label(param))


def split_goal(chain: Chain) -> Chain | None:
    """A chain whose goal can come in two parts: two asked task calls, marking the first call
    whose value a later one takes when only one is asked. None when it has one task call."""
    tasks = [i for i, c in enumerate(chain.calls) if c.fixes is None]
    asked = [i for i in tasks if chain.calls[i].asked]
    if len(asked) >= 2:
        return chain
    graph = chain.graph()
    feeding = [i for i in tasks if graph.out_degree(i) > 0 and not chain.calls[i].asked]
    if not feeding:
        return None
    first = feeding[0]
    return Chain(calls=[c.model_copy(update={"asked": True}) if i == first else c for i, c in enumerate(chain.calls)])


def parts(asks: list[tuple[int, str]], rng: random.Random) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The asks of the first message and of the follow-up."""
    cut = rng.randint(1, len(asks) - 1)
    return asks[:cut], asks[cut:]


def turn_texts(opening: str, first: list[str], rest: list[str], rng: random.Random) -> list[str]:
    """The first message (with the request's opening sentences) and the follow-up."""
    start = tidy(greet(f"{opening} {frame(first, rng)}".strip(), rng))
    return [start, tidy(f"{rng.choice(THANKS)} {frame(rest, rng)}")]


def call_map(old: Trace, new: Trace) -> dict[int, int]:
    """Old call index → new, for a chain whose calls were put in another order: the same tool
    with the same arguments is the same call."""
    free = {}
    for step in new.steps:
        free.setdefault((step.tool, stable_json(step.arguments)), []).append(step.call)
    return {s.call: free[(s.tool, stable_json(s.arguments))].pop(0) for s in old.steps
            if free.get((s.tool, stable_json(s.arguments)))}


def boundary(chain: Chain, trace: Trace, specs: Mapping[str, ToolSpec],
             held: set[tuple[int, str]]) -> tuple[list[KnownValue], list[UnknownValue]]:
    """What the person knows (every literal: stated, or held back to be asked for) and what
    they do not (every value a tool gives them, unless it is one they know)."""
    knows, seen = [], set()
    for index, call in enumerate(chain.calls):
        for name, arg in call.arguments.items():
            param = specs[call.tool].param(name)
            if isinstance(arg, Value) and param is not None:
                knows.append(KnownValue(label=held_label(param), value=arg.value, tool=call.tool, argument=name,
                                        held=(index, name) in held))
                seen.add(stable_json(arg.value))
    unknown = []
    for step in trace.steps:
        outputs = specs[step.tool].returns
        for out, value in zip(outputs, step.outputs.values(), strict=False):
            key = stable_json(value)
            if key in seen or isinstance(value, bool) or value in (None, "", [], {}):
                continue
            seen.add(key)
            unknown.append(UnknownValue(label=(out.description or out.name.replace("_", " ")).rstrip("."), value=value))
    return knows, unknown


def turn_milestones(milestones: list[Milestone], chain: Chain, trace: Trace, turns: list[list[int]]) -> tuple[
        list[Milestone], list[list[str]]]:
    """The milestones with one answer milestone per user turn (the values that turn asks for,
    after its calls), in place of the single final one; and each turn's answer variables."""
    calls = [m for m in milestones if m.kind != "answer"]
    answers, out = [], list(calls)
    for t, asked in enumerate(turns):
        names = [v for i in asked for v in chain.calls[i].outputs if v in trace.answer]
        answers.append(names)
        values = {v: trace.answer[v] for v in names}
        text = ", ".join(f"{k}={v!r}" for k, v in values.items())
        out.append(Milestone(index=len(out), kind="answer", answer=values, after=sorted(asked), turn=t,
                             description=f"answer to turn {t + 1}: {text}" if text else
                             f"answer to turn {t + 1}: report that it is done"))
    return out, answers


def invented_minefields(knows: list[KnownValue]) -> list[Minefield]:
    return [Minefield(tool=k.tool, arguments={k.argument: Expected(value=k.value)}, invented=True,
                      reason=f"the {k.label} is known only to the person: a value not asked for is invented")
            for k in knows if k.held]


@dataclass
class Converse:
    """The conversation stage of one attempt: the scenario, what the first message holds back
    and a wording of the request without it."""

    kind: str
    held: dict[tuple[int, str], str]  # (call, argument) of the chain as worded → the words said instead
    asks: list[tuple[int, str]]
    opening: str
    rng: random.Random

    def build(self, instance: Instance, worded_trace: Trace, first: str | None,
              specs: Mapping[str, ToolSpec]) -> Instance | None:
        """The instance as a conversation, or None when the scenario cannot be made of it."""
        chain, trace = instance.chain, instance.trace
        moved = call_map(worded_trace, trace)
        if len(moved) != len(trace.steps):
            return None
        held = {(moved[i], name) for i, name in self.held}
        if self.kind == "ask_user":
            if first is None or any(states(first, chain.calls[i].arguments[n].value) for i, n in held):
                return None  # the value still shows: no question to ask
            texts, turns = [first], [[i for i in chain.asked()]]
            milestones = instance.milestones
        else:
            one, two = parts(self.asks, self.rng)
            texts = turn_texts(self.opening, [a for _, a in one], [a for _, a in two], self.rng)
            turns = [sorted(moved[i] for i, _ in one), sorted(moved[i] for i, _ in two)]
            milestones, _ = turn_milestones(instance.milestones, chain, trace, turns)
        knows, unknown = boundary(chain, trace, specs, held)
        answers = [[v for i in asked for v in chain.calls[i].outputs if v in trace.answer] for asked in turns]
        conversation = Conversation(kind=self.kind, knows=knows, unknown=unknown,
                                    turns=[UserTurn(text=t, answers=a) for t, a in zip(texts, answers, strict=True)])
        categories = [*instance.categories, self.kind]
        return instance.model_copy(update={
            "conversation": conversation, "milestones": milestones, "categories": categories,
            "minefields": [*instance.minefields, *invented_minefields(knows)]}).with_id()


def plan(kind: str, chain: Chain, specs: Mapping[str, ToolSpec], entries: Mapping[str, ToolEntry],
         rng: random.Random, joint_kinds: list[tuple[str, ...]] | None = None) -> dict[tuple[int, str], str] | None:
    """What the first message of an ask-the-user item leaves out (a value and the words said
    instead); {} for several turns; None when the chain has nothing to hold back."""
    if kind != "ask_user":
        return {}
    spots = holdable(chain, specs, entries, joint_kinds)
    if not spots:
        return None
    spot = rng.choice(spots)
    return {spot: held_words(chain, specs, spot, rng)}

