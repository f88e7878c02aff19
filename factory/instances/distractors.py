"""Distractor tools: retrieved by embedding similarity to the gold tools, so they are
plausible; kept only when their names are far enough (Levenshtein) from every gold name,
their descriptions are not near-copies of a gold tool's, running them on the gold
arguments does not yield what the chain needs (then they are alternatives, not distractors),
and they are no twin of a gold tool (factory.seeds.twins: a tool that answers the same question,
which must agree with it and then is an alternative), so the query stays unambiguous and the
right answer is the gold one."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

import Levenshtein
import numpy as np

from factory.instances.milestones import needed_values, taken_values
from factory.lm.embeddings import EmbeddingCache
from factory.records import Chain, ToolSpec, Trace, TraceStep, entry_holds, gives, value_matches_type, values_equal
from factory.seeds.twins import TwinRule, disagreement, twin
from factory.toolbox.gazetteer import CURRENCY_BY_CODE, NOW, exchange_rate
from factory.toolbox.sense import day_of
from factory.toolbox.user import USER
from factory.world.simulator import Simulator, ToolCrash


def description_similarity(gold: list[ToolSpec], others: list[ToolSpec], embeddings: EmbeddingCache) -> np.ndarray:
    """Cosine similarity of what the tools say they do (gold x others), names left out."""
    return embeddings.vectors([g.description for g in gold]) @ embeddings.vectors([o.description for o in others]).T


def too_close(candidate: ToolSpec, gold: list[ToolSpec], similarity: np.ndarray, min_name_distance: int,
              max_similarity: float) -> str | None:
    """Why a candidate may not be a distractor for these gold tools (`similarity`: description
    similarity to each gold tool)."""
    for g, sim in zip(gold, similarity, strict=True):
        if Levenshtein.distance(candidate.name, g.name) < min_name_distance:
            return f"name {candidate.name!r} is within {min_name_distance - 1} edits of gold tool {g.name!r}"
        if sim >= max_similarity:
            return f"{candidate.name!r} describes nearly the same thing as gold tool {g.name!r} (cosine {sim:.2f})"
    return None


def pick_distractors(
    gold: list[ToolSpec],
    pool: list[ToolSpec],
    k: int,
    rng: random.Random,
    embeddings: EmbeddingCache,
    *,
    min_name_distance: int,
    max_similarity: float,
    admissible: Callable[[ToolSpec], bool] | None = None,
) -> list[ToolSpec]:
    """Up to k distractors, drawn from the 2k most similar admissible tools of the pool
    (`admissible` can rule out more, e.g. execution-equivalent alternatives)."""
    gold_names = {g.name for g in gold}
    candidates = [t for t in pool if t.name not in gold_names]
    if k <= 0 or not candidates:
        return []
    closest = (embeddings.tools(gold) @ embeddings.tools(candidates).T).max(axis=0)  # per candidate, over gold
    same = description_similarity(gold, candidates, embeddings)
    ranked = sorted(range(len(candidates)), key=lambda c: (-float(closest[c]), candidates[c].name))
    shortlist: list[ToolSpec] = []
    for c in ranked:
        if len(shortlist) == 2 * k:
            break
        if too_close(candidates[c], gold, same[:, c], min_name_distance, max_similarity) is None and (
                admissible is None or admissible(candidates[c])):
            shortlist.append(candidates[c])
    return rng.sample(shortlist, min(k, len(shortlist)))


def mapped_arguments(candidate: ToolSpec, gold: ToolSpec, arguments: dict[str, Any],
                     partial: bool = False) -> dict[str, Any] | None:
    """A gold call's concrete arguments as the candidate would take them: by parameter name,
    else by kind and role, a year as that of a day it was given; None when a required parameter
    finds nothing of its type (with `partial`, those that do)."""
    by_kind = {(p.kind, p.role): arguments[p.name] for p in gold.parameters if p.kind and p.name in arguments}
    mapped = {}
    for param in candidate.parameters:
        if param.name in arguments and value_matches_type(arguments[param.name], param.type):
            mapped[param.name] = arguments[param.name]
        elif param.kind and (param.kind, param.role) in by_kind and value_matches_type(by_kind[(param.kind, param.role)], param.type):
            mapped[param.name] = by_kind[(param.kind, param.role)]
        elif param.kind == "year" and (day := _first_day(arguments.values())) is not None:
            mapped[param.name] = day.year  # a year's list, asked of the year of the day the gold call was given
        elif param.kind == "date" and (day := _first_day(arguments.values())) is not None:
            mapped[param.name] = day.isoformat()  # a day's hours, asked of the day of the moment it was given
        elif param.required and not partial:
            return None
    return mapped


def _first_day(values: Any) -> date | None:
    """The day of the first date or date-time among values."""
    return next((d for v in values if (d := day_of(v)) is not None), None)


def alternative_to_gold(candidate: ToolSpec, chain: Chain, trace: Trace, specs: dict[str, ToolSpec],
                        simulator: Callable[[], Simulator], calls: set[int] | None = None,
                        examples: bool = False, implied: Callable[[Any, Any], dict[str, Any]] | None = None,
                        arithmetic: bool = False, taken_only: bool = False, errors: bool = False) -> str | None:
    """Why an offered non-gold tool is an alternative rather than a distractor: run on a gold
    call's arguments (mapped by name and kind) in the world as it was before that call, it
    yields every value the chain needs from that call (`calls`: only those gold calls). With
    `examples`, also run on the examples its own description gives for what is not mapped (any
    city tells today's date); with `implied` (output, value → facts), what its values imply
    counts too (a phone number's country); with `arithmetic`, a number one division or
    multiplication of two of its numbers gives counts too (a position's value over its shares is
    the share price); with `taken_only`, only what later calls take from the gold call counts
    (today's date, not the home city the request also asks for); with `errors`, a refusal whose
    message names every value needed counts too ("patient P-10456 lives in Shanghai": reading 58
    #25). None when it is a true distractor."""
    for step in trace.steps:
        if calls is not None and step.call not in calls:
            continue
        needs = (taken_values if taken_only else needed_values)(chain, trace, step.call)
        if not needs:
            continue
        tries = [mapped_arguments(candidate, specs[step.tool], step.arguments), *search_queries(candidate, step.arguments)]
        if examples:  # (the gold call's own arguments where they fit: a contact's name, and any new city)
            partial = mapped_arguments(candidate, specs[step.tool], step.arguments, partial=True) or {}
            tries.append(_exemplified(candidate, partial))
            # and the person's own city where a city is asked: its clock tells today's date, where
            # an example's may already be tomorrow (reading 46 #17)
            tries.append(_exemplified(candidate, {**{p.name: USER.home_city for p in candidate.parameters
                                                     if p.kind == "city" and p.name not in partial}, **partial}))
            # a search for that city, too: its entry gives its local time (reading 70 #17)
            tries += search_queries(candidate, {"city": USER.home_city})
        for arguments in (t for t in tries if t is not None):  # {}: a tool that takes nothing
            try:
                result = world_before(step, trace, specs, simulator).call(candidate, arguments)
            except ToolCrash:
                continue
            if errors and result.error is not None and all(
                    isinstance(n, str) and len(n) > 2 and n.casefold() in result.error.casefold() for n in needs):
                return f"{candidate.name}'s refusal names what gold call {step.call + 1} ({step.tool}) gives the chain"
            values = list(result.values)
            if implied is not None and result.error is None:
                values += [v for out, value in zip(candidate.returns, result.values, strict=False)
                           for v in implied(out, value).values()]
            if result.error is None and (_gives(needs, values) or arithmetic and worked_out(needs, values)):
                return f"{candidate.name} gives what gold call {step.call + 1} ({step.tool}) gives the chain"
    return None


def alternative_in_two(offered: list[ToolSpec], chain: Chain, trace: Trace, specs: dict[str, ToolSpec],
                       simulator: Callable[[], Simulator], index: int,
                       implied: Callable[[Any, Any], dict[str, Any]]) -> str | None:
    """Why two offered tools, one after the other, give what gold call `index` gives the chain:
    the first run on that call's arguments (mapped by name and kind), the second on a value of
    the first's of the kind it takes, what the second's values imply counting too (a wine's
    maker, then the maker's region Mendoza, which is in Argentina: the wine's country, reading
    55 #18). None when no such pair does."""
    step = trace.step(index)
    needs = needed_values(chain, trace, index) if step is not None else []
    if not needs:
        return None
    for first in offered:
        arguments = mapped_arguments(first, specs[step.tool], step.arguments)
        if arguments is None or first.name == step.tool:
            continue
        try:
            found = world_before(step, trace, specs, simulator).call(first, arguments)
        except ToolCrash:
            continue
        if found.error is not None:
            continue
        for out, value in zip(first.returns, found.values, strict=False):
            takers = [t for t in offered if t.name not in (first.name, step.tool)
                      and len(required := [p for p in t.parameters if p.required]) == 1 and out.kind is not None
                      and required[0].kind == out.kind]
            for second in takers:
                param = next(p for p in second.parameters if p.required)
                try:
                    result = world_before(step, trace, specs, simulator).call(second, {param.name: value})
                except ToolCrash:
                    continue
                if result.error is not None:
                    continue
                values = [*result.values, *(v for o, r in zip(second.returns, result.values, strict=False)
                                              for v in implied(o, r).values())]
                if _gives(needs, values):
                    return f"{first.name} then {second.name} give what gold call {index + 1} ({step.tool}) gives the chain"
    return None


_EXAMPLE = re.compile(r'e\.g\. "([^"]+)"')


def _exemplified(candidate: ToolSpec, mapped: dict[str, Any]) -> dict[str, Any] | None:
    """The candidate's arguments, those not `mapped` taken from the first example its parameter's
    description gives; None when a required one gives none of its type."""
    arguments = dict(mapped)
    for param in candidate.parameters:
        if param.name in arguments or not param.required:
            continue
        example = _EXAMPLE.search(param.description)
        if example is None and param.kind in ("date", "datetime"):  # any day ahead an agent would try
            tomorrow = NOW + timedelta(days=1)
            arguments[param.name] = tomorrow.strftime("%Y-%m-%d" if param.kind == "date" else "%Y-%m-%dT10:00")
            continue
        if example is None or not value_matches_type(example.group(1), param.type):
            return None
        arguments[param.name] = example.group(1)
    return arguments


def search_queries(candidate: ToolSpec, gold_arguments: dict[str, Any]) -> list[dict[str, Any]]:
    """A search tool (one free-text parameter) asked for what the gold call was given: each of
    its text values, and all of them together ("Physics 202"; "park Sydney"). Finding there what
    the chain needs makes it an alternative: search_courses("Physics 202") -> ["PHYS202"]."""
    required = [p for p in candidate.parameters if p.required]
    texts = [v for v in gold_arguments.values() if isinstance(v, str) and v.strip()]
    if len(required) != 1 or required[0].type != "str" or required[0].kind is None or not texts:
        return []
    if not required[0].kind.endswith(("_query", "_search_terms", "_terms")):
        return []
    queries = list(dict.fromkeys([*texts, " ".join(texts), " ".join(reversed(texts))]))
    return [{required[0].name: q} for q in queries]


def twin_of_gold(candidate: ToolSpec, chain: Chain, trace: Trace, specs: dict[str, ToolSpec],
                 simulator: Callable[[], Simulator], rule: TwinRule, embeddings: EmbeddingCache) -> str | None:
    """Why an offered non-gold tool may not stand beside the gold tools: it is a twin of one
    (it answers the same question) and, run on that gold call's arguments in the world as it was
    before the call, answers differently (the world would contradict itself), or answers only
    part of what the chain needs from the call (an agent that uses it did the job, yet would not
    meet the call's milestone). A twin that gives everything is an alternative
    (`alternative_to_gold`); one that cannot answer these arguments is an ordinary distractor."""
    for step in trace.steps:
        gold = specs[step.tool]
        similarity = embeddings.vectors([gold.description, candidate.description])
        pair = twin(gold, candidate, float(similarity[0] @ similarity[1]), rule)
        if pair is None:
            if why := _answers_in_part(candidate, chain, trace, step, specs, simulator):
                return why
            continue
        try:
            result = world_before(step, trace, specs, simulator).call(candidate, pair.arguments_for_b(step.arguments))
        except ToolCrash:
            continue
        if result.error is not None:
            continue
        where = f"{candidate.name} is a twin of gold tool {step.tool}"
        why = disagreement(pair, list(step.outputs.values()), result.values)
        if why:
            return f"{where} and answers call {step.call + 1} differently: {why}"
        if not _gives(needed_values(chain, trace, step.call), result.values):
            return f"{where} but gives only part of what the chain needs from call {step.call + 1}"
    return None


def _answers_in_part(candidate: ToolSpec, chain: Chain, trace: Trace, step: TraceStep, specs: dict[str, ToolSpec],
                     simulator: Callable[[], Simulator]) -> str | None:
    """Why a tool that is no twin still may not stand beside a gold call: run on the call's
    arguments (a day for its moment), it gives a needed output of the same name the same value
    (a place's hours give the closing time "is it open at 10:30, and until when?" asks), so an
    agent that uses it does the job and misses the call's milestone."""
    gold = specs[step.tool]
    if not any(o.name == out.name and o.kind == out.kind for o in candidate.returns for out in gold.returns):
        return None
    arguments = mapped_arguments(candidate, gold, step.arguments)
    if arguments is None:
        return None
    try:
        result = world_before(step, trace, specs, simulator).call(candidate, arguments)
    except ToolCrash:
        return None
    needed = needed_values(chain, trace, step.call)
    if result.error is not None or _gives(needed, result.values):
        return None
    given = dict(zip((o.name for o in candidate.returns), result.values, strict=False))
    shared = [out.name for var, out in zip(chain.calls[step.call].outputs, gold.returns, strict=False)
              if out.name in given and any(values_equal(n, step.outputs.get(var), loose_strings=False) for n in needed)
              and values_equal(given[out.name], step.outputs.get(var), loose_strings=True)]
    if shared:
        return f"{candidate.name} gives {', '.join(shared)} of gold call {step.call + 1} but not all it needs"
    return None


def world_before(step: TraceStep, trace: Trace, specs: dict[str, ToolSpec], simulator: Callable[[], Simulator]) -> Simulator:
    """A fresh world as it was before the gold call of `step`: the calls before it replayed."""
    world = simulator()
    for earlier in trace.steps[: trace.steps.index(step)]:
        world.call(specs[earlier.tool], earlier.arguments)
    return world


def worked_out(needs: list[Any], values: list[Any]) -> bool:
    """Whether every needed value is among the values or, for a number with a fraction, the
    quotient or product of two numbers among them (their lists' and records' too) rounded to
    the places the need has: 161548.52 / 271 shares is the share price 596.12. Beside a needed
    currency, the number may be in any other currency at the world's rate (a position's value in
    USD over its shares is the quote in CAD, and then the currency is no longer missing)."""
    numbers = [n for n in _numbers_in(values) if n]
    codes = [n for n in needs if isinstance(n, str) and n in CURRENCY_BY_CODE]
    rates = [exchange_rate(other, code) for code in codes for other in CURRENCY_BY_CODE if other != code]
    pairs = [(a, b) for i, a in enumerate(numbers) for j, b in enumerate(numbers) if i != j]
    worked = [a / b for a, b in pairs] + [a * b for a, b in pairs]

    def reached(need: Any) -> bool:
        if _gives([need], values):
            return True
        if isinstance(need, bool) or not isinstance(need, float) or need.is_integer():
            return False
        places = len(repr(need).split(".")[1])
        return any(round(w, places) == need for w in worked) or \
            any(abs(w * rate - need) <= 0.51 * 10 ** -places for w in worked for rate in rates)
    amounts = [n for n in needs if n not in codes]
    return bool(amounts) and all(map(reached, amounts))


def _numbers_in(values: Any) -> list[float]:
    """The numbers of a value, of its list items and of its record's fields (not booleans)."""
    if isinstance(values, bool):
        return []
    if isinstance(values, (int, float)):
        return [values]
    if isinstance(values, dict):
        values = list(values.values())
    return [n for v in values for n in _numbers_in(v)] if isinstance(values, list) else []


def _gives(needs: list[Any], values: list[Any]) -> bool:
    """Whether the values include every needed one, in any order (an equivalent call's outputs),
    a single value also as the one item of a list (a search finding exactly it), a day as that
    of a date and time, or one entry of a list states them all (`entry_holds`: a year's
    holidays, for the next one)."""
    def found(need: Any, value: Any) -> bool:
        return gives(need, value) or (isinstance(need, str) and isinstance(value, str) and len(need) == 10
                                      and len(value) > 10 and day_of(need) is not None and day_of(value) == day_of(need))
    return all(any(found(n, v) for v in values) for n in needs) or any(entry_holds(needs, v) for v in values)
