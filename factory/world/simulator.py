"""The simulator: runs tool calls against fresh copies of seed worlds, and runs whole chains.

A call is answered by the first backend that can, and the trace records which: a seed's own
code in process (`seed`); model-written seed code in the sandbox (`sandbox`); an answer
recorded for this call, its text read without case or spacing (`recorded`); a model
simulating the tool (`model`); the typed mock (`mock`). Two error channels: a `ToolError`
(bad value, unmet state condition) or a malformed call comes back as an error observation the
caller can recover from; any other exception in a tool is a bug in its toolbox and raises
`ToolCrash` with the evidence.
"""

from __future__ import annotations

import copy
import inspect
from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Protocol

from factory.errors import FactoryError, ToolError
from factory.records import (
    Chain,
    RecordedCall,
    Ref,
    ToolSpec,
    Trace,
    TraceStep,
    Value,
    WorldSetup,
    stable_json,
    value_matches_type,
)
from factory.seeds.record import Seed
from factory.toolbox import World, active_world


class ToolCrash(FactoryError):
    """A seed tool raised something other than ToolError: a bug in the toolbox (a seed defect)."""

    def __init__(self, message: str, seed: str | None = None, tool: str | None = None):
        super().__init__(message)
        self.seed, self.tool = seed, tool


@dataclass(frozen=True)
class ToolResult:
    values: list[Any]  # one per declared return value, in order
    error: str | None = None
    backend: str = "seed"  # which backend answered (factory.records.BACKENDS)


class ToolBackend(Protocol):
    """Answers calls of tools without an implementation (a model simulating them)."""

    def answer(self, spec: ToolSpec, arguments: dict[str, Any], history: list[RecordedCall]) -> ToolResult | None: ...


def call_key(tool: str, arguments: dict[str, Any]) -> str:
    return stable_json([tool, arguments])


def _loose(value: Any) -> Any:
    """A value as a reader takes it: text without case or spacing."""
    if isinstance(value, str):
        return "".join(value.split()).casefold()
    if isinstance(value, list):
        return [_loose(v) for v in value]
    if isinstance(value, dict):
        return {k: _loose(v) for k, v in value.items()}
    return value


def check_arguments(spec: ToolSpec, arguments: dict[str, Any]) -> str | None:
    """What is wrong with a call's arguments, phrased for the caller; None when they fit."""
    unknown = sorted(set(arguments) - {p.name for p in spec.parameters})
    if unknown:
        return f"{spec.name} has no parameter(s) {', '.join(unknown)}"
    for p in spec.parameters:
        if p.name not in arguments:
            if p.required:
                return f"{spec.name} is missing required parameter {p.name!r}"
            continue
        value = arguments[p.name]
        if not value_matches_type(value, p.type):
            return f"{spec.name}: parameter {p.name!r} must be {p.type}, got {type(value).__name__} {value!r}"
        if p.enum and value not in p.enum:
            return f"{spec.name}: parameter {p.name!r} must be one of {p.enum}, got {value!r}"
    return None


@lru_cache(maxsize=64)
def base_world(seed: Seed, world_seed: int) -> World:
    return seed.build_world(world_seed)


