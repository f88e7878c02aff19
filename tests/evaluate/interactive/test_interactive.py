"""Interactive mode with the reference agents: the oracle scores 100, noise ranks, runs repeat."""

from __future__ import annotations

import json
import random
import statistics

import pytest

from factory.errors import ConfigError
from factory.evaluate.interactive.agents import NOISE_KINDS, noisy_plan, reference_agent
from factory.evaluate.interactive.episode import run_interactive
from factory.evaluate.passk import pass_curve, pass_hat_k, pass_power_k
from factory.records import SampleResult
from tests.evaluate.interactive.interactive_instances import random_instances, seeds, wine_instance


@pytest.fixture(scope="module")
def instances():
    return [wine_instance(), wine_instance(withhold="get_product_origin"), *random_instances(40, rng_seed=3)]


def mean(results: list[SampleResult], key: str) -> float:
    return statistics.mean(r.scores[key] for r in results)


def test_oracle_scores_100_on_every_metric(instances):
    results = run_interactive(instances, reference_agent("oracle"), trials=2, seeds=seeds())
    assert len(results) == 2 * len(instances)
    for r in results:
        assert r.scores["milestone_similarity"] == 1, (r.instance_id, r.errors)
        assert r.scores["answer_match"] == 1 and r.scores["success"] == 1
        assert r.scores["minefield_hit"] == 0 and r.errors == []
    assert pass_power_k(results, 2) == 1


def test_oracle_on_the_wine_example_calls_each_gold_tool_once():
    (result,) = run_interactive([wine_instance()], reference_agent("oracle"), seeds=seeds())
    calls = [c["function"]["name"] for m in result.output if m.get("tool_calls") for c in m["tool_calls"]]
    assert calls == ["get_top_selling_wine", "get_product_origin", "get_export_quantity"]
    assert result.scores["turns"] == 4 and result.mode == "interactive" and result.agent == "oracle"
    assert result.prompt == result.output[:2] and result.output[1]["content"] == wine_instance().query


def test_withheld_tool_oracle_declines_and_hallucinating_it_hits_the_minefield():
    instance = wine_instance(withhold="get_product_origin")
    (oracle,) = run_interactive([instance], reference_agent("oracle"), seeds=seeds())
    assert "cannot" in oracle.output[-1]["content"]
    withheld = {m.tool for m in instance.minefields}
    noisy = run_interactive([instance], reference_agent("noisy:1"), trials=30, seeds=seeds())
    hit = [r for r in noisy if r.scores["minefield_hit"]]
    assert hit and all(r.scores["milestone_similarity"] == 0 for r in hit)
    assert all(
        any(c["function"]["name"] in withheld for m in r.output if m.get("tool_calls") for c in m["tool_calls"])
        for r in hit
    )


def test_noisy_rates_rank_strictly(instances):
    scores = {}
    for agent in ("oracle", "noisy:0.1", "noisy:0.3", "noisy:0.5", "random"):
        results = run_interactive(instances, reference_agent(agent), trials=3, seeds=seeds())
        scores[agent] = (mean(results, "milestone_similarity"), mean(results, "answer_match"))
    ranked = [scores[a][0] for a in ("oracle", "noisy:0.1", "noisy:0.3", "noisy:0.5", "random")]
    assert ranked == sorted(ranked, reverse=True) and len(set(ranked)) == len(ranked), scores
    assert scores["noisy:0.1"][1] > scores["noisy:0.5"][1] > scores["random"][1]


def test_every_noise_kind_is_injected():
    rng = random.Random(0)
    kinds, shortened = set(), 0
    for instance in [wine_instance(), *random_instances(20, rng_seed=5)]:
        plan = noisy_plan(instance, 1.0, rng)
        kinds |= {a.noise for a in plan}
        shortened += len(plan) < len(instance.chain.calls)  # an omitted call leaves no action
    assert kinds >= set(NOISE_KINDS) - {"omitted_call"} and shortened
    clean = noisy_plan(wine_instance(), 0.0, rng)
    assert [a.call for a in clean] == [0, 1, 2] and all(a.noise is None for a in clean)


