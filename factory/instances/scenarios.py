"""Scenario categories beyond a plain chain: state dependencies (the world starts with a
condition broken, so fix-up calls must come first), and insufficient information (a needed
tool is withheld). Canonicalisation and cross-domain scenarios only constrain which tools the
composer may pick, in `factory.generation.pipeline`."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from dataclasses import dataclass, replace
from typing import Any

from factory.records import Call, Chain, Ref, ToolSpec, Value
from factory.seeds.record import Seed
from factory.world.simulator import base_world

SCENARIOS = ("plain", "canonicalisation", "state_dependency", "insufficient_information", "cross_domain")
SCENARIO_WEIGHTS = {
    "plain": 0.45,
    "canonicalisation": 0.14,
    "state_dependency": 0.14,
    "insufficient_information": 0.1,
    "cross_domain": 0.17,
}
# Drawn beside the others only in a run with conversations (`GenerateConfig.conversations`):
# a value only the person knows, left out of the first message; the goal in several turns.
CONVERSATION_WEIGHTS = {"ask_user": 0.14, "multi_turn": 0.14}
NESTED_BREAK_RATE = 0.5  # how often a fix tool's own condition is broken too


class StateFixes:
    """Builds a chain in which every condition a call requires starts broken and is fixed first."""

    def __init__(self, seeds: dict[str, Seed], specs: dict[str, ToolSpec], rng: random.Random, world_seed: int,
                 breakable: set[str] | None = None):
        self.seeds, self.specs, self.rng, self.world_seed = seeds, specs, rng, world_seed
        self.breakable = breakable  # "toolbox:condition" the goal's role meets and may fix; None: any
        self.calls: list[Call] = []
        self.state: dict[str, dict[str, Any]] = defaultdict(dict)
        self.fixed: set[tuple[str, str]] = set()
        self.settled: set[tuple[str, str]] = set()  # conditions an earlier fix relied on holding

    def _fix(self, seed: Seed, name: str) -> list[int]:
        """Break condition `name`, append the calls that restore it; their positions."""
        if (seed.slug, name) in self.settled:
            return []  # an earlier fix call already ran with it holding: breaking it now would fail that call
        condition = seed.toolbox.conditions[name]
        if condition.fix_tool in self.asked:
            return []  # the request itself makes the call that would restore it
        if condition.consent and not condition.context:
            return []  # a fix the person must authorise, and no sentence in which they do
        if self.breakable is not None and f"{seed.slug}:{name}" not in self.breakable:
            return []  # not a condition the person asking meets (a receptionist and a patient's consent)
        world = base_world(seed, self.world_seed)
        broken = replace(world, state={**world.state, **self.state[seed.slug], **condition.broken_state})
        if condition.holds(broken):
            return []  # the declared broken state does not break it: nothing to fix
        self.fixed.add((seed.slug, name))
        self.state[seed.slug].update(condition.broken_state)
        before = []
        for sub in seed.toolbox.tools[condition.fix_tool].requires:
            if (seed.slug, sub) in self.fixed:
                continue
            if self.rng.random() < NESTED_BREAK_RATE:
                before += self._fix(seed, sub)
            else:
                self.settled.add((seed.slug, sub))
        spec = self.specs.get(condition.fix_tool) or seed.specs[condition.fix_tool]
        self.specs.setdefault(spec.name, spec)
        outputs = [f"fix{len(self.calls)}_{k}" for k in range(len(spec.returns))]
        arguments = {k: Value(value=v) for k, v in condition.fix_arguments.items()}
        self.calls.append(Call(tool=spec.name, arguments=arguments, outputs=outputs, after=before, fixes=name))
        return [len(self.calls) - 1]

    def apply(self, chain: Chain) -> tuple[Chain, dict[str, dict[str, Any]]] | None:
        """The chain with fix calls inserted and the initial state overrides, or None when no
        call requires a condition."""
        moved: dict[int, int] = {}
        self.asked = {call.tool for call in chain.calls}
        for index, call in enumerate(chain.calls):
            spec = self.specs[call.tool]
            seed = self.seeds[spec.toolbox] if spec.toolbox in self.seeds else None
            waits = []
            for name in seed.toolbox.tools[call.tool].requires if seed else ():
                if (seed.slug, name) not in self.fixed:
                    waits += self._fix(seed, name)
            moved[index] = len(self.calls)
            after = sorted({moved[a] for a in call.after} | set(waits))
            self.calls.append(call.model_copy(update={"after": after}))
        if not self.fixed:
            return None
        return Chain(calls=self.calls).renumbered(), dict(self.state)


def withheld_candidates(chain: Chain) -> list[int]:
    """Calls whose outputs a later call needs: withholding their tool leaves the task unsolvable."""
    graph = chain.graph()
    return [i for i in graph.nodes if graph.out_degree(i) > 0 and chain.calls[i].fixes is None]


def needed_kinds(chain: Chain, specs: dict[str, ToolSpec], index: int) -> set[tuple[str | None, str | None]]:
    """(kind, role) of the outputs of call `index` that later calls take."""
    used = {a.ref for c in chain.calls for a in c.arguments.values() if isinstance(a, Ref)}
    call = chain.calls[index]
    outputs = specs[call.tool].returns
    return {(outputs[k].kind, outputs[k].role) for k, var in enumerate(call.outputs) if var in used}


def producers_of(kinds: set[tuple[str | None, str | None]], tools: list[ToolSpec]) -> list[str]:
    """Tools with an output of one of these kinds and roles."""
    return [t.name for t in tools if any((o.kind, o.role) in kinds for o in t.returns)]


def tool_to_withhold(chain: Chain, specs: dict[str, ToolSpec], tags: dict[str, tuple[str, ...]],
                     rng: random.Random) -> str | None:
    """A gold tool whose absence truly leaves a value unobtainable: a later call needs its
    output, no other gold tool produces that kind of value, and a careful person could not
    work it out alone (not `arithmetic`, not `canonicalise`). None when no call qualifies."""
    fit = []
    for index in withheld_candidates(chain):
        tool = chain.calls[index].tool
        if {"arithmetic", "canonicalise"} & set(tags.get(tool, ())):
            continue
        others = [specs[c.tool] for c in chain.calls if c.tool != tool]
        if not producers_of(needed_kinds(chain, specs, index), others):
            fit.append(tool)
    return rng.choice(sorted(set(fit))) if fit else None


STATE_SAYS_RATE = 0.5  # how often a query states a broken condition it can state


def _unlike(previous: str | None, wordings: tuple[str, ...]) -> list[str]:
    """Wordings that neither open nor end like the sentence before them: "Turn battery saver off
    if you have to. Switch cellular on if you have to." reads like a form."""
    if previous is None:
        return list(wordings)
    opening, ending = previous.split()[0], previous.split()[-3:]
    return [w for w in wordings if w.split()[0] != opening and w.split()[-3:] != ending] or list(wordings)


