"""Each plausibility rule passes a sensible request and rejects the absurd one it exists for,
and the composer obeys the same rules while it builds chains."""

import random
from datetime import date, timedelta
from pathlib import Path

import pytest

from factory import __version__
from factory.chains.code import parse_chain
from factory.chains.composer import compose
from factory.checks.context import CheckContext
from factory.checks.plausibility import plausibility_problems
from factory.checks.policy import load_policy
from factory.config import resource_dir
from factory.records import Instance, Provenance, WorldSetup
from factory.seeds.checks import library_pool
from factory.seeds.library import load_seed, load_seeds
from factory.toolbox.gazetteer import NOW
from factory.toolbox.user import USER
from factory.world.simulator import Simulator, base_world, run_chain
from tests.conftest import write_seed
from tests.seeds.toolbox_helpers import chain_problems

TRIPS = '''
    import random
    from dataclasses import dataclass
    from typing import Annotated, Literal
    from factory.toolbox.sense import distinct, trip, within, together
    from factory.toolbox import Kind, Toolbox, World, world

    toolbox = Toolbox()
    City = Annotated[str, Kind("city")]
    Lat = Annotated[float, Kind("latitude")]
    Lon = Annotated[float, Kind("longitude")]
    PLACES = {"Paris": (48.8566, 2.3522), "Lyon": (45.764, 4.8357), "Tokyo": (35.6762, 139.6503)}
    HOTELS = {"H-PAR": "Paris", "H-TOK": "Tokyo"}

    @toolbox.world
    def build(rng: random.Random) -> World:
        return World(state={"home": "Paris"})

    @toolbox.values_for("city")
    def cities(w): return sorted(PLACES)

    @toolbox.values_for("hotel_id")
    def hotels(w): return sorted(HOTELS)

    @toolbox.values_for("latitude", "longitude")
    def points(w): return [PLACES[c] for c in sorted(PLACES)]

    @toolbox.facts_about("hotel_id")
    def hotel_facts(w, hotel): return {"city": HOTELS[hotel]}

    @toolbox.tool(asks=("where is {city}?", "locate {city}", "find {city} on the map"),
                  gives={"latitude,longitude": "the centre of {city}"})
    def locate(city: City) -> tuple[Lat, Lon]:
        """Centre of a city.

        Args:
            city: The city.

        Returns:
            latitude: its latitude.
            longitude: its longitude.
        """
        return PLACES[city]

    @toolbox.tool(asks=("how long from {start} to {end} by {mode}?", "time a trip from {start} to {end} by {mode}",
                        "estimate the {mode} time from {start} to {end}"),
                  groups={"start": "{from_lat}, {from_lon}", "end": "{to_lat}, {to_lon}"},
                  sense=(trip(start=("from_lat", "from_lon"), end=("to_lat", "to_lon"), mode="mode"),))
    def travel_time(from_lat: Lat, from_lon: Lon, to_lat: Lat, to_lon: Lon,
                    mode: Literal["walking", "driving"]) -> int:
        """Minutes between two points.

        Args:
            from_lat: Start latitude.
            from_lon: Start longitude.
            to_lat: End latitude.
            to_lon: End longitude.
            mode: How.

        Returns:
            minutes: the time.
        """
        return 10 + round(60 * (abs(from_lat - to_lat) + abs(from_lon - to_lon)))

    @toolbox.tool(asks=("move my home to {city}", "make {city} my home", "set my home city to {city}"),
                  tags=("state_change",))
    def move_home(city: City) -> str:
        """Set the home city.

        Args:
            city: The new home.

        Returns:
            home: the home city now.
        """
        world().state["home"] = city
        return city

    @toolbox.tool(asks=("which city is {hotel_id} in?", "find the city of {hotel_id}", "where is {hotel_id}?"),
                  gives={"city": "the city of {hotel_id}"})
    def hotel_city(hotel_id: Annotated[str, Kind("hotel_id")]) -> City:
        """City of a hotel.

        Args:
            hotel_id: The hotel.

        Returns:
            city: its city.
        """
        return HOTELS[hotel_id]

    @toolbox.tool(asks=("how far is {a} from {b}?", "distance from {a} to {b}", "measure {a} to {b}"),
                  sense=(distinct("a", "b"),))
    def distance(a: City, b: City) -> float:
        """Distance between cities.

        Args:
            a: One city.
            b: Another.

        Returns:
            km: the distance.
        """
        return 1.0

    @toolbox.tool(asks=("order {n} maps of {city}", "buy {n} maps of {city}", "get me {n} maps of {city}"),
                  sense=(within("n", 1, 5),))
    def buy_maps(city: City, n: int) -> float:
        """Buy maps.

        Args:
            city: Of which city.
            n: How many.

        Returns:
            price: the price.
        """
        return 2.0 * n

    @toolbox.tool(asks=("what city is at {lat}, {lon}?", "name the city at {lat}, {lon}", "which city lies at {lat}, {lon}?"))
    def city_at(lat: Lat, lon: Lon) -> City:
        """The city at a point.

        Args:
            lat: Latitude.
            lon: Longitude.

        Returns:
            city: the city there.
        """
        return next(c for c, p in PLACES.items() if p == (lat, lon))

    @toolbox.tool(asks=("compare {x} and {y}", "relate {x} to {y}", "combine {x} with {y}"),
                  sense=(together("x", "y"),))
    def combine(x: Lat, y: Lon) -> float:
        """Combine two numbers.

        Args:
            x: One.
            y: Other.

        Returns:
            z: result.
        """
        return x + y
'''


@pytest.fixture(scope="module")
def trips(tmp_path_factory):
    seed = load_seed(write_seed(tmp_path_factory.mktemp("seeds"), "trips", TRIPS))
    ctx = CheckContext({"trips": seed}, load_policy(Path(resource_dir("validators"))))
    return seed, ctx


def instance(seed, code):
    chain = parse_chain(code, seed.specs)
    setup = WorldSetup(toolboxes=["trips"], seed=0)
    trace = run_chain(chain, seed.specs, Simulator({"trips": seed}, setup))
    assert trace.ok, trace
    return Instance(domain="Trips", query="q", tools=[seed.specs[c.tool] for c in chain.calls],
                    gold_tools=[c.tool for c in chain.calls], chain=chain, trace=trace, depth=chain.depth(),
                    shape=chain.shape(), world=setup, provenance=Provenance(generator="t", seed=0, attempt=0,
                                                                             factory_version=__version__))


def problems(trips, code):
    seed, ctx = trips
    return plausibility_problems(instance(seed, code), ctx)


def test_sensible_requests_pass(trips):
    assert problems(trips, 'a, b = locate(city="Paris")\nm = travel_time(from_lat=a, from_lon=b, to_lat=48.87, to_lon=2.33, mode="walking")') == []
    assert problems(trips, 'c = hotel_city(hotel_id="H-TOK")\np = buy_maps(city=c, n=2)') == []


def test_trip_rule_rejects_walking_between_countries(trips):
    found = problems(trips, 'a, b = locate(city="Tokyo")\nm = travel_time(from_lat=a, from_lon=b, to_lat=48.8566, to_lon=2.3522, mode="walking")')
    assert found and found[0].startswith("sense:") and "trip" in found[0] and "km by walking" in found[0]


def test_group_rule_rejects_a_point_with_a_literal_half(trips):
    found = problems(trips, 'a, b = locate(city="Paris")\nm = travel_time(from_lat=a, from_lon=2.35, to_lat=48.85, to_lon=2.35, mode="driving")')
    assert any(p.startswith("group:") and "literal and nested" in p for p in found)


def test_distinct_and_within_rules(trips):
    assert any("distinct" in p for p in problems(trips, 'd = distance(a="Lyon", b="Lyon")'))
    assert any("within" in p and "n=40" in p for p in problems(trips, 'p = buy_maps(city="Lyon", n=40)'))


def test_together_rule_wants_nested_values_about_the_same_thing(trips):
    same = 'a, b = locate(city="Lyon")\nz = combine(x=a, y=b)'
    assert problems(trips, same) == []
    apart = 'a, b = locate(city="Lyon")\nc, d = locate(city="Tokyo")\nz = combine(x=a, y=d)'
    assert any("together" in p for p in problems(trips, apart.replace("c, d = locate", "c, d = locate")))


def test_no_op_rule_rejects_an_action_that_changes_nothing(trips):
    assert any(p.startswith("no_op:") for p in problems(trips, 'h = move_home(city="Paris")'))
    assert problems(trips, 'h = move_home(city="Lyon")') == []


def test_unrelated_rule_wants_independent_parts_to_share_a_thing(trips):
    assert problems(trips, 'a, b = locate(city="Lyon")\np = buy_maps(city="Lyon", n=2)') == []
    found = problems(trips, 'a, b = locate(city="Lyon")\np = buy_maps(city="Tokyo", n=2)')
    assert any(p.startswith("unrelated:") for p in found)


def test_coherent_rule_rejects_literals_that_contradict_each_others_facts(trips):
    found = problems(trips, 'c = hotel_city(hotel_id="H-TOK")\np = buy_maps(city="Paris", n=1)')
    assert any(p.startswith("coherent:") and "'Tokyo'" in p for p in found)


def test_link_rule_rejects_a_role_mismatch(tmp_path):
    code = TRIPS.replace('def hotel_city(hotel_id: Annotated[str, Kind("hotel_id")]) -> City:',
                         'def hotel_city(hotel_id: Annotated[str, Kind("hotel_id")]) -> Annotated[str, Kind("city", role="hotel")]:')
    seed = load_seed(write_seed(tmp_path, "trips", code))
    ctx = CheckContext({"trips": seed}, load_policy(Path(resource_dir("validators"))))
    found = plausibility_problems(instance(seed, 'c = hotel_city(hotel_id="H-TOK")\np = buy_maps(city=c, n=1)'), ctx)
    assert any(p.startswith("link:") for p in found)


def test_policy_can_skip_a_rule(trips, tmp_path):
    seed, _ = trips
    (tmp_path / "default.toml").write_text(Path(resource_dir("validators"), "default.toml").read_text()
                                           .replace("skip = []", 'skip = ["no_op"]'))
    ctx = CheckContext({"trips": seed}, load_policy(tmp_path))
    assert plausibility_problems(instance(seed, 'h = move_home(city="Paris")'), ctx) == []


def test_the_composer_obeys_the_rules_it_can_see_before_execution(trips):
    seed, ctx = trips
    pool = library_pool({"trips": seed})
    pool.limits = dict(ctx.policy.checks["plausibility"].model_extra)
    for k in range(60):
        for shape in ([(0, 1)], []):
            chain = compose(pool, 2, shape, random.Random(k))
            if chain is None:
                continue
            found = plausibility_problems(instance(seed, render(chain)), ctx)
            assert not [p for p in found if p.split(":")[0] in ("group", "coherent", "unrelated")], found
            assert not [p for p in found if "distinct" in p or "within" in p], found


