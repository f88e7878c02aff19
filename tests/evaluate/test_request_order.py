"""The gold calls take the order in which the request speaks of its parts, as far as data and
state allow (factory.queries.order)."""

import random
import re
from pathlib import Path

import pytest

from factory.chains.code import parse_chain
from factory.checks.faithfulness import normalise
from factory.config import resource_dir
from factory.queries import template_query
from factory.queries.order import in_request_order, order_problems, request_order
from factory.queries.wording import mark_asked
from factory.records import Call, Chain, Ref, Value, WorldSetup
from factory.seeds.library import load_seeds
from factory.world.simulator import Simulator, run_chain


@pytest.fixture(scope="module")
def seeds():
    return load_seeds(Path(resource_dir("seeds")))


def runner(seeds, specs, toolboxes):
    setup = WorldSetup(toolboxes=toolboxes, seed=0)
    return lambda chain: run_chain(chain, specs, Simulator(seeds, setup))


def test_each_part_comes_where_the_request_first_speaks_of_it_after_what_it_needs():
    chain = Chain(calls=[
        Call(tool="find_city", arguments={"name": Value(value="Anna")}, outputs=["data0"]),
        Call(tool="weather", arguments={"city": Ref(ref="data0")}, outputs=["data1"], asked=True),
        Call(tool="fix", outputs=["data2"], fixes="power"),
        Call(tool="uv", arguments={"city": Value(value="Oslo")}, outputs=["data3"], after=[2], asked=True),
    ])
    # "What's the UV index in Oslo? And the weather in the city Anna lives in?": the fix-up no
    # sentence speaks of comes just before the call that waits for it.
    assert request_order(chain, [3, 1, 0]) == [2, 3, 0, 1]
    assert request_order(chain, [2, 1, 0, 3]) == [2, 0, 1, 3]  # its sentence opens the request


WIND_AND_UV = (
    'data0, data1 = find_hottest_city(country="Spain", date="2025-06-14")\n'
    'data2, data3 = get_wind_forecast(city=data0, date="2025-06-14")\n'
    'data4, data5 = get_uv_index(city="Tokyo", date="2025-06-14")\n'
)


UV_AND_WIND = (
    'data0, data1 = get_uv_index(city="Tokyo", date="2025-06-14")\n'
    'data2, data3 = find_hottest_city(country="Spain", date="2025-06-14")\n'
    'data4, data5 = get_wind_forecast(city=data2, date="2025-06-14")\n'
)
WIND_LAST = (
    'data0, data1 = find_hottest_city(country="Spain", date="2025-06-14")\n'
    'data2, data3 = get_uv_index(city="Tokyo", date="2025-06-14")\n'
    'data4, data5 = get_wind_forecast(city=data0, date="2025-06-14")\n'
)


def test_the_gold_calls_follow_the_request_in_either_composition(seeds):
    """Two independent parts, composed (and so asked) in either order: the gold calls run in
    the order the request asks for them, the nested call just before the call that takes its
    value, and the output variables are numbered in that order."""
    weather = seeds["weather"]
    run = runner(seeds, weather.specs, ["weather"])
    orders = set()
    for code in (WIND_AND_UV, UV_AND_WIND):
        chain = mark_asked(parse_chain(code, weather.specs), weather.toolbox.tools)
        trace = run(chain)
        assert trace.ok
        for k in range(4):
            worded = template_query(chain, weather.specs, weather.toolbox.tools, rng=random.Random(k))
            text = normalise(worded.variants["template"])
            ordered, again = in_request_order(chain, trace, worded.mentions, run, ["weather"] * 3, set())
            tools = [c.tool for c in ordered.calls]
            uv_first = text.index("tokyo") < text.index("spain")
            assert tools == (["get_uv_index", "find_hottest_city", "get_wind_forecast"] if uv_first
                             else ["find_hottest_city", "get_wind_forecast", "get_uv_index"]), text
            assert [v for c in ordered.calls for v in c.outputs] == [f"data{n}" for n in range(6)]
            assert again.ok and sorted(map(repr, again.answer.values())) == sorted(map(repr, trace.answer.values()))
            assert not order_problems(ordered, worded.variants["template"])
            orders.add(tuple(tools))
    assert len(orders) == 2


def test_a_value_spoken_of_after_a_later_part_is_asked_for_itself(seeds):
    """Composed as hottest city, UV in Tokyo, wind in the hottest city (NesTools' 3:1>3): the
    request asks for the hottest city itself first, so it speaks of its parts in composed order
    and the shape survives the gold order."""
    weather = seeds["weather"]
    code = WIND_LAST
    chain = mark_asked(parse_chain(code, weather.specs), weather.toolbox.tools)
    assert [c.asked for c in chain.calls] == [True, True, True] and chain.shape() == "3:1>3"
    worded = template_query(chain, weather.specs, weather.toolbox.tools, rng=random.Random(0))
    assert worded.mentions == [0, 1, 2]


