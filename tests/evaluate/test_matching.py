"""Milestone similarity: hand-computed cases, and the exact DP against exhaustive search."""

from __future__ import annotations

import random

import pytest

from factory.evaluate.matching import (
    Step,
    ancestors,
    best_mapping,
    binding_ancestors,
    call_similarity,
    exhaustive_mapping,
    minefield_hit,
    ordered_mapping,
    parts,
    score_milestones,
    similarity_matrix,
)
from factory.records import Expected, Milestone, Minefield


def call(index: int, tool: str, after: list[int] | None = None, **args: object) -> Milestone:
    expected = {k: v if isinstance(v, Expected) else Expected(value=v) for k, v in args.items()}
    return Milestone(index=index, kind="call", description="", tool=tool, arguments=expected, after=after or [])


def answer(index: int, after: list[int], **values: object) -> Milestone:
    return Milestone(index=index, kind="answer", description="", answer=values, after=after)


def consistent(mapping: dict[int, int], edges: list[tuple[int, int]], n: int) -> bool:
    """Distinct steps, and u ⇝ v with both matched implies step(u) < step(v)."""
    if len(set(mapping.values())) != len(mapping):
        return False
    up = ancestors(n, edges)
    return all(
        mapping[u] < mapping[v]
        for u in mapping for v in mapping if u != v and up[v] >> u & 1
    )


# --- hand-computed cases -------------------------------------------------------------------


def test_chain_in_order_matches_fully():
    weights = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    assert best_mapping(weights, [(0, 1), (1, 2)]).total == 3


def test_swapped_order_keeps_only_one_of_two_dependent_milestones():
    # B must follow A, but the agent called B first.
    weights = [[0, 1], [1, 0]]
    mapping = best_mapping(weights, [(0, 1)])
    assert mapping.total == 1
    assert best_mapping(weights, []).total == 2  # without the edge both fit


def test_independent_milestones_take_the_best_assignment():
    # Greedy (m0 → s0) would give 1.0; the best is m0 → s1, m1 → s0 = 1.5.
    weights = [[1.0, 0.5], [1.0, 0.0]]
    mapping = best_mapping(weights, [])
    assert mapping.total == 1.5 and mapping.steps == {0: 1, 1: 0}


def test_order_is_transitive_through_an_unmatched_milestone():
    # A → B → C; B never happened; C at step 0 and A at step 1 cannot both count.
    weights = [[0, 1], [0, 0], [1, 0]]
    assert best_mapping(weights, [(0, 1), (1, 2)]).total == 1


def test_repeated_call_lets_a_later_step_satisfy_the_order():
    # A at steps 0 and 2, B (after A) only at step 1: A@0, B@1.
    weights = [[1, 0, 1], [0, 1, 0]]
    mapping = best_mapping(weights, [(0, 1)])
    assert mapping.total == 2 and mapping.steps == {0: 0, 1: 1}


def test_one_step_serves_one_milestone():
    weights = [[1], [1]]
    assert best_mapping(weights, []).total == 1


def test_cycle_is_rejected():
    with pytest.raises(ValueError, match="cycle"):
        best_mapping([[1], [1]], [(0, 1), (1, 0)])


def test_call_similarity_needs_the_tool_and_counts_arguments():
    m = call(0, "get_export_quantity", location="USA", date="2025-05-08", product="Ramey Merlot")
    assert call_similarity(m, Step("get_import_quantity", {"location": "USA"})) == 0
    two_of_three = Step("get_export_quantity", {"location": "usa ", "date": "2025-05-08", "product": "Ridge"})
    assert call_similarity(m, two_of_three) == pytest.approx(2 / 3)
    assert call_similarity(m, Step("get_export_quantity", None)) == 0  # arguments were not JSON
    assert call_similarity(call(1, "now"), Step("now", {})) == 1
    refused = Step("get_export_quantity", {"location": "USA", "date": "2025-05-08", "product": "Ramey Merlot"}, ok=False)
    assert call_similarity(m, refused) == 0  # the tool refused it (say, state not met): no milestone


def test_literals_are_normalised_but_nested_values_must_be_exact():
    m = call(0, "f", name="Ramey Chardonnay", wine=Expected(value="Ramey Chardonnay", source="data0"), n=5)
    loose = Step("f", {"name": "  ramey   CHARDONNAY", "wine": "ramey chardonnay", "n": 5.0})
    assert call_similarity(m, loose) == pytest.approx(2 / 3)
    assert call_similarity(m, Step("f", {"name": "x", "wine": "Ramey Chardonnay", "n": True})) == pytest.approx(1 / 3)


