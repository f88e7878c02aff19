"""Tools and a chain as a JSON object under a schema, for endpoints that constrain an answer to
one (OpenAI `response_format` json_schema, vLLM guided decoding, llama.cpp grammars): the
schema makes a chain of the requested shape the only thing a model can write. There is one
object per call (`call_1`, `call_2`, ...), each with its tool (typed parameters and returned
values), its literal arguments, one `value_from_call_<i>` per earlier call it takes a value
from (exactly the shape's edges), and the values it returns; then tools the task does not use.

`read_structured` turns the answer into the same WrittenChain as the code format
(factory.chains.stubs), so everything after it is shared; what the schema cannot say (a
parameter the tool does not declare, a value of another type, an output the earlier call does
not return) is a StubError naming it, for the writer's repair pass.
"""

from __future__ import annotations

import json
import re
from typing import Any

from factory.chains.code import render_chain
from factory.chains.stubs import StubError, WrittenChain, main_source, stub_source
from factory.records import (
    Call,
    Chain,
    Output,
    Param,
    Ref,
    ToolSpec,
    Value,
    parse_shape,
    type_accepts,
    value_matches_type,
)

TYPES = ["str", "int", "float", "bool", "list[str]", "list[int]", "list[float]"]
# No string lengths: a bounded repetition makes a grammar (llama.cpp) so large that sampling
# ran at 0.9 tokens/s, a quarter of the unconstrained speed; max_tokens bounds a runaway text.
_NAME = {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"}
_TEXT = {"type": "string"}
_SCALAR = [{"type": "string"}, {"type": "number"}, {"type": "boolean"}]
VALUE = {"anyOf": [*_SCALAR, {"type": "array", "items": {"anyOf": _SCALAR[:2]}, "maxItems": 6}]}


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def _typed(most: int) -> dict[str, Any]:
    return {"type": "array", "items": _object({"name": _NAME, "type": {"enum": TYPES}, "description": _TEXT}),
            "minItems": 1, "maxItems": most}


TOOL = _object({"name": _NAME, "description": _TEXT, "parameters": _typed(4), "returns": _typed(3)})


def chain_schema(shape: str) -> dict[str, Any]:
    """The JSON schema of an answer with exactly the calls and dependencies of `shape`."""
    n, edges = parse_shape(shape)
    properties: dict[str, Any] = {"request": {"type": "string"}}
    for j in range(n):
        takes = sorted(i for i, jj in edges if jj == j)
        # a call that takes nothing from another starts from what the user says: a literal at least
        call: dict[str, Any] = {"tool": TOOL,
                                "arguments": {"type": "array", "items": _object({"parameter": _NAME, "value": VALUE}),
                                              "minItems": 0 if takes else 1, "maxItems": 4}}
        for i in takes:
            call[f"value_from_call_{i + 1}"] = _object({"parameter": _NAME, "output": _NAME})
        call["returns"] = {"type": "array", "items": VALUE, "minItems": 1, "maxItems": 3}
        properties[f"call_{j + 1}"] = _object(call)
    properties["other_tools"] = {"type": "array", "items": TOOL, "minItems": 2, "maxItems": 3}
    return _object(properties)


def response_format(shape: str) -> dict[str, Any]:
    """The OpenAI `response_format` asking for `chain_schema(shape)` (the client sends it in
    the form its endpoint takes: factory.lm.dspy_bridge.wire_response_format)."""
    return {"type": "json_schema", "json_schema": {"name": "tools_and_chain", "schema": chain_schema(shape)}}


def _spec(tool: Any, where: str) -> ToolSpec:
    if not isinstance(tool, dict) or not tool.get("name"):
        raise StubError(f"{where} has no tool with a name")
    params = [Param(name=str(p.get("name")), type=_type(p.get("type"), f"{where} parameter {p.get('name')!r}"),
                    description=str(p.get("description") or p.get("name"))) for p in tool.get("parameters") or []]
    returns = [Output(name=str(o.get("name")), type=_type(o.get("type"), f"{where} return {o.get('name')!r}"),
                      description=str(o.get("description") or o.get("name"))) for o in tool.get("returns") or []]
    if not returns:
        raise StubError(f"{where}: tool {tool['name']!r} declares no returned value")
    return ToolSpec(name=str(tool["name"]), description=" ".join(str(tool.get("description") or "").split()) or
                    str(tool["name"]).replace("_", " "), parameters=params, returns=returns)


def _type(value: Any, where: str) -> str:
    if value not in TYPES:
        raise StubError(f"{where} has an unsupported type {value!r} (use one of {', '.join(TYPES)})")
    return str(value)


def json_object(text: str) -> dict[str, Any] | None:
    """The JSON object in an answer (fenced or in prose too), None when there is none."""
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        data = json.loads(text[start:end + 1])
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _calls(data: dict[str, Any]) -> list[dict[str, Any]]:
    keys = sorted((int(m.group(1)), k) for k in data if (m := re.fullmatch(r"call_(\d+)", k)))
    if not keys:
        raise StubError("the answer has no call_1")
    return [data[k] if isinstance(data[k], dict) else {} for _, k in keys]


def _call(j: int, raw: dict[str, Any], spec: ToolSpec, outputs: list[list[str]], specs: list[ToolSpec]) -> Call:
    """Call j (0-based) from its JSON, checked against its tool; outputs[i] are call i's variables."""
    where = f"call_{j + 1} ({spec.name})"
    declared = {p.name: p for p in spec.parameters}
    arguments: dict[str, Any] = {}
    for item in raw.get("arguments") or []:
        name, value = str(item.get("parameter")), item.get("value")
        if name not in declared:
            raise StubError(f"{where} gives {name!r}, which its tool does not declare (it takes {', '.join(declared)})")
        value = _as_type(value, declared[name].type)
        if not value_matches_type(value, declared[name].type):
            raise StubError(f"{where} gives {name}={value!r}, which is not of type {declared[name].type}")
        arguments[name] = Value(value=value)
    for key, link in raw.items():
        m = re.fullmatch(r"value_from_call_(\d+)", key)
        if not m or not isinstance(link, dict):
            continue
        i, name, output = int(m.group(1)) - 1, str(link.get("parameter")), str(link.get("output"))
        earlier = specs[i]
        names = [o.name for o in earlier.returns]
        if name not in declared and output in declared and name in names:
            name, output = output, name  # the two names the other way round: the meaning is clear
        index = names.index(output) if output in names else -1
        if index < 0 and len(names) == 1 and name in declared and type_accepts(declared[name].type, earlier.returns[0].type):
            index = 0  # the one value the earlier tool returns, under another name
        if index < 0:
            raise StubError(f"{where} takes {output!r} from call_{i + 1}, whose tool returns {', '.join(names)}"
                            f"{_choices(earlier, spec)}")
        if name not in declared:
            raise StubError(f"{where} takes call_{i + 1}'s {output!r} as {name!r}, which its tool does not declare"
                            f"{_choices(earlier, spec)}")
        if not type_accepts(declared[name].type, earlier.returns[index].type):
            raise StubError(f"{where} takes call_{i + 1}'s {output!r} ({earlier.returns[index].type}) as {name!r}, "
                            f"a {declared[name].type}{_choices(earlier, spec)}")
        arguments[name] = Ref(ref=outputs[i][index])
    return Call(tool=spec.name, arguments=arguments, outputs=outputs[j])


def _as_type(value: Any, type_: str) -> Any:
    """A number or truth value written as text ("18.0" for a float, "3" for an int, "true"),
    read as the declared type: the JSON says the same thing, quoted (a small model's habit)."""
    if isinstance(value, list) and type_.startswith("list["):
        return [_as_type(item, type_[5:-1]) for item in value]
    if not isinstance(value, str):
        return value
    text = value.strip().replace(",", "")
    if type_ == "bool" and text.lower() in ("true", "false"):
        return text.lower() == "true"
    if type_ == "float" and re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)", text):
        return float(text)
    if type_ == "int" and re.fullmatch(r"[+-]?\d+", text):
        return int(text)
    return value


