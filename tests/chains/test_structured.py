"""Tools and a chain under JSON schemas, in two steps: the tools of the shape's calls, then the
calls over them, whose schema has exactly the calls and links of the shape and only links the
tools can make; what the schemas cannot rule out is a reason the writer sends back; the endpoint
gets each schema in the form it takes."""

import json
import random
from pathlib import Path

import jsonschema
import pytest

from factory.chains.model_writer import ChainWriter, seed_demos, shape_in_words
from factory.chains.structured import calls_schema, joined, links, read_structured, read_tools, tools_schema
from factory.chains.stubs import StubError
from factory.config import resource_dir
from factory.lm.dspy_bridge import fake_dspy_lm, wire_response_format
from factory.lm.fake import FakeLM, in_fence, in_prose
from factory.records import Output, Param, Ref, ToolSpec, Value
from factory.seeds.library import load_seeds
from tests.generation_model import structured_calls, structured_tools

PROMPTS = Path(resource_dir("prompts"))


def steps(shape, flaw=""):
    """The two answers of a fake model for `shape`: its tools, then its calls over them."""
    rng = random.Random(shape)
    tools = structured_tools(shape_in_words(shape), rng, flaw if flaw == "unlinked" else "")
    specs = read_tools(tools, shape)[0] if flaw != "unlinked" else None
    return tools, structured_calls(calls_schema(shape, specs), rng, flaw) if specs else ""