def test_a_look_up_keeps_its_side_of_an_action_that_changes_what_it_reads(seeds):
    """"Update Fatima Silva's home city to Paris. Search flights from the city she lives in":
    read literally, the look-up would follow the update and find Paris; the chain was composed
    with the look-up first, so it keeps that side, and says why (`after`)."""
    specs = {n: s for seed in seeds.values() for n, s in seed.specs.items()}
    entries = {n: e for seed in seeds.values() for n, e in seed.toolbox.tools.items()}
    chain = mark_asked(parse_chain(
        'data0, data1 = get_contact_city(name="Fatima Silva")\n'
        'data2, data3 = search_flights(origin_city=data0, destination_city="Paris", date="2025-06-19")\n'
        'data4 = update_contact_city(name="Fatima Silva", city="Paris")\n', specs), entries)
    toolboxes = [specs[c.tool].toolbox for c in chain.calls]
    run = runner(seeds, specs, sorted(set(toolboxes)))
    trace = run(chain)
    assert trace.ok
    ordered, again = in_request_order(chain, trace, [2, 1, 0], run, toolboxes, {2})
    assert [c.tool for c in ordered.calls] == ["get_contact_city", "update_contact_city", "search_flights"]
    assert ordered.calls[1].after == [0]
    assert again.steps[0].outputs["data0"] == trace.steps[0].outputs["data0"] != "Paris"


def test_a_fix_up_spoken_of_first_still_waits_for_the_fix_up_it_needs(seeds):
    """"My passport isn't on my travel profile. I have no traveller profile yet. ...": saving
    the passport needs the profile, though the composer only recorded that the hotel booking
    waits for it; read literally the passport comes first, fails, and is kept after the
    profile alone (not after the hotel booking too)."""
    travel = seeds["travel"]
    chain = parse_chain(
        'data0 = create_traveller_profile(full_name="Maria Lopez", email="maria.lopez@example.com")\n'
        'data1, data2 = book_hotel(hotel_id="HTL-5748", check_in="2025-06-26", nights=1, guest_name="Omar Dubois")\n'
        'data3, data4 = save_passport_details(passport_number="X4827193", nationality="USA", expiry_date="2031-05-01")\n'
        'data5, data6 = book_flight(flight_number="BW241", date="2025-06-26", passenger_name="Omar Dubois")\n',
        travel.specs)
    fixes = {0: "traveller_profile", 2: "passport_on_file"}
    waits = {1: [0], 3: [2]}
    chain = mark_asked(Chain(calls=[c.model_copy(update={"fixes": fixes.get(i), "after": waits.get(i, [])})
                                    for i, c in enumerate(chain.calls)]), travel.toolbox.tools)
    broken = {k: v for name in fixes.values() for k, v in travel.toolbox.conditions[name].broken_state.items()}
    setup = WorldSetup(toolboxes=["travel"], seed=23, state={"travel": broken})
    run = lambda moved: run_chain(moved, travel.specs, Simulator(seeds, setup))  # noqa: E731
    trace = run(chain)
    assert trace.ok
    ordered, again = in_request_order(chain, trace, [2, 0, 1, 3], run, ["travel"] * 4, {0, 1, 2, 3})
    assert [c.tool for c in ordered.calls] == ["create_traveller_profile", "save_passport_details", "book_hotel",
                                               "book_flight"]
    assert ordered.calls[1].after == [0] and again.ok


def test_a_rewritten_request_that_swaps_two_independent_parts_is_caught(seeds):
    weather = seeds["weather"]
    chain = parse_chain('data0, data1 = get_wind_forecast(city="Rome", date="2025-06-14")\n'
                        'data2, data3 = get_uv_index(city="Oslo", date="2025-06-14")\n', weather.specs)
    assert not order_problems(chain, "How windy will Rome be on June 14, 2025? And the UV index in Oslo that day?")
    assert order_problems(chain, "What's the UV index in Oslo on June 14, 2025? And how windy will Rome be?")


def test_a_call_no_phrasing_fits_is_placed_by_the_values_only_it_takes():
    """"...the newest text from Lucas Martin. Which city does Lucas live in? Text Lucas the
    following: ...": the message places the text where it is said, not the name the first part
    also said, and "Lucas" places the city question after the first part."""
    from factory.queries.order import literal_places

    text = "the newest text from lucas martin. which city does lucas live in? text lucas: hello there"
    assert literal_places("Lucas Martin", text) == [m.start() for m in re.finditer("lucas", text)]
    assert literal_places("Lucas Martin", "which city does lucas live in?") == []  # never named in full: not him
