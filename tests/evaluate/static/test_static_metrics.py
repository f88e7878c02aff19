"""NesTools' static metrics on hand-made predictions; every expected number is worked out from
the definitions in factory.evaluate.static.metrics (comments show the working)."""

from __future__ import annotations

import json

import pytest

from factory.evaluate.aggregate import static_metrics
from factory.evaluate.static.metrics import score_calls
from factory.evaluate.static.parse import parse_response
from factory.records import SampleResult

TASK = ("Find the best-selling wine in California on 2023-10-08, find where it comes from, and give the "
        "export quantity of that wine from there on 2023-10-08.")
GOLD = [
    {"api_name": "get_top_selling_wine", "api_id": 1, "parameters": {"location": "California", "date": "2023-10-08"},
     "responses": ["API_call_0", "API_call_1"]},
    {"api_name": "get_product_origin", "api_id": 2, "parameters": {"product": "API_call_0"}, "responses": ["API_call_2"]},
    {"api_name": "get_export_quantity", "api_id": 3,
     "parameters": {"location": "API_call_2", "date": "2023-10-08", "product": "API_call_0"}, "responses": ["API_call_3"]},
]


def c1(**params):
    return {"api_name": "get_top_selling_wine", "api_id": 1,
            "parameters": {"location": "California", "date": "2023-10-08"} | params,
            "responses": {"wine_name": "API_call_0", "sales_value": "API_call_1"}}


def c2(params=None):
    return {"api_name": "get_product_origin", "api_id": 2,
            "parameters": {"product": "API_call_0"} if params is None else params, "responses": {"origin": "API_call_2"}}


def c3(**params):
    return {"api_name": "get_export_quantity", "api_id": 3,
            "parameters": {"location": "API_call_2", "date": "2023-10-08", "product": "API_call_0"} | params,
            "responses": {"quantity": "API_call_3"}}


def tally(calls, gold=GOLD, task=TASK):
    text = calls if isinstance(calls, str) else json.dumps(calls)
    return score_calls(gold, parse_response(text).calls, task)


def counts(t):
    return (t.format, (t.api_correct, t.api_predicted, t.api_gold), (t.order_correct, t.order_predicted, t.order_gold),
            (t.param_correct, t.param_predicted, t.param_gold), (t.nest_correct, t.nest_predicted, t.nest_gold), t.tree)


CASES = {
    "exact": [c1(), c2(), c3()],
    # c3 before c2: its API_call_2 is not produced yet, so that nested argument scores 0.
    "swapped": [c1(), c3(), c2()],
    # "Texas" shares no word with "California" (ROUGE-L 0); c2 names the wrong output of c1.
    "wrong_values": [c1(location="Texas"), c2({"product": "API_call_1"}), c3()],
    # c2 omitted, an invented tool in its place: c3's API_call_2 has no producer.
    "omitted_and_invented": [c1(), {"api_name": "lookup_wine", "api_id": 99, "parameters": {"q": "wine"},
                                    "responses": {"r": "API_call_9"}}, c3()],
    "format_failure": "I cannot plan this task.",
}
EXPECTED = {
    "exact": (1, (3, 3, 3), (2, 2, 2), (6, 6, 6), (3, 3, 3), 1),
    # order pairs (1,3),(3,2) vs gold (1,2),(2,3): none shared; params 2 + (date, product) + product = 5.
    "swapped": (1, (3, 3, 3), (0, 2, 2), (5, 6, 6), (2, 3, 3), 0),
    # params: c1 date only, c2 none, c3 all three = 4; nested: c3's two.
    "wrong_values": (1, (3, 3, 3), (2, 2, 2), (4, 6, 6), (2, 3, 3), 0),
    # selection 2 of 3 predicted; pairs (1,99),(99,3) match nothing; params c1 2 + c3 (date, product) 2.
    "omitted_and_invented": (1, (2, 3, 3), (0, 2, 2), (4, 6, 6), (1, 2, 3), 0),
    "format_failure": (0, (0, 0, 3), (0, 0, 2), (0, 0, 6), (0, 0, 3), 0),
}


@pytest.mark.parametrize("name", list(CASES))
def test_tallies_follow_the_definitions(name):
    assert counts(tally(CASES[name])) == EXPECTED[name]


def test_error_taxonomy_of_wrong_values():
    # "California" is in the task: extraction. c2's API_call_1 is c1's second output where its
    # first belongs: confusion (and, as a parameter, a transformation: "api_call_0" is not in the task).
    assert dict(tally(CASES["wrong_values"]).errors) == {
        "param_extraction": 1, "nest_confusion": 1, "param_transformation": 1}