def render(chain):
    from factory.chains.code import render_chain

    return render_chain(chain)


def test_undone_rule_rejects_actions_that_cancel_out(trips):
    assert any(p.startswith("undone:") for p in problems(trips, 'a = move_home(city="Lyon")\nb = move_home(city="Paris")'))
    assert not any(p.startswith("undone:") for p in problems(trips, 'a = move_home(city="Lyon")\nb = move_home(city="Tokyo")'))


def test_round_trip_rule_rejects_a_call_that_gives_back_what_the_user_said(trips):
    found = problems(trips, 'a, b = locate(city="Lyon")\nc = city_at(lat=a, lon=b)')
    assert any(p.startswith("round_trip:") and "'Lyon'" in p for p in found)
    assert not any(p.startswith("round_trip:") for p in problems(trips, 'a, b = locate(city="Lyon")\nc = city_at(lat=48.8566, lon=2.3522)'))


def test_round_trip_rule_rejects_asking_for_the_city_of_an_airport_named_by_its_city():
    """"What code does Bangalore go by, and which city is that airport in?" asks for what it
    says; the city of "John F. Kennedy" is news."""
    travel = {"travel": load_seed(Path(resource_dir("seeds")) / "travel")}

    def round_trip(place):
        code = f'i, c = lookup_airport_code(place="{place}")'
        found = chain_problems(travel, code, asked={0}, query=f'What code does "{place}" go by, and which city is it in?')
        return [p for p in found if p.startswith("round_trip:")]

    assert round_trip("Bangalore")
    assert not round_trip("John F. Kennedy")


def seed_problems(slug, code, world_seed=0, withheld=None):
    """Plausibility problems of a chain of one real seed, run in its world."""
    seed = load_seed(Path(resource_dir("seeds")) / slug)
    return chain_problems({slug: seed}, code, world_seed=world_seed, withheld=withheld)


def test_together_knows_a_value_by_what_its_call_returned_beside_it():
    """The hottest city's temperature and the wind in another city share only the day as
    literals; the city returned beside the temperature tells them apart."""
    same = ('c, t = find_hottest_city(country="Australia", date="2025-06-14")\n'
            'w, d = get_wind_forecast(city=c, date="2025-06-14")\n'
            'f = calculate_feels_like(temperature_c=t, wind_speed_kmh=w)')
    assert not any("together" in p for p in seed_problems("weather", same))
    apart = same.replace("get_wind_forecast(city=c,", 'get_wind_forecast(city="Tokyo",')
    assert any("together" in p and "temperature_c and wind_speed_kmh" in p for p in seed_problems("weather", apart))


def test_a_reading_of_now_is_not_paired_with_a_forecast_for_another_day():
    """The temperature in Nairobi right now and the wind there in nine days make no feels-like
    temperature; the wind today does, as do an hourly forecast and the wind of its own day."""
    today = NOW.date().isoformat()
    now = ('t, c, h = get_current_weather(city="Nairobi")\n'
           f'w, d = get_wind_forecast(city="Nairobi", date="{today}")\n'
           'f = calculate_feels_like(temperature_c=t, wind_speed_kmh=w)')
    assert not any("together" in p for p in seed_problems("weather", now))
    later = now.replace(today, "2025-06-22")
    assert any("together" in p for p in seed_problems("weather", later))
    hourly = ('t, p = get_hourly_forecast(city="Nairobi", when="2025-06-22T14:00")\n'
              'w, d = get_wind_forecast(city="Nairobi", date="2025-06-22")\n'
              'f = calculate_feels_like(temperature_c=t, wind_speed_kmh=w)')
    assert not any("together" in p for p in seed_problems("weather", hourly))
    assert any("together" in p for p in seed_problems("weather", hourly.replace('date="2025-06-22"', 'date="2025-06-23"')))


def test_same_day_wants_a_time_on_the_day_its_nested_inputs_were_found_for():
    """The hourly forecast of the hottest city on Saturday is for Saturday, not for a Monday;
    the day counts whether it came as a literal or from an earlier call."""
    saturday = ('d = resolve_forecast_date(expression="next saturday")\n'
                'c, t = find_hottest_city(country="Spain", date=d)\n'
                'x, y = get_hourly_forecast(city=c, when="2025-06-14T21:00")')
    assert seed_problems("weather", saturday) == []
    monday = saturday.replace("2025-06-14T21:00", "2025-06-09T21:00")
    assert any("same_day" in p and "2025-06-14" in p for p in seed_problems("weather", monday))
    literal_city = ('c, t = find_hottest_city(country="Spain", date="2025-06-14")\n'
                    'x, y = get_hourly_forecast(city="Madrid", when="2025-06-09T21:00")')
    assert not any("same_day" in p for p in seed_problems("weather", literal_city))  # nothing nested: no day to keep
    report = ('c, d, s = search_weather(query="will it rain in Vancouver in 3 days?")\n'
              'x, y = get_hourly_forecast(city=c, when="2025-06-12T17:45")')
    assert any("same_day" in p and "2025-06-16" in p for p in seed_problems("weather", report))  # the day it returned
    hottest_then_air = ('d = resolve_forecast_date(expression="june 20")\n'
                        'c, t = find_hottest_city(country="Japan", date=d)\n'
                        'a, b, p = get_air_quality(city=c, date="2025-06-25")')
    assert any("same_day" in p and "get_air_quality" in p for p in seed_problems("weather", hottest_then_air))
    assert seed_problems("weather", hottest_then_air.replace('"2025-06-25"', "d")) == []


def test_forecasts_are_for_days_to_come():
    """Kite-flying with the kids in Bangalore "the day before yesterday": a forecast tool fed a
    past day reads absurd, whether the day was stated or resolved from the user's words."""
    past = ('d = resolve_forecast_date(expression="the day before yesterday")\n'
            'w, b = get_wind_forecast(city="Bangalore", date=d)')
    assert any("around" in p and "get_wind_forecast" in p for p in seed_problems("weather", past))
    assert seed_problems("weather", past.replace("the day before yesterday", "next saturday")) == []
    issued = 'x, y = get_hourly_forecast(city="Berlin", when="2025-06-11T06:00")'
    assert any("around" in p and "get_hourly_forecast" in p for p in seed_problems("weather", issued))


def test_completable_parts_must_not_depend_on_what_the_withheld_call_changes():
    """A checkout that is never made leaves the book on the shelf: an item whose completable
    part would then answer differently is not honest, whatever the gold trace says."""
    def withheld_problems(code):
        found = seed_problems("library_science", code, world_seed=11, withheld="checkout_book")
        return [p for p in found if p.startswith("withheld:")]

    drift = ('data0, data1 = checkout_book(isbn="9781581426601")\n'
             'data2, data3 = scan_isbn(isbn="9781581426601")\n'
             'data4, data5 = get_branch_hours(branch="Singapore Marina Branch", date=data1)\n')
    found = withheld_problems(drift)
    assert any("scan_isbn gives another result when checkout_book is not called" in p for p in found), found
    steady = drift.replace('data2, data3 = scan_isbn(isbn="9781581426601")', 'data2, data3 = locate_book(title="Foundations of Classical Mechanics")')
    assert not any("another result" in p for p in withheld_problems(steady))


def test_a_slot_found_for_one_doctor_moves_only_that_doctors_appointment():
    """Ingrid Garcia's first free slot is no time to move an appointment with another doctor
    to (reading 16 #39); with the appointment's own doctor it is."""
    appointments = load_seed(Path(resource_dir("seeds")) / "healthcare").build_world(0).state["appointments"]
    doctor = appointments["APT-5004"]["doctor_id"]
    other = next(a for a, row in sorted(appointments.items()) if row["doctor_id"] != doctor)

    def together(appointment):
        code = (f's, d = get_next_available_slot(doctor_id="{doctor}", day="2025-06-20")\n'
                f'p, o, n = reschedule_appointment(appointment_id="{appointment}", new_slot=s)')
        return [p for p in seed_problems("healthcare", code) if "together" in p]

    assert together("APT-5004") == []
    assert any("reschedule_appointment" in p for p in together(other)), together(other)


def test_an_offered_list_that_holds_the_withheld_value_makes_the_item_solvable():
    """Without get_next_public_holiday, Singapore's 2025 holidays (asked of the year of the day
    given) still show the first one from August 15: the item is not insufficient."""
    def withheld_problems(code):
        found = seed_problems("time_and_date", code, withheld="get_next_public_holiday")
        return [p for p in found if p.startswith("withheld:")]

    listed = ('a, b = get_next_public_holiday(country="Singapore", after="2025-08-15")\n'
              'c = list_public_holidays(country="Singapore", year=2026)\n'
              'd, e = is_public_holiday(date=b, country="South Africa")\n')
    assert any("list_public_holidays gives what gold call 1" in p for p in withheld_problems(listed))
    unlisted = listed.replace('c = list_public_holidays(country="Singapore", year=2026)',
                              'c, f = get_sunrise_sunset(city="Singapore", date="2025-08-15")')
    assert not any("gives what gold call 1" in p for p in withheld_problems(unlisted))


def test_a_tool_run_on_its_own_example_that_tells_the_withheld_day_is_an_alternative():
    """Without the clock, "10 business days from today" is still within reach: moving the home
    city to the example its description gives (Berlin) answers with the local date and time."""
    from factory.chains.code import parse_chain
    from factory.instances.distractors import alternative_to_gold
    from factory.records import WorldSetup
    from factory.world.simulator import Simulator, run_chain

    seed = load_seed(Path(resource_dir("seeds")) / "time_and_date")
    seeds = {"time_and_date": seed}
    chain = parse_chain('t, d, c = get_current_local_datetime()\n'
                        'e = add_business_days(start=d, days=10, country="Mexico")', seed.specs)
    setup = WorldSetup(toolboxes=["time_and_date"], seed=0)
    trace = run_chain(chain, seed.specs, Simulator(seeds, setup))
    home = seed.specs["set_home_city"]

    def probe(examples):
        return alternative_to_gold(home, chain, trace, seed.specs, lambda: Simulator(seeds, setup), calls={0},
                                   examples=examples)

    assert probe(False) is None  # nothing of the clock's call maps onto a city
    assert "set_home_city gives what gold call 1" in probe(True)


