"""Tools and a chain as JSON under schemas, for endpoints that constrain an answer to one (OpenAI
`response_format` json_schema, vLLM guided decoding, llama.cpp grammars), in two steps a weak
model can each get right. First the tool of each call of the shape (`tools_schema`); a link of
the shape that no returned value of the earlier tool can fill goes back with what each side
offers. Then the request and the calls over those very tools (`calls_schema`): each literal
argument is one of its tool's parameters, of its type; each link joins a parameter and a
returned value of types that fit (of the same name where the tools have one); each call's
returned values are named and typed as its tool declares them. So a chain of the requested
shape over the written tools is the only thing a model can write.

The two answers join into one object (`joined`: one `call_<j>` per call with its tool, its
literal arguments, one `value_from_call_<i>` per earlier call it takes a value from, and the
values it returns; then tools the task does not use), which `read_structured` turns into
the same WrittenChain as the code format (factory.chains.stubs), so everything after it is
shared; what is left to rule out (a value given in words for a number) is a StubError naming
it, for the writer's repair pass.
"""

from __future__ import annotations

import copy
import itertools
import json
import re
from typing import Any

from factory.chains.code import render_chain
from factory.chains.stubs import StubError, WrittenChain, main_source, stub_source
from factory.checks.faithfulness import stems
from factory.lm.signatures import json_type
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


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def _typed(least: int, most: int) -> dict[str, Any]:
    return {"type": "array", "items": _object({"name": _NAME, "type": {"enum": TYPES}, "description": _TEXT}),
            "minItems": least, "maxItems": most}


# as many parameters and returned values as the seed tools have (a clock takes none)
TOOL = _object({"name": _NAME, "description": _TEXT, "parameters": _typed(0, 5), "returns": _typed(1, 5)})
OTHER_TOOLS = {"type": "array", "items": TOOL, "minItems": 2, "maxItems": 3}
PASSED = _object({"name": _NAME, "type": {"enum": TYPES}, "description": _TEXT})
# A value named as an action ("find_substrate", "get_temperature": the real 1.5B model's) is no value.
_ACTION_NAME = re.compile(r"(?:get|find|locate|search|identify|measure|calculate|compute|check|list|look_?up|fetch|detect"
                     r"|analy[sz]e|predict|estimate|determine|track|monitor)_")


def tools_schema(shape: str) -> dict[str, Any]:
    """Step one: first, for each link of `shape`, what the one call finds for the other
    (`call_<i>_finds_for_call_<j>`: a name, a type and a description, which become a returned
    value of the one tool and a parameter of the other, so no link is left without a value to
    pass; asked before the tools, as a plan: after them, a small model named the input the two
    tools shared); then the tool of each call, and tools the task does not use."""
    n, edges = parse_shape(shape)
    properties: dict[str, Any] = {passed_key(i, j): PASSED for i, j in sorted(edges)}
    properties.update({f"tool_of_call_{i + 1}": TOOL for i in range(n)})
    return _object({**properties, "other_tools": OTHER_TOOLS})


def passed_key(i: int, j: int) -> str:
    """The tools step's key for the value call i finds for call j (0-based)."""
    return f"call_{i + 1}_finds_for_call_{j + 1}"


def calls_schema(shape: str, tools: list[ToolSpec]) -> dict[str, Any]:
    """Step two: the request, and the calls of `shape` over `tools` (the tool of each call): a
    value of its type for each parameter no earlier call can fill (and for those one can, where
    another is passed), each link one of the pairs `links` offers, each returned value named and
    typed as the tool declares."""
    n, edges = parse_shape(shape)
    properties: dict[str, Any] = {"request": _TEXT}
    for j, tool in enumerate(tools):
        takes = _takes(edges, j)
        pairs = [links(tools[i], tool) for i in takes]
        linkable = {param for offered in pairs for param, _ in offered}
        linked = {offered[0][0] for offered in pairs if len(offered) == 1}  # the one way a link can go
        # every parameter no earlier call can fill is the request's to give: a literal of its type
        arguments = {**_object({p.name: _value(p.type) for p in tool.parameters if p.name not in linked}),
                     "required": [p.name for p in tool.parameters if p.name not in linkable]}
        call: dict[str, Any] = {"arguments": arguments}
        for i, offered in zip(takes, pairs, strict=True):
            call[f"value_from_call_{i + 1}"] = {"anyOf": [
                _object({"parameter": {"const": param}, "output": {"const": output}}) for param, output in offered]}
        call["returns"] = _object({o.name: _value(o.type) for o in tool.returns})
        properties[f"call_{j + 1}"] = _object(call)
    return _object(properties)


