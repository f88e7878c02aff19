from pathlib import Path

from factory.chains.code import parse_chain
from factory.config import resource_dir
from factory.instances.milestones import (
    blocked_calls,
    derive_milestones,
    needed_values,
    unsolvable_milestones,
    withheld_tool_minefields,
)
from factory.queries.wording import mark_asked
from factory.records import Call, Chain, Ref, Trace, TraceStep, Value, WorldSetup
from factory.seeds.library import load_seeds
from factory.world.simulator import Simulator, run_chain


def example():
    chain = Chain(calls=[
        Call(tool="a", arguments={"x": Value(value="California")}, outputs=["data0"]),
        Call(tool="fix", arguments={"on": Value(value=True)}, outputs=["data1"], fixes="power"),
        Call(tool="b", arguments={"y": Ref(ref="data0")}, outputs=["data2"], after=[1]),
        Call(tool="c", arguments={"y": Ref(ref="data0"), "z": Ref(ref="data2")}, outputs=["data3"]),
    ])
    steps = [
        TraceStep(call=0, tool="a", arguments={"x": "California"}, outputs={"data0": "Ramey"}),
        TraceStep(call=1, tool="fix", arguments={"on": True}, outputs={"data1": True}),
        TraceStep(call=2, tool="b", arguments={"y": "Ramey"}, outputs={"data2": "USA"}),
        TraceStep(call=3, tool="c", arguments={"y": "Ramey", "z": "USA"}, outputs={"data3": 10783}),
    ]
    return chain, Trace(steps=steps, answer={"data3": 10783})


def test_one_milestone_per_call_with_data_and_state_edges_and_a_final_answer():
    chain, trace = example()
    milestones = derive_milestones(chain, trace, {"fix": "device"})
    assert [m.kind for m in milestones] == ["call", "state", "call", "call", "answer"]
    assert milestones[1].condition == "device:power" and not milestones[1].arguments  # met by the state, any arguments
    b, c, answer = milestones[2], milestones[3], milestones[4]
    assert b.after == [0, 1]  # data from call 0, state from the fix call
    assert c.after == [0, 2] and c.arguments["z"].value == "USA" and c.arguments["z"].source == "data2"
    assert milestones[0].arguments["x"].source is None
    assert answer.answer == {"data3": 10783} and answer.after == [3]


def test_withholding_a_producer_mines_the_tool_and_its_consumers():
    chain, trace = example()
    mines = withheld_tool_minefields(chain, trace, "a")
    assert [m.tool for m in mines] == ["a", "b", "c"]
    assert mines[0].arguments is None  # the missing tool itself, with anything
    assert [set(m.arguments) for m in mines[1:]] == [{"y"}, {"y"}] and all(m.given == ["California"] for m in mines[1:])


def test_a_consumer_of_a_withheld_value_is_mined_only_for_values_the_request_does_not_give():
    """Searching the store with the product the request names is no invention of the missing
    category; any other value is."""
    from factory.evaluate.matching import Step, minefield_hit

    chain, trace = example()
    mine = withheld_tool_minefields(chain, trace, "a")[1]
    assert mine.given == ["California"]
    assert not minefield_hit(mine, Step("b", {"y": "california"}))
    assert minefield_hit(mine, Step("b", {"y": "Sacramento"}))
    assert minefield_hit(mine, Step("b", {"y": "Ramey"}))  # what the withheld tool gives, guessed: still invented
    assert not minefield_hit(mine, Step("c", {"y": "Sacramento"}))  # another tool's mine


def test_call_milestones_carry_what_the_chain_needs_from_them():
    chain, trace = example()
    assert needed_values(chain, trace, 0) == ["Ramey"]  # taken by b and c
    assert needed_values(chain, trace, 1) == []  # the fix's output feeds nothing
    assert needed_values(chain, trace, 3) == [10783]  # the answer
    milestones = derive_milestones(chain, trace)
    assert milestones[0].needs == ["Ramey"] and milestones[3].needs == [10783]


def test_an_unsolvable_item_keeps_milestones_for_what_can_still_be_done():
    chain = Chain(calls=[
        Call(tool="a", arguments={"x": Value(value="California")}, outputs=["data0"]),
        Call(tool="b", arguments={"y": Ref(ref="data0")}, outputs=["data1"]),
        Call(tool="d", arguments={"x": Value(value="California")}, outputs=["data2"]),
    ])
    trace = Trace(steps=[
        TraceStep(call=0, tool="a", arguments={"x": "California"}, outputs={"data0": "Ramey"}),
        TraceStep(call=1, tool="b", arguments={"y": "Ramey"}, outputs={"data1": "USA"}),
        TraceStep(call=2, tool="d", arguments={"x": "California"}, outputs={"data2": 7}),
    ], answer={"data1": "USA", "data2": 7})
    assert blocked_calls(chain, "a") == {0, 1}
    milestones, answer = unsolvable_milestones(chain, trace, "a", "no tool finds the wine")
    assert [m.tool for m in milestones if m.kind == "call"] == ["d"]
    final = milestones[-1]
    assert final.kind == "answer" and final.refuse and final.answer == {"data2": 7} == answer
    assert "cannot be done: no tool finds the wine" in final.description


