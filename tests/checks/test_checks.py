"""Each check passes a generated instance and catches the defect it exists for."""

import pytest

from factory.checks import CHECKS, blocking_failures, run_checks
from factory.checks.duplicates import DuplicateIndex
from factory.records import Ref, ToolSpec, Value


@pytest.fixture(scope="module")
def ctx(food_run):
    from pathlib import Path

    from factory.checks.context import CheckContext
    from factory.checks.policy import load_policy
    from factory.config import resource_dir
    from factory.seeds.library import load_seeds

    return CheckContext(load_seeds(Path(resource_dir("seeds"))), load_policy(Path(resource_dir("validators")), "food_and_beverage"))


@pytest.fixture
def nested(food_instances):
    """A fresh copy of a kept instance with a nested call and at least one literal."""
    for instance in food_instances:
        if "nested" in instance.categories and not instance.withheld_tools and any(
            isinstance(a, Value) for c in instance.chain.calls for a in c.arguments.values()
        ):
            return instance.model_copy(deep=True)
    pytest.fail("the food run has no nested instance")


def failed(instance, ctx, name):
    result = CHECKS[name](instance, ctx)
    assert not result.passed, f"{name} should fail"
    return result.reason


def test_kept_instances_pass_every_check(food_instances, ctx):
    for instance in food_instances:
        assert not blocking_failures(run_checks(instance, ctx)), instance.id


def test_format_catches_a_tampered_record(nested, ctx):
    nested.depth += 1
    assert "depth/shape fields disagree" in failed(nested, ctx, "format")
    nested.depth -= 1
    nested.query = "change the query but keep the id"
    assert "id is not the content hash" in failed(nested, ctx, "format")


def test_signature_catches_unknown_tools_arguments_types_and_bad_references(nested, ctx):
    calls = nested.chain.calls
    literal_call = next(c for c in calls if any(isinstance(a, Value) for a in c.arguments.values()))
    name = next(n for n, a in literal_call.arguments.items() if isinstance(a, Value))
    original = literal_call.arguments[name]
    literal_call.arguments[name] = Value(value={"not": "a scalar"})
    assert "does not match declared type" in failed(nested, ctx, "signature")
    literal_call.arguments[name] = original
    literal_call.arguments["invented"] = Value(value=1)
    assert "unknown argument 'invented'" in failed(nested, ctx, "signature")
    del literal_call.arguments["invented"]
    calls[-1].arguments[next(iter(calls[-1].arguments))] = Ref(ref="data99")
    assert "not an earlier output" in failed(nested, ctx, "signature")
    calls[0].tool = "teleport"
    assert "tool does not exist" in failed(nested, ctx, "signature")


def test_dataflow_catches_rebinding_and_use_before_binding(nested, ctx):
    calls = nested.chain.calls
    calls[-1].outputs = list(calls[0].outputs[:1]) + calls[-1].outputs[1:]
    assert "rebinds" in failed(nested, ctx, "dataflow")


def test_dataflow_catches_an_answer_that_leaves_out_an_asked_value(nested, ctx):
    asked = nested.chain.asked()[0]
    var = nested.chain.calls[asked].outputs[0]
    del nested.trace.answer[var]
    assert "not the outputs of the calls the request asks for" in failed(nested, ctx, "dataflow")
    nested.trace.answer[var] = "reported"
    assert "answer milestone does not report" in failed(nested, ctx, "dataflow")


def test_execution_catches_a_stored_trace_that_is_not_what_the_chain_produces(nested, ctx):
    step = nested.trace.steps[-1]
    var = next(iter(step.outputs))
    step.outputs[var] = "forged"
    assert "stored trace differs" in failed(nested, ctx, "execution")


