"""Where a day goes in a phrasing: before a nested description, not after it.

Phrasings put the day last ("the earliest free delivery slot in {city} on or after {date}"). When
`{city}` holds a description, a day after it reads as part of that description: "in the city
parcel BL806905471 is on its way to on or after June 20" (the parcel travels on June 20?), "the
low recorded in the city that gets hottest in Brazil next Tuesday a year before June 26" (two
days in a row). The day then moves before the slot and its preposition: "the earliest free
delivery slot on or after June 20 in the city parcel BL806905471 is on its way to".

The writer moves a day only where the slot before it holds a description; a reader of the
request (`factory.evaluate.static.reading`) knows every phrasing in both forms.
"""

from __future__ import annotations

import re
from collections.abc import Collection

# Kinds of a time a phrasing puts last: a day, a moment, a year, a month or a week of pay.
TIME_KINDS = frozenset({"date", "datetime", "year", "review_year", "pay_month", "timesheet_week"})
# Prepositions that open the part of a phrasing a nested description sits in ("in {city}", "out
# of {location}": reading 50 #11); not "of" alone, which binds its noun too closely ("the
# office-hours building from June 24 of ..." reads worse).
_PREPOSITIONS = "out of|in|at|for|from|to|near|around|across|within|into|by|with|over|nearest|closest"
# The words that may open the part holding a day: "on or after {date}", "starting {date}" (not a
# clause: "when it is {moment}" stays where it is).
_DAY_WORDS = "on|or|after|before|from|for|starting|beginning|since|until|by|at|in|during"
# What may follow a day and belong to it: "from {date} on", "{date} or later".
_AFTER_DAY = r"(?: on(?=[ ,.?!;:]|$)| onwards| or later| or after)?"


def day_first(template: str, nested: str, day: str) -> str | None:
    """The phrasing with the part that holds slot `day` (its words and the slot, "on or after
    {date}") moved before the preposition of slot `nested`, which it directly follows; None
    when the phrasing has no such part."""
    match = re.search(rf"(?<![\w{{])((?:{_PREPOSITIONS}) )\{{{re.escape(nested)}\}}"
                      rf"((?: (?:{_DAY_WORDS})){{0,4}} \{{{re.escape(day)}\}}{_AFTER_DAY})(?![\w}}])", template)
    if match is None or re.search(r"(?:\b(?:am|is|are|be|was|were|been)|'m|'re) $", template[:match.start()]):
        return None  # "I'm in {city} on {date}": the place is where I am, the day stays after it
    return f"{template[:match.start()]}{match.group(2).strip()} {match.group(1)}{{{nested}}}{template[match.end():]}"


def day_first_forms(template: str, days: Collection[str]) -> list[str]:
    """Every form of a phrasing with one of its `days` slots moved before the slot it follows
    (as the writer may word it)."""
    slots = re.findall(r"\{(\w+)\}", template)
    forms = []
    for day in days:
        for nested in slots:
            moved = day_first(template, nested, day) if nested != day else None
            if moved is not None:
                forms.append(moved)
    return forms
