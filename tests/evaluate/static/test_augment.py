"""Robustness variants: what the model sees changes; the oracle still scores 100."""

from __future__ import annotations

import json

import pytest

from factory.errors import ConfigError
from factory.evaluate.aggregate import static_metrics
from factory.evaluate.static.augment import parse_augment, strip_conjunctions
from tests.evaluate.static.static_helpers import run, tasks

pytestmark = pytest.mark.slow  # scores NesTools' 1,000 tasks under each variant

VARIANTS = [("distractors=0",), ("distractors=3",), ("distractors=all",), ("scramble",), ("no-descriptions",),
            ("no-arg-descriptions",), ("no-types",), ("no-conjunctions",),
            ("scramble,no-types,no-descriptions", "distractors=10")]


@pytest.mark.parametrize("augment", VARIANTS)
def test_oracle_still_scores_100(augment):
    metrics = static_metrics(run("oracle", tasks(60, augment)))
    assert all(v == 1.0 for v in metrics.values())


def test_distractor_counts():
    plain, none, three = tasks(30), tasks(30, ("distractors=0",)), tasks(30, ("distractors=3",))
    for p, n, t in zip(plain, none, three, strict=True):
        gold = set(p.instance.gold_tools)
        assert {x["api_name"] for x in n.tools} == gold
        assert len(t.tools) == len(gold) + 3 and gold <= {x["api_name"] for x in t.tools}
        assert len(p.tools) == len(p.instance.tools)


def test_removals_and_scrambling_change_the_view_only():
    task = tasks(5, ("scramble", "no-types", "no-descriptions", "no-arg-descriptions"))[0]
    shown = task.tools[0]
    assert shown["api_name"].startswith("fn_") and task.names[shown["api_name"]] in task.instance.gold_tools + [
        t.name for t in task.instance.tools]
    assert "api_description" not in shown
    assert all(set(p) == set() for p in shown["parameters"].values())
    assert all("type" not in r and "description" in r for r in shown["responses"].values())
    assert not any(t.name in task.prompt for t in task.instance.tools)
    assert task.gold[0]["api_name"] == task.instance.chain.calls[0].tool  # gold keeps real names


def test_scrambled_answers_are_mapped_back():
    task = tasks(5, ("scramble",))[0]
    sample = run("oracle", [task])[0]
    assert json.loads(sample.output)[0]["api_name"].startswith("fn_") and sample.scores["tree"] == 1.0


def test_conjunction_free_query():
    assert strip_conjunctions("First, find the wine. Then get its origin, and after that report the price.") == (
        "Find the wine. Get its origin, report the price.")
    assert strip_conjunctions("Book a 500 sq. ft. room, then clean it afterwards.") == "Book a 500 sq. ft. room, clean it."
    task = tasks(10, ("no-conjunctions",))[1]
    assert "Subsequently" in task.instance.query and "Subsequently" not in task.query


@pytest.mark.parametrize("bad", ["distractors=some", "shuffle", "scramble,typo"])
def test_unknown_options_are_config_errors(bad):
    with pytest.raises(ConfigError, match="--augment"):
        parse_augment([bad])
