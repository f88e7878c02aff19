"""What would make a request hard to read, found from its chain before a word is written.

The offline writer describes a nested value by what it is, recursively, inside the part of the
request that takes it. Two shapes of that read badly:

- a description holding two others, one inside the other or side by side: "the country where
  the bestseller among wines in the wine region that is home to Muga on June 8 is produced";
- a call whose value was described, described again in full for another of its values: "the
  hottest high anywhere in India on June 19 ... the wind in the hottest city of India that day";
- a description that says an earlier value again beside other arguments: "the heat index for
  that temperature with the wind at the wind strength in that city on that day".

The writer then asks for such a value itself (`factory.queries.wording.mark_asked`): "What sold
best in the wine region that is home to Muga on June 8? How many bottles of that wine ...", and
later parts say "that wine", "that city". The readability check finds what slips through.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from factory.chains.pool import Group, groups_of, states
from factory.records import Chain, Ref, ToolSpec
from factory.toolbox import ToolEntry

# What travels with a value (a salary's currency, its tax country): described with it or not,
# it is the same thing ("that salary").
COMPANION_KINDS = frozenset({"currency_code", "country"})
# Descriptions a description may hold. A cold reader stumbles already over one inside another
# ("the prescriber of the latest medication of the patient whose chart is under Ethan Silva"):
# the writer asks for the inner value in its own sentence and says "that patient" after.
MAX_NESTED = 0


@dataclass(frozen=True)
class Description:
    """A nested value described in full where a call takes it: the call that makes it, the
    variables described, and the calls described in full inside it (`inside`: at any depth,
    `children`: directly)."""

    call: int
    variables: tuple[str, ...]
    inside: tuple[int, ...]
    children: tuple[int, ...]
    crowded: bool = False  # it says a value again ("that city") beside other arguments


@dataclass
class Walk:
    """Every description a request asking for `asked` (in chain order) makes, and the calls
    described again in full for another of their values."""

    descriptions: list[Description] = field(default_factory=list)
    redescribed: list[int] = field(default_factory=list)
    unsayable: list[int] = field(default_factory=list)  # described, though no description states its arguments


def transparent(tool: str, entries: Mapping[str, ToolEntry]) -> bool:
    """A canonicalising call described by the form the user states ("next Friday": every
    description is a bare placeholder) adds no description of its own; one described in words
    ("the specialty indicated for constant fatigue") does."""
    entry = entries.get(tool)
    if entry is None or "canonicalise" not in entry.tags:
        return False
    return all(re.fullmatch(r'"?\{\w+\}"?', text.strip()) for texts in entry.gives.values() for text in texts)


class _Walker:
    """The state of one walk: the descriptions made so far, the calls asked so far (their
    values are "that booking") and the slots each call was described for."""

    def __init__(self, chain: Chain, specs: Mapping[str, ToolSpec], entries: Mapping[str, ToolEntry],
                 joint_kinds: Sequence[tuple[str, ...]]):
        self.chain, self.specs, self.entries, self.joint_kinds = chain, specs, entries, list(joint_kinds)
        self.producers = chain.producers()
        self.result = Walk()
        self.done: set[int] = set()
        self.said: dict[int, list[frozenset[str]]] = {}

    def kinds(self, index: int, variables: frozenset[str]) -> set[str | None]:
        call, spec = self.chain.calls[index], self.specs[self.chain.calls[index].tool]
        return {spec.returns[call.outputs.index(v)].kind for v in variables}

    def describe(self, variables: tuple[str, ...]) -> int | None:
        chain, entries, result, said, done = self.chain, self.entries, self.result, self.said, self.done
        index = self.producers[variables[0]]
        key = frozenset(variables)
        before = said.setdefault(index, [])
        if index in done or any(key == k or self.kinds(index, key ^ k) <= COMPANION_KINDS for k in before):
            return None
        before.append(key)
        if transparent(chain.calls[index].tool, entries):
            return None
        if len(before) > 1:
            result.redescribed.append(index)
        if not self.sayable(index, variables):
            result.unsayable.append(index)
        # (before its own slots are described; a canonicalised form the user states is their own words)
        back = any(p in done or (p in said and not transparent(chain.calls[p].tool, entries))
                   for p in self.sources(index))
        children = self.slots(index)
        inside = {i for d in result.descriptions if d.call in children for i in (d.call, *d.inside)}
        crowded = back and len(self.slot_names(index)) > 1
        result.descriptions.append(Description(index, variables, tuple(sorted(inside)), tuple(children), crowded))
        return index

    def sayable(self, index: int, variables: tuple[str, ...]) -> bool:
        """Whether the seed's descriptions of these values can state every argument the call was
        given, or, where none can, not its asks either (the writer then has only the tool's own
        words, whichever way it speaks of the call). One given an optional currency its
        descriptions never state reads "the cheapest flight for origin airport DXB and ... and
        currency USD" (reading 85 #15); asked for, it is "what's the cheapest flight from DXB to
        SIN on June 20, and its fare in USD?"."""
        call, entry = self.chain.calls[index], self.entries.get(self.chain.calls[index].tool)
        if entry is None:
            return True
        names = [self.specs[call.tool].returns[call.outputs.index(v)].name for v in variables]
        by_key = {frozenset(key): texts for key, texts in entry.gives.items()}
        parts = [names] if frozenset(names) in by_key else [[n] for n in names]  # as `Wording.describe` does
        groups = self.groups(index)
        if all(any(states(t, call.arguments, groups) for t in by_key.get(frozenset(part), ())) for part in parts):
            return True
        return not any(states(t, call.arguments, groups) for t in entry.asks)

    def sources(self, index: int) -> set[int]:
        return {self.producers[a.ref] for a in self.chain.calls[index].arguments.values()
                if isinstance(a, Ref) and a.ref in self.producers}

    def groups(self, index: int) -> list[Group]:
        call = self.chain.calls[index]
        spec = self.specs.get(call.tool)
        return groups_of(spec, self.entries.get(call.tool), self.joint_kinds) if spec else []

    def slot_names(self, index: int) -> list[str]:
        """The call's argument slots, parameters that travel together counted once."""
        grouped = {p: g.params[0] for g in self.groups(index) for p in g.params}
        return sorted({grouped.get(name, name) for name in self.chain.calls[index].arguments})

    def slots(self, index: int) -> list[int]:
        call = self.chain.calls[index]
        grouped = {p: g.params for g in self.groups(index) for p in g.params}
        described: list[int] = []
        seen: set[str] = set()
        for name in call.arguments:
            if name in seen:
                continue
            members = grouped.get(name, (name,))
            seen.update(members)
            refs = [a.ref for p in members if isinstance(a := call.arguments.get(p), Ref) and a.ref in self.producers]
            if refs and len(refs) == len(members) and len({self.producers[r] for r in refs}) == 1:
                parts = [tuple(refs)]
            else:
                parts = [(r,) for r in refs]
            described += [d for part in parts if (d := self.describe(part)) is not None]
        return described


