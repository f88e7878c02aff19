"""`factory audit` draws a sheet as the reading rubric asks (deep requests and every scenario),
shows the tools as an agent sees them and the NesTools row, names in their own words the defects
a cold reading found, and `factory call` runs any tool in an instance's own world so a reader
can test another reading."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from factory import __version__
from factory.chains.code import parse_chain
from factory.checks.context import CheckContext
from factory.checks.policy import load_policy
from factory.cli import app
from factory.config import resource_dir
from factory.dataset.audit import QUOTAS_PER_40, audit_sheet, instance_sheet, stratified_sample
from factory.records import Instance, Provenance, WorldSetup
from factory.seeds.library import load_seeds
from factory.world.simulator import Simulator, run_chain

runner = CliRunner()


def test_the_sample_meets_the_rubric_quotas_and_spreads_over_domains(mixed_run):
    instances = list(mixed_run.instances)
    sample = stratified_sample(instances, 40, seed=3)
    assert len(sample) == 40 and len({i.id for i in sample}) == 40
    for label, wanted, fits in QUOTAS_PER_40:
        available = sum(1 for i in instances if fits(i))
        assert sum(1 for i in sample if fits(i)) >= min(wanted, available), label
    assert len({i.domain for i in sample}) >= 10
    assert [i.id for i in stratified_sample(instances, 40, seed=3)] == [i.id for i in sample]  # seeded


def test_the_sheet_shows_tools_in_full_and_the_nestools_row(mixed_run):
    sheet = audit_sheet(list(mixed_run.instances), 6, 1, None, "run")
    first = stratified_sample(list(mixed_run.instances), 6, 1)[0]
    tool = first.tools[0]
    assert f"`{tool.name}`" in sheet and tool.description in sheet and "Returns:" in sheet
    assert "**NesTools export row**" in sheet and json.dumps(first.query, ensure_ascii=False) in sheet


def test_call_runs_a_tool_in_the_instances_world(mixed_run):
    instance = next(i for i in mixed_run.instances if i.world and i.trace.steps[0].arguments)
    step = instance.trace.steps[0]
    result = runner.invoke(app, ["call", str(mixed_run.path), instance.id, step.tool,
                                 "--args", json.dumps(step.arguments)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == dict(zip((o.name for o in instance.tool(step.tool).returns),
                                                 step.outputs.values(), strict=True))
    refused = runner.invoke(app, ["call", str(mixed_run.path), instance.id, step.tool, "--args", "[1]"])
    assert refused.exit_code == 1 and "must be a JSON object" in refused.output


@pytest.fixture(scope="module")
def seeds():
    return load_seeds(Path(resource_dir("seeds")))


@pytest.fixture(scope="module")
def ctx(seeds):
    return CheckContext(seeds, load_policy(Path(resource_dir("validators"))))


def made(seeds, code: str, query: str) -> Instance:
    specs = {name: spec for seed in seeds.values() for name, spec in seed.specs.items()}
    chain = parse_chain(code, specs)
    setup = WorldSetup(toolboxes=sorted({specs[c.tool].toolbox for c in chain.calls}), seed=0)
    trace = run_chain(chain, specs, Simulator(seeds, setup))
    assert trace.ok, [s.error for s in trace.steps if s.error]
    return Instance(domain=seeds[setup.toolboxes[0]].domain, query=query, tools=[specs[c.tool] for c in chain.calls],
                    gold_tools=[c.tool for c in chain.calls], chain=chain, trace=trace, depth=chain.depth(),
                    shape=chain.shape(), world=setup,
                    provenance=Provenance(generator="t", seed=0, attempt=0, factory_version=__version__)).with_id()


def test_the_sheet_names_what_a_cold_reader_found(seeds, ctx):
    library = made(seeds, 'h, c = get_branch_hours(branch="Boston Central Library", date="2025-06-20")\n'
                          'r, k = reserve_reading_room(branch="Boston Central Library", start=h)\n',
                   "Book me a reading room at Boston Central Library from the time the doors open at Boston Central "
                   "Library.")
    sheet = instance_sheet(1, library, ctx)
    assert "gold literal copied from a documented example: call 2 reserve_reading_room.branch='Boston Central Library'" in sheet
    assert "name stated in full more than once: 'Boston Central Library' is stated in full 2 times" in sheet
    assert "gold needs a value the request does not state: call 1 get_branch_hours.date='2025-06-20'" in sheet
    assert "**NesTools export row**, in `nestools_excluded.jsonl`, the file of rows a stock NesTools scorer cannot " \
        "score fairly and is not given (unstated_value: call 1 get_branch_hours.date=" in sheet
    assert sheet.count("Boston Central Library' is stated in full") == 1  # not again as a faithfulness failure
    detour = made(seeds, 'c, n, d = get_nearest_city(latitude=1.33329, longitude=103.80512)\n'
                         'la, lo, k = geocode_city(city=c)\n'
                         'l, s, u = get_travel_advisory(country=k)\n',
                  "Has the travel advisory changed for the country of the city nearest to 1.33329, 103.80512?")
    sheet = instance_sheet(2, detour, ctx)
    assert "detour: call 2 geocode_city finds only what is known without it (call 1 get_nearest_city already returned" in sheet
    assert "**NesTools export row**, in `nestools.jsonl`, the file a stock NesTools scorer is given" in sheet
    whole = audit_sheet([library, detour] + [library] * 40, 2, 0, ctx, "t")
    assert whole.count("**Automatic findings:**") == 2
    assert "**Domains:** Maps and Places 1, Library Science 41 (below 3% of the instances: Maps and Places)." in whole


def test_the_sheet_names_a_request_that_reads_badly(seeds, ctx):
    """Descriptions stacked inside one noun phrase, a call described again in full, and a
    request that says two situations, one of them at work for a holidaymaker."""
    stacked = made(seeds, 'r = get_producer_region(producer="Muga")\n'
                          'w, s = get_top_selling_wine(location=r, date="2025-06-08")\n'
                          'o = get_product_origin(product=w)\n'
                          'q = get_export_quantity(location=o, date="2025-06-08", product=w)\n',
                   "How many bottles went out of the country where the bestseller among wines in the wine region "
                   "that is home to Muga on 2025-06-08 is produced as exports on that day?")
    sheet = instance_sheet(1, stacked, ctx)
    assert "descriptions stacked: the description of what get_product_origin finds holds those of " \
           "get_producer_region, get_top_selling_wine" in sheet
    again = made(seeds, 'c, h = find_hottest_city(country="India", date="2025-06-19")\n'
                        'w, d = get_wind_forecast(city=c, date="2025-06-19")\n'
                        'f = calculate_feels_like(temperature_c=h, wind_speed_kmh=w)\n',
                 "I'm packing for the trip. For the events log, what would the hottest high anywhere in India on "
                 "2025-06-19 feel like with the wind at the wind speed in the hottest city of India that day?")
    again = again.model_copy(update={"goal": "weather:chase the sun"})
    sheet = instance_sheet(2, again, ctx)
    assert "a value described again in full: find_hottest_city is described again in full" in sheet
    assert "situations stacked: 2 situations: I'm packing for the trip. / For the events log" in sheet
    assert "a situation off the goal's role: 'For the events log' puts the holidaymaker at work" in sheet
    assert "readability:" not in sheet  # said once, in its own words