def test_a_phone_number_tells_the_country_a_withheld_tool_was_to_give():
    """Without the contact's city and country, Lucas Martin's number (+46) still says Sweden:
    the item is not insufficient. Maria Lopez's (+1: the USA or Canada) says neither."""

    seeds = load_seeds(Path(resource_dir("seeds")))
    chosen = {slug: seeds[slug] for slug in ("phone_assistant", "weather")}

    def withheld_problems(name):
        code = (f'c, k = get_contact_city(name="{name}")\n'
                f'p = get_contact_phone(name="{name}")\n'
                'a, t, y = get_severe_weather_alerts(country=k)')
        found = chain_problems(chosen, code, withheld="get_contact_city")
        return [p for p in found if p.startswith("withheld:") and "get_contact_phone gives" in p]

    assert withheld_problems("Lucas Martin")
    assert not withheld_problems("Maria Lopez")


def test_a_withheld_place_a_search_or_an_id_gives_away_leaves_nothing_missing():
    """Searching the contacts for "maria schmidt <city>" finds her only in her own city, and the
    warehouse nearest Cape Town is WH-CPT: either confirms a guess of what the withheld call was
    to give (reading 26 #17, #18)."""
    seeds = load_seeds(Path(resource_dir("seeds")))
    contacts = {slug: seeds[slug] for slug in ("phone_assistant", "time_and_date")}
    code = ('p = get_contact_phone(name="Maria Schmidt")\n'
            'c, k = get_contact_city(name="Maria Schmidt")\n'
            't = get_local_time_in(city=c)')
    found = chain_problems(contacts, code, withheld="get_contact_city", offered=("search_contacts",))
    assert any("search_contacts confirms a guess of" in p for p in found), found
    assert not any("confirms a guess" in p for p in chain_problems(contacts, code, withheld="get_contact_city"))
    stock = ('w, d = find_nearest_warehouse(city="{city}")\n'
             's = lookup_inventory_sku(product="cordless drills")\n'
             'u, r = get_warehouse_stock(sku=s, warehouse_id=w)')
    logistics = {"logistics": seeds["logistics"]}

    def guessed(city):
        found = chain_problems(logistics, stock.format(city=city), withheld="find_nearest_warehouse",
                               query=f"Is there a warehouse near {city}?")
        return [p for p in found if "a guess an offered tool confirms" in p]

    assert any("'WH-CPT', the one in Cape Town" in p for p in guessed("Cape Town"))
    assert any("'WH-NYC', the one in New York" in p for p in guessed("New York"))  # a code, not a spelling
    assert guessed("Lyon") == []


def test_a_request_does_not_ask_for_an_item_and_for_the_list_that_holds_it():
    """"The first holiday in Italy from August 1, and which holidays fall in 2025?": the list
    already says Assumption Day (reading 27 #30); the holidays of 2026 do not."""
    seeds = {"time_and_date": load_seed(Path(resource_dir("seeds")) / "time_and_date")}
    code = ('h, d = get_next_public_holiday(country="Italy", after="2025-08-01")\n'
            'l = list_public_holidays(country="Italy", year={year})')
    found = chain_problems(seeds, code.format(year=2025), asked={0, 1})
    assert any("asks what an entry of call 2's list already says" in p for p in found), found
    assert not any("entry of call" in p for p in chain_problems(seeds, code.format(year=2026), asked={0, 1}))


def test_nobody_asks_the_country_of_their_own_home_city():
    """"How far off UTC is my home city, and in which country is it?" (reading 26 #16); the
    time there of a moment elsewhere is a fair question."""
    seeds = {"time_and_date": load_seed(Path(resource_dir("seeds")) / "time_and_date")}
    code = ('n, t, h = get_current_local_datetime()\n'
            'o, c = get_city_utc_offset(city=h)\n'
            'm = convert_time_between_cities(moment="2025-06-04T07:00", from_city="Melbourne", to_city=h)')
    found = chain_problems(seeds, code, asked={1, 2})
    assert any("country of the person's own home city" in p for p in found), found
    assert not any("own home city" in p for p in chain_problems(seeds, code, asked={2}))


_HOLIDAY_THEN_MONDAY = ('h, d = get_next_public_holiday(country="Singapore", after="2025-08-14")\n'
                        'w = get_next_weekday_date(weekday="Monday", after=d)')


@pytest.mark.parametrize("seed, code, withheld, offered", [
    # checking the calendar at 09:00, 09:30, ... for the same 30 minutes finds the gap (reading 28 #35)
    ("calendar_reminders", 's, m = find_free_slot(date="2025-06-23", duration_minutes=30)\n'
                           'e = create_event(title="Parent-teacher meeting", start=s, duration_minutes=m, city="San Francisco")',
     "find_free_slot", "check_availability"),
    # business days from August 14 to October 19, then to October 20: halving the span finds the holiday (reading 36 #17)
    ("time_and_date", _HOLIDAY_THEN_MONDAY, "get_next_public_holiday", "count_business_days"),
    # 47 business days on, then 48; or each day asked (reading 41 #18)
    ("time_and_date", _HOLIDAY_THEN_MONDAY, "get_next_public_holiday", "add_business_days"),
    ("time_and_date", _HOLIDAY_THEN_MONDAY, "get_next_public_holiday", "is_public_holiday"),
])
def test_a_withheld_moment_an_offered_tool_probes_for_leaves_nothing_missing(seed, code, withheld, offered):
    """Without the tool that finds a day or a time, an offered tool that checks, counts or steps
    one moment at a time finds it; without such a tool nothing does."""
    seeds = {seed: load_seed(Path(resource_dir("seeds")) / seed)}
    probed = [p for p in chain_problems(seeds, code, withheld=withheld, offered=(offered,)) if "probing it finds" in p]
    assert probed and offered in probed[0], probed
    assert not [p for p in chain_problems(seeds, code, withheld=withheld) if "probing" in p]


@pytest.mark.parametrize("seed, code, withheld, offered", [
    # each of the five hotels checked for the same 7 nights gives the cheapest (reading 32 #11)
    ("travel", 'h, n = search_hotels(city="Cairo")\n'
               'c, t, d, k, m = compare_hotel_prices(hotel_ids=h, check_in="2025-06-25", nights=7)',
     "compare_hotel_prices", "check_room_availability"),
    # the forecast of each city of Australia for June 20: people know a country's cities (reading 35 #17)
    ("weather", 'c, h = find_hottest_city(country="Australia", date="2025-06-20")\n'
                'a, k, m = get_air_quality(city=c, date="2025-06-20")',
     "find_hottest_city", "get_daily_forecast"),
    # ... or the hourly forecast of each at the hours of that day (reading 53 #39)
    ("weather", 'c, h = find_hottest_city(country="Japan", date="2025-06-15")\n'
                'a, k, m = get_air_quality(city=c, date="2025-06-15")',
     "find_hottest_city", "get_hourly_forecast"),
])
def test_a_withheld_comparison_an_offered_tool_answers_item_by_item_leaves_nothing_missing(seed, code, withheld, offered):
    """Without the comparison, an offered tool that answers the same question of one item, asked
    of each in turn, finds what it was to give; nothing else offered beside it does."""
    seeds = {seed: load_seed(Path(resource_dir("seeds")) / seed)}
    found = chain_problems(seeds, code, withheld=withheld, offered=(offered,))
    assert any(f"{offered} answers item by item" in p for p in found), found
    assert not any("item by item" in p for p in chain_problems(seeds, code, withheld=withheld))


def test_a_number_that_does_not_change_the_answer_is_found_for_nothing():
    """The wind at 31 °C, where wind chill does not apply: the forecast call feeds the feels-like
    temperature nothing it uses (reading 24 #36); at 4 °C it does."""
    def idle(temperature):
        code = ('w, d = get_wind_forecast(city="Madrid", date="2025-06-14")\n'
                f'f = calculate_feels_like(temperature_c={temperature}, wind_speed_kmh=w)')
        return [p for p in seed_problems("weather", code) if "does not change its answer" in p]

    assert any("get_wind_forecast feeds call 2 calculate_feels_like only wind_speed_kmh" in p for p in idle(31.0))
    assert idle(4.0) == []


def test_a_zero_fed_onward_makes_the_next_answer_trivial():
    """A dividend of 0.0 converted into HKD is 0 at any rate (reading 29 #9); one that pays is not."""
    seeds = {"finance_stocks": load_seed(Path(resource_dir("seeds")) / "finance_stocks")}
    companies = seeds["finance_stocks"].build_world(0).companies
    none = next(t for t, row in sorted(companies.items()) if row["dividend"] == 0.0)
    pays = next(t for t, row in sorted(companies.items()) if row["dividend"] > 0.0)

    def trivial(symbol):
        code = (f'y, d, c = get_dividend_yield(symbol="{symbol}")\n'
                'a, r = convert_currency_amount(amount=d, from_currency=c, to_currency="HKD")')
        return [p for p in chain_problems(seeds, code) if "amount=0" in p]

    assert trivial(none) and not trivial(pays)


def test_withholding_the_city_of_a_point_in_a_city_leaves_nothing_missing():
    """37.78, -122.41 is plainly San Francisco: withholding the reverse geocoder that says so
    makes an agent that knows it an inventor of values (reading 24 #2); a point at sea is not
    known to be anywhere."""
    seeds = load_seeds(Path(resource_dir("seeds")))
    chosen = {slug: seeds[slug] for slug in ("phone_assistant", "time_and_date")}

    def withheld_problems(latitude, longitude):
        code = (f'c, k, d = get_city_from_coordinates(latitude={latitude}, longitude={longitude})\n'
                't = get_local_time_in(city=c)')
        found = chain_problems(chosen, code, withheld="get_city_from_coordinates")
        return [p for p in found if "the place of a point" in p]

    assert any("San Francisco" in p for p in withheld_problems(37.78412, -122.40773))
    assert not withheld_problems(40.0, -40.0)


def test_detour_rule_rejects_a_call_that_finds_only_what_is_known(trips):
    """The city of hotel H-TOK, when the request spells out Tokyo anyway: a shorter correct
    path skips the look-up and loses its milestone."""
    found = problems(trips, 'c = hotel_city(hotel_id="H-TOK")\np = buy_maps(city=c, n=2)\nk = distance(a="Tokyo", b="Paris")')
    assert any(p.startswith("detour: call 1 hotel_city") and "the request states 'Tokyo'" in p for p in found), found
    found = problems(trips, 'c = hotel_city(hotel_id="H-TOK")\np = buy_maps(city=c, n=2)\nk = distance(a="Lyon", b="Paris")')
    assert not any(p.startswith("detour:") for p in found), found


