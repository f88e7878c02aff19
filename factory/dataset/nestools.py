"""The NesTools format at the edges: an Instance as a row of NesTools' test_data.jsonl, and back.

A stock NesTools scorer reads only the request, the tools and the gold calls: an item is fair
to it only if the whole gold call list follows from the request (`stock_unfair`). The others
are exported beside it, each with the reason (see `factory.dataset.export.write_nestools`).

Inside the project a nested argument is a typed `Ref`; here, and only here, it becomes the
`API_call_N` placeholder NesTools uses, numbered globally over every return value of the
chain in call order. Types lose their item type on the way out (`list[str]` → `list`).

NesTools occasionally passes a list of earlier outputs as one argument
(`"images": ["API_call_0", "API_call_2"]`). A chain cannot say that with a `Ref`, so on import
such an argument becomes the literal list of the values those calls produced in the trace
(`ListArgument` keeps what it was, for the importer's record of the exact gold).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from factory import __version__
from factory.errors import FactoryError
from factory.records import Call, Chain, Instance, Output, Param, Provenance, Ref, ToolSpec, Value, shape_of

PLACEHOLDER = re.compile(r"API_call_(\d+)")
IMPORTED_GENERATOR = "nestools"  # provenance.generator of an instance imported from NesTools


class NesToolsFormatError(FactoryError):
    """A NesTools row that cannot be converted; the message names the test id and the field."""


def nestools_type(type_: str) -> str:
    return "list" if type_.startswith("list") else type_


def placeholder(n: int) -> str:
    return f"API_call_{n}"


def variable(n: int) -> str:
    return f"data{n}"


# --- out: Instance → NesTools ------------------------------------------------------


def spec_to_nestools(spec: ToolSpec) -> dict[str, Any]:
    return {
        "api_name": spec.name,
        "api_description": spec.description,
        "parameters": {p.name: {"type": nestools_type(p.type), "description": p.description} for p in spec.parameters},
        "required": [p.name for p in spec.parameters if p.required],
        "responses": {o.name: {"type": nestools_type(o.type), "description": o.description} for o in spec.returns},
    }


def placeholders(chain: Chain) -> dict[str, str]:
    """Output variable → `API_call_N`, numbered globally in call order."""
    names: dict[str, str] = {}
    for call in chain.calls:
        for var in call.outputs:
            names.setdefault(var, placeholder(len(names)))
    return names


def chain_to_nestools(chain: Chain) -> list[dict[str, Any]]:
    """NesTools' call list of a chain, its arguments as the chain has them (a generated chain
    takes no argument from an echo: `factory.world.simulator.without_echoes`)."""
    names = placeholders(chain)
    return [{"api_name": call.tool,
             "parameters": {k: names[a.ref] if isinstance(a, Ref) else a.value for k, a in call.arguments.items()},
             "responses": [names[v] for v in call.outputs]} for call in chain.calls]


def instance_to_nestools(instance: Instance, test_id: int) -> dict[str, Any]:
    """A row of NesTools' test_data.jsonl: the gold tools' specs, the query, the gold chain.

    Marks beyond NesTools' fields, for consumers that can read them (others ignore them): an
    insufficient-information item lists only its offered gold tools in `api`, the withheld ones
    in `withheld_api`, says `"solvable": false`, and its `call` holds only the calls that can
    still be made without them (each part of the chain the withheld tool does not block), the
    whole gold chain had the tool been offered going in `call_if_offered`; a fix-up call carries
    `"state_dependency": {"fixes": ..., "stated": ...}` (whether the query states the condition;
    if not, the call has no reason in the query and is for an agent to discover)."""
    api, withheld = [], []
    for name in instance.gold_tools:
        spec = instance.tool(name)
        if spec is None:
            raise NesToolsFormatError(f"instance {instance.id}: gold tool {name!r} is neither offered nor withheld")
        (withheld if any(t.name == name for t in instance.withheld_tools) else api).append(spec_to_nestools(spec))
    calls = _calls_of(instance, instance.chain)
    field = f"{instance.domain}/{instance.subdomain}" if instance.subdomain else instance.domain
    if not withheld:
        return {"test_id": test_id, "api": api, "task": instance.query, "call": calls, "field": field}
    from factory.instances.milestones import doable_calls

    # the parts that can still be done, as the milestones count them (not a lookup that only
    # feeds the blocked part: reading 55 #17)
    doable = Chain(calls=[instance.chain.calls[i] for i in doable_calls(instance.chain, [t.name for t in instance.withheld_tools])])
    return {"test_id": test_id, "api": api, "task": instance.query, "call": _calls_of(instance, doable), "field": field,
            "solvable": False, "withheld_api": withheld, "call_if_offered": calls}


def _calls_of(instance: Instance, chain: Chain) -> list[dict[str, Any]]:
    """NesTools' call list of a chain of the instance, a fix-up marked with its condition."""
    calls = chain_to_nestools(chain)
    for call, row in zip(chain.calls, calls, strict=True):
        if call.fixes is not None:
            toolbox = (instance.tool(call.tool) or ToolSpec(name="", description="")).toolbox or ""
            row["state_dependency"] = {"fixes": call.fixes,
                                       "stated": f"{toolbox}:{call.fixes}" in instance.stated_conditions}
    return calls


