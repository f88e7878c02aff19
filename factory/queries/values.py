"""Literal values as people write them, in varied but faithful forms: every form here is one the
faithfulness check recognises (factory.checks.faithfulness)."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_DATETIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")
MONTH = re.compile(r"\d{4}-(0[1-9]|1[0-2])")  # a month, as a payroll writes it: "2025-01"


@dataclass(frozen=True)
class DateStyle:
    """How one request writes its days and times, drawn once: a person writes every date of a
    message alike ("the week of 2025-06-09 ... from 4 September 2025" reads as two writers)."""

    day: int  # index into the day forms of `_day`
    clock: int  # index into the clock forms of `_clock`
    clock_first: bool  # "9:30 am on June 4, 2025" rather than "June 4, 2025 at 9:30 am"

    @classmethod
    def draw(cls, rng: random.Random) -> DateStyle:
        return cls(rng.randrange(4), rng.randrange(2), rng.random() < 0.5)


def _day(d: date, rng: random.Random | None, style: DateStyle | None = None) -> str:
    forms = [d.isoformat(), f"{d:%B} {d.day}, {d.year}", f"{d.day} {d:%B} {d.year}", f"{d:%A}, {d:%B} {d.day}, {d.year}"]
    if style is not None:
        return forms[style.day]
    return forms[0] if rng is None else rng.choice(forms)


def _clock(t: datetime, rng: random.Random | None, style: DateStyle | None = None) -> str:
    hour12 = t.hour % 12 or 12
    forms = [t.strftime("%H:%M"), f"{hour12}:{t.minute:02d} {'am' if t.hour < 12 else 'pm'}"]
    if style is not None:
        return forms[style.clock]
    return forms[0] if rng is None else rng.choice(forms)


def render_value(value: Any, rng: random.Random | None = None, style: DateStyle | None = None) -> str:
    """A value in words: booleans as on/off, whole floats without ".0", lists joined with
    "and", dates and date-times in the request's `style`, else in a form drawn from `rng` (ISO
    when neither is given)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float) and value.is_integer():
        return str(int(value)) if abs(value) < 1e15 else str(value)
    if isinstance(value, list):
        items = [render_value(v, rng, style) for v in value]
        if not items:
            return "none"
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
    if isinstance(value, dict):
        return ", ".join(f"{k} {render_value(v, rng, style)}" for k, v in value.items())
    text = str(value)
    if _DATE.fullmatch(text):
        return _day(date.fromisoformat(text), rng, style)
    if MONTH.fullmatch(text) and (rng is not None or style is not None):
        return f"{date.fromisoformat(text + '-01'):%B %Y}"  # "January 2025": no one asks for their pay "for 2025-01" (reading 49 #38)
    if _DATETIME.fullmatch(text):
        moment = datetime.fromisoformat(text)
        if rng is None and style is None:
            return text.replace("T", " ")
        day, clock = _day(moment.date(), rng, style), _clock(moment, rng, style)
        if style is not None:
            return f"{clock} on {day}" if style.clock_first else f"{day} at {clock}"
        return rng.choice([f"{day} at {clock}", f"{clock} on {day}"])
    return text
