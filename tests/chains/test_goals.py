"""Goals: a chain is composed within one goal of its seed (what a person in one role wants),
so a request never stitches together parts that serve no common purpose."""

import pytest

from factory.config import load_settings
from factory.generation.generate import generate
from factory.records import GenerateConfig
from factory.seeds.checks import library_pool, seed_problems
from factory.seeds.library import load_seed
from tests.conftest import write_seed

TOWN = '''
    import random
    from typing import Annotated
    from factory.toolbox import Kind, Toolbox, World

    toolbox = Toolbox()
    Person = Annotated[str, Kind("person_name", role="friend")]
    City = Annotated[str, Kind("city")]
    Museum = Annotated[str, Kind("museum")]
    HOMES = {"Ana Ruiz": "Paris", "Ben Okafor": "Lyon", "Chen Wei": "Nice"}
    MUSEUMS = {"Paris": "Louvre", "Lyon": "Musee des Confluences", "Nice": "Musee Matisse"}

    @toolbox.world
    def build(rng: random.Random) -> World:
        return World()

    @toolbox.values_for("person_name")
    def people(w: World) -> list[str]:
        return sorted(HOMES)

    @toolbox.values_for("city")
    def cities(w: World) -> list[str]:
        return sorted(MUSEUMS)

    @toolbox.values_for("museum")
    def museums(w: World) -> list[str]:
        return sorted(MUSEUMS.values())

    @toolbox.tool(asks=("where does {name} live?", "find the city {name} lives in", "tell me {name}'s home town"),
                  gives={"city": "the city {name} lives in"})
    def find_home_city(name: Person) -> City:
        """Find the city a friend lives in.

        Args:
            name: The friend's full name.

        Returns:
            city: the city.
        """
        return HOMES[name]

    @toolbox.tool(asks=("how warm is it in {city}?", "check the temperature in {city}", "what's it like in {city}?"))
    def get_temperature(city: City) -> float:
        """Get the temperature in a city now.

        Args:
            city: The city.

        Returns:
            temperature_c: degrees Celsius.
        """
        return float(len(city))

    @toolbox.tool(asks=("which museum is best in {city}?", "find the top museum in {city}", "name the museum to see in {city}"),
                  gives={"museum": "the top museum in {city}"})
    def find_top_museum(city: City) -> Museum:
        """Find the best-rated museum of a city.

        Args:
            city: The city.

        Returns:
            museum: the museum's name.
        """
        return MUSEUMS[city]

    @toolbox.tool(asks=("what does a ticket for {museum} cost?", "price a ticket to {museum}", "how much is entry to {museum}?"))
    def get_ticket_price(museum: Museum) -> float:
        """Get the price of an adult ticket to a museum.

        Args:
            museum: The museum's name.

        Returns:
            price_eur: the price in euros.
        """
        return 10.0 + len(museum)
'''

GOALS = '''
    toolbox.goal("visit a friend", wants="know what to expect when I visit a friend", role="visitor",
                 tools=("find_home_city", "get_temperature", "find_top_museum"))
    toolbox.goal("see a museum", wants="plan a museum outing", role="tourist",
                 tools=("find_top_museum", "get_ticket_price", "get_temperature"))
'''


@pytest.mark.slow
def test_every_chain_stays_within_one_goal(tmp_path):
    write_seed(tmp_path / "seeds", "town", TOWN + GOALS)
    settings = load_settings({"seeds_dir": str(tmp_path / "seeds")})
    result = generate(GenerateConfig(domain="town", n=8, shape="chain", max_depth=2, distractors=0), settings,
                      tmp_path / "run")
    goals = {"town:visit a friend": {"find_home_city", "get_temperature", "find_top_museum"},
             "town:see a museum": {"find_top_museum", "get_ticket_price", "get_temperature"}}
    assert {i.goal for i in result.instances} == set(goals)
    for instance in result.instances:
        assert {c.tool for c in instance.chain.calls} <= goals[instance.goal], instance.query
    # A friend's city feeding a museum's ticket price spans both goals: never composed.
    assert not any({"find_home_city", "get_ticket_price"} <= set(i.gold_tools) for i in result.instances)


@pytest.mark.slow
def test_without_goals_the_seed_is_one_goal(tmp_path):
    write_seed(tmp_path / "seeds", "town", TOWN)
    settings = load_settings({"seeds_dir": str(tmp_path / "seeds")})
    result = generate(GenerateConfig(domain="town", n=12, shape="chain", max_depth=3, distractors=0), settings,
                      tmp_path / "run")
    assert {i.goal for i in result.instances} == {""}
    assert any({"find_home_city", "get_ticket_price"} <= set(i.gold_tools) for i in result.instances)


@pytest.mark.parametrize("goals, problem", [
    ("", "declares no goals"),
    ('toolbox.goal("g", wants="w", role="r", tools=("find_home_city", "get_temperature", "find_top_museum"))',
     "town.get_ticket_price: serves no goal"),
    ('toolbox.goal("g", wants="w", role="r", tools=("find_home_city", "get_temperature", "get_ticket_price", '
     '"find_top_museum", "book_table"))', "names unknown tools ['book_table']"),
    ('toolbox.goal("g", wants="w", role="", tools=("find_home_city", "get_temperature", "get_ticket_price", '
     '"find_top_museum"))', "says neither who asks"),
    ('toolbox.goal("g", wants="w", role="r", tools=("find_home_city", "get_temperature"))\n'
     'toolbox.goal("h", wants="w", role="r", tools=("get_ticket_price", "find_top_museum", "get_temperature"))',
     "2 of this seed's tools, want at least 3"),
])
def test_domains_check_finds_what_goals_miss(tmp_path, goals, problem):
    indented = "".join(f"    {line}\n" for line in goals.splitlines())
    seed = load_seed(write_seed(tmp_path, "town", TOWN + indented))
    problems = seed_problems(seed, library_pool({"town": seed}))
    assert any(problem in p for p in problems), problems



def test_a_goal_breaks_only_the_conditions_its_role_may_fix():
    """A receptionist booking a patient in never signs the patient's data-sharing consent: the
    goal declares conditions=(), so its bookings start with the insurance settled."""
    import random

    from factory.chains.code import parse_chain
    from factory.instances.scenarios import StateFixes
    from factory.seeds.library import load_seeds

    seeds = load_seeds(load_settings().seeds_dir)
    health = seeds["healthcare"]
    assert health.toolbox.goals["book a patient in with a specialist"].conditions == ()
    code = ('s, d = get_next_available_slot(doctor_id="D-2001", day="2025-06-20")\n'
            'a, c = book_appointment(patient_id="P-10001", doctor_id=d, slot=s)\n')
    chain = parse_chain(code, health.specs)
    specs = dict(health.specs)
    assert StateFixes(seeds, specs, random.Random(0), 0).apply(chain) is not None  # a patient's own goal may
    assert StateFixes(seeds, specs, random.Random(0), 0, breakable=set()).apply(chain) is None