def test_answer_milestone_only_matches_the_final_message():
    milestones = [call(0, "f", x=1), answer(1, [0], out=10783)]
    steps = [Step("f", {"x": 1})]
    assert score_milestones(milestones, [], steps, "It is 10,783.").similarity == 1
    assert score_milestones(milestones, [], steps, None).similarity == 0.5
    assert score_milestones(milestones, [], steps, "no idea").similarity == 0.5


def test_minefield_zeroes_the_score_but_keeps_the_match():
    milestones = [call(0, "f", x=1), answer(1, [0], out=3)]
    mines = [Minefield(tool="g", reason="withheld"), Minefield(tool="f", arguments={"x": Expected(value=2)}, reason="")]
    clean = score_milestones(milestones, mines, [Step("f", {"x": 1})], "3")
    assert clean.similarity == 1 and clean.minefields_hit == []
    hit = score_milestones(milestones, mines, [Step("g", {}), Step("f", {"x": 1})], "3")
    assert hit.similarity == 0 and hit.matched == 1 and hit.minefields_hit == [0]
    assert minefield_hit(mines[1], Step("f", {"x": 2})) and not minefield_hit(mines[1], Step("f", {"x": 1}))


def test_wine_example_mapping():
    # m0 → m1, m0 → m2, m1 → m2, m2 → answer; the agent retried m0 with a typo first.
    m = [
        call(0, "top", location="California", date="2025-05-08"),
        call(1, "origin", [0], product=Expected(value="Ramey Merlot", source="data0")),
        call(2, "export", [0, 1], location=Expected(value="USA", source="data2"), product=Expected(value="Ramey Merlot", source="data0")),
        answer(3, [2], quantity=10783),
    ]
    steps = [
        Step("top", {"location": "Californa", "date": "2025-05-08"}),
        Step("top", {"location": "California", "date": "2025-05-08"}),
        Step("export", {"location": "USA", "product": "Ramey Merlot"}),  # too early: origin not known yet
        Step("origin", {"product": "Ramey Merlot"}),
        Step("export", {"location": "USA", "product": "Ramey Merlot"}),
    ]
    score = score_milestones(m, [], steps, "The export quantity is 10783.")
    assert score.mapping == {0: 1, 1: 3, 2: 4, 3: 5}
    assert score.similarity == 1


# --- the DP is exact -----------------------------------------------------------------------


def random_case(rng: random.Random, n: int, t: int, density: float) -> tuple[list[list[float]], list[tuple[int, int]]]:
    edges = [(u, v) for v in range(n) for u in range(v) if rng.random() < density]
    order = list(range(n))
    rng.shuffle(order)  # milestone positions need not be topological
    edges = [(order[u], order[v]) for u, v in edges]
    values = [0.0, 0.0, 0.0, 0.25, 0.5, 1.0, 1.0]
    weights = [[rng.choice(values) for _ in range(t)] for _ in range(n)]
    return weights, edges


@pytest.mark.parametrize("case_seed", range(300))
def test_dp_equals_exhaustive_search(case_seed):
    rng = random.Random(case_seed)
    n, t = rng.randint(1, 7), rng.randint(0, 9)
    weights, edges = random_case(rng, n, t, rng.choice([0.0, 0.2, 0.5, 0.9]))
    fast, slow = best_mapping(weights, edges), exhaustive_mapping(weights, edges)
    assert fast.total == pytest.approx(slow.total, abs=1e-9)
    assert consistent(fast.steps, edges, n)
    assert sum(weights[i][j] for i, j in fast.steps.items()) == pytest.approx(fast.total, abs=1e-9)


@pytest.mark.parametrize("case_seed", range(200))
def test_wide_and_shared_cases_equal_exhaustive_search_and_the_plain_dp(case_seed):
    # Antichains and sparse orders whose milestones compete for the same steps: the
    # assignment and the per-part programme must find the plain programme's optimum.
    rng = random.Random(10_000 + case_seed)
    n, t = rng.randint(2, 8), rng.randint(1, 10)
    weights, edges = random_case(rng, n, t, rng.choice([0.0, 0.0, 0.1, 0.3]))
    fast = best_mapping(weights, edges)
    assert fast.total == pytest.approx(exhaustive_mapping(weights, edges).total, abs=1e-9)
    assert fast.total == pytest.approx(ordered_mapping(weights, ancestors(n, edges)).total, abs=1e-9)
    assert consistent(fast.steps, edges, n)


