"""Where a request speaks of each of its calls, read from its text: the order in which a
literal-minded agent takes the request's parts.

A phrasing is read as a pattern (as written, or with a day moved before a slot it follows, as
the writer words it after a description): its words in order, any text in each slot, an article
or "on" before a slot optional (tidying may drop one). Each asked call is found by one of its
tool's phrasings (`asks`); of the places one fits, the one that holds most of the call's own
literal values wins. A value a call takes from another call is described in the slot that
takes it: the producing call is spoken of there, and its description (`gives`), read inside
that slot, places what it takes in turn. A fix-up is found by what its condition says or by
the context its arguments need. A call no phrasing finds is placed by the first of its
literal values the text states, if any, else after every call that is found.

The reading uses the request, the seeds' phrasings and the chain's structure (which call takes
which value, `Call.asked`, `Call.after`), never the order of the gold calls; the order itself
then follows as for the gold (`factory.queries.order.request_order`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from factory.chains.pool import groups_of
from factory.checks.faithfulness import normalise, value_groups
from factory.queries.order import literal_places, request_order
from factory.queries.placement import TIME_KINDS, day_first_forms
from factory.queries.wording import ABBREVIATIONS
from factory.records import Call, Instance, Ref, Value, content_hash, stable_json
from factory.toolbox import Condition, ToolEntry

_PIECES = re.compile(r"(\{[^{}]*\}|\[|\]|\(s\))")
_DROPPABLE = frozenset({"the", "a", "an", "and"})  # tidying merges a doubled one with the slot's own
_SLOT = r"((?:[^.?!]|[.?!](?=\S))+?)"  # any text within one sentence ("4.5", an e-mail address end none)
_STOP = r"(?=\s*[.?!;:](?:\s|$)|\s*$)"  # where a slot that ends a phrasing ends: the sentence's end


@dataclass(frozen=True)
class Pattern:
    """A phrasing as a regular expression over the normalised request: one group per slot
    (`slots`), except the slots before the phrasing's first word that must be there
    (`leading`), which end where the match begins."""

    regex: re.Pattern[str]
    slots: tuple[str, ...]
    leading: tuple[str, ...]


def _items(template: str) -> list[tuple[str, str, bool]]:
    """(kind, text, optional) of each word, slot, bracket and plural mark of a phrasing; a word
    is optional where tidying may drop it: a doubled article or "and", "on" before a day."""
    items: list[tuple[str, str]] = []
    for part in filter(None, _PIECES.split(template)):
        if part.startswith("{"):
            items.append(("slot", part[1:-1]))
        elif part in ("[", "]", "(s)"):
            items.append((part, ""))
        else:
            items += [("word", word) for word in normalise(part).split()]
    marked = []
    for k, (kind, text) in enumerate(items):
        before_slot = k + 1 < len(items) and items[k + 1][0] == "slot"
        marked.append((kind, text, kind == "word" and before_slot and (text in _DROPPABLE or text in ("on", "at"))))
    return marked


@lru_cache(maxsize=4096)
def pattern(template: str) -> Pattern | None:
    """The pattern of a phrasing; None when it has no word that must be there (a bare slot)."""
    items = _items(template)
    depth, first = 0, None
    for k, (kind, _, optional) in enumerate(items):
        depth += (kind == "[") - (kind == "]")
        if kind == "word" and not optional and depth == 0:
            first = k
            break
    if first is None:
        return None
    leading = tuple(text for kind, text, _ in items[:first] if kind == "slot")
    out: list[str] = []
    slots: list[str] = []
    for k, (kind, text, optional) in enumerate(items[first:], start=first):
        if kind == "word":
            word = "(?:on|at)" if optional and text in ("on", "at") else re.escape(text)  # tidying turns "at June 4" into "on June 4"
            out.append(f"(?:{word})?" if optional else word)
        elif kind == "(s)" and out:
            out[-1] += "s?"
        elif kind == "slot":
            slots.append(text)
            out.append(_SLOT + (_STOP if k == len(items) - 1 else ""))
        elif kind == "[":
            out.append("(?:")
        elif kind == "]":
            out.append(")?")
    return Pattern(re.compile(r"(?<![0-9a-z])" + r"\s*".join(out)), tuple(slots), leading)


def _matches(found: Pattern, text: str, start: int = 0, end: int | None = None) -> Iterator[re.Match[str]]:
    """Every place the pattern fits (overlapping ones too), between `start` and `end`."""
    end = len(text) if end is None else end
    while (match := found.regex.search(text, start, end)) is not None:
        yield match
        start = match.start() + 1


@dataclass
class Phrasings:
    """What a reader knows of the tools: how each is asked for and its values described, which
    parameters travel together, and what each condition's sentences say."""

    entries: Mapping[str, ToolEntry]
    joint_kinds: list[tuple[str, ...]]
    conditions: Mapping[tuple[str, str], Condition]  # (toolbox, condition) → condition

    @classmethod
    def of(cls, seeds: Mapping[str, Any] | None) -> Phrasings:
        seeds = seeds or {}
        return cls({n: e for s in seeds.values() for n, e in s.toolbox.tools.items()},
                   sorted({k for s in seeds.values() for k in s.toolbox.joint_values}),
                   {(slug, n): c for slug, s in seeds.items() for n, c in s.toolbox.conditions.items()})