def test_error_taxonomy_of_omissions_and_hallucinations():
    calls = [c1(location="UNK", vintage=2020), c2({"product": "Ramey Chardonnay"}),
             c3(date="API_call_1")]
    t = tally(calls)
    # c1: "UNK" is an omission, vintage is redundant. c2: a literal where c1's output belongs
    # (identification; as a parameter a transformation). c3: an output where the literal date
    # belongs (hallucination; as a parameter, the date is in the task: extraction).
    assert dict(t.errors) == {"param_omission": 1, "param_redundancy": 1, "nest_identification": 1,
                              "param_transformation": 1, "nest_hallucination": 1, "param_extraction": 1}
    # params: c1 date 1 ("UNK" scores 0, vintage is not a gold parameter), c2 0, c3 location + product.
    assert (t.param_correct, t.param_predicted, t.nest_correct, t.nest_predicted) == (3, 7, 2, 3)


def test_missing_nested_argument_is_an_omission():
    t = tally([c1(), c2({}), c3()])
    assert dict(t.errors) == {"nest_omission": 1, "param_omission": 1}
    assert (t.param_correct, t.param_predicted, t.nest_correct, t.nest_predicted) == (5, 5, 2, 2)


def test_same_text_other_type_is_a_type_error():
    gold = [{"api_name": "set_volume", "api_id": 7, "parameters": {"level": 5}, "responses": ["API_call_0"]}]
    t = tally([{"api_name": "set_volume", "api_id": 7, "parameters": {"level": "5"}}], gold, "Set the volume to 5.")
    assert dict(t.errors) == {"param_type": 1}
    # one call: no order pairs on either side; the string "5" does not equal the number 5.
    assert counts(t) == (1, (1, 1, 1), (0, 0, 0), (0, 1, 1), (0, 0, 0), 0)


def test_tools_are_identified_by_api_id_not_name():
    renamed = [dict(c1(), api_name="anything"), c2(), c3()]
    assert counts(tally(renamed)) == EXPECTED["exact"]
    wrong_id = [dict(c1(), api_id="1"), c2(), c3()]
    assert tally(wrong_id).api_correct == 2


def test_run_metrics_are_micro_averages():
    samples = [SampleResult(instance_id=n, mode="static", agent="test", scores=tally(CASES[n]).as_scores())
               for n in CASES]
    m = static_metrics(samples)
    # summed over the five cases: selection 11/12 predicted, 11/15 gold; order 4/8, 4/10;
    # parameter 19/24, 19/30; nested 8/11, 8/15; format 4/5; tree 1/5.
    f1 = lambda p, r: 2 * p * r / (p + r)  # noqa: E731
    expected = {
        "format_accuracy": 0.8, "tree_pass_rate": 0.2,
        "selection_precision": 11 / 12, "selection_recall": 11 / 15, "selection_f1": f1(11 / 12, 11 / 15),
        "order_precision": 0.5, "order_recall": 0.4, "order_f1": f1(0.5, 0.4),
        "parameter_precision": 19 / 24, "parameter_recall": 19 / 30, "parameter_f1": f1(19 / 24, 19 / 30),
        "nested_param_precision": 8 / 11, "nested_param_recall": 8 / 15, "nested_param_f1": f1(8 / 11, 8 / 15),
    }
    expected["average"] = (expected["selection_f1"] + expected["order_f1"] + expected["parameter_f1"]
                           + expected["nested_param_f1"]) / 4
    assert m == pytest.approx(expected)


def test_without_nesting_the_average_uses_format_accuracy():
    gold = [{"api_name": "a", "api_id": 1, "parameters": {"x": 1}, "responses": ["API_call_0"]},
            {"api_name": "b", "api_id": 2, "parameters": {"y": 2}, "responses": ["API_call_1"]}]
    good = [{"api_name": "a", "api_id": 1, "parameters": {"x": 1}}, {"api_name": "b", "api_id": 2, "parameters": {"y": 3}}]
    samples = [SampleResult(instance_id=str(i), mode="static", agent="t", scores=tally(c, gold, "x 1 y 2").as_scores())
               for i, c in enumerate([good, "no list here"])]
    m = static_metrics(samples)
    assert m["nested_param_f1"] is None
    # format 1/2; selection 2/2, 2/4; order 1/1, 1/2; parameter 1/2, 1/4 (y=3 is wrong).
    f1 = lambda p, r: 2 * p * r / (p + r)  # noqa: E731
    assert m["average"] == pytest.approx((0.5 + f1(1, 0.5) + f1(1, 0.5) + f1(0.5, 0.25)) / 4)