def walk(chain: Chain, asked: Collection[int], specs: Mapping[str, ToolSpec], entries: Mapping[str, ToolEntry],
         joint_kinds: Sequence[tuple[str, ...]] = ()) -> Walk:
    """The descriptions of a request that asks for `asked`, as the writer makes them: asks in
    chain order, each slot of a call described where it is taken, a value asked for or described
    before said again ("that city")."""
    walker = _Walker(chain, specs, entries, joint_kinds)
    for index in sorted(asked):
        if chain.calls[index].fixes is None:
            walker.slots(index)
            walker.done.add(index)
    return walker.result


def to_ask(chain: Chain, asked: Collection[int], specs: Mapping[str, ToolSpec], entries: Mapping[str, ToolEntry],
           joint_kinds: Sequence[tuple[str, ...]] = ()) -> int | None:
    """A call to ask for itself so that the request reads well, or None: within a description
    holding two others, the one that holds a description itself (else the first), so that no
    description holds more than one; a description that says an earlier value again beside
    other arguments ("the wind in that city on that day": "What's the wind there that day?");
    else a call that would be described again in full (the worst alert in South Korea, then "the
    city where the most serious alert in that country is in force": reading 40 #31). A call
    no description of which states its arguments (`_Walker.sayable`) comes before those two."""
    found = walk(chain, asked, specs, entries, joint_kinds)
    by_call = {d.call: d for d in found.descriptions}
    for description in found.descriptions:
        if len(description.inside) > MAX_NESTED:
            return next((c for c in description.children if by_call[c].children), description.children[0])
    if found.unsayable:
        return found.unsayable[0]
    crowded = [d.call for d in found.descriptions if d.crowded]
    return crowded[0] if crowded else found.redescribed[0] if found.redescribed else None
