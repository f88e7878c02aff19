from pathlib import Path

import pytest

from factory.config import resource_dir
from factory.records import Call, Chain, Ref, Value, WorldSetup
from factory.seeds.library import load_seed, load_seeds
from factory.world.simulator import Simulator, ToolCrash, check_arguments, run_chain
from tests.conftest import write_seed

FOOD = "food_and_beverage"


@pytest.fixture(scope="module")
def seeds():
    return load_seeds(Path(resource_dir("seeds")))


def sim(seeds, **state):
    return Simulator(seeds, WorldSetup(toolboxes=[FOOD], seed=0, state={FOOD: state}))


def test_malformed_calls_come_back_as_observations(seeds):
    spec = seeds[FOOD].specs["get_harvest_yield"]
    assert "missing required parameter 'year'" in check_arguments(spec, {"region": "Rioja"})
    assert "has no parameter(s) colour" in check_arguments(spec, {"region": "Rioja", "year": 2015, "colour": "red"})
    assert "must be int" in check_arguments(spec, {"region": "Rioja", "year": 20.5})
    result = sim(seeds).call(spec, {"region": "Atlantis", "year": 2015})
    assert result.values == [] and "unknown region" in result.error


def test_episodes_start_from_the_same_world_and_do_not_share_state(seeds):
    add = seeds[FOOD].specs["add_wine_to_cellar"]
    base = seeds[FOOD].build_world(0)
    owned = base.state["cellar"]  # the bottles the user's cellar starts with
    wine = next(name for name in sorted(base.wines) if name not in owned)
    first = sim(seeds)
    assert first.call(add, {"wine_name": wine, "bottles": 3}).values == [3]
    assert first.snapshot() == {FOOD: {"cellar": {**owned, wine: 3}}}
    assert sim(seeds).snapshot() == {FOOD: {"cellar": owned}}
    preset = sim(seeds, cellar={wine: 10})  # a scenario's initial state override
    assert preset.call(add, {"wine_name": wine, "bottles": 1}).values == [11]


def test_run_chain_resolves_references_and_stops_at_an_error(seeds):
    chain = Chain(calls=[
        Call(tool="get_top_selling_wine", arguments={"location": Value(value="Rioja"), "date": Value(value="2025-05-08")},
             outputs=["data0", "data1"]),
        Call(tool="get_product_origin", arguments={"product": Ref(ref="data0")}, outputs=["data2"]),
    ])
    trace = run_chain(chain, seeds[FOOD].specs, sim(seeds))
    assert trace.ok and trace.steps[1].arguments["product"] == trace.steps[0].outputs["data0"]
    assert trace.answer == {"data2": trace.steps[1].outputs["data2"]}
    broken = chain.model_copy(deep=True)
    broken.calls[0].arguments["date"] = Value(value="1999-01-01")
    trace = run_chain(broken, seeds[FOOD].specs, sim(seeds))
    assert len(trace.steps) == 1 and "data covers" in trace.steps[0].error and trace.answer == {}


def test_a_tool_that_crashes_is_a_toolbox_bug_with_file_and_line(tmp_path):
    code = '''
        import random
        from factory.toolbox import Toolbox, World
        toolbox = Toolbox()

        @toolbox.world
        def build(rng: random.Random) -> World:
            return World()

        @toolbox.tool
        def divide(x: int) -> float:
            """Divide one by x.

            Args:
                x: The divisor.

            Returns:
                quotient: the quotient.
            """
            return 1 / x
    '''
    seed = load_seed(write_seed(tmp_path, "crashing", code))
    simulator = Simulator({"crashing": seed}, WorldSetup(toolboxes=["crashing"], seed=0))
    assert simulator.call(seed.specs["divide"], {"x": 4}).values == [0.25]
    with pytest.raises(ToolCrash, match=r"toolbox.py:\d+\) crashed on \{'x': 0\}: ZeroDivisionError"):
        simulator.call(seed.specs["divide"], {"x": 0})


def test_the_answer_leaves_out_what_a_call_only_hands_back():
    """"Which of those hotels is cheapest for 2 nights from June 22, and what is the total?":
    the check-in day and the nights the comparison echoes are not part of the answer, and the
    hotel is answered by its name, not its id."""
    from factory.chains.code import parse_chain

    travel = load_seed(Path(resource_dir("seeds")) / "travel")
    chain = parse_chain('h, hn = search_hotels(city="Paris")\n'
                        'c, t, d, n, cn = compare_hotel_prices(hotel_ids=h, check_in="2025-06-22", nights=2)', travel.specs)
    chain = Chain(calls=[c.model_copy(update={"asked": i == 1}) for i, c in enumerate(chain.calls)])
    trace = run_chain(chain, travel.specs, Simulator({"travel": travel}, WorldSetup(toolboxes=["travel"], seed=0)))
    assert trace.ok and set(trace.answer) == {"cn", "t"}, trace.answer


def test_a_recorded_call_answers_its_text_in_any_case_or_spacing():
    """Readings 80 and 83: "salmon" for the recorded "Salmon" and "(3,4)" for "(3, 4)" got a
    placeholder, so an agent that wrote the request's own spelling lost the call. The same call
    as a person reads it gets the recorded answer, where it stands for one recorded call only."""
    from factory.records import Output, Param, RecordedCall, ToolSpec

    spec = ToolSpec(name="get_food_pairing", description="d", parameters=[Param(name="species", type="str", description="d")],
                    returns=[Output(name="dish", type="str", description="d")])
    recorded = [RecordedCall(tool=spec.name, arguments={"species": "Salmon"}, outputs=["grilled fish"]),
                RecordedCall(tool=spec.name, arguments={"species": "(3, 4)"}, outputs=["sand"]),
                RecordedCall(tool=spec.name, arguments={"species": "Sole"}, outputs=["beurre blanc"]),
                RecordedCall(tool=spec.name, arguments={"species": "sole"}, outputs=["lemon"])]
    sim = Simulator({}, WorldSetup(toolboxes=[], seed=0, recorded=recorded))
    answer = lambda value: sim.call(spec, {"species": value})  # noqa: E731
    assert answer("salmon").values == ["grilled fish"] and answer(" SALMON ").backend == "recorded"
    assert answer("(3,4)").values == ["sand"]
    assert answer("sole").values == ["lemon"] and answer("Sole").values == ["beurre blanc"]  # exact first
    assert answer("SOLE").backend == "mock"  # two recorded calls read alike: neither is this one
