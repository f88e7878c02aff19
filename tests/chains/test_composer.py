import random
from pathlib import Path

import pytest

from factory.chains.composer import ToolPool, compose
from factory.config import resource_dir
from factory.records import Ref, parse_shape, type_accepts
from factory.seeds.library import load_seeds
from factory.world.simulator import base_world


@pytest.fixture(scope="module")
def food_pool():
    seeds = load_seeds(Path(resource_dir("seeds")))
    food = seeds["food_and_beverage"]
    world = base_world(food, 0)
    return ToolPool(food.specs, {"food_and_beverage": {k: f(world) for k, f in food.toolbox.values.items()}})


@pytest.mark.parametrize("shape", ["1:", "3:", "2:1>2", "3:1>2,2>3", "3:1>2,1>3", "3:1>3,2>3", "3:1>2,1>3,2>3",
                                   "4:1>2,2>3,3>4", "4:1>2,1>3,1>4", "3:1>2"])
def test_composed_chain_has_exactly_the_requested_shape(food_pool, shape):
    n, edges = parse_shape(shape)
    for k in range(5):
        chain = compose(food_pool, n, edges, random.Random(f"{shape}:{k}"))
        assert chain is not None, f"food tools cannot fill {shape}"
        assert chain.shape() == shape
        assert len({c.tool for c in chain.calls}) == n  # distinct tools


def test_every_reference_links_a_fitting_output_and_every_required_argument_is_filled(food_pool):
    for k in range(40):
        chain = compose(food_pool, 3, [(0, 1), (1, 2)], random.Random(k))
        specs = [food_pool.specs[c.tool] for c in chain.calls]
        outputs = {var: spec.returns[i] for call, spec in zip(chain.calls, specs) for i, var in enumerate(call.outputs)}
        for call, spec in zip(chain.calls, specs):
            assert {p.name for p in spec.parameters if p.required} <= set(call.arguments)
            for name, arg in call.arguments.items():
                param = spec.param(name)
                if isinstance(arg, Ref):
                    out = outputs[arg.ref]
                    assert out.kind == param.kind and type_accepts(param.type, out.type)
                elif param.enum is None and param.kind:
                    assert arg.value in food_pool.options(spec, param)


def test_same_random_state_gives_the_same_chain(food_pool):
    a = compose(food_pool, 3, [(0, 1), (0, 2)], random.Random(7))
    b = compose(food_pool, 3, [(0, 1), (0, 2)], random.Random(7))
    assert a == b


def test_unfillable_shape_returns_none(food_pool):
    # Five calls all feeding one another densely: the food tools have no such structure.
    edges = [(i, j) for i in range(5) for j in range(i + 1, 5)]
    assert compose(food_pool, 5, edges, random.Random(0), budget=200) is None


def test_constraints_steer_tool_choice(food_pool):
    chain = compose(food_pool, 2, [(0, 1)], random.Random(1), allowed=lambda j, name: j > 0 or name == "resolve_wine_name")
    assert chain.calls[0].tool == "resolve_wine_name"


PLACES_TOOLBOX = '''
    import random
    from typing import Annotated
    from factory.toolbox import Kind, Toolbox, World

    toolbox = Toolbox()
    POINTS = [(48.85, 2.35), (35.68, 139.65), (-33.87, 151.21)]

    @toolbox.world
    def build(rng: random.Random) -> World:
        return World()

    @toolbox.values_for("latitude")
    def lats(w: World) -> list[float]:
        return [p[0] for p in POINTS]

    @toolbox.values_for("longitude")
    def lons(w: World) -> list[float]:
        return [p[1] for p in POINTS]

    @toolbox.values_for("latitude", "longitude")
    def points(w: World) -> list[tuple[float, float]]:
        return list(POINTS)

    @toolbox.tool(asks="name the city at {lat}, {lon}")
    def city_at(lat: Annotated[float, Kind("latitude")], lon: Annotated[float, Kind("longitude")]) -> str:
        """Name the city at a point.

        Args:
            lat: Latitude.
            lon: Longitude.

        Returns:
            city: the city there.
        """
        return {48.85: "Paris", 35.68: "Tokyo", -33.87: "Sydney"}[lat]
'''


