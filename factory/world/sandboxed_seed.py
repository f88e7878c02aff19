"""A seed whose `toolbox.py` was written by a model: loaded through the sandbox, never imported.

`load_sandboxed_seed(folder)` returns a `SandboxedSeed`, a `Seed` whose toolbox is built on
the host from data the sandbox worker sends (specs, declarations, conditions), whose worlds
are `SandboxWorld`s (the state, and the world seed that names the world inside the
sandbox), and whose value generators, facts and conditions answer from tables the sandbox
computes. The composer, the tool pool, the scenarios, the checks and the simulator use it
as they use a trusted seed; the simulator sends its tool calls to the sandbox
(`SandboxedSeed.run`), one warm sandbox per thread.

Declarations that would need the model's code on the host (a `sensible` rule, a `written_as`
function) are dropped with the reason (`dropped`). A seed folder's `manifest.json` may list
tools its vetting dropped (`vetting.dropped_tools`); those are left out here.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from factory.errors import SeedError
from factory.records import ToolSpec, stable_json
from factory.seeds.phrasings import apply_phrasings
from factory.seeds.record import Seed, scenario_of, with_moved_hint
from factory.toolbox import Condition, Toolbox, ToolEntry, World
from factory.toolbox.sense import Around, Arrives, Distinct, Present, Rule, SameDay, Together, Trip, Within
from factory.world.bubblewrap import SandboxUnavailable
from factory.world.sandbox import Sandbox, SandboxFailure, SandboxLimits
from factory.world.sandbox_process import SEED_LIMITS
from factory.world.sandbox_protocol import (
    DeclareRequest,
    FactsRequest,
    HoldsRequest,
    RebuildRequest,
    TablesRequest,
)
from factory.world.simulator import ToolCrash, ToolResult

MANIFEST = "manifest.json"  # what marks a seed folder as model-written
SHARED_WRITERS = {"factory.toolbox.gazetteer"}  # modules whose functions may serve as written_as on the host


# The declarations as the worker sends them; validated before anything reads them.

class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RuleData(_Strict):
    kind: Literal["distinct", "together", "same_day", "within", "around", "trip", "arrives", "present"]
    params: list[str] = Field(default_factory=list)
    param: str = ""
    low: float = 0.0
    high: float = 0.0
    before: int = 0
    after: int = 0
    start: list[str] = Field(default_factory=list)
    end: list[str] = Field(default_factory=list)
    mode: str = ""

    def rule(self) -> Rule:
        if self.kind == "distinct":
            return Distinct(tuple(self.params))
        if self.kind == "together":
            return Together(tuple(self.params))
        if self.kind == "arrives":
            return Arrives(tuple(self.params))
        if self.kind == "present":
            return Present(tuple(self.params))
        if self.kind == "same_day":
            return SameDay(self.param)
        if self.kind == "within":
            return Within(self.param, self.low, self.high)
        if self.kind == "around":
            return Around(self.param, self.before, self.after)
        if len(self.start) != 2 or len(self.end) != 2:
            raise ValueError("trip needs start and end as (latitude, longitude) parameter pairs")
        return Trip((self.start[0], self.start[1]), (self.end[0], self.end[1]), self.mode)


class ToolData(_Strict):
    asks: list[str]
    gives: list[tuple[list[str], list[str]]]
    groups: dict[str, str]
    sense: list[RuleData]
    requires: list[str]
    tags: list[str]


class ConditionData(_Strict):
    name: str
    broken_state: dict[str, Any]
    fix_tool: str
    fix_arguments: dict[str, Any]
    free: list[str]
    context: list[str]
    says: list[str]


class WrittenData(_Strict):
    template: str | None = None
    function: str | None = None


class Declarations(_Strict):
    tools: dict[str, ToolData]
    bridges: list[str]
    internal: list[str]
    written: dict[str, WrittenData]
    conditions: list[ConditionData]
    values: list[str]
    joint: list[list[str]]
    facts: list[str]
    world: bool
    dropped: list[str]


@dataclass
class SandboxWorld(World):
    """A world that lives in the sandbox: the host keeps its state and the seed naming it."""

    world_seed: str = ""  # "<slug>:<seed>", the random seed the sandbox builds it from


def _never(**arguments: Any) -> Any:
    raise RuntimeError("a model-written tool runs only in the sandbox")


def _shared_writer(reference: str) -> Any:
    """A written_as function of the factory itself ("factory.toolbox.gazetteer:country_phrase")."""
    module_name, _, name = reference.partition(":")
    if module_name not in SHARED_WRITERS or not name.isidentifier() or name.startswith("_"):
        return None
    import importlib

    fn = getattr(importlib.import_module(module_name), name, None)
    return fn if callable(fn) else None


class SandboxRunner:
    """The sandboxes of one model-written seed (one per thread) and what the host caches of
    them: base states, tables, which conditions hold in a state, facts."""

    def __init__(self, code: Path, slug: str, limits: SandboxLimits | None = None):
        self.code, self.slug = code, slug
        self.limits = limits or SEED_LIMITS
        self._local = threading.local()
        self._lock = threading.Lock()
        self._boxes: list[Sandbox] = []
        self._pid = os.getpid()
        self._bases: dict[str, dict[str, Any]] = {}
        self._tables: dict[str, tuple[dict, dict, dict]] = {}
        self._holding: dict[tuple[str, str], frozenset[str]] = {}
        self._facts: dict[tuple[str, str, str], dict[str, Any]] = {}
        self.calls = 0

    def box(self) -> Sandbox:
        """This thread's sandbox (see factory.world.sandbox: one per thread). A process forked
        from this one (a generation worker) starts its own: the sandboxes it inherited talk to
        the parent's workers, over pipes the parent still uses."""
        if self._pid != os.getpid():  # kept, never closed nor collected: ending them would end the parent's
            self._inherited = [*getattr(self, "_inherited", []), *self._boxes, getattr(self._local, "box", None)]
            self._pid, self._local, self._lock, self._boxes = os.getpid(), threading.local(), threading.Lock(), []
        box = getattr(self._local, "box", None)
        if box is None:
            box = self._local.box = Sandbox(self.code, self.limits, slug=self.slug)
            with self._lock:
                self._boxes.append(box)
        return box

    def close(self) -> None:
        with self._lock:
            for box in self._boxes:
                box.close()
            self._boxes.clear()
        self._local = threading.local()

    def base_state(self, world_seed: str) -> dict[str, Any]:
        if world_seed not in self._bases:
            state = self.box().open_world(world_seed)
            with self._lock:
                self._bases[world_seed] = state
        return self._bases[world_seed]

    def tables(self, world_seed: str) -> tuple[dict, dict, dict]:
        """(values by kind, joint values by kinds, facts by kind and value) of one world."""
        if world_seed not in self._tables:
            data = self.box().ask(TablesRequest(id=0, seed=world_seed))
            try:
                values = {str(k): list(v) for k, v in data["values"].items()}
                joint = {tuple(str(k) for k in kinds): [tuple(t) for t in tuples] for kinds, tuples in data["joint"]}
                facts: dict[str, dict[Any, dict[str, Any]]] = {}
                for kind, value, found in data["facts"]:
                    if isinstance(found, dict) and found:
                        facts.setdefault(str(kind), {})[value] = found
            except (KeyError, TypeError, ValueError) as exc:
                raise SeedError(f"{self.code}: the value tables are malformed: {exc}") from exc
            with self._lock:
                self._tables[world_seed] = (values, joint, facts)
        return self._tables[world_seed]

    def holding(self, world_seed: str, state: dict[str, Any]) -> frozenset[str]:
        key = (world_seed, stable_json(state))
        if key not in self._holding:
            data = self.box().ask(HoldsRequest(id=0, seed=world_seed, state=state))
            held = frozenset(str(n) for n in data.get("holding", []) if isinstance(n, str))
            with self._lock:
                self._holding[key] = held
        return self._holding[key]

    def facts(self, world_seed: str, kind: str, value: Any) -> dict[str, Any]:
        known = self.tables(world_seed)[2].get(kind, {})
        if isinstance(value, (str, int, float)) and value in known:
            return known[value]
        key = (world_seed, kind, stable_json(value))
        if key not in self._facts:
            try:
                data = self.box().ask(FactsRequest(id=0, seed=world_seed, kind=kind, value=value))
            except SandboxFailure:
                data = {}
            with self._lock:
                self._facts[key] = data if isinstance(data, dict) else {}
        return self._facts[key]

    def rebuild(self, world_seed: str) -> dict[str, Any]:
        return self.box().ask(RebuildRequest(id=0, seed=world_seed))