def test_detour_rule_rejects_re_deriving_what_an_earlier_call_returned():
    """geocode_city for the country of the nearest city, which get_nearest_city already returned;
    taking the country straight from it is no detour."""
    seeds = {slug: load_seed(Path(resource_dir("seeds")) / slug) for slug in ("maps_places", "travel")}
    detour = ('c, n, d = get_nearest_city(latitude=1.33329, longitude=103.80512)\n'
              'la, lo, k = geocode_city(city=c)\n'
              'l, s, u = get_travel_advisory(country=k)')
    found = chain_problems(seeds, detour)
    assert any(p.startswith("detour: call 2 geocode_city") and "call 1 get_nearest_city already returned" in p
               for p in found), found
    direct = ('c, n, d = get_nearest_city(latitude=1.33329, longitude=103.80512)\n'
              'l, s, u = get_travel_advisory(country=n)')
    assert not any(p.startswith("detour:") for p in chain_problems(seeds, direct))


def test_a_time_of_day_whose_hour_nothing_needs_is_a_detour():
    """"The earliest Wednesday later than tomorrow afternoon" (reading 49 #40): the afternoon
    is resolved only for its day, and a person would have said the day."""
    seeds = {slug: load_seed(Path(resource_dir("seeds")) / slug) for slug in ("time_and_date",)}
    code = 'm, d = resolve_relative_time(expression="{said}")\nw = get_next_weekday_date(weekday="Wednesday", after=d)\n'
    found = chain_problems(seeds, code.format(said="tomorrow afternoon"), asked={1})
    assert any(p.startswith("detour: call 1 resolve_relative_time resolves 'tomorrow afternoon'") for p in found), found
    assert not any("only its day" in p for p in chain_problems(seeds, code.format(said="in 3 days"), asked={1}))
    assert not any("only its day" in p for p in chain_problems(seeds, code.format(said="tomorrow afternoon"),
                                                               asked={0, 1}))


def test_a_value_any_asked_call_found_is_not_asked_for_again():
    """The set textbook's title, author, year and publisher, then "find out what that book is
    called": the course's own record named the title first, yet the details asked for said it
    too (reading 50 #20)."""
    seeds = {slug: load_seed(Path(resource_dir("seeds")) / slug) for slug in ("education", "library_science")}
    code = ('i, t = get_course_textbook(course_code="CS301")\n'
            'a, b, c, d = get_book_details(isbn=i)\n'
            'e, f = scan_isbn(isbn=i)\n')
    found = chain_problems(seeds, code, asked={1, 2})
    assert any(p.startswith("round_trip: call 3 scan_isbn asks again for the book title") for p in found), found
    assert not any("asks again" in p for p in chain_problems(seeds, code, asked={2}))


def test_two_bare_coordinate_points_are_not_one_person_s():
    """"The nearest major city to 22.32785, 114.11821 ... the transit time from 22.32974,
    114.22399" (reading 51 #40): a person states one position, their own."""
    seeds = {slug: load_seed(Path(resource_dir("seeds")) / slug) for slug in ("maps_places",)}
    code = ('c, n, d = get_nearest_city(latitude=22.32785, longitude=114.11821)\n'
            'la, lo, k = geocode_city(city=c)\n'
            'm, km = estimate_travel_time(from_latitude={lat}, from_longitude={lon}, to_latitude=la, to_longitude=lo, '
            'mode="transit")\n')
    found = chain_problems(seeds, code.format(lat=22.32974, lon=114.22399), asked={0, 2})
    assert "coherent: the request states 2 bare coordinate points" in found, found
    assert not any("bare coordinate" in p for p in chain_problems(seeds, code.format(lat=22.32785, lon=114.11821),
                                                                   asked={0, 2}))


def test_a_point_asked_for_again_is_asked_again():
    """A place's latitude and longitude, then "in what city is that place, and what are its exact
    coordinates?" (reading 52 #9): numbers of a point repeat only when asked twice."""
    seeds = {slug: load_seed(Path(resource_dir("seeds")) / slug) for slug in ("maps_places",)}
    code = ('i, la, lo = find_place_by_name(name="velvet table trattoria")\n'
            'a, b, c = get_place_location(place_id=i)\n')
    found = chain_problems(seeds, code, asked={0, 1})
    assert any(p.startswith("round_trip: call 2 get_place_location asks again for the latitude") for p in found), found


def test_an_order_sent_home_is_not_quoted_to_another_city():
    """"I want item TG-1004 sent to Dubai ... buy 2 units" (reading 52 #14): the order goes to
    the default address, so the quote to Dubai and the order are not one errand."""
    seeds = {slug: load_seed(Path(resource_dir("seeds")) / slug) for slug in ("ecommerce",)}
    code = ('c, d = estimate_shipping(sku="TG-1004", destination_city="{city}")\n'
            'o, t = place_order(sku="TG-1004", quantity=2)\n')
    state = {"ecommerce": {"payment_methods": ["credit card"]}}
    found = chain_problems(seeds, code.format(city="Dubai"), asked={0, 1}, state=state)
    assert any("place_order delivers 'TG-1004' home, yet the request quotes its delivery to Dubai" in p
               for p in found), found
    assert not any("quotes its delivery" in p for p in chain_problems(seeds, code.format(city=USER.home_city),
                                                                       asked={0, 1}, state=state))


def test_an_order_of_a_found_thing_sent_home_is_not_quoted_to_another_city():
    """The speaker's SKU found from its name, quoted to Mexico City, then ordered home (reading
    68 #14): the thing is the same whether named or found."""
    seeds = {slug: load_seed(Path(resource_dir("seeds")) / slug) for slug in ("ecommerce",)}
    code = ('s = resolve_product_sku(product="Echo Mini Bluetooth Speaker")\n'
            'c, d = estimate_shipping(sku=s, destination_city="{city}")\n'
            'o, t = place_order(sku=s, quantity=3)\n')
    state = {"ecommerce": {"payment_methods": ["credit card"]}}
    found = chain_problems(seeds, code.format(city="Mexico City"), asked={1, 2}, state=state)
    assert any("yet the request quotes its delivery to Mexico City" in p for p in found), found
    assert not any("quotes its delivery" in p for p in chain_problems(seeds, code.format(city=USER.home_city),
                                                                       asked={1, 2}, state=state))


def test_daylight_is_read_of_a_city_or_a_position_not_of_a_restaurant():
    """"The hours of daylight yesterday at the Olive Vine Brasserie in San Francisco" (readings
    61 #18, 68 #20): the city's own sunrise and sunset give the same, shorter."""
    seeds = {slug: load_seed(Path(resource_dir("seeds")) / slug) for slug in ("maps_places", "time_and_date")}
    spot = ('i, la, lo = find_place_by_name(name="velvet table trattoria")\n'
            'h = get_daylight_hours(latitude=la, longitude=lo, date="2025-06-12")\n')
    found = chain_problems(seeds, spot, asked={1})
    assert any(p.startswith("detour: call 2 get_daylight_hours reads a whole area at the spot") for p in found), found
    city = ('la, lo, c = geocode_city(city="San Francisco")\n'
            'h = get_daylight_hours(latitude=la, longitude=lo, date="2025-06-12")\n')
    assert not any("reads a whole area" in p for p in chain_problems(seeds, city, asked={1}))


def test_no_trip_ends_where_the_person_stands():
    """"I need to get from the building at 33 Market Road, San Francisco to the spot where I'm
    standing" (reading 71 #15): the trip from where one stands is the one people ask for."""
    from factory.toolbox.sense import trip
    from factory.toolbox.user import USER

    rule = trip(start=("a", "b"), end=("c", "d"), mode="m")
    here = {"c": USER.latitude, "d": USER.longitude}
    there = {"a": 37.77422, "b": -122.44387, "m": "driving"}
    assert rule.violation({**there, **here}, {}) == "a trip to where the person already stands"
    assert rule.violation({"a": USER.latitude, "b": USER.longitude, "c": 37.77422, "d": -122.44387, "m": "driving"}, {}) is None


def test_a_literal_member_of_together_names_the_same_thing_as_the_nested_one():
    """A reading room at one branch from the time another branch opens: the branch is stated,
    the opening time is found for another branch, and `together("branch", "start")` says no."""
    same = ('o, c = get_branch_hours(branch="Boston Central Library", date="2025-06-20")\n'
            'r, k = reserve_reading_room(branch="Boston Central Library", start=o)\n')
    assert not any("together" in p for p in seed_problems("library_science", same))
    other = same.replace('reserve_reading_room(branch="Boston Central Library"',
                         'reserve_reading_room(branch="Chicago Lakeside Branch"')
    found = [p for p in seed_problems("library_science", other) if "together" in p]
    assert found and "another library branch than branch='Chicago Lakeside Branch'" in found[0]


def test_actions_that_cancel_out_are_undone_even_after_a_fix_up():
    """Verify the account, buy 2 shares, sell 2 shares: the fix-up changed the world, the
    request's own actions left it as the fix-up did."""

    seeds = {s: v for s, v in load_seeds(Path(resource_dir("seeds"))).items() if s == "finance_stocks"}
    symbol = sorted(seeds["finance_stocks"].build_world(0).companies)[0]
    code = (f'v = verify_trading_account(document="passport")\n'
            f'c, h = buy_shares(symbol="{symbol}", shares=2)\nd, k = sell_shares(symbol="{symbol}", shares=2)\n')
    state = {"finance_stocks": {"account_verified": False}}
    found = chain_problems(seeds, code, state=state, fixes={0: "account_verified"})
    assert any(p.startswith("undone:") for p in found), found
    more = code.replace("sell_shares(symbol=\"%s\", shares=2)" % symbol, "sell_shares(symbol=\"%s\", shares=1)" % symbol)
    assert not any(p.startswith("undone:") for p in chain_problems(seeds, more, state=state, fixes={0: "account_verified"}))


def test_a_withheld_value_that_changes_nothing_leaves_nothing_missing():
    """Above 10 °C the wind does not change how warm it feels: with the wind forecast withheld,
    the feels-like of the hottest city is still known, so the item is no insufficient-information item."""
    code = ('c, t = find_hottest_city(country="Spain", date="2025-06-14")\n'
            'w, d = get_wind_forecast(city=c, date="2025-06-14")\n'
            'f = calculate_feels_like(temperature_c=t, wind_speed_kmh=w)')
    assert any("nothing is missing" in p for p in seed_problems("weather", code, withheld="get_wind_forecast"))
    assert not any("nothing is missing" in p for p in seed_problems("weather", code, withheld="find_hottest_city"))


