"""Reference agents in static mode on the imported NesTools test set."""

from __future__ import annotations

import json
import random

import pytest

from factory.errors import ConfigError
from factory.evaluate.aggregate import static_metrics
from factory.evaluate.static.agents import oracle_calls, static_agent
from factory.evaluate.static.answers import Answer
from factory.evaluate.static.noise import ERRORS, INJECTORS, inject
from factory.evaluate.static.parse import parse_response
from factory.evaluate.static.scoring import score_response
from tests.evaluate.static.static_helpers import run, tasks


def test_oracle_scores_100_on_every_metric_of_all_1000_instances():
    metrics = static_metrics(run("oracle", tasks()))
    assert metrics and all(v == 1.0 for v in metrics.values()), metrics


# NesTools' own scorer (evaluation/eval.py) on these agents' answers to the 1,000 instances, as
# benchmarks/score_nestools.py --official prints its averages (in %, to one decimal).
OFFICIAL_AVERAGES = {"oracle": 100.0, "noisy:0.05": 90.1, "noisy:0.1": 81.2, "noisy:0.15": 72.2, "noisy:0.2": 65.2,
                     "noisy:0.25": 57.2, "noisy:0.3": 52.5, "noisy:0.4": 40.2, "noisy:0.5": 30.4, "noisy:0.7": 15.8,
                     "random": 3.7}


@pytest.mark.slow
def test_averages_agree_with_nestools_scorer_on_eleven_agents():
    averages = {agent: round(100 * static_metrics(run(agent, tasks()))["average"], 1) for agent in OFFICIAL_AVERAGES}
    assert averages == OFFICIAL_AVERAGES


def test_noisy_agents_rank_strictly_by_error_rate():
    averages = [static_metrics(run(f"noisy:{p}", tasks(300)))["average"] for p in (0.1, 0.3, 0.5)]
    assert 1.0 > averages[0] > averages[1] > averages[2] > 0.0


def test_random_agent_is_far_below_the_oracle():
    assert static_metrics(run("random", tasks(300)))["average"] < 0.3


def test_agents_are_reproducible_per_seed_and_trial():
    first = run("noisy:0.3", tasks(100), seed=4, trials=2)
    assert [s.output for s in run("noisy:0.3", tasks(100), seed=4, trials=2)] == [s.output for s in first]
    assert [s.output for s in run("noisy:0.3", tasks(100), seed=5, trials=2)] != [s.output for s in first]
    by_trial = {t: [s.output for s in first if s.trial == t] for t in (0, 1)}
    assert by_trial[0] != by_trial[1]


@pytest.mark.parametrize("error", [e for e in ERRORS if e != "malformed_output"])
def test_each_injected_error_costs_score(error):
    task = tasks(10)[0]  # three calls, nested: every error type applies
    text = inject(oracle_calls(task), [error], task, random.Random(0))
    sample = score_response(task, Answer(text), "t")
    assert sample.scores["format"] == 1.0 and sample.scores["tree"] == 0.0, error


def test_malformed_output_fails_the_format_every_way():
    task = tasks(10)[0]
    for seed in range(12):
        text = inject(oracle_calls(task), ["malformed_output"], task, random.Random(seed))
        assert not parse_response(text).ok, text


def test_injectors_cover_the_listed_error_types():
    assert set(ERRORS) == set(INJECTORS) | {"malformed_output"}
    assert len(ERRORS) == 7


@pytest.mark.parametrize("spec", ["noisy", "noisy:1.5", "noisy:x", "expert"])
def test_unknown_agents_are_config_errors(spec):
    with pytest.raises(ConfigError, match="unknown agent"):
        static_agent(spec)


def test_oracle_answers_in_the_prompt_format():
    task = tasks(10)[0]
    calls = json.loads(static_agent("oracle").respond(task, 0))
    assert calls[0]["api_id"] == task.gold[0]["api_id"]
    assert calls[1]["parameters"]["book_info"] == "API_call_0"
    assert calls[0]["responses"] == {"book_details": "API_call_0", "availability": "API_call_1"}