class Simulator:
    """One episode's worlds: each toolbox's world built from the seed, with its own state copy."""

    def __init__(self, seeds: dict[str, Seed], setup: WorldSetup | None = None, mock_seed: int = 0,
                 simulator: ToolBackend | None = None):
        self.seeds = seeds
        self.mock_seed = mock_seed
        self.simulator = simulator
        recorded = setup.recorded if setup else []
        self.recorded = {call_key(r.tool, r.arguments): r.outputs for r in recorded}
        # "salmon" for the recorded "Salmon", "(3,4)" for "(3, 4)": the same call as a person reads it,
        # where it stands for one recorded call only
        loosely = [(call_key(r.tool, _loose(r.arguments)), r.outputs) for r in recorded]
        times = Counter(key for key, _ in loosely)
        self.loosely = {key: outputs for key, outputs in loosely if times[key] == 1}
        self.history: list[RecordedCall] = []  # calls answered without an implementation, this episode
        self.world_seed = setup.seed if setup else None
        self.worlds: dict[str, World] = {}
        self.others: dict[str, World] = {}  # worlds of seeds whose tools are offered but not in the setup
        for slug in setup.toolboxes if setup else ():
            base = base_world(seeds[slug], setup.seed)
            state = copy.deepcopy(base.state)
            state.update(copy.deepcopy(setup.state.get(slug, {})))
            self.worlds[slug] = replace(base, state=state)

    def snapshot(self) -> dict[str, Any]:
        """The state of the instance's own worlds."""
        return {slug: copy.deepcopy(w.state) for slug, w in self.worlds.items() if w.state}

    def world_of(self, toolbox: str | None) -> World | None:
        """The world a seed tool runs in: the setup's, or (for a distractor from another seed)
        that seed's world as built for the same world seed; None: answered by the mock."""
        if toolbox in self.worlds:
            return self.worlds[toolbox]
        if toolbox not in self.seeds or self.world_seed is None:
            return None
        if toolbox not in self.others:
            base = base_world(self.seeds[toolbox], self.world_seed)
            self.others[toolbox] = replace(base, state=copy.deepcopy(base.state))
        return self.others[toolbox]

    def holding(self) -> set[str]:
        """The declared conditions that hold now, as "toolbox:condition"."""
        return {f"{slug}:{name}" for slug, w in self.worlds.items()
                for name, condition in self.seeds[slug].toolbox.conditions.items() if condition.holds(w)}

    def call(self, spec: ToolSpec, arguments: dict[str, Any]) -> ToolResult:
        problem = check_arguments(spec, arguments)
        if problem:
            return ToolResult([], problem)
        # A call means the same whatever order its arguments were written in.
        arguments = {p.name: arguments[p.name] for p in spec.parameters if p.name in arguments}
        world = self.world_of(spec.toolbox)
        if world is None:
            return self._simulated(spec, arguments)
        seed = self.seeds[spec.toolbox or ""]
        if getattr(seed, "sandboxed", False):  # model-written code: only ever in the sandbox
            return seed.run(world, spec, arguments)
        return self._run_seed(spec, arguments, world)

    def _simulated(self, spec: ToolSpec, arguments: dict[str, Any]) -> ToolResult:
        """A tool without an implementation: its recorded answer, a model's, or the typed mock's."""
        recorded = self.recorded.get(call_key(spec.name, arguments))
        if recorded is None:
            recorded = self.loosely.get(call_key(spec.name, _loose(arguments)))
        if recorded is not None:
            result = ToolResult(list(recorded), backend="recorded")
        else:
            result = self.simulator.answer(spec, arguments, self.history) if self.simulator else None
            if result is None:
                from factory.world.mock import mock_outputs

                result = ToolResult(mock_outputs(spec, arguments, self.mock_seed), backend="mock")
        if result.error is None:
            self.history.append(RecordedCall(tool=spec.name, arguments=arguments, outputs=result.values))
        return result

    def _run_seed(self, spec: ToolSpec, arguments: dict[str, Any], world: World) -> ToolResult:
        seed = self.seeds[spec.toolbox]
        entry = seed.toolbox.tools[spec.name]
        try:
            with active_world(world):
                raw = entry.fn(**arguments)
        except ToolError as exc:
            return ToolResult([], str(exc))
        except Exception as exc:
            where = f"{inspect.getsourcefile(entry.fn)}:{inspect.getsourcelines(entry.fn)[1]}"
            raise ToolCrash(f"seed {spec.toolbox}, tool {spec.name} ({where}) crashed on {arguments!r}: "
                            f"{type(exc).__name__}: {exc}", spec.toolbox, spec.name) from exc
        values = list(raw) if len(spec.returns) > 1 and isinstance(raw, tuple) else [raw]
        return ToolResult(values)