def answer(shape, flaw=""):
    tools, calls = steps(shape)
    _, raws, others = read_tools(tools, shape)
    text = joined(shape, raws, others, structured_calls(calls_schema(shape, read_tools(tools, shape)[0]),
                                                        random.Random(shape), "mistyped" if flaw == "mistyped" else ""))
    return text[: len(text) // 2] if flaw == "cut" else text


def test_the_calls_schema_asks_for_exactly_the_calls_and_links_of_the_shape():
    shape = "3:1>3,2>3"
    assert list(tools_schema(shape)["properties"]) == ["call_1_finds_for_call_3", "call_2_finds_for_call_3", "tool_of_call_1",
                                                       "tool_of_call_2", "tool_of_call_3", "other_tools"]
    schema = calls_schema(shape, read_tools(steps(shape)[0], shape)[0])
    calls = [k for k in schema["properties"] if k.startswith("call_")]
    assert calls == ["call_1", "call_2", "call_3"] and set(schema["required"]) == set(schema["properties"])
    links_of = {k: [p for p in schema["properties"][k]["properties"] if p.startswith("value_from")] for k in calls}
    assert links_of == {"call_1": [], "call_2": [], "call_3": ["value_from_call_1", "value_from_call_2"]}
    literals = {k: schema["properties"][k]["properties"]["arguments"]["required"] for k in calls}
    assert literals == {"call_1": ["region", "year"], "call_2": ["region", "year"], "call_3": []}
    # a parameter a link can only fill is no literal (the real model gave a species' name both ways)
    assert schema["properties"]["call_3"]["properties"]["arguments"]["properties"] == {}
    pairs = schema["properties"]["call_3"]["properties"]["value_from_call_1"]["anyOf"]
    assert [(p["properties"]["parameter"]["const"], p["properties"]["output"]["const"]) for p in pairs] == \
        [(pairs[0]["properties"]["output"]["const"],) * 2]  # the value of the parameter's own name, alone
    returns = schema["properties"]["call_1"]["properties"]["returns"]
    assert [t["type"] for t in returns["properties"].values()] == ["string", "number"]
    assert schema["additionalProperties"] is False


def test_a_link_takes_a_value_of_the_parameter_s_name_else_one_of_a_fitting_type():
    station = ToolSpec(name="find_station", description="d", parameters=[Param(name="city", type="str", description="d")],
                       returns=[Output(name="station_id", type="str", description="d"),
                                Output(name="station_name", type="str", description="d"),
                                Output(name="elevation_m", type="float", description="d")])
    readings = ToolSpec(name="get_readings", description="d", parameters=[
        Param(name="station_id", type="str", description="d"), Param(name="days", type="int", description="d")],
        returns=[Output(name="mean_c", type="float", description="d")])
    assert links(station, readings) == [("station_id", "station_id")]  # never the station's name
    renamed = readings.model_copy(update={"parameters": [Param(name="station", type="str", description="d")]})
    assert links(station, renamed) == [("station", "station_id"), ("station", "station_name")]
    assert links(readings, station) == []  # a float cannot be the city


def test_what_a_call_finds_for_a_later_one_joins_their_tools():
    """The real 1.5B model wrote three tools that each took a sample's id and returned a
    measurement: none could give another a value. What a call finds for a later one is its own
    entry, which becomes a returned value of the one tool and a parameter of the other."""
    tool = lambda name, returned: {"name": name, "description": "d",  # noqa: E731
                                   "parameters": [{"name": "sample_id", "type": "str", "description": "d"}],
                                   "returns": [{"name": returned, "type": "float", "description": "d"}]}
    answer = {"tool_of_call_1": tool("find_site", "depth_m"),
              "call_1_finds_for_call_2": {"name": "site_id", "type": "str", "description": "the site found"},
              "tool_of_call_2": tool("survey_site", "coral_cover"), "other_tools": []}
    specs, raws, _ = read_tools(json.dumps(answer), "2:1>2")
    assert [o.name for o in specs[0].returns] == ["depth_m", "site_id"]
    assert [p.name for p in specs[1].parameters] == ["sample_id", "site_id"] and links(*specs) == [("site_id", "site_id")]
    assert raws[1]["parameters"][-1]["name"] == "site_id"  # in the JSON the written chain is read from, too
    for wrong in ("sample_id", "get_temperature", "find_site"):  # the real model's: call 1's input, an action, a tool
        answer["call_1_finds_for_call_2"]["name"] = wrong
        with pytest.raises(StubError, match=f"'{wrong}', which is call_1's input, a tool's name or an action"):
            read_tools(json.dumps(answer), "2:1>2")
    # The real model's genus_name found and genus_id taken: the repair says they may be one value.
    answer["call_1_finds_for_call_2"]["name"] = "sample_id"
    answer["tool_of_call_1"]["returns"].append({"name": "genus_name", "type": "str", "description": "the genus"})
    answer["tool_of_call_2"]["parameters"].append({"name": "genus_id", "type": "str", "description": "the genus"})
    with pytest.raises(StubError, match="if find_site's genus_name is the genus_id that survey_site takes, give both one "
                                        r"name.*the values find_site returns: depth_m \(float\), genus_name"):
        read_tools(json.dumps(answer), "2:1>2")
    answer["tool_of_call_1"]["returns"].pop()
    answer["tool_of_call_2"]["parameters"].pop()
    answer["call_1_finds_for_call_2"]["name"] = "find_site"
    answer["tool_of_call_1"]["returns"].append({"name": "sample_id", "type": "str", "description": "the sample"})
    with pytest.raises(StubError, match="'find_site', which is call_1's input"):  # handing its input back is no link
        read_tools(json.dumps(answer), "2:1>2")
    answer["tool_of_call_1"]["parameters"][0]["name"] = "region"
    specs, _, _ = read_tools(json.dumps(answer), "2:1>2")  # the tools pass a sample on: the entry is not needed
    assert links(*specs) == [("sample_id", "sample_id")] and "find_site" not in {p.name for p in specs[1].parameters}
    answer["tool_of_call_1"]["returns"].pop()
    del answer["call_1_finds_for_call_2"]
    with pytest.raises(StubError, match="call_2's tool takes no value that call_1's tool returns"):
        read_tools(json.dumps(answer), "2:1>2")


def test_tools_that_cannot_make_a_link_of_the_shape_are_a_reason_naming_both_sides():
    tools, _ = steps("2:1>2", "unlinked")
    with pytest.raises(StubError, match=r"call_2's tool takes no value that call_1's tool returns.*\(the values "
                                        r"\w+ returns: \w+ \(str\), score \(float\); the parameters \w+ takes: \w+ \(int\)\)"):
        read_tools(tools, "2:1>2")
    data = json.loads(steps("2:1>2")[0])
    data["tool_of_call_1"]["returns"][1]["name"] = data["tool_of_call_1"]["returns"][0]["name"]
    with pytest.raises(StubError, match="names two of its returns alike"):
        read_tools(json.dumps(data), "2:1>2")


@pytest.mark.parametrize("shape", ["1:", "2:1>2", "3:1>2,2>3", "3:1>3,2>3", "3:1>2,1>3,2>3"])
def test_an_answer_under_the_schema_is_a_chain_of_that_shape(shape):
    written = read_structured(in_prose(in_fence(answer(shape))))  # a server that ignored the schema: prose, fence
    assert written.chain.shape() == shape
    assert written.task.startswith("What do we know") and len(written.returns) == len(written.chain.calls)
    assert all(isinstance(a, (Value, Ref)) for c in written.chain.calls for a in c.arguments.values())
    assert written.others and "def main():" in written.code


def test_a_seed_example_as_a_worked_example_reads_back_as_its_chain():
    demos = [d for d in seed_demos(load_seeds(Path(resource_dir("seeds")))) if d.tools_answer]
    assert len(demos) >= 8  # those whose every link passes a value under its own name
    for demo in demos:
        specs, raws, others = read_tools(demo.tools_answer, demo.shape)
        jsonschema.validate(json.loads(demo.tools_answer), tools_schema(demo.shape))
        jsonschema.validate(json.loads(demo.calls_answer), calls_schema(demo.shape, specs))  # a demo its schema allows
        assert read_structured(joined(demo.shape, raws, others, demo.calls_answer)).chain.shape() == demo.shape


def test_a_link_with_its_two_names_the_other_way_round_is_read():
    data = json.loads(answer("2:1>2"))
    link = data["call_2"]["value_from_call_1"]
    link["parameter"], link["output"] = link["output"], link["parameter"]  # as the real model wrote one
    written = read_structured(json.dumps(data))
    assert written.chain.shape() == "2:1>2" and isinstance(written.chain.calls[1].arguments[link["output"]], Ref)


@pytest.mark.parametrize("change, reason", [
    (lambda a: a["call_1"]["arguments"].__setitem__(1, {"parameter": "year", "value": "in 2020"}), "is not of type int"),
    (lambda a: a["call_1"]["arguments"].append({"parameter": "depth", "value": 3}), "does not declare"),
    (lambda a: a["call_2"]["value_from_call_1"].__setitem__("output", "reef_name"),
     r"whose tool returns .* \(the values \w+ returns: \w+ \((str|int|float)\).*; the parameters \w+ takes: "),
    (lambda a: a["call_2"]["tool"]["parameters"][0].__setitem__("type", "tuple[float, float]"), "unsupported type"),
])
def test_what_the_schema_cannot_rule_out_is_a_reason(change, reason):
    data = json.loads(answer("2:1>2"))
    change(data)
    with pytest.raises(StubError, match=reason):
        read_structured(json.dumps(data))
    with pytest.raises(StubError, match="not one JSON object"):
        read_structured(answer("2:1>2", "cut"))


def test_numbers_and_truth_values_written_as_text_are_read_as_the_declared_type():
    """The real 1.5B model quoted a float ("temp_celsius": "18.0"): the JSON says the same value."""
    data = json.loads(answer("2:1>2"))
    data["call_1"]["arguments"][1]["value"] = " 2,020 "
    data["call_1"]["returns"][1] = "42.5"
    written = read_structured(json.dumps(data))
    assert written.chain.calls[0].arguments["year"].value == 2020 and written.returns[0][1] == 42.5
    data["call_1"]["arguments"][1]["value"] = "nan"
    with pytest.raises(StubError, match="is not of type int"):
        read_structured(json.dumps(data))


def test_the_writer_asks_for_tools_then_calls_and_mends_each_step_once():
    demos = seed_demos(load_seeds(Path(resource_dir("seeds"))))
    writer = ChainWriter((PROMPTS / "chain_writer.md").read_text(), demos, (PROMPTS / "chain_repair.md").read_text(),
                         ((PROMPTS / "chain_tools_json.md").read_text(), (PROMPTS / "chain_calls_json.md").read_text()),
                         (PROMPTS / "chain_repair_json.md").read_text())
    tools, calls = steps("2:1>2")
    unlinked, _ = steps("2:1>2", "unlinked")
    _, mistyped = steps("2:1>2", "mistyped")
    fake = FakeLM([unlinked, in_fence(tools), in_prose(mistyped), calls])
    written = writer(fake_dspy_lm(fake), "Marine Biology", "Coral Reefs", "2:1>2", random.Random(0))
    assert written.chain is not None and written.chain.chain.shape() == "2:1>2"
    assert written.repaired.startswith("tools: call_2's tool takes no value") and "calls: " in written.repaired
    assert "is not of type int" in written.repaired
    first, _, third, fourth = fake.requests
    assert "tool_of_call_2" in json.dumps(first.options["response_format"])
    assert [m["role"] for m in first.messages] == ["system", "user", "assistant", "user"]  # one worked example
    assert "first of two\nsteps" in first.messages[0]["content"]
    assert "second of two\nsteps" in third.messages[0]["content"] and "tools: {" in third.messages[-1]["content"]
    assert "value_from_call_1" in json.dumps(third.options["response_format"])
    assert "is not of type int" in fourth.messages[-1]["content"] and fourth.messages[-2]["role"] == "assistant"
    assert "JSON" in fourth.messages[-1]["content"] and "code block" not in fourth.messages[-1]["content"]
    stubborn = FakeLM([unlinked])
    written = writer(fake_dspy_lm(stubborn), "Marine Biology", "Coral Reefs", "2:1>2", random.Random(0))
    assert written.chain is None and written.reason.startswith("chain writer (tools): after a repair, call_2's tool "
                                                               "takes no value that call_1's tool returns")
    cut = FakeLM([tools, answer("2:1>2", "cut")[:40]])
    written = writer(fake_dspy_lm(cut), "Marine Biology", "Coral Reefs", "2:1>2", random.Random(0))
    assert written.reason == "chain writer (calls): after a repair, the answer is not one JSON object; it may be truncated"


def test_the_schema_reaches_the_endpoint_in_the_form_it_takes():
    canonical = {"type": "json_schema", "schema": {"type": "object"}, "name": "x"}
    assert wire_response_format(canonical, "json_schema") == {"type": "json_schema",
                                                              "json_schema": {"name": "x", "schema": {"type": "object"}}}
    assert wire_response_format(canonical, "json_object") == {"type": "json_object", "schema": {"type": "object"}}
    assert wire_response_format({"type": "json_object"}, "json_schema") == {"type": "json_object"}


def test_every_parameter_a_call_s_tool_declares_is_given_once():
    """The real 1.5B model called a beach locator with the temperature an earlier call gave and
    no beach name: a parameter no earlier call fills is the request's to give."""
    tools, calls = steps("2:1>2")
    _, raws, others = read_tools(tools, "2:1>2")
    data = json.loads(calls)
    del data["call_1"]["arguments"]["region"]
    with pytest.raises(StubError, match=r"call_1 \(\w+\) gives no value for region: give each parameter"):
        joined("2:1>2", raws, others, json.dumps(data))
    data = json.loads(calls)
    data["call_2"]["arguments"] = {data["call_2"]["value_from_call_1"]["parameter"]: "REEF-1"}
    with pytest.raises(StubError, match="gives .* twice: each parameter takes one value"):
        joined("2:1>2", raws, others, json.dumps(data))


def test_a_call_that_takes_from_two_calls_has_a_parameter_for_each():
    """The real 1.5B model's third tool took one species id that both earlier tools returned:
    one link overwrote the other, and the chain lost a link of its shape."""
    tool = lambda name, params, returns: {"name": name, "description": "d",  # noqa: E731
                                          "parameters": [{"name": p, "type": "str", "description": "d"} for p in params],
                                          "returns": [{"name": r, "type": "str", "description": "d"} for r in returns]}
    answer = {"tool_of_call_1": tool("find_reef", ["region"], ["species_id"]),
              "tool_of_call_2": tool("find_trench", ["region"], ["species_id"]),
              "tool_of_call_3": tool("compare", ["species_id"], ["verdict"]), "other_tools": []}
    with pytest.raises(StubError, match="call_3's tool takes values from calls call_1, call_2 but has no parameter for each"):
        read_tools(json.dumps(answer), "3:1>3,2>3")
    answer["tool_of_call_2"]["returns"] = [{"name": "site_id", "type": "str", "description": "d"}]
    answer["tool_of_call_3"]["parameters"].append({"name": "site_id", "type": "str", "description": "d"})
    assert len(read_tools(json.dumps(answer), "3:1>3,2>3")[0]) == 3


def test_code_where_json_was_asked_says_how_to_ask_for_code():
    with pytest.raises(StubError, match="--structured-output off"):
        read_tools("```python\ndef get_reef(region: str) -> str: ...\n\ndef main():\n    get_reef('Palau')\n```", "1:")


def test_a_parameter_described_as_another_value_than_the_one_of_its_name_goes_back_to_the_tools_step():
    """The real 1.5B model's environmental_study took species_name, "the scientific name of the
    marine organism", from a tool returning species_name and scientific_name: under the calls
    schema the link by one name is the only one, so the tools step mends it."""
    species = {"name": "identify_species", "description": "d",
               "parameters": [{"name": "body_image", "type": "str", "description": "the scanned body image"}],
               "returns": [{"name": "species_name", "type": "str", "description": "the identified species name"},
                           {"name": "scientific_name", "type": "str", "description": "the scientific name"}]}
    study = {"name": "environmental_study", "description": "d",
             "parameters": [{"name": "species_name", "type": "str",
                             "description": "the scientific name of the marine organism"}],
             "returns": [{"name": "temperature", "type": "float", "description": "the water temperature"}]}
    answer = {"tool_of_call_1": species, "tool_of_call_2": study, "other_tools": []}
    with pytest.raises(StubError, match="call_2's tool describes 'species_name' as 'the scientific name of the marine "
                                        "organism', which is what call_1's tool returns as 'scientific_name'"):
        read_tools(json.dumps(answer), "2:1>2")
    study["parameters"][0]["description"] = "the species' common name"
    assert read_tools(json.dumps(answer), "2:1>2")[0][1].name == "environmental_study"
