"""End-to-end offline generation: output layout, determinism, resume, bad input."""

import json
import os
from pathlib import Path

import pytest

from factory.config import load_settings
from factory.errors import ConfigError, FactoryError, RunError
from factory.generation.generate import generate
from factory.records import GenerateConfig, Instance
from tests.conftest import write_seed
from tests.run_helpers import Interrupt, digest, resumed_after

pytestmark = pytest.mark.slow  # end-to-end runs: `make test` runs them, `pytest -m "not slow"` leaves them out



def test_run_layout_and_offline_loading(food_run):
    path = food_run.path
    for name in ("chains.jsonl", "traces.jsonl", "queries.jsonl", "instances.jsonl", "rejects.jsonl", "manifest.json",
                 "nestools.jsonl", "dataset/README.md", "dataset/data/test-00000-of-00001.parquet"):
        assert (path / name).exists(), name
    manifest = json.loads((path / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["accepted"] >= 16
    assert manifest["attempts"] == manifest["accepted"] + manifest["rejected"]

    import datasets

    loaded = datasets.load_dataset(str(path / "dataset"))
    assert list(loaded) == ["test"] and loaded["test"].num_rows == 16
    row = loaded["test"][0]
    assert isinstance(row["tools"], list) and isinstance(row["chain"], dict)  # Json columns decode to objects
    instance = Instance.model_validate({k: v for k, v in row.items() if k in Instance.model_fields})
    assert instance == food_run.instances[0]
    card = (path / "dataset" / "README.md").read_text()
    assert card.startswith("---\nlicense:") and "synthetic" in card and "num_examples: 16" in card
    assert "| Reject reason |" in card and str(path) not in card  # no machine paths in the card

    nestools = [json.loads(line) for name in ("nestools.jsonl", "nestools_excluded.jsonl")
                for line in (path / name).read_text().splitlines()]
    assert len(nestools) == 16 and {"test_id", "api", "task", "call", "field"} <= set(nestools[0])


def test_same_settings_give_byte_identical_datasets(tmp_path, food_run):
    config = GenerateConfig(domain="Food and Beverage", n=16, seed=3, max_depth=3)
    again = generate(config, load_settings(), tmp_path / "again")
    assert digest(again.path / "dataset") == digest(food_run.path / "dataset")
    other = generate(config.model_copy(update={"seed": 4}), load_settings(), tmp_path / "other")
    assert digest(other.path / "dataset") != digest(food_run.path / "dataset")


def test_toolbox_embeddings_are_stored_for_later_runs_and_never_change_the_output(tmp_path, monkeypatch):
    import factory.lm.embeddings

    embedded = []
    real_embed = factory.lm.embeddings.embed
    monkeypatch.setattr(factory.lm.embeddings, "embed", lambda texts: embedded.append(len(texts)) or real_embed(texts))
    config = GenerateConfig(domain="Food and Beverage", n=4, seed=5, max_depth=2)
    cold = generate(config, load_settings(), tmp_path / "cold")
    stored = sorted(load_settings().embeddings_store.glob("*"))
    assert stored and all(p.suffix == ".npy" for p in stored)
    cold_texts, embedded[:] = sum(embedded), []
    warm = generate(config, load_settings(), tmp_path / "warm")
    assert digest(warm.path / "dataset") == digest(cold.path / "dataset")
    assert sum(embedded) < cold_texts / 3  # the toolbox batches come from the store
    for path in stored:
        path.write_bytes(b"torn")  # unreadable: computed again, and the run goes on
    again = generate(config, load_settings(), tmp_path / "again")
    assert digest(again.path / "dataset") == digest(cold.path / "dataset")



def test_a_killed_run_resumes_without_losing_or_duplicating(tmp_path, food_run):
    config = GenerateConfig(domain="Food and Beverage", n=16, seed=3, max_depth=3)
    out = tmp_path / "resumed"

    def stop_after_seven(kept, tried, note=''):
        if tried == 7:
            raise Interrupt

    with pytest.raises(Interrupt):
        generate(config, load_settings(), out, on_attempt=stop_after_seven)
    assert json.loads((out / "manifest.json").read_text())["status"] == "running"
    assert not (out / "dataset").exists()
    with (out / "instances.jsonl").open("a") as handle:  # a line torn by the kill
        handle.write('{"attempt": 7, "instance": {"id": "tru')
    result = generate(config, load_settings(), out)
    assert result.resumed_from == 7
    ids = [json.loads(line)["instance"]["id"] for line in (out / "instances.jsonl").read_text().splitlines()]
    assert len(ids) == len(set(ids)) == 16
    attempts = [json.loads(line)["attempt"] for name in ("instances", "rejects") for line in (out / f"{name}.jsonl").read_text().splitlines()]
    assert sorted(attempts) == list(range(result.manifest.attempts))
    assert digest(out / "dataset") == digest(food_run.path / "dataset")


def test_resuming_with_other_settings_is_refused(tmp_path, food_run):
    config = GenerateConfig(domain="Food and Beverage", n=16, seed=3, max_depth=2)
    with pytest.raises(RunError, match=r"other settings \(max_depth: 3 -> 2\)"):
        generate(config, load_settings(), food_run.path)


@pytest.mark.parametrize(
    "change, message",
    [({"n": 0}, "-n must be at least 1"), ({"max_depth": -1}, "--max-depth must be between 1 and 5"),
     ({"max_depth": 9}, "--max-depth must be between 1 and 5"), ({"min_depth": 3, "max_depth": 2}, "--min-depth"),
     ({"shape": "spiral"}, "--shape 'spiral'"), ({"distractors": -2}, "--distractors")],
)
def test_bad_settings_fail_before_any_output(tmp_path, change, message):
    config = GenerateConfig(domain="Food and Beverage", n=5).model_copy(update=change)
    with pytest.raises(ConfigError, match=message):
        generate(config, load_settings(), tmp_path / "never")
    assert not (tmp_path / "never").exists()


def test_unknown_domain_lists_the_seed_domains(tmp_path):
    with pytest.raises(FactoryError, match="seed domains: .*Food and Beverage"):
        generate(GenerateConfig(domain="Underwater Basket Weaving", n=5), load_settings(), tmp_path / "x")


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere")
def test_unwritable_output_directory(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    with pytest.raises(RunError, match="cannot write to output directory"):
        generate(GenerateConfig(domain="Food and Beverage", n=2), load_settings(), locked / "run")


def test_output_path_that_is_a_file(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(RunError, match="cannot write to output directory"):
        generate(GenerateConfig(domain="Food and Beverage", n=2), load_settings(), blocker / "run")


CRASHING_TOOLBOX = '''
    import random
    from typing import Annotated
    from dataclasses import dataclass
    from factory.toolbox import Kind, Toolbox, World

    toolbox = Toolbox()

    @toolbox.world
    def build(rng: random.Random) -> World:
        return World()

    @toolbox.values_for("number")
    def numbers(w: World) -> list[int]:
        return [0, 1, 2, 3]

    @toolbox.tool(asks="invert {x}")
    def invert(x: Annotated[int, Kind("number")]) -> Annotated[float, Kind("ratio")]:
        """Invert a number.

        Args:
            x: The number.

        Returns:
            inverse: the inverse.
        """
        return 1 / x
'''


def test_a_tool_that_raises_is_a_seed_defect_naming_seed_and_tool_and_the_run_goes_on(tmp_path):
    from factory.errors import FactoryWarning

    seeds_dir = tmp_path / "seeds"
    write_seed(seeds_dir, "fragile", CRASHING_TOOLBOX)
    settings = load_settings({"seeds_dir": str(seeds_dir)})
    out = tmp_path / "fragile-run"
    with pytest.warns(FactoryWarning, match=r"seed defect: seed fragile, tool invert crashed in \d+ candidate"), \
            pytest.raises(RunError, match=r"kept \d+ of 30 instances"):
        generate(GenerateConfig(domain="fragile", n=30, distractors=0), settings, out, max_attempts=30)
    rejects = [json.loads(line) for line in (out / "rejects.jsonl").read_text().splitlines()]
    crashes = [r for r in rejects if r["stage"] == "seed_defect"]
    assert crashes and all("ZeroDivisionError" in r["reasons"][0] for r in crashes)
    assert crashes[0]["reasons"][0].startswith("seed defect: seed fragile, tool invert (") and "toolbox.py" in crashes[0]["reasons"][0]
    assert not [r for r in rejects if r["stage"] == "execution" and "ZeroDivisionError" in r["reasons"][0]]
    kept = (out / "instances.jsonl").read_text().splitlines()
    assert kept  # calls with x != 0 still make instances
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "incomplete" and "dataset/README.md" in manifest["files"]  # what it kept, exported
    assert f"**Incomplete run:** {len(kept)} of the 30 instances" in (out / "dataset" / "README.md").read_text()
    assert manifest["reject_reasons"]["seed defect"] == len(crashes)


def test_a_broken_seed_blocks_only_itself(tmp_path):
    from factory.errors import FactoryWarning, SeedError

    seeds_dir = tmp_path / "seeds"
    write_seed(seeds_dir, "fragile", CRASHING_TOOLBOX.replace("return 1 / x", "return 1 / (x + 1)"))
    write_seed(seeds_dir, "cracked", CRASHING_TOOLBOX.replace("toolbox = Toolbox()", "toolbox = Toolbox()\n    import nonexistent_module"))
    settings = load_settings({"seeds_dir": str(seeds_dir)})
    with pytest.warns(FactoryWarning, match="seed cracked skipped"):
        result = generate(GenerateConfig(domain="fragile", n=2, distractors=0), settings, tmp_path / "ok")
    assert len(result.instances) == 2
    with pytest.raises(SeedError, match="cracked/toolbox.py: importing the toolbox failed: ModuleNotFoundError"):
        generate(GenerateConfig(domain="Cracked", n=2), settings, tmp_path / "asked")


def test_the_committed_sample_run_is_current(tmp_path):
    """generated/sample is what its README command produces today, and it validates."""
    from factory.dataset.validate import validate_dataset

    sample = Path(__file__).parents[2] / "generated" / "sample"
    config = GenerateConfig(domain="all", n=12, max_depth=4, seed=1)
    again = generate(config, load_settings(), tmp_path / "sample")
    assert digest(again.path / "dataset") == digest(sample / "dataset")
    report = validate_dataset(sample / "dataset", load_settings())
    assert report.total == 12 and report.passed == 12, report.failures


def test_a_mixed_run_covers_every_category_and_follows_the_nestools_shapes(mixed_run):
    """The seed library's bar: a mixed run with every scenario category, shapes close to
    NesTools', varied queries that name no step, and no same-skeleton template twins."""
    from factory.dataset.stats import distribution

    stats = distribution(mixed_run.instances)
    # NesTools has no single-call instances, so neither has a run that follows its shapes.
    assert {"multiple_tool_call", "nested", "canonicalisation", "state_dependency", "insufficient_information",
            "cross_domain"} <= set(stats["categories"])
    assert stats["nestools_shapes"]["nestools_shape_tv_distance"] <= 0.3  # 150 instances: sampling noise is large
    assert stats["nestools_shapes"]["common_nestools_shape_share"] >= 0.7
    queries = stats["queries"]
    assert queries["step_number_share"] == 0 and queries["doubled_words"] == 0 and queries["empty_slots"] == 0
    assert queries["near_duplicate_pairs"] == 0
    assert queries["top_first_word_share"] <= 0.25 and queries["distinct_first_words"] >= 20
    assert len(stats["domains"]) >= 12


def test_every_kept_instance_passes_its_plausibility_rules_and_gold_is_fair(mixed_run):
    for instance in mixed_run.instances:
        checks = {c.name: c for c in instance.checks}
        assert checks["plausibility"].passed and checks["distractors"].passed


def test_every_instance_field_survives_the_dataset_round_trip(mixed_run):
    """Exported rows carry every field of an instance (a field left out would change its id)."""
    from factory.dataset.export import features, load_instances
    from factory.records import Instance

    columns = set(features(conversations=True))
    assert set(Instance.model_fields) <= columns
    assert set(Instance.model_fields) - set(features()) == {"conversation"}  # set only in the conversations config
    loaded = load_instances(mixed_run.path / "dataset")
    assert [i.id for i in loaded] == [i.id for i in mixed_run.instances]
    assert all(i.id == i.content_id() for i in loaded)
    assert any(i.stated_conditions for i in loaded)


def test_every_seed_of_a_mixed_run_gets_its_share(mixed_run):
    """--domain all: a seed whose tools fill few shapes (calendar) still gets at least
    MIN_SEED_SHARE of the instances, rather than 7 of 1,000."""
    from collections import Counter

    from factory.chains.seeded import MIN_SEED_SHARE
    from factory.seeds.library import load_seeds

    shares = Counter(i.domain for i in mixed_run.instances)
    from factory.config import resource_dir

    domains = {seed.domain for seed in load_seeds(Path(resource_dir("seeds"))).values()}
    assert {d: shares[d] for d in domains if shares[d] < MIN_SEED_SHARE * len(mixed_run.instances)} == {}


def test_a_seed_below_its_share_is_tried_first_until_it_proves_hopeless():
    """The first try of an attempt goes to the seed furthest below its share; one that has kept
    nothing after GIVE_UP_AFTER attempts per instance is left to the random draw, so a seed that
    cannot compose at all does not stall the run."""
    import random
    from collections import Counter
    from types import SimpleNamespace

    from factory.chains.seeded import GIVE_UP_AFTER, SeedComposer

    seeds = [SimpleNamespace(domain=d) for d in ("A", "B", "C")]
    composer = SimpleNamespace(targets=seeds, kept=Counter({"A": 50, "B": 50, "C": 0}), run_size=100)
    assert SeedComposer._target(composer, random.Random(0), 150, first=True).domain == "C"
    assert {SeedComposer._target(composer, random.Random(k), 150, first=False).domain for k in range(30)} == {"A", "B", "C"}
    picks = {SeedComposer._target(composer, random.Random(k), GIVE_UP_AFTER + 1, first=True).domain for k in range(30)}
    assert picks == {"A", "B", "C"}  # C kept nothing in GIVE_UP_AFTER attempts: drawn like the others
    composer.kept, composer.run_size = Counter({"A": 50, "B": 50, "C": 3}), 103
    assert SeedComposer._target(composer, random.Random(0), 3 * GIVE_UP_AFTER, first=True).domain == "C"


def test_a_killed_mixed_run_resumes_to_the_same_dataset(tmp_path):
    """The seeds' shares steer which seed an attempt tries first; a resumed run counts the
    instances it kept before, so it builds the candidates an uninterrupted run builds."""
    config = GenerateConfig(domain="all", n=40, seed=2, max_depth=3)
    whole = generate(config, load_settings(), tmp_path / "whole")

    resumed = resumed_after(config, tmp_path / "resumed", 23)
    assert resumed.resumed_from == 23
    assert digest(resumed.path / "dataset") == digest(whole.path / "dataset")
