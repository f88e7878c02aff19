"""The final answer is read deliberately: on replies written the way real models write them
(reasoning first, drafts corrected, markdown, restated question values), only what the reply
finally states counts."""

from __future__ import annotations

import pytest

from factory.evaluate.interactive.answers import answer_match
from factory.evaluate.interactive.final_answer import answer_part, stated_boolean, stated_json


@pytest.mark.parametrize(("reply", "part"), [
    ("Let me check the calendar.\nFinal answer: Tuesday", "Tuesday"),
    ("**Final Answer:** 42", "42"),
    ("**Final Answer**: 42", "42"),
    ("The price dropped. So the answer is 90.", "90."),
    ("I looked it up.\n\n### Answer:\nParis", "Paris"),
    ("Takeoff result: active, ref 985", "Takeoff result: active, ref 985"),  # a value, not a marker
    ("Final answer:", "Final answer:"),  # nothing after it: the whole reply
])
def test_the_answer_part_follows_the_last_marker(reply, part):
    assert answer_part(reply) == part


def test_two_booleans_the_last_stated_one_counts():
    reasoning = ("The first lookup said the slot was taken (available: false), but the retry shows it is free.\n"
                 "Final answer: true")
    assert answer_match({"available": True}, reasoning) and not answer_match({"available": False}, reasoning)
    assert stated_boolean("Yes, the restaurant is open on Sunday; no reservation is needed.") is True
    assert answer_match({"open": True}, "Yes, the restaurant is open on Sunday; no reservation is needed.")
    assert answer_match({"open": False}, "No. It closes on Sundays, yes, even in summer.")  # "yes" opens nothing
    assert stated_boolean("It is hard to say.") is None


def test_a_corrected_draft_is_read_from_its_correction():
    reply = 'Draft: {"available": false, "price": 120}\nWait, the tool said otherwise.\nFinal answer: {"available": true, "price": 90}'
    assert stated_json(answer_part(reply)) == {"available": True, "price": 90}
    assert answer_match({"available": True, "price": 90}, reply)
    assert not answer_match({"available": False, "price": 120}, reply)


def test_numbers_mentioned_while_reasoning_do_not_count():
    reply = "Last week the jacket cost 120 dollars. After the 25% discount it costs 90.\n\nFinal answer: 90 dollars"
    assert answer_match({"price": 90}, reply) and not answer_match({"price": 120}, reply)
    fenced = "I called `get_price` for 2025-05-08 and got 120, then applied the coupon.\n```json\n{\"price\": 90}\n```"
    assert answer_match({"price": 90}, fenced) and not answer_match({"price": 120}, fenced)


@pytest.mark.parametrize("reply", [
    "The top-selling wine in California on 2025-05-08 was **Ramey Chardonnay**, with 10,783 units sold.",
    "Based on the tool results:\n\n- Wine: Ramey Chardonnay\n- Quantity: 10783\n\nLet me know if you need more!",
    'Sure! Here you go:\n```json\n{"final_answer": ["Ramey Chardonnay", 10783]}\n```\nAnything else?',
    "<think>The tool returned quantity 10783.</think>\nThe answer is: Ramey Chardonnay (10,783 bottles).",
])
def test_common_answer_styles_still_match(reply):
    assert answer_match({"wine": "Ramey Chardonnay", "quantity": 10783}, reply)