def test_a_request_that_asks_again_for_what_it_found_is_a_round_trip():
    """"What mark and letter did they earn in CHEM201? ... convert that percentage to a letter":
    the letter is asked for twice."""

    edu = load_seeds(Path(resource_dir("seeds")))["education"]
    world = edu.build_world(0)
    student, course = next((s, c) for s, row in sorted(world.students.items()) for c in sorted(row.get("grades", {})))
    code = (f'p, l = get_course_grade(student_id="{student}", course_code="{course}")\n'
            'g, q = convert_percentage_to_letter(percentage=p)\n')
    seeds = {"education": edu}
    found = chain_problems(seeds, code, asked={0, 1})
    assert any("asks again for the letter grade" in p for p in found), found
    assert not any("asks again" in p for p in chain_problems(seeds, code, asked={1}))  # the mark only described


def test_an_action_that_ends_a_thing_is_all_a_request_does_with_it():
    """"Buy 15 shares of my top holding, then sell 5 of that stock" and "where is order X?
    Cancel it" work against themselves; finding the thing to end is fine."""
    sold = ('c, v, s = get_portfolio_summary()\n'
            'x, y = sell_shares(symbol=s, shares=1)')
    assert not any(p.startswith("ends") for p in seed_problems("finance_stocks", sold))
    both = ('c, v, s = get_portfolio_summary()\n'
            'a, b = buy_shares(symbol=s, shares=15)\n'
            'x, y = sell_shares(symbol=s, shares=5)')
    assert any(p.startswith("ends") and "sell_shares" in p for p in seed_problems("finance_stocks", both))


def test_a_request_does_not_ask_for_what_it_states_itself():
    """"Who is booking BK-40212 for? ... put Jordan Avery on that flight": the person asks for
    a name they go on to say; so too a meeting's day, then flights "on 17 June"."""
    seeds = {"travel": load_seed(Path(resource_dir("seeds")) / "travel")}
    code = ('n, d, s = get_booking_details(booking_id="BK-40212")\n'  # Jordan Avery, 2025-06-17
            'f, e = search_flights(origin_city="Sydney", destination_city="Nairobi", date="{day}")\n'
            'b, t = book_flight(flight_number="SK5675", date="{day}", passenger_name="{name}")')
    fair = code.format(day="2025-06-18", name="Amara Okafor")
    assert not any("is asked for" in p for p in chain_problems(seeds, fair, asked={0, 1, 2}))
    named = chain_problems(seeds, code.format(day="2025-06-18", name="Jordan Avery"), asked={0, 1, 2})
    assert any(p.startswith("round_trip") and "'Jordan Avery'" in p for p in named), named
    dated = chain_problems(seeds, code.format(day="2025-06-17", name="Amara Okafor"), asked={0, 1, 2})
    assert any(p.startswith("round_trip") and "'2025-06-17'" in p for p in dated), dated


def test_a_withheld_value_people_know_leaves_nothing_missing():
    """Which country San Francisco is in needs no tool: withholding the call that says so makes
    no insufficient-information item; withholding the UTC offset itself does."""
    code = ('o, c = get_city_utc_offset(city="San Francisco")\n'
            'd = add_business_days(start="2025-06-13", days=5, country=c)')
    found = seed_problems("time_and_date", code, withheld="get_city_utc_offset")
    assert any(p.startswith("withheld:") and "which people know" in p for p in found), found


def test_together_knows_what_a_nested_value_was_found_about():
    """The exports of Red Gum Flat from the country of origin of another wine go through that
    other wine: the nested country is about it, not about Red Gum Flat."""
    own = ('c = get_product_origin(product="Red Gum Flat")\n'
           'n = get_export_quantity(location=c, date="2025-05-30", product="Red Gum Flat")')
    assert not any(p.startswith("sense") for p in seed_problems("food_and_beverage", own))
    other = ('w, r = get_top_selling_wine(location="Barossa Valley", date="2025-05-30")\n'  # Red Gum Flat
             'c = get_product_origin(product=w)\n'
             'n = get_export_quantity(location=c, date="2025-05-30", product="Saltbush Creek")')
    found = seed_problems("food_and_beverage", other)
    assert any("together" in p for p in found), found


def test_the_start_of_an_event_is_a_time_in_the_event_s_own_city():
    """The forecast "in Hong Kong around the start of my next event" reads an event in San
    Francisco at Hong Kong's clock: the start belongs to the event's own city."""
    seeds = {slug: load_seed(Path(resource_dir("seeds")) / slug) for slug in ("calendar_reminders", "weather")}
    code = ('e, s, n = get_next_event()\n'  # EVT-1052, lunch in San Francisco today
            'x, y = get_hourly_forecast(city="{city}", when=s)')
    assert not any("together" in p for p in chain_problems(seeds, code.format(city="San Francisco")))
    found = chain_problems(seeds, code.format(city="Hong Kong"))
    assert any("together" in p for p in found), found


def test_a_request_asks_for_a_thing_once():
    """"Give me the author, title and publisher of that book ... and give me its title": two
    asked calls that name the same thing ask for it twice."""
    seeds = {"library_science": load_seed(Path(resource_dir("seeds")) / "library_science")}
    twice = ('a, t, p, y = get_book_details(isbn="9781200365298")\n'
             's, u = scan_isbn(isbn="9781200365298")')
    assert any("asks again" in p for p in chain_problems(seeds, twice, asked={0, 1}))
    assert not any("asks again" in p for p in chain_problems(seeds, twice.splitlines()[0], asked={0}))


def test_a_city_the_request_spells_out_is_not_looked_up():
    """"Match 'Seoul Botanical Gardens, Seoul' to a place ... the centre of the city where that
    place is": the request spells out Seoul, so looking up the place's city is a detour."""
    code = ('p, la, lo = find_place_by_name(name="{name}")\n'
            'a, b, c = get_place_location(place_id=p)\n'
            'x, y, z = geocode_city(city=c)')
    found = seed_problems("maps_places", code.format(name="Seoul Botanical Gardens, Seoul"))
    assert any(p.startswith("detour") and "spells out 'Seoul'" in p for p in found), found
    assert not any("spells out" in p for p in seed_problems("maps_places", code.format(name="Velvet Table Trattoria")))


def test_a_person_the_request_names_is_not_looked_up():
    """"Text the organiser of my lunch with Ingrid": the lunch's organiser is Ingrid Larsen, whom
    the request names; a person texts Ingrid (reading 54 #6, #25). A book club's organiser is
    looked up: nobody named it."""
    seeds = {s: load_seed(Path(resource_dir("seeds")) / s) for s in ("calendar_reminders", "phone_assistant")}
    code = ('e = resolve_event_mention(mention="{mention}")\n'
            'o = get_event_organizer(event_id=e)\n'
            'm, t = send_text_message(recipient=o, text="Running ten minutes late.")')
    found = chain_problems(seeds, code.format(mention="my lunch with Ingrid on 13 June"))
    assert any(p.startswith("detour") and "spells out 'Ingrid'" in p for p in found), found
    assert not any(p.startswith("detour") for p in chain_problems(seeds, code.format(mention="the book club on 16 June")))
    resolved = 'n = resolve_contact_name(mention="{mention}")\nph = get_contact_phone(name=n)'  # whom it resolves
    assert not any(p.startswith("detour") for p in chain_problems(seeds, resolved.format(mention="Aisha")))


def test_nothing_is_planned_for_a_parcel_before_it_arrives():
    """"When will parcel X get here? ... the first free delivery slot in the city it is going to,
    on or after June 17": it is due on June 18, so a slot from the 17th is for nothing (reading
    54 #38); from the 18th on it is fine."""
    code = ('s, c, e = get_tracking_status(tracking_number="AF230817732")\n'  # due 2025-06-18T15:00 in Milan
            'o, d, k, w = get_shipment_details(tracking_number="AF230817732")\n'
            'slot = find_delivery_slot(city=d, day="{day}")')
    found = seed_problems("logistics", code.format(day="2025-06-17"))
    assert any(p.startswith("timeline") and "before the day call 1 get_tracking_status says it arrives" in p
               for p in found), found
    assert not any(p.startswith("timeline") for p in seed_problems("logistics", code.format(day="2025-06-18")))


def test_a_withheld_value_two_offered_calls_reach_is_not_missing():
    """Withholding the origin of the wine Alta Montana leaves nothing missing when its maker and
    the maker's region are offered: the region, Mendoza, is in Argentina (reading 55 #18)."""
    code = ('c = get_product_origin(product="Alta Montana")\n'
            'n = get_export_quantity(location=c, date="2025-06-06", product="Alta Montana")')
    seeds = {"food_and_beverage": load_seed(Path(resource_dir("seeds")) / "food_and_beverage")}
    found = chain_problems(seeds, code, withheld="get_product_origin",
                           offered=("get_product_manufacturer", "get_producer_region"))
    assert any("get_product_manufacturer then get_producer_region give" in p for p in found), found
    assert not chain_problems(seeds, code, withheld="get_product_origin", offered=("get_product_manufacturer",))


def test_no_forecast_is_asked_for_an_hour_gone_by_there():
    """"Is there a chance of rain in Munich around today at 4pm?", asked at 09:30 in San
    Francisco, is 18:30 in Munich: the hour has gone by there (reading 55 #19); in San
    Francisco it is still to come."""
    seeds = {s: load_seed(Path(resource_dir("seeds")) / s) for s in ("time_and_date", "weather")}
    code = ('m, z = resolve_relative_time(expression="today at 4pm")\n'
            't, c = get_hourly_forecast(city="{city}", when=m)')
    found = chain_problems(seeds, code.format(city="Munich"))
    assert any("not yet past there" in p for p in found), found
    assert not any("not yet past there" in p for p in chain_problems(seeds, code.format(city="San Francisco")))


def test_two_days_tied_only_by_a_place_are_two_errands():
    """"When does the sun rise in Sao Paulo on 6 August? ... and the forecast there for tomorrow
    evening" ties two days by a city alone (reading 57 #35); the same day is one errand."""
    seeds = {s: load_seed(Path(resource_dir("seeds")) / s) for s in ("time_and_date", "weather")}
    code = ('r, s = get_sunrise_sunset(city="Sao Paulo", date="{day}")\n'
            'm, z = resolve_relative_time(expression="tomorrow evening")\n'
            't, c = get_hourly_forecast(city="Sao Paulo", when=m)')
    found = chain_problems(seeds, code.format(day="2025-08-06"))
    assert any(p.startswith("unrelated") for p in found), found
    assert not any(p.startswith("unrelated") for p in chain_problems(seeds, code.format(day="2025-06-14")))


