"""Scenarios a perfect agent can win: fix-ups it can know, insufficient-information items that
are truly unsolvable, distractors that are not alternatives, and exports that say so."""

import random
from pathlib import Path

import pytest

from factory.chains.code import parse_chain
from factory.config import resource_dir
from factory.dataset.nestools import instance_to_nestools
from factory.evaluate.static.tasks import statically_scorable
from factory.instances.distractors import alternative_to_gold, mapped_arguments
from factory.instances.scenarios import StateFixes, fix_context, tool_to_withhold
from factory.records import WorldSetup
from factory.seeds.library import load_seed, load_seeds
from factory.world.simulator import Simulator, run_chain
from tests.conftest import write_seed

TWINS = '''
    import random
    from typing import Annotated
    from factory.toolbox import Kind, Toolbox, World

    toolbox = Toolbox()
    Lat = Annotated[float, Kind("latitude")]
    Lon = Annotated[float, Kind("longitude")]
    City = Annotated[str, Kind("city")]

    @toolbox.world
    def build(rng: random.Random) -> World:
        return World()

    def _near(lat):
        return "Paris" if lat > 40 else "Sydney"

    @toolbox.tool(asks=("a {lat}", "b {lat}", "c {lat}"), gives={"city": "near {lat}"})
    def nearest_city(lat: Lat, lon: Lon) -> City:
        """Nearest city.

        Args:
            lat: Latitude.
            lon: Longitude.

        Returns:
            city: the city.
        """
        return _near(lat)

    @toolbox.tool(asks=("d {latitude}", "e {latitude}", "f {latitude}"))
    def city_at(latitude: Lat, longitude: Lon) -> tuple[str, City]:
        """City at a point.

        Args:
            latitude: Latitude.
            longitude: Longitude.

        Returns:
            country: the country.
            city: the city.
        """
        return "X", _near(latitude)

    @toolbox.tool(asks=("g {latitude}", "h {latitude}", "i {latitude}"))
    def elevation(latitude: Lat, longitude: Lon) -> int:
        """Height of a point.

        Args:
            latitude: Latitude.
            longitude: Longitude.

        Returns:
            metres: the height.
        """
        return 35

    @toolbox.tool(asks=("j {city}", "k {city}", "l {city}"))
    def population(city: City) -> int:
        """People in a city.

        Args:
            city: The city.

        Returns:
            people: how many.
        """
        return 2100000
'''


@pytest.fixture(scope="module")
def twins(tmp_path_factory):
    return load_seed(write_seed(tmp_path_factory.mktemp("seeds"), "twins", TWINS))


def test_a_tool_that_yields_what_the_chain_needs_is_an_alternative_not_a_distractor(twins):
    chain = parse_chain("c = nearest_city(lat=48.8, lon=2.3)\np = population(city=c)", twins.specs)
    setup = WorldSetup(toolboxes=["twins"], seed=0)
    trace = run_chain(chain, twins.specs, Simulator({"twins": twins}, setup))
    world = lambda: Simulator({"twins": twins}, setup)  # noqa: E731
    assert mapped_arguments(twins.specs["city_at"], twins.specs["nearest_city"], {"lat": 48.8, "lon": 2.3}) == {
        "latitude": 48.8, "longitude": 2.3}  # mapped by kind when names differ
    why = alternative_to_gold(twins.specs["city_at"], chain, trace, twins.specs, world)
    assert why and "nearest_city" in why
    assert alternative_to_gold(twins.specs["elevation"], chain, trace, twins.specs, world) is None


@pytest.fixture(scope="module")
def seeds():
    return load_seeds(Path(resource_dir("seeds")))


def test_the_withheld_tool_gives_a_value_nothing_else_in_the_chain_gives(twins):
    chain = parse_chain("c = nearest_city(lat=48.8, lon=2.3)\np = population(city=c)", twins.specs)
    assert tool_to_withhold(chain, twins.specs, {}, random.Random(0)) == "nearest_city"
    assert tool_to_withhold(chain, twins.specs, {"nearest_city": ("arithmetic",)}, random.Random(0)) is None
    both = parse_chain("c = nearest_city(lat=48.8, lon=2.3)\nx, d = city_at(latitude=48.8, longitude=2.3)\n"
                       "p = population(city=c)", twins.specs)
    assert tool_to_withhold(both, twins.specs, {}, random.Random(0)) is None  # city_at would give the city