@dataclass(frozen=True)
class FixContext:
    """What a query says about a chain's fix-up calls, before its asks."""

    sentences: list[str]  # the sentences the query opens with
    speaks_of: list[int]  # the fix-up call each sentence is about
    stated: list[str]  # the conditions it states ("toolbox:condition")


def fix_context(chain: Chain, specs: dict[str, ToolSpec], seeds: dict[str, Seed], rng: random.Random,
                style: Any = None) -> FixContext:
    """The sentences a query opens with for a chain's fix-up calls: the context that makes
    every fix argument knowable, and sometimes the user saying the condition is broken (then
    the fix call has a reason in the query)."""
    from factory.chains.pool import placeholders
    from factory.queries.values import render_value

    lead, groups, stated = [], [], []  # (call, sentence) said first; (call, its sentences) per fix
    previous = None  # the wording of the last context sentence
    for index, call in enumerate(chain.calls):
        if call.fixes is None:
            continue
        slug = specs[call.tool].toolbox or ""
        condition = seeds[slug].toolbox.conditions[call.fixes]
        values = {k: _written(seeds[slug], specs[call.tool], k, render_value(a.value, style=style))
                  for k, a in call.arguments.items() if isinstance(a, Value)}
        mine = []
        if condition.context:
            previous = rng.choice(_unlike(previous, condition.context))
            mine.append(previous.format(**values))
        knowable = set(call.arguments) <= set(placeholders(condition.context[0] if condition.context else ""))
        if condition.says and knowable and rng.random() < STATE_SAYS_RATE:
            said = rng.choice(condition.says)
            if condition.context:  # "My tuition is still outstanding. Settle it.", not "Should it still be due, ..."
                # right before what it makes unconditional: "Settle it." three sentences after the
                # tuition, past the card's own sentences, reads as the card (reading 45 #14)
                mine = [said, unconditional(mine[-1], said)]
            else:
                lead.append((index, said))
            stated.append(f"{slug}:{call.fixes}")
        groups.append((index, mine))
    # What the person wants restored comes before what that needs in turn: "My library card
    # stopped working. Renew it. Should my fines be in the way, pay them", not the fines first
    # (reading 55 #14).
    depth = _fix_depths(chain, specs, seeds)
    groups.sort(key=lambda group: depth[group[0]])
    ordered = lead + [(index, sentence) for index, mine in groups for sentence in mine]
    context, speaks_of = [sentence for _, sentence in ordered], [index for index, _ in ordered]
    return FixContext(context, speaks_of, stated)