def test_today_found_for_two_errands_ties_nothing():
    """"Which city in India is hottest today? ... is that date a holiday in Kenya?": the day a
    call finds from nothing ties two countries' errands no more than the person's own "today"
    (reading 86 #17); asked for itself ("what's the date and time here?"), it is one of the
    errands, and a contact's birthday, found for the contact, is about them."""
    seeds = {s: load_seed(Path(resource_dir("seeds")) / s) for s in ("time_and_date", "weather", "phone_assistant")}
    code = ('n, d, h = get_current_local_datetime()\n'
            'c, t = find_hottest_city(country="India", date=d)\n'
            'o, k = is_public_holiday(date=d, country="Kenya")')
    found = chain_problems(seeds, code, asked={1, 2})
    assert any(p.startswith("unrelated") for p in found), found
    assert not any(p.startswith("unrelated") for p in chain_problems(seeds, code, asked={0, 1, 2}))
    contact = sorted(seeds["phone_assistant"].build_world(0).contacts)[0]
    birthday = (f'b, a = get_contact_birthday(name="{contact}")\n'
                'w, e = get_weekday(date=b)\n'
                f'i, t = send_text_message(recipient="{contact}", text="Thanks, talk soon.")')
    assert not any(p.startswith("unrelated") for p in chain_problems(seeds, birthday, asked={1, 2}))


def test_a_withheld_value_an_offered_tool_s_refusal_names_is_not_missing():
    """Without the patient's profile, booking them with any doctor is refused with "patient
    P-10001 lives in New York": the home city the pharmacy search needs (reading 58 #25). Without
    that tool offered, the city is missing."""
    seeds = {"healthcare": load_seed(Path(resource_dir("seeds")) / "healthcare")}
    code = ('b, h, ph, e = get_patient_profile(patient_id="P-10001")\n'
            'n, a, packs = find_pharmacy_with_stock(drug_name="losartan", city=h)')
    found = chain_problems(seeds, code, withheld="get_patient_profile", offered=("book_appointment",))
    assert any("book_appointment's refusal names what gold call 1" in p for p in found), found
    assert not any("refusal" in p for p in chain_problems(seeds, code, withheld="get_patient_profile",
                                                          offered=("get_doctor_details",)))


def test_a_withheld_nearest_thing_an_agent_can_work_out_by_hand_is_not_missing():
    """Without the nearest-place search, a place search that lists museums and a tool that gives
    each one's coordinates leave only arithmetic to find the nearest (reading 59 #32); without
    the coordinates tool the nearest is missing."""
    seeds = {s: load_seed(Path(resource_dir("seeds")) / s) for s in ("maps_places",)}
    code = ('p, d, n = find_nearest_place(latitude=37.7793, longitude=-122.4193, category="museum")\n'
            'o, c = get_opening_hours(place_id=p, date="2025-06-19")')
    found = chain_problems(seeds, code, withheld="find_nearest_place", offered=("search_places", "get_place_location"))
    assert any("the nearest is arithmetic" in p for p in found), found
    assert not any("arithmetic" in p for p in chain_problems(seeds, code, withheld="find_nearest_place",
                                                             offered=("search_places",)))


def test_a_call_made_only_to_find_what_people_know_is_a_detour():
    """"The first public holiday in the country Berlin is part of": Germany needs no lookup."""
    code = ('o, c = get_city_utc_offset(city="Berlin")\n'
            'h, n = get_next_public_holiday(country=c, after="2025-06-11")')
    found = seed_problems("time_and_date", code)
    assert any(p.startswith("detour") and "people know" in p for p in found), found


def test_a_place_found_twice_for_one_thing_is_asked_once():
    """"Where is parcel X going? ... book its delivery and tell me the delivery city": the city
    is the same parcel's destination, asked twice; a delivery whose city is not asked for
    before is fine."""
    seeds = {"logistics": load_seed(Path(resource_dir("seeds")) / "logistics")}
    world = seeds["logistics"].build_world(0)
    parcel = next(t for t, row in sorted(world.shipments.items()) if row["status"] != "delivered")
    code = (f'o, d, c, w = get_shipment_details(tracking_number="{parcel}")\n'
            's = find_delivery_slot(city=d, day="2025-06-16")\n'
            f'r, y = book_delivery_slot(tracking_number="{parcel}", slot=s)')
    twice = chain_problems(seeds, code, asked={0, 2})
    assert any("asks again for the delivery city" in p for p in twice), twice
    assert not any("asks again" in p for p in chain_problems(seeds, code, asked={2}))


def test_a_check_that_decides_an_action_comes_before_it_and_the_action_uses_it():
    """"Order 2 of item X ... does coupon TECH15 apply to that item?" checks too late; the same
    check before the order is what a shopper does, and the order then uses the coupon: checked,
    then left out, the order is charged the full price (reading 85 #26)."""
    seeds = {"ecommerce": load_seed(Path(resource_dir("seeds")) / "ecommerce")}
    check = 'v, p = validate_coupon(coupon_code="TECH15", sku="{sku}")'
    order = 'o, t = place_order(sku="{sku}", quantity=2, coupon_code="TECH15")'
    world = seeds["ecommerce"].build_world(0)
    sku = next(s for s in sorted(world.products) if s.startswith("EL"))
    before = chain_problems(seeds, f"{check}\n{order}".format(sku=sku), asked={0, 1})
    assert not any(p.startswith("informs") for p in before), before
    after = chain_problems(seeds, f"{order}\n{check}".format(sku=sku), asked={0, 1})
    assert any(p.startswith("informs") and "validate_coupon" in p for p in after), after
    bare = 'o, t = place_order(sku="{sku}", quantity=2)'
    left_out = chain_problems(seeds, f"{check}\n{bare}".format(sku=sku), asked={0, 1})
    assert any(p.startswith("informs") and "without the coupon code 'tech15'" in p for p in left_out), left_out


def test_a_request_never_asks_what_people_know_of_a_city_it_names():
    """"What country is Berlin in, and what's its UTC offset?": the country is no question; of
    a city found for a contact it is."""
    seeds = {slug: load_seed(Path(resource_dir("seeds")) / slug) for slug in ("time_and_date", "phone_assistant")}
    named = chain_problems(seeds, 'o, c = get_city_utc_offset(city="Berlin")', asked={0})
    assert any(p.startswith("round_trip") and "which people know" in p for p in named), named
    world = seeds["phone_assistant"].build_world(0)
    contact = sorted(world.contacts)[0]
    found = chain_problems(seeds, f'h, k = get_contact_city(name="{contact}")\no, c = get_city_utc_offset(city=h)',
                           asked={1})
    assert not any("which people know" in p for p in found), found


def test_a_request_never_asks_for_ids_only_the_service_uses():
    """"Which parks does the map list?" answered [PL-4021, ...] fails an agent that names them;
    the ids may still feed a later call: the composer keeps such a tool where it feeds one."""
    seeds = {"maps_places": load_seed(Path(resource_dir("seeds")) / "maps_places")}
    code = 'p = list_places_in_city(city="Paris", category="park")'
    assert any(p.startswith("ids") for p in chain_problems(seeds, code, asked={0}))
    pool = library_pool(seeds)
    assert pool.only_ids["list_places_in_city"] and not pool.only_ids["find_place_by_name"]


def test_a_time_of_day_the_request_never_says_is_not_used():
    """"The forecast temperature in Paris at this Wednesday": the day resolves to 09:00 and
    reads that hour's forecast, an hour nobody named; "this Wednesday at 3pm" names one."""
    seeds = {slug: load_seed(Path(resource_dir("seeds")) / slug) for slug in ("time_and_date", "weather")}
    code = ('m, d = resolve_relative_time(expression="{said}")\n'
            't, p = get_hourly_forecast(city="Paris", when=m)')
    hourless = chain_problems(seeds, code.format(said="this wednesday"))
    assert any(p.startswith("hour") for p in hourless), hourless
    assert not any(p.startswith("hour") for p in chain_problems(seeds, code.format(said="this wednesday at 3pm")))


def test_a_feels_like_is_asked_only_where_wind_or_heat_changes_it():
    """At 20 °C neither wind chill nor heat index applies: "how cold does it feel in that wind?"
    has no answer but the temperature; at 2 °C in a 30 km/h wind it has."""
    code = 'f = calculate_feels_like(temperature_c={t}, wind_speed_kmh=30)'
    assert any("feels like the temperature itself" in p for p in seed_problems("weather", code.format(t=20)))
    assert not any("feels like" in p for p in seed_problems("weather", code.format(t=2)))


def test_a_measure_is_not_stated_beside_one_found_for_a_place():
    """"How would 2 °C feel with the wind in Oslo on June 15?" pairs a made-up temperature with a
    forecast wind: together values are all found or all stated."""
    mixed = ('w, d = get_wind_forecast(city="Stockholm", date="2025-06-15")\n'
             'f = calculate_feels_like(temperature_c=2, wind_speed_kmh=w)')
    assert any("is stated beside" in p for p in seed_problems("weather", mixed))
    stated = 'f = calculate_feels_like(temperature_c=2, wind_speed_kmh=30)'
    assert not any("is stated beside" in p for p in seed_problems("weather", stated))


def test_a_reading_an_independent_action_changes_is_refused():
    """"File 2 days of personal leave for E-1207 ... how many personal days are still
    available?": before the filing and after it are two answers nothing in the request orders."""
    seeds = {"hr_payroll": load_seed(Path(resource_dir("seeds")) / "hr_payroll")}
    world = seeds["hr_payroll"].build_world(0)
    employee = sorted(world.employees)[0]
    code = (f'r, n = request_leave(employee_id="{employee}", leave_type="personal", start_date="2025-06-23", days=2)\n'
            f'b = get_leave_balance(employee_id="{employee}", leave_type="personal")')
    found = chain_problems(seeds, code, asked={0, 1})
    assert any(p.startswith("order") for p in found), found
    other = code.replace('leave_type="personal")', 'leave_type="sick")')
    assert not any(p.startswith("order") for p in chain_problems(seeds, other, asked={0, 1}))


def test_two_independent_actions_whose_results_depend_on_their_order_are_refused():
    """Two leave requests filed in one request take the next two request ids in whichever order
    an agent files them, and the answer holds one of the two orders (reading 26 #36: a hotel
    and a flight booked from one counter); one filing alone is no problem."""
    seeds = {"hr_payroll": load_seed(Path(resource_dir("seeds")) / "hr_payroll")}
    first, second = sorted(seeds["hr_payroll"].build_world(0).employees)[:2]
    one = f'r, n = request_leave(employee_id="{first}", leave_type="annual", start_date="2025-06-23", days=2)'
    two = f's, m = request_leave(employee_id="{second}", leave_type="sick", start_date="2025-06-30", days=1)'
    found = [p for p in chain_problems(seeds, f"{one}\n{two}", asked={0, 1}) if "gives other values made before" in p]
    assert found and "call 2 request_leave" in found[0], found
    assert not [p for p in chain_problems(seeds, one, asked={0}) if "made before" in p]


