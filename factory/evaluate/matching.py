"""Milestone similarity: the best mapping of milestones to the steps of a trajectory.

A trajectory is the list of tool calls an agent made, in order, followed by its final
message. A mapping assigns milestones to distinct steps so that the matched milestones,
sorted by step, follow a topological order of the milestone DAG: when milestone u must
be reached before v (a path u ⇝ v) and both are matched, u's step comes first. A
milestone left unmatched scores 0. The score is the best total similarity over all such
mappings divided by the number of milestones; hitting any minefield zeroes it.

`best_mapping` finds that optimum exactly. It first splits the problem into independent
parts: an order constraint u ⇝ v binds only if u can score at a step after one where v
can, and milestones that share no step and no binding constraint never compete. A part
without binding constraints is an assignment problem (solved in polynomial time); a part
with them goes to `ordered_mapping`, a dynamic programme over the steps whose state is
the set of milestones that can no longer be matched, whose cost grows with the width of
that part. `exhaustive_mapping` enumerates every consistent mapping and exists to check
both.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from factory.checks.faithfulness import states
from factory.evaluate.interactive.answers import answer_similarity
from factory.records import Expected, Milestone, Minefield, entry_holds, gives, values_equal

Weights = Sequence[Sequence[float]]  # weights[milestone][step] in [0, 1]


@dataclass(frozen=True)
class Step:
    """One tool call of a trajectory, as the agent made it (the tool may not exist)."""

    tool: str
    arguments: dict[str, Any] | None  # None: the arguments were not a JSON object
    ok: bool = True  # it ran; a call refused by the tool or the simulator reaches no milestone
    outputs: tuple[Any, ...] = ()  # the values it returned
    restored: frozenset[str] = frozenset()  # conditions ("toolbox:condition") that hold after it and did not before
    changed: bool = False  # the world's state differs after it


@dataclass(frozen=True)
class Mapping:
    total: float  # sum of the matched similarities
    steps: dict[int, int] = field(default_factory=dict)  # milestone position → step position


@dataclass(frozen=True)
class MilestoneScore:
    similarity: float  # in [0, 1], zero when a minefield was hit
    matched: float  # the same before minefields
    mapping: dict[int, int]  # milestone position → step position (len(steps) = the final message)
    per_milestone: list[float]
    minefields_hit: list[int]


# --- per-milestone similarity ----------------------------------------------------------


def argument_matches(expected: Expected, arguments: dict[str, Any], name: str) -> bool:
    """A literal must equal the stated value after normalisation; a nested argument must be
    exactly the value its source produced in the trace."""
    if name not in arguments:
        return False
    return values_equal(expected.value, arguments[name], loose_strings=expected.source is None)


def call_similarity(milestone: Milestone, step: Step) -> float:
    """0 for a call that did not run (as in ToolSandbox, where only executed calls leave a
    trace). A state milestone is met by the call that restored its condition, whatever it
    was. A call milestone scores the share of expected arguments the gold tool got right, or
    1 for any call whose outputs include every value the chain needs from it (an equivalent
    tool, or the right values by another route: `records.gives`, `records.entry_holds`)."""
    if not step.ok:
        return 0.0
    if milestone.kind == "state":
        return float(milestone.condition in step.restored)
    equivalent = bool(milestone.needs) and (all(any(gives(need, out) for out in step.outputs) for need in milestone.needs)
                                            or any(entry_holds(milestone.needs, out) for out in step.outputs))
    if step.tool != milestone.tool:
        return float(equivalent)
    if not milestone.arguments or equivalent:
        return 1.0
    arguments = step.arguments or {}
    hits = sum(argument_matches(exp, arguments, name) for name, exp in milestone.arguments.items())
    return hits / len(milestone.arguments)


def minefield_hit(mine: Minefield, step: Step) -> bool:
    """A call of the mined tool with the listed arguments; for an `invented` mine, with any of
    them other than the value the person holds; for a mine of a withheld value, with any of them
    other than a value the request gives."""
    if step.tool != mine.tool:
        return False
    if mine.arguments is None:
        return True
    arguments = step.arguments or {}
    if mine.given is not None:
        return any(name in arguments and not any(values_equal(g, arguments[name], loose_strings=True) for g in mine.given)
                   for name in mine.arguments)
    if mine.invented:  # the person's value in another written form ("2025-06-21 16:30") is no invention
        return any(name in arguments and not argument_matches(exp, arguments, name)
                   and not states(str(arguments[name]), exp.value) for name, exp in mine.arguments.items())
    return all(argument_matches(exp, arguments, name) for name, exp in mine.arguments.items())


def similarity_matrix(
    milestones: Sequence[Milestone], steps: Sequence[Step], final: str | None, *, query: str = "", refusal: bool = False,
    replies: Sequence[str | None] = (),
) -> list[list[float]]:
    """weights[i][j]: milestone i against step j; the last column is the final message,
    which only the answer milestone can match (`query` and `refusal` as in answer_similarity).
    In a conversation the last columns are the agent's replies to each user turn instead, and
    an answer milestone of turn t matches only reply t."""
    finals = list(replies) or [final]
    rows = []
    for m in milestones:
        if m.kind == "answer":
            at = len(finals) - 1 if m.turn is None else m.turn
            row = [0.0] * (len(steps) + len(finals))
            if at < len(finals):
                row[len(steps) + at] = answer_similarity(m.answer, finals[at], query=query, refusal=refusal or m.refuse)
        else:
            row = [max(call_similarity(m, s), float(picked_from_list(m, steps, j))) for j, s in enumerate(steps)]
            row += [0.0] * len(finals)
        rows.append(row)
    return rows


def picked_from_list(milestone: Milestone, steps: Sequence[Step], j: int) -> bool:
    """Whether step `j` listed every value a call milestone needs among others and a later call
    was given each of them: the day's events hold the book club among four, and the agent went
    on with the right one (a wrong pick fails the milestones that need it)."""
    step = steps[j]
    needs = milestone.needs
    if milestone.kind != "call" or not needs or not step.ok or any(isinstance(n, list) for n in needs):
        return False
    listed = [v for out in step.outputs if isinstance(out, list) for v in out]
    later = [v for s in steps[j + 1:] if s.ok for v in (s.arguments or {}).values()]
    return all(any(values_equal(n, v, loose_strings=True) for v in listed)
               and any(values_equal(n, v, loose_strings=True) for v in later) for n in needs)


# --- the order constraints -------------------------------------------------------------


def ancestors(n: int, edges: Sequence[tuple[int, int]]) -> list[int]:
    """Bitmask of every milestone with a path to i (i included), for each position i."""
    parents: list[set[int]] = [set() for _ in range(n)]
    for u, v in edges:
        parents[v].add(u)
    memo: list[int | None] = [None] * n

    def closure(i: int, visiting: frozenset[int]) -> int:
        if memo[i] is not None:
            return memo[i]  # type: ignore[return-value]
        if i in visiting:
            raise ValueError(f"milestone edges form a cycle through {i}")
        mask = 1 << i
        for p in parents[i]:
            mask |= closure(p, visiting | {i})
        memo[i] = mask
        return mask

    return [closure(i, frozenset()) for i in range(n)]


def milestone_edges(milestones: Sequence[Milestone]) -> list[tuple[int, int]]:
    """Edges over list positions (a milestone's `after` names milestone indices)."""
    position = {m.index: i for i, m in enumerate(milestones)}
    return [(position[a], i) for i, m in enumerate(milestones) for a in m.after if a in position]


# --- exact best mapping ----------------------------------------------------------------


def best_mapping(weights: Weights, edges: Sequence[tuple[int, int]]) -> Mapping:
    """The mapping with the largest total similarity, exactly: each independent part of the
    problem (see `parts`) by assignment when no order constraint binds in it, else by the
    dynamic programme. The total is summed exactly (fsum), so equal mappings score equal
    whatever order their parts were solved in."""
    n = len(weights)
    if n == 0:
        return Mapping(0.0)
    up = binding_ancestors(weights, ancestors(n, edges))
    steps: dict[int, int] = {}
    for rows, columns in parts(weights, up):
        if len(rows) == 1:
            steps.update(_single_mapping(weights, rows[0], columns))
        elif all(up[i] == 1 << i for i in rows):
            steps.update(_assignment_mapping(weights, rows, columns))
        else:
            steps.update(_part_mapping(weights, up, rows, columns))
    total = math.fsum(weights[i][j] for i, j in steps.items())
    return Mapping(total, dict(sorted(steps.items())))


def binding_ancestors(weights: Weights, up: Sequence[int]) -> list[int]:
    """The ancestor masks keeping only constraints that can be broken: u ⇝ v is broken only
    by u at a later step than v, which cannot happen when u's last scoring step comes no later
    than v's first (an answer milestone after every call, matched on the final message, is
    the common case). Milestones that score nowhere keep only themselves. The masks need not
    stay transitive: every pair of the closure that can bind is still listed."""
    n = len(weights)
    spans = []
    for row in weights:
        scoring = [j for j, w in enumerate(row) if w > 0]
        spans.append((scoring[0], scoring[-1]) if scoring else None)
    masks = []
    for v in range(n):
        mask = 1 << v
        if spans[v] is not None:
            first = spans[v][0]
            for u in range(n):
                if u != v and up[v] >> u & 1 and spans[u] is not None and spans[u][1] > first:
                    mask |= 1 << u
        masks.append(mask)
    return masks


def parts(weights: Weights, up: Sequence[int]) -> list[tuple[list[int], list[int]]]:
    """The independent parts of the problem: milestones joined when they can score at the
    same step or a binding constraint links them, each with the steps where its milestones
    score. Parts share no step and no constraint, so their best mappings add up."""
    n = len(weights)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def join(a: int, b: int) -> None:
        parent[root(a)] = root(b)

    for j in range(len(weights[0])):
        scoring = [i for i in range(n) if weights[i][j] > 0]
        for i in scoring[1:]:
            join(scoring[0], i)
    for v in range(n):
        for u in range(n):
            if u != v and up[v] >> u & 1:
                join(u, v)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        if any(w > 0 for w in weights[i]):
            groups.setdefault(root(i), []).append(i)
    return [
        (rows, [j for j in range(len(weights[0])) if any(weights[i][j] > 0 for i in rows)])
        for rows in groups.values()
    ]


def _single_mapping(weights: Weights, i: int, columns: list[int]) -> dict[int, int]:
    """A lone milestone takes its best step (the first of equals)."""
    best = max(columns, key=lambda j: (weights[i][j], -j))
    return {i: best}


def _assignment_mapping(weights: Weights, rows: list[int], columns: list[int]) -> dict[int, int]:
    """No constraint binds: distinct steps are all that is asked, a maximum-weight assignment."""
    import numpy as np
    from scipy.optimize import linear_sum_assignment  # loaded only by evaluations that need it

    matrix = np.array([[weights[i][j] for j in columns] for i in rows], dtype=float)
    picked_rows, picked_columns = linear_sum_assignment(matrix, maximize=True)
    return {rows[r]: columns[c] for r, c in zip(picked_rows, picked_columns, strict=True) if matrix[r, c] > 0}


def _part_mapping(weights: Weights, up: Sequence[int], rows: list[int], columns: list[int]) -> dict[int, int]:
    """The dynamic programme on one part, in the part's own positions."""
    local = {i: k for k, i in enumerate(rows)}
    sub_weights = [[weights[i][j] for j in columns] for i in rows]
    sub_up = [sum(1 << local[u] for u in rows if up[i] >> u & 1) for i in rows]
    mapping = ordered_mapping(sub_weights, sub_up)
    return {rows[k]: columns[c] for k, c in mapping.steps.items()}


def ordered_mapping(weights: Weights, up: Sequence[int]) -> Mapping:
    """The best mapping by a dynamic programme, exact under any order constraints (`up[i]`:
    the mask of milestones that must not be matched after i, i included).

    Scan steps left to right. The state is C, the set of milestones that can no longer be
    matched: those matched so far and every ancestor of a matched one (an ancestor matched
    later would break the order). Any milestone outside C may take the current step, after
    which C grows by its ancestors. Two partial mappings with the same C have the same future,
    so keeping the best total per C is exact. The number of states can grow exponentially
    with the width of the order (the number of milestones with no order among them).
    Steps with no positive similarity are skipped: they can only be left unmatched.
    """
    n = len(weights)
    if n == 0:
        return Mapping(0.0)
    columns = [
        (j, [(i, weights[i][j]) for i in range(n) if weights[i][j] > 0])
        for j in range(len(weights[0]))
    ]
    # state C → (total, back-link); a back-link is (milestone, step, previous link) or None
    states: dict[int, tuple[float, Any]] = {0: (0.0, None)}
    for j, candidates in columns:
        if not candidates:
            continue
        grown = dict(states)
        for closed, (total, link) in states.items():
            for i, w in candidates:
                if closed >> i & 1:
                    continue
                key = closed | up[i]
                score = total + w
                best = grown.get(key)
                if best is None or score > best[0]:
                    grown[key] = (score, (i, j, link))
        states = grown
    total, link = max(states.values(), key=lambda item: item[0])
    steps: dict[int, int] = {}
    while link is not None:
        i, j, link = link
        steps[i] = j
    return Mapping(total, dict(sorted(steps.items())))


def exhaustive_mapping(weights: Weights, edges: Sequence[tuple[int, int]]) -> Mapping:
    """Reference search: try every consistent mapping of milestones to steps where they
    score (or to none). Exponential; for tests and the benchmark only."""
    n = len(weights)
    up = ancestors(n, edges)
    related = [[bool(up[b] >> a & 1) for b in range(n)] for a in range(n)]  # related[a][b]: a ⇝ b
    options = [[j for j, w in enumerate(row) if w > 0] for row in weights]
    best = Mapping(0.0)
    chosen: dict[int, int] = {}

    def consistent(i: int, j: int) -> bool:
        for k, s in chosen.items():
            if s == j or (related[k][i] and s > j) or (related[i][k] and j > s):
                return False
        return True

    def search(i: int, total: float) -> None:
        nonlocal best
        if i == n:
            if total > best.total:
                best = Mapping(total, dict(sorted(chosen.items())))
            return
        search(i + 1, total)
        for j in options[i]:
            if consistent(i, j):
                chosen[i] = j
                search(i + 1, total + weights[i][j])
                del chosen[i]

    search(0, 0.0)
    return best


# --- the score -------------------------------------------------------------------------


def score_milestones(
    milestones: Sequence[Milestone],
    minefields: Sequence[Minefield],
    steps: Sequence[Step],
    final: str | None,
    *,
    query: str = "",
    refusal: bool = False,
    replies: Sequence[str | None] = (),
) -> MilestoneScore:
    """ToolSandbox's milestone similarity of one trajectory, with minefields (`replies`: a
    conversation's replies to each user turn, see similarity_matrix)."""
    weights = similarity_matrix(milestones, steps, final, query=query, refusal=refusal, replies=replies)
    mapping = best_mapping(weights, milestone_edges(milestones))
    per_milestone = [weights[i][mapping.steps[i]] if i in mapping.steps else 0.0 for i in range(len(milestones))]
    matched = mapping.total / len(milestones) if milestones else 1.0
    hits = [k for k, mine in enumerate(minefields) if any(minefield_hit(mine, s) for s in steps)]
    return MilestoneScore(0.0 if hits else matched, matched, mapping.steps, per_milestone, hits)