def test_omitted_calls_shorten_the_trajectory():
    results = run_interactive(random_instances(30, rng_seed=4), reference_agent("noisy:0.6"), seeds=seeds())
    gold = {i.id: len(i.chain.calls) for i in random_instances(30, rng_seed=4)}
    assert any(r.scores["tool_calls"] < gold[r.instance_id] for r in results)


def test_runs_are_deterministic(instances):
    agent = reference_agent("noisy:0.3", seed=11)
    first = run_interactive(instances, agent, trials=2, seeds=seeds())
    again = run_interactive(instances, reference_agent("noisy:0.3", seed=11), trials=2, seeds=seeds(), workers=4)
    assert [r.to_json() for r in first] == [r.to_json() for r in again]
    other = run_interactive(instances, reference_agent("noisy:0.3", seed=12), trials=2, seeds=seeds())
    assert [r.to_json() for r in first] != [r.to_json() for r in other]


def test_transcripts_answer_every_tool_call(instances):
    for r in run_interactive(instances[:10], reference_agent("noisy:0.5"), seeds=seeds()):
        asked = [c["id"] for m in r.output if m.get("tool_calls") for c in m["tool_calls"]]
        answered = [m["tool_call_id"] for m in r.output if m["role"] == "tool"]
        assert asked == answered
        assert all(isinstance(json.loads(m["content"]), dict) for m in r.output if m["role"] == "tool")


def test_random_agent_rarely_succeeds(instances):
    results = run_interactive(instances, reference_agent("random"), seeds=seeds())
    assert mean(results, "milestone_similarity") < 0.2


@pytest.mark.parametrize("spec", ["noisy", "noisy:x", "noisy:1.5", "oracle2", ""])
def test_bad_agent_names_are_clear_errors(spec):
    with pytest.raises(ConfigError, match="unknown agent"):
        reference_agent(spec)


def test_pass_hat_k_estimates():
    assert pass_hat_k(4, 4, 3) == 1 and pass_hat_k(0, 4, 1) == 0
    assert pass_hat_k(2, 4, 1) == 0.5 and pass_hat_k(2, 4, 2) == pytest.approx(1 / 6)
    with pytest.raises(ValueError):
        pass_hat_k(1, 2, 3)
    results = [
        SampleResult(instance_id=i, mode="interactive", agent="a", trial=t, scores={"success": float(s)})
        for i, outcomes in (("a", [1, 1, 0]), ("b", [1, 1, 1]))
        for t, s in enumerate(outcomes)
    ]
    assert pass_power_k(results, 1) == pytest.approx((2 / 3 + 1) / 2)
    assert pass_curve(results) == pytest.approx({1: 5 / 6, 2: (1 / 3 + 1) / 2, 3: 0.5})


def test_missing_seed_toolbox_and_bad_limits_are_clear_errors():
    with pytest.raises(ConfigError, match="food_and_beverage"):
        run_interactive([wine_instance()], reference_agent("oracle"), seeds={"other": seeds()["food_and_beverage"]})
    with pytest.raises(ConfigError, match="max_turns=0"):
        run_interactive([wine_instance()], reference_agent("oracle"), max_turns=0, seeds=seeds())


def test_the_system_message_comes_from_the_editable_prompt_file(tmp_path):
    from factory.evaluate.interactive.episode import PROMPT_FILE, load_system_prompt

    (result,) = run_interactive([wine_instance()], reference_agent("oracle"), seeds=seeds())
    assert result.prompt[0] == {"role": "system", "content": load_system_prompt()}
    assert "final answer" in result.prompt[0]["content"]
    (tmp_path / PROMPT_FILE).write_text("Be brief.\n")
    assert load_system_prompt(tmp_path) == "Be brief."
    with pytest.raises(ConfigError, match="missing prompt file"):
        load_system_prompt(tmp_path / "nowhere")
    (custom,) = run_interactive([wine_instance()], reference_agent("oracle"), seeds=seeds(), system_prompt="Hi.")
    assert custom.prompt[0]["content"] == "Hi."