def test_execution_catches_a_chain_that_fails(nested, ctx):
    call = next(c for c in nested.chain.calls if any(isinstance(a, Value) and isinstance(a.value, str) for a in c.arguments.values()))
    name = next(n for n, a in call.arguments.items() if isinstance(a, Value) and isinstance(a.value, str))
    call.arguments[name] = Value(value="Nowhere Known 1999")
    assert "failed:" in failed(nested, ctx, "execution")


def test_faithfulness_catches_unstated_values_and_tool_names(nested, ctx):
    literal = next(a.value for c in nested.chain.calls for a in c.arguments.values() if isinstance(a, Value))
    nested.query = nested.query.replace(str(literal), "somewhere")
    assert "unstated: " in failed(nested, ctx, "faithfulness")
    tool = nested.gold_tools[0]
    nested.query = nested.query_variants["template"] + f" Use {tool[:-1]}() for it."  # a near-miss
    assert f"~ {tool}" in failed(nested, ctx, "faithfulness")


def test_faithfulness_catches_template_leftovers(nested, ctx):
    from factory.checks.faithfulness import text_glitches

    assert text_glitches("the UV index on that day on that day?") == ["doubled phrase: 'on that day on that day'"]
    assert text_glitches("the the forecast")[0].startswith("doubled word")
    assert text_glitches("Using the output from step 2, book it")[0].startswith("names a step number")
    assert text_glitches("find out who whoever last prescribed it is")[0].startswith("doubled question word")
    assert text_glitches("find out who prescribed it, and whoever signed it") == []
    assert text_glitches("What is the UV index in Lyon on that day, and the wind on that day?") == []
    nested.query = nested.query_variants["template"].rstrip(".?!") + " on that day on that day."
    assert "doubled phrase" in failed(nested, ctx, "faithfulness")


def test_faithfulness_accepts_other_date_forms(nested, ctx):
    dated = [a.value for c in nested.chain.calls for a in c.arguments.values()
             if isinstance(a, Value) and isinstance(a.value, str) and a.value[:2] == "20" and a.value[4:5] == "-"]
    if not dated:
        pytest.skip("no dated literal in this instance")
    from datetime import date

    day = date.fromisoformat(dated[0])
    nested.query = nested.query.replace(dated[0], f"{day.strftime('%B')} {day.day}, {day.year}")
    assert CHECKS["faithfulness"](nested, ctx).passed


def test_distractors_catch_near_miss_names_and_copied_descriptions(nested, ctx):
    gold = nested.tool(nested.gold_tools[0])
    nested.tools.append(ToolSpec(name=gold.name + "s", description="Something unrelated entirely.", parameters=[], returns=[]))
    assert "within 2 edits" in failed(nested, ctx, "distractors")
    nested.tools[-1] = ToolSpec(name="zz_other_helper", description=gold.description, parameters=[], returns=[])
    assert "describes nearly the same thing" in failed(nested, ctx, "distractors")


def test_duplicates_catch_the_same_chain_and_near_identical_queries(food_instances, ctx):
    index = DuplicateIndex(ctx)
    first = food_instances[0]
    assert index.check(first).passed
    index.add(first)
    assert "same chain and values" in index.check(first.model_copy(deep=True)).reason
    reworded = first.model_copy(deep=True)
    reworded.world = reworded.world.model_copy(update={"seed": 99})  # not the same chain signature
    reworded.query = first.query + " "
    assert "same skeleton" in index.check(reworded).reason and "Levenshtein" in index.check(reworded).reason
    other_values = first.model_copy(deep=True)
    literal = next(c for c in other_values.chain.calls if any(isinstance(a, Value) for a in c.arguments.values()))
    name = next(n for n, a in literal.arguments.items() if isinstance(a, Value))
    stated = str(literal.arguments[name].value)
    literal.arguments[name] = Value(value="something else entirely")
    other_values.query = first.query.replace(stated, "x", 1)
    assert "same skeleton" in index.check(other_values).reason  # one template with other literals
    retold = other_values.model_copy(deep=True)
    retold.query = "In completely different words, and asking differently: " + first.query[::-1]
    assert index.check(retold).passed or "near-duplicate" in index.check(retold).reason


