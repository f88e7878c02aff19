"""Twin tools: tools that answer the same question, so in one world they must give the same
answer. Two tools are twins when they say they do nearly the same thing (their descriptions'
embeddings are close), take the same inputs (each parameter matches one of the other's by name,
or by kind and role) and give outputs of the same kinds. Run on the same arguments in one world,
twins that give different values on a shared output contradict the world: `factory domains
--check` reports such pairs, and a twin that disagrees with a gold call is never offered beside
it as a distractor."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from factory.lm.embeddings import EmbeddingCache
from factory.records import Output, Param, ToolSpec, type_accepts, values_equal


@dataclass(frozen=True)
class TwinRule:
    """When two tools are twins: `min_similarity` is the least cosine similarity of their
    descriptions (policy: `[checks.distractors] twin_similarity`); tools that change the world
    (`actions`) are never twins, since what they give depends on what they change."""

    min_similarity: float
    actions: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Twin:
    """Two twin tools: which parameter of `b` takes which argument of `a`, and which outputs
    (by position) must agree."""

    a: ToolSpec
    b: ToolSpec
    arguments: tuple[tuple[str, str], ...]  # (a's parameter, b's parameter)
    outputs: tuple[tuple[int, int], ...]  # (a's output, b's output)

    def flipped(self) -> Twin:
        return Twin(self.b, self.a, tuple((y, x) for x, y in self.arguments), tuple((y, x) for x, y in self.outputs))

    def arguments_for_b(self, arguments: dict[str, Any]) -> dict[str, Any]:
        return {pb: arguments[pa] for pa, pb in self.arguments if pa in arguments}


def _same_parameter(p: Param, q: Param) -> bool:
    """The same input: one name (and kind, roles aside: a role names a value within one seed),
    or one kind in one role; the types fit either way."""
    if not (type_accepts(p.type, q.type) or type_accepts(q.type, p.type)):
        return False
    if p.name == q.name:
        return p.kind == q.kind or not (p.kind and q.kind)
    return bool(p.kind) and (p.kind, p.role) == (q.kind, q.role)


def matched_parameters(a: ToolSpec, b: ToolSpec) -> tuple[tuple[str, str], ...] | None:
    """Every parameter of each tool paired with one of the other's (names first), or None."""
    if len(a.parameters) != len(b.parameters):
        return None
    free = list(b.parameters)
    pairs = []
    for p in sorted(a.parameters, key=lambda p: not any(q.name == p.name for q in b.parameters)):
        match = next((q for q in free if q.name == p.name and _same_parameter(p, q)), None) or next(
            (q for q in free if _same_parameter(p, q)), None)
        if match is None:
            return None
        free.remove(match)
        pairs.append((p.name, match.name))
    return tuple(sorted(pairs))


def _same_name(x: str, y: str) -> bool:
    """One output name, or one a qualified form of the other ("converted", "converted_amount")."""
    return x == y or x.startswith(y + "_") or y.startswith(x + "_")


def matched_outputs(a: ToolSpec, b: ToolSpec) -> tuple[tuple[int, int], ...]:
    """Outputs that say the same thing: one kind (roles aside) and type. An output without a kind
    is a figure about what its tool found (the distance to the nearest city, or to the nearest
    weather station), so it pairs, by name, only when the tools find things of one kind or
    neither finds a thing of any kind."""
    def kinded(x: Output, y: Output) -> bool:
        return bool(x.kind) and x.kind == y.kind and x.type == y.type

    pairs = [(i, j) for i, x in enumerate(a.returns) for j, y in enumerate(b.returns) if kinded(x, y)]
    has_kinds = any(o.kind for o in a.returns) or any(o.kind for o in b.returns)
    if pairs or not has_kinds:
        pairs += [(i, j) for i, x in enumerate(a.returns) for j, y in enumerate(b.returns)
                  if not x.kind and not y.kind and x.type == y.type and _same_name(x.name, y.name)]
    used_a, used_b, unique = set(), set(), []
    for i, j in sorted(pairs):
        if i not in used_a and j not in used_b:
            used_a.add(i)
            used_b.add(j)
            unique.append((i, j))
    return tuple(unique)


def twin(a: ToolSpec, b: ToolSpec, similarity: float, rule: TwinRule) -> Twin | None:
    """The two tools as twins (`similarity`: of their descriptions), or None when they are not."""
    if a.name == b.name or similarity < rule.min_similarity or a.name in rule.actions or b.name in rule.actions:
        return None
    arguments = matched_parameters(a, b)
    if arguments is None:
        return None
    outputs = matched_outputs(a, b)
    return Twin(a, b, arguments, outputs) if outputs else None


def twins_of(tools: list[ToolSpec], others: list[ToolSpec], embeddings: EmbeddingCache, rule: TwinRule) -> list[Twin]:
    """Every twin pair (tool, other), `tool` on the a side."""
    if not tools or not others:
        return []
    described = embeddings.vectors([t.description for t in tools])
    similarity = described @ embeddings.vectors([o.description for o in others]).T
    found = []
    for i, j in zip(*np.nonzero(similarity >= rule.min_similarity), strict=True):
        pair = twin(tools[i], others[j], float(similarity[i, j]), rule)
        if pair is not None:
            found.append(pair)
    return found


def library_twins(specs: list[ToolSpec], embeddings: EmbeddingCache, rule: TwinRule) -> list[Twin]:
    """Every unordered twin pair among these tools, in name order."""
    ordered = sorted(specs, key=lambda s: s.name)
    return [t for t in twins_of(ordered, ordered, embeddings, rule) if t.a.name < t.b.name]


def disagreement(pair: Twin, a_values: list[Any], b_values: list[Any]) -> str | None:
    """Which shared output the twins answer differently, or None when they agree."""
    for i, j in pair.outputs:
        if i < len(a_values) and j < len(b_values) and not values_equal(a_values[i], b_values[j], loose_strings=True):
            return (f"{pair.a.name} gives {pair.a.returns[i].name}={a_values[i]!r}, "
                    f"{pair.b.name} gives {pair.b.returns[j].name}={b_values[j]!r}")
    return None


def sampled_arguments(spec: ToolSpec, options: Callable[[ToolSpec, Param], list[Any]],
                      groups: Iterable[tuple[tuple[str, ...], list[tuple[Any, ...]]]], rng: random.Random,
                      k: int) -> list[dict[str, Any]]:
    """Up to k argument sets for a tool: a value for every parameter that has options (a joint
    tuple for each group of parameters that travel together); none when a required parameter
    has no value to draw."""
    grouped = [(names, tuples) for names, tuples in groups if tuples]
    in_groups = {n for names, _ in grouped for n in names}
    singles = [(p, options(spec, p)) for p in spec.parameters if p.name not in in_groups]
    if any(p.required and not values for p, values in singles):
        return []
    drawn = []
    for _ in range(k):
        arguments = {p.name: rng.choice(values) for p, values in singles if values}
        for names, tuples in grouped:
            arguments.update(zip(names, rng.choice(tuples), strict=True))
        if arguments not in drawn:
            drawn.append(arguments)
    return drawn


def library_rule(seeds: dict[str, Any], min_similarity: float) -> TwinRule:
    """The twin rule over these seeds: their actions (tools tagged `state_change`) are never twins."""
    actions = frozenset(name for seed in seeds.values() for name, entry in seed.toolbox.tools.items()
                        if "state_change" in entry.tags)
    return TwinRule(min_similarity, actions)
