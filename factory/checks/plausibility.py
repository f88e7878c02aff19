"""Plausibility: would a person make this request? The composer obeys these rules while it
builds a chain; this check applies them to the executed instance, where nested values are
known too, so whatever slips through (or comes from a model) is a counted reject.

Rules: `link` (an output feeds only a parameter of its kind and role, across seeds only
through a declared bridge), `group` (values that belong together come together), `sense` (the
seed's rules per tool, factory.toolbox.sense), `timeline` (nothing a person must be at starts before
the request's own flight can have got them there), `coherent` (literals agree with what the others imply,
`Toolbox.facts_about`), `undone` (actions that cancel each other out), `ends` (an action that
ends a thing, such as selling shares or cancelling an order, is the only thing a request does
with it: no buying the shares it sells, no tracking the order it cancels), `round_trip` (a call that
gives back what the user already said), `detour` (a call whose consumed outputs are all known
without it: stated in the request, or returned by a call that does not depend on it), `no_op`
(an action that leaves the world as it found it), `unrelated` (independent parts of one
request share nothing they are about), `occasion` (a part another seed's tool makes, with no
data flow to the goal's own calls, is about a day the rest is about), `withheld` (an insufficient-information item's missing
value truly cannot be had), `consent` (a fix-up that spends, signs, shares data or uses an identity
document is made only where the request authorises it in one of its condition's words).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from typing import Any

import networkx as nx

from factory.chains.pool import TODAY, groups_of, links_to
from factory.checks.context import CheckContext
from factory.checks.faithfulness import free_arguments
from factory.instances.distractors import alternative_in_two, alternative_to_gold, search_queries, world_before
from factory.instances.milestones import blocked_calls, needed_values, taken_values
from factory.instances.scenarios import needed_kinds, producers_of, unconditional
from factory.records import Call, CheckResult, Instance, Param, Ref, ToolSpec, Value, entry_holds, values_equal
from factory.toolbox.gazetteer import (
    CITIES,
    CITY_BY_NAME,
    COUNTRY_BY_NAME,
    NOW,
    country_named,
    local_time,
    nearest_city,
)
from factory.toolbox.sense import (
    SCENE_KINDS,
    Arrives,
    Distinct,
    Present,
    SameDay,
    Together,
    day_of,
    is_day,
    is_moment,
    present_subjects,
    same_subjects,
    subjects_of,
    violations,
)
from factory.toolbox.user import USER
from factory.world.simulator import Simulator, ToolCrash, base_world, hands_back

# Kinds many things share (a city, a day, a currency): two calls about one of them need not be
# about the same thing.
_SHARED_KINDS = SCENE_KINDS | {"city", "country", "address", "latitude", "longitude", "currency_code"}
RULES = ("link", "group", "sense", "hour", "timeline", "coherent", "no_op", "undone", "ends", "informs", "order", "round_trip",
         "detour", "ids", "unrelated", "occasion", "withheld", "consent")


def _specified(instance: Instance) -> Iterator[tuple[int, Call, ToolSpec]]:
    """The calls whose tool the instance knows (offered or withheld), with their index and spec."""
    for index, call in enumerate(instance.chain.calls):
        spec = instance.tool(call.tool)
        if spec is not None:
            yield index, call, spec


def _link_problems(instance: Instance, ctx: CheckContext) -> list[str]:
    producers = instance.chain.producers()
    problems = []
    for index, call in enumerate(instance.chain.calls):
        consumer = instance.tool(call.tool)
        for name, arg in call.arguments.items():
            if not isinstance(arg, Ref) or consumer is None:
                continue
            source = instance.chain.calls[producers[arg.ref]]
            producer = instance.tool(source.tool)
            out = producer.returns[source.outputs.index(arg.ref)]
            param = consumer.param(name)
            if out.kind is None and param is not None and param.kind is None:
                continue  # tools a model wrote declare no kinds: their links are the model's to judge
            if param is not None and not links_to(out, param, producer, consumer, ctx.bridges):
                problems.append(f"call {index + 1} {call.tool}.{name} ({param.kind}/{param.role}) takes "
                                f"{source.tool}.{out.name} ({out.kind}/{out.role})")
    return problems


def _group_problems(instance: Instance, ctx: CheckContext) -> list[str]:
    producers = instance.chain.producers()
    problems = []
    for index, call, spec in _specified(instance):
        for group in groups_of(spec, ctx.entry(spec), ctx.joint_kinds):
            args = [call.arguments.get(p) for p in group.params]
            given = [a for a in args if a is not None]
            fed = {producers[a.ref] for a in given if isinstance(a, Ref)}
            sources = fed | {"literal" for a in given if not isinstance(a, Ref) and not _echoed(instance, fed, a.value)}
            if given and (len(given) < len(args) or len(sources) > 1):
                problems.append(f"call {index + 1} {call.tool}: {', '.join(group.params)} mix "
                                f"{'a literal and nested values' if 'literal' in sources else 'values of different calls'}")
    return problems


def _echoed(instance: Instance, calls: set[int], value: Any) -> bool:
    """Whether one of `calls` hands `value` back as it was given (the check-in day of the stay
    found for it): a literal passed on beside that call's outputs belongs with them."""
    for step in instance.trace.steps:
        spec = instance.tool(step.tool) if step.call in calls else None
        for out, var in zip(spec.returns if spec else [], instance.chain.calls[step.call].outputs, strict=False):
            if step.arguments.get(out.name) == value and hands_back(step.outputs.get(var), out.name, step.arguments):
                return True
    return False


def _subjects(instance: Instance, ctx: CheckContext, index: int, memo: dict[int, dict[str, set]]) -> dict[str, set]:
    """What call `index` is about: the values of kinds it was given, stated or found (the wine
    whose origin it looks up), directly or through the calls that fed it."""
    if index not in memo:
        call = instance.chain.calls[index]
        spec = instance.tool(call.tool)
        producers = instance.chain.producers()
        entry = ctx.entry(spec)
        step = instance.trace.step(index)
        about: dict[str, set] = present_subjects(entry.tags if entry else ())
        for name, arg in call.arguments.items():
            param = spec.param(name) if spec else None
            if isinstance(arg, Ref):
                for kind, values in _subjects(instance, ctx, producers[arg.ref], memo).items():
                    about.setdefault(kind, set()).update(values)
            value = arg.value if isinstance(arg, Value) else step.arguments.get(name) if step else None
            if param is not None and param.kind and isinstance(value, (str, int, float)):
                for kind, values in subjects_of(param.kind, value).items():
                    about.setdefault(kind, set()).update(values)
        memo[index] = about
    return memo[index]


def _about_value(instance: Instance, ctx: CheckContext, ref: str, memo: dict[int, dict[str, set]]) -> dict[str, set]:
    """What a nested value is about: its call's subjects, and the call's other outputs of other
    kinds (the hottest city returned beside its temperature) with what they imply (the city of
    the event whose start it is)."""
    producer = instance.chain.producers()[ref]
    about = {kind: set(values) for kind, values in _subjects(instance, ctx, producer, memo).items()}
    call, spec = instance.chain.calls[producer], instance.tool(instance.chain.calls[producer].tool)
    step = instance.trace.step(producer)
    if spec is None or step is None:
        return about
    kinds = dict(zip(call.outputs, (out.kind for out in spec.returns), strict=False))
    for var, kind in kinds.items():
        value = step.outputs.get(var)
        if var != ref and kind and kind != kinds.get(ref) and isinstance(value, (str, int, float)):
            about.setdefault(kind, set()).add(value)
            if instance.world is not None:  # and what that thing implies: the next event's start is in its city
                for implied_kind, implied in ctx.facts_of(kind, value, instance.world.seed).items():
                    if implied_kind not in about and isinstance(implied, (str, int, float)):
                        about[implied_kind] = {implied}
    return about


def _together_problem(instance: Instance, ctx: CheckContext, index: int, params: tuple[str, ...],
                      memo: dict[int, dict[str, set]]) -> str | None:
    call = instance.chain.calls[index]
    nested = [(p, _about_value(instance, ctx, call.arguments[p].ref, memo)) for p in params
              if isinstance(call.arguments.get(p), Ref)]
    for i, (p, a) in enumerate(nested):
        for q, b in nested[i + 1:]:
            if not same_subjects(a, b):
                return f"{p} and {q} come from calls about different things"
    spec = instance.tool(call.tool)
    measured = [p for p in params if isinstance(call.arguments.get(p), Value)
                and isinstance(call.arguments[p].value, (int, float)) and not isinstance(call.arguments[p].value, bool)]
    if nested and measured:  # "how would 8 °C feel in the wind in London on June 15?": one measured, one made up
        return f"{measured[0]}={call.arguments[measured[0]].value!r} is stated beside {nested[0][0]} found for a place"
    for p in params:  # a literal member names its own thing: the nested ones must not be about another
        arg, param = call.arguments.get(p), spec.param(p) if spec else None
        if isinstance(arg, Value) and param is not None and param.kind and isinstance(arg.value, (str, int, float)):
            implied = {param.kind: arg.value}  # and what it implies: a shelf mark's book
            if instance.world is not None:
                implied.update(ctx.facts_of(param.kind, arg.value, instance.world.seed, param.role))
            for q, about in nested:
                for kind, value in implied.items():
                    if kind in about and value not in about[kind]:
                        return f"{q} comes from a call about another {kind.replace('_', ' ')} than {p}={arg.value!r}"
    return None


def _days_found_for(instance: Instance, index: int, memo: dict[int, set]) -> set:
    """The days call `index` was made for: its date and date-time arguments as executed, the
    days it returned (a weather report found for "Vancouver in 3 days" is for that day), and
    those of the calls that fed it."""
    if index not in memo:
        call = instance.chain.calls[index]
        spec = instance.tool(call.tool)
        step = instance.trace.step(index)
        producers = instance.chain.producers()
        days = set()
        for name, arg in call.arguments.items():
            param = spec.param(name) if spec else None
            if param is not None and param.kind in SCENE_KINDS and step is not None:
                days.add(day_of(step.arguments.get(name)))
            if isinstance(arg, Ref):
                days |= _days_found_for(instance, producers[arg.ref], memo)
        if spec is not None and step is not None:
            days |= {day_of(step.outputs.get(var)) for var, out in zip(call.outputs, spec.returns, strict=False)
                     if out.kind in SCENE_KINDS or is_day(out)}
        memo[index] = days - {None}
    return memo[index]


