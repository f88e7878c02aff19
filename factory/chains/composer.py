"""The graph composer: fills a nesting shape with tools so that every edge is a real
producer → consumer link (factory.chains.pool), parameters that travel together come from
one place, independent parts of a request are about the same things, and every other
argument is a literal drawn from the world (factory.chains.literals), so the chain executes
and reads as one task; no call finds again what a call feeding it returned
(factory.chains.detours)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

import networkx as nx

from factory.chains.detours import finds_what_people_know, re_derives
from factory.chains.literals import Known, draw_arguments
from factory.chains.pool import ToolPool, links_to
from factory.records import Call, Chain, Ref, Value
from factory.toolbox.sense import SCENE_KINDS, Subjects, Together, present_subjects, same_subjects, subjects_of

Binding = dict[str, tuple[int, int]]  # parameter → (producing call, output index)
# Tools never drawn into a chain: fix-ups (made only to restore a condition), and tools whose
# answer a careful person writes from the input alone (a date in another format, a currency's
# ISO code): calling one is a detour the request gives no reason for.
NEVER_COMPOSED = frozenset({"fix_only", "self_evident"})


def _match(pool: ToolPool, preds: list[str], consumer: str, rng: random.Random) -> Binding | None:
    """Bind each predecessor (by position in `preds`) to a distinct parameter of `consumer`,
    then complete its groups; None when impossible."""
    options = []
    for producer in preds:
        links = list(pool.links.get((producer, consumer), []))
        if not links:
            return None
        rng.shuffle(links)
        options.append(links)

    def assign(k: int, used: Binding) -> Binding | None:
        if k == len(options):
            return _complete_groups(pool, used, preds, consumer)
        for out_index, param in options[k]:
            if param not in used:
                used[param] = (k, out_index)
                found = assign(k + 1, used)
                if found is not None:
                    return found
                del used[param]
        return None

    return assign(0, {})


def _complete_groups(pool: ToolPool, binding: Binding, preds: list[str], consumer: str) -> Binding | None:
    """A group with one nested member takes every member from that same producing call (no
    latitude from one place and longitude from another, no literal half); None when that
    producer cannot supply them."""
    spec = pool.specs[consumer]
    extended = dict(binding)
    for group in pool.groups[consumer]:
        sources = {extended[p][0] for p in group.params if p in extended}
        if not sources:
            continue
        if len(sources) > 1:
            return None
        (source,) = sources
        producer = pool.specs[preds[source]]
        used = {extended[p][1] for p in group.params if p in extended}
        for member in group.params:
            if member in extended:
                continue
            param = spec.param(member)
            index = next((i for i, out in enumerate(producer.returns)
                          if i not in used and links_to(out, param, producer, spec, pool.bridges)), None)
            if index is None:
                return None
            extended[member] = (source, index)
            used.add(index)
    return extended


def _entity_keys(pool: ToolPool, tool: str, bound: set[str]) -> set[tuple[str, str | None]]:
    """(kind, role) of the required literal text parameters: the things a call is about."""
    return {(p.kind, p.role) for p in pool.specs[tool].parameters
            if p.required and p.name not in bound and p.kind and p.type == "str" and p.kind not in SCENE_KINDS}


def shape_parts(n_calls: int, edges: list[tuple[int, int]]) -> list[list[int]]:
    """The independent parts of a shape: its calls grouped by the data flow between them."""
    graph = nx.Graph()
    graph.add_nodes_from(range(n_calls))
    graph.add_edges_from(edges)
    return [sorted(c) for c in nx.connected_components(graph)]


def about_one_thing(pool: ToolPool, tools: list[str], bindings: list[Binding], parts: list[list[int]],
                    memo: dict | None = None) -> bool:
    """Whether the independent parts of a request share what they are about: every part
    takes a literal of a kind and role another part takes too, so the same value (the same
    city, the same person) ties them together. `memo` keeps each call's keys across the
    candidates of one search."""
    if len(parts) == 1:
        return True
    memo = {} if memo is None else memo

    def entity_keys(j: int) -> set[tuple[str, str | None]]:
        key = (tools[j], frozenset(bindings[j]))
        if key not in memo:
            memo[key] = _entity_keys(pool, tools[j], set(bindings[j]))
        return memo[key]

    keys = [set().union(*(entity_keys(j) for j in part)) for part in parts]
    reached, frontier = {0}, [0]  # the parts tied to the first one, through shared keys
    while frontier:
        a = frontier.pop()
        for b in range(len(parts)):
            if b not in reached and keys[a] & keys[b]:
                reached.add(b)
                frontier.append(b)
    return len(reached) == len(parts)


def compose(
    pool: ToolPool,
    n_calls: int,
    edges: list[tuple[int, int]],
    rng: random.Random,
    *,
    allowed: Callable[[int, str], bool] | None = None,
    accept: Callable[[list[str]], bool] | None = None,
    budget: int = 3000,
    used: Mapping[str, int] | None = None,
) -> Chain | None:
    """A chain of `n_calls` distinct tools with exactly the given dependency edges, or None
    when the pool cannot fill the shape within the search budget. With `used` (calls per tool
    so far in the run), the tools used least are tried first, in random order among equals."""
    preds = {j: sorted(i for i, jj in edges if jj == j) for j in range(n_calls)}
    parts = shape_parts(n_calls, edges)
    keys_memo: dict = {}
    has_succ = {i: any(a == i for a, _ in edges) for i in range(n_calls)}
    names = [n for n in sorted(pool.specs) if not NEVER_COMPOSED & set(pool.entry(n).tags if pool.entry(n) else ())]
    tools: list[str] = []
    bindings: list[Binding] = []
    spent = 0

    def extend(j: int) -> bool:
        nonlocal spent
        if j == n_calls:
            return ((accept is None or accept(tools)) and about_one_thing(pool, tools, bindings, parts, keys_memo)
                    and not re_derives(pool, tools, bindings) and not finds_what_people_know(pool, tools, bindings))
        order = names[:]
        rng.shuffle(order)
        if used is not None:
            order.sort(key=lambda name: used.get(name, 0))  # stable: ties keep the random order
        for name in order:
            spent += 1
            if spent > budget:
                return False
            if name in tools or (has_succ[j] and not pool.feeds[name]) or (not has_succ[j] and pool.only_ids[name]) \
                    or (allowed and not allowed(j, name)):
                continue
            binding = _match(pool, [tools[i] for i in preds[j]], name, rng)
            if binding is None or not pool.fillable(pool.specs[name], set(binding)):
                continue
            tools.append(name)
            bindings.append({p: (preds[j][k], out) for p, (k, out) in binding.items()})
            if extend(j + 1):
                return True
            tools.pop()
            bindings.pop()
        return False

    if not extend(0):
        return None
    return _build_chain(pool, tools, bindings, [not has_succ[j] for j in range(n_calls)], rng)


def _together(pool: ToolPool, tool: str, binding: Binding, subjects: list[Subjects],
              literals: dict[str, object] | None = None) -> bool:
    """A call's `together` rules hold for the calls feeding it (their literals are known), and
    a literal member names the same thing as they do (the branch whose opening time it is)."""
    entry = pool.entry(tool)
    spec = pool.specs[tool]
    for rule in entry.sense if entry else ():
        if isinstance(rule, Together):
            fed = [subjects[binding[p][0]] for p in rule.params if p in binding]
            if any(not same_subjects(a, b) for i, a in enumerate(fed) for b in fed[i + 1:]):
                return False
            for p in rule.params:
                param, value = spec.param(p), (literals or {}).get(p)
                if param is None or not param.kind or not isinstance(value, (str, int, float)):
                    continue
                implied = {param.kind: value, **pool.facts_of(param.kind, value, param.role)}
                if any(kind in about and v not in about[kind] for about in fed for kind, v in implied.items()):
                    return False
    return True


def can_feed(pool: ToolPool, producer: str, consumer: str) -> bool:
    """Whether one call of `producer` can feed `consumer` with its groups complete."""
    return _match(pool, [producer], consumer, random.Random(0)) is not None


def _build_chain(pool: ToolPool, tools: list[str], bindings: list[Binding], asked: list[bool],
                 rng: random.Random) -> Chain | None:
    """The chain with every nested argument wired and every other argument drawn; None when no
    drawing of literals makes sense for some call."""
    calls: list[Call] = []
    known = Known()
    subjects: list[Subjects] = []
    counter = 0
    examples = pool.examples(tools)
    for name, binding, is_asked in zip(tools, bindings, asked, strict=True):
        spec = pool.specs[name]
        literals = draw_arguments(pool, spec, set(binding), known, is_asked, rng, examples)
        if literals is None or not _together(pool, name, binding, subjects, literals):
            return None
        entry = pool.entry(name)
        about: Subjects = present_subjects(entry.tags if entry else ())
        for producer, _ in binding.values():
            for kind, values in subjects[producer].items():
                about.setdefault(kind, set()).update(values)
        for param in spec.parameters:
            value = literals.get(param.name)
            if param.kind and isinstance(value, (str, int, float)):
                for kind, values in subjects_of(param.kind, value).items():
                    about.setdefault(kind, set()).update(values)
        subjects.append(about)
        arguments = {}
        for param in spec.parameters:
            if param.name in binding:
                producer, out_index = binding[param.name]
                arguments[param.name] = Ref(ref=calls[producer].outputs[out_index])
            elif param.name in literals:
                arguments[param.name] = Value(value=literals[param.name])
        outputs = [f"data{counter + k}" for k in range(len(spec.returns))]
        counter += len(outputs)
        calls.append(Call(tool=name, arguments=arguments, outputs=outputs))
    return Chain(calls=calls)
