"""Final-answer match with ToolComp's rules, on replies written the way models write them."""

from __future__ import annotations

import pytest

from factory.evaluate.interactive.answers import answer_match, answer_similarity, asks_for_order, dates_in, numbers_in


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("It sold 10,783 units", [10783.0]),
        ("$1,570.00 and -3.5%", [1570.0, -3.5]),
        ("about 2.1 million bottles", [2_100_000.0]),
        ("on 2025-05-08 it was 42", [42.0]),  # dates are not numbers
        ("1,2,3", [1.0, 2.0, 3.0]),
    ],
)
def test_numbers_in_free_text(text, numbers):
    assert numbers_in(text) == numbers


def test_dates_in_written_forms():
    assert dates_in("May 8, 2025; 8th of May 2025; 2025/05/08; 05/08/2025") == {"2025-05-08"}
    assert dates_in("on 2025-02-30") == set()


def test_numbers_within_ten_percent():
    gold = {"quantity": 10783}
    assert answer_match(gold, "The export quantity is 10,783 units.")
    assert answer_match(gold, "Roughly 11,500.")  # 6.6% off: within ToolComp's tolerance
    assert not answer_match(gold, "It is 12,000.")
    assert not answer_match(gold, "Exported on 2025-05-08, no figure available.")
    assert answer_match({"zero": 0}, "0 bottles") and not answer_match({"zero": 0}, "0.01 bottles")


def test_strings_are_normalised_and_matched_on_word_boundaries():
    assert answer_match({"w": "Chateau Palmer Merlot"}, "Best seller: CHÂTEAU  palmer merlot!")
    assert answer_match({"c": "USA"}, "It comes from the U.S.A.") is False  # abbreviation styles differ
    assert not answer_match({"c": "USA"}, "The USAF bought it")
    assert answer_match({"d": "2025-05-08"}, "That was on May 8, 2025.")
    assert answer_match({"s": "42"}, "the code is 42")


def test_several_values_all_needed():
    gold = {"wine": "Ramey Merlot", "sales": 1570.0}
    assert answer_match(gold, "Ramey Merlot sold $1,570 that day.")
    assert answer_similarity(gold, "Ramey Merlot, sales unknown") == 0.5
    assert not answer_match(gold, "Ramey Merlot, sales unknown")


def test_prose_around_json_and_code_fences():
    gold = {"wine": "Ramey Chardonnay", "quantity": 10783}
    fenced = 'Sure! Here you go:\n```json\n{"final_answer": ["Ramey Chardonnay", 10783]}\n```\nAnything else?'
    assert answer_match(gold, fenced)
    assert not answer_match(gold, 'Final answer: {"wine": "Ramey Chardonnay", "quantity": 107')  # truncated


def test_unordered_lists_compare_as_sets():
    gold = {"wines": ["Ridge Merlot", "Ramey Merlot"]}
    assert answer_match(gold, '["Ramey Merlot", "Ridge Merlot"]')
    assert answer_match(gold, "Two wines: Ramey Merlot and Ridge Merlot.")
    assert not answer_match(gold, '["Ramey Merlot"]')  # one missing
    assert not answer_match(gold, '["Ramey Merlot", "Ridge Merlot", "Muga Merlot"]')  # one extra
    assert answer_match({"none": []}, "There are none.") and answer_match({"none": []}, "[]")


def test_ordered_lists_when_the_query_asks_for_an_order():
    gold = {"wines": ["Ridge Merlot", "Ramey Merlot"]}
    query = "List the wines sorted by price, highest first."
    assert asks_for_order(query) and not asks_for_order("List the wines.")
    assert answer_match(gold, '["Ridge Merlot", "Ramey Merlot"]', query=query)
    assert not answer_match(gold, '["Ramey Merlot", "Ridge Merlot"]', query=query)
    assert answer_match(gold, "First Ridge Merlot, then Ramey Merlot.", query=query)
    assert not answer_match(gold, "First Ramey Merlot, then Ridge Merlot.", query=query)


def test_booleans_and_dicts():
    assert answer_match({"ok": True}, "Yes, it is available.")
    assert not answer_match({"ok": True}, "No, it is not.")
    assert answer_match({"ok": False}, '{"available": false}')
    assert answer_match({"row": {"city": "Paris", "temp": 21}}, "Paris is at 21 degrees.")


def test_empty_gold_answer_needs_a_refusal():
    assert answer_match({}, "I cannot complete this: the origin lookup tool is not available.", refusal=True)
    assert not answer_match({}, "The export quantity is 10783.", refusal=True)


def test_no_reply_scores_zero():
    assert answer_similarity({"x": 1}, None) == 0 and answer_similarity({}, "", refusal=True) == 0


def test_a_partly_impossible_task_needs_what_can_be_done_and_a_refusal_for_the_rest():
    gold = {"wine": "Ramey Merlot"}
    assert answer_match(gold, "The best seller is Ramey Merlot; I cannot find its export figures.", refusal=True)
    assert answer_similarity(gold, "Ramey Merlot sold best.", refusal=True) == 0.5
    assert answer_similarity(gold, "I cannot do this.", refusal=True) == 0.5


def test_nothing_to_report_is_not_a_refusal_task():
    assert answer_match({}, "Done, the reminder is set.", refusal=False)
    assert not answer_match({}, "", refusal=False)


def test_times_and_date_times_in_written_forms():
    from factory.evaluate.interactive.answers import times_in

    assert times_in("at 9:30 pm, 09:05, 7am and 12 p.m.") == {"21:30", "09:05", "07:00", "12:00"}
    gold = {"moment": "2025-06-16T09:30"}
    assert answer_match(gold, "Monday June 16, 2025 at 9:30 am")
    assert answer_match(gold, '{"moment": "2025-06-16T09:30"}')
    assert not answer_match(gold, "June 16, 2025 at 10:30")


def test_an_empty_gold_string_needs_nothing_stated():
    assert answer_match({"is_holiday": False, "holiday": ""}, 'Final answer: {"is_holiday": false, "holiday": ""}')
    assert answer_match({"is_holiday": False, "holiday": ""}, "No, it is not a holiday.")
