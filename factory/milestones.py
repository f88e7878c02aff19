"""Milestones and minefields, derived automatically from a chain and its executed trace.

One milestone per call: the tool and the value each argument must have (a nested argument
must equal the value the referenced call produced in the trace). Edges come from data and
state dependencies; a final milestone holds the answer, after every sink call.
"""

from __future__ import annotations

from factory.records import Chain, Expected, Milestone, Minefield, Ref, Trace


def _describe(tool: str, arguments: dict[str, Expected]) -> str:
    parts = []
    for name, expected in arguments.items():
        origin = f" (from {expected.source})" if expected.source else ""
        parts.append(f"{name}={expected.value!r}{origin}")
    return f"call {tool}({', '.join(parts)})"


def derive_milestones(chain: Chain, trace: Trace) -> list[Milestone]:
    graph = chain.graph()
    milestones = []
    for step in trace.steps:
        call = chain.calls[step.call]
        expected = {
            name: Expected(value=step.arguments[name], source=arg.ref if isinstance(arg, Ref) else None)
            for name, arg in call.arguments.items()
        }
        after = sorted(set(graph.predecessors(step.call)) | set(call.after))
        milestones.append(
            Milestone(
                index=step.call,
                kind="call",
                tool=call.tool,
                arguments=expected,
                after=after,
                description=_describe(call.tool, expected),
            )
        )
    answer_text = ", ".join(f"{k}={v!r}" for k, v in trace.answer.items())
    milestones.append(
        Milestone(
            index=len(milestones),
            kind="answer",
            answer=dict(trace.answer),
            after=chain.sinks(),
            description=f"final answer: {answer_text}" if answer_text else "final answer: report that the task is done",
        )
    )
    return milestones


def withheld_tool_minefields(chain: Chain, trace: Trace, withheld: str) -> list[Minefield]:
    """Minefields for an instance whose tool `withheld` is not available: calling it (a
    hallucinated tool) or calling a consumer of its outputs with an invented value."""
    mines = [Minefield(tool=withheld, reason=f"{withheld} is not among the available tools")]
    producers = chain.producers()
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
                    reason=f"{', '.join(invented)} can only come from {withheld}, which is unavailable: any value is invented",
                )
            )
    return mines
