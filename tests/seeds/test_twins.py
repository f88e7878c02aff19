"""Twin tools: which tools answer the same question, that the seed library's twins agree in one
world, and that a twin of a gold tool is never offered beside it as a distractor."""

from __future__ import annotations

from pathlib import Path

import pytest

from factory.chains.code import parse_chain
from factory.checks.policy import load_policy
from factory.config import resource_dir
from factory.instances.distractors import alternative_to_gold, twin_of_gold
from factory.lm.embeddings import EmbeddingCache
from factory.records import Output, Param, ToolSpec, WorldSetup
from factory.seeds.checks import library_pool, twin_problems
from factory.seeds.library import load_seeds
from factory.seeds.twins import TwinRule, library_rule, library_twins, twin
from factory.toolbox.user import USER
from factory.world.simulator import Simulator, run_chain

pytestmark = pytest.mark.slow  # the seed library's twins are found with the embedding model

WEATHER_HERE = ("lat, lon, city = get_my_location()\n"
                "t, sky, near = get_weather_by_coordinates(latitude=lat, longitude=lon)")


@pytest.fixture(scope="module")
def seeds():
    return load_seeds(Path(resource_dir("seeds")))


@pytest.fixture(scope="module")
def rule(seeds):
    policy = load_policy(Path(resource_dir("validators"))).checks["distractors"]
    return library_rule(seeds, policy.get("twin_similarity"))


@pytest.fixture(scope="module")
def specs(seeds):
    return {name: spec for seed in seeds.values() for name, spec in seed.specs.items()}


def call(seeds, spec, **arguments):
    result = Simulator(seeds, WorldSetup(toolboxes=[spec.toolbox], seed=0)).call(spec, arguments)
    assert result.error is None, result.error
    return result.values


def test_the_library_twins_are_the_tools_that_answer_one_question(seeds, rule, specs):
    found = {(t.a.name, t.b.name) for t in library_twins(list(specs.values()), EmbeddingCache(), rule)}
    assert {("geocode_address", "geocode_property_address"), ("get_current_location", "get_my_location"),
            ("get_city_from_coordinates", "get_nearest_city"),
            ("convert_currency_amount", "convert_salary_currency")} <= found
    # close descriptions alone make no twins: another role of a country (exports vs imports),
    # an action (buying vs selling), a figure about another kind of thing (the distance to the
    # nearest city vs to the nearest weather station)
    for a, b in (("get_export_quantity", "get_import_quantity"), ("buy_shares", "sell_shares"),
                 ("find_nearest_weather_station", "get_nearest_city")):
        assert (a, b) not in found


def test_a_twin_needs_the_same_inputs_and_outputs_of_one_kind():
    rule = TwinRule(0.5)
    point = [Param(name="latitude", type="float", kind="latitude"),
             Param(name="longitude", type="float", kind="longitude")]
    a = ToolSpec(name="where", description="d", parameters=point,
                 returns=[Output(name="city", type="str", kind="city"), Output(name="distance_km", type="float")])
    b = ToolSpec(name="nearest", description="d", parameters=point,
                 returns=[Output(name="town", type="str", kind="city"), Output(name="distance_km", type="float")])
    pair = twin(a, b, 0.8, rule)
    assert pair is not None and pair.outputs == ((0, 0), (1, 1))
    assert twin(a, b, 0.4, rule) is None  # descriptions too far apart
    assert twin(a, b, 0.8, TwinRule(0.5, frozenset({"nearest"}))) is None  # an action is no twin
    extra = b.model_copy(update={"parameters": [*point, Param(name="years_back", type="int", required=False)]})
    assert twin(a, extra, 0.8, rule) is None  # another question: an input the other lacks
    station = b.model_copy(update={"returns": [Output(name="station", type="str", kind="station_id"),
                                               Output(name="distance_km", type="float")]})
    assert twin(a, station, 0.8, rule) is None  # a distance to another kind of thing