def test_fix_ups_are_knowable_and_sometimes_stated(seeds):
    weather = seeds["weather"]
    chain = parse_chain('n = subscribe_to_weather_alerts(city="Oslo")', weather.specs)
    stated_runs = 0
    for k in range(20):
        fixed, state = StateFixes(seeds, dict(weather.specs), random.Random(k), 0).apply(chain)
        assert fixed.calls[0].fixes == "weather_notifications" and state["weather"] == {"notifications": "off"}
        fixes = fix_context(fixed, weather.specs, seeds, random.Random(k))
        stated, context = fixes.stated, fixes.sentences
        # the channel the fix picks is said, never left to the agent (reading 29 #22)
        assert context and "push" in context[-1], context
        stated_runs += bool(stated)
    assert 0 < stated_runs < 20


def test_static_mode_leaves_out_fix_ups_without_a_reason_and_withheld_tools(mixed_run):
    """...and exactly what nestools.jsonl leaves out, so a run scored from it scores 100."""
    import json

    from factory.dataset.nestools import stock_unfair

    kinds = {"fix": 0, "withheld": 0}
    for instance in mixed_run.instances:
        kinds["fix"] += any(c.fixes for c in instance.chain.calls)
        kinds["withheld"] += bool(instance.withheld_tools)
        reasoned = all(c.fixes is None or any(s.endswith(f":{c.fixes}") for s in instance.stated_conditions)
                       for c in instance.chain.calls)
        if not reasoned or instance.withheld_tools:
            assert not statically_scorable(instance)
        assert statically_scorable(instance) == (stock_unfair(instance) is None)
    assert kinds["fix"] and kinds["withheld"]
    exported = [json.loads(line)["test_id"] for line in (mixed_run.path / "nestools.jsonl").read_text().splitlines()]
    assert exported == [k for k, i in enumerate(mixed_run.instances, start=1) if statically_scorable(i)]


def test_the_nestools_export_marks_unsolvable_items_and_fix_ups(mixed_run):
    for instance in mixed_run.instances:
        row = instance_to_nestools(instance, 0)
        if instance.withheld_tools:
            assert row["solvable"] is False
            assert {a["api_name"] for a in row["withheld_api"]} == {t.name for t in instance.withheld_tools}
            assert not {a["api_name"] for a in row["api"]} & {t.name for t in instance.withheld_tools}
            # what can still be done, with the offered tools alone (a stock scorer given the row is fair to a refusal)
            assert {c["api_name"] for c in row["call"]} <= {a["api_name"] for a in row["api"]}
            assert len(row["call"]) < len(row["call_if_offered"]) == len(instance.chain.calls)
            # the calls the milestones count as what can still be done, no lookup that only feeds the rest
            done = [m.tool for m in instance.milestones if m.kind == "call"]
            assert [c["api_name"] for c in row["call"] if "state_dependency" not in c] == done
        else:
            assert "solvable" not in row
        for call, exported in zip(instance.chain.calls, row.get("call_if_offered", row["call"]), strict=True):
            assert ("state_dependency" in exported) == (call.fixes is not None)


def test_what_the_person_wants_restored_is_said_before_what_that_needs(seeds):
    """"Should my fines be in the way, pay them with my bank card. My library card stopped
    working. Renew my library card for me." speaks of fines before the reader knows what they
    could block (reading 55 #14): the card's sentences come first, the fines' after."""
    library = seeds["library_science"]
    chain = parse_chain('a = pay_library_fines(payment_method="card")\n'
                        'b, c = activate_library_card()\n'
                        'd, e = place_hold(isbn="9781317169383", pickup_branch="Singapore Marina Branch")\n', library.specs)
    chain.calls[0].fixes, chain.calls[1].fixes = "fines_under_limit", "card_active"
    for k in range(30):
        fixes = fix_context(chain, library.specs, seeds, random.Random(k))
        card = [i for i, call in enumerate(fixes.speaks_of) if call == 1]
        fines = [i for i, call in enumerate(fixes.speaks_of) if call == 0]
        assert card and fines and max(card) < min(fines), fixes.sentences


def test_two_context_sentences_do_not_read_like_a_form(seeds):
    """"Turn battery saver off if you have to. Switch cellular on if you have to.": the second
    of two context sentences neither opens nor ends like the first."""
    phone = seeds["phone_assistant"]
    chain = parse_chain('a = set_low_battery_mode(on=False)\n'
                        'b = set_cellular(on=True)\n', phone.specs)
    chain.calls[0].fixes, chain.calls[1].fixes = "low_battery_off", "cellular"
    for k in range(30):
        context = fix_context(chain, phone.specs, seeds, random.Random(k)).sentences
        first, second = context[-2:]  # what a condition says opens the request; the context sentences end it
        assert first.split()[0] != second.split()[0] and first.split()[-3:] != second.split()[-3:], context