def test_a_policy_can_switch_checks_off(food_instances, ctx):
    from factory.checks.context import CheckContext
    from factory.checks.policy import Policy

    relaxed = Policy(name="relaxed", checks={name: p.model_copy(update={"enabled": name not in ("faithfulness", "duplicates")})
                                             for name, p in ctx.policy.checks.items()})
    relaxed_ctx = CheckContext(ctx.seeds, relaxed, ctx.embeddings)
    # A query that states no value: only the faithfulness check would object.
    instance = food_instances[0].model_copy(update={"query": "Do it."}).with_id()
    names = [r.name for r in run_checks(instance, relaxed_ctx)]
    assert "faithfulness" not in names and "execution" in names
    index = DuplicateIndex(relaxed_ctx)
    index.add(food_instances[0])
    assert index.check(food_instances[0]).passed


def test_faithfulness_catches_a_found_value_given_away_and_a_place_the_chain_is_not_about():
    """A model rewrote "the daily forecast for the city under the worst alert in the United
    Kingdom" as "the weather in London": the chain is about Edinburgh, which the alert call must
    find. Naming the found city gives the nesting away; naming another city changes the task."""
    from pathlib import Path

    from factory.chains.code import parse_chain
    from factory.checks.faithfulness import given_away, places_not_in_chain
    from factory.config import resource_dir
    from factory.records import WorldSetup
    from factory.seeds.library import load_seeds
    from factory.world.simulator import Simulator, run_chain

    seeds = load_seeds(Path(resource_dir("seeds")))
    weather = seeds["weather"]
    chain = parse_chain('a, t, c = get_severe_weather_alerts(country="United Kingdom")\n'
                        'h, l, s = get_daily_forecast(city=c, date="2025-06-16")\n', weather.specs)
    trace = run_chain(chain, weather.specs, Simulator(seeds, WorldSetup(toolboxes=["weather"], seed=0)))
    city = trace.steps[0].outputs["c"]
    other = "London" if city != "London" else "Edinburgh"
    described = "What's June 16, 2025 looking like in the city under the worst warning in the United Kingdom?"
    assert given_away(chain, trace, described, weather.specs) == [] and places_not_in_chain(chain, trace, described) == []
    assert given_away(chain, trace, f"What's June 16, 2025 looking like in {city}, United Kingdom?", weather.specs) == [city]
    assert places_not_in_chain(chain, trace, f"What's June 16, 2025 looking like in {other}, United Kingdom?") == [other]


