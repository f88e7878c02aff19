"""Argument value scoring as NesTools' scorer does it (ROUGE-L over distinct words, dates)."""

from __future__ import annotations

import pytest

from factory.evaluate.static.values import normalize_date, rouge_l, safe_value_score


def f(p, r):
    return 2.0 * (p * r) / (p + r + 1e-8)


def test_rouge_l_counts_distinct_words_of_the_common_subsequence():
    # hypothesis {the, cat, sat}, reference {the, cat}: both reference words are matched.
    assert rouge_l("the cat sat", "the cat") == pytest.approx(f(2 / 3, 1.0), abs=0)
    # repeated words count once: {the, cat} against {the, cat}.
    assert rouge_l("the the cat", "the cat") == pytest.approx(f(1.0, 1.0), abs=0)
    # sentences split on "."; the common words of each reference sentence are united.
    assert rouge_l("blue sky. green grass", "green grass. blue sea") == pytest.approx(f(3 / 4, 3 / 4), abs=0)


def test_equal_values_score_exactly_one_and_similar_text_less():
    assert safe_value_score("New York", "New York") == 1.0
    assert safe_value_score("New York", "new york") == pytest.approx(1.0, abs=1e-7)
    assert safe_value_score("New York", "new york") < 1.0
    assert safe_value_score("New York City", "New York") == pytest.approx(f(1.0, 2 / 3))


def test_dates_are_compared_in_iso_form():
    assert normalize_date("October 8th, 2023") == "2023-10-08"
    assert normalize_date("October 3th, 2023") == "October 3th, 2023"  # wrong suffix: left alone
    assert normalize_date("Meet on October 8th, 2023") == "Meet on October 8, 2023"
    assert safe_value_score("2023-10-08", "October 8th, 2023") == pytest.approx(1.0, abs=1e-7)


@pytest.mark.parametrize(
    "gold, predicted, expected",
    [
        (5, 5.0, 1.0), (5, 6, 0.0), (True, 1, 1.0), (5, "5", 0.0), (0.5, "0.5", 0.0),
        ([1, 2], [1, 2], 1.0), ([1, 2], [1, 3], 0.5), ([1, 2], [1], 0.0),
        ({"a_b": 1, "c": 2}, {"A B": 1, "c": 3}, 0.5), ({"a": 1, "c": 2}, {"c": 2, "a": 1}, 1.0), ({"a": 1, "c": 2}, {"c": 2, "a": 3}, 0.0),
        ("text", "", 0.0), ("", "text", 0.0), ("text", None, 0.0), ({"a": 1}, {1: 1}, 0.0),
    ],
)
def test_value_kinds(gold, predicted, expected):
    assert safe_value_score(gold, predicted) == pytest.approx(expected)