def test_timeline_wants_the_person_there_before_a_stay_or_an_event_starts():
    """A stay from June 18 for a flight landing in the evening of June 19, or a flight on June 22
    to the city of an event on June 13, is a trip nobody makes; a stay from the day of landing
    and a flight before the event are."""
    flight = ('a, b, c, d = get_flight_details(flight_number="MR2770", date="2025-06-21")\n'  # lands 2025-06-22T02:00
              'h, hn = search_hotels(city=c)\n'
              'x, y, z, n, hn2 = compare_hotel_prices(hotel_ids=h, check_in="{day}", nights=4, currency="USD")')
    travel = {"travel": load_seed(Path(resource_dir("seeds")) / "travel")}

    def timeline(code, seeds=travel):
        return [p for p in chain_problems(seeds, code, world_seed=1111) if p.startswith("timeline:")]

    assert timeline(flight.format(day="2025-06-22")) == []
    found = timeline(flight.format(day="2025-06-21"))  # even before a landing at 02:00: a reader asks why
    assert found and "Cairo from 2025-06-21" in found[0] and "2025-06-22T02:00" in found[0]
    both = {**travel, "calendar_reminders": load_seed(Path(resource_dir("seeds")) / "calendar_reminders")}
    events = both["calendar_reminders"].build_world(1111).events
    away, row = min(((e, r) for e, r in events.items() if r["start"] > NOW.strftime("%Y-%m-%dT%H:%M")
                     and r["city"] not in (USER.home_city, "Amsterdam")), key=lambda item: item[1]["start"])
    start = date.fromisoformat(row["start"][:10])
    event = (f't, u, c, p = get_event_details(event_id="{away}")\n'
             'f, d = search_flights(origin_city="Amsterdam", destination_city=c, date="{day}")')
    assert timeline(event.format(day=str(start - timedelta(days=1))), both) == []
    late = timeline(event.format(day=str(start + timedelta(days=9))), both)
    assert any(f"{row['city']} from {row['start']}" in p for p in late), late
    # A stay in Paris from the day the flight to Cairo leaves, or from the day it lands, is a
    # night in two places; a stay in Paris once back from Cairo is not.
    elsewhere = flight.replace("search_hotels(city=c)", 'search_hotels(city="Paris")')
    for day in ("2025-06-21", "2025-06-22"):
        assert any("Paris on " + day in p and "to Cairo" in p for p in timeline(elsewhere.format(day=day))), day
    assert timeline(elsewhere.format(day="2025-06-27")) == []


def test_a_course_implies_its_instructor_and_no_other_person():
    """Enrolling in Physics 202 and asking for the office hours of someone who does not teach
    it is two goals stitched by a date; the course's own instructor is one goal, and a fact of
    "person_name/instructor" says nothing of a student named beside the course."""
    seed = load_seed(Path(resource_dir("seeds")) / "education")
    code = ('c = normalise_course_code(text="Physics 202")\n'
            'r, d = enrol_in_course(course_code=c)\n'
            'h, b = get_instructor_office_hours(instructor="{who}", date=d)')
    facts = CheckContext({"education": seed}, load_policy(Path(resource_dir("validators")))).facts_of(
        "course_code_text", "Physics 202", 0)
    teacher = facts["person_name/instructor"]
    other = next(name for name in sorted(seed.toolbox.values["person_name/instructor"](base_world(seed, 0)))
                 if name != teacher)

    def coherent(who):
        return [p for p in seed_problems("education", code.format(who=who)) if p.startswith("coherent:")]

    assert coherent(teacher) == []
    assert any(other in p and teacher in p for p in coherent(other))


def test_a_part_from_another_seed_is_about_the_same_occasion():
    """Sunrise in Seoul on May 25 and the weather there at 9 pm on June 23 are two errands; the
    weather at sunset's hour that day is one. Only a part the goal takes from another seed, with
    no data flow to the goal's own calls, is held to the request's days."""
    seeds = {slug: load_seed(Path(resource_dir("seeds")) / slug) for slug in ("time_and_date", "weather")}
    code = ('r, s = get_sunrise_sunset(city="Seoul", date="2025-05-25")\n'
            't, p = get_hourly_forecast(city="Seoul", when="{when}")')

    def occasion(when, goal="time_and_date:catch the daylight"):
        found = chain_problems(seeds, code.format(when=when), goal=goal)
        return [p for p in found if p.startswith("occasion:")]

    assert any("2025-06-23" in p for p in occasion("2025-06-23T21:00"))
    assert occasion("2025-05-25T20:00") == []
    assert occasion("2025-06-23T21:00", goal="") == []  # a seed without goals: nothing is taken from elsewhere


def test_a_search_from_a_day_is_about_the_day_it_finds():
    """The next holiday in the United States after June 16 is about the holiday (Juneteenth):
    the hottest city there on June 16 beside it is a second errand; the hottest city on the
    holiday itself is the goal."""
    seeds = {slug: load_seed(Path(resource_dir("seeds")) / slug) for slug in ("time_and_date", "weather")}

    def occasion(code):
        found = chain_problems(seeds, code, goal="time_and_date:plan a day off around a holiday")
        return [p for p in found if p.startswith("occasion:")]

    holiday = 'h, d = get_next_public_holiday(country="United States", after="2025-06-16")\n'
    assert any("2025-06-16" in p for p in occasion(holiday + 'c, t = find_hottest_city(country="United States", date="2025-06-16")'))
    assert occasion(holiday + 'c, t = find_hottest_city(country="United States", date=d)') == []
    listed = 'h = list_public_holidays(country="United States", year=2025)\n'
    assert occasion(listed + 'c, t = find_hottest_city(country="United States", date="2025-06-16")')


def test_today_at_home_is_not_today_across_the_date_line():
    """At 09:30 on June 13 in San Francisco it is June 14 in Tokyo: "the hottest city in Japan
    today" has two readings, and the gold took the home date (readings 65 #20, 66 #18)."""
    seeds = {slug: load_seed(Path(resource_dir("seeds")) / slug) for slug in ("time_and_date", "weather")}

    def elsewhere(country):
        code = f'n, t, h = get_current_local_datetime()\nc, x = find_hottest_city(country="{country}", date=t)'
        return [p for p in chain_problems(seeds, code) if p.startswith("timeline:") and "today at home" in p]

    assert any("2025-06-14" in p for p in elsewhere("Japan"))
    assert elsewhere("Brazil") == [] and elsewhere("USA") == []


def test_a_request_never_asks_for_the_city_it_names():
    """"In which city is Amber Orchard Espresso Bar, Boston?" asks for what it says."""
    from tests.seeds.toolbox_helpers import ToolboxSession

    maps = ToolboxSession("maps_places")
    mention = next(m for m in maps.values("place_mention") if ", " in m and m.split(", ")[1] not in m.split(", ")[0])
    city = mention.split(", ")[-1]
    code = (f'p, la, lo = find_place_by_name(name="{mention}")\n'
            'a, b, c = get_place_location(place_id=p)')
    named = chain_problems({"maps_places": maps.seed}, code, asked={1}, query=f"In which city is {mention}, and where exactly?")
    assert any("which the request names" in p and city in p for p in named)
    plain = chain_problems({"maps_places": maps.seed}, code.replace(mention, mention.split(", ")[0]), asked={1},
                           query=f"In which city is {mention.split(', ')[0]}, and where exactly?")
    assert not any("which the request names" in p for p in plain)


def test_a_withheld_price_an_offered_position_works_out_leaves_nothing_missing():
    """Without the stock quote, a position's value over its shares is the share price (in the
    portfolio's currency, the quote's at the world's rate: reading 35 #18, reading 36 #4)."""
    seeds = {"finance_stocks": load_seed(Path(resource_dir("seeds")) / "finance_stocks")}
    code = ('c, v, s = get_portfolio_summary()\n'
            'p, cur = get_stock_quote(symbol=s)\n'
            'a, r = convert_currency_amount(amount=p, from_currency=cur, to_currency="EUR")')
    # (world 2: the largest holding is priced in a currency whose rate to the dollar, quoted to six
    # decimals, gives back the price to the cent; a yen price is only approximately recovered)
    found = chain_problems(seeds, code, withheld="get_stock_quote", offered=("get_portfolio_position",), world_seed=2)
    assert any("get_portfolio_position gives what gold call 2 (get_stock_quote)" in p for p in found), found
    assert not any("gives what gold call 2" in p for p in chain_problems(
        seeds, code, withheld="get_stock_quote", offered=("get_company_profile",), world_seed=2))


def test_a_number_worked_out_of_two_others_counts_as_given():
    from factory.instances.distractors import worked_out

    assert worked_out([596.12], [271, 161548.52])  # a position's value over its shares
    assert worked_out([730.97, "CAD"], [{"shares_held": 240, "position_value": 128994.71}])  # in USD, at 1.36
    assert not worked_out([596.13], [271, 161548.52]) and not worked_out([12.0], [3, 4])
    assert not worked_out(["CAD"], [240, 128994.71])


def test_nobody_searches_from_a_place_for_its_own_kind():
    """"Which restaurant is closest to that place?", that place being the restaurant nearest me
    (reading 37 #2); the museum nearest the nearest cafe is a fair question."""
    seeds = {"maps_places": load_seed(Path(resource_dir("seeds")) / "maps_places")}
    code = ('la, lo, c = get_my_location()\n'
            'p, d, n = find_nearest_place(latitude=la, longitude=lo, category="restaurant")\n'
            'i, k, m, name = get_route_to_nearest(place_id=p, category="{other}", mode="driving")')
    assert any("searches for 'restaurant' from the restaurant" in p
               for p in chain_problems(seeds, code.format(other="restaurant")))
    assert not any("searches for" in p for p in chain_problems(seeds, code.format(other="museum")))


def test_nobody_shops_around_after_buying():
    """"Place the order for 3 of EL-1007 ... which SKUs does the catalog have in that category?"
    (reading 37 #31): a list of the very things an action already chose one of."""
    seeds = {"ecommerce": load_seed(Path(resource_dir("seeds")) / "ecommerce")}
    code = ('n, p, c, s = get_product_details(sku="EL-1001")\n'
            'o, t = place_order(sku="EL-1001", quantity=1)\n'
            'k = search_store(query=c)')
    assert any("search_store lists what call 2 place_order already chose one of" in p
               for p in chain_problems(seeds, code, asked={1, 2}))
    first = 'n, p, c, s = get_product_details(sku="EL-1001")\nk = search_store(query=c)\no, t = place_order(sku="EL-1001", quantity=1)'
    assert not any("already chose" in p for p in chain_problems(seeds, first, asked={1, 2}))