def test_nestools_jsonl_holds_only_what_a_stock_scorer_scores_fairly(mixed_run):
    """A stock NesTools scorer reads neither `solvable` nor `state_dependency`: unsolvable items,
    fix-ups the request gives no reason for, and gold literals it never states (a fix-up's free
    argument, `document='passport'`) go to nestools_excluded.jsonl, each with its reason; the
    dataset card counts both files."""
    import json

    from factory.checks.faithfulness import missing_values
    from factory.dataset.nestools import UNSTATED_VALUE, stock_unfair

    def rows(name):
        return [json.loads(line) for line in (mixed_run.path / name).read_text().splitlines()]

    fair, excluded = rows("nestools.jsonl"), rows("nestools_excluded.jsonl")
    assert sorted(r["test_id"] for r in fair + excluded) == list(range(1, len(mixed_run.instances) + 1))
    for row in fair:
        instance = mixed_run.instances[row["test_id"] - 1]
        assert "solvable" not in row and "excluded" not in row
        assert all(c.get("state_dependency", {}).get("stated", True) for c in row["call"])
        assert missing_values(instance.chain, row["task"]) == [], row["test_id"]
    reasons = {r["excluded"]["reason"] for r in excluded}
    assert {"unsolvable", "unstated_condition"} <= reasons
    assert all(stock_unfair(mixed_run.instances[r["test_id"] - 1])[0] == r["excluded"]["reason"] for r in excluded)
    card = (mixed_run.path / "dataset" / "README.md").read_text()
    assert f"holds the {len(fair)} instances a stock NesTools scorer scores" in card
    assert f"| `unsolvable` | {sum(r['excluded']['reason'] == 'unsolvable' for r in excluded)} |" in card

    instance = mixed_run.instances[fair[0]["test_id"] - 1].model_copy(deep=True)
    literal = next(a.value for c in instance.chain.calls for a in c.arguments.values() if hasattr(a, "value"))
    instance.query = instance.query.replace(str(literal), "it")
    assert stock_unfair(instance)[0] == UNSTATED_VALUE


def test_a_fix_up_that_spends_or_signs_is_authorised_by_the_request(mixed_run):
    """Paying fines, paying tuition, signing a consent, using a passport: the request says the
    person wants it done ("If fines are holding this up, pay them off with my bank card."), every time."""
    from factory.checks.context import CheckContext
    from factory.checks.plausibility import _consent_problems
    from factory.checks.policy import load_policy
    from factory.config import load_settings
    from factory.seeds.library import load_seeds

    settings = load_settings()
    seeds = load_seeds(settings.seeds_dir)
    ctx = CheckContext(seeds, load_policy(settings.validators_dir))
    consenting = {f"{slug}:{name}" for slug, seed in seeds.items() for name, c in seed.toolbox.conditions.items()
                  if c.consent}
    assert {"library_science:fines_under_limit", "education:tuition_paid", "healthcare:data_sharing_consent",
            "finance_stocks:account_verified", "travel:passport_on_file"} <= consenting
    fixed = [i for i in mixed_run.instances
             if any(c.fixes and f"{i.tool(c.tool).toolbox}:{c.fixes}" in consenting for c in i.chain.calls)]
    assert fixed, "no consent fix-up in the run"
    for instance in fixed:
        assert _consent_problems(instance, ctx) == [], instance.query
        unsaid = instance.model_copy(update={"query": "Check out the book for me."})
        assert _consent_problems(unsaid, ctx), instance.query


