"""Tools and a chain under a JSON schema: the schema has exactly the calls and links of the
shape; what it cannot rule out is a reason the writer sends back; the endpoint gets the schema
in the form it takes."""

import json
import random
from pathlib import Path

import pytest

from factory.chains.model_writer import ChainWriter, seed_demos
from factory.chains.structured import chain_schema, read_structured
from factory.chains.stubs import StubError
from factory.config import resource_dir
from factory.lm.dspy_bridge import fake_dspy_lm, wire_response_format
from factory.lm.fake import FakeLM, in_fence, in_prose
from factory.records import Ref, Value
from factory.seeds.library import load_seeds
from tests.generation_model import structured_chain

PROMPTS = Path(resource_dir("prompts"))


def answer(shape, flaw=""):
    return structured_chain(chain_schema(shape), random.Random(shape), flaw)


def test_the_schema_asks_for_exactly_the_calls_and_links_of_the_shape():
    schema = chain_schema("3:1>3,2>3")
    calls = [k for k in schema["properties"] if k.startswith("call_")]
    assert calls == ["call_1", "call_2", "call_3"] and set(schema["required"]) == set(schema["properties"])
    links = {k: [p for p in schema["properties"][k]["properties"] if p.startswith("value_from")] for k in calls}
    assert links == {"call_1": [], "call_2": [], "call_3": ["value_from_call_1", "value_from_call_2"]}
    literals = {k: schema["properties"][k]["properties"]["arguments"]["minItems"] for k in calls}
    assert literals == {"call_1": 1, "call_2": 1, "call_3": 0}  # a call that takes nothing states a literal
    assert schema["additionalProperties"] is False


@pytest.mark.parametrize("shape", ["1:", "2:1>2", "3:1>2,2>3", "3:1>3,2>3", "3:1>2,1>3,2>3"])
def test_an_answer_under_the_schema_is_a_chain_of_that_shape(shape):
    written = read_structured(in_prose(in_fence(answer(shape))))  # a server that ignored the schema: prose, fence
    assert written.chain.shape() == shape
    assert written.task.startswith("What do we know") and len(written.returns) == len(written.chain.calls)
    assert all(isinstance(a, (Value, Ref)) for c in written.chain.calls for a in c.arguments.values())
    assert written.others and "def main():" in written.code


def test_a_seed_example_as_a_worked_example_reads_back_as_its_chain():
    demos = [d for d in seed_demos(load_seeds(Path(resource_dir("seeds")))) if d.structured]
    assert demos
    for demo in demos:
        assert read_structured(demo.structured).chain.shape() == demo.shape


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


def test_the_writer_asks_under_the_schema_and_mends_a_reason_once():
    demos = seed_demos(load_seeds(Path(resource_dir("seeds"))))
    writer = ChainWriter((PROMPTS / "chain_writer.md").read_text(), demos, (PROMPTS / "chain_repair.md").read_text(),
                         (PROMPTS / "chain_writer_json.md").read_text(), (PROMPTS / "chain_repair_json.md").read_text())
    fake = FakeLM([answer("2:1>2", "mistyped"), in_prose(answer("2:1>2"))])
    written = writer(fake_dspy_lm(fake), "Marine Biology", "Coral Reefs", "2:1>2", random.Random(0))
    assert written.chain is not None and written.chain.chain.shape() == "2:1>2" and "is not of type int" in written.repaired
    first, second = fake.requests
    fmt = first.options["response_format"]
    assert fmt["type"] == "json_schema" and "call_2" in json.dumps(fmt)
    assert [m["role"] for m in first.messages] == ["system", "user", "assistant", "user"]  # one worked example
    assert "is not of type int" in second.messages[-1]["content"] and second.messages[-2]["role"] == "assistant"
    assert "JSON" in second.messages[-1]["content"] and "code block" not in second.messages[-1]["content"]
    stubborn = FakeLM([answer("2:1>2", "cut")])
    written = writer(fake_dspy_lm(stubborn), "Marine Biology", "Coral Reefs", "2:1>2", random.Random(0))
    assert written.chain is None and written.reason == "chain writer: after a repair, the answer is not one JSON " \
                                                       "object; it may be truncated"


def test_the_schema_reaches_the_endpoint_in_the_form_it_takes():
    canonical = {"type": "json_schema", "schema": {"type": "object"}, "name": "x"}
    assert wire_response_format(canonical, "json_schema") == {"type": "json_schema",
                                                              "json_schema": {"name": "x", "schema": {"type": "object"}}}
    assert wire_response_format(canonical, "json_object") == {"type": "json_object", "schema": {"type": "object"}}
    assert wire_response_format({"type": "json_object"}, "json_schema") == {"type": "json_object"}