def test_one_user_and_one_gazetteer_make_twins_agree(seeds, specs):
    # the phone and the maps app place the user at one spot, the user of factory.toolbox.user
    here = call(seeds, specs["get_my_location"])
    assert call(seeds, specs["get_current_location"]) == here[:2] == [USER.latitude, USER.longitude]
    assert here[2] == call(seeds, specs["get_current_local_datetime"])[2] == USER.home_city
    # an address lies at one point, whichever seed geocodes it
    for address in ("25 Queen Street, Berlin", "12 Elm Street, Paris", USER.home_address):
        assert call(seeds, specs["geocode_address"], address=address)[:2] == \
            call(seeds, specs["geocode_property_address"], address=address)
    assert call(seeds, specs["get_nearest_city"], latitude=48.9, longitude=2.4) == \
        call(seeds, specs["get_city_from_coordinates"], latitude=48.9, longitude=2.4)


def test_no_twins_of_the_library_disagree(seeds, rule):
    """What `factory domains --check` reports besides declaration problems: none."""
    assert twin_problems(seeds, library_pool(seeds), EmbeddingCache(), rule) == []


PHONE = """
from typing import Annotated
from factory.toolbox import Kind, Toolbox, World
toolbox = Toolbox()
toolbox.world(lambda rng: World())

@toolbox.tool
def {name}() -> tuple[Annotated[float, Kind("latitude")], Annotated[float, Kind("longitude")]]:
    \"\"\"Get the current position of the user's phone.

    Returns:
        latitude: my latitude.
        longitude: my longitude.
    \"\"\"
    return {point}
"""


def test_disagreeing_twins_are_reported(tmp_path):
    from tests.conftest import write_seed

    write_seed(tmp_path, "phone_a", PHONE.format(name="where_am_i", point="(48.85, 2.35)"))
    write_seed(tmp_path, "phone_b", PHONE.format(name="my_position", point="(45.76, 4.84)"))
    two = load_seeds(tmp_path)
    found = twin_problems(two, library_pool(two), EmbeddingCache(), library_rule(two, 0.55))
    assert len(found) == 1 and "phone_b.my_position and phone_a.where_am_i" in found[0]
    assert "latitude=45.76" in found[0] and "latitude=48.85" in found[0]


def test_a_twin_of_a_gold_tool_is_no_distractor(seeds, rule, specs):
    chain = parse_chain("lat, lon, city = get_my_location()", specs)
    setup = WorldSetup(toolboxes=["maps_places"], seed=0)
    trace = run_chain(chain, specs, Simulator(seeds, setup))
    gold = {"get_my_location": specs["get_my_location"]}
    embeddings = EmbeddingCache()

    def world():
        return Simulator(seeds, setup)

    # it agrees on the position but lacks the city the answer needs: it would not meet the call's
    # milestone, so it is not offered
    why = twin_of_gold(specs["get_current_location"], chain, trace, gold, world, rule, embeddings)
    assert why and "only part" in why
    # in a world where the phone is elsewhere, it answers differently: never offered beside it
    moved = trace.model_copy(deep=True)
    moved.steps[0].outputs = {**moved.steps[0].outputs, "lat": 1.0}
    why = twin_of_gold(specs["get_current_location"], chain, moved, gold, world, rule, embeddings)
    assert why and "differently" in why and "latitude" in why
    assert twin_of_gold(specs["get_nearest_city"], chain, trace, gold, world, rule, embeddings) is None
    # when the chain needs only the position, the twin gives all of it: an alternative, not a twin to keep out
    both = parse_chain(WEATHER_HERE, specs)
    setup = WorldSetup(toolboxes=["maps_places", "weather"], seed=0)
    trace = run_chain(both, specs, Simulator(seeds, setup))
    assert trace.ok
    gold = {name: specs[name] for name in ("get_my_location", "get_weather_by_coordinates")}
    assert twin_of_gold(specs["get_current_location"], both, trace, gold, world, rule, embeddings) is None
    assert alternative_to_gold(specs["get_current_location"], both, trace, gold, world)