def _choices(earlier: ToolSpec, spec: ToolSpec) -> str:
    """What a link can join, in words a model can act on in its repair."""
    def typed(items: list[Any]) -> str:
        return ", ".join(f"{item.name} ({item.type})" for item in items) or "nothing"

    return (f" (the values {earlier.name} returns: {typed(earlier.returns)}; the parameters {spec.name} takes: "
            f"{typed(spec.parameters)})")


def read_structured(text: str) -> WrittenChain:
    """Tools and chain from an answer under `chain_schema`; raises StubError with the reason."""
    data = json_object(text)
    if data is None:
        raise StubError("the answer is not one JSON object; it may be truncated")
    raws = _calls(data)
    specs = [_spec(raw.get("tool"), f"call_{j + 1}") for j, raw in enumerate(raws)]
    tools: dict[str, ToolSpec] = {}
    for spec in specs:
        tools.setdefault(spec.name, spec)  # a tool called twice keeps its first description
    specs = [tools[s.name] for s in specs]
    outputs, k = [], 0
    for spec in specs:
        outputs.append([f"data{k + m}" for m in range(len(spec.returns))])
        k += len(spec.returns)
    calls = [_call(j, raw, spec, outputs, specs) for j, (raw, spec) in enumerate(zip(raws, specs, strict=True))]
    for call, spec in zip(calls, specs, strict=True):
        given = set(call.arguments)
        tools[spec.name] = tools[spec.name].model_copy(update={"parameters": [
            p if p.name in given else p.model_copy(update={"required": False}) for p in tools[spec.name].parameters]})
    others = {}
    for j, tool in enumerate(data.get("other_tools") or []):
        try:
            spec = _spec(tool, f"other tool {j + 1}")
        except StubError:
            continue  # a tool the task does not use is only a distractor candidate
        if spec.name not in tools:
            others[spec.name] = spec
    chain = Chain(calls=calls)
    returns = [[_as_type(v, o.type) for v, o in zip(raw["returns"], spec.returns, strict=False)] + raw["returns"][len(spec.returns):]
               if isinstance(raw.get("returns"), list) else None for raw, spec in zip(raws, specs, strict=True)]
    task = " ".join(str(data.get("request") or "").split())
    return WrittenChain(tools, chain, task, written_code(tools, others, chain, task, returns), returns, others)


