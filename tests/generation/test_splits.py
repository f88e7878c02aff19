"""Splits of one run: the sizes asked for, one Parquet split each, nothing held out leaking into
another split, comparable shapes, and the same bytes from the same command, resumed or not."""


import pytest

from factory.chains.shapes import family_of
from factory.config import load_settings
from factory.dataset.export import load_instances, split_names
from factory.dataset.stats import shape_tv
from factory.errors import ConfigError
from factory.generation.generate import generate
from factory.generation.splits import STEERED_CATEGORIES, leaks, parse_splits, unit_set
from factory.records import GenerateConfig, parse_shape
from tests.run_helpers import digest, resumed_after

pytestmark = pytest.mark.slow  # end-to-end runs: `make test` runs them, `pytest -m "not slow"` leaves them out



def splits_of(run):
    dataset = run.path / "dataset"
    return {name: load_instances(dataset, name) for name in split_names(dataset)}


def test_split_sizes_are_read_as_name_size_pairs():
    assert parse_splits("train=800, validation=100,test=100") == {"train": 800, "validation": 100, "test": 100}
    for bad in ("train", "train=x", "train=0", "a=1,a=2", "my-split=3", ""):
        with pytest.raises(ConfigError):
            parse_splits(bad)


@pytest.mark.parametrize("change, message", [
    ({"hold_out": "tools"}, "--hold-out needs --splits"),
    ({"splits": {"train": 3, "test": 1}, "hold_out": "colours"}, "--hold-out takes tools, skeletons, domains"),
    ({"splits": {"train": 3, "test": 3}}, "add up to 6 instances, -n is 4"),
])
def test_bad_split_settings_fail_before_any_output(tmp_path, change, message):
    config = GenerateConfig(domain="Food and Beverage", n=4).model_copy(update=change)
    with pytest.raises(ConfigError, match=message):
        generate(config, load_settings(), tmp_path / "never")
    assert not (tmp_path / "never").exists()


@pytest.mark.slow
def test_a_thousand_instances_hold_their_test_tools_out_of_train_and_validation(tmp_path):
    config = GenerateConfig(domain="all", n=1000, seed=4242, splits={"train": 800, "validation": 100, "test": 100},
                            hold_out="tools")
    run = generate(config, load_settings(), tmp_path / "run")
    splits = splits_of(run)
    assert {name: len(group) for name, group in splits.items()} == {"train": 800, "validation": 100, "test": 100}
    test_tools = set().union(*(unit_set(i, "tools") for i in splits["test"]))
    other_tools = set().union(*(unit_set(i, "tools") for name in ("train", "validation") for i in splits[name]))
    assert test_tools and not test_tools & other_tools
    assert not leaks(splits, "tools", "test")
    # Shapes and categories stay comparable: 100 test instances cut as closely as they can be to
    # train's shapes give 0.063 (measured: 0.08 by shape; 0.239 before the held goals were drawn
    # and steered by the shapes and scenarios they fill with instances that pass the checks, and
    # a shape over its share refused, when test also had no state-dependency item against 7%).
    families = {name: [family_of(*parse_shape(i.shape)) for i in group] for name, group in splits.items()}
    share = {name: {f: fam.count(f) / len(fam) for f in set(fam)} for name, fam in families.items()}
    family_tv = 0.5 * sum(abs(share["train"].get(f, 0) - share["test"].get(f, 0)) for f in set(share["train"]) | set(share["test"]))
    assert family_tv <= 0.1
    assert shape_tv(splits["train"], splits["test"]) <= 0.1 and shape_tv(splits["train"], splits["validation"]) <= 0.1
    # Every category train has at least 3% of is in test too, each within 0.1 of train's share
    # (steering adds what the held split lacks; it does not hold back what its goals lean to:
    # measured 0.059, cross-domain items, and 0.096 on seed 2025).
    for category in STEERED_CATEGORIES:
        train, test = (sum(category in i.categories for i in splits[n]) / len(splits[n]) for n in ("train", "test"))
        assert abs(train - test) <= 0.1 and (test > 0 or train < 0.03), (category, train, test)
    card = (run.path / "dataset" / "README.md").read_text()
    assert "- split: validation" in card and "## Splits" in card and "another split also has: 0" in card
    import datasets

    loaded = datasets.load_dataset(str(run.path / "dataset"))
    assert {name: loaded[name].num_rows for name in loaded} == {"train": 800, "validation": 100, "test": 100}


def test_held_out_domains_and_skeletons_stay_in_their_split(tmp_path):
    for hold_out, domain in (("domains", "all"), ("skeletons", "Food and Beverage")):
        config = GenerateConfig(domain=domain, n=40, seed=2, max_depth=3, splits={"train": 30, "test": 10},
                                hold_out=hold_out)
        splits = splits_of(generate(config, load_settings(), tmp_path / hold_out))
        assert [len(splits["train"]), len(splits["test"])] == [30, 10]
        assert not leaks(splits, hold_out, "test"), hold_out



def test_splits_are_byte_reproducible_and_a_resumed_run_cuts_them_alike(tmp_path):
    config = GenerateConfig(domain="Food and Beverage", n=30, seed=5, max_depth=3,
                            splits={"train": 20, "validation": 5, "test": 5}, hold_out="tools")
    whole = generate(config, load_settings(), tmp_path / "whole")
    assert split_names(whole.path / "dataset") == ["test", "train", "validation"]

    resumed = resumed_after(config, tmp_path / "resumed", 17)
    assert resumed.resumed_from == 17 and digest(resumed.path / "dataset") == digest(whole.path / "dataset")
    assert not leaks(splits_of(whole), "tools", "test")
    from factory.config import load_settings as settings
    from factory.dataset.validate import validate_dataset

    report = validate_dataset(whole.path / "dataset", settings(), run_dir=whole.path)
    assert report.ok, report.failures[:3]


def test_a_run_without_splits_keeps_its_id_and_card():
    config = GenerateConfig(domain="Food and Beverage", n=16, seed=3, max_depth=3)
    assert set(config.model_dump()) == {"domain", "n", "seed", "max_depth", "min_depth", "shape", "distractors", "split",
                                        "policy", "generator", "temperature"}