def test_a_constraint_that_cannot_be_broken_is_dropped():
    # m0 scores only at steps 0-1, m1 (after m0) only at 2-3: never out of order. m2 (after m0)
    # can score at step 0, before m0's step 1: that constraint binds.
    weights = [[1, 1, 0, 0], [0, 0, 1, 1], [1, 0, 0, 0]]
    up = binding_ancestors(weights, ancestors(3, [(0, 1), (0, 2)]))
    assert up == [0b001, 0b010, 0b101]


def test_parts_share_no_step_and_no_binding_constraint():
    weights = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 1, 1, 0], [0, 0, 0, 0], [0, 0, 0, 1]]
    up = binding_ancestors(weights, ancestors(5, [(4, 0)]))  # m4 at step 3 after m0 at step 0: binds
    assert sorted(parts(weights, up)) == [([0, 4], [0, 3]), ([1, 2], [1, 2])]  # m3 scores nowhere


def test_unordered_milestones_sharing_steps_take_distinct_steps():
    weights = [[1.0, 1.0, 0.5], [1.0, 0.0, 0.0], [0.5, 1.0, 0.0]]
    mapping = best_mapping(weights, [])
    assert mapping.total == 2.5 and mapping.steps == {0: 2, 1: 0, 2: 1}


def test_dp_is_deterministic():
    rng = random.Random(7)
    weights, edges = random_case(rng, 8, 20, 0.3)
    assert best_mapping(weights, edges) == best_mapping(weights, edges)


def test_any_call_producing_the_needed_values_meets_a_call_milestone():
    from factory.records import Milestone

    m = Milestone(index=0, kind="call", tool="get_nearest_city", description="",
                  arguments={"lat": Expected(value=1.0), "lon": Expected(value=2.0)}, needs=["Paris", "France"])
    assert call_similarity(m, Step("get_city_from_coordinates", {"la": 1.0}, outputs=("France", "Paris", 3.2))) == 1
    assert call_similarity(m, Step("get_city_from_coordinates", {"la": 1.0}, outputs=("Paris",))) == 0
    assert call_similarity(m, Step("get_nearest_city", {"lat": 9.0, "lon": 9.0}, outputs=("Paris", "France"))) == 1
    assert call_similarity(m, Step("other", {}, ok=False, outputs=("Paris", "France"))) == 0


def test_a_state_milestone_is_met_by_whatever_call_restores_its_condition():
    from factory.records import Milestone

    m = Milestone(index=0, kind="state", condition="phone:wifi", tool="set_wifi", description="")
    assert call_similarity(m, Step("set_wifi", {"on": True}, restored=frozenset({"phone:wifi"}))) == 1
    assert call_similarity(m, Step("reset_network", {}, restored=frozenset({"phone:wifi"}))) == 1
    assert call_similarity(m, Step("set_wifi", {"on": True})) == 0  # it held already: nothing restored


def test_a_search_that_finds_the_one_needed_value_meets_the_milestone():
    """Resolving "coffee kenji" to EVT-1056 or searching the calendar for it and finding
    ["EVT-1056"] alone: either way the agent has the event; a search that finds two does not say which."""
    resolve = Milestone(index=0, kind="call", description="", tool="resolve_event_mention",
                        arguments={"mention": Expected(value="coffee kenji")}, needs=["EVT-1056"])
    assert call_similarity(resolve, Step("search_calendar", {"query": "coffee kenji"}, outputs=(["EVT-1056"],))) == 1.0
    assert call_similarity(resolve, Step("search_calendar", {"query": "coffee"}, outputs=(["EVT-1056", "EVT-1060"],))) == 0.0
    listed = Milestone(index=0, kind="call", description="", tool="search_calendar", needs=[["EVT-1056"]])
    assert call_similarity(listed, Step("resolve_event_mention", {"mention": "x"}, outputs=("EVT-1056",))) == 0.0


