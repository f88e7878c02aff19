"""The forms of a value the faithfulness check takes as stated, and the near misses it refuses:
a request states a value when a reader would take it so, and only then."""

import pytest

from factory.checks.faithfulness import missing_values
from factory.checks.written_forms import numbers_in, stated_as_written
from factory.records import Call, Chain, Value

STATED = [
    # numbers: separators, currency, decimals, signs
    (5000.0, "plan a cleaning operation within $5,000.00"),
    (5000.0, "a budget of 5,000 dollars"),
    (5000, "up to €5000 please"),
    (5000.0, "USD 5,000 at most"),
    (1234567, "1,234,567 visitors"),
    (-3.5, "a low of -3.5 degrees"),
    (-3.5, "a low of −3.5 degrees"),
    (2.5, "about 2.50 metres"),
    # percentages
    (0.85, "with a confidence of 85%"),
    (0.85, "with a confidence of 85 percent"),
    (0.05, "a 5 per cent margin"),
    (85, "85% humidity"),
    # scales and words
    (15000000, "a population of 15 million"),
    (15000000.0, "a budget of $15M"),
    (2500, "about 2.5k steps"),
    (1500000000, "1.5 billion people"),
    (3, "for three people"),
    (12, "a dozen oysters"),
    (20000, "twenty thousand leagues"),
    # dates
    ("2025-06-09", "on June 9th, 2025"),
    ("2025-06-09", "on the 9th of June 2025"),
    ("2025-06-09", "on 9 Jun 2025"),
    ("2025-06-09", "on Monday, June 9, 2025"),
    ("2025-06-09", "on 09/06/2025"),
    ("2025-06-09", "on 6/9/2025"),
    ("2025-06-09", "on 9.6.2025"),
    ("2025-06-09", "on 2025/06/09"),
    ("2025-09-03", "on Sept. 3rd 2025"),
    ("2025-06-09T14:30", "on June 9, 2025 at 2:30 p.m."),
    ("2025-06-09T09:00", "at 9 a.m. on 9 June 2025"),
    # text: case, number, separators, accents
    ("human", "the BRCA1 gene in humans"),
    ("humans", "the gene in a human"),
    ("city", "every cities list"),
    ("leaf", "the leaves of it"),
    ("Gluten-Free", "a gluten free menu"),
    ("check_in", "the check in desk"),
    ("São Paulo", "flights to Sao Paulo"),
    ("St. Louis", "hotels in st louis"),
    (["red", "blue"], "Red and Blues"),
]

REFUSED = [
    (5000.0, "within $5,001.00"),
    (5000.0, "within $500"),
    (5000.0, "within 50,000"),
    (0.85, "a confidence of 86%"),
    (0.85, "a confidence of 8.5%"),
    (15000000, "a population of 1.5 million"),
    (15000000, "a population of 15 thousand"),
    (5000000, "a 5 m boat"),  # five metres, not five million
    (6, "on 2025-06-09"),  # a part of a date is no number
    (2025, "a 2025-06-09 booking"),
    (3, "for thirty people"),
    ("2025-06-09", "on June 9"),  # the year is part of the day
    ("2025-06-09", "on 2025-06-10"),
    ("2025-06-09T14:30", "on June 9, 2025 at 2 pm"),
    ("human", "the gene in mice"),
    ("human", "a humane answer"),
    ("glass", "two glasses of"[:8]),  # cut before the word
    (["red", "blue"], "only red"),
    ("New York", "new hotels in York"),
]


@pytest.mark.parametrize(("value", "query"), STATED)
def test_a_value_as_people_write_it_is_stated(value, query):
    assert stated_as_written(value, query)


@pytest.mark.parametrize(("value", "query"), REFUSED)
def test_another_value_or_a_dropped_one_is_refused(value, query):
    assert not stated_as_written(value, query)


def test_a_percentage_reads_both_ways_and_a_scale_word_multiplies():
    assert 0.85 in numbers_in("85%") and 85.0 in numbers_in("85%")
    assert numbers_in("15 million and $2,500.50") == [15e6, 2500.5]


def test_the_faithfulness_check_takes_written_forms_and_still_names_a_dropped_value():
    chain = Chain(calls=[Call(tool="plan_cleanup", arguments={"budget": Value(value=5000.0),
                                                              "species": Value(value="human"),
                                                              "share": Value(value=0.85)}, outputs=["data0"])])
    assert missing_values(chain, "Plan a cleanup within $5,000.00 that keeps 85% of humans safe") == []
    assert missing_values(chain, "Plan a cleanup within $5,000.00 that keeps humans safe") == [
        "call 1 plan_cleanup.share=0.85"]
