"""The readability check: what a cold reader stumbles over in a deep request, counted and
rejected by rule, with its thresholds in the policy (factory.checks.readability)."""

from pathlib import Path

import pytest

from factory import __version__
from factory.chains.code import parse_chain
from factory.checks.context import CheckContext
from factory.checks.policy import CheckPolicy, load_policy
from factory.checks.readability import check_readability, readability_problems
from factory.config import resource_dir
from factory.records import Instance, Provenance, WorldSetup
from factory.seeds.library import load_seeds
from factory.world.simulator import Simulator, run_chain


@pytest.fixture(scope="module")
def seeds():
    return load_seeds(Path(resource_dir("seeds")))


@pytest.fixture(scope="module")
def ctx(seeds):
    return CheckContext(seeds, load_policy(Path(resource_dir("validators"))))


def made(seeds, code: str, query: str, goal: str = "") -> Instance:
    specs = {name: spec for seed in seeds.values() for name, spec in seed.specs.items()}
    chain = parse_chain(code, specs)
    setup = WorldSetup(toolboxes=sorted({specs[c.tool].toolbox for c in chain.calls}), seed=0)
    trace = run_chain(chain, specs, Simulator(seeds, setup))
    assert trace.ok, [s.error for s in trace.steps if s.error]
    return Instance(domain="Weather", goal=goal, query=query, tools=[specs[c.tool] for c in chain.calls],
                    gold_tools=[c.tool for c in chain.calls], chain=chain, trace=trace, depth=chain.depth(),
                    shape=chain.shape(), world=setup,
                    provenance=Provenance(generator="t", seed=0, attempt=0, factory_version=__version__)).with_id()


def rules(instance, ctx):
    return [p.split(":")[0] for p in readability_problems(instance, ctx)]


NEXT_TUESDAY = ('d = resolve_forecast_date(expression="next tuesday")\n'
                'u, r = get_uv_index(city="Nairobi", date=d)\n'
                'w, b = get_wind_forecast(city="Nairobi", date=d)\n')


def test_a_day_the_user_named_said_twice_in_a_row(seeds, ctx):
    twice = made(seeds, NEXT_TUESDAY, "What's the UV index in Nairobi next tuesday? And the wind in Nairobi next tuesday?")
    once = made(seeds, NEXT_TUESDAY, "What's the UV index in Nairobi next tuesday? And the wind in Nairobi that day?")
    assert rules(twice, ctx) == ["restated"] and rules(once, ctx) == []
    between = made(seeds, NEXT_TUESDAY + 'v, s = get_uv_index(city="Nairobi", date="2025-06-20")\n',
                   "What's the UV index in Nairobi next tuesday? And on 2025-06-20? And the wind in Nairobi next tuesday?")
    assert "restated" not in rules(between, ctx)  # after June 20, "that day" would be June 20
    timed = made(seeds, 'w, b = get_wind_forecast(city="Nairobi", date="2025-06-23")\n'
                        't, r = get_hourly_forecast(city="Nairobi", when="2025-06-23T21:00")\n',
                 "How windy will Nairobi be on June 23, 2025? And around 21:00 on June 23, 2025?")
    assert rules(timed, ctx) == []  # a time on that day is stated in full


LOW_IN_THE_HOTTEST_CITY = ('c, h = find_hottest_city(country="Spain", date="2025-06-14")\n'
                           'hi, lo, s = get_daily_forecast(city=c, date="2025-06-20")\n')


def test_two_days_in_a_row(seeds, ctx):
    after = made(seeds, LOW_IN_THE_HOTTEST_CITY,
                 "Check the forecast for the city that gets hottest in Spain on June 14, 2025 on June 20, 2025.")
    before = made(seeds, LOW_IN_THE_HOTTEST_CITY,
                  "Check the forecast on June 20, 2025 for the city that gets hottest in Spain on June 14, 2025.")
    assert rules(after, ctx) == ["day_after_day"] and rules(before, ctx) == []
    span = made(seeds, 'p = get_price_change_percent(symbol="NRDV", start_date="2025-03-06", end_date="2025-05-08")\n',
                "How did NRDV do from 2025-03-06 to 2025-05-08, in percent?")
    assert rules(span, ctx) == []  # a span, not two days in a row


def test_situations_and_their_thresholds(seeds, ctx):
    code = 'u, r = get_uv_index(city="Nairobi", date="2025-06-20")\nw, b = get_wind_forecast(city="Nairobi", date="2025-06-20")\n'
    two = made(seeds, code, "I burn easily. What's the UV in Nairobi on 2025-06-20? Also, I'm flying a kite. How windy will "
                            "it be there that day?", goal="weather:dress for the weather")
    result = check_readability(two, ctx)
    assert not result.passed and result.blocking and result.reason.startswith("situations: 2 situations")
    lenient = ctx.policy.model_copy(deep=True)
    lenient.checks["readability"] = CheckPolicy(blocking=True, max_nested_descriptions=1, max_situations=2, skip=[])
    assert check_readability(two, CheckContext(seeds, lenient)).passed
    skipped = ctx.policy.model_copy(deep=True)
    skipped.checks["readability"] = CheckPolicy(blocking=True, max_nested_descriptions=1, max_situations=1,
                                                skip=["situations"])
    assert check_readability(two, CheckContext(seeds, skipped)).passed
