"""Structural checks: format (record and chain code), signature, data flow and the answer it gives."""

from __future__ import annotations

import re

from factory.chains.code import ChainParseError, parse_chain, render_chain
from factory.checks.context import CheckContext
from factory.instances.milestones import blocked_calls
from factory.records import TYPES, CheckResult, Instance, Ref, type_accepts, value_matches_type
from factory.world.simulator import answered

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _result(name: str, problems: list[str], ctx: CheckContext) -> CheckResult:
    blocking = ctx.policy.checks[name].blocking
    return CheckResult(name=name, passed=not problems, blocking=blocking, reason="; ".join(problems[:5]))


def check_format(instance: Instance, ctx: CheckContext) -> CheckResult:
    """Well-formed record: query, tool specs, chain code that parses back, derived fields."""
    problems = []
    limit = ctx.policy.checks["format"].get("max_query_chars")
    if not instance.query.strip():
        problems.append("query is empty")
    elif len(instance.query) > limit:
        problems.append(f"query has {len(instance.query)} characters (max {limit})")
    names = [t.name for t in instance.tools]
    if len(set(names)) != len(names):
        problems.append("tool names are not unique")
    for tool in instance.tools:
        if not _IDENTIFIER.match(tool.name):
            problems.append(f"tool name {tool.name!r} is not an identifier")
        for item in (*tool.parameters, *tool.returns):
            if item.type not in TYPES:
                problems.append(f"{tool.name}.{item.name} has unknown type {item.type!r}")
    offered = set(names) | {t.name for t in instance.withheld_tools}
    missing = [t for t in instance.gold_tools if t not in offered]
    if missing:
        problems.append(f"gold tools {missing} are neither offered nor withheld")
    if not instance.chain.calls:
        problems.append("chain has no calls")
    else:
        try:
            # The code form carries the data flow; state annotations (after, fixes) are not code.
            flow = [(c.tool, c.arguments, c.outputs) for c in instance.chain.calls]
            if [(c.tool, c.arguments, c.outputs) for c in parse_chain(render_chain(instance.chain)).calls] != flow:
                problems.append("chain does not round-trip through its code form")
        except ChainParseError as exc:
            problems.append(f"chain code does not parse: {exc}")
        if instance.depth != instance.chain.depth() or instance.shape != instance.chain.shape():
            problems.append("depth/shape fields disagree with the chain")
    if instance.id and instance.id != instance.content_id():
        problems.append("id is not the content hash of the instance")
    return _result("format", problems, ctx)


def check_signature(instance: Instance, ctx: CheckContext) -> CheckResult:
    """Every call fits its tool's signature; references point to earlier outputs of a fitting type."""
    problems = []
    specs = {t.name: t for t in (*instance.tools, *instance.withheld_tools)}
    out_types: dict[str, str] = {}
    for index, call in enumerate(instance.chain.calls):
        spec = specs.get(call.tool)
        where = f"call {index + 1} ({call.tool})"
        if spec is None:
            problems.append(f"{where}: tool does not exist")
            continue
        declared = {p.name: p for p in spec.parameters}
        for name in call.arguments:
            if name not in declared:
                problems.append(f"{where}: unknown argument {name!r}")
        for p in spec.parameters:
            arg = call.arguments.get(p.name)
            if arg is None:
                if p.required:
                    problems.append(f"{where}: required argument {p.name!r} missing")
            elif isinstance(arg, Ref):
                produced = out_types.get(arg.ref)
                if produced is None:
                    problems.append(f"{where}: {p.name} refers to {arg.ref!r}, not an earlier output")
                elif not type_accepts(p.type, produced):
                    problems.append(f"{where}: {p.name} expects {p.type}, {arg.ref} is {produced}")
            elif not value_matches_type(arg.value, p.type) or (p.enum and arg.value not in p.enum):
                problems.append(f"{where}: {p.name}={arg.value!r} does not match declared type {p.type}")
        if len(call.outputs) != len(spec.returns):
            problems.append(f"{where}: binds {len(call.outputs)} outputs, tool returns {len(spec.returns)}")
        out_types.update({var: out.type for var, out in zip(call.outputs, spec.returns, strict=False)})
    return _result("signature", problems, ctx)


def check_dataflow(instance: Instance, ctx: CheckContext) -> CheckResult:
    """The chain is a DAG in call order: every output bound once, used only after it is bound."""
    problems = []
    bound: set[str] = set()
    for index, call in enumerate(instance.chain.calls):
        for arg in call.arguments.values():
            if isinstance(arg, Ref) and arg.ref not in bound:
                problems.append(f"call {index + 1} uses {arg.ref!r} before it is bound")
        for var in call.outputs:
            if var in bound:
                problems.append(f"call {index + 1} rebinds {var!r}")
            bound.add(var)
        if any(not 0 <= a < index for a in call.after):
            problems.append(f"call {index + 1} waits for a call that does not precede it")
    if not problems and instance.trace.ok:
        problems += _answer_problems(instance)
    return _result("dataflow", problems, ctx)


def _answer_problems(instance: Instance) -> list[str]:
    """The gold answer is every value the request asks for and nothing else: the outputs of the
    asked calls, intermediate or last, but for what a call only hands back of its arguments. The answer milestone reports them all, or, when a tool
    is withheld, those of the asked calls that can still be made."""
    chain, answer = instance.chain, instance.trace.answer
    asked = [i for i in chain.asked() if chain.calls[i].fixes is None]
    problems = []
    if len(asked) != len(chain.asked()):
        problems.append("a fix-up call is marked as asked for")
    specs = {t.name: t for t in (*instance.tools, *instance.withheld_tools)}
    if set(answer) != set(answered(chain, specs, instance.trace.steps)):
        problems.append("the answer is not the outputs of the calls the request asks for (echoes aside)")
    blocked = set().union(*(blocked_calls(chain, t.name) for t in instance.withheld_tools))
    reported = {v: answer[v] for i in asked if i not in blocked for v in chain.calls[i].outputs if v in answer}
    answers = [m for m in instance.milestones if m.kind == "answer"]  # one per user turn in a conversation
    stated = {k: v for m in answers for k, v in m.answer.items()}
    if answers and stated != reported:
        problems.append("the answer milestone does not report every asked value that can be had")
    return problems