def test_a_list_holding_the_needed_value_among_others_meets_the_milestone_once_a_later_call_takes_it():
    """The day's events hold the book club among four: an agent that goes on with EVT-1157 found
    it (reading 24 #29); one that stops at the list, or goes on with another, did not."""
    resolve = Milestone(index=0, kind="call", description="", tool="resolve_event_mention",
                        arguments={"mention": Expected(value="book club on 7 August")}, needs=["EVT-1157"])
    day = Step("list_events_on_date", {"date": "2025-08-07"}, outputs=(["EVT-1155", "EVT-1157", "EVT-1158"],))
    went_on = [day, Step("move_event", {"event_id": "EVT-1157", "new_start": "2025-07-22T18:00"})]
    other = [day, Step("move_event", {"event_id": "EVT-1155", "new_start": "2025-07-22T18:00"})]
    assert similarity_matrix([resolve], went_on, None)[0][0] == 1.0
    assert similarity_matrix([resolve], other, None)[0][0] == 0.0
    assert similarity_matrix([resolve], [day], None)[0][0] == 0.0


def test_a_list_whose_entry_states_the_needed_values_meets_the_milestone():
    """A year's holidays, "2025-12-25 Christmas Day" among them, hold the next holiday after
    June 20 and its day: the agent that listed them has what get_next_public_holiday gives. A
    lone name in some entry is not enough, nor are the values spread over two entries."""
    nxt = Milestone(index=0, kind="call", description="", tool="get_next_public_holiday",
                    arguments={"country": Expected(value="Australia")}, needs=["Christmas Day", "2025-12-25"])
    year = ["2025-06-09 King's Birthday", "2025-12-25 Christmas Day", "2025-12-26 Boxing Day"]
    assert call_similarity(nxt, Step("list_public_holidays", {"country": "Australia", "year": 2025}, outputs=(year,))) == 1.0
    spread = ["2025-06-09 Christmas Day", "2025-12-25 Boxing Day"]
    assert call_similarity(nxt, Step("list_public_holidays", {"country": "Australia", "year": 2025}, outputs=(spread,))) == 0.0
    city = Milestone(index=0, kind="call", description="", tool="find_hottest_city", needs=["Sydney"])
    assert call_similarity(city, Step("list_airports", {}, outputs=(["Sydney Kingsford Smith (SYD)"],))) == 0.0
    day = Milestone(index=0, kind="call", description="", tool="get_next_public_holiday", needs=["2025-12-25"])
    assert call_similarity(day, Step("list_public_holidays", {}, outputs=(year,))) == 1.0
    assert call_similarity(day, Step("list_public_holidays", {}, outputs=(["2025-12-250 x"],))) == 0.0
    # a day inside a date and time says it too: a city's entry with its local time tells today (reading 70 #17)
    today = Milestone(index=0, kind="call", description="", tool="get_current_local_datetime", needs=["2025-06-13"])
    found = ["San Francisco, USA: UTC-7, local time 2025-06-13T09:30"]
    assert call_similarity(today, Step("search_time_and_date", {"query": "San Francisco"}, outputs=(found,))) == 1.0
    assert call_similarity(today, Step("search_time_and_date", {}, outputs=(["local time 2025-06-13T0"],))) == 0.0


def test_a_list_in_another_format_that_states_every_needed_entry_meets_the_milestone():
    """A general search lists the UK's 2026 holidays as "2026-01-01 New Year's Day (United
    Kingdom)", among 2025's: the agent has the list the holiday tool gives. More bare ids than
    needed are no such list."""
    holidays = ["2026-01-01 New Year's Day", "2026-12-25 Christmas Day"]
    listed = Milestone(index=0, kind="call", description="", tool="list_public_holidays", needs=[holidays])
    found = ["2025-12-25 Christmas Day (United Kingdom)", "2026-01-01 New Year's Day (United Kingdom)",
             "2026-12-25 Christmas Day (United Kingdom)"]
    assert call_similarity(listed, Step("search_time_and_date", {"query": "united kingdom"}, outputs=(found,))) == 1.0
    assert call_similarity(listed, Step("search_time_and_date", {"query": "uk"}, outputs=(found[:2],))) == 0.0
    ids = Milestone(index=0, kind="call", description="", tool="search_calendar", needs=[["EVT-1056"]])
    assert call_similarity(ids, Step("list_events", {"day": "2025-06-14"}, outputs=(["EVT-1056", "EVT-1060"],))) == 0.0
