"""Milestones and minefields, derived automatically from a chain and its executed trace.

One milestone per call: the tool and the value each argument must have (a nested argument
must equal the value the referenced call produced in the trace), plus the values the chain
needs from the call, so that another tool producing them meets it too. A fix-up call is a
state milestone instead: met by whatever call restores its condition. Edges come from data
and state dependencies; a final milestone holds the answer (the outputs of every call the request
asks for), after those calls.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from factory.records import Chain, Expected, Milestone, Minefield, Ref, Trace, Value


def _describe(tool: str, arguments: dict[str, Expected]) -> str:
    parts = []
    for name, expected in arguments.items():
        origin = f" (from {expected.source})" if expected.source else ""
        parts.append(f"{name}={expected.value!r}{origin}")
    return f"call {tool}({', '.join(parts)})"


def needed_values(chain: Chain, trace: Trace, index: int) -> list[Any]:
    """What the chain needs from call `index`: values of its outputs that later calls take or
    the answer reports."""
    used = {a.ref for c in chain.calls for a in c.arguments.values() if isinstance(a, Ref)} | set(trace.answer)
    step = trace.step(index)
    if step is None:
        return []
    return [value for var, value in step.outputs.items() if var in used]


def taken_values(chain: Chain, trace: Trace, index: int) -> list[Any]:
    """The values of call `index`'s outputs that later calls take (not those only reported)."""
    taken = {a.ref for c in chain.calls for a in c.arguments.values() if isinstance(a, Ref)}
    step = trace.step(index)
    return [value for var, value in step.outputs.items() if var in taken] if step else []


def _milestone(chain: Chain, trace: Trace, position: int, step_call: int, after: list[int],
               toolbox_of: Mapping[str, str | None]) -> Milestone:
    call = chain.calls[step_call]
    step = next(s for s in trace.steps if s.call == step_call)
    if call.fixes is not None:
        condition = f"{toolbox_of.get(call.tool) or ''}:{call.fixes}"
        example = ", ".join(f"{k}={a.value!r}" for k, a in call.arguments.items() if not isinstance(a, Ref))
        return Milestone(index=position, kind="state", condition=condition, tool=call.tool, after=after,
                         description=f"restore {call.fixes} (any call that does, e.g. {call.tool}({example}))")
    expected = {
        name: Expected(value=step.arguments[name], source=arg.ref if isinstance(arg, Ref) else None)
        for name, arg in call.arguments.items()
    }
    return Milestone(index=position, kind="call", tool=call.tool, arguments=expected, after=after,
                     needs=needed_values(chain, trace, step_call), description=_describe(call.tool, expected))


def _answer(trace: Trace, asked: list[int], position: int, refuse: bool, missing: str = "") -> Milestone:
    text = ", ".join(f"{k}={v!r}" for k, v in trace.answer.items())
    if refuse:
        text = (f"{text}; " if text else "") + f"say the rest cannot be done: {missing}"
    return Milestone(index=position, kind="answer", answer=dict(trace.answer), refuse=refuse, after=asked,
                     description=f"final answer: {text}" if text else "final answer: report that the task is done")


def derive_milestones(chain: Chain, trace: Trace, toolbox_of: Mapping[str, str | None] | None = None) -> list[Milestone]:
    graph = chain.graph()
    milestones = [
        _milestone(chain, trace, step.call, step.call,
                   sorted(set(graph.predecessors(step.call)) | set(chain.calls[step.call].after)), toolbox_of or {})
        for step in trace.steps
    ]
    milestones.append(_answer(trace, chain.asked(), len(milestones), refuse=False))
    return milestones


def blocked_calls(chain: Chain, withheld: str) -> set[int]:
    """Calls that cannot be made without the withheld tool: its calls and everything that
    depends on them, through data or state."""
    import networkx as nx  # here: loading a dataset to score it never needs a graph (60 ms)

    graph = chain.graph()
    graph.add_edges_from((a, i) for i, c in enumerate(chain.calls) for a in c.after)
    blocked = {i for i, c in enumerate(chain.calls) if c.tool == withheld}
    for i in list(blocked):
        blocked |= nx.descendants(graph, i)
    return blocked


def doable_calls(chain: Chain, withheld: Collection[str]) -> list[int]:
    """The calls of the parts that can still be done without the withheld tools: those the
    request asks for, with what they need. A call whose values only the blocked part would take
    is none (declining at once loses nothing: its result would go unreported and unused)."""
    import networkx as nx

    blocked = set().union(*(blocked_calls(chain, name) for name in withheld))
    graph = chain.graph()
    graph.add_edges_from((a, i) for i, c in enumerate(chain.calls) for a in c.after)
    reported = {i for i in chain.asked() if i not in blocked}
    useful = reported | {a for i in reported for a in nx.ancestors(graph, i)}
    return [i for i in range(len(chain.calls)) if i in useful and i not in blocked]


def unsolvable_milestones(chain: Chain, trace: Trace, withheld: str, missing: str,
                          toolbox_of: Mapping[str, str | None] | None = None) -> tuple[list[Milestone], dict[str, Any]]:
    """Milestones of an instance whose tool `withheld` is not offered: the parts of the request
    that can still be done, and an answer that reports them and says the rest cannot be done.
    Returns the milestones and the answer values."""
    graph = chain.graph()
    graph.add_edges_from((a, i) for i, c in enumerate(chain.calls) for a in c.after)
    kept = doable_calls(chain, [withheld])
    position = {call: p for p, call in enumerate(kept)}
    milestones = []
    for call in kept:
        after = sorted(position[a] for a in set(graph.predecessors(call)) | set(chain.calls[call].after) if a in position)
        milestones.append(_milestone(chain, trace, position[call], call, after, toolbox_of or {}))
    asked = [i for i in chain.asked() if i in position]
    answer = {var: trace.answer[var] for i in asked for var in chain.calls[i].outputs if var in trace.answer}
    partial = Trace(steps=trace.steps, answer=answer)
    milestones.append(_answer(partial, [position[i] for i in asked], len(milestones), refuse=True, missing=missing))
    return milestones, answer


def withheld_tool_minefields(chain: Chain, trace: Trace, withheld: str) -> list[Minefield]:
    """Minefields for an instance whose tool `withheld` is not available: calling it (a
    hallucinated tool) or calling a consumer of its outputs, whose argument would have to be
    invented."""
    mines = [Minefield(tool=withheld, reason=f"{withheld} is not among the available tools")]
    producers = chain.producers()
    given = list(dict.fromkeys(a.value for c in chain.calls for a in c.arguments.values()
                               if isinstance(a, Value) and isinstance(a.value, (str, int, float)) and not isinstance(a.value, bool)))
    for step in trace.steps:
        call = chain.calls[step.call]
        invented = [
            name for name, arg in call.arguments.items()
            if isinstance(arg, Ref) and chain.calls[producers[arg.ref]].tool == withheld
        ]
        if invented:
            mines.append(
                Minefield(
                    tool=call.tool,
                    arguments={name: Expected(value=step.arguments.get(name)) for name in invented},
                    given=given,
                    reason=f"{', '.join(invented)} can only come from {withheld}, which is unavailable: "
                           "a value the request does not give is invented",
                )
            )
    return mines