def written_code(tools: dict[str, ToolSpec], others: dict[str, ToolSpec], chain: Chain, task: str,
                 returns: list[list[Any] | None]) -> str:
    """The chain as the code format writes it, for the run's record."""
    stubs = "\n\n\n".join(stub_source(s) for s in (*tools.values(), *others.values()))
    return f"{stubs}\n\n\n{main_source(task, render_chain(chain), [r or [] for r in returns])}"


def demo_answer(chain: Chain, specs: dict[str, ToolSpec], extra: list[ToolSpec], task: str,
                returns: list[list[Any]]) -> str:
    """A worked example in the structured form: a seed example's chain, tools and results."""
    def tool(spec: ToolSpec, passed: set[str] | None = None) -> dict[str, Any]:
        params = [p for p in spec.parameters if (p.name in passed if passed is not None else p.required)]
        return {"name": spec.name, "description": spec.description,
                "parameters": [{"name": p.name, "type": _demo_type(p.type), "description": p.description}
                               for p in params],
                "returns": [{"name": o.name, "type": _demo_type(o.type), "description": o.description}
                            for o in spec.returns]}

    producer = {out: (i, specs[c.tool].returns[m].name) for i, c in enumerate(chain.calls) for m, out in enumerate(c.outputs)}
    answer: dict[str, Any] = {"request": task}
    for j, call in enumerate(chain.calls):
        body: dict[str, Any] = {"tool": tool(specs[call.tool], set(call.arguments)),
                                "arguments": [{"parameter": k, "value": a.value} for k, a in call.arguments.items()
                                              if isinstance(a, Value)]}
        for k, a in call.arguments.items():
            if isinstance(a, Ref):
                i, output = producer[a.ref]
                body[f"value_from_call_{i + 1}"] = {"parameter": k, "output": output}
        body["returns"] = returns[j]
        answer[f"call_{j + 1}"] = body
    answer["other_tools"] = [tool(s) for s in extra]
    return json.dumps(answer, ensure_ascii=False)


def _demo_type(type_: str) -> str:
    return type_ if type_ in TYPES else ("list[str]" if type_.startswith("list") else "str")
