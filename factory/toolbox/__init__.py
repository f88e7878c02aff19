"""What a seed toolbox is written with: the `Toolbox` registry, `Kind`, `World` and `world()`.

A seed's `toolbox.py` creates one `Toolbox`, registers a world builder, value generators
and typed, documented tool functions on it, and reads the world inside a tool with
`world()`. Tools signal bad arguments or unmet state conditions by raising `ToolError`
with a message an agent can act on. See `seeds/README.md` for the full format.

Beside the registry, what tools are written with: `factory.toolbox.gazetteer` (the one shared
world: cities, countries, time zones, distances, money, phone numbers, names),
`factory.toolbox.user` (the person asking), `factory.toolbox.days` (days as tools read and
write them) and `factory.toolbox.sense` (the rules of what makes a sensible call).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

from factory.errors import ToolError
from factory.toolbox.sense import Rule

__all__ = ["Kind", "Toolbox", "ToolError", "World", "world", "require"]

W = TypeVar("W", bound="World")


@dataclass(frozen=True)
class Kind:
    """The meaning of a value, used as `Annotated[str, Kind("city")]`.

    A tool's output can feed another tool's parameter when their types are compatible and
    their kinds and roles are equal. A role says which of several things one kind of value
    is (`Kind("person_name", role="patient")` vs `role="estate_agent"`), so a patient's name
    never feeds a look-up of agents. Across toolboxes, a parameter takes another seed's value
    only through a bridge its own seed declares (`toolbox.bridge("city")`).
    """

    name: str
    role: str | None = None


@dataclass
class World:
    """Base of a seed world: the tables tools read, plus the small mutable `state`.

    `state` holds settings and records that tools change (wifi on, reminders added); it is
    snapshotted after every call in a trace, so keep it JSON-serialisable and small.
    """

    state: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Condition:
    """A world-state condition some tools need (cellular on), and the call that restores it.

    Every argument of the fix call must be knowable: listed in `free` (any valid value
    restores the condition, and the milestone accepts any), or stated by the `context`
    sentence the query then carries ("My billing address is {address}."). `says` is how a
    user states the broken condition ("my cellular data is off"); a query that says it
    gives the fix call a reason, so the instance can be scored statically too. Each is one
    or more wordings, one drawn per query.
    """

    name: str
    holds: Callable[[Any], bool]
    broken_state: dict[str, Any]  # state overrides under which the condition fails
    fix_tool: str
    fix_arguments: dict[str, Any]
    free: tuple[str, ...] = ()
    context: tuple[str, ...] = ()
    says: tuple[str, ...] = ()
    consent: str | None = None  # what restoring it does on the person's behalf (CONSENTS), if anything


# Fix-ups a person must authorise: spending money, signing, sharing personal data, using an
# identity document, submitting on someone's behalf. Such a condition is broken only with a
# `context` sentence that authorises its fix ("Pay whatever fines are blocking it."); a
# setting an agent may flip on discovering it (wifi, location) needs no consent.
CONSENTS = ("spend", "sign", "share", "identity", "submit")


@dataclass(frozen=True)
class Goal:
    """One thing a person in one role wants, and the tools that serve it: a chain is composed
    within one goal, so every part of a request serves the same purpose. `tools` may name
    other seeds' tools where the goal says why (the weather in the city of my next event)."""

    name: str
    wants: str  # what the person wants, in their words ("find a home to buy and go and see it")
    role: str  # who asks: "buyer", "student", "HR admin", ...
    tools: tuple[str, ...]
    # The conditions its requests may start broken (names of this seed's conditions): those
    # this role meets and may set right. None: every condition its tools require. A clinic's
    # receptionist never signs a patient's data-sharing consent.
    conditions: tuple[str, ...] | None = None