def test_joint_generators_keep_values_that_belong_together(tmp_path):
    from factory.seeds.library import load_seed
    from tests.conftest import write_seed

    seed = load_seed(write_seed(tmp_path, "places", PLACES_TOOLBOX))
    world = base_world(seed, 0)
    pool = ToolPool(seed.specs, {"places": {k: f(world) for k, f in seed.toolbox.values.items()}},
                    {"places": {k: f(world) for k, f in seed.toolbox.joint_values.items()}})
    drawn = set()
    for k in range(60):
        args = compose(pool, 1, [], random.Random(k)).calls[0].arguments
        drawn.add((args["lat"].value, args["lon"].value))
    assert drawn == {(48.85, 2.35), (35.68, 139.65), (-33.87, 151.21)}  # never a mixed-up pair


def test_nested_coordinates_come_from_one_producing_call():
    from pathlib import Path

    from factory.seeds.checks import library_pool

    seeds = load_seeds(Path(resource_dir("seeds")))
    pool = library_pool(seeds, slugs=["maps_places", "weather"])
    checked = 0
    for k in range(200):
        chain = compose(pool, 2, [(0, 1)], random.Random(k))
        if chain is None:
            continue
        producers = chain.producers()
        for call in chain.calls:
            for group in pool.groups[call.tool]:
                args = [call.arguments.get(p) for p in group.params]
                if any(isinstance(a, Ref) for a in args):
                    checked += 1
                    assert all(isinstance(a, Ref) for a in args)  # never a literal half
                    assert len({producers[a.ref] for a in args}) == 1  # one place, not two
    assert checked >= 10


def test_a_self_evident_canonicaliser_is_never_composed():
    """"11 June 2025" is 2025-06-11 to anyone: a chain that calls parse_date_text first is a
    detour that an agent writing the date itself would be marked down for."""
    from pathlib import Path

    from factory.seeds.checks import library_pool

    seeds = load_seeds(Path(resource_dir("seeds")))
    pool = library_pool(seeds, slugs=["time_and_date"])
    assert "self_evident" in pool.entry("parse_date_text").tags
    drawn = [compose(pool, 2, [(0, 1)], random.Random(k)) for k in range(150)]
    tools = {c.tool for chain in drawn if chain for c in chain.calls}
    assert "resolve_relative_time" in tools and "parse_date_text" not in tools


EXAMPLES_TOOLBOX = '''
    import random
    from typing import Annotated
    from factory.toolbox import Kind, Toolbox, World

    toolbox = Toolbox()

    @toolbox.world
    def build(rng: random.Random) -> World:
        return World()

    @toolbox.values_for("city")
    def cities(w: World) -> list[str]:
        return ["Lyon", "Paris", "Tokyo"]

    @toolbox.values_for("code")
    def codes(w: World) -> list[str]:
        return ["AB-1"]

    @toolbox.tool(asks="check the weather in {city}")
    def weather(city: Annotated[str, Kind("city")]) -> float:
        """The temperature in a city.

        Args:
            city: City name, e.g. "Paris".

        Returns:
            temperature: in degrees.
        """
        return 20.0

    @toolbox.tool(asks="look up {code}")
    def lookup(code: Annotated[str, Kind("code")]) -> str:
        """Look up a code.

        Args:
            code: The code, e.g. "AB-1" (the only one there is).

        Returns:
            name: what it names.
        """
        return "x"
'''


