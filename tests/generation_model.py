"""A rule-based model for the generation stages' prompts, answering the way real models do.

It reads which stage is asking from the instructions DSPy sends, and the input fields from
DSPy's `[[ ## field ## ]]` sections, and answers: the chain writer with tool stubs and a
main() of the requested shape (sometimes in DSPy's answer format, sometimes as prose around a
fenced block, now and then with an untyped parameter or cut off); the query writer with a
request that states the values (sometimes dropping one, which the repair pass restores); the
tool simulator with JSON of the declared types, fenced or in prose; the judge with verdicts.
Under the chain writer's schemas (`response_format`) it answers the JSON each step asks for,
now and then with tools a link cannot join, a literal of another type or cut off.
Usable as a FakeLM rule (FakeRequest) and as a fake server responder (a request body).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from typing import Any

from factory.world.mock import mock_value

TOPICS = [("reef", "site"), ("whale", "pod"), ("kelp", "forest"), ("turtle", "nest"), ("plankton", "bloom"),
          ("seagrass", "meadow"), ("dolphin", "group"), ("mangrove", "stand")]
LEADS = ["", "I'm studying this for my project. ", "For a field report: ", "Quick one. ",
         "My supervisor asked me to look into this. ", "Before Monday's meeting: "]
CLOSERS = ["", " Thanks!", " Keep it short, please.", " I need it for a grant application.",
           " A rough answer is fine.", " Please include the figures."]
PLACES = ["Lizard Island", "Monterey Bay", "Ningaloo Reef", "Azores", "Galapagos", "Svalbard", "Red Sea", "Palau",
          "Raja Ampat", "Baja California", "Bay of Fundy", "Great Barrier Reef", "Maldives", "Hawaii", "Tasmania",
          "Sea of Cortez", "Belize Barrier Reef", "Cape Cod", "Faroe Islands", "Lofoten", "Zanzibar", "Fiji",
          "Seychelles", "Moreton Bay"]


def fields(text: str) -> dict[str, str]:
    """DSPy's input sections of the last user message."""
    text = re.split(r"\n\s*Respond with the corresponding output fields", text)[0]
    return {m.group(1): m.group(2).strip() for m in re.finditer(r"\[\[ ## (\w+) ## \]\]\n(.*?)(?=\n\[\[ ## |\Z)", text, re.S)}


def _rng(text: str) -> random.Random:
    return random.Random(hashlib.sha256(text.encode()).hexdigest())


def _preds(shape: str) -> dict[int, list[int]]:
    n = int(re.match(r"(\d+) call", shape).group(1))
    needs = {j: [] for j in range(n)}
    for m in re.finditer(r"call (\d+) takes values that calls? ([\d and]+?) returns?", shape):
        needs[int(m.group(1)) - 1] = [int(x) - 1 for x in re.findall(r"\d+", m.group(2))]
    return needs


