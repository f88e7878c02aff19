"""The simulator: runs tool calls against fresh copies of seed worlds, and runs whole chains.

Two error channels: a `ToolError` (bad value, unmet state condition) or a malformed call
comes back as an error observation the caller can recover from; any other exception in a
tool is a bug in its toolbox and raises `ToolCrash` with the evidence.
"""

from __future__ import annotations

import copy
import inspect
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from factory.errors import FactoryError, ToolError
from factory.records import Chain, Ref, ToolSpec, Trace, TraceStep, WorldSetup, value_matches_type
from factory.seeds import Seed
from factory.toolbox import World, active_world


class ToolCrash(FactoryError):
    """A seed tool raised something other than ToolError: a bug in the toolbox."""


@dataclass(frozen=True)
class ToolResult:
    values: list[Any]  # one per declared return value, in order
    error: str | None = None


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

    def __init__(self, seeds: dict[str, Seed], setup: WorldSetup | None = None, mock_seed: int = 0):
        self.seeds = seeds
        self.mock_seed = mock_seed
        self.worlds: dict[str, World] = {}
        for slug in setup.toolboxes if setup else ():
            base = base_world(seeds[slug], setup.seed)
            state = copy.deepcopy(base.state)
            state.update(copy.deepcopy(setup.state.get(slug, {})))
            self.worlds[slug] = replace(base, state=state)

    def snapshot(self) -> dict[str, Any]:
        return {slug: copy.deepcopy(w.state) for slug, w in self.worlds.items() if w.state}

    def call(self, spec: ToolSpec, arguments: dict[str, Any]) -> ToolResult:
        problem = check_arguments(spec, arguments)
        if problem:
            return ToolResult([], problem)
        # A call means the same whatever order its arguments were written in.
        arguments = {p.name: arguments[p.name] for p in spec.parameters if p.name in arguments}
        if spec.toolbox is None or spec.toolbox not in self.worlds:
            from factory.mock import mock_outputs

            return ToolResult(mock_outputs(spec, arguments, self.mock_seed))
        seed = self.seeds[spec.toolbox]
        entry = seed.toolbox.tools[spec.name]
        try:
            with active_world(self.worlds[spec.toolbox]):
                raw = entry.fn(**arguments)
        except ToolError as exc:
            return ToolResult([], str(exc))
        except Exception as exc:
            where = f"{inspect.getsourcefile(entry.fn)}:{inspect.getsourcelines(entry.fn)[1]}"
            raise ToolCrash(f"tool {spec.name} ({where}) crashed on {arguments!r}: {type(exc).__name__}: {exc}") from exc
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
        for i in chain.sinks():
            for var in chain.calls[i].outputs:
                answer[var] = bound[var]
    return Trace(steps=steps, answer=answer)