def test_two_steps_values_written_as_one_pair():
    """"Measure the temperature and salinity of Biscay and the North Sea": a reader measures
    both of both seas, while the gold (a real 1.5B model's) measured one of each (reading 83
    #1). A pair one step takes whole is that step's: "how dangerous is it to mix tramadol and
    clopidogrel" beside a drug's class and a pharmacy's stock of the other."""
    from factory.chains.code import parse_chain
    from factory.checks.faithfulness import joined_values
    from factory.records import Output, Param

    def tool(name, params, returned):
        return ToolSpec(name=name, description="d", parameters=[Param(name=p, type="str", description="d") for p in params],
                        returns=[Output(name=r, type="float", description=r.replace("_", " ")) for r in returned])

    specs = {t.name: t for t in (tool("measure_temperature", ["location"], ["temperature"]),
                                 tool("measure_salinity", ["location", "temperature"], ["salinity"]),
                                 tool("calculate_salinity_difference", ["location1", "location2", "salinity"],
                                      ["difference"]))}
    chain = parse_chain('a = measure_temperature(location="Biscay")\n'
                        'b = measure_salinity(location="North Sea", temperature=a)\n'
                        'c = calculate_salinity_difference(location1="Biscay", location2="North Sea", salinity=b)\n',
                        specs)
    crossed = "Measure the temperature and salinity of Biscay and the North Sea, then calculate the difference"
    assert joined_values(chain, crossed, specs) == [
        "names 'Biscay' and 'North Sea' together, while call 1 takes 'Biscay' alone and call 2 'North Sea' alone: "
        "a reader takes each step to be about both"]
    apart = ("Measure the temperature of Biscay and the salinity of the North Sea, then the difference in salinity "
             "between Biscay and the North Sea")
    assert joined_values(chain, apart, specs) == []
    from factory.queries.model_writer import QueryWriter  # a model's request goes back to it with the reason

    assert [p for p in QueryWriter("", "", []).problems(chain, crossed, [], set(), specs=specs) if "which step" in p]
    drugs = {t.name: t for t in (tool("get_drug_info", ["drug"], ["drug_class", "max_daily_dose"]),
                                 tool("check_interaction", ["drug_a", "drug_b"], ["severity"]),
                                 tool("find_pharmacy_stock", ["drug", "city"], ["pharmacy", "packs"]))}
    chain = parse_chain('a, b = get_drug_info(drug="tramadol")\n'
                        'c = check_interaction(drug_a="tramadol", drug_b="clopidogrel")\n'
                        'd, e = find_pharmacy_stock(drug="clopidogrel", city="Chicago")\n', drugs)
    mixed = ("What's the class of tramadol? And how dangerous is it to mix tramadol and clopidogrel? Who has the "
             "most clopidogrel in Chicago?")
    assert joined_values(chain, mixed, drugs) == []
    assert joined_values(chain, "What are the drug class of and the pharmacy stocking tramadol and clopidogrel?", drugs)


def test_a_found_value_may_be_named_as_one_of_a_closed_set_of_options():
    """"whether that book is available or on loan" names the options of an enum parameter, not
    the answer."""
    from pathlib import Path

    from factory.chains.code import parse_chain
    from factory.checks.faithfulness import given_away
    from factory.config import resource_dir
    from factory.records import WorldSetup
    from factory.seeds.library import load_seeds
    from factory.world.simulator import Simulator, run_chain

    seeds = load_seeds(Path(resource_dir("seeds")))
    library = seeds["library_science"]
    chain = parse_chain('b, s = locate_book(title="Essentials of Game Theory")\n'
                        't, a = scan_isbn(isbn="9781317878667")\n', library.specs)
    trace = run_chain(chain, library.specs, Simulator(seeds, WorldSetup(toolboxes=["library_science"], seed=0)))
    query = ("Where is Essentials of Game Theory shelved? And tell me whether the book with ISBN 9781317878667 is "
             "available or on loan.")
    assert given_away(chain, trace, query, library.specs) == []


def test_faithfulness_catches_a_literal_copied_from_a_documented_example(nested, ctx):
    """A gold literal that a tool's documentation shows as an example ('e.g. "Maria Lopez"') can
    be had without reading the request."""
    call = next(c for c in nested.chain.calls if any(isinstance(a, Value) for a in c.arguments.values()))
    name = next(n for n, a in call.arguments.items() if isinstance(a, Value))
    value = call.arguments[name].value
    assert CHECKS["faithfulness"](nested, ctx).passed
    tool = nested.tool(call.tool)
    shown = tool.model_copy(update={"parameters": [
        p.model_copy(update={"description": f'{p.description} e.g. "{value}".'}) if p.name == name else p
        for p in tool.parameters]})
    nested.tools = [shown if t.name == tool.name else t for t in nested.tools]
    assert f"example: call {nested.chain.calls.index(call) + 1} {call.tool}.{name}={value!r}" in failed(nested, ctx, "faithfulness")