def chain_code(domain: str, subdomain: str, shape: str, rng: random.Random, flaw: str = "") -> str:
    needs = _preds(shape)
    topic, unit = rng.choice(TOPICS)
    place = rng.choice(PLACES)
    stubs, lines = [], [f"    # What do we know about the {topic} {unit}s near {place} for my {subdomain.lower()} work?"]
    for j, preds in needs.items():
        params = [f"{unit}_id_{p + 1}: str" for p in preds] or ["region: str", "year: int"]
        docs = {"region": "Region name", "year": "Survey year"}
        args_doc = "\n".join(f"        {p.split(':')[0]}: {docs.get(p.split(':')[0], 'Identifier of a ' + unit)}."
                             for p in params)
        if flaw == "untyped" and j == 0:
            params = [p.split(":")[0] for p in params]
        name = f"{rng.choice(['get', 'find', 'survey', 'count'])}_{topic}_{['census', 'records', 'health', 'range', 'trend'][j]}"
        stubs.append(f'''def {name}({", ".join(params)}) -> tuple[str, float]:
    """Look up {topic} {unit} data ({domain}).

    Args:
{args_doc}

    Returns:
        {unit}_id: Identifier of the {topic} {unit} found.
        score: A measurement of it (0-100).
    """
    ...''')
        call_args = ", ".join([f"{unit}_id_{p + 1}=data{2 * p}" for p in preds]
                              or [f'region="{place}"', f"year={rng.randint(2012, 2024)}"])
        values = [f"{unit.upper()}-{rng.randint(100, 999)}", round(rng.uniform(1, 99), 1)]
        lines.append(f"    data{2 * j}, data{2 * j + 1} = {name}({call_args})  # -> {json.dumps(values)}")
    extra = f'''def list_{topic}_species(region: str) -> list[str]:
    """List the {topic} species recorded in a region.

    Args:
        region: Region name.

    Returns:
        species: Names of the species.
    """
    ...'''
    if _rng(lines[0] + shape).random() < 0.4:  # a request that asks for every step by its own word ("its census, records and health")
        parts = [["census", "records", "health", "range", "trend"][j] for j in needs]
        lines[0] = lines[0].rstrip("?") + f"? Give me its {', '.join(parts[:-1])} and {parts[-1]}." if len(parts) > 1 \
            else lines[0]
    code = "from typing import Literal\n\n\n" + "\n\n\n".join(stubs + [extra]) + "\n\n\ndef main():\n" + "\n".join(lines)
    if flaw == "truncated":
        code = code[: len(code) // 2]
    return code


def structured_tools(shape: str, rng: random.Random, flaw: str = "") -> str:
    """An answer under the tools schema (factory.chains.structured) for `shape` in words: call j
    returns `<unit>_id_<j>` and a score, and declares that id as what it finds for each call
    that takes from it (half the time also listing it among the later tool's parameters); a call
    that takes nothing takes a region and a year. `flaw` "unlinked" declares nothing and lists
    the id as an int (an endpoint that ignored the schema: no link can be made), "cut" stops
    half way."""
    needs = _preds(shape)
    topic, unit = rng.choice(TOPICS)
    listed = flaw == "unlinked" or rng.random() < 0.5
    answer: dict[str, Any] = {}
    for j, preds in needs.items():
        params = [{"name": f"{unit}_id_{i + 1}", "type": "int" if flaw == "unlinked" else "str",
                   "description": f"Identifier of a {unit}."} for i in preds] if listed else []
        answer[f"tool_of_call_{j + 1}"] = {
            "name": f"get_{topic}_{['census', 'records', 'health', 'range', 'trend'][j]}",
            "description": f"Look up {topic} {unit} data.", "parameters": params if preds else [
                {"name": "region", "type": "str", "description": "Region name."},
                {"name": "year", "type": "int", "description": "Survey year."}],
            "returns": [{"name": f"{unit}_id_{j + 1}", "type": "str", "description": f"The {topic} {unit} found."},
                        {"name": "score", "type": "float", "description": "A measurement of it (0-100)."}]}
        for later in [k for k, ps in needs.items() if j in ps and flaw != "unlinked"]:
            answer[f"call_{j + 1}_finds_for_call_{later + 1}"] = {
                "name": f"{unit}_id_{j + 1}", "type": "str", "description": f"The {topic} {unit} found."}
    answer["other_tools"] = [{"name": f"list_{topic}_species", "description": "List the species of a region.",
                              "parameters": [{"name": "region", "type": "str", "description": "Region name."}],
                              "returns": [{"name": "species", "type": "list[str]", "description": "Species names."}]}] * 2
    text = json.dumps(answer)
    return text[: len(text) // 2] if flaw == "cut" else text


def structured_calls(schema: dict, rng: random.Random, flaw: str = "") -> str:
    """An answer under a calls schema: the first pair each link offers, the other parameters as
    literals the request states, values of the declared types; `flaw` "mistyped" gives a year
    in words (an endpoint that ignored the schema: the reader refuses it), "cut" stops half way."""
    topic, unit = rng.choice(TOPICS)
    place, year = rng.choice(PLACES), rng.randint(2012, 2024)
    answer: dict[str, Any] = {"request": f"What do we know about the {topic} {unit}s near {place} in {year}?"}
    literal = {"string": place, "integer": f"in {year}" if flaw == "mistyped" else year, "number": 4.5, "boolean": True}
    for key in [k for k in schema["properties"] if k.startswith("call_")]:
        props = schema["properties"][key]["properties"]
        call: dict[str, Any] = {}
        linked = set()
        for link in [k for k in props if k.startswith("value_from_call_")]:
            first = props[link]["anyOf"][0]["properties"]
            call[link] = {"parameter": first["parameter"]["const"], "output": first["output"]["const"]}
            linked.add(first["parameter"]["const"])
        call["arguments"] = {name: literal.get(value.get("type"), place)
                             for name, value in props["arguments"]["properties"].items() if name not in linked}
        returns = props["returns"]["properties"]
        call["returns"] = {name: f"{unit.upper()}-{rng.randint(100, 999)}" if t.get("type") == "string"
                           else round(rng.uniform(1, 99), 1) for name, t in returns.items()}
        answer[key] = call
    text = json.dumps(answer)
    return text[: len(text) // 2] if flaw == "cut" else text


def answer(text: str, system: str = "", flawless: bool = False, context: str = "") -> str:
    """The model's answer to one request; `flawless`: a strong model's, always complete and in
    the asked format (for throughput figures that measure the pipeline, not the rejects).
    `context` (the earlier messages: demos) conditions the answer too, as it does a model's."""
    asked = fields(text)
    rng = _rng(context + text)
    if "design realistic tool-use tasks" in system:
        flaw = "" if flawless else rng.choice(["", "", "", "", "", "", "untyped", "truncated"])
        code = chain_code(asked.get("domain", "?"), asked.get("subdomain", "?"), asked.get("shape", "1 call"), rng, flaw)
        if flawless or rng.random() < 0.5:
            return f"[[ ## code ## ]]\n```python\n{code}\n```\n\n[[ ## completed ## ]]"
        return f"Here is the code you asked for:\n\n```python\n{code}\n```\n\nIt calls the tools in order."
    if "subdomains of a domain" in system or "ListSubdomains" in system or asked.get("domain") and "subdomains" in system:
        return '[[ ## subdomains ## ]]\n["Coral Reefs", "Marine Mammals", "Sea Turtles", "Plankton"]\n\n[[ ## completed ## ]]'
    if "write the request a user makes" in system:  # the draft's steps in its own frame, a value at times left out
        values = [v for v in asked.get("values", "").splitlines() if v and v != "(none)"]
        request = asked.get("draft", "")
        if values and not flawless and rng.random() < 0.2:
            request = request.replace(values[0], "the one I mentioned", 1)
        request = rng.choice(LEADS) + request + rng.choice(CLOSERS)
        if flawless or rng.random() < 0.5:
            return f"[[ ## request ## ]]\n{request}\n\n[[ ## plain_sentences ## ]]\n{request}\n\n[[ ## completed ## ]]"
        return f"[[ ## request ## ]]\n\"{request}\"\n\n[[ ## completed ## ]]"
    if "was written, but it leaves out values" in system:
        return f"[[ ## rewritten ## ]]\n{asked.get('draft', '')}\n\n[[ ## completed ## ]]"
    if "simulate a software tool" in system:
        spec = json.loads(asked.get("tool", "{}") or "{}")
        outputs = {o["name"]: mock_value(o["name"], o["type"], rng) for o in spec.get("returns", [])}
        body = json.dumps(outputs)
        return f"[[ ## answer ## ]]\n```json\n{body}\n```\n\n[[ ## completed ## ]]" if flawless or rng.random() < 0.5 else \
            f"The tool would return:\n{body}"
    if "review one test case" in system:
        return ("[[ ## plausible ## ]]\nTrue\n\n[[ ## faithful ## ]]\nTrue\n\n[[ ## reason ## ]]\nA fair request "
                "that the calls serve.\n\n[[ ## completed ## ]]")
    return "I am not sure what you mean."


def fake_lm_rule(request: Any) -> str:
    """As a FakeLM rule."""
    return answer(request.prompt, request.system)


def server_responder(body: dict[str, Any], flawless: bool = False) -> dict[str, Any]:
    """As a fake OpenAI-compatible server's responder."""
    messages = body.get("messages", [])
    system = "\n".join(str(m.get("content") or "") for m in messages if m.get("role") == "system")
    prompt = next((str(m.get("content") or "") for m in reversed(messages) if m.get("role") == "user"), "")
    context = "\n".join(str(m.get("content") or "") for m in messages[:-1])
    schema = _schema(body.get("response_format") or {})
    properties = schema.get("properties", {}) if schema else {}
    rng = _rng(context + prompt)
    if "tool_of_call_1" in properties:
        flaw = "" if flawless else rng.choice(["", "", "", "", "", "", "unlinked", "cut"])
        shape = next((line[7:] for line in prompt.splitlines() if line.startswith("shape: ")), "1 call")
        return {"content": structured_tools(shape, rng, flaw)}
    if "call_1" in properties:
        flaw = "" if flawless else rng.choice(["", "", "", "", "", "mistyped", "cut"])
        return {"content": structured_calls(schema, rng, flaw)}
    if "plausible" in properties:
        return {"content": '{"plausible": true, "faithful": true, "reason": "A fair request that the calls serve."}'}
    if properties:  # a tool's result under its schema
        types = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "array": "list[str]"}
        return {"content": json.dumps({name: mock_value(name, types.get(p.get("type"), "str"), rng)
                                       for name, p in properties.items()})}
    return {"content": answer(prompt, system, flawless, context)}


def _schema(fmt: dict) -> dict:
    """The schema of a response_format, in either form a client sends it."""
    return (fmt.get("json_schema") or {}).get("schema") or fmt.get("schema") or {}


NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]


def as_people_write(value: str) -> str:
    """A value of the query writer's list as a person writes it: "June 9th, 2025" for
    2025-06-09, "six" for 6, "$1,250.00" for 1250.5, "85%" for 0.85, a name in lower case."""
    from datetime import date

    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        d = date.fromisoformat(value)
        suffix = "th" if 11 <= d.day <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(d.day % 10, "th")
        return f"{d:%B} {d.day}{suffix}, {d.year}"
    if re.fullmatch(r"-?\d+", value):
        n = int(value)
        return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else f"{n:,}" if n >= 10_000 else value
    if re.fullmatch(r"-?\d+\.\d+", value):
        x = float(value)
        return f"{x * 100:g}%" if 0 < x < 1 else f"${x:,.2f}"
    return value.lower() if len(value) > 3 else value


def _surface_forms(value: str) -> list[str]:
    """How the draft may show a value of the query writer's list."""
    from datetime import date

    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        d = date.fromisoformat(value)
        return [value, f"{d:%B} {d.day}, {d.year}", f"{d.day} {d:%B} {d.year}"]
    return [value]


def written_forms_responder(body: dict[str, Any]) -> dict[str, Any]:
    """The generation model of `server_responder`, but its requests state every value as people
    write it (NesTools' GPT-written tasks do): the draft in another opening, each of its values
    in a person's form. The faithfulness check must take them."""
    messages = body.get("messages", [])
    system = "\n".join(str(m.get("content") or "") for m in messages if m.get("role") == "system")
    if "write the request a user makes" not in system:
        return server_responder(body)
    prompt = next((str(m.get("content") or "") for m in reversed(messages) if m.get("role") == "user"), "")
    values = [v for v in fields(prompt).get("values", "").splitlines() if v and v != "(none)"]
    request = fields(prompt).get("draft", "")
    for value in values:
        form = next((f for f in _surface_forms(value) if f in request), None)
        if form is not None:
            request = request.replace(form, as_people_write(value), 1)
    opener = _rng(prompt).choice(["", "Quick question. ", "Hi! ", "I need a hand. "])
    request = opener + request
    return {"content": f"[[ ## request ## ]]\n{request}\n\n[[ ## plain_sentences ## ]]\n{request}\n\n"
                       "[[ ## completed ## ]]"}
