"""Sense rules: what a seed declares about when a call makes sense to a person.

A tool lists its rules with `@toolbox.tool(sense=(...))`. Each rule looks at the concrete
arguments of one call: the composer obeys a rule while it draws literal values, and the
plausibility check (`factory.checks.plausibility`) applies it to every executed call, where
nested values are known too. Thresholds that are a matter of policy (how far a person walks)
live in `validators/`, not here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from factory.records import Output
from factory.toolbox.gazetteer import NOW, distance_km
from factory.toolbox.user import USER

Limits = Mapping[str, Any]  # the plausibility policy's thresholds
# Kinds that set the scene rather than say what a request is about: two requests for the same
# day are not thereby about the same thing.
SCENE_KINDS = frozenset({"date", "datetime"})


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return " ".join(a.casefold().split()) == " ".join(b.casefold().split())
    return a == b


def _day(value: Any) -> date | None:
    try:
        return datetime.fromisoformat(str(value)).date()
    except ValueError:
        return None


class _OneParam:
    """A rule about one parameter."""

    param: str

    @property
    def params(self) -> tuple[str, ...]:
        return (self.param,)


@dataclass(frozen=True)
class Distinct:
    """The parameters must differ (origin and destination, old and new slot)."""

    params: tuple[str, ...]
    kind = "distinct"

    def violation(self, args: Mapping[str, Any], limits: Limits) -> str | None:
        given = [(p, args[p]) for p in self.params if p in args]
        for i, (p, a) in enumerate(given):
            for q, b in given[i + 1:]:
                if _same(a, b):
                    return f"{p} and {q} are both {a!r}"
        return None


@dataclass(frozen=True)
class Within(_OneParam):
    """A number a person would use: a quantity, a price, a stay length."""

    param: str
    low: float
    high: float
    kind = "within"

    def violation(self, args: Mapping[str, Any], limits: Limits) -> str | None:
        value = args.get(self.param)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and not self.low <= value <= self.high:
            return f"{self.param}={value} is outside {self.low:g}..{self.high:g}"
        return None


@dataclass(frozen=True)
class Around(_OneParam):
    """A date or date-time near the simulated now: `before` days back to `after` days ahead."""

    param: str
    before: int
    after: int
    kind = "around"

    def violation(self, args: Mapping[str, Any], limits: Limits) -> str | None:
        if self.param not in args:
            return None
        day = _day(args[self.param])
        if day is None:
            return None  # the tool itself rejects an unreadable date
        offset = (day - NOW.date()).days
        if not -self.before <= offset <= self.after:
            return f"{self.param}={args[self.param]} is {offset:+d} days from today (allowed -{self.before}..+{self.after})"
        return None


@dataclass(frozen=True)
class Trip:
    """A journey between two points by a mode: no cycling between continents, no route
    planned for a few hundred metres, and none that ends where the person stands ("I need to
    get from 33 Market Road to the spot where I'm standing", reading 71 #15). The longest
    straight-line distance per mode and the shortest of any are policy (`max_trip_km`,
    `min_trip_km` in validators/)."""

    start: tuple[str, str]  # (latitude param, longitude param)
    end: tuple[str, str]
    mode: str  # the parameter naming the mode
    kind = "trip"

    @property
    def params(self) -> tuple[str, ...]:
        return (*self.start, *self.end, self.mode)

    def violation(self, args: Mapping[str, Any], limits: Limits) -> str | None:
        if not all(p in args for p in self.params):
            return None
        if (args[self.end[0]], args[self.end[1]]) == (USER.latitude, USER.longitude):
            return "a trip to where the person already stands"
        maximum = (limits.get("max_trip_km") or {}).get(str(args[self.mode]))
        minimum = limits.get("min_trip_km") or 0
        km = distance_km(args[self.start[0]], args[self.start[1]], args[self.end[0]], args[self.end[1]])
        if maximum is not None and km > maximum:
            return f"{km:,.0f} km by {args[self.mode]} (at most {maximum:,} km)"
        if km < minimum:
            return f"a route of {km:.1f} km (at least {minimum} km: nobody asks the way for less)"
        return None


@dataclass(frozen=True)
class Sensible:
    """A seed's own rule: `test(arguments)` is False when the call makes no sense."""

    name: str
    params: tuple[str, ...]
    test: Callable[[Mapping[str, Any]], bool]
    kind = "sensible"

    def violation(self, args: Mapping[str, Any], limits: Limits) -> str | None:
        if not all(p in args for p in self.params):
            return None
        return None if self.test(args) else self.name


@dataclass(frozen=True)
class Together:
    """Nested values of these parameters must come from calls about the same things (a
    temperature and a wind speed of the same city and day). Checked on the chain by the
    plausibility check, which knows where each value came from."""

    params: tuple[str, ...]
    kind = "together"

    def violation(self, args: Mapping[str, Any], limits: Limits) -> str | None:
        return None  # needs the chain: factory.checks.plausibility applies it


@dataclass(frozen=True)
class SameDay(_OneParam):
    """The day of this date or date-time parameter is a day the call's nested inputs were found
    for: the hourly forecast of the hottest city on Saturday is for Saturday. Checked on the
    chain by the plausibility check, which knows the days each nested value was found for."""

    param: str
    kind = "same_day"

    def violation(self, args: Mapping[str, Any], limits: Limits) -> str | None:
        return None  # needs the chain: factory.checks.plausibility applies it


@dataclass(frozen=True)
class Arrives:
    """The call takes the person somewhere. `params` are (place, day) or (place, day, at): the
    parameter or output naming where (a city, or a thing whose facts say its city or country:
    a flight, a hotel), the day they travel, and the output saying when they land where the
    tool says it. Checked on the chain by the plausibility check (`timeline`): nothing the
    person must be at there starts before they can have arrived."""

    params: tuple[str, ...]
    kind = "arrives"

    def violation(self, args: Mapping[str, Any], limits: Limits) -> str | None:
        return None  # needs the chain: factory.checks.plausibility applies it


@dataclass(frozen=True)
class Present:
    """The call needs the person at a place from a moment. `params` are (place, since): where
    (as for `Arrives`) and the date or date-time it starts (a stay's check-in day, an event's
    start). Checked on the chain against the calls that `Arrives` marks."""

    params: tuple[str, ...]
    kind = "present"

    def violation(self, args: Mapping[str, Any], limits: Limits) -> str | None:
        return None  # needs the chain: factory.checks.plausibility applies it


Rule = Distinct | Within | Around | Trip | Sensible | Together | SameDay | Arrives | Present
# Rules whose names may be outputs as well as parameters: they say what a call's results mean.
OUTPUT_RULES = (Arrives, Present)

Subjects = dict[str, set]  # kind → literal values a call was given, directly or through the calls feeding it


def subjects_of(kind: str, value: Any) -> Subjects:
    """What one literal argument makes a call about: its value under its kind, and a date-time's
    day under "date" too (the temperature at 14:00 on June 20 and the wind on June 20 are of
    one day)."""
    about: Subjects = {kind: {value}}
    if kind == "datetime" and (day := day_of(value)) is not None:
        about["date"] = {day.isoformat()}
    return about


def present_subjects(tags: tuple[str, ...]) -> Subjects:
    """What a tool tagged `now` (a reading of the present: the weather now) is about besides
    its arguments: today, so it is never paired with a forecast for another day."""
    return {"date": {NOW.date().isoformat()}} if "now" in tags else {}


def same_subjects(a: Subjects, b: Subjects) -> bool:
    """Whether two calls are about the same things: they share a kind, and agree on every kind
    they share (the temperature and the wind of one city and one day)."""
    shared = set(a) & set(b)
    return bool(shared) and all(a[k] == b[k] for k in shared)


def distinct(*params: str) -> Distinct:
    return Distinct(tuple(params))


def within(param: str, low: float, high: float) -> Within:
    return Within(param, low, high)


def around(param: str, *, before: int, after: int) -> Around:
    return Around(param, before, after)


def trip(*, start: tuple[str, str], end: tuple[str, str], mode: str) -> Trip:
    return Trip(start, end, mode)


def sensible(name: str, params: tuple[str, ...], test: Callable[[Mapping[str, Any]], bool]) -> Sensible:
    return Sensible(name, tuple(params), test)


def together(*params: str) -> Together:
    return Together(tuple(params))


def same_day(param: str) -> SameDay:
    return SameDay(param)


def arrives(place: str, day: str, at: str | None = None) -> Arrives:
    return Arrives((place, day) if at is None else (place, day, at))


def present(place: str, since: str) -> Present:
    return Present((place, since))


def is_day(output: Output) -> bool:
    """Whether an output is a day: of kind date, or documented in the date format (an answer
    that feeds nothing may carry no kind)."""
    return output.kind == "date" or "(YYYY-MM-DD)" in output.description


def is_moment(output: Output) -> bool:
    """Whether an output is a date and time: of kind datetime, or documented in that format (the
    time a message went out carries no kind)."""
    return output.kind == "datetime" or "YYYY-MM-DDTHH:MM" in output.description


def day_of(value: Any) -> date | None:
    """The day a date or date-time value names; None for anything else."""
    return _day(value) if isinstance(value, str) else None


_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?")


def is_named(value: Any, min_words: int = 2) -> bool:
    """Whether a value names one thing in full, which a request states once (later "that
    library"): text of at least `min_words` words, an email address, or one token of letters
    and digits ("BK-40212"); not a date or a time."""
    if not isinstance(value, str) or _ISO_DAY.fullmatch(value.strip()):
        return False
    words = value.split()
    if len(words) >= min_words or "@" in value:
        return True
    return len(words) == 1 and re.search(r"[A-Za-z]", value) is not None and re.search(r"\d", value) is not None


def violations(rules: tuple[Rule, ...], args: Mapping[str, Any], limits: Limits) -> list[tuple[str, str]]:
    """(rule kind, why) for every rule the arguments break."""
    found = []
    for rule in rules:
        why = rule.violation(args, limits)
        if why:
            found.append((rule.kind, why))
    return found