def _condition_holds(runner: SandboxRunner, name: str):
    def holds(w: Any) -> bool:
        if not isinstance(w, SandboxWorld):
            raise TypeError(f"condition {name!r} of a model-written seed needs its sandbox world")
        return name in runner.holding(w.world_seed, w.state)

    return holds


def _values_of(runner: SandboxRunner, kind: str):
    return lambda w: runner.tables(w.world_seed)[0].get(kind, [])


def _joint_of(runner: SandboxRunner, kinds: tuple[str, ...]):
    return lambda w: runner.tables(w.world_seed)[1].get(kinds, [])


def _facts_of(runner: SandboxRunner, kind: str):
    return lambda w, value: runner.facts(w.world_seed, kind, value)


@dataclass
class Settled:
    """A model-written toolbox on the host, and what was left out of it and why."""

    toolbox: Toolbox
    specs: dict[str, ToolSpec]
    dropped: list[str] = field(default_factory=list)


def settle(declarations: Declarations, specs: dict[str, ToolSpec], spec_errors: dict[str, str], runner: SandboxRunner,
           drop_tools: dict[str, str] | None = None) -> Settled:
    """The host-side Toolbox of a model-written seed: tools with a spec that the vetting kept,
    conditions whose fix tool is kept, requirements only of declared conditions."""
    dropped = list(declarations.dropped)
    for name, why in sorted(spec_errors.items()):
        dropped.append(f"tool {name}: no spec: {why}")
    for name, why in sorted((drop_tools or {}).items()):
        dropped.append(f"tool {name}: dropped by the vetting: {why}")
    kept = {n: d for n, d in declarations.tools.items() if n in specs and n not in (drop_tools or {})}
    conditions: dict[str, ConditionData] = {}
    for c in declarations.conditions:
        if c.fix_tool not in kept:
            dropped.append(f"condition {c.name}: its fix tool {c.fix_tool!r} is not among the tools")
        else:
            conditions[c.name] = c
    toolbox = Toolbox()
    for name, data in kept.items():
        requires = []
        for condition in data.requires:
            if condition in conditions:
                requires.append(condition)
            else:
                dropped.append(f"tool {name}: requires undeclared (or dropped) condition {condition!r}; left out")
        sense = []
        for rule in data.sense:
            try:
                sense.append(rule.rule())
            except ValueError as exc:
                dropped.append(f"tool {name}: sense rule {rule.kind}: {exc}")
        gives = {tuple(k): tuple(v) for k, v in data.gives}
        toolbox.tools[name] = ToolEntry(_never, tuple(data.asks), gives, dict(data.groups), tuple(sense),
                                        tuple(requires), tuple(data.tags))
    for c in conditions.values():
        toolbox.conditions[c.name] = Condition(c.name, _condition_holds(runner, c.name), dict(c.broken_state),
                                               c.fix_tool, dict(c.fix_arguments), tuple(c.free), tuple(c.context), tuple(c.says))
    toolbox.bridges.update(declarations.bridges)
    toolbox.internal.update(declarations.internal)
    for kind, written in declarations.written.items():
        if written.template is not None:
            toolbox.written[kind] = written.template
        elif written.function and _shared_writer(written.function) is not None:
            toolbox.written[kind] = _shared_writer(written.function)
        else:
            dropped.append(f"written_as({kind!r}): {written.function!r} is not a function the host may use")
    toolbox.values.update({kind: _values_of(runner, kind) for kind in declarations.values})
    toolbox.joint_values.update({tuple(k): _joint_of(runner, tuple(k)) for k in declarations.joint})
    toolbox.facts.update({kind: _facts_of(runner, kind) for kind in declarations.facts})
    return Settled(toolbox, {n: specs[n] for n in kept}, dropped)


