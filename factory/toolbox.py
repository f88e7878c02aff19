"""What a seed toolbox is written with: the `Toolbox` registry, `Kind`, `World` and `world()`.

A seed's `toolbox.py` creates one `Toolbox`, registers a world builder, value generators
and typed, documented tool functions on it, and reads the world inside a tool with
`world()`. Tools signal bad arguments or unmet state conditions by raising `ToolError`
with a message an agent can act on. See `seeds/README.md` for the full format.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

from factory.errors import ToolError

__all__ = ["Kind", "Toolbox", "ToolError", "World", "world", "require"]

W = TypeVar("W", bound="World")


@dataclass(frozen=True)
class Kind:
    """The meaning of a value, used as `Annotated[str, Kind("city")]`.

    A tool's output can feed another tool's parameter when their types are compatible and
    their kinds are equal; kinds shared across toolboxes make cross-domain chains.
    """

    name: str


@dataclass
class World:
    """Base of a seed world: the tables tools read, plus the small mutable `state`.

    `state` holds settings and records that tools change (wifi on, reminders added); it is
    snapshotted after every call in a trace, so keep it JSON-serialisable and small.
    """

    state: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Condition:
    """A world-state condition some tools need (cellular on), and the call that restores it."""

    name: str
    holds: Callable[[Any], bool]
    broken_state: dict[str, Any]  # state overrides under which the condition fails
    fix_tool: str
    fix_arguments: dict[str, Any]


@dataclass(frozen=True)
class ToolEntry:
    fn: Callable[..., Any]
    phrase: str | None  # query template, e.g. "find the weather in {city} on {date}"
    requires: tuple[str, ...]  # condition names that must hold
    tags: tuple[str, ...]  # e.g. "canonicalise", "search", "state_change"


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

    def tool(
        self,
        fn: Callable[..., Any] | None = None,
        *,
        phrase: str | None = None,
        requires: tuple[str, ...] = (),
        tags: tuple[str, ...] = (),
    ) -> Any:
        """Register a tool; usable bare (`@toolbox.tool`) or with options."""

        def register(f: Callable[..., Any]) -> Callable[..., Any]:
            self.tools[f.__name__] = ToolEntry(f, phrase, tuple(requires), tuple(tags))
            return f

        return register(fn) if fn is not None else register

    def condition(
        self,
        name: str,
        *,
        holds: Callable[[Any], bool],
        broken_state: dict[str, Any],
        fix: tuple[str, dict[str, Any]],
    ) -> None:
        """Declare a state condition, the state that breaks it, and the call that restores it."""
        self.conditions[name] = Condition(name, holds, dict(broken_state), fix[0], dict(fix[1]))