def _days_about(instance: Instance, index: int, memo: dict[int, set]) -> set:
    """The days call `index` is about, for telling occasions apart: the days it returned where
    it returned any, else the days it was made for (`_days_found_for`). The next holiday after
    June 18 is about the holiday, so the hottest city on June 18 beside it is a second errand
    (readings 56 #17, 60 #17)."""
    call = instance.chain.calls[index]
    spec, step = instance.tool(call.tool), instance.trace.step(index)
    returned = set()
    if spec is not None and step is not None:
        returned = {day_of(step.outputs.get(var)) for var, out in zip(call.outputs, spec.returns, strict=False)
                    if out.kind in SCENE_KINDS or is_day(out)} - {None}
    return returned or _days_found_for(instance, index, memo)


def _today_elsewhere(instance: Instance) -> list[str]:
    """"Today" is the person's own date: a call about a place where the date is already another
    takes it as that place's today too ("where in Japan is it hottest today?" asked at 09:30 in
    San Francisco, when it is June 14 in Tokyo; readings 65 #20, 66 #18). A day found by a call
    that is given no day is today at home."""
    producers = instance.chain.producers()
    problems = []
    for index, call in enumerate(instance.chain.calls):
        spec, step = instance.tool(call.tool), instance.trace.step(index)
        if spec is None or step is None:
            continue
        today = [name for name, arg in call.arguments.items() if isinstance(arg, Ref)
                 and (param := spec.param(name)) is not None and param.kind in ("date", "datetime")
                 and day_of(step.arguments.get(name)) == NOW.date() and not _given_a_day(instance, producers[arg.ref])]
        if not today:
            continue
        places = [step.arguments.get(name) for name in call.arguments
                  if (param := spec.param(name)) is not None and param.kind in ("city", "country")]
        for place in places:
            there = _date_now_in(str(place))
            if there is not None and there != NOW.date():
                problems.append(f"call {index + 1} {call.tool} takes today at home ({NOW.date()}) for {place}, "
                                f"where it is {there}")
    return problems


def _given_a_day(instance: Instance, index: int) -> bool:
    spec = instance.tool(instance.chain.calls[index].tool)
    return spec is None or any(p.kind in ("date", "datetime") for p in spec.parameters)


def _date_now_in(place: str) -> date | None:
    """The date at the simulated now in a city, or in every covered city of a country when they
    agree; None when unknown or when the country spans dates."""
    country = country_named(place)
    names = [place] if place in CITY_BY_NAME else [c.name for c in CITIES if country and c.country == country]
    dates = {local_time(name, USER.home_city, NOW).date() for name in names}
    return dates.pop() if len(dates) == 1 else None


def _same_day_problem(instance: Instance, index: int, param: str, args: dict[str, Any], memo: dict[int, set]) -> str | None:
    call = instance.chain.calls[index]
    producers = instance.chain.producers()
    day = day_of(args.get(param))
    found = set().union(*(_days_found_for(instance, producers[a.ref], memo) for a in call.arguments.values()
                          if isinstance(a, Ref)))
    if day is None or not found or day in found:
        return None
    return f"{param}={args[param]} is not the day its nested inputs were found for ({', '.join(sorted(map(str, found)))})"


def _sense_problems(instance: Instance, ctx: CheckContext, limits: dict[str, Any]) -> list[str]:
    problems = []
    memo: dict[int, dict[str, set]] = {}
    days: dict[int, set] = {}
    for step in instance.trace.steps:
        entry = ctx.entry(instance.tool(step.tool))
        rules = entry.sense if entry else ()
        for kind, why in violations(rules, step.arguments, limits):
            problems.append(f"call {step.call + 1} {step.tool}: {kind}: {why}")
        for rule in rules:
            if isinstance(rule, Together) and (why := _together_problem(instance, ctx, step.call, rule.params, memo)):
                problems.append(f"call {step.call + 1} {step.tool}: together: {why}")
            if isinstance(rule, SameDay) and (why := _same_day_problem(instance, step.call, rule.param, step.arguments, days)):
                problems.append(f"call {step.call + 1} {step.tool}: same_day: {why}")
    return problems


# Words that say a time of day (or a time counted from now): "next Friday 5pm", "tonight", "in 30 minutes".
_TIME_OF_DAY = re.compile(r"\d{1,2}(?::\d{2})?\s*(?:am|pm)\b|\d{1,2}:\d{2}|\b(?:noon|midnight|morning|afternoon|"
                          r"evening|tonight|night|hours?|minutes?|now|o'clock)\b", re.IGNORECASE)


def _hour_problems(instance: Instance, ctx: CheckContext) -> list[str]:
    """A time of day the request never says is not for a later call to use: "the forecast
    temperature at this Wednesday" resolves to 09:00 and reads the hour's forecast, where the
    person named no hour."""
    consumed = {a.ref for call in instance.chain.calls for a in call.arguments.values() if isinstance(a, Ref)}
    problems = []
    for index, call in enumerate(instance.chain.calls):
        spec, entry = instance.tool(call.tool), ctx.entry(instance.tool(call.tool))
        if spec is None or entry is None or "canonicalise" not in entry.tags:
            continue
        said = [a.value for a in call.arguments.values() if isinstance(a, Value) and isinstance(a.value, str)]
        timed = [var for var, out in zip(call.outputs, spec.returns, strict=False) if out.kind == "datetime"]
        if said and any(v in consumed for v in timed) and not any(_TIME_OF_DAY.search(text) for text in said):
            problems.append(f"call {index + 1} {call.tool} gives a time of day {', '.join(map(repr, said))} never says")
    return problems


def _place(instance: Instance, ctx: CheckContext, kind: str | None, role: str | None, value: Any) -> dict[str, Any]:
    """The city and country a value puts a person in: a city's own, or what the facts of a
    flight or a hotel say (a flight's country only, when its city is not known)."""
    if kind == "city" and isinstance(value, str) and value in CITY_BY_NAME:
        return {"city": value, "country": CITY_BY_NAME[value].country}
    facts = ctx.facts_of(kind, value, instance.world.seed, role) if instance.world is not None else {}
    return {k: facts[k] for k in ("city", "country") if k in facts}


def _whereabouts(instance: Instance, ctx: CheckContext) -> tuple[list, list]:
    """(arrivals, presences) of the executed calls that `Arrives` and `Present` mark: (call,
    place, moment, exact, day of travel) with `exact` False where only the day of travel is
    known, and (call, place, since)."""
    arrivals, presences = [], []
    for step in instance.trace.steps:
        spec = instance.tool(step.tool)
        entry = ctx.entry(spec)
        if spec is None or entry is None or step.error:
            continue
        call = instance.chain.calls[step.call]
        named = {o.name: (o, step.outputs.get(var)) for var, o in zip(call.outputs, spec.returns, strict=False)}
        named |= {p.name: (p, step.arguments[p.name]) for p in spec.parameters if p.name in step.arguments}
        for rule in entry.sense:
            if not isinstance(rule, Arrives | Present) or not all(n in named for n in rule.params):
                continue
            (where, place), (_, when) = named[rule.params[0]], named[rule.params[1]]
            place = _place(instance, ctx, where.kind, where.role, place)
            if isinstance(rule, Present):
                presences.append((step.call, place, when))
            elif len(rule.params) > 2:
                arrivals.append((step.call, place, named[rule.params[2]][1], True, when))
            else:
                arrivals.append((step.call, place, when, False, when))
    return arrivals, presences