def describe_toolbox(runner: SandboxRunner) -> tuple[Declarations, dict[str, ToolSpec], dict[str, str]]:
    """Specs and declarations of the code, read in the sandbox; SeedError when they cannot be."""
    box = runner.box()
    try:
        described = box.describe(specs=True)
        if described.kind != "toolbox":
            raise SeedError(f"{runner.code}: defines no `toolbox = Toolbox()`")
        raw = box.ask(DeclareRequest(id=0))
    except SandboxFailure as exc:
        raise SeedError(with_moved_hint(str(exc))) from exc
    specs, spec_errors = dict(described.specs), dict(described.spec_errors)
    for name, spec in list(specs.items()):
        if spec.name != name or spec.toolbox != runner.slug:
            spec_errors[name] = f"the spec names tool {spec.name!r} of {spec.toolbox!r}"
            del specs[name]
    try:
        declarations = Declarations.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise SeedError(f"{runner.code}: unreadable declarations at {'.'.join(map(str, first['loc']))}: "
                        f"{first['msg']}") from exc
    return declarations, specs, spec_errors


def read_manifest(folder: Path) -> dict[str, Any]:
    path = folder / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SeedError(f"{path}: unreadable: {exc}") from exc
    return data if isinstance(data, dict) else {}


@dataclass(frozen=True, eq=False)
class ModelWrittenSeed(Seed):
    """A Seed whose code runs only in the sandbox (see the module docstring)."""

    runner: SandboxRunner | None = None
    dropped: tuple[str, ...] = ()  # declarations left out, with the reason
    sandboxed: bool = True

    def build_world(self, seed: int) -> World:
        assert self.runner is not None
        world_seed = f"{self.slug}:{seed}"
        try:
            state = self.runner.base_state(world_seed)
        except SandboxFailure as exc:
            raise SeedError(f"{self.path / 'toolbox.py'}: world builder failed: {exc}") from exc
        return SandboxWorld(state=json.loads(json.dumps(state)), world_seed=world_seed)

    def run(self, world: SandboxWorld, spec: ToolSpec, arguments: dict[str, Any]) -> ToolResult:
        """One tool call in this thread's sandbox; the world's state follows the call."""
        assert self.runner is not None
        self.runner.calls += 1
        outcome = self.runner.box().call(spec.name, arguments, [o.type for o in spec.returns],
                                         world=world.world_seed, state=world.state)
        if outcome.status == "failed":
            raise ToolCrash(f"seed {self.slug}, tool {spec.name} (model-written, in the sandbox) crashed on "
                            f"{arguments!r}: {outcome.message}", self.slug, spec.name)
        if outcome.state is not None:
            world.state = outcome.state
        if outcome.status == "tool_error":
            return ToolResult([], outcome.message, backend="sandbox")
        return ToolResult(list(outcome.values), backend="sandbox")

    def close(self) -> None:
        if self.runner is not None:
            self.runner.close()