def test_literals_are_never_a_documented_example_when_another_value_can_be_had(tmp_path):
    """'city: City name, e.g. "Paris"': an agent could copy Paris from the description without
    reading the request, so the composer draws Lyon or Tokyo; a parameter whose only value is
    its example still gets it (the faithfulness check then rejects the instance)."""
    from factory.seeds.library import load_seed
    from tests.conftest import write_seed

    seed = load_seed(write_seed(tmp_path, "examples", EXAMPLES_TOOLBOX))
    world = base_world(seed, 0)
    pool = ToolPool(seed.specs, {"examples": {k: f(world) for k, f in seed.toolbox.values.items()}})
    cities, codes = set(), set()
    for k in range(40):
        for call in compose(pool, 1, [], random.Random(k)).calls:
            (cities if call.tool == "weather" else codes).add(call.arguments[next(iter(call.arguments))].value)
    assert cities == {"Lyon", "Tokyo"} and codes == {"AB-1"}


def test_no_call_finds_again_what_a_call_feeding_it_returned():
    """The nearest city's country, geocoded again from that city: once run, the second call
    finds only what the first returned. The composer leaves such chains out."""
    from factory.chains.detours import re_derives
    from factory.seeds.checks import library_pool

    seeds = load_seeds(Path(resource_dir("seeds")))
    pool = library_pool(seeds, slugs=["maps_places", "travel"])
    composed = 0
    for k in range(120):
        chain = compose(pool, 3, [(0, 1), (1, 2)], random.Random(k))
        if chain is None:
            continue
        composed += 1
        producers = chain.producers()
        for j, call in enumerate(chain.calls):
            consumed = {(o.kind, o.role) for c in chain.calls for a in c.arguments.values() if isinstance(a, Ref)
                        and producers[a.ref] == j for o in [pool.specs[call.tool].returns[call.outputs.index(a.ref)]]}
            feeders = {producers[a.ref] for a in call.arguments.values() if isinstance(a, Ref)}
            for i in feeders | {producers[a.ref] for f in feeders for a in chain.calls[f].arguments.values() if isinstance(a, Ref)}:
                assert not consumed or not consumed <= {(o.kind, o.role) for o in pool.specs[chain.calls[i].tool].returns}, chain
    assert composed >= 60
    nearest, geocode = pool.specs["get_nearest_city"], pool.specs["geocode_city"]
    bindings = [{}, {"city": (0, 0)}, {"country": (1, 2)}]
    assert re_derives(pool, [nearest.name, geocode.name, "get_travel_advisory"], bindings)


def test_no_call_given_a_city_is_made_only_for_its_country():
    """Mumbai's country, found by the tool that gives its UTC offset, only to count working days
    there: people know it, and the composer leaves such chains out; the offset itself is news."""
    from factory.chains.detours import finds_what_people_know
    from factory.checks.policy import load_policy
    from factory.seeds.checks import library_pool

    seeds = load_seeds(Path(resource_dir("seeds")))
    pool = library_pool(seeds, slugs=["time_and_date"])
    tools = ["get_city_utc_offset", "count_business_days"]
    assert not finds_what_people_know(pool, tools, [{}, {"country": (0, 1)}])  # no policy: nothing is known
    pool.limits = dict(load_policy(Path(resource_dir("validators"))).checks["plausibility"].model_extra)
    assert finds_what_people_know(pool, tools, [{}, {"country": (0, 1)}])
    for k in range(80):
        chain = compose(pool, 2, [(0, 1)], random.Random(k), allowed=lambda j, name: j > 0 or name == tools[0])
        assert chain is None or not isinstance(chain.calls[1].arguments.get("country"), Ref), chain


def test_a_choice_among_words_is_the_one_made_before():
    """The sick-leave balance, then sick leave filed, not personal leave (reading 24 #15): a
    leave type, which has no kind, is drawn as the chain already chose it; and a salary band
    is for the named employee's own job."""
    from factory.chains.literals import Known, draw_arguments
    from factory.seeds.checks import library_pool

    seeds = load_seeds(Path(resource_dir("seeds")))
    pool = library_pool(seeds, slugs=["hr_payroll"])
    balance, leave, band = (pool.specs[t] for t in ("get_leave_balance", "request_leave", "get_salary_band"))
    world = base_world(seeds["hr_payroll"], 0)
    for k in range(20):
        rng, known = random.Random(k), Known()
        asked = draw_arguments(pool, balance, set(), known, True, rng)
        filed = draw_arguments(pool, leave, set(), known, True, rng)
        assert filed["leave_type"] == asked["leave_type"] and filed["employee_id"] == asked["employee_id"]
        if world.employees[asked["employee_id"]]["title"] in pool.options(band, band.param("job_title")):
            paid = draw_arguments(pool, band, {"country"}, known, True, rng)
            assert paid["job_title"] == world.employees[asked["employee_id"]]["title"]