def wordings(text: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """One wording or several, as a tuple."""
    return () if text is None else (text,) if isinstance(text, str) else tuple(text)


@dataclass(frozen=True)
class ToolEntry:
    fn: Callable[..., Any]
    asks: tuple[str, ...]  # how a person asks for this call, e.g. "what's the weather in {city} on {date}?"
    gives: dict[tuple[str, ...], tuple[str, ...]]  # output name(s) → how a later request describes them
    groups: dict[str, str]  # placeholder → template over parameters that travel together
    sense: tuple[Rule, ...]  # when a call makes sense (factory.toolbox.sense)
    requires: tuple[str, ...]  # condition names that must hold
    tags: tuple[str, ...]  # e.g. "canonicalise", "search", "state_change", "arithmetic"


_current: ContextVar[World | None] = ContextVar("factory_world", default=None)


def world(kind: type[W] = World) -> W:  # type: ignore[assignment]
    """The world of the toolbox whose tool is running; only valid inside a simulation."""
    current = _current.get()
    if current is None:
        raise RuntimeError("a seed tool ran outside the simulator (no world is active)")
    if not isinstance(current, kind):
        raise RuntimeError(f"the active world is a {type(current).__name__}, not a {kind.__name__}")
    return current


@contextmanager
def active_world(w: World) -> Iterator[World]:
    token = _current.set(w)
    try:
        yield w
    finally:
        _current.reset(token)


def require(condition: bool, message: str) -> None:
    """Raise a `ToolError` with `message` unless `condition` holds."""
    if not condition:
        raise ToolError(message)


class Toolbox:
    """The explicit registry of one seed: world builder, value generators, tools, conditions."""

    def __init__(self) -> None:
        self.build_world: Callable[[random.Random], World] | None = None
        self.values: dict[str, Callable[[Any], list[Any]]] = {}
        self.joint_values: dict[tuple[str, ...], Callable[[Any], list[tuple[Any, ...]]]] = {}
        self.tools: dict[str, ToolEntry] = {}
        self.conditions: dict[str, Condition] = {}
        self.bridges: set[str] = set()
        self.internal: set[str] = set()
        self.written: dict[str, str | Callable[[str], str]] = {}
        self.facts: dict[str, Callable[[Any, Any], dict[str, Any]]] = {}
        self.goals: dict[str, Goal] = {}

    def world(self, fn: Callable[[random.Random], World]) -> Callable[[random.Random], World]:
        """Register the world builder: a function of a seeded `random.Random`."""
        self.build_world = fn
        return fn

    def values_for(self, *kinds: str) -> Callable[[Callable[[Any], list[Any]]], Callable[[Any], list[Any]]]:
        """Register the candidate literal values of a kind, drawn from the world.

        With several kinds the generator returns tuples of values that belong together, e.g.
        `@toolbox.values_for("latitude", "longitude")` → [(48.85, 2.35), ...]: a call taking
        literals of all those kinds gets one coherent tuple instead of independent picks.
        """

        def register(fn: Callable[[Any], list[Any]]) -> Callable[[Any], list[Any]]:
            if len(kinds) == 1:
                self.values[kinds[0]] = fn
            else:
                self.joint_values[tuple(kinds)] = fn
            return fn

        return register

    def internal_kinds(self, *kinds: str) -> None:
        """Kinds a user never states (a place id, a record number only the system shows): a
        parameter of such a kind always takes a value an earlier call produced."""
        self.internal.update(kinds)

    def bridge(self, *kinds: str) -> None:
        """Let this seed's parameters of these kinds take values other seeds' tools produce
        (a contact's city → the weather there). Without a bridge, links stay inside a seed."""
        self.bridges.update(kinds)

    def facts_about(self, kind: str) -> Callable[[Callable[[Any, Any], dict[str, Any]]], Callable[[Any, Any], dict[str, Any]]]:
        """Register what a value of this kind implies about values of other kinds: a function
        of (world, value) → {kind: value}, e.g. an alert id → {"city": "Kobe", "country":
        "Japan"}. The composer then names the alert's own city in the same request, and the
        plausibility check rejects a request that names an alert in Japan and a city in France."""

        def register(fn: Callable[[Any, Any], dict[str, Any]]) -> Callable[[Any, Any], dict[str, Any]]:
            self.facts[kind] = fn
            return fn

        return register

    def written_as(self, kind: str, template: str | Callable[[str], str]) -> None:
        """How a literal of this kind (or "kind/role") is written in a request, `{}` standing
        for the value: units for numbers ("{} °C"), a noun for bare ids ("order {}"), or a
        function of the value (`gazetteer.country_phrase`: "the USA"). A phrasing can then
        say "{reading}" and read well whether a value or a description fills it."""
        self.written[kind] = template

    def tool(
        self,
        fn: Callable[..., Any] | None = None,
        *,
        asks: tuple[str, ...] | str = (),
        gives: dict[str, str | tuple[str, ...]] | None = None,
        groups: dict[str, str] | None = None,
        sense: tuple[Rule, ...] = (),
        requires: tuple[str, ...] = (),
        tags: tuple[str, ...] = (),
    ) -> Any:
        """Register a tool; usable bare (`@toolbox.tool`) or with options (seeds/README.md):
        `asks` phrasings of a request for the call, `gives` descriptions of its outputs for
        later requests, `groups` parameters that travel together, `sense` rules."""
        asks = (asks,) if isinstance(asks, str) else tuple(asks)
        described = {
            tuple(part.strip() for part in key.split(",")): (text,) if isinstance(text, str) else tuple(text)
            for key, text in (gives or {}).items()
        }

        def register(f: Callable[..., Any]) -> Callable[..., Any]:
            self.tools[f.__name__] = ToolEntry(f, asks, described, dict(groups or {}), tuple(sense),
                                               tuple(requires), tuple(tags))
            return f

        return register(fn) if fn is not None else register

    def condition(
        self,
        name: str,
        *,
        holds: Callable[[Any], bool],
        broken_state: dict[str, Any],
        fix: tuple[str, dict[str, Any]],
        free: tuple[str, ...] = (),
        context: str | tuple[str, ...] | None = None,
        says: str | tuple[str, ...] | None = None,
        consent: str | None = None,
    ) -> None:
        """Declare a state condition, the state that breaks it, the call that restores it, and
        how its fix arguments are known (`free`, `context`) and the condition is stated (`says`).
        `consent` (one of CONSENTS) marks a fix the person must authorise: its `context`
        wordings are that authorisation, and every query that breaks it carries one."""
        self.conditions[name] = Condition(name, holds, dict(broken_state), fix[0], dict(fix[1]), tuple(free),
                                          wordings(context), wordings(says), consent)

    def goal(self, name: str, *, wants: str, role: str, tools: tuple[str, ...] | list[str],
             conditions: tuple[str, ...] | list[str] | None = None) -> None:
        """Declare a goal: what a person in `role` wants and the tools that serve it (this
        seed's, or another seed's where the goal says why). Chains are composed within one
        goal; every tool a request may ask for belongs to at least one. `conditions` limits the
        state conditions its requests may start broken to those this role meets and may fix."""
        self.goals[name] = Goal(name, wants, role, tuple(tools), None if conditions is None else tuple(conditions))