def load_sandboxed_seed(folder: Path, limits: SandboxLimits | None = None) -> Any:
    """Load a model-written seed folder through the sandbox (its code never runs on the host).
    SeedError for a seed that cannot be used; SandboxUnavailable where no sandbox can be had."""
    slug = folder.name
    scenario = scenario_of(folder)
    code = folder / "toolbox.py"
    if not code.is_file():
        raise SeedError(f"{folder}: missing toolbox.py")
    manifest = read_manifest(folder) if (folder / MANIFEST).is_file() else {}
    drop = (manifest.get("vetting") or {}).get("dropped_tools") or {}
    runner = SandboxRunner(code.resolve(), slug, limits)
    try:
        declarations, specs, spec_errors = describe_toolbox(runner)
        if not declarations.world:
            raise SeedError(f"{code}: no world builder registered (decorate one with @toolbox.world)")
        settled = settle(declarations, specs, spec_errors, runner, {str(k): str(v) for k, v in drop.items()})
        apply_phrasings(settled.toolbox, folder, dropped=set(declarations.tools) - set(settled.toolbox.tools))
        if not settled.specs:
            raise SeedError(f"{code}: no tool is left to use ({'; '.join(settled.dropped[:3]) or 'none registered'})")
        seed = ModelWrittenSeed(slug, folder, scenario, settled.toolbox, settled.specs, runner=runner,
                                dropped=tuple(settled.dropped))
        seed.build_world(0)  # a builder that always fails would otherwise stop every run that loads it
    except (SeedError, SandboxUnavailable):
        runner.close()
        raise
    return seed


