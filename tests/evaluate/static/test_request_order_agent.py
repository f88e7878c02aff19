"""The request-order agent: the gold calls in the order a literal-minded reader takes from the
request's text (factory.evaluate.static.reading)."""

from __future__ import annotations

import pytest

from factory.config import load_settings
from factory.evaluate.aggregate import static_metrics
from factory.evaluate.static.agents import agent_responder, static_agent
from factory.evaluate.static.augment import parse_augment
from factory.evaluate.static.reading import Phrasings, read_order
from factory.evaluate.static.scoring import run_static
from factory.evaluate.static.tasks import build_tasks, load_template
from factory.evaluate.tool_ids import identities
from factory.queries.order import request_order
from factory.seeds.library import load_seeds


@pytest.fixture(scope="module")
def seeds():
    return load_seeds(load_settings().seeds_dir)


@pytest.fixture(scope="module")
def static_tasks(mixed_run):
    instances = mixed_run.instances
    template = load_template(load_settings().prompts_dir)
    return build_tasks(instances, identities(instances), parse_augment([]), template)[0]


def test_it_scores_100_on_order_and_tree_since_the_gold_follows_the_request(static_tasks, seeds):
    agent = agent_responder(static_agent("request-order", 0, seeds))
    samples = run_static(static_tasks, agent, "request-order", 1, seeds)
    metrics = static_metrics(samples)
    assert len(samples) > 100 and metrics["order_f1"] == 1.0 == metrics["tree_pass_rate"], metrics


def test_it_reads_the_order_from_the_text_not_from_the_gold_list(static_tasks, seeds):
    """Handed the gold calls in another order their dependencies allow, it still writes them
    in the order the request asks for them."""
    phrasings = Phrasings.of(seeds)
    moved = 0
    for task in static_tasks:
        chain = task.instance.chain
        other = request_order(chain, list(reversed(range(len(chain.calls)))))  # the last part asked for first
        if other == sorted(other):
            continue
        shuffled = task.instance.model_copy(update={"chain": chain.reordered(other)})
        assert [other[k] for k in read_order(shuffled, task.query, phrasings)] == list(range(len(other))), task.query
        moved += 1
    assert moved > 20


def test_it_is_a_static_mode_agent_only():
    from factory.errors import ConfigError
    from factory.evaluate.interactive.agents import reference_agent

    with pytest.raises(ConfigError, match="static-mode agent"):
        reference_agent("request-order")


def test_a_name_s_period_that_ends_a_sentence_is_read_as_both(seeds):
    """"... market capitalisation of Pacific Streamworks Inc. Another thing: ...": the name's
    period also ends the phrasing's sentence, and the market cap is read first."""
    from factory.chains.code import parse_chain
    from factory.records import Instance

    finance = seeds["finance_stocks"]
    chain = parse_chain('t = lookup_ticker_symbol(company="Pacific Streamworks Inc.")\n'
                        'm = get_market_cap(symbol=t)\n'
                        'p = find_sector_peers(symbol=t)', finance.specs)
    chain = chain.model_copy(update={"calls": [c.model_copy(update={"asked": i > 0}) for i, c in enumerate(chain.calls)]})
    instance = Instance.model_construct(domain=finance.domain, query="q", chain=chain, withheld_tools=[],
                                        tools=[finance.specs[c.tool] for c in chain.calls])
    query = ("For a valuation memo, I need the current market capitalisation of Pacific Streamworks Inc. "
             "Another thing: what other stocks share a sector with that stock? Biggest first.")
    assert read_order(instance, query, Phrasings.of(seeds)) == [0, 1, 2]