def _fix_depths(chain: Chain, specs: dict[str, ToolSpec], seeds: dict[str, Seed]) -> dict[int, int]:
    """How deep each fix-up call sits: 0 for one restoring what a call the request asks for
    needs, 1 for one restoring what such a fix-up needs, and so on."""
    def needs(call: Call, slug: str, condition: str) -> bool:
        entry = seeds[slug].toolbox.tools.get(call.tool) if slug in seeds else None
        return specs[call.tool].toolbox == slug and entry is not None and condition in entry.requires

    depth: dict[int, int] = {}

    def of(index: int) -> int:
        if index not in depth:
            depth[index] = 0  # (a circle of fixes, were there one, ends here)
            call = chain.calls[index]
            slug = specs[call.tool].toolbox or ""
            served = [j for j, other in enumerate(chain.calls) if j != index and needs(other, slug, call.fixes or "")]
            depth[index] = 0 if not served or any(chain.calls[j].fixes is None for j in served) \
                else 1 + min(of(j) for j in served)
        return depth[index]

    return {index: of(index) for index, call in enumerate(chain.calls) if call.fixes is not None}


def _written(seed: Seed, spec: ToolSpec, name: str, text: str) -> str:
    """A fix argument as its seed writes its kind ("with my bank card" for the card), as the
    request's own phrasings do."""
    from factory.queries.wording import in_form, written_form

    param = spec.param(name)
    return in_form(written_form(seed.toolbox.written, param.kind, param.role) if param else None, text)


_CONDITIONAL = re.compile(r"^(?:If|Should|In case|Whenever)\b[^,]*, (.+)$")
# A condition on the state put after the action ("if it's missing", "if they're off"), which
# doubts what the person has just said; permission ("if you need it") stays.
_TRAILING = re.compile(r"^(.*?) if (?:it's|it is|they're|they are|it has|they have|that's|that is) [^.(]*?(\s*\([^)]*\))?([.!])$")
# what a condition ends on: "a buyer profile" ("the way" of "if unpaid tuition is in the way" is
# no thing: "Go ahead and pay a way", reading 62)
_THING = re.compile(r"\b(an?|no)\s+([a-z-]+(?: [a-z-]+)?)$")


def unconditional(sentence: str, said: str | None = None) -> str:
    """A context sentence without the condition it opens with, for a request that has just said
    the condition holds (`said`): "If my tuition is still due, pay it." → "Pay it.". A pronoun
    whose thing only the condition named names it: after "I'm not registered as a buyer yet.",
    "Should the agency want a buyer profile, create it" is "Create a buyer profile", not "Create it"."""
    match = _CONDITIONAL.match(sentence)
    if not match:  # "Set up my traveller profile if it's missing (I'm ...)." → "Set up my traveller profile (I'm ...)."
        return _said_once(_TRAILING.sub(r"\1\2\3", sentence), said) if said is not None else sentence
    rest = match.group(1)
    thing = _THING.search(sentence[:match.start(1)].rstrip(", "))
    if thing and said is not None and thing.group(2).split()[-1].casefold() not in said.casefold():
        rest = re.sub(r"\b(?:it|one)\b", f"a {thing.group(2)}", re.sub(r"\b(it|one) up\b", r"up \1", rest), count=1)
    return _said_once(rest[:1].upper() + rest[1:], said)


def _said_once(sentence: str, said: str | None) -> str:
    """The sentence with "it" for a thing of mine the sentence before has just named: "My library
    card stopped working. Reactivate it.", not "Reactivate my library card." (reading 62 #27)."""
    for words in (2, 1):
        for mine in re.finditer(rf"\bmy ((?:[a-z-]+ ){{{words - 1}}}[a-z-]+)\b", sentence):
            if said is not None and re.search(rf"\bmy {re.escape(mine.group(1))}\b", said, re.IGNORECASE):
                return sentence[:mine.start()] + "it" + sentence[mine.end():]
    return sentence