def _apart(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two places known to differ: two cities, or two countries."""
    key = "city" if "city" in a and "city" in b else "country"
    return key in a and key in b and a[key] != b[key]


def _same_place(a: dict[str, Any], b: dict[str, Any]) -> bool:
    key = "city" if "city" in a and "city" in b else "country"
    return key in a and a.get(key) == b.get(key)


def _timeline_problems(instance: Instance, ctx: CheckContext) -> list[str]:
    """Nothing a person must be at starts before they can have arrived there: no hotel check-in
    on June 18 for a flight that lands on June 19, no flight on Saturday to Friday's event. A
    flight known only by its day of travel lands on that day at the earliest. Nor does a stay
    elsewhere begin while the flight is on its way or on the day it lands."""
    arrivals, presences = _whereabouts(instance, ctx)
    problems = []
    for at, place, since in presences:
        for by, there, moment, exact, travel in arrivals:
            if day_of(since) is None or day_of(moment) is None:
                continue
            if not _same_place(place, there):
                # a night elsewhere while the flight is on its way there or has just landed: a
                # Mumbai hotel from June 27 for the traveller on the overnight flight to Bangalore
                if (len(str(since)) == 10 and _apart(place, there) and day_of(travel) is not None
                        and day_of(travel) <= day_of(since) <= day_of(moment)):
                    problems.append(f"call {at + 1} {instance.chain.calls[at].tool} puts the person in "
                                    f"{place.get('city') or place.get('country')} on {since}, when call {by + 1} "
                                    f"{instance.chain.calls[by].tool} takes them to "
                                    f"{there.get('city') or there.get('country')} ({moment})")
                continue
            if len(str(since)) > 10:  # a moment: an event's start
                early = str(since) < str(moment) if exact else day_of(since) < day_of(moment)
            else:  # a day: a stay's first night, even one before a landing at dawn (a reader asks why)
                early = day_of(since) < day_of(moment)
            if early:
                problems.append(f"call {at + 1} {instance.chain.calls[at].tool} needs the person in "
                                f"{place.get('city') or place.get('country')} from {since}, before call {by + 1} "
                                f"{instance.chain.calls[by].tool} gets them there ({moment})")
    return problems


def _before_arrival(instance: Instance, ctx: CheckContext) -> list[str]:
    """Nothing is planned for a thing before the day it arrives: no delivery slot from June 17
    for the parcel due on June 18 (reading 54 #38). A day stated to a call about the same things
    as a call that returned an arrival (an output of role `eta`) is not before that arrival's day."""
    memo: dict[int, dict[str, set]] = {}
    arrivals = []  # (call, its subjects, the arrival)
    for index, call, spec in _specified(instance):
        step = instance.trace.step(index)
        for var, out in zip(call.outputs, spec.returns, strict=False):
            if out.role == "eta" and step is not None and day_of(step.outputs.get(var)) is not None:
                arrivals.append((index, _subjects(instance, ctx, index, memo), step.outputs[var]))
    problems = []
    for index, call, spec in _specified(instance):
        for name, arg in call.arguments.items():
            param = spec.param(name)
            day = day_of(arg.value) if isinstance(arg, Value) and param is not None and param.kind == "date" else None
            late = next(((at, when) for at, about, when in arrivals if at != index and day is not None
                         and day < day_of(when) and same_subjects(about, _subjects(instance, ctx, index, memo))), None)
            if late is not None:
                problems.append(f"call {index + 1} {call.tool} plans for {arg.value}, before the day call {late[0] + 1} "
                                f"{instance.chain.calls[late[0]].tool} says it arrives ({late[1]})")
    return problems


def _moved_place_problems(instance: Instance) -> list[str]:
    """A city found for today (where today's appointment is) is no city for a call about another
    day: not where a time on August 12 is to be read (reading 43 #3), nor where a flight leaves
    from on June 24 (reading 40 #26). A country stays, and so does a city found for a day to
    come (where a parcel will be on June 18)."""
    producers = instance.chain.producers()
    memo: dict[int, set] = {}
    problems = []
    for step in instance.trace.steps:
        call, spec = instance.chain.calls[step.call], instance.tool(step.tool)
        if spec is None or call.fixes is not None:
            continue
        days = {day_of(step.arguments.get(n)) for n, a in call.arguments.items()
                if isinstance(a, Value) and (p := spec.param(n)) is not None and p.kind in SCENE_KINDS} - {None}
        for name, arg in call.arguments.items():
            param = spec.param(name)
            if not days or not isinstance(arg, Ref) or param is None or _plain(param.kind) != "city":
                continue
            found = _days_found_for(instance, producers[arg.ref], memo)
            if found == {date.fromisoformat(TODAY)} and not found & days:
                problems.append(f"call {step.call + 1} {step.tool} takes {name}={step.arguments.get(name)!r}, found for "
                                f"{', '.join(sorted(map(str, found)))}, for {', '.join(sorted(map(str, days)))}")
    return problems


def _literals(instance: Instance) -> list[tuple[int, str, str, object, str | None]]:
    """(call, parameter, kind, value, role) of every literal argument of a task call."""
    found = []
    for index, call in enumerate(instance.chain.calls):
        spec = instance.tool(call.tool)
        for name, arg in call.arguments.items():
            param = spec.param(name) if spec else None
            if call.fixes is None and isinstance(arg, Value) and param is not None and param.kind:
                found.append((index, name, param.kind, arg.value, param.role))
    return found


def _coherent_problems(instance: Instance, ctx: CheckContext) -> list[str]:
    """Literals agree with what the others imply: no alert in Japan asked about in Lyon, no
    office hours of another instructor than the one of the course the request names (a fact
    "kind/role" speaks of a literal in that role only). A literal a distinct rule sets apart
    (the other end of a trip) may differ."""
    if instance.world is None:
        return []
    apart = set()
    for index, call in enumerate(instance.chain.calls):
        entry = ctx.entry(instance.tool(call.tool))
        apart |= {(index, p) for rule in (entry.sense if entry else ()) if isinstance(rule, Distinct) for p in rule.params}
    literals = [lit for lit in _literals(instance) if (lit[0], lit[1]) not in apart]
    problems = []
    for index, name, kind, value, role in literals:
        facts = ctx.facts_of(kind, value, instance.world.seed, role)
        for other_index, other_name, other_kind, other, other_role in literals:
            key = f"{other_kind}/{other_role}" if f"{other_kind}/{other_role}" in facts else other_kind  # a person in a role
            if other_kind != kind and key in facts and facts[key] != other:
                problems.append(f"call {index + 1} {name}={value!r} implies {key} {facts[key]!r}, "
                                f"but call {other_index + 1} {other_name} is {other!r}")
    return problems


def _points_problems(instance: Instance) -> list[str]:
    """Two bare coordinate points in one request: a person may read their own position off a
    phone, not a second one ("the nearest major city to 22.32785, 114.11821 ... the transit
    time from 22.32974, 114.22399", reading 51 #40)."""
    points = set()
    for _, call, spec in _specified(instance):
        stated = {kind: [a.value for name, a in call.arguments.items() if isinstance(a, Value)
                         and (p := spec.param(name)) is not None and p.kind == kind] for kind in ("latitude", "longitude")}
        points |= set(zip(stated["latitude"], stated["longitude"], strict=False))
    return [f"the request states {len(points)} bare coordinate points"] if len(points) > 1 else []


def _delivered_elsewhere(instance: Instance, ctx: CheckContext) -> list[str]:
    """An order of a thing, delivered to the person's own address, in a request that quotes its
    delivery to another city: "I want item TG-1004 sent to Dubai ... buy 2 units" (reading 52
    #14) reads as one order to Dubai, which the shop then sends home. The thing may be named or
    found (the SKU of the speaker the request names, reading 68 #14)."""
    def thing(arg: Any) -> Any:
        return ("ref", arg.ref) if isinstance(arg, Ref) else arg.value if isinstance(arg, Value) else None

    quoted: dict[Any, str] = {}  # thing → the city its delivery was quoted to
    for _, call, spec in _specified(instance):
        places = [a.value for name, a in call.arguments.items() if isinstance(a, Value)
                  and (p := spec.param(name)) is not None and p.kind == "city" and p.role == "delivery_city"]
        for place in places:
            if place != USER.home_city:
                quoted.update({thing(a): place for a in call.arguments.values() if thing(a) not in (None, place)})
    problems = []
    for k, call, spec in _specified(instance):
        entry = ctx.entry(spec)
        if entry is None or "state_change" not in entry.tags or any(p.role == "delivery_city" for p in spec.parameters):
            continue
        for arg in call.arguments.values():
            key = thing(arg)
            if isinstance(key, str | tuple) and key in quoted:
                problems.append(f"call {k + 1} {call.tool} delivers {arg.value if isinstance(arg, Value) else arg.ref!r} "
                                f"home, yet the request quotes its delivery to {quoted[key]}")
    return problems


def _spot_for_area(instance: Instance, ctx: CheckContext) -> list[str]:
    """A reading of a whole area (tag `area`: the hours of daylight at a point) is asked of a
    city or of where the person is, never of a mapped spot: "the hours of daylight yesterday at
    the Olive Vine Brasserie in San Francisco" goes through a restaurant for what the city's own
    sunrise and sunset give, and loses the shorter path its milestones (readings 61 #18, 68 #20)."""
    producers = instance.chain.producers()
    problems = []
    for k, call, spec in _specified(instance):
        entry = ctx.entry(spec)
        if entry is None or "area" not in entry.tags:
            continue
        for name, arg in call.arguments.items():
            param = spec.param(name)
            if not isinstance(arg, Ref) or param is None or param.kind not in ("latitude", "longitude"):
                continue
            source = instance.chain.calls[producers[arg.ref]]
            found = instance.tool(source.tool)
            if found is not None and any(v.kind == "place_id" for v in (*found.parameters, *found.returns)):
                problems.append(f"call {k + 1} {call.tool} reads a whole area at the spot call "
                                f"{producers[arg.ref] + 1} {source.tool} maps")
                break
    return problems


def _no_op_problems(instance: Instance, ctx: CheckContext) -> list[str]:
    if instance.world is None or any(t not in ctx.seeds for t in instance.world.toolboxes):
        return []  # the execution check says which seed is missing
    before = Simulator(ctx.seeds, instance.world).snapshot()
    problems = []
    for step in instance.trace.steps:
        entry = ctx.entry(instance.tool(step.tool))
        if entry and "state_change" in entry.tags and step.state == before:
            problems.append(f"call {step.call + 1} {step.tool} leaves the world as it found it")
        before = step.state
    return problems


def _undone_problems(instance: Instance, ctx: CheckContext) -> list[str]:
    """A request whose actions leave the world exactly as it was (book, then cancel) asks for nothing."""
    if instance.world is None or not instance.trace.steps:
        return []
    actions = [s for s in instance.trace.steps if instance.chain.calls[s.call].fixes is None
               and (entry := ctx.entry(instance.tool(s.tool))) is not None and "state_change" in entry.tags]
    if len(actions) < 2:
        return []  # a single action changing nothing is the no_op rule's
    simulator = Simulator(ctx.seeds, instance.world)
    # Fix-ups change the state on purpose: the request's actions undo each other when the world
    # ends as the fix-ups alone would leave it (verify the account, buy 2 shares, sell 2 shares).
    for step in instance.trace.steps:
        spec = instance.tool(step.tool)
        if instance.chain.calls[step.call].fixes is not None and spec is not None:
            simulator.call(spec, step.arguments)
    if instance.trace.steps[-1].state == simulator.snapshot():
        return [f"calls {', '.join(str(s.call + 1) for s in actions)} undo each other: the world ends as it began"]
    return []


def _things(instance: Instance, step_index: int) -> set[tuple[str, str]]:
    """(kind, value) of the things a step was given by name or id, as executed: an order, a
    stock symbol; not places, days or amounts, which many things share."""
    step = instance.trace.steps[step_index]
    spec = instance.tool(step.tool)
    found = set()
    for name, value in step.arguments.items():
        param = spec.param(name) if spec else None
        if param is not None and param.kind and param.kind not in _SHARED_KINDS and isinstance(value, str):
            found.add((param.kind, value.casefold()))
    return found


def _ends_problems(instance: Instance, ctx: CheckContext) -> list[str]:
    """An action that ends a thing (tag `ends`: sell shares, cancel an order) is the only thing
    the request does with it besides finding it: "buy 15 shares of it, then sell 5" or "where is
    order ORD-1? Cancel it" work against themselves."""
    graph = instance.chain.graph()
    problems = []
    for k, step in enumerate(instance.trace.steps):
        entry = ctx.entry(instance.tool(step.tool))
        if entry is None or "ends" not in entry.tags or instance.chain.calls[step.call].fixes is not None:
            continue
        ended = _things(instance, k)
        feeders = nx.ancestors(graph, step.call)
        for j, other in enumerate(instance.trace.steps):
            if j == k or other.call in feeders or instance.chain.calls[other.call].fixes is not None:
                continue
            other_entry = ctx.entry(instance.tool(other.tool))
            acts = other_entry is not None and "state_change" in other_entry.tags
            if (j < k or acts) and (shared := ended & _things(instance, j)):
                kind, value = sorted(shared)[0]
                problems.append(f"call {other.call + 1} {other.tool} is about the {kind.replace('_', ' ')} {value!r} "
                                f"that call {step.call + 1} {step.tool} ends")
    return problems


def _informs_problems(instance: Instance, ctx: CheckContext) -> list[str]:
    """A check made to decide on an action (tag `informs`: whether a coupon applies, how many
    are in stock, whether a room is free) comes before the action on the same thing, never
    after it: "order 2 of item X ... does coupon TECH15 apply to that item?" asks too late. The
    action then uses what was checked where it can take it: "does TECH15 apply to item X? ...
    order 1 unit of that item" charged the full price (reading 85 #26)."""
    problems = []
    acted: dict[tuple[str, str], int] = {}  # a thing → the first action on it, in request order
    checked: dict[tuple[str, str], list[tuple[int, tuple[str, str]]]] = {}  # a thing → (call, what was checked with it)
    for k, step in enumerate(instance.trace.steps):
        call = instance.chain.calls[step.call]
        spec, entry = instance.tool(step.tool), ctx.entry(instance.tool(step.tool))
        if entry is None or call.fixes is not None:
            continue
        things = _things(instance, k)
        if "informs" in entry.tags and (done := sorted(t for t in things if t in acted)):
            kind, value = done[0]
            problems.append(f"call {step.call + 1} {step.tool} checks the {kind.replace('_', ' ')} {value!r} "
                            f"after call {acted[done[0]] + 1} acted on it")
        if "informs" in entry.tags:
            for thing in things:
                checked.setdefault(thing, []).extend((step.call, other) for other in things if other != thing)
        if "state_change" in entry.tags and spec is not None:
            for thing in things:
                acted.setdefault(thing, step.call)
                for at, (kind, value) in checked.get(thing, []):
                    param = next((p for p in spec.parameters if p.kind == kind), None)
                    if param is not None and (kind, value) not in things:
                        problems.append(f"call {step.call + 1} {step.tool} acts on the {thing[0].replace('_', ' ')} "
                                        f"{thing[1]!r} without the {kind.replace('_', ' ')} {value!r} "
                                        f"call {at + 1} checked with it")
    return problems


def _order_problems(instance: Instance, ctx: CheckContext) -> list[str]:
    """An asked reading that an independent action of the same request changes ("file 2 days of
    leave ... how many leave days are still available?") has two answers, before and after the
    action, and nothing in the request or its milestones says which."""
    if instance.world is None or any(t not in ctx.seeds for t in instance.world.toolboxes):
        return []
    graph = instance.chain.graph()
    actions = [s.call for s in instance.trace.steps if instance.chain.calls[s.call].fixes is None
               and (entry := ctx.entry(instance.tool(s.tool))) is not None and "state_change" in entry.tags]
    specs = {t.name: t for t in (*instance.tools, *instance.withheld_tools)}
    problems = []
    for k, step in enumerate(instance.trace.steps):
        call, spec = instance.chain.calls[step.call], instance.tool(step.tool)
        if not call.asked or call.fixes is not None or spec is None:
            continue
        apart = [a for a in actions if a != step.call and not nx.has_path(graph, a, step.call)
                 and not nx.has_path(graph, step.call, a)]
        # Shopping around after the choice is made: "Place the order for 3 of EL-1007 ... which
        # SKUs does the catalog have in that category?" (reading 37 #31)
        listed = {o.kind for o in spec.returns if o.kind and o.type.startswith("list")}
        chosen = [a for a in apart if a < step.call and step.call not in actions
                  and listed & _kinds_given(instance, a)]
        if chosen:
            problems.append(f"call {step.call + 1} {step.tool} lists what call {chosen[0] + 1} "
                            f"{instance.chain.calls[chosen[0]].tool} already chose one of")
            continue
        if not apart:
            continue
        if step.call not in actions:
            first = Simulator(ctx.seeds, instance.world).call(spec, step.arguments)  # before any action
            if first.error is None and list(first.values) != list(step.outputs.values()):
                problems.append(f"call {step.call + 1} {step.tool} reads what call {apart[0] + 1} changes, "
                                "and the request leaves open which comes first")
            continue
        # An action made before the independent ones it follows: a booking counter gives the
        # flight the hotel's reference, and the answer holds one order of two the request allows.
        earlier = [a for a in apart if any(s.call == a for s in instance.trace.steps[:k])]
        if not earlier:
            continue
        world = Simulator(ctx.seeds, instance.world)
        for before in instance.trace.steps[:k]:
            if before.call not in earlier and before.tool in specs:
                world.call(specs[before.tool], before.arguments)
        first = world.call(spec, step.arguments)
        if first.error is None and list(first.values) != list(step.outputs.values()):
            problems.append(f"call {step.call + 1} {step.tool} gives other values made before call {earlier[0] + 1}, "
                            "and the request leaves open which comes first")
    return problems


def _days_given(instance: Instance, index: int) -> set:
    """The days stated to call `index`, directly or through the calls feeding it: the slot
    found from June 20 is on a day the request gave, not a day it asked for."""
    calls = nx.ancestors(instance.chain.graph(), index) | {index}
    return {day for i in calls for arg in instance.chain.calls[i].arguments.values()
            if isinstance(arg, Value) and (day := day_of(arg.value)) is not None}


def _round_trip_problems(instance: Instance) -> list[str]:
    """A call that only gives back what the user already said (the phone number of the contact
    whose number is X; the address of the point geocoded from that address) is pointless."""
    stated = {(kind, value.casefold()) for _, _, kind, value, _ in _literals(instance) if isinstance(value, str)}
    said = {value for _, value in stated if day_of(value) is None}
    days = {day for _, value in stated if (day := day_of(value)) is not None}
    problems = []
    for step in instance.trace.steps:
        spec = instance.tool(step.tool)
        call = instance.chain.calls[step.call]
        for out, (var, value) in zip(spec.returns if spec else [], step.outputs.items(), strict=False):
            # its own argument handed back under the same name is an echo, no answer; under
            # another (the city of the airport "Bangalore") it is asked for
            literal_here = any(isinstance(a, Value) and a.value == value and name == out.name
                               for name, a in call.arguments.items())
            if literal_here or not isinstance(value, str):
                continue
            if out.kind and (out.kind, value.casefold()) in stated:
                problems.append(f"call {step.call + 1} {step.tool} gives back {value!r}, which the request already states")
            elif call.asked and (value.casefold() in said or day_of(value) in days - _days_given(instance, step.call)):
                # "Who is the booking for? ... put Jordan Avery on that flight": the person asks
                # for what they go on to say themselves, whatever kind either is declared as
                problems.append(f"call {step.call + 1} {step.tool} is asked for {value!r}, which the request states")
            elif call.asked and (out.kind in ("city", "country") or len(value.split()) > 1) and re.search(
                    rf"(?<!\w){re.escape(value)}(?!\w)", instance.query, re.IGNORECASE):
                # "which city is Clarke Galleria, Singapore in?", "what is my coffee with Elena about?"
                # ("Coffee with Elena"): the request names what it asks for (reading 43 #38)
                problems.append(f"call {step.call + 1} {step.tool} is asked for {value!r}, which the request names")
    return problems + _asked_again_problems(instance)


def _own_clock_problems(instance: Instance) -> list[str]:
    """Nobody asks the time now in the city nearest their own position ("my GPS coordinates ...
    the current local time in the closest city to that location": reading 46 #3, #34): it is the
    time where they are, asked the long way round."""
    graph = instance.chain.graph()
    problems = []
    for index, call, spec in _specified(instance):
        if not call.asked or len(spec.parameters) != 1 or spec.parameters[0].kind != "city" \
                or not any(is_moment(o) for o in spec.returns):
            continue
        for source in nx.ancestors(graph, index):
            found = instance.tool(instance.chain.calls[source].tool)
            if found is not None and not found.parameters and {"latitude", "longitude"} <= {o.kind for o in found.returns}:
                problems.append(f"call {index + 1} {call.tool} asks the time now where the person is, "
                                f"by way of call {source + 1} {found.name}")
                break
    return problems


def _kinds_given(instance: Instance, index: int) -> set[str]:
    """The kinds of the arguments call `index` was given."""
    spec = instance.tool(instance.chain.calls[index].tool)
    return {p.kind for p in spec.parameters if p.kind and p.name in instance.chain.calls[index].arguments} if spec else set()


def _spelled_within(kind: str | None, value: Any, known: list[Any], own: list[Any]) -> str | None:
    """The words in which other words already say a found value: a city or country by its name ("Seoul
    Botanical Gardens, Seoul": its city is Seoul), a person by their first name in what another
    call was given ("my 1:1 with Leila": its organiser is Leila Patel, reading 54 #6), not in
    the call's `own` arguments ("Kenji K" is whom a name resolver resolves)."""
    if not isinstance(value, str) or not value.strip():
        return None
    if kind in ("city", "country"):
        said = value
    elif kind == "person_name":
        said = value.split()[0]
        known = [v for v in known if v not in own]
    else:
        return None
    if any(isinstance(v, str) and v != value and re.search(rf"\b{re.escape(said)}\b", v, re.IGNORECASE) for v in known):
        return said
    return None


def _found_again_problems(instance: Instance) -> list[str]:
    """A search from a thing the same search found ("which restaurant is closest to that
    place?", that place being the restaurant nearest me): a call given a place of the kind it
    finds, found by a call given the same words, asks for the nearest restaurant to a restaurant
    (reading 37 #2)."""
    producers = instance.chain.producers()
    problems = []
    for index, call, spec in _specified(instance):
        words = {(n, a.value) for n, a in call.arguments.items() if isinstance(a, Value) and isinstance(a.value, str)
                 and (p := spec.param(n)) is not None and p.kind is None}
        for arg in call.arguments.values():
            if not isinstance(arg, Ref) or arg.ref not in producers:
                continue
            source = instance.chain.calls[producers[arg.ref]]
            found = instance.tool(source.tool)
            out = found.returns[source.outputs.index(arg.ref)] if found else None
            same = sorted(words & {(n, a.value) for n, a in source.arguments.items()
                                   if isinstance(a, Value) and isinstance(a.value, str)})
            if out is not None and out.kind and same and any(o.kind == out.kind for o in spec.returns):
                word = same[0][1]
                problems.append(f"call {index + 1} {call.tool} searches for {word!r} from the {word} "
                                f"call {producers[arg.ref] + 1} {source.tool} found")
                break
    return problems


def _measured_twice(instance: Instance, asked: set[int]) -> list[str]:
    """Two asked calls that measure the same thing in the same unit and agree ("how far is it?",
    then "the straight-line distance from that location to the heart of that city", both 0.4 km:
    reading 44 #2): the request asks the same question twice."""
    seen: dict[tuple[str, float], int] = {}
    for step in instance.trace.steps:
        spec = instance.tool(step.tool)
        if step.call not in asked or spec is None:
            continue
        for out, value in zip(spec.returns, step.outputs.values(), strict=False):
            unit = out.name.rsplit("_", 1)[-1]
            if isinstance(value, float) and not value.is_integer() and unit in _UNITS:
                if (unit, value) in seen and seen[unit, value] != step.call:
                    return [f"call {step.call + 1} {step.tool} measures again the {value} {unit} call "
                            f"{seen[unit, value] + 1} {instance.chain.calls[seen[unit, value]].tool} gave"]
                seen.setdefault((unit, value), step.call)
    return []


_UNITS = frozenset({"km", "minutes", "hours", "c", "kmh"})  # output names ending in a unit of measure


def _asked_again_problems(instance: Instance) -> list[str]:
    """The request asks for what it already has: a value its own words spell out (the city of
    "91 Freight Avenue, Vancouver"), or everything an earlier call returned (the cafés listed in
    the city of the best-rated result of a search for cafés there)."""
    problems = []
    earlier: list[Any] = []
    found: dict[tuple[str, str], set[int]] = {}  # (kind, value) → the calls that found it
    found_for: dict[tuple[str, str | None, str], int] = {}  # (kind, role, value) → the call that found it
    asked = set(instance.chain.asked())
    producers = instance.chain.producers()
    position = {step.call: k for k, step in enumerate(instance.trace.steps)}
    for step in instance.trace.steps:
        call = instance.chain.calls[step.call]
        values = list(step.outputs.values())
        spec = instance.tool(step.tool)
        kinds = [o.kind for o in spec.returns] if spec else []
        typed = {(k, v.casefold()) for k, v in zip(kinds, values, strict=False) if k and isinstance(v, str) and v}
        # (and a point: a place's coordinates, asked again of the place found, reading 52 #9)
        typed |= {(k, repr(float(v))) for k, v in zip(kinds, values, strict=False)
                  if k in ("latitude", "longitude") and isinstance(v, (int, float))}
        fed_by = {producers[a.ref] for a in call.arguments.values() if isinstance(a, Ref) and a.ref in producers}
        echoed = {str(v).casefold() for v in step.arguments.values()}  # what it was given, handed back to chain on
        # Asked again: what an asked call it builds on reported, a thing (not a place or a day,
        # which many things share) another asked call already named, or a value of the same kind
        # and role another asked call found for the same thing (the destination of parcel X, then
        # the city the delivery of parcel X goes to): the agent twice. A place of another role is
        # another question (where parcel X is now, and where it came from).
        about = _things(instance, position[step.call])
        # (every call that found it: the course's textbook names its title, then the book's details
        # asked for say it, and a third asked call for the title asks again, reading 50 #20)
        again = sorted(t for t in typed if t[1] not in echoed and (found.get(t, set()) & fed_by & asked or (
            found.get(t, set()) & asked and t[0] not in _SHARED_KINDS)))
        again += sorted((o.name, v.casefold()) for o, v in zip(spec.returns if spec else [], values, strict=False)
                        if o.kind and isinstance(v, str) and v and v.casefold() not in echoed
                        and found_for.get(key := (o.kind, o.role, v.casefold())) in asked
                        and about & _things(instance, position[found_for[key]]))
        if step.call in asked and again:  # "what letter did they earn? ... and convert that mark to a letter"
            kind, value = again[0]
            problems.append(f"call {step.call + 1} {step.tool} asks again for the {kind.replace('_', ' ')} {value!r}")
        for t in typed:
            found.setdefault(t, set()).add(step.call)
        for o, v in zip(spec.returns if spec else [], values, strict=False):
            if o.kind and isinstance(v, str):
                found_for.setdefault((o.kind, o.role, v.casefold()), step.call)
        if step.call in asked:
            problems += _known_already(step, call, values, earlier)
        earlier += values
    return problems + _measured_twice(instance, asked) + _listed_already(instance, asked)


def _known_already(step: Any, call: Any, values: list[Any], earlier: list[Any]) -> list[str]:
    """An asked call whose answer its own arguments spell out, or that returns only what
    earlier calls returned."""
    problems = []
    said = [a.value.casefold() for a in call.arguments.values() if isinstance(a, Value) and isinstance(a.value, str)]
    for value in values:
        if isinstance(value, str) and len(value) > 2 and any(
                value.casefold() != text and re.search(rf"\b{re.escape(value.casefold())}\b", text) for text in said):
            problems.append(f"call {step.call + 1} {step.tool} is asked for {value!r}, which its own arguments spell out")
    texts = [v for v in values if v not in (None, "", [])]
    # Numbers and flags repeat by chance (two counts of 2); names and lists do not.
    if texts and earlier and all(isinstance(v, (str, list)) for v in texts) and all(
            any(values_equal(v, e, loose_strings=True) for e in earlier) for v in texts):
        problems.append(f"call {step.call + 1} {step.tool} returns only what an earlier call returned")
    return problems


def _listed_already(instance: Instance, asked: set[int]) -> list[str]:
    """An asked call for what an entry of another asked call's list already says ("the first
    holiday from August 1, and all of 2025's holidays")."""
    problems = []
    lists = [(s.call, v) for s in instance.trace.steps if s.call in asked for v in s.outputs.values() if isinstance(v, list)]
    for step in instance.trace.steps:
        texts = [v for v in step.outputs.values() if isinstance(v, str) and v]
        other = next((c for c, listed in lists if c != step.call and entry_holds(texts, listed)), None)
        if step.call in asked and texts and other is not None:
            problems.append(f"call {step.call + 1} {step.tool} asks what an entry of call {other + 1}'s list already says")
    return problems


def _known_values(instance: Instance, index: int, free: set[tuple[int, str]]) -> list[tuple[str | None, Any, str]]:
    """(kind, value, where it is known from) of every value available without call `index`:
    the request's literals (not a fix-up's `free` arguments, which it need not state), and the
    outputs of every other call that does not depend on it."""
    known = []
    for call_index, call in enumerate(instance.chain.calls):
        spec = instance.tool(call.tool)
        for name, arg in call.arguments.items():
            param = spec.param(name) if spec else None
            if isinstance(arg, Value) and (call_index, name) not in free:
                known.append((param.kind if param else None, arg.value, f"the request states {arg.value!r}"))
    downstream = nx.descendants(instance.chain.graph(), index) | {index}
    for step in instance.trace.steps:
        if step.call in downstream:
            continue
        spec = instance.tool(step.tool)
        for out, value in zip(spec.returns if spec else [], step.outputs.values(), strict=False):
            known.append((out.kind, value, f"call {step.call + 1} {step.tool} already returned {value!r}"))
    return known


def common_knowledge(ctx: CheckContext) -> set[str]:
    """Kinds of value people know without a tool (policy `common_knowledge`): the country of a city."""
    return set((ctx.policy.checks["plausibility"].model_extra or {}).get("common_knowledge", []))


def _asks_known_problems(instance: Instance, ctx: CheckContext) -> list[str]:
    """A request asks nothing people know: "what country is Berlin in?" is no question a person
    puts to an assistant, though the tool that gives Berlin's UTC offset also gives its country."""
    known = common_knowledge(ctx)
    producers = instance.chain.producers()
    problems = []
    for index, call, spec in _specified(instance):
        if not call.asked or not _of_a_city(instance, index):
            continue
        own = all(isinstance(a, Ref) and _home_city(instance, producers[a.ref], a.ref) for a in call.arguments.values())
        if not own and not all(isinstance(a, Value) for a in call.arguments.values()):
            continue
        asked = sorted({str(o.kind) for o in spec.returns if o.kind in known})
        if asked:
            whose = "the person's own home city" if own else "a city the request names"
            problems.append(f"call {index + 1} {call.tool} is asked for the {', '.join(asked)} of {whose}, "
                            "which people know")
    return problems


def _home_city(instance: Instance, index: int, variable: str) -> bool:
    """Whether an output variable is the person's own home city ("in which country is my home
    city?" is no question anyone asks)."""
    spec = instance.tool(instance.chain.calls[index].tool)
    outputs = instance.chain.calls[index].outputs
    return spec is not None and variable in outputs and outputs.index(variable) < len(spec.returns) and \
        "user's home city" in spec.returns[outputs.index(variable)].description


def _ids_problems(instance: Instance, ctx: CheckContext) -> list[str]:
    """A request never asks for what only an id the service uses would answer ("which parks does
    the map list?" answered [PL-4021, PL-4022]): people want names, and an agent that gives
    them would fail the answer."""
    problems = []
    for index, call in enumerate(instance.chain.calls):
        spec = instance.tool(call.tool)
        seed = ctx.seeds.get(spec.toolbox or "") if spec else None
        internal = seed.toolbox.internal if seed else set()  # (`Toolbox.internal_kinds`, as the composer reads them)
        if call.asked and spec is not None and spec.returns and all(o.kind in internal for o in spec.returns):
            problems.append(f"call {index + 1} {call.tool} is asked for {', '.join(o.name for o in spec.returns)}, "
                            "ids only the service uses")
    return problems


PLAINLY_IN_KM = 25  # a point this close to a city's centre is known to be in it (37.78, -122.41: San Francisco)


def _plainly_in(instance: Instance, index: int) -> str | None:
    """The city a call given a point on the map was given a point in, when the point is that
    close to its centre that people (and models) know where it is; None otherwise."""
    spec = instance.tool(instance.chain.calls[index].tool)
    step = instance.trace.step(index)
    if spec is None or step is None:
        return None
    point = {p.kind: step.arguments.get(p.name) for p in spec.parameters if p.kind in ("latitude", "longitude")}
    if not all(isinstance(point.get(k), (int, float)) for k in ("latitude", "longitude")):
        return None
    city, km = nearest_city(point["latitude"], point["longitude"])
    return city.name if km <= PLAINLY_IN_KM else None


def _guessed_in_place(instance: Instance, ctx: CheckContext, index: int, specs: dict[str, Any]) -> list[str]:
    """A withheld id of letters for the very city the request names (the warehouse nearest Cape
    Town is WH-CPT, the one nearest New York WH-NYC, in a scheme the tools' examples "WH-BER"
    and "WH-SIN" show: reading 79 #18) is a guess an offered tool taking such ids confirms; an
    opaque id with digits (D-2309) is not."""
    step = instance.trace.step(index)
    call = instance.chain.calls[index]
    if step is None or instance.world is None or call.tool not in specs:
        return []
    accepted = {p.kind for t in instance.tools for p in t.parameters if p.kind}
    query = instance.query.casefold()
    problems = []
    for var, out in zip(call.outputs, specs[call.tool].returns, strict=False):
        value = step.outputs.get(var)
        if out.kind not in accepted or not isinstance(value, str) or any(c.isdigit() for c in value):
            continue
        city = ctx.facts_of(out.kind, value, instance.world.seed, out.role).get("city")
        if isinstance(city, str) and re.search(rf"\b{re.escape(city.casefold())}\b", query):
            problems.append(f"{call.tool} gives {value!r}, the one in {city}, which the request names: "
                            "a guess an offered tool confirms")
    return problems


def _country_of_a_place_named(instance: Instance, ctx: CheckContext, index: int) -> list[str]:
    """A withheld country that is the country of a place the request names (the best seller in
    Tuscany is made in Italy): a guess people make, which offered tools then confirm (reading
    39 #17)."""
    step = instance.trace.step(index)
    if step is None or instance.world is None:
        return []
    countries = {v for v in step.outputs.values() if isinstance(v, str) and v in COUNTRY_BY_NAME}
    for _, _, kind, value, role in _literals(instance):
        country = ctx.facts_of(kind, value, instance.world.seed, role).get("country")
        if country in countries:
            return [f"{instance.chain.calls[index].tool} gives {country!r}, the country of {value!r}, which the request names"]
    return []


FEW_VALUES = 30  # a kind of at most this many values (grape varieties) is one a person can guess through


def _few_values(ctx: CheckContext, kind: str | None, world_seed: int) -> list[Any]:
    """The values a seed's world offers of a kind, when they are few enough to guess through."""
    for seed in ctx.seeds.values():
        if kind and kind in seed.toolbox.values:
            values = list(seed.toolbox.values[kind](base_world(seed, world_seed)))
            return values if len(values) <= FEW_VALUES else []
    return []


def _spelled_by_id(instance: Instance, index: int) -> list[str]:
    """A withheld value the id the withheld call is given spells (listing MIL-101 is in Milan,
    SKU EL-1004 is in Electronics): a guess any offered tool taking it confirms (reading 38
    #18, #23)."""
    step = instance.trace.step(index)
    if step is None:
        return []
    prefixes = [m.group(1) for v in step.arguments.values() if isinstance(v, str)
                and (m := re.fullmatch(r"([A-Za-z]{2,})-?\d+", v))]
    return [f"{instance.chain.calls[index].tool} gives {value!r}, which id prefix {prefix!r} spells: a guess"
            for value in step.outputs.values() if isinstance(value, str) and len(value) > 3
            for prefix in prefixes if _spells(prefix, value)][:1]


def _confirmed_by_search(instance: Instance, ctx: CheckContext, index: int, specs: dict[str, Any]) -> list[str]:
    """A search that finds what the withheld call was given only with the right place among its
    words ("maria schmidt madrid" finds Maria Schmidt, "maria schmidt lisbon" no one) confirms a
    guess of the place the withheld call would give; so with any value of a kind of few values
    ("tempranillo serena" finds Finca Serena, "merlot serena" nothing: reading 42 #1)."""
    step = instance.trace.step(index)
    call = instance.chain.calls[index]
    if step is None or instance.world is None or call.tool not in specs:
        return []
    guesses = []  # (the value, another of its kind)
    for var, out in zip(call.outputs, specs[call.tool].returns, strict=False):
        value = step.outputs.get(var)
        if not isinstance(value, str):
            continue
        if out.kind in ("city", "country"):
            guesses.append((value, next(c.name for c in CITIES if c.name != value and c.country != value)))
        elif len(few := _few_values(ctx, out.kind, instance.world.seed)) > 1 and value in few:
            guesses.append((value, next(v for v in few if v != value)))

    def finds(tool: Any, query: dict[str, str], guess: str) -> bool:
        result = world_before(step, instance.trace, specs, lambda: Simulator(ctx.seeds, instance.world)).call(
            tool, {k: f"{v} {guess}" for k, v in query.items()})
        return result.error is None and bool(result.values) and bool(result.values[0])

    for tool in instance.tools:
        for query, (guess, other) in itertools.product(search_queries(tool, step.arguments), guesses):
            if finds(tool, query, guess) and not finds(tool, query, other):
                return [f"{tool.name} confirms a guess of {guess!r}, which only {call.tool} was to give"]
    return []


def _probed(instance: Instance, index: int, specs: dict[str, Any]) -> list[str]:
    """A withheld day or time an offered tool checks moment by moment (is the calendar free at
    09:00? at 09:30?), counts over a span it is given both ends of (business days from August
    14 to October 19, then to October 20), or steps through (47 business days on is August 22,
    48 is August 26: the 25th is a holiday): probing finds what the withheld call would give."""
    call = instance.chain.calls[index]
    if call.tool not in specs:
        return []
    kinds = {out.kind for out in specs[call.tool].returns if out.kind in ("date", "datetime")}
    given = {(_plain(p.kind), p.role) for p in specs[call.tool].parameters if p.name in call.arguments and p.kind}
    for tool in instance.tools:  # the same question of one moment: the country's holiday, my calendar for 30 minutes
        for kind in sorted(kinds):
            rest = [p for p in tool.parameters if p.required and p.kind != kind]
            ends = sum(p.kind == kind for p in tool.parameters)
            steps = ends and any(p.type == "int" for p in tool.parameters) and any(
                o.kind == kind or kind == "date" and is_day(o) for o in tool.returns)
            rest = [p for p in rest if not (steps and p.type == "int")]  # (the count it steps by is the prober's)
            if (ends and any(o.type == "bool" for o in tool.returns) or ends >= 2 and any(o.type == "int" for o in tool.returns)
                    or steps) and rest and all((_plain(p.kind), p.role) in given for p in rest):
                return [f"offered {tool.name} checks a {kind} at a time: probing it finds what {call.tool} was to give"]
    return []


def _plain(kind: str | None) -> str | None:
    """A kind of place by what it is ("holiday_country" is a country): the value fits either."""
    return next((k for k in ("country", "city") if kind and kind.endswith(k)), kind)


def _probed_by_errors(instance: Instance, ctx: CheckContext, index: int, specs: dict[str, Any]) -> list[str]:
    """A withheld moment an offered call taking it accepts only when it is right: a reading room
    booked from 09:00 fails ("not open for the whole booking") and from 10:00 succeeds, so trying
    hour by hour finds the opening time the withheld call was to give (reading 38 #36)."""
    withheld = instance.chain.calls[index]
    if instance.world is None or withheld.tool not in specs:
        return []
    moments = {var for var, out in zip(withheld.outputs, specs[withheld.tool].returns, strict=False)
               if out.kind in ("date", "datetime")}
    offered = {t.name for t in instance.tools}
    for step in instance.trace.steps:
        call = instance.chain.calls[step.call]
        taken = [n for n, a in call.arguments.items() if isinstance(a, Ref) and a.ref in moments
                 and isinstance(step.arguments.get(n), str) and day_of(step.arguments[n]) is not None]
        if step.error or call.tool not in offered or not taken:
            continue
        for name in taken:
            value = step.arguments[name]
            shifted = (datetime.fromisoformat(value) - timedelta(hours=1)).isoformat(timespec="minutes") \
                if len(value) > 10 else (date.fromisoformat(value) - timedelta(days=1)).isoformat()
            try:
                result = world_before(step, instance.trace, specs, lambda: Simulator(ctx.seeds, instance.world)).call(
                    specs[call.tool], {**step.arguments, name: shifted})
            except ToolCrash:
                continue
            if result.error is not None:
                return [f"offered {call.tool} refuses {shifted} and takes {value}: trying moment by moment finds what "
                        f"{withheld.tool} was to give"]
    return []


def _nearest_by_hand(instance: Instance, index: int) -> list[str]:
    """A withheld search for the thing nearest a point that offered tools let an agent do by
    hand: one lists such things (a place search), another gives each one's coordinates, and the
    distances are arithmetic (the museum nearest my position, reading 59 #32)."""
    withheld = instance.tool(instance.chain.calls[index].tool)
    if withheld is None or not {"latitude", "longitude"} <= {p.kind for p in withheld.parameters} \
            or not any("distance" in o.name for o in withheld.returns):
        return []
    found = {o.kind for o in withheld.returns if o.kind and o.kind not in ("latitude", "longitude")}
    for kind in sorted(found):
        lists = [t.name for t in instance.tools
                 if any(o.kind in (kind, kind + "s") and o.type.startswith("list") for o in t.returns)]
        places = [t.name for t in instance.tools if any(p.kind == kind for p in t.parameters)
                  and {"latitude", "longitude"} <= {o.kind for o in t.returns}]
        if lists and places:
            return [f"offered {lists[0]} lists the {kind.replace('_', ' ')}s and {places[0]} places them: the nearest "
                    f"is arithmetic, without {withheld.name}"]
    return []


def _per_item(instance: Instance, index: int, specs: dict[str, Any]) -> list[str]:
    """A withheld call that compares a list of things (the cheapest of five hotels for 7 nights
    from June 25), or the cities of a country (the hottest in Australia on June 20), and an
    offered tool that answers the same question of one of them: asked of each in turn, it finds
    what the withheld call was to give (reading 32 #11, reading 35 #17)."""
    call = instance.chain.calls[index]
    spec = specs.get(call.tool)
    if spec is None:
        return []
    taken = [p for p in spec.parameters if p.name in call.arguments and p.kind]
    items = {p.kind.removesuffix("s") for p in taken if p.type.startswith("list")}
    if any(p.kind == "country" for p in taken) and any(o.kind == "city" for o in spec.returns):
        items.add("city")  # the cities of a country are known: each one's forecast finds the hottest
    given = {(p.kind, p.role) for p in taken}
    given |= {("datetime", role) for kind, role in given if kind == "date"}  # an hour's forecast of that day (reading 53 #39)
    def measures(outputs: list[Any]) -> set[str]:  # what numbers say: a temperature; a kindless price by its type
        return {o.kind or o.type for o in outputs if o.type in ("int", "float") and o.kind not in items}

    for tool in instance.tools:
        one = [p for p in tool.parameters if p.required and p.kind in items and not p.type.startswith("list")]
        rest = [p for p in tool.parameters if p.required and p not in one]
        if one and rest and all((p.kind, p.role) in given for p in rest) and measures(spec.returns) & measures(tool.returns):
            return [f"offered {tool.name} answers item by item what {call.tool} compares"]
    return []


def _spells(code: str, name: str) -> bool:
    """Whether a code's letters appear in order in a name, from its first letter ("CPT": Cape Town)."""
    letters = iter(name.casefold())
    return code[0].casefold() == name[0].casefold() and all(c in letters for c in code.casefold())


def _of_a_city(instance: Instance, index: int) -> bool:
    """Whether a call is given only a city: what it finds of a city by name (its country) people
    know, unlike what it finds of a point on the map."""
    spec = instance.tool(instance.chain.calls[index].tool)
    params = [spec.param(name) for name in instance.chain.calls[index].arguments] if spec else []
    return bool(params) and all(p is not None and p.kind == "city" for p in params)


def detours(instance: Instance, ctx: CheckContext) -> list[str]:
    """A call whose consumed outputs are all values available without it (the city of airport
    code AUS when the request spells out Austin; a city's coordinates that an earlier call
    already returned; the country Berlin is in, which people know): a shorter correct path
    skips it and loses its milestone."""
    consumed = {a.ref for call in instance.chain.calls for a in call.arguments.values() if isinstance(a, Ref)}
    free = free_arguments(instance, ctx)
    common = common_knowledge(ctx)
    problems = []
    for step in instance.trace.steps:
        call, spec = instance.chain.calls[step.call], instance.tool(step.tool)
        entry = ctx.entry(spec)
        if spec is None or call.fixes is not None or (entry is not None and "state_change" in entry.tags):
            continue
        used = [(out, step.outputs[var]) for var, out in zip(call.outputs, spec.returns, strict=False)
                if var in consumed and var in step.outputs]
        if not used:
            continue
        known = _known_values(instance, step.call, free)
        own = [a.value for a in call.arguments.values() if isinstance(a, Value)]
        sources = []
        for out, value in used:
            source = next((where for kind, v, where in known if _same_value(out.kind, value, kind, v)), None)
            if source is None and (said := _spelled_within(out.kind, value, [v for _, v, _ in known], own)):
                source = f"the request spells out {said!r}"
            if source is None:
                break
            sources.append(source)
        else:
            problems.append(f"call {step.call + 1} {step.tool} finds only what is known without it "
                            f"({', '.join(dict.fromkeys(sources))})")
            continue
        if all(out.kind in common for out, _ in used) and _of_a_city(instance, step.call):  # Berlin's country
            problems.append(f"call {step.call + 1} {step.tool} finds only what people know "
                            f"({', '.join(sorted({str(out.kind) for out, _ in used}))})")
    return problems + _idle_inputs(instance, ctx) + _hour_for_nothing(instance)


_HOUR_SAID = re.compile(r"\b(?:\d{1,2}(?::\d{2})?\s*(?:am|pm)|noon|midnight|morning|afternoon|evening|night|tonight"
                        r"|\d{1,2}:\d{2}|hours?)\b", re.IGNORECASE)


def _hour_for_nothing(instance: Instance) -> list[str]:
    """A time of day the person says that no answer needs: "the earliest Wednesday later than
    tomorrow afternoon" resolves an hour only for its day (reading 49 #40); a person would
    say the day."""
    consumed: dict[str, list[Param]] = {}
    for _, call, spec in _specified(instance):
        for name, arg in call.arguments.items():
            if isinstance(arg, Ref) and spec.param(name) is not None:
                consumed.setdefault(arg.ref, []).append(spec.param(name))
    problems = []
    for k, call, spec in _specified(instance):
        if call.asked:
            continue
        said = [arg.value for name, arg in call.arguments.items() if isinstance(arg, Value) and isinstance(arg.value, str)
                and _HOUR_SAID.search(arg.value) and (param := spec.param(name)) is not None and "relative" in (param.kind or "")]
        if not said or not any(v in consumed for v in call.outputs):
            continue
        if all(p.kind == "date" for v in call.outputs for p in consumed.get(v, [])):
            problems.append(f"call {k + 1} {call.tool} resolves {said[0]!r}, yet only its day is used")
    return problems


def _idle_inputs(instance: Instance, ctx: CheckContext) -> list[str]:
    """A number fed to a call that answers the same whatever it is (the wind of a feels-like
    temperature at 30 °C, where wind chill does not apply): the call that found it is for nothing;
    and a 0 fed onward (a dividend of 0.0 to convert), which makes the next answer trivial."""
    if instance.world is None or not all(t in ctx.seeds for t in instance.world.toolboxes):
        return []
    specs = {t.name: t for t in (*instance.tools, *instance.withheld_tools)}
    producers = instance.chain.producers()
    problems = []
    for step in instance.trace.steps:
        call = instance.chain.calls[step.call]
        if call.fixes is not None or call.tool not in specs:
            continue
        for name in _numbers_taken(step, call, set(producers)):
            if step.arguments[name] == 0:  # a dividend of 0.0 converted into HKD is 0 at any rate
                problems.append(f"call {step.call + 1} {call.tool} is given {name}=0 by call "
                                f"{producers[call.arguments[name].ref] + 1}: its answer needs no call")
        for source in sorted({producers[a.ref] for a in call.arguments.values() if isinstance(a, Ref)}):
            taken = _numbers_taken(step, call, set(instance.chain.calls[source].outputs))
            if taken and len(taken) == sum(isinstance(a, Ref) and producers[a.ref] == source
                                           for a in call.arguments.values()) \
                    and _answers_alike(instance, ctx, step, taken, specs):  # (a point's longitude alone may not matter)
                problems.append(f"call {source + 1} {instance.chain.calls[source].tool} feeds call {step.call + 1} "
                                f"{call.tool} only {', '.join(taken)}, which does not change its answer")
    return problems


def _same_value(kind: str | None, value: Any, other_kind: str | None, other: Any) -> bool:
    """The same value of the same kind. Without a kind on either side only text is compared:
    numbers of different meaning coincide too easily."""
    if kind and other_kind:
        if kind != other_kind:
            return False
    elif not (isinstance(value, str) and isinstance(other, str)):
        return False
    if isinstance(value, bool) or isinstance(other, bool) or value is None:
        return False
    return values_equal(value, other, loose_strings=True)


def _unrelated_problems(instance: Instance, ctx: CheckContext) -> list[str]:
    """Parts of the request with no data flow between them must name a common thing. A day the
    person names in their own words ("in 5 days", resolved by a call) ties nothing together: the
    hottest city in Australia and the wind in Madrid that day are two errands (reading 39 #29)."""
    chain = instance.chain
    tasks = [i for i, c in enumerate(chain.calls) if c.fixes is None and not _names_a_day(instance, ctx, i)]
    graph = nx.Graph()
    graph.add_nodes_from(tasks)
    graph.add_edges_from((i, j) for i, j in chain.graph().edges if i in tasks and j in tasks)
    parts = [sorted(c) for c in nx.connected_components(graph)]
    if len(parts) < 2:
        return []
    things = []
    for part in parts:
        named = set()
        for i in part:
            spec = instance.tool(chain.calls[i].tool)
            for name, arg in chain.calls[i].arguments.items():
                param = spec.param(name) if spec else None
                # A kind-less parameter (a model-written tool) ties parts by its value alone.
                if (isinstance(arg, Value) and param is not None and param.kind not in SCENE_KINDS
                        and isinstance(arg.value, str)):
                    named.add((param.kind or "", param.role, arg.value.casefold()))
        things.append(named)
    days = [_days_of_part(instance, part) for part in parts]

    def shared(a: int, b: int) -> bool:
        common = things[a] & things[b]
        if days[a] and days[b] and not days[a] & days[b]:
            # two days, tied only by a place: the sunrise in Sao Paulo on August 6 and its forecast
            # for tomorrow evening are two errands (reading 57 #35, #27)
            common = {t for t in common if t[0] not in ("city", "country")}
        return bool(common)

    tied = nx.Graph()
    tied.add_nodes_from(range(len(parts)))
    tied.add_edges_from((a, b) for a in range(len(parts)) for b in range(a + 1, len(parts)) if shared(a, b))
    if nx.is_connected(tied):
        return []
    return [f"calls {' / '.join('+'.join(str(i + 1) for i in p) for p in parts)} are separate requests about nothing in common"]


def _days_of_part(instance: Instance, part: list[int]) -> set:
    """The days the calls of a part of the request were made for (their executed date and
    date-time arguments)."""
    found = set()
    for index in part:
        spec, step = instance.tool(instance.chain.calls[index].tool), instance.trace.step(index)
        for param in spec.parameters if spec is not None and step is not None else ():
            if param.kind in ("date", "datetime") and (day := day_of(step.arguments.get(param.name))) is not None:
                found.add(day)
    return found


def _names_a_day(instance: Instance, ctx: CheckContext, index: int) -> bool:
    """Whether a call only turns the person's words into a day or a time ("in 5 days"), or,
    given nothing, gives later calls only a day the request does not ask for ("today's date":
    the hottest city in India today and whether today is a holiday in Kenya are two errands,
    reading 86 #17; a contact's birthday is about the contact)."""
    chain = instance.chain
    spec = instance.tool(chain.calls[index].tool)
    entry = ctx.entry(spec) if spec else None
    if entry is not None and "canonicalise" in entry.tags and bool(spec.returns) and \
            all(o.kind in ("date", "datetime") for o in spec.returns):
        return True
    call = chain.calls[index]
    if spec is None or call.asked or call.arguments or len(call.outputs) != len(spec.returns):
        return False
    taken = {a.ref for c in chain.calls for a in c.arguments.values() if isinstance(a, Ref)}
    kinds = [o.kind for v, o in zip(call.outputs, spec.returns, strict=True) if v in taken]
    return bool(kinds) and all(k in ("date", "datetime") for k in kinds)


def _occasion_problems(instance: Instance) -> list[str]:
    """One occasion: a part of the request that the goal takes from another seed, with no data
    flow to the goal's own calls, is about a day the rest of the request is about (the hottest
    city in China on June 14 beside China's holidays in 2025 is not, reading 60 #17). The
    forecast for Osaka on the day a stay there starts belongs; the hottest city in Italy on
    June 17 beside the next holiday after June 17 (a search is about the day it finds,
    `_days_about`), or the weather in Seoul on June 23 beside its sunrise on May 25, is a second
    errand; so is a part about another year than the days of a request across seeds."""
    home = instance.goal.split(":")[0]
    chain = instance.chain
    tasks = [i for i, c in enumerate(chain.calls) if c.fixes is None]
    graph = nx.Graph()
    graph.add_nodes_from(tasks)
    graph.add_edges_from((i, j) for i, j in chain.graph().edges if i in tasks and j in tasks)
    seed_of = {i: getattr(instance.tool(chain.calls[i].tool), "toolbox", None) for i in tasks}
    memo: dict[int, set] = {}
    problems = []
    cross = len({seed_of[i] for i in tasks} - {None}) > 1
    for part in map(sorted, nx.connected_components(graph)):
        foreign = bool(home) and not any(seed_of[i] in (home, None) for i in part)
        if not foreign and not cross:
            continue
        days = set().union(*(_days_about(instance, i, memo) for i in part))
        others = set().union(*(_days_about(instance, i, memo) for i in tasks if i not in part))
        years = {a.value for i in part for n, a in chain.calls[i].arguments.items() if isinstance(a, Value)
                 and (p := getattr(instance.tool(chain.calls[i].tool), "param", lambda _: None)(n)) is not None
                 and p.kind == "year"}
        if foreign and not days & others:
            about = (f"about {', '.join(sorted(map(str, days)))}, a day the rest of the request is not" if days and others
                     else "not about a day the rest of the request is about")
            problems.append(f"calls {'+'.join(str(i + 1) for i in part)} ({', '.join(sorted({seed_of[i] or '' for i in part}))}) "
                            f"are {about}")
        elif not days and years and others and not years & {d.year for d in others}:
            # in a request across seeds, a year apart from its days: the warmest spot in Canada
            # today, and Canada's holidays in 2026 (reading 42 #19)
            problems.append(f"calls {'+'.join(str(i + 1) for i in part)} are about {', '.join(map(str, sorted(years)))}, "
                            "a year the rest of the request is not")
    return problems


def _withheld_problems(instance: Instance, ctx: CheckContext) -> list[str]:
    """An insufficient-information item is honest: nothing offered yields the withheld value
    (no tool produces its kind, none run on the same arguments gives it) and the query does
    not state it."""
    problems = []
    specs = {t.name: t for t in (*instance.tools, *instance.withheld_tools)}
    known = common_knowledge(ctx)
    for withheld in instance.withheld_tools:
        for index, call in enumerate(instance.chain.calls):
            if call.tool != withheld.name:
                continue
            kinds = needed_kinds(instance.chain, specs, index)
            problems += [f"offered {t} produces what {withheld.name} would give" for t in producers_of(kinds, instance.tools)]
            if kinds and {kind for kind, _ in kinds} <= known and _of_a_city(instance, index):  # San Francisco's country
                problems.append(f"{withheld.name} is needed only for {', '.join(sorted(k for k, _ in kinds))}, "
                                "which people know")
            if kinds and {kind for kind, _ in kinds} <= {"city", "country"} and (city := _plainly_in(instance, index)):
                problems.append(f"{withheld.name} is needed only for the place of a point in {city}, which people know")
            problems += _guessed_in_place(instance, ctx, index, specs) + _confirmed_by_search(instance, ctx, index, specs)
            problems += _spelled_by_id(instance, index) + _country_of_a_place_named(instance, ctx, index)
            problems += _probed(instance, index, specs) + _per_item(instance, index, specs) + _nearest_by_hand(instance, index)
            problems += _probed_by_errors(instance, ctx, index, specs)
            if instance.world is not None:
                # what the chain needs of the call, then what later calls take of it alone: with
                # today's date from any city's clock, the days counted from it can be done (reading 40 #16)
                partly = taken_values(instance.chain, instance.trace, index) != needed_values(instance.chain, instance.trace, index)
                world = instance.world

                def implied(out: Any, value: Any) -> dict[str, Any]:
                    return ctx.facts_of(out.kind, value, world.seed, out.role)

                for tool, taken_only in itertools.product(instance.tools, (False, True) if partly else (False,)):
                    why = alternative_to_gold(
                        tool, instance.chain, instance.trace, specs, lambda: Simulator(ctx.seeds, world),
                        calls={index}, examples=True, arithmetic=True, taken_only=taken_only, errors=True, implied=implied)
                    if why:
                        problems.append(why + (", what later calls take of it" if taken_only else ""))
                        break
                else:  # or two offered calls, one after the other
                    why = alternative_in_two(instance.tools, instance.chain, instance.trace, specs,
                                             lambda: Simulator(ctx.seeds, world), index, implied)
                    problems += [why] if why else []
            query = instance.query.casefold()
            for value in needed_values(instance.chain, instance.trace, index):
                if isinstance(value, str) and len(value) > 2 and value.casefold() in query:
                    problems.append(f"the query states {value!r}, which only {withheld.name} was to give")
        if instance.world is not None and all(t in ctx.seeds for t in instance.world.toolboxes):
            problems += _completable_drift(instance, ctx, withheld.name, specs)
            problems += _missing_value_matters(instance, ctx, withheld.name, specs)
    return problems


def _missing_value_matters(instance: Instance, ctx: CheckContext, withheld: str, specs: dict[str, Any]) -> list[str]:
    """The withheld value decides the answer: a call that takes a number only the withheld tool
    gives answers differently for other numbers (a feels-like temperature at 19 °C is the same
    whatever the wind, so withholding the wind forecast leaves nothing missing), in every value
    the request asks of it (the rate of a conversion is the same whatever the amount: reading
    40 #15)."""
    withheld_vars = {v for c in instance.chain.calls if c.tool == withheld for v in c.outputs}
    problems = []
    for step in instance.trace.steps:
        call = instance.chain.calls[step.call]
        taken = _numbers_taken(step, call, withheld_vars)
        alike = _outputs_alike(instance, ctx, step, taken, specs) if taken else set()
        if alike == set(step.outputs):
            problems.append(f"call {step.call + 1} {call.tool} answers the same whatever {', '.join(taken)} "
                            f"{withheld} would give: nothing is missing")
        elif alike & set(instance.trace.answer):
            problems.append(f"call {step.call + 1} {call.tool} gives {', '.join(sorted(alike & set(instance.trace.answer)))} "
                            f"whatever {', '.join(taken)} {withheld} would give: that part is not missing")
    return problems


def _numbers_taken(step: Any, call: Any, variables: set[str]) -> list[str]:
    """The arguments of a call that take a number from one of these output variables."""
    return [n for n, a in call.arguments.items() if isinstance(a, Ref) and a.ref in variables
            and isinstance(step.arguments.get(n), (int, float)) and not isinstance(step.arguments.get(n), bool)]


def _answers_alike(instance: Instance, ctx: CheckContext, step: Any, taken: list[str], specs: dict[str, Any]) -> bool:
    """Whether a call gives the same answer when the numbers it took are zero, halved or doubled."""
    return _outputs_alike(instance, ctx, step, taken, specs) == set(step.outputs)


def _outputs_alike(instance: Instance, ctx: CheckContext, step: Any, taken: list[str], specs: dict[str, Any]) -> set[str]:
    """The output variables of a call that stay the same when the numbers it took are zero,
    halved or doubled (none when it cannot take the other numbers)."""
    call = instance.chain.calls[step.call]
    alike = set(step.outputs)
    for factor in (0.0, 0.5, 2.0):
        changed = {**step.arguments, **{n: type(step.arguments[n])(step.arguments[n] * factor + (1 if factor == 0 else 0))
                                        for n in taken}}
        try:
            result = world_before(step, instance.trace, specs, lambda: Simulator(ctx.seeds, instance.world)).call(
                specs[call.tool], changed)
        except ToolCrash:  # a tool that cannot take the other numbers says nothing of them
            return set()
        if result.error:
            return set()
        alike &= {var for var, value, other in zip(step.outputs, step.outputs.values(), result.values, strict=False)
                  if values_equal(value, other, loose_strings=False)}
        if not alike:
            break
    return alike


def _completable_drift(instance: Instance, ctx: CheckContext, withheld: str, specs: dict[str, Any]) -> list[str]:
    """The parts that can still be done give what their milestones expect when the withheld
    calls are not made (a checkout that never happens leaves the book on the shelf)."""
    blocked = blocked_calls(instance.chain, withheld)
    simulator = Simulator(ctx.seeds, instance.world)
    steps = {s.call: s for s in instance.trace.steps}
    problems = []
    for index, call in enumerate(instance.chain.calls):
        if index in blocked or index not in steps:
            continue
        step = steps[index]
        result = simulator.call(specs[call.tool], step.arguments)
        if result.error is not None or not values_equal(result.values, list(step.outputs.values()), loose_strings=False):
            problems.append(f"call {index + 1} {call.tool} gives another result when {withheld} is not called")
    return problems


def _authorised(query: str, wording: str) -> bool:
    """Whether the query carries a wording of a context sentence, whatever values fill it (or
    its consequent alone, after the person has said the condition holds, its pronoun maybe
    naming the thing: "Create a buyer profile for ...", or "it" naming a thing of theirs the
    person has just named: "My library card stopped working. Reactivate it.")."""
    for form in {wording, unconditional(wording), unconditional(wording, said=""), unconditional(wording, said=wording)}:
        fragments = [re.escape(part.strip()) for part in re.split(r"\{[^{}]*\}", form) if part.strip()]
        if not fragments or re.search(r".+?".join(fragments), query, flags=re.IGNORECASE | re.DOTALL):
            return True
    return False


def _consent_problems(instance: Instance, ctx: CheckContext) -> list[str]:
    """A fix-up the person must authorise (`consent=` on its condition) comes with one of the
    condition's authorising sentences in the request; otherwise paying, signing, sharing or
    using an identity document is the agent's own decision."""
    problems = []
    for index, call in enumerate(instance.chain.calls):
        spec = instance.tool(call.tool)
        seed = ctx.seeds.get(spec.toolbox or "") if spec and call.fixes else None
        condition = seed.toolbox.conditions.get(call.fixes) if seed else None
        if condition is None or condition.consent is None:
            continue
        if not any(_authorised(instance.query, wording) for wording in condition.context):
            problems.append(f"call {index + 1} {call.tool} restores {call.fixes} ({condition.consent}) "
                            "but the request never authorises it")
    return problems


def plausibility_problems(instance: Instance, ctx: CheckContext) -> list[str]:
    """'rule: detail' for every rule the instance breaks."""
    policy = ctx.policy.checks["plausibility"]
    limits = dict(policy.model_extra or {})
    skip = set(limits.get("skip", []))
    found = {
        "link": lambda: _link_problems(instance, ctx),
        "group": lambda: _group_problems(instance, ctx),
        "sense": lambda: _sense_problems(instance, ctx, limits),
        "hour": lambda: _hour_problems(instance, ctx),
        "timeline": lambda: _timeline_problems(instance, ctx) + _moved_place_problems(instance)
        + _before_arrival(instance, ctx) + _today_elsewhere(instance),
        "coherent": lambda: _coherent_problems(instance, ctx) + _points_problems(instance) + _delivered_elsewhere(instance, ctx),
        "no_op": lambda: _no_op_problems(instance, ctx),
        "undone": lambda: _undone_problems(instance, ctx),
        "ends": lambda: _ends_problems(instance, ctx),
        "informs": lambda: _informs_problems(instance, ctx),
        "order": lambda: _order_problems(instance, ctx),
        "round_trip": lambda: _round_trip_problems(instance) + _asks_known_problems(instance, ctx)
        + _found_again_problems(instance) + _own_clock_problems(instance),
        "detour": lambda: detours(instance, ctx) + _spot_for_area(instance, ctx),
        "ids": lambda: _ids_problems(instance, ctx),
        "unrelated": lambda: _unrelated_problems(instance, ctx),
        "occasion": lambda: _occasion_problems(instance),
        "withheld": lambda: _withheld_problems(instance, ctx),
        "consent": lambda: _consent_problems(instance, ctx),
    }
    return [f"{rule}: {problem}" for rule in RULES if rule not in skip for problem in found[rule]()]


def check_plausibility(instance: Instance, ctx: CheckContext) -> CheckResult:
    problems = plausibility_problems(instance, ctx)
    return CheckResult(name="plausibility", passed=not problems, blocking=ctx.policy.checks["plausibility"].blocking,
                       reason="; ".join(problems[:5]))