def _takes(edges: list[tuple[int, int]], j: int) -> list[int]:
    """The calls call j takes a value from (0-based)."""
    return sorted(i for i, jj in edges if jj == j)


def schema_format(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    """The OpenAI `response_format` asking for `schema` (the client sends it in the form its
    endpoint takes: factory.lm.dspy_bridge.wire_response_format)."""
    return {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}


def _value(type_: str) -> dict[str, Any]:
    typed = json_type(type_)
    return {**typed, "maxItems": 6} if typed.get("type") == "array" else typed


def links(earlier: ToolSpec, later: ToolSpec) -> list[tuple[str, str]]:
    """The (parameter, returned value) pairs by which `later` can take a value `earlier`
    returns: those of one name where there are any (a station's id to the readings' station_id,
    never its name), else those whose types fit; never a value `earlier` was given under that
    name (a sample's id handed back is the user's, passed on: no nesting)."""
    given = {p.name for p in earlier.parameters}
    fitting = [(p.name, o.name) for p in later.parameters for o in earlier.returns
               if type_accepts(p.type, o.type) and o.name not in given]
    return [(p, o) for p, o in fitting if p == o] or fitting


_PLAIN_NAME_WORDS = stems("name value data info information result type list number")


def _name_words(text: str) -> set[str]:
    """The words of a name or a description that say which value it is."""
    return stems(text) - _PLAIN_NAME_WORDS


# Where the noun phrase that opens a description ends ("the scientific name | of the organism").
_HEAD = re.compile(r"\s(?:of|in|at|for|from|to|by|with|on|per|as|that|which)\s|[,;:(]")


def described_as(param: Param, taken: str, returned: list[str]) -> str:
    """Another of the `returned` values (by name) that the noun phrase opening the description
    of `param` names, where it does not name the value `taken` ("annual taxable income in that
    country's currency" names no currency): a species_name described as "the scientific name of the
    marine organism" that takes species_name beside a returned scientific_name; "" if none."""
    said = _name_words(_HEAD.split(param.description, maxsplit=1)[0])
    if not _name_words(taken) or _name_words(taken) <= said:
        return ""
    return next((name for name in returned if name != taken and _name_words(name) and _name_words(name) <= said), "")


def described_alike(spec: ToolSpec) -> str:
    """Two values a tool returns whose descriptions open alike ("the suggested food type" for both
    dish_type and food_type, a real 1.5B model's: a request for the type of dish could mean
    either, and the gold took the other); "" if none."""
    heads: dict[frozenset[str], str] = {}
    for out in spec.returns:
        head = frozenset(re.findall(r"[a-z0-9]+", _HEAD.split(out.description, maxsplit=1)[0].lower())) - {"the", "a", "an"}
        if head and head in heads:
            return (f"{spec.name} describes {heads[head]!r} and {out.name!r} alike ({out.description!r}): describe "
                    f"each value it returns as what it is")
        heads.setdefault(head, out.name)
    return ""


def read_tools(text: str, shape: str) -> tuple[list[ToolSpec], list[dict[str, Any]], list[Any]]:
    """(the tool of each call, their JSON, the other tools' JSON) from an answer under
    `tools_schema`, each value a call finds for a later one added to the returned values of the
    one and the parameters of the other; raises StubError with the reason, such as a link of
    the shape that no value the earlier tool returns can fill (with what each side offers)."""
    data = json_object(text)
    if data is None:
        raise StubError(_not_json(text))
    n, edges = parse_shape(shape)
    raws = [copy.deepcopy(data.get(f"tool_of_call_{j + 1}")) for j in range(n)]
    parsed = [_spec(raw, f"tool_of_call_{j + 1}") for j, raw in enumerate(raws)]
    names = [spec.name for spec in parsed]
    first = [names.index(name) for name in names]  # a tool written twice keeps its first writing
    raws, written = [raws[k] for k in first], [parsed[k] for k in first]
    for i, j in edges:
        passed = data.get(passed_key(i, j))
        if any(p == o for p, o in links(written[i], written[j])) or not isinstance(passed, dict) \
                or not passed.get("name") or passed.get("type") not in TYPES:
            continue  # the tools pass a value under one name already (what the entry says is not needed)
        if passed["name"] in {p.name for p in written[i].parameters} | set(names) or _ACTION_NAME.match(passed["name"]):
            raise StubError(f"{passed_key(i, j)} is {passed['name']!r}, which is call_{i + 1}'s input, a tool's "
                            f"name or an action: name a value call_{i + 1}'s tool finds (an id, a name, a date or an "
                            f"amount) that call_{j + 1}'s tool needs{_akin(written[i], written[j])}"
                            f"{_choices(written[i], written[j])}")
        _with(raws[i], "returns", passed)
        _with(raws[j], "parameters", passed)
    specs = [_spec(raw, f"tool_of_call_{j + 1}") for j, raw in enumerate(raws)]
    for j, spec in enumerate(specs):
        for kind, items in (("parameters", spec.parameters), ("returns", spec.returns)):
            listed = [item.name for item in items]
            if len(set(listed)) < len(listed):
                raise StubError(f"tool_of_call_{j + 1} ({spec.name}) names two of its {kind} alike: {', '.join(listed)}")
        if alike := described_alike(spec):
            raise StubError(f"tool_of_call_{j + 1}: {alike}")
    for i, j in edges:
        for param, output in links(specs[i], specs[j]):
            meant = described_as(specs[j].param(param), output, [o.name for o in specs[i].returns]) \
                if param == output else ""  # a link by one name is the one the calls step can make
            if meant:
                raise StubError(f"call_{j + 1}'s tool describes {param!r} as {specs[j].param(param).description!r}, "
                                f"which is what call_{i + 1}'s tool returns as {meant!r}, not as {output!r}: describe "
                                f"each value as what it is")
        if not links(specs[i], specs[j]):
            raise StubError(f"call_{j + 1}'s tool takes no value that call_{i + 1}'s tool returns, as the shape "
                            f"asks{_choices(specs[i], specs[j])}")
    for j in range(n):
        takes = _takes(edges, j)
        options = [{param for param, _ in links(specs[i], specs[j])} for i in takes]
        if len(takes) > 1 and not any(len(set(pick)) == len(pick) for pick in itertools.product(*options)):
            raise StubError(f"call_{j + 1}'s tool takes values from calls {', '.join(f'call_{i + 1}' for i in takes)} "
                            f"but has no parameter for each: {', '.join(sorted(set().union(*options)))} for all of "
                            f"them; give it one parameter per value it takes")
    others = data.get("other_tools") if isinstance(data.get("other_tools"), list) else []
    return specs, raws, others


def _not_json(text: str) -> str:
    if "def main" in text:
        return ("the answer is code, not the JSON object asked for: an endpoint that ignores the schema is asked "
                "for code with --structured-output off")
    return "the answer is not one JSON object; it may be truncated"


def _with(tool: dict[str, Any], key: str, value: dict[str, Any]) -> None:
    """`value` among a tool's parameters or returned values, unless it names one already."""
    items = tool.get(key) if isinstance(tool.get(key), list) else []
    if value["name"] not in {item.get("name") for item in items if isinstance(item, dict)}:
        tool[key] = [*items, dict(value)]


def joined(shape: str, tools: list[dict[str, Any]], others: list[Any], text: str) -> str:
    """The two steps as one answer: `tools` the JSON of each call's tool,
    `text` the answer under `calls_schema`; raises StubError when that is not a JSON object."""
    data = json_object(text)
    if data is None:
        raise StubError(_not_json(text))
    answer: dict[str, Any] = {"request": data.get("request")}
    for j, tool in enumerate(tools):
        call = data.get(f"call_{j + 1}") if isinstance(data.get(f"call_{j + 1}"), dict) else {}
        returned = call.get("returns") if isinstance(call.get("returns"), dict) else {}
        given = call.get("arguments") if isinstance(call.get("arguments"), dict) else {}
        linked = [link.get("parameter") for key, link in call.items()
                  if key.startswith("value_from_call_") and isinstance(link, dict)]
        declared = [p.get("name") for p in tool.get("parameters") or []]
        missing = [name for name in declared if name not in given and name not in linked]
        twice = [name for name in linked if name in given or linked.count(name) > 1]
        if missing or twice:
            raise StubError(f"call_{j + 1} ({tool.get('name')}) " + (
                f"gives no value for {', '.join(missing)}: give each parameter its tool declares, as a value the "
                f"request states or from an earlier call" if missing else
                f"gives {twice[0]} twice: each parameter takes one value, stated or from one earlier call"))
        answer[f"call_{j + 1}"] = {**call, "tool": tool,
                                   "arguments": [{"parameter": k, "value": v} for k, v in given.items()],
                                   "returns": [returned.get(o.get("name")) for o in tool.get("returns") or []]}
    answer["other_tools"] = others
    return json.dumps(answer, ensure_ascii=False)


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


def _akin(earlier: ToolSpec, spec: ToolSpec) -> str:
    """A returned value and a parameter of one type that share a word of what they are (a real
    1.5B model's genus_name and genus_id), said as the one link they may be: a small model told
    only the rule named its own input again after its repair (3 of 12 Marine Biology attempts)."""
    for out in earlier.returns:
        for param in spec.parameters:
            if out.type == param.type and out.name != param.name and _name_words(out.name) & _name_words(param.name):
                return (f"; if {earlier.name}'s {out.name} is the {param.name} that {spec.name} takes, give both "
                        f"one name and describe it as what it is")
    return ""


def _choices(earlier: ToolSpec, spec: ToolSpec) -> str:
    """What a link can join, in words a model can act on in its repair."""
    def typed(items: list[Any]) -> str:
        return ", ".join(f"{item.name} ({item.type})" for item in items) or "nothing"

    return (f" (the values {earlier.name} returns: {typed(earlier.returns)}; the parameters {spec.name} takes: "
            f"{typed(spec.parameters)})")


def read_structured(text: str) -> WrittenChain:
    """Tools and chain from the two steps' answers `joined`; raises StubError with the reason."""
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


def demo_steps(chain: Chain, specs: dict[str, ToolSpec], extra: list[ToolSpec], task: str,
               returns: list[list[Any]]) -> tuple[str, str] | None:
    """A worked example of the two steps: a seed example's tools (under `tools_schema`), then
    its request, calls and results (under `calls_schema`); None for a chain the schemas cannot
    say (two values of one call passed to another, a value passed under another name)."""
    def tool(spec: ToolSpec, passed: set[str] | None = None) -> dict[str, Any]:
        params = [p for p in spec.parameters if (p.name in passed if passed is not None else p.required)]
        return {"name": spec.name, "description": spec.description,
                "parameters": [{"name": p.name, "type": _demo_type(p.type), "description": p.description}
                               for p in params],
                "returns": [{"name": o.name, "type": _demo_type(o.type), "description": o.description}
                            for o in spec.returns]}

    producer = {out: (i, specs[c.tool].returns[m]) for i, c in enumerate(chain.calls) for m, out in enumerate(c.outputs)}
    passed: dict[tuple[int, int], dict[str, Any]] = {}
    calls: dict[str, Any] = {"request": task}
    for j, call in enumerate(chain.calls):
        body: dict[str, Any] = {"arguments": {k: a.value for k, a in call.arguments.items() if isinstance(a, Value)}}
        for k, a in call.arguments.items():
            if isinstance(a, Ref):
                i, output = producer[a.ref]
                if (i, j) in passed or k != output.name:
                    return None
                passed[i, j] = {"name": k, "type": _demo_type(output.type), "description": output.description}
                body[f"value_from_call_{i + 1}"] = {"parameter": k, "output": k}
        body["returns"] = {o.name: v for o, v in zip(specs[call.tool].returns, returns[j], strict=False)}
        calls[f"call_{j + 1}"] = body
    tools: dict[str, Any] = {passed_key(i, j): value for (i, j), value in sorted(passed.items())}
    for i, call in enumerate(chain.calls):
        tools[f"tool_of_call_{i + 1}"] = tool(specs[call.tool], set(call.arguments))
    tools["other_tools"] = [tool(s) for s in extra]
    return json.dumps(tools, ensure_ascii=False), json.dumps(calls, ensure_ascii=False)


def _demo_type(type_: str) -> str:
    return type_ if type_ in TYPES else ("list[str]" if type_.startswith("list") else "str")