def test_a_consent_condition_without_an_authorising_sentence_is_never_broken(tmp_path):
    import random

    from factory.instances.scenarios import StateFixes
    from factory.seeds.library import load_seed
    from tests.conftest import write_seed

    code = '''
        import random
        from typing import Annotated
        from factory.toolbox import Kind, Toolbox, World, require, world

        toolbox = Toolbox()

        @toolbox.world
        def build(rng: random.Random) -> World:
            return World(state={"paid": True})

        @toolbox.values_for("thing")
        def things(w: World) -> list[str]:
            return ["a", "b"]

        @toolbox.tool(asks=("get {thing}", "fetch {thing}", "bring {thing}"), requires=("paid",), tags=("state_change",))
        def get(thing: Annotated[str, Kind("thing")]) -> str:
            """Get a thing.

            Args:
                thing: The thing.

            Returns:
                got: what was got.
            """
            require(world().state["paid"], "pay first")
            return thing

        @toolbox.tool(asks=("pay", "pay up", "settle up"), tags=("state_change", "fix_only"))
        def pay() -> bool:
            """Pay what is due.

            Returns:
                paid: whether it is paid.
            """
            world().state["paid"] = True
            return True

        toolbox.condition("paid", holds=lambda w: w.state["paid"], broken_state={"paid": False}, fix=("pay", {}),
                          consent="spend")
    '''
    seed = load_seed(write_seed(tmp_path, "shop", code))
    from factory.chains.code import parse_chain

    chain = parse_chain('x = get(thing="a")\n', seed.specs)
    assert StateFixes({"shop": seed}, dict(seed.specs), random.Random(0), 0).apply(chain) is None


def test_a_search_that_finds_what_a_gold_call_finds_is_an_alternative(seeds):
    """search_courses("Computer Science 201") finds ["CS201"], what normalise_course_code gives the
    chain: an agent that searches did the job, so the search is not offered as a distractor."""
    edu = {"education": seeds["education"]}
    specs = seeds["education"].specs
    chain = parse_chain('c = normalise_course_code(text="Computer Science 201")\n'
                        't, i, k, s = get_course_details(course_code=c)\n', specs)
    setup = WorldSetup(toolboxes=["education"], seed=0)
    trace = run_chain(chain, specs, Simulator(edu, setup))
    assert trace.ok
    world = lambda: Simulator(edu, setup)  # noqa: E731
    why = alternative_to_gold(specs["search_courses"], chain, trace, specs, world)
    assert why and "normalise_course_code" in why
    assert alternative_to_gold(specs["get_course_location"], chain, trace, specs, world) is None


def test_a_condition_the_person_states_is_not_asked_about_again():
    """"My tuition is still outstanding. Should my tuition still be due, settle it." doubts what
    was just said: after the person states the condition, the authorising sentence keeps only
    its consequent, and still counts as their consent."""
    from factory.checks.plausibility import _authorised
    from factory.instances.scenarios import unconditional

    assert unconditional("Should my tuition still be due, settle it.") == "Settle it."
    assert unconditional("If the shop needs a payment method on file, add my credit card.") == "Add my credit card."
    assert unconditional("Turn precise location sharing on if you need it.") == "Turn precise location sharing on if you need it."
    profile = "Should the agency want a buyer profile, create it for {full_name} at {email}."
    assert unconditional(profile, "I'm not registered as a buyer yet.") == "Create a buyer profile for {full_name} at {email}."
    assert unconditional(profile, "I have no buyer profile yet.") == "Create it for {full_name} at {email}."
    assert _authorised("I'm not registered as a buyer yet. Create a buyer profile for Jo at j@x.example.", profile)
    # a condition on the state put after the action goes too (reading 33 #11); permission stays
    missing = "Set up my traveller profile if it's missing (I'm {full_name}, {email})."
    assert unconditional(missing, "I have no traveller profile.") == "Set up my traveller profile (I'm {full_name}, {email})."
    # "I'm not registered as a buyer yet. Register me as a buyer if that's required." (reading 58 #14)
    assert unconditional("Register me as a buyer if that's required.", "I'm not registered as a buyer yet.") == \
        "Register me as a buyer."
    assert unconditional("Turn precise location sharing on if you need it.", "It's off.") == \
        "Turn precise location sharing on if you need it."
    assert _authorised("I have no traveller profile. Set up my traveller profile (I'm Jo, j@x.example).", missing)
    # a thing of mine the person has just named is "it" (reading 62 #27); "the way" is no thing
    card = "Reactivate my library card if it has lapsed."
    assert unconditional(card, "My library card stopped working.") == "Reactivate it."
    assert _authorised("My library card stopped working. Reactivate it.", card)
    assert unconditional("If unpaid tuition is in the way, go ahead and pay it.",
                         "I haven't paid my tuition for this term yet.") == "Go ahead and pay it."
    query = "My tuition for this term is still outstanding. Settle it. Enrol me in CHEM201."
    assert _authorised(query, "Should my tuition still be due, settle it.")
    assert not _authorised("Enrol me in CHEM201.", "Should my tuition still be due, settle it.")
