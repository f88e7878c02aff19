"""The seed library as a whole: size, unique tool names, NesTools domain mapping, tests per tool."""

import json
import re
from pathlib import Path

import pytest

from factory.config import resource_dir
from factory.seeds.library import load_seeds, resolve_domain

HERE = Path(__file__).parent
FIELDS = Path(__file__).parents[1] / "data" / "nestools" / "fields.json"


@pytest.fixture(scope="module")
def seeds():
    return load_seeds(Path(resource_dir("seeds")))


def test_library_size(seeds):
    assert len(seeds) >= 12
    assert sum(len(s.specs) for s in seeds.values()) >= 200


def test_tool_names_are_unique_across_seeds(seeds):
    names = [name for s in seeds.values() for name in s.specs]
    assert len(names) == len(set(names))


def test_every_tool_is_exercised_by_its_seed_tests(seeds):
    missing = {}
    for slug, seed in seeds.items():
        tests = HERE / f"test_{slug}.py"
        assert tests.exists(), f"no behaviour tests for seed {slug}"
        text = tests.read_text()
        untested = [name for name in seed.specs if not re.search(rf"[\"']{name}[\"']|\b{name}\(", text)]
        if untested:
            missing[slug] = untested
    assert not missing


def test_nestools_domains_are_real_and_resolve_to_their_seed(seeds):
    top_level = {field.split("/")[0] for field in json.loads(FIELDS.read_text())}
    assert len(top_level) == 146
    covered = set()
    for slug, seed in seeds.items():
        for name in seed.scenario.nestools_domains:
            assert name in top_level, f"{slug}: {name!r} is not a NesTools domain"
            covered.add(name)
    assert len(covered) >= 12
    # A NesTools "Domain/Subdomain" resolves to the seed that lists the subdomain; a NesTools
    # domain several seeds cover resolves to all of them.
    match = resolve_domain("Library Science/Library Augmented Reality", seeds)
    assert [s.slug for s in match.seeds] == ["library_science"] and match.subdomain == "Library Augmented Reality"
    def norm(text):
        return re.sub(r"[^a-z0-9]", "", text.lower())

    own_names = {norm(n) for s in seeds.values() for n in (s.domain, s.slug)}  # a seed's own name wins
    shared = [d for d in covered if norm(d) not in own_names and sum(d in s.scenario.nestools_domains for s in seeds.values()) > 1]
    assert shared
    for name in shared:
        expected = sorted(slug for slug, s in seeds.items() if name in s.scenario.nestools_domains)
        assert sorted(s.slug for s in resolve_domain(name, seeds).seeds) == expected
    assert resolve_domain("Sports/Basketball", seeds) is None


def test_in_context_examples_are_real_chains_of_their_seed(seeds):
    from factory.chains.code import parse_chain
    from factory.records import WorldSetup
    from factory.world.simulator import Simulator, run_chain

    specs = {name: spec for seed in seeds.values() for name, spec in seed.specs.items()}
    for slug, seed in seeds.items():
        assert seed.scenario.examples, f"{slug} has no in-context examples"
        for example in seed.scenario.examples:
            chain = parse_chain(example.chain, specs)
            used = {c.tool for c in chain.calls}
            assert used <= set(specs), f"{slug}: example calls unknown tools {used - set(specs)}"
            assert used & set(seed.specs), f"{slug}: example uses none of its own tools"
            toolboxes = sorted({specs[t].toolbox for t in used})  # examples may cross domains
            trace = run_chain(chain, specs, Simulator(seeds, WorldSetup(toolboxes=toolboxes, seed=0)))
            assert trace.ok, f"{slug}: example fails: {[s.error for s in trace.steps if s.error]}"
