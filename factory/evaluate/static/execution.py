"""The execution-based pass rate of static mode, beside NesTools' name-based metrics.

A predicted call list passes when, run in the simulator from the instance's own world, it
produces every value of the gold answer and leaves the world in the state the gold chain
leaves it in. Which tools it used, in what order, and how it wrote equal arguments do not
matter: an equivalent tool or a shorter path that reaches the same answer and state passes,
a plan that names the gold tools but feeds them a wrong value does not.

Predicted calls are in NesTools form: `responses` names each output `API_call_N` (an object
of output name → label, or a list by position), and an argument that is such a label, or a
string containing one, takes that output's value. A call that refers to a label nothing has
bound yet, names an unknown tool or fails in the tool is skipped (its outputs stay unbound);
the rest still run, as an agent's later calls would.
"""

from __future__ import annotations

import copy
from typing import Any

from factory.dataset.nestools import PLACEHOLDER as LABEL
from factory.records import Instance, values_equal


def executable(instance: Instance) -> bool:
    """Whether the instance can be re-run: it has a seeded world and a gold trace that ran."""
    return instance.world is not None and instance.trace.ok and bool(instance.trace.steps)


def _resolve(value: Any, bound: dict[str, Any]) -> tuple[Any, bool]:
    """The argument with labels replaced by their values; False when a label is unbound."""
    if isinstance(value, str):
        labels = [m.group(0) for m in LABEL.finditer(value)]
        if not labels:
            return value, True
        if any(label not in bound for label in labels):
            return None, False
        if LABEL.fullmatch(value.strip()):
            return copy.deepcopy(bound[value.strip()]), True
        return LABEL.sub(lambda m: str(bound[m.group(0)]), value), True
    if isinstance(value, list):
        items = [_resolve(v, bound) for v in value]
        return [v for v, _ in items], all(ok for _, ok in items)
    return value, True


def _labels(responses: Any, outputs: list[str]) -> dict[str, str]:
    """Output name → label, from an object or a list by position."""
    if isinstance(responses, dict):
        return {name: label for name, label in responses.items() if isinstance(label, str)}
    if isinstance(responses, list):
        return {name: label for name, label in zip(outputs, responses, strict=False) if isinstance(label, str)}
    return {}


def run_prediction(instance: Instance, calls: list[dict[str, Any]], seeds: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    """Every value the predicted calls produced, and the world state they leave."""
    from factory.world.simulator import Simulator, ToolCrash  # here: scoring an import runs nothing

    simulator = Simulator(seeds, instance.world)
    specs = {t.name: t for t in instance.tools}
    bound: dict[str, Any] = {}
    produced: list[Any] = []
    for call in calls:
        spec = specs.get(call.get("api_name")) if isinstance(call, dict) else None
        parameters = call.get("parameters") if spec is not None else None
        if spec is None or not isinstance(parameters, dict):
            continue
        arguments, complete = {}, True
        for name, raw in parameters.items():
            arguments[name], ok = _resolve(raw, bound)
            complete = complete and ok
        if not complete:
            continue
        try:
            result = simulator.call(spec, arguments)
        except ToolCrash:  # a toolbox bug on this input: the call produced nothing
            continue
        if result.error is not None:
            continue
        produced.extend(result.values)
        labels = _labels(call.get("responses"), [out.name for out in spec.returns])
        for out, value in zip(spec.returns, result.values, strict=False):
            if out.name in labels:
                bound[labels[out.name]] = value
    return produced, simulator.snapshot()


def execution_pass(instance: Instance, calls: list[dict[str, Any]] | None, seeds: dict[str, Any]) -> float:
    """1.0 when the predicted calls reach the gold answer's values and the gold final state."""
    if not calls:
        return 0.0
    produced, state = run_prediction(instance, calls, seeds)
    answered = all(any(values_equal(gold, got, loose_strings=True) for got in produced)
                   for gold in instance.trace.answer.values())
    return float(answered and state == instance.trace.steps[-1].state)