@dataclass
class Reading:
    """One request read against its chain: each call's first place in the normalised text."""

    instance: Instance
    text: str
    phrasings: Phrasings
    place: dict[int, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.calls = self.instance.chain.calls
        self.producers = self.instance.chain.producers()
        # Phrasings are matched on the text with the stated values that end a sentence of their
        # own ('text her "On my way!"') blanked out, so that a slot may hold them.
        masked = self.text
        for value in (a.value for c in self.calls for a in c.arguments.values() if isinstance(a, Value)):
            for form in {normalise(f) for group in value_groups(value) for f in group if re.search(r"[.?!]", f)}:
                masked = re.sub(rf"(?<![0-9a-z]){re.escape(form)}(?![0-9a-z])", lambda m: "_" * len(m.group(0)),
                                masked)
        self.masked = masked

    def _identity(self, index: int) -> str:
        """What a call is (its tool and arguments), to break ties without its place in the chain."""
        call = self.calls[index]
        literals = sorted((name, a.value if isinstance(a, Value) else None) for name, a in call.arguments.items())
        return content_hash([call.tool, literals])

    def _speaks(self, index: int, where: float) -> None:
        self.place[index] = min(where, self.place.get(index, where))

    def _own_literals(self, call: Call) -> list[list[int]]:
        return [places for a in call.arguments.values() if isinstance(a, Value)
                if (places := literal_places(a.value, self.text))]

    # --- asks -----------------------------------------------------------------------------

    def asks(self) -> None:
        """Place every asked call by its best-fitting phrasing; calls of one tool take different places."""
        claimed: set[tuple[str, int]] = set()
        actions = {i for i, c in enumerate(self.calls)
                   if "state_change" in getattr(self.phrasings.entries.get(c.tool), "tags", ())}
        asked = [i for i in sorted(set(self.instance.chain.asked()) | actions) if self.calls[i].fixes is None]
        fits = {i: self._fits(i) for i in asked}
        for index in sorted(asked, key=lambda i: (-max((f[0] for f in fits[i]), default=0), self._identity(i))):
            tool = self.calls[index].tool
            # the place holding most of its literal values; of those, the one whose slots hold
            # the descriptions of the values they take; of those, the tightest fit
            ranked = sorted(fits[index], key=lambda f: (-f[0], -self._described(index, f[2], f[3]), len(f[3].group(0)),
                                                        f[1]))
            for _, start, found, match in ranked:
                if (tool, start) not in claimed:
                    claimed.add((tool, start))
                    self._speaks(index, start)
                    self._slots(index, found, match)
                    break
            else:
                self._by_literals(index)

    def _fits(self, index: int) -> list[tuple[int, int, Pattern, re.Match[str]]]:
        """(own literal values inside, start, pattern, match) of every place a phrasing of the call fits."""
        entry = self.phrasings.entries.get(self.calls[index].tool)
        literals = self._own_literals(self.calls[index])
        fits = []
        for template in self._forms(index, entry.asks if entry else ()):
            found = pattern(template)
            for match in _matches(found, self.masked) if found else ():
                inside = sum(any(match.start() <= p < match.end() for p in places) for places in literals)
                fits.append((inside, match.start(), found, match))
        return fits

    def _described(self, index: int, found: Pattern, match: re.Match[str]) -> int:
        """How many slots of a fit hold a description of the value they take, or the values
        its call was given: "the hours of
        daylight the day after tomorrow at the location of X" reads "{date} at {point}", not a
        point "the" and a day that runs on to the end."""
        count = 0
        for k, slot in enumerate(found.slots):
            start, end = match.start(k + 1), match.end(k + 1)
            arguments = self.calls[index].arguments
            producers = {self.producers[a.ref] for p in self._members(index, slot)
                         if isinstance(a := arguments.get(p), Ref) and a.ref in self.producers}
            if start < 0 or len(producers) != 1:
                continue
            producer = producers.pop()
            entry = self.phrasings.entries.get(self.calls[producer].tool)
            templates = [t for forms in (entry.gives.values() if entry else ()) for t in forms]
            own = [p for places in self._own_literals(self.calls[producer]) for p in places]
            count += any(start <= p < end for p in own) or any(
                (p := pattern(t)) is not None and next(_matches(p, self.masked, start, end), None) is not None
                for t in templates)
        return count

    def _forms(self, index: int, templates: tuple[str, ...]) -> list[str]:
        """The phrasings of a call, each also with a day moved before a slot it follows, as the
        writer words it after a description (`factory.queries.placement`)."""
        spec = self.instance.tool(self.calls[index].tool)
        forms = []
        for template in templates:
            days = [slot for slot in re.findall(r"\{(\w+)\}", template) if spec and any(
                (p := spec.param(m)) is not None and p.kind in TIME_KINDS for m in self._members(index, slot))]
            forms += [template, *day_first_forms(template, days)]
        return forms

    def _by_literals(self, index: int) -> None:
        """Place a call no phrasing fits by its literal values, those no other call takes first
        (the message of 'Text Lucas the following: ...', not the name said in an earlier part)."""
        others = {stable_json(a.value) for k, c in enumerate(self.calls) if k != index
                  for a in c.arguments.values() if isinstance(a, Value)}
        own = [a for a in self.calls[index].arguments.values() if isinstance(a, Value) and stable_json(a.value) not in others]
        places = [p for a in own for p in literal_places(a.value, self.text)] or [
            p for places in self._own_literals(self.calls[index]) for p in places]
        if places:
            self._speaks(index, min(places))

    # --- nested values --------------------------------------------------------------------

    def _members(self, index: int, slot: str) -> tuple[str, ...]:
        call = self.calls[index]
        if slot in call.arguments:
            return (slot,)
        spec = self.instance.tool(call.tool)
        entry = self.phrasings.entries.get(call.tool)
        groups = groups_of(spec, entry, self.phrasings.joint_kinds) if spec else []
        return next((g.params for g in groups if g.name == slot), ())

    def _slots(self, index: int, found: Pattern, match: re.Match[str], depth: int = 0) -> None:
        """The calls whose values fill the slots of a phrasing of call `index` are spoken of
        where their slot begins; their own descriptions are read inside it."""
        spans = [(slot, match.start() - 1 + k / (len(found.leading) + 1), match.start())
                 for k, slot in enumerate(found.leading)]
        spans += [(slot, match.start(k + 1), match.end(k + 1)) for k, slot in enumerate(found.slots)
                  if match.start(k + 1) >= 0]  # a slot of an optional part left out has no place
        for slot, start, end in spans:
            arguments = self.calls[index].arguments
            refs = [a.ref for p in self._members(index, slot) if isinstance(a := arguments.get(p), Ref)]
            for producer in dict.fromkeys(self.producers[r] for r in refs if r in self.producers):
                self._speaks(producer, start)
                if depth < len(self.calls) and end > start:
                    self._description(producer, [r for r in refs if self.producers.get(r) == producer],
                                      int(start), end, depth)

    def _description(self, index: int, variables: list[str], start: int, end: int, depth: int) -> None:
        call = self.calls[index]
        entry = self.phrasings.entries.get(call.tool)
        spec = self.instance.tool(call.tool)
        if entry is None or spec is None:
            return
        names = frozenset(spec.returns[call.outputs.index(v)].name for v in variables if v in call.outputs)
        for template in self._forms(index, next((t for key, t in entry.gives.items() if frozenset(key) == names), ())):
            found = pattern(template)
            match = next(_matches(found, self.masked, start, end), None) if found else None
            if match is not None:
                self._slots(index, found, match, depth + 1)
                return

    # --- fix-ups --------------------------------------------------------------------------

    def fix_ups(self) -> None:
        """A fix-up is spoken of where a sentence of its condition (what it says, the context) is."""
        for index, call in enumerate(self.calls):
            spec = self.instance.tool(call.tool)
            condition = self.phrasings.conditions.get((spec.toolbox or "", call.fixes or "")) if spec else None
            if call.fixes is None or condition is None:
                continue
            for template in (*condition.says, *condition.context):
                found = pattern(template)
                match = next(_matches(found, self.masked), None) if found else None
                if match is not None:
                    self._speaks(index, match.start())

    def mentions(self) -> list[int]:
        """The calls in the order the text first speaks of them; calls it never places follow,
        in an order that depends only on what they are."""
        self.fix_ups()
        self.asks()
        placed = sorted(self.place, key=lambda i: (self.place[i], self._identity(i)))
        return placed + sorted(set(range(len(self.calls))) - set(placed), key=self._identity)


def read_order(instance: Instance, query: str, phrasings: Phrasings) -> list[int]:
    """The calls (indices into the chain) in the order a literal-minded reader of `query` takes them.
    An abbreviation's period that also ends a sentence is read as both ("Pacific Streamworks Inc.
    Another thing": the name's period, then the phrasing's)."""
    query = re.sub(rf"\b({ABBREVIATIONS})\.(?=\s+[A-Z\"]|\s*$)", r"\1..", query)
    return request_order(instance.chain, Reading(instance, normalise(query), phrasings).mentions())