def test_a_booking_says_how_long_it_is_for_and_a_price_its_currency():
    """"Book me a reading room from the time it opens" leaves its length to the agent, which a
    scorer of arguments marks down for choosing one (reading 55 #10): a call that changes the
    world is given every optional argument its wording can state; so is a call whose optional
    argument sets the currency of what it returns ("what are all the shares of RHPH worth",
    quoted in euros, took the tool's US dollars: reading 79 #34); a lookup's other optional
    arguments only now and then."""
    from factory.chains.literals import Known, draw_arguments
    from factory.seeds.checks import library_pool

    seeds = load_seeds(Path(resource_dir("seeds")))
    pool = library_pool(seeds, slugs=["library_science", "travel", "finance_stocks"])
    room, compare = pool.specs["reserve_reading_room"], pool.specs["compare_hotel_prices"]
    drawn = [draw_arguments(pool, room, {"branch", "start"}, Known(), True, random.Random(k)) for k in range(20)]
    assert all(d is not None and "hours" in d for d in drawn)
    for spec, bound in ((compare, {"hotel_ids"}), (pool.specs["get_market_cap"], set())):
        for asked in (True, False):  # a call drawn as nested may be asked all the same (before a booking)
            given = [draw_arguments(pool, spec, bound, Known(), asked, random.Random(k)) for k in range(20)]
            assert all(g is not None and "currency" in g for g in given)
    hotels = pool.specs["search_hotels"]
    given = [draw_arguments(pool, hotels, set(), Known(), True, random.Random(k)) for k in range(40)]
    assert any(g is not None and "min_stars" not in g for g in given) and any(g and "min_stars" in g for g in given)


def test_an_order_uses_the_coupon_the_chain_checked():
    """A coupon is given to an order now and then, and always when the chain checked one: "does
    TECH15 apply to item X? ... order 1 unit of that item" was charged the full price (reading
    85 #26). Left out, it is no coupon, so an order is not given one whenever its wording can say it."""
    from factory.chains.literals import Known, draw_arguments
    from factory.seeds.checks import library_pool
    from factory.toolbox.sense import violations

    pool = library_pool(load_seeds(Path(resource_dir("seeds"))), slugs=["ecommerce"])
    check, order = pool.specs["validate_coupon"], pool.specs["place_order"]
    plain = [draw_arguments(pool, order, set(), Known(), True, random.Random(k)) for k in range(40)]
    assert any("coupon_code" not in d for d in plain) and any("coupon_code" in d for d in plain)
    covered = 0
    for k in range(60):
        rng, known = random.Random(k), Known()
        checked = draw_arguments(pool, check, set(), known, True, rng)
        ordered = draw_arguments(pool, order, set(), known, True, rng)
        assert ordered is not None and "coupon_code" in ordered
        if not violations(pool.entry("place_order").sense, checked, pool.limits):
            covered += 1  # (one that does not cover the product: the plausibility check's `informs` rule)
            assert (ordered["coupon_code"], ordered["sku"]) == (checked["coupon_code"], checked["sku"]), (checked, ordered)
    assert covered >= 5, covered


def test_today_is_not_drawn_as_a_literal_day():
    """"The hottest city in Italy on Friday, June 13, 2025", said on that very day, reads as a
    form, not a person (reading 27 #30): days are drawn from the others."""
    from factory.chains.pool import TODAY
    from factory.seeds.checks import library_pool

    pool = library_pool(load_seeds(Path(resource_dir("seeds"))), slugs=["weather"])
    spec = pool.specs["find_hottest_city"]
    days = pool.options(spec, spec.param("date"))
    assert days and TODAY not in days
