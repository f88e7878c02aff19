"""Literal arguments of a composed call: drawn from the world's values so the call executes,
coherent (a group's values come as one tuple), about the same things as the rest of the
chain (a city already named is named again), obeying the tool's sense rules, and never a value
the chain's tools show as an example in their documentation (an agent could copy it from
there without reading the request)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from factory.chains.pool import ToolPool, states
from factory.records import Param, ToolSpec
from factory.seeds.specs import shows_example
from factory.toolbox.sense import Distinct, violations

OPTIONAL_ARGUMENT_RATE = 0.25  # how often an optional parameter is given a literal
# Kinds of an optional parameter that sets the measure of what the call returns: left out, the
# gold takes the tool's default (a market cap in US dollars for a company quoted in euros, while
# the request speaks of Egyptian pounds), which the request never states (reading 79 #34).
MEASURE_KINDS = frozenset({"currency_code"})
TRIES = 60  # drawings tried before a call is given up as senseless
FRESH_AFTER = TRIES // 2  # after this many tries, stop reusing the chain's earlier values



def _stated(pool: ToolPool, spec: ToolSpec, param: Param, asked: bool) -> bool:
    """Whether the wording of the call can state an optional parameter: some request phrasing
    (for an asked call) or output description (for a nested one) has its placeholder."""
    entry = pool.entry(spec.name)
    if entry is None:
        return True
    texts = list(entry.asks) if asked else [t for texts in entry.gives.values() for t in texts]
    return any(states(text, (param.name,), pool.groups[spec.name]) for text in texts)


def _chosen(pool: ToolPool, spec: ToolSpec, bound: set[str], asked: bool, known: Known,
            rng: random.Random) -> list[Param]:
    """The parameters given a literal: the required ones, now and then an optional one the
    wording can state, and every one the wording can state of a call that changes the world (a
    booking says how long it is for, or an agent choosing a length would be marked down by a
    scorer of arguments, reading 55 #10) or that sets the measure of what a call returns (the
    currency of a price: `MEASURE_KINDS`). An optional parameter that is nothing when left out
    (no coupon) leaves an agent nothing to choose: it is given now and then, and always when the
    chain already names a thing of its kind (the coupon checked for the product is the one the
    order uses, reading 85 #26)."""
    entry = pool.entry(spec.name)
    acts = entry is not None and "state_change" in entry.tags
    measures = [p for p in spec.parameters if p.kind in MEASURE_KINDS and p.name not in bound
                and (_stated(pool, spec, p, asked) or _stated(pool, spec, p, True))]  # a nested call may be asked too

    def wanted(p: Param) -> bool:
        if not p.required and p.default in ("", None):
            return p.kind in known.named or rng.random() < OPTIONAL_ARGUMENT_RATE
        return acts or rng.random() < OPTIONAL_ARGUMENT_RATE

    chosen = [p for p in spec.parameters if p.name not in bound and (
        p.required or p in measures or (wanted(p) and _stated(pool, spec, p, asked)))]
    names = {p.name for p in chosen}
    for group in pool.groups[spec.name]:  # a group is given whole or not at all
        if names & set(group.params) and not set(group.params) <= names | bound:
            names |= {p for p in group.params if p not in bound}
    return [p for p in spec.parameters if p.name in names and pool.options(spec, p)]


@dataclass
class Known:
    """What a chain's literals have named so far: every value of a kind they name or imply (an
    alert id implies its city), which later literals agree with."""

    named: dict[str, list[Any]] = field(default_factory=dict)

    def add(self, pool: ToolPool, param: Param, value: Any) -> None:
        if not param.kind:
            if param.enum and value not in self.named.setdefault(_choice(param), []):
                self.named[_choice(param)].append(value)
            return
        for kind, implied in {param.kind: value, **_implied(pool, param, value)}.items():
            if implied not in self.named.setdefault(kind, []):
                self.named[kind].append(implied)

    def copy(self) -> Known:
        return Known({kind: list(values) for kind, values in self.named.items()})

    def agrees(self, pool: ToolPool, param: Param, value: Any) -> bool:
        """A value fits what is known: it is the thing of its kind already named (if any), and
        what it implies contradicts nothing named; a choice among words with no kind (a leave
        type) is the one made before: the sick-leave balance, then sick leave filed."""
        if not param.kind:
            return not param.enum or _choice(param) not in self.named or value in self.named[_choice(param)]
        if param.kind in self.named and isinstance(value, str | int) and value not in self.named[param.kind] and (
                isinstance(value, str) or param.kind == "year"):  # (other numbers coincide by chance)
            return False
        in_role = f"{param.kind}/{param.role}"  # implied of a person in a role (a course's instructor)
        if in_role in self.named and value not in self.named[in_role]:
            return False
        return all(kind not in self.named or implied in self.named[kind]
                   for kind, implied in _implied(pool, param, value).items())


def _implied(pool: ToolPool, param: Param, value: Any) -> dict[str, Any]:
    """What a literal implies (`ToolPool.facts_of`), and a day its year: the hottest city on
    June 16, 2025 goes with the holidays of 2025, not of 2026."""
    facts = pool.facts_of(param.kind, value, param.role)
    if param.kind in ("date", "datetime") and isinstance(value, str) and value[:4].isdigit():
        facts = {**facts, "year": int(value[:4])}
    return facts


def _choice(param: Param) -> str:
    """What names a choice among fixed words with no kind: the parameter's name and its words."""
    return f"{param.name}:{'|'.join(map(str, param.enum or ()))}"


def _pick(pool: ToolPool, spec: ToolSpec, param: Param, known: Known, taken: list[Any], prefer: bool | None,
          rng: random.Random, avoid: frozenset[str] = frozenset()) -> Any:
    """A value for one literal parameter: while `prefer`, one that agrees with what the chain
    already names; never one another parameter of this call already took, nor a documented
    example (`avoid`), if avoidable."""
    drawable = [v for v in pool.options(spec, param) if not shows_example(v, avoid)] or pool.options(spec, param)
    options = [v for v in drawable if v not in taken] or drawable
    if prefer is None:  # must differ from a nested value: avoid whatever the chain names
        return rng.choice([v for v in options if v not in known.named.get(param.kind or "", [])] or options)
    if prefer and (param.kind or param.enum):
        fitting = [v for v in options if known.agrees(pool, param, v)]
        if fitting:
            return rng.choice(fitting)
    return rng.choice(options)


def draw_arguments(pool: ToolPool, spec: ToolSpec, bound: set[str], known: Known, asked: bool,
                   rng: random.Random, avoid: frozenset[str] = frozenset()) -> dict[str, Any] | None:
    """Literal values for the parameters `bound` leaves open, none of them a value in `avoid`
    (the chain's tools' documented examples) where another can be had, or None when no drawing
    within TRIES obeys the tool's sense rules."""
    chosen = _chosen(pool, spec, bound, asked, known, rng)
    names = {p.name for p in chosen}
    groups = [g for g in pool.groups[spec.name] if set(g.params) <= names]
    entry = pool.entry(spec.name)
    rules = entry.sense if entry else ()
    apart = {p for rule in rules if isinstance(rule, Distinct) and set(rule.params) & bound for p in rule.params}
    for attempt in range(TRIES):
        values: dict[str, Any] = {}
        trial = known.copy()  # what this drawing names so far, the call's own earlier values included
        for group in groups:
            tuples = pool.joint_options(spec, group)
            tuples = [t for t in tuples if not any(shows_example(v, avoid) for v in t)] or tuples
            params = [spec.param(p) for p in group.params]
            if attempt < FRESH_AFTER:
                tuples = [t for t in tuples if all(trial.agrees(pool, p, v) for p, v in zip(params, t, strict=True))] or tuples
            if tuples:
                values.update(zip(group.params, rng.choice(tuples), strict=True))
                for param in params:
                    trial.add(pool, param, values[param.name])
        for param in chosen:
            if param.name in values:
                continue
            same_kind = [values[p.name] for p in chosen if p.name in values and p.kind == param.kind and p.role == param.role]
            prefer = None if param.name in apart else attempt < FRESH_AFTER
            values[param.name] = _pick(pool, spec, param, trial, same_kind, prefer, rng, avoid)
            trial.add(pool, param, values[param.name])
        if not violations(rules, values, pool.limits):
            known.named = trial.named
            return values
    return None
