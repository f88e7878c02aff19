"""The order of the gold calls: the order in which the request speaks of its parts.

A literal-minded reader takes a request's parts in the order it states them: the fix-ups its
opening sentences are about, then each ask in turn, and before a call whatever it needs first
(the calls whose values it takes, described where it is asked for, in the order the text
describes them; a fix-up the request never speaks of comes just before the first call that
waits for it). Of the orders the dependencies allow (data, and the state reasons of
`Call.after`), the gold calls take that one, and so does every record derived from them.

Moving a call across a change to the world it reads would change what it returns: a chain put
in request order is run again, and every call must give the same results and the world end in
the same state. Where a call does not, its composition order with a call of its toolbox that
changes the world (the one whose crossing changed it) is kept, and written into the chain as a
state reason (`Call.after`), so that every reader of the chain, agents included, orders them
alike.

A request written in other words (a model's rewrite of the draft) must keep that order; it is
judged where values that only one part takes show where it is asked for (`order_problems`).
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx

from factory.checks.faithfulness import normalise, value_groups
from factory.records import Chain, Ref, Trace, Value, stable_json


def needs(chain: Chain) -> list[set[int]]:
    """For each call, the calls it must follow: those whose outputs it takes, and its `after`."""
    producers = chain.producers()
    return [{producers[a.ref] for a in call.arguments.values() if isinstance(a, Ref) and a.ref in producers}
            | set(call.after) for call in chain.calls]


def request_order(chain: Chain, mentions: Sequence[int]) -> list[int]:
    """The calls in the order a literal reader takes them: in the order of `mentions` (where
    the request first speaks of each call), each after what it needs, those in the order of
    their own mentions. Calls never mentioned come where something needs them, else last."""
    rank = {call: k for k, call in enumerate(dict.fromkeys(mentions))}

    def key(index: int) -> tuple[int, int]:
        return rank.get(index, len(rank)), index

    before = needs(chain)
    order: list[int] = []
    taken: set[int] = set()

    def take(index: int) -> None:
        if index in taken:
            return
        taken.add(index)  # the dependencies point to earlier calls only: no cycle can bring it back
        for need in sorted(before[index], key=key):
            take(need)
        order.append(index)

    for index in sorted(range(len(chain.calls)), key=key):
        take(index)
    return order


def _first_change(trace: Trace, again: Trace, order: Sequence[int]) -> int | None:
    """The first call (old index) whose run in the new order fails or returns other values;
    -1 when every call agrees but the world ends in another state; None when all agree."""
    for new, old in enumerate(order):
        step = again.steps[new] if new < len(again.steps) else None
        if step is None or step.error or list(step.outputs.values()) != list(trace.steps[old].outputs.values()):
            return old
    return -1 if again.steps[-1].state != trace.steps[-1].state else None


def _suspects(chain: Chain, order: Sequence[int], changed: int, toolboxes: Sequence[str | None],
              actions: set[int]) -> list[tuple[int, int]]:
    """Pairs (earlier, later) in composition order whose crossing may have changed the call
    `changed` (-1: the end state), most likely first: the call with each call of its toolbox
    that crossed it where one of the two changes the world (a fix-up first, then the nearest);
    for the end state, two actions of one toolbox that crossed each other."""
    position = {old: new for new, old in enumerate(order)}

    def crossed(a: int, b: int) -> bool:
        return a != b and toolboxes[a] == toolboxes[b] and (a < b) != (position[a] < position[b])

    if changed == -1:
        pairs = [(a, b) for a in sorted(actions) for b in sorted(actions) if a < b and crossed(a, b)]
        return sorted(pairs, key=lambda p: p[1] - p[0])
    partners = [s for s in range(len(order)) if crossed(s, changed) and (s in actions or changed in actions)]
    partners.sort(key=lambda s: (chain.calls[s].fixes is None, abs(s - changed)))
    return [(min(s, changed), max(s, changed)) for s in partners]


def _with_after(chain: Chain, pairs: Sequence[tuple[int, int]]) -> Chain:
    calls = list(chain.calls)
    for earlier, later in pairs:
        call = calls[later]
        calls[later] = call.model_copy(update={"after": sorted({*call.after, earlier})})
    return Chain(calls=calls)


@dataclass(frozen=True)
class _Attempt:
    chain: Chain  # in composition order, with the state reasons kept so far
    order: list[int]
    moved: Chain | None  # the chain in that order (None: the order is the composition's)
    again: Trace | None
    changed: int | None  # the first call whose outcome the order changes (-1: the end state)


def _attempt(chain: Chain, trace: Trace, mentions: Sequence[int], run: Callable[[Chain], Trace]) -> _Attempt:
    order = request_order(chain, mentions)
    if order == sorted(order):
        return _Attempt(chain, order, None, None, None)
    moved = chain.reordered(order)
    again = run(moved)
    return _Attempt(chain, order, moved, again, _first_change(trace, again, order))


def in_request_order(chain: Chain, trace: Trace, mentions: Sequence[int], run: Callable[[Chain], Trace],
                     toolboxes: Sequence[str | None], actions: set[int]) -> tuple[Chain, Trace]:
    """The chain and its trace with the calls in request order (`request_order`), as far as
    running them in that order gives every call the same results and the world the same end
    state. `run` executes a chain in a fresh world; `toolboxes` is each call's toolbox (whose
    world it reads), `actions` the calls that change the world. The first call the new order
    changes keeps its composition order with one call that crossed it, the first of
    `_suspects` whose kept order leaves that call as it was (all of them if none does), until
    no call changes; a chain whose calls cannot be kept apart so keeps its composition order."""
    current = _attempt(chain, trace, mentions, run)
    for _ in range(len(chain.calls) ** 2):
        if current.changed is None:
            return (current.moved, current.again) if current.moved is not None else (current.chain, trace)
        suspects = _suspects(current.chain, current.order, current.changed, toolboxes, actions)
        if not suspects:
            break
        tries = (_attempt(_with_after(current.chain, [pair]), trace, mentions, run) for pair in suspects)
        current = next((t for t in tries if t.changed != current.changed), None) or _attempt(
            _with_after(current.chain, suspects), trace, mentions, run)
    return chain, trace
def literal_places(value: Any, text: str) -> list[int]:
    """Where a normalised text (`factory.checks.faithfulness.normalise`) states a literal value,
    in any of its written forms."""
    places = []
    for group in value_groups(value):
        for form in group:
            places += [m.start() for m in re.finditer(rf"(?<![0-9a-z]){re.escape(normalise(form))}(?![0-9a-z])", text)]
    if places and isinstance(value, str) and re.fullmatch(r"[A-Z][a-z]+(?: [A-Z][a-z'-]+)+", value):
        # a person named in full once, then by first name ("Lucas Martin ... which city Lucas lives in")
        first = normalise(value.split()[0])
        places += [m.start() for m in re.finditer(rf"(?<![0-9a-z]){re.escape(first)}(?![0-9a-z])", text)]
    return sorted(set(places))


def order_problems(chain: Chain, text: str) -> list[str]:
    """Where a request written in other words (a model's) asks for two independent parts in
    another order than the chain's: read from the values that only one call takes and that
    the text states once, so that each places its call; calls without such a value cannot be
    placed, and are not judged."""
    text = normalise(text)
    owners: dict[str, set[int]] = {}
    for index, call in enumerate(chain.calls):
        for arg in call.arguments.values():
            if isinstance(arg, Value):
                owners.setdefault(stable_json(arg.value), set()).add(index)
    place: dict[int, tuple[int, Any]] = {}
    for key, calls in owners.items():
        value = json.loads(key)
        places = literal_places(value, text)
        (index,) = calls if len(calls) == 1 else (None,)
        if index is not None and chain.calls[index].fixes is None and len(places) == 1 and (
                index not in place or places[0] < place[index][0]):
            place[index] = (places[0], value)
    graph = chain.graph()
    graph.add_edges_from((a, i) for i, c in enumerate(chain.calls) for a in c.after)
    problems = []
    for i, j in itertools.combinations(sorted(place), 2):
        if place[j][0] < place[i][0] and not nx.has_path(graph, i, j):
            problems.append(f"asks about {place[j][1]!r} before {place[i][1]!r}: keep the draft's order of the parts")
    return problems
