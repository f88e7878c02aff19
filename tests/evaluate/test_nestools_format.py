"""The NesTools format at the edges, on the real NesTools test set, and the typed mock."""

from __future__ import annotations

import copy

import pytest

from factory.dataset.nestools import NesToolsFormatError, instance_to_nestools, nestools_to_instance
from factory.records import Output, Ref, ToolSpec, value_matches_type
from factory.world.mock import mock_outputs
from tests.evaluate.static.static_helpers import nestools_rows


def test_every_row_round_trips_except_lists_of_outputs():
    rows, ids = nestools_rows()
    differing = []
    for row in rows:
        back = instance_to_nestools(nestools_to_instance(row, ids[row["test_id"]]), row["test_id"])
        assert {k: back[k] for k in ("test_id", "api", "task", "field")} == {k: row[k] for k in ("test_id", "api", "task", "field")}
        if back["call"] != row["call"]:
            differing.append(row["test_id"])
    # the seven rows that pass a list of earlier outputs as one argument (["API_call_0", "API_call_2"])
    assert differing == [45, 57, 134, 655, 757, 862, 932]


def test_an_imported_instance_is_typed_executed_and_milestoned():
    rows, ids = nestools_rows()
    instance = nestools_to_instance(rows[0], ids[1])
    assert all(t.toolbox is None for t in instance.tools) and instance.world is None
    located, engaged = instance.chain.calls[1], instance.chain.calls[2]
    assert located.arguments["book_info"] == Ref(ref="data0")
    assert engaged.arguments["exact_location"] == Ref(ref="data2")
    assert instance.trace.ok and len(instance.trace.steps) == 3
    assert instance.depth == 3 and instance.shape == "3:1>2,1>3,2>3"
    assert [m.kind for m in instance.milestones] == ["call", "call", "call", "answer"]
    assert instance.milestones[2].arguments["exact_location"].source == "data2"
    assert instance.provenance.attempt == 1 and instance.domain == "Library Science"


def test_list_arguments_count_as_nesting_edges():
    rows, ids = nestools_rows()
    instance = nestools_to_instance(rows[56], ids[57])  # images = [API_call_0, API_call_2]
    assert instance.shape == "4:1>3,2>3,3>4" and instance.depth == 3
    images = instance.chain.calls[2].arguments["images"].value
    assert images == [instance.trace.steps[0].outputs["data0"], instance.trace.steps[1].outputs["data2"]]


def test_list_types_leave_as_bare_list():
    rows, ids = nestools_rows()
    instance = nestools_to_instance(rows[0], ids[1])
    spec = instance.tools[0].model_copy(update={"returns": [Output(name="tags", type="list[str]")]})
    instance = instance.model_copy(update={"tools": [spec, *instance.tools[1:]]})
    assert instance_to_nestools(instance, 1)["api"][0]["responses"] == {"tags": {"type": "list", "description": ""}}


def test_bad_rows_are_clear_errors():
    rows, ids = nestools_rows()
    broken = copy.deepcopy(rows[0])
    broken["call"][1]["parameters"]["book_info"] = "API_call_7"
    with pytest.raises(NesToolsFormatError, match="test_id 1: API_call_7 is used before"):
        nestools_to_instance(broken, ids[1])
    with pytest.raises(NesToolsFormatError, match="3 api ids"):
        nestools_to_instance(rows[1], ids[1])
    broken = {k: v for k, v in rows[0].items() if k != "task"}
    with pytest.raises(NesToolsFormatError, match="malformed row"):
        nestools_to_instance(broken, ids[1])


SPEC = ToolSpec(name="find_hotel", description="", returns=[
    Output(name="hotel_id", type="str"), Output(name="hotel_name", type="str"), Output(name="price_per_night", type="float"),
    Output(name="check_in_date", type="str"), Output(name="booking_url", type="str"), Output(name="rooms_left", type="int"),
    Output(name="available", type="bool"), Output(name="amenities", type="list[str]"), Output(name="details", type="dict"),
    Output(name="guest_ids", type="list"),
])


def test_mock_values_have_the_declared_types_and_plausible_forms():
    values = mock_outputs(SPEC, {"city": "Paris"}, seed=0)
    assert all(value_matches_type(v, o.type) for v, o in zip(values, SPEC.returns, strict=True))
    named = dict(zip((o.name for o in SPEC.returns), values))
    assert named["hotel_id"].startswith("HOT-")
    assert named["booking_url"].startswith("https://")
    assert len(named["check_in_date"]) == 10 and named["check_in_date"][4] == "-"
    assert 5 <= named["price_per_night"] <= 5000


def test_mock_is_reproducible_and_depends_on_arguments_and_seed():
    first = mock_outputs(SPEC, {"city": "Paris"}, seed=0)
    assert mock_outputs(SPEC, {"city": "Paris"}, seed=0) == first
    assert mock_outputs(SPEC, {"city": "Rome"}, seed=0) != first
    assert mock_outputs(SPEC, {"city": "Paris"}, seed=1) != first


def test_an_argument_taken_from_an_echo_is_taken_from_what_it_echoes():
    """The cheapest stay found "for 7 nights from June 14" hands back its check-in day and
    nights; booking it takes them from the request, as an agent does and a stock scorer
    expects: the literal, not API_call_N of the echo. The hotel the comparison found stays
    nested, and the chain runs the same."""
    from pathlib import Path

    from factory.chains.code import parse_chain
    from factory.config import resource_dir
    from factory.dataset.nestools import chain_to_nestools
    from factory.records import Value, WorldSetup
    from factory.seeds.library import load_seeds
    from factory.world.simulator import Simulator, run_chain, without_echoes

    seeds = load_seeds(Path(resource_dir("seeds")))
    travel = seeds["travel"]
    chain = parse_chain('h, a, hn = search_travel(query="paris")\n'
                        'c, t, d, n, cn = compare_hotel_prices(hotel_ids=h, check_in="2025-06-14", nights=7)\n'
                        'b, o = book_hotel(hotel_id=c, check_in=d, nights=n, guest_name="Jordan Avery")', travel.specs)
    trace = run_chain(chain, travel.specs, Simulator(seeds, WorldSetup(toolboxes=["travel"], seed=3)))
    assert trace.ok
    direct = without_echoes(chain, travel.specs, trace.steps)
    assert direct.calls[2].arguments["check_in"] == Value(value="2025-06-14")
    assert direct.calls[2].arguments["nights"] == Value(value=7)
    assert chain_to_nestools(direct)[2]["parameters"] == {"hotel_id": "API_call_3", "check_in": "2025-06-14",
                                                          "nights": 7, "guest_name": "Jordan Avery"}
    again = run_chain(direct, travel.specs, Simulator(seeds, WorldSetup(toolboxes=["travel"], seed=3)))
    assert [s.outputs for s in again.steps] == [s.outputs for s in trace.steps]
    assert chain_to_nestools(chain)[2]["parameters"]["check_in"] == "API_call_5"  # the export writes the chain as it is
