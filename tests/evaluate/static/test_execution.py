"""The execution-based pass rate of static mode: any plan reaching the gold answer and state passes."""

from __future__ import annotations

import json

import pytest

from factory.config import load_settings
from factory.evaluate.aggregate import confidence_intervals, static_metrics
from factory.evaluate.static.agents import oracle_calls
from factory.evaluate.static.answers import Answer
from factory.evaluate.static.augment import parse_augment
from factory.evaluate.static.execution import executable, execution_pass
from factory.evaluate.static.scoring import score_response
from factory.evaluate.static.tasks import build_tasks, load_template
from factory.evaluate.tool_ids import identities
from factory.seeds.library import load_seeds
from tests.evaluate.static.static_helpers import run


@pytest.fixture(scope="module")
def seeds():
    return load_seeds(load_settings().seeds_dir)


@pytest.fixture(scope="module")
def static_tasks(mixed_run):
    instances = mixed_run.instances
    built, _ = build_tasks(instances, identities(instances), parse_augment([]), load_template(load_settings().prompts_dir))
    return [t for t in built if executable(t.instance)]


def test_the_oracle_passes_by_execution_on_every_instance_with_a_world(static_tasks, seeds):
    assert len(static_tasks) > 50
    samples = [score_response(t, Answer(json.dumps(oracle_calls(t))), "oracle", seeds=seeds) for t in static_tasks]
    assert all(s.scores["exec_pass"] == 1.0 for s in samples), [s.instance_id for s in samples if s.scores["exec_pass"] < 1]
    metrics = static_metrics(samples)
    assert metrics["execution_pass_rate"] == 1.0 == metrics["tree_pass_rate"]
    assert confidence_intervals(samples, "static")["execution_pass_rate"] == (1.0, 1.0)


def test_writing_nested_values_out_fails_nestools_tree_but_passes_by_execution(static_tasks, seeds):
    nested = [t for t in static_tasks if any("API_call" in json.dumps(c["parameters"]) for c in t.gold)]
    assert nested
    for task in nested[:20]:
        calls = oracle_calls(task)
        values = {}
        for step in task.instance.trace.steps:
            call = task.instance.chain.calls[step.call]
            labels = task.gold[step.call]["responses"]
            values.update({label: step.outputs[var] for label, var in zip(labels, call.outputs, strict=True)})
        for call in calls:
            call["parameters"] = {k: values.get(v, v) if isinstance(v, str) else v for k, v in call["parameters"].items()}
        sample = score_response(task, Answer(json.dumps(calls)), "literal", seeds=seeds)
        assert sample.scores["tree"] == 0.0 and sample.scores["exec_pass"] == 1.0, task.instance.id


def test_a_wrong_value_or_a_missing_action_fails_by_execution(static_tasks, seeds):
    literal = next(t for t in static_tasks if any(isinstance(v, str) and "API_call" not in v
                                                 for c in t.gold for v in c["parameters"].values()))
    calls = oracle_calls(literal)
    for call in calls:
        name, value = next(((k, v) for k, v in call["parameters"].items() if isinstance(v, str) and "API_call" not in v),
                           (None, None))
        if name:
            call["parameters"][name] = "Qwxz Nowhere"
            break
    assert execution_pass(literal.instance, calls, seeds) == 0.0

    acting, changed = next((t, i) for t in static_tasks for i in range(1, len(t.gold))
                           if t.instance.trace.steps[i].state != t.instance.trace.steps[i - 1].state)
    calls = [c for i, c in enumerate(oracle_calls(acting)) if i != changed]
    assert execution_pass(acting.instance, calls, seeds) == 0.0
    assert execution_pass(acting.instance, [], seeds) == 0.0


def test_noisy_plans_pass_by_execution_less_often(static_tasks, seeds):
    from factory.evaluate.static.agents import agent_responder, static_agent
    from factory.evaluate.static.scoring import run_static

    rates = [static_metrics(run_static(static_tasks, agent_responder(static_agent(agent, 0)), agent, 1, seeds))
             ["execution_pass_rate"] for agent in ("oracle", "noisy:0.3", "random")]
    assert rates[0] == 1.0 > rates[1] > rates[2]


def test_imported_data_without_worlds_has_no_execution_score():
    from tests.evaluate.static.static_helpers import tasks

    samples = run("oracle", tasks(20))
    assert all("exec_pass" not in s.scores for s in samples) and "execution_pass_rate" not in static_metrics(samples)