def test_faithfulness_catches_a_withheld_value_shown_as_an_example(nested, ctx):
    """A value a withheld call finds for a later one that a tool's documentation shows as an
    example ('e.g. "WH-BER"'): an insufficient-information item that a guess solves."""
    step = next(s for s in nested.trace.steps for var, v in s.outputs.items() if isinstance(v, str) and any(
        isinstance(a, Ref) and a.ref == var for c in nested.chain.calls for a in c.arguments.values()))
    value = next(v for var, v in step.outputs.items() if isinstance(v, str) and any(
        isinstance(a, Ref) and a.ref == var for c in nested.chain.calls for a in c.arguments.values()))
    tool_name = nested.chain.calls[step.call].tool
    tool = next(t for t in nested.tools if t.name != tool_name)
    nested.tools = [tool.model_copy(update={"description": f'{tool.description} e.g. "{value}".'})
                    if t is tool else t for t in nested.tools]
    assert CHECKS["faithfulness"](nested, ctx).passed  # the call is offered: an agent makes it
    nested.withheld_tools = [nested.tool(tool_name)]
    nested.tools = [t for t in nested.tools if t.name != tool_name]
    assert f"example: call {step.call + 1} {tool_name} finds {value!r}, an example in {tool.name}'s documentation" \
        in failed(nested, ctx, "faithfulness")


def test_faithfulness_catches_a_name_stated_in_full_twice(ctx):
    """A name of two words or more, or an id, stated twice in one request: the second mention
    should have been "that library branch"."""
    from pathlib import Path

    from factory.chains.code import parse_chain
    from factory.checks.faithfulness import repeated_names
    from factory.config import resource_dir
    from factory.seeds.library import load_seeds
    from factory.toolbox.sense import is_named

    library = load_seeds(Path(resource_dir("seeds")))["library_science"]
    chain = parse_chain('data0, data1 = get_branch_hours(branch="Boston Central Library", date="2025-06-20")\n'
                        'data2, data3 = reserve_reading_room(branch="Boston Central Library", start=data0)\n', library.specs)
    twice = ("Book me a reading room at Boston Central Library from the earliest admission time at Boston Central "
             "Library on June 20, 2025.")
    assert repeated_names(chain, twice) == ["'Boston Central Library' is stated in full 2 times"]
    assert repeated_names(chain, twice.replace("admission time at Boston Central Library", "admission time there")) == []
    assert is_named("BK-40212") and is_named("12 King Street, London") and is_named("ana@example.com")
    assert not is_named("Paris") and not is_named("2025-06-20") and not is_named("2025-06-20T09:30") and not is_named(3)


def test_under_a_schema_the_judge_asks_for_its_verdicts_as_json(nested):
    from pathlib import Path

    from factory.checks.judges import Judge
    from factory.config import resource_dir
    from factory.lm.dspy_bridge import fake_dspy_lm
    from factory.lm.fake import FakeLM

    fake = FakeLM(['{"plausible": false, "faithful": true, "reason": "No one plans a cleanup this way."}'])
    judge = Judge(fake_dspy_lm(fake), (Path(resource_dir("prompts")) / "judge.md").read_text(), structured=True)
    assert judge(nested) == (False, True, "No one plans a cleanup this way.")
    schema = fake.requests[0].options["response_format"]["schema"]
    assert schema["properties"] == {"plausible": {"type": "boolean"}, "faithful": {"type": "boolean"},
                                    "reason": {"type": "string"}}


def test_the_model_judges_are_not_asked_about_an_instance_already_rejected(nested, ctx):
    import dataclasses

    from factory.checks import SPARED

    asked = []
    judged = dataclasses.replace(ctx, judge=lambda instance: asked.append(instance.id) or (True, True, "fine"))
    assert not blocking_failures(run_checks(nested, judged)) and len(asked) == 2  # one call, remembered by a real Judge
    nested = nested.model_copy(update={"query": "Tell me something."}).with_id()  # drops every value
    results = {r.name: r for r in run_checks(nested, judged)}
    assert not results["faithfulness"].passed and len(asked) == 2
    assert results["judge_plausibility"].reason == results["judge_semantics"].reason == SPARED