def test_a_call_only_the_blocked_part_would_use_is_no_milestone():
    """"The best-rated doctor for stomach cramps in Rome" with the doctor finder withheld: the
    specialty would only feed the missing call and is never reported, so an agent that says at
    once it cannot be done loses nothing; a part the request asks for still counts."""
    chain = Chain(calls=[
        Call(tool="match", arguments={"symptom": Value(value="cramps")}, outputs=["data0"]),
        Call(tool="top", arguments={"specialty": Ref(ref="data0")}, outputs=["data1"], asked=True),
        Call(tool="clinic", arguments={"city": Value(value="Rome")}, outputs=["data2"], asked=True),
    ])
    trace = Trace(steps=[
        TraceStep(call=0, tool="match", arguments={"symptom": "cramps"}, outputs={"data0": "Gastro"}),
        TraceStep(call=1, tool="top", arguments={"specialty": "Gastro"}, outputs={"data1": "D-1"}),
        TraceStep(call=2, tool="clinic", arguments={"city": "Rome"}, outputs={"data2": "C-1"}),
    ], answer={"data1": "D-1", "data2": "C-1"})
    milestones, answer = unsolvable_milestones(chain, trace, "top", "no tool finds the doctor")
    assert [m.tool for m in milestones if m.kind == "call"] == ["clinic"] and answer == {"data2": "C-1"}
    assert milestones[-1].after == [0]


def test_the_answer_holds_what_an_action_gives_though_a_later_call_takes_it():
    """"Approve leave request LR-3001 and tell me whose it is and their employee id": the
    approval is asked for even though a later call takes the employee's name from it, so its
    values (the name, the last day of the leave) are in the gold answer with the id, and the
    answer milestone waits for both calls; not only the last call's values count."""
    seeds = {slug: seed for slug, seed in load_seeds(Path(resource_dir("seeds"))).items() if slug == "hr_payroll"}
    hr = seeds["hr_payroll"]
    code = 'data0, data1 = approve_leave_request(request_id="LR-3001")\ndata2 = find_employee_id(full_name=data0)\n'
    chain = mark_asked(parse_chain(code, hr.specs), hr.toolbox.tools)
    assert [c.asked for c in chain.calls] == [True, True] and chain.sinks() == [1]
    trace = run_chain(chain, hr.specs, Simulator(seeds, WorldSetup(toolboxes=["hr_payroll"], seed=0)))
    assert trace.ok and set(trace.answer) == {"data0", "data1", "data2"}
    assert trace.answer["data0"] == trace.steps[1].arguments["full_name"]
    answer = derive_milestones(chain, trace)[-1]
    assert answer.answer == trace.answer and answer.after == [0, 1]
    kept, reported = unsolvable_milestones(chain, trace, "find_employee_id", "no tool finds an employee id")
    assert set(reported) == {"data0", "data1"} and kept[-1].answer == reported  # the approval can still be done


def test_a_chain_that_marks_no_asked_call_asks_for_its_sinks():
    chain, _ = example()
    assert chain.asked() == chain.sinks() == [3]
    assert '"asked"' not in chain.to_json()  # such a record keeps its bytes and content id
    marked = Chain(calls=[c.model_copy(update={"asked": i in (0, 3)}) for i, c in enumerate(chain.calls)])
    assert marked.asked() == [0, 3] and Chain.model_validate_json(marked.to_json()) == marked


def test_an_id_given_with_its_name_leaves_the_answer_to_the_name():
    """"Which cardiologist in Toronto is rated highest?": the call gives the doctor's id, rating
    and name, and the gold answer is the name and the rating, so an agent that says "Dr. Ana
    Ruiz, 4.9" has answered; the doctor's details, with no name of the id beside it, keep it."""
    seeds = {slug: seed for slug, seed in load_seeds(Path(resource_dir("seeds"))).items() if slug == "healthcare"}
    hc = seeds["healthcare"]
    chain = parse_chain('data0, data1, data2 = find_top_doctor(specialty="Cardiology", city="Toronto")\n', hc.specs)
    trace = run_chain(chain, hc.specs, Simulator(seeds, WorldSetup(toolboxes=["healthcare"], seed=0)))
    assert trace.ok and set(trace.answer) == {"data1", "data2"} and trace.answer["data2"].count(" ") >= 1
    details = parse_chain('data0, data1, data2, data3 = get_latest_prescription(patient_id="P-10001")\n', hc.specs)
    trace = run_chain(details, hc.specs, Simulator(seeds, WorldSetup(toolboxes=["healthcare"], seed=0)))
    assert trace.ok and set(trace.answer) == {"data0", "data1", "data3"}  # the prescriber's name, not the id