def run_chain(chain: Chain, specs: dict[str, ToolSpec], simulator: Simulator) -> Trace:
    """Execute every call in order, resolving references from earlier outputs.

    A failed call is recorded with its error and the run stops there: later calls could only
    consume values that do not exist.
    """
    bound: dict[str, Any] = {}
    steps: list[TraceStep] = []
    for index, call in enumerate(chain.calls):
        arguments = {}
        for name, arg in call.arguments.items():
            arguments[name] = copy.deepcopy(bound[arg.ref]) if isinstance(arg, Ref) else arg.value
        spec = specs[call.tool]
        result = simulator.call(spec, arguments)
        outputs = dict(zip(call.outputs, result.values, strict=False))
        steps.append(
            TraceStep(
                call=index,
                tool=call.tool,
                arguments=arguments,
                outputs=outputs,
                error=result.error,
                state=simulator.snapshot(),
                backend=result.backend,
            )
        )
        if result.error is not None:
            break
        if len(result.values) != len(call.outputs):
            steps[-1].error = f"{call.tool} returned {len(result.values)} value(s), declared {len(call.outputs)}"
            break
        bound.update(outputs)
    answer = {}
    if all(s.error is None for s in steps):
        answer = {var: bound[var] for var in answered(chain, specs, steps)}
    return Trace(steps=steps, answer=answer)


def answered(chain: Chain, specs: dict[str, ToolSpec], steps: list[TraceStep]) -> list[str]:
    """The output variables that form the gold answer: those of the calls the request asks for,
    but for what a call only hands back of its own arguments, and for an id its call also gives
    a name for (`_named`). An id with no name beside it stays in: "which doctor is rated
    highest?" answered without it would pass an agent that never says which."""
    found = []
    for i in chain.asked():
        step = next((s for s in steps if s.call == i), None)
        given = step.arguments if step else {}
        outputs = step.outputs if step else {}
        spec = specs.get(chain.calls[i].tool)
        returns = spec.returns if spec else []
        names = [returns[k].name if k < len(returns) else "" for k in range(len(chain.calls[i].outputs))]
        found += [var for k, var in enumerate(chain.calls[i].outputs)
                  if not hands_back(outputs.get(var), names[k], given) and not _named(names[k], names)]
    return found


def without_echoes(chain: Chain, specs: dict[str, ToolSpec], steps: list[TraceStep]) -> Chain:
    """The chain with every argument taken from an echo (`hands_back`: the check-in day the search
    for a stay hands back) taken from what the echo hands back instead, the request's literal or
    the call it came from: the value an agent passes on, and what a stock NesTools scorer sees.
    The run is the same; only which call the value is said to come from changes."""
    source: dict[str, Ref | Value] = {}
    for step in steps:
        call = chain.calls[step.call]
        returns = specs[call.tool].returns if call.tool in specs else []
        for var, out in zip(call.outputs, returns, strict=False):
            given = call.arguments.get(out.name)
            if given is not None and hands_back(step.outputs.get(var), out.name, step.arguments):
                source[var] = source.get(given.ref, given) if isinstance(given, Ref) else given
    if not source:
        return chain
    calls = [c.model_copy(update={"arguments": {k: source.get(a.ref, a) if isinstance(a, Ref) else a
                                                for k, a in c.arguments.items()}}) for c in chain.calls]
    return chain.model_copy(update={"calls": calls})


def _named(name: str, names: list[str]) -> bool:
    """Whether an output `X_id` comes with its name, `X_name` or `X_title`, from the same call
    (the doctor rated highest, with the doctor's name), or `X_ids` with `X_names`: a person is
    told the name, and an agent that says "Dr. Ana Ruiz" and not "D-2031" has answered."""
    for ids, named in (("_ids", ("_names",)), ("_id", ("_name", "_title"))):
        stem = name.removesuffix(ids)
        if stem != name:
            return bool({stem + suffix for suffix in named} & set(names))
    return False


def hands_back(value: Any, name: str, given: dict[str, Any]) -> bool:
    """Whether an output only hands back what its call was given, under the same name (the
    check-in day and the nights of the cheapest stay found for them): the request never asked
    for it. A value that only happens to equal an argument is news (the trading day a close is
    from, when the market was open on the day asked)."""
    return name in given and given[name] == value and not isinstance(value, bool)