# Why a stock scorer cannot score an item fairly: the reasons, in the order they are tested.
UNSOLVABLE = "unsolvable"  # a gold tool is withheld: the right answer is to say it cannot be done
UNSTATED_CONDITION = "unstated_condition"  # a fix-up restores a condition the request does not say holds
UNSTATED_VALUE = "unstated_value"  # a gold call needs a literal the request does not state


def stock_unfair(instance: Instance, values: bool = True) -> tuple[str, str] | None:
    """(reason, detail) when a stock NesTools scorer, which reads neither `solvable` nor
    `state_dependency`, would misjudge the item; None when every gold call follows from the
    request and the offered tools, every literal argument stated in it (as the faithfulness
    check reads "stated", free fix-up arguments included; not asked when `values` is False)."""
    if instance.withheld_tools:
        return UNSOLVABLE, "withholds " + ", ".join(t.name for t in instance.withheld_tools)
    fixes = [c for c in instance.chain.calls if c.fixes is not None]
    toolbox_of = {t.name: t.toolbox for t in instance.tools} if fixes else {}
    unstated = [c for c in fixes if f"{toolbox_of.get(c.tool) or ''}:{c.fixes}" not in instance.stated_conditions]
    if unstated:
        return UNSTATED_CONDITION, ("fixes " + ", ".join(f"{c.fixes} ({c.tool})" for c in unstated)
                                    + ": the request does not say the condition holds (at most it allows the fix if"
                                    " needed), so an agent learns it from a failed call, which a stock scorer counts"
                                    " against it")
    if not values:  # (the checks are imported only when asked: scoring an import never needs them, 55 ms)
        return None
    from factory.checks.faithfulness import missing_values

    missing = missing_values(instance.chain, instance.query)
    if missing:
        return UNSTATED_VALUE, "; ".join(missing)
    return None


# --- in: NesTools → Instance -------------------------------------------------------


def spec_from_nestools(api: dict[str, Any]) -> ToolSpec:
    required = set(api.get("required") or [])
    params = [Param(name=k, type=v.get("type", "str"), description=v.get("description", ""), required=k in required)
              for k, v in (api.get("parameters") or {}).items()]
    returns = [Output(name=k, type=v.get("type", "str"), description=v.get("description", ""))
               for k, v in (api.get("responses") or {}).items()]
    return ToolSpec(name=api["api_name"], description=api.get("api_description", ""), parameters=params,
                    returns=returns, toolbox=None)


@dataclass(frozen=True)
class ListArgument:
    """A NesTools argument that lists earlier outputs (and maybe literals) in one value."""

    call: int
    name: str
    items: list[Any]  # `Ref` for a placeholder, anything else literal


def _argument(value: Any, bound: set[str]) -> Any:
    """A `Ref` for a bound placeholder, a list of items for a list naming placeholders, else a `Value`."""
    if isinstance(value, str) and PLACEHOLDER.fullmatch(value):
        if variable(int(value[9:])) not in bound:
            raise NesToolsFormatError(f"{value} is used before any call returns it")
        return Ref(ref=variable(int(value[9:])))
    if isinstance(value, list) and any(isinstance(v, str) and PLACEHOLDER.fullmatch(v) for v in value):
        return [_argument(v, bound) for v in value]
    return Value(value=value)