def test_a_tool_giving_part_of_a_gold_call_the_same_way_is_no_distractor(seeds, rule, specs):
    """"Is that place open at 10:30, and until when?": a place's hours on that day give the
    closing time too, and the rest follows; an agent that reads them did the job (reading 26
    #24). The place's details, which share no output, stay a distractor."""
    finder = specs["find_place_by_name"]
    name = library_pool(seeds, slugs=["maps_places"]).options(finder, finder.param("name"))[0]
    code = (f'p, la, lo = find_place_by_name(name="{name}")\n'
            'o, c = check_place_open(place_id=p, when="2025-06-13T10:30")')
    chain = parse_chain(code, specs)
    setup = WorldSetup(toolboxes=["maps_places"], seed=0)
    trace = run_chain(chain, specs, Simulator(seeds, setup))
    assert trace.ok, trace
    gold = {c.tool: specs[c.tool] for c in chain.calls}

    def world():
        return Simulator(seeds, setup)

    why = twin_of_gold(specs["get_opening_hours"], chain, trace, gold, world, rule, EmbeddingCache())
    assert why and "closes_at of gold call 2" in why, why
    assert twin_of_gold(specs["get_place_details"], chain, trace, gold, world, rule, EmbeddingCache()) is None


def test_an_offered_twin_that_disagrees_fails_the_distractors_check_and_shows_in_the_audit(seeds, specs):
    from factory import __version__
    from factory.checks.context import CheckContext
    from factory.checks.distractors import check_distractors
    from factory.dataset.audit import audit_sheet
    from factory.records import Instance, Provenance

    # Approximate sharing puts the user at the city centre on the map; the phone knows better.
    chain = parse_chain(WEATHER_HERE, specs)
    setup = WorldSetup(toolboxes=["maps_places", "weather"], seed=0,
                       state={"maps_places": {"location_sharing": "approximate"}})
    trace = run_chain(chain, specs, Simulator(seeds, setup))
    assert trace.ok
    gold = [specs["get_my_location"], specs["get_weather_by_coordinates"]]
    instance = Instance(domain="Maps and Places", query="What's the weather where I am?",
                        tools=[*gold, specs["get_current_location"]], gold_tools=[g.name for g in gold], chain=chain,
                        trace=trace, depth=chain.depth(), shape=chain.shape(), world=setup,
                        provenance=Provenance(generator="t", seed=0, attempt=0, factory_version=__version__))
    ctx = CheckContext(seeds, load_policy(Path(resource_dir("validators"))))
    result = check_distractors(instance, ctx)
    assert not result.passed and "twin of gold tool get_my_location and answers call 1 differently" in result.reason
    sheet = audit_sheet([instance.with_id()], 1, 0, ctx, "twins")
    assert "get_current_location is a twin of gold tool get_my_location" in sheet
    offered = instance.model_copy(update={"tools": gold})
    assert check_distractors(offered, ctx).passed


def test_domains_check_lists_no_problem():
    from typer.testing import CliRunner

    from factory.cli import app

    result = CliRunner().invoke(app, ["domains", "--check"])
    assert result.exit_code == 0 and "0 declaration problem(s)" in result.output


def test_a_converted_amount_is_the_amount_times_the_quoted_rate(seeds, specs):
    """Payroll's conversion, the market conversion and today's reference rate agree to the cent:
    34,400 EUR is one figure in pounds whichever tool converts it (reading 28 #7)."""
    for source, target in (("EUR", "GBP"), ("INR", "AUD"), ("JPY", "CHF")):
        rate = call(seeds, specs["get_fx_rate_on_date"], base_currency=source, quote_currency=target, date="2025-06-13")[0]
        payroll = call(seeds, specs["convert_salary_currency"], amount=34400.0, from_currency=source, to_currency=target)[0]
        market = call(seeds, specs["convert_currency_amount"], amount=34400.0, from_currency=source, to_currency=target)
        assert payroll == market[0] == round(34400.0 * rate, 2) and market[1] == rate