def test_a_withheld_value_a_write_tool_hands_back_is_no_insufficient_information():
    """Moving a contact to any city answers with the city they lived in (reading 38 #3): the
    write tool is run on the gold call's own arguments where they fit and an example for the rest."""
    seeds = {name: load_seed(Path(resource_dir("seeds")) / name) for name in ("phone_assistant", "time_and_date")}
    code = ('n = resolve_contact_name(mention="Adeyemi")\n'
            'c, k = get_contact_city(name=n)\n'
            't = get_local_time_in(city=c)')
    found = chain_problems(seeds, code, withheld="get_contact_city", offered=("update_contact_city",))
    assert any("update_contact_city gives what gold call 2 (get_contact_city)" in p for p in found), found


def test_a_withheld_moment_an_offered_booking_refuses_until_right_leaves_nothing_missing():
    """A reading room booked from an hour before opening fails and from opening succeeds: trying
    hour by hour finds the withheld opening time (reading 38 #36)."""
    seeds = {"library_science": load_seed(Path(resource_dir("seeds")) / "library_science")}
    code = ('b, s = locate_book(title="Principles of Physical Chemistry")\n'
            'o, c = get_branch_hours(branch=b, date="2025-06-14")\n'
            'r, n = reserve_reading_room(branch=b, start=o)')
    found = chain_problems(seeds, code, withheld="get_branch_hours")
    assert any("reserve_reading_room refuses" in p and "trying moment by moment" in p for p in found), found


def test_a_withheld_value_its_id_spells_is_a_guess():
    """Listing MIL-101 is in Milan (reading 38 #18); listing ids of digits alone say nothing."""
    from factory.checks.plausibility import _spells

    seeds = {"real_estate": load_seed(Path(resource_dir("seeds")) / "real_estate")}
    code = ('la, lo, c, n = get_listing_location(listing_id="MIL-101")\n'
            'r, k = get_neighbourhood_stats(neighbourhood=n, city=c)')
    found = chain_problems(seeds, code, withheld="get_listing_location")
    assert any("id prefix 'MIL' spells" in p for p in found), found
    assert _spells("EL", "Electronics") and _spells("BL", "BlueLine Express") and not _spells("MC", "BlueLine Express")


def test_a_withheld_country_of_a_region_the_request_names_is_a_guess():
    """The best seller in Tuscany is made in Italy, as people guess (reading 39 #17)."""
    seeds = {"food_and_beverage": load_seed(Path(resource_dir("seeds")) / "food_and_beverage")}
    code = ('w, s = get_top_selling_wine(location="{region}", date="2025-06-10")\n'
            'c = get_product_origin(product=w)\n'
            'n = get_export_quantity(location=c, date="2025-06-10", product=w)')
    found = chain_problems(seeds, code.format(region="Tuscany"), withheld="get_product_origin")
    assert any("the country of 'Tuscany', which the request names" in p for p in found), found


def test_a_day_in_the_person_s_words_ties_no_errands_together():
    """The hottest city in Australia in 5 days and the wind in Madrid that day are two errands
    (reading 39 #29); the wind and the air in Madrid that day are one."""
    seeds = {"weather": load_seed(Path(resource_dir("seeds")) / "weather")}
    code = ('d = resolve_forecast_date(expression="in 5 days")\n'
            'c, h = find_hottest_city(country="Australia", date=d)\n'
            'w, k = get_wind_forecast(city="Madrid", date=d)\n'
            'u, r = get_uv_index(city={uv}, date=d)')
    assert any("nothing in common" in p for p in chain_problems(seeds, code.format(uv="c")))
    assert not any("nothing in common" in p for p in chain_problems(seeds, code.format(uv='"Madrid"').replace(
        'c, h = find_hottest_city(country="Australia", date=d)\n', '')))


def test_a_withheld_input_a_conversion_s_rate_does_not_need_leaves_the_rate():
    """Without the postage quote the converted amount is missing, but not the rate, which is the
    same whatever the amount (reading 40 #15)."""
    seeds = {name: load_seed(Path(resource_dir("seeds")) / name) for name in ("logistics", "finance_stocks")}
    code = ('a, c, d = quote_shipping_rate(origin_city="Seattle", destination_city="Toronto", weight_kg=7.5, service="standard")\n'
            'x, r = convert_currency_amount(amount=a, from_currency=c, to_currency="SEK")')
    found = chain_problems(seeds, code, withheld="quote_shipping_rate")
    assert any("gives r whatever amount quote_shipping_rate would give" in p for p in found), found


def test_today_from_any_clock_leaves_the_days_counted_from_it():
    """Without the home clock, today's date from another offered tool is what the day count
    takes (reading 40 #16, reading 46 #17: the clock of the person's own city, where an example
    city's may already show tomorrow), though the home city itself stays unknown."""
    seeds = {"time_and_date": load_seed(Path(resource_dir("seeds")) / "time_and_date")}
    code = ('n, t, h = get_current_local_datetime()\n'
            'd = add_business_days(start=t, days=15, country="Italy")')
    found = chain_problems(seeds, code, withheld="get_current_local_datetime", offered=("get_local_time_in",), asked={0, 1})
    assert any("what later calls take of it" in p for p in found), found


def test_a_part_about_another_year_is_a_second_errand_across_seeds():
    """The warmest spot in Canada today beside Canada's holidays in 2026 (reading 42 #19); its
    holidays in 2025 are the same occasion."""
    seeds = {name: load_seed(Path(resource_dir("seeds")) / name) for name in ("time_and_date", "weather")}
    code = ('n, t, h = get_current_local_datetime()\n'
            'c, k = find_hottest_city(country="Canada", date=t)\n'
            'l = list_public_holidays(country="Canada", year={year})')
    assert any("a year the rest of the request is not" in p
               for p in chain_problems(seeds, code.format(year=2026), goal="time_and_date:plan a day off around a holiday"))
    assert not any("a year the rest" in p
                   for p in chain_problems(seeds, code.format(year=2025), goal="time_and_date:plan a day off around a holiday"))


def test_a_search_confirms_a_guess_among_few_values():
    """"tempranillo serena" finds Finca Serena and "merlot serena" nothing: the withheld grape is
    guessed through the few there are (reading 42 #1)."""
    seeds = {"food_and_beverage": load_seed(Path(resource_dir("seeds")) / "food_and_beverage")}
    code = ('g = get_grape_variety(wine_name="Finca Serena")\n'
            'd = get_food_pairing(variety=g)')
    found = chain_problems(seeds, code, withheld="get_grape_variety", offered=("search_wine_catalog",))
    assert any("search_wine_catalog confirms a guess of" in p for p in found), found
    assert not any("confirms a guess" in p for p in chain_problems(seeds, code, withheld="get_grape_variety"))


def test_a_city_found_for_today_is_no_city_for_another_day():
    """The city of today's next event is where the person is today, not where a time on August
    12 is to be read (reading 43 #3); read today, it is."""
    seeds = {name: load_seed(Path(resource_dir("seeds")) / name) for name in ("calendar_reminders", "time_and_date")}
    code = ('e, s, t = get_next_event()\n'
            'ti, st, c, a = get_event_details(event_id=e)\n'
            'm = convert_time_between_cities(moment="{moment}", from_city="Hong Kong", to_city=c)')
    assert any("found for 2025-06-13, for 2025-08-12" in p for p in chain_problems(seeds, code.format(moment="2025-08-12T15:00")))
    assert not any("found for 2025-06-13" in p for p in chain_problems(seeds, code.format(moment="2025-06-13T15:00")))


def test_nobody_asks_what_their_own_words_name():
    """"What is my coffee with Elena on 23 July about?" is answered by the title "Coffee with
    Elena" (reading 43 #38)."""
    seeds = {"calendar_reminders": load_seed(Path(resource_dir("seeds")) / "calendar_reminders")}
    code = 'ti, st, c, a = get_event_details(event_id="EVT-1123")'
    world = Simulator(seeds, WorldSetup(toolboxes=["calendar_reminders"], seed=0))
    title = world.call(seeds["calendar_reminders"].specs["get_event_details"], {"event_id": "EVT-1123"}).values[0]
    found = chain_problems(seeds, code, asked={0}, query=f"What is my {title.lower()} about, and when does it start?")
    assert any(f"is asked for {title!r}, which the request names" in p for p in found), found
    assert not any("which the request names" in p for p in chain_problems(seeds, code, asked={0}, query="What is EVT-1123?"))


def test_nobody_asks_the_same_distance_twice():
    """"How far is the nearest city?", then the distance from that point to its centre: 0.4 km
    twice (reading 44 #2)."""
    seeds = {"maps_places": load_seed(Path(resource_dir("seeds")) / "maps_places")}
    code = ('c, k, d = get_nearest_city(latitude=48.1382, longitude=11.5796)\n'
            'la, lo, n = geocode_city(city=c)\n'
            'x = calculate_distance(from_latitude=48.1382, from_longitude=11.5796, to_latitude=la, to_longitude=lo)')
    assert any("measures again the 0.4 km" in p for p in chain_problems(seeds, code, asked={0, 2}))
    assert not any("measures again" in p for p in chain_problems(seeds, code, asked={2}))


def test_nobody_asks_the_time_where_they_are_the_long_way_round():
    """"My GPS coordinates ... the current local time in the closest city to that location"
    (reading 46 #34); the time in a city the person names is a fair question."""
    seeds = {name: load_seed(Path(resource_dir("seeds")) / name) for name in ("maps_places", "time_and_date")}
    code = ('la, lo, c = get_my_location()\n'
            'n, k, d = get_nearest_city(latitude=la, longitude=lo)\n'
            't = get_local_time_in(city={city})')
    assert any("asks the time now where the person is" in p for p in chain_problems(seeds, code.format(city="n"), asked={0, 2}))
    assert not any("where the person is" in p for p in chain_problems(seeds, code.format(city='"Tokyo"'), asked={0, 1, 2}))


def test_nobody_looks_for_a_hotel_at_home():
    """A hotel in the person's own city, for an event there (reading 48 #19)."""
    seeds = {"travel": load_seed(Path(resource_dir("seeds")) / "travel")}
    code = 'h, n = search_hotels(city="{city}")'
    assert any("a stay away from home" in p for p in chain_problems(seeds, code.format(city=USER.home_city)))
    assert not any("away from home" in p for p in chain_problems(seeds, code.format(city="Rome")))