def chain_from_nestools(calls: list[dict[str, Any]]) -> tuple[Chain, list[ListArgument]]:
    """The typed chain (list arguments left as `Value(None)` to be filled) and the list arguments."""
    bound: set[str] = set()
    out, lists = [], []
    for index, raw in enumerate(calls):
        arguments = {}
        for name, value in (raw.get("parameters") or {}).items():
            arg = _argument(value, bound)
            if isinstance(arg, list):
                lists.append(ListArgument(index, name, [a if isinstance(a, Ref) else a.value for a in arg]))
                arg = Value(value=None)
            arguments[name] = arg
        outputs = []
        for ph in raw.get("responses") or []:
            match = PLACEHOLDER.fullmatch(str(ph))
            if not match:
                raise NesToolsFormatError(f"call {index} ({raw.get('api_name')}): response {ph!r} is not API_call_N")
            outputs.append(variable(int(match.group(1))))
        bound.update(outputs)
        out.append(Call(tool=raw["api_name"], arguments=arguments, outputs=outputs))
    return Chain(calls=out), lists


def _fill_lists(chain: Chain, lists: list[ListArgument], specs: dict[str, ToolSpec], mock_seed: int) -> Chain:
    """Replace each list argument by the values its placeholders take when the chain runs."""
    if not lists:
        return chain
    from factory.world.simulator import Simulator, run_chain

    calls = [c.model_copy(deep=True) for c in chain.calls]
    for item in sorted(lists, key=lambda a: a.call):
        trace = run_chain(Chain(calls=calls[: item.call]), specs, Simulator({}, None, mock_seed=mock_seed))
        values = trace.values()
        calls[item.call].arguments[item.name] = Value(value=[values[a.ref] if isinstance(a, Ref) else a for a in item.items])
    return Chain(calls=calls)


def nesting_depth(n_calls: int, edges: set[tuple[int, int]]) -> int:
    """Longest dependency path in calls; edges point forward, so one pass in call order suffices."""
    depth = [1] * n_calls
    for i, j in sorted(edges, key=lambda e: e[1]):
        depth[j] = max(depth[j], depth[i] + 1)
    return max(depth, default=0)


def nestools_to_instance(row: dict[str, Any], api_ids: list[int], mock_seed: int = 0) -> Instance:
    """An Instance from a NesTools row: mock-executed trace, derived milestones, depth and shape
    (counting the edges of list arguments, as NesTools does).

    `api_ids` are NesTools' numeric ids of the gold tools in `row["api"]` order; they do not
    belong in the instance and are kept by the importer next to the dataset.
    """
    # (imported here: exporting and scoring use this module without running anything)
    from factory.instances.milestones import derive_milestones
    from factory.world.simulator import Simulator, run_chain

    test_id = row.get("test_id", 0)
    try:
        query = str(row["task"])
        specs = {a["api_name"]: spec_from_nestools(a) for a in row["api"]}
        chain, lists = chain_from_nestools(row["call"])
    except NesToolsFormatError as exc:
        raise NesToolsFormatError(f"test_id {test_id}: {exc}") from exc
    except (KeyError, TypeError, AttributeError) as exc:
        raise NesToolsFormatError(f"test_id {test_id}: malformed row: missing or bad {exc}") from exc
    if len(api_ids) != len(specs):
        raise NesToolsFormatError(f"test_id {test_id}: {len(api_ids)} api ids for {len(specs)} tools")
    unknown = sorted({c.tool for c in chain.calls} - set(specs))
    if unknown:
        raise NesToolsFormatError(f"test_id {test_id}: calls name tools not in its api list: {', '.join(unknown)}")
    chain = _fill_lists(chain, lists, specs, mock_seed)
    trace = run_chain(chain, specs, Simulator({}, None, mock_seed=mock_seed))
    failed = next((s for s in trace.steps if s.error), None)
    if failed:
        raise NesToolsFormatError(f"test_id {test_id}: gold call {failed.call} ({failed.tool}) fails: {failed.error}")
    edges = set(chain.graph().edges) | {(chain.producers()[a.ref], item.call) for item in lists
                                          for a in item.items if isinstance(a, Ref)}
    domain, _, subdomain = str(row.get("field", "")).partition("/")
    tasks = "single_tool_call" if len(chain.calls) == 1 else "multiple_tool_call"
    categories = [tasks, "nested"] if edges else [tasks]
    return Instance(
        domain=domain or "Unknown",
        subdomain=subdomain,
        query=query,
        tools=list(specs.values()),
        gold_tools=list(specs),
        chain=chain,
        trace=trace,
        milestones=derive_milestones(chain, trace),
        categories=categories,
        depth=nesting_depth(len(chain.calls), edges),
        shape=shape_of(len(chain.calls), edges),
        world=None,
        provenance=Provenance(generator=IMPORTED_GENERATOR, seed=mock_seed, attempt=int(test_id), factory_version=__version__),
    ).with_id()
