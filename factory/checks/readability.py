"""Readability: a deep request reads as well as a shallow one, as one person on one occasion.

Rules (reasons read "rule: detail"):
- `stacked`: a description holding more than `max_nested_descriptions` others ("the country
  where the bestseller among wines in the region that is home to Muga is produced");
- `crowded`: a description that says an earlier value again beside other arguments ("the
  wind strength in that city on that day"): the writer asks for such a value in its own sentence;
- `redescribed`: a call whose value was described, described again in full for another of its
  values;
- `restated`: a day or a time the user named stated twice in a row ("how many days from next
  Monday ... and which weekday is next Monday?"), where no call finds a day that "that day"
  could be taken for;
- `day_after_day`: two days in a row, the second reading as the first one's ("the city that gets
  hottest in Brazil next Tuesday a year before June 26"), or a day in the person's words after a
  preposition ("one year before in a week");
- `situations`: more than `max_situations` situations of the person in one request ("For the
  events log, ... Gardening all afternoon ...: ..."), the opening sentences of its fix-ups aside;
- `role`: a situation at work in a request whose goal is not ("before I recommend it to a
  client" from a wine lover).
"""

from __future__ import annotations

import re
from typing import Any

from factory.checks.context import CheckContext
from factory.checks.faithfulness import normalise, value_groups
from factory.queries.frames import GREETINGS
from factory.queries.readable import transparent, walk
from factory.queries.situations import fits_goal, situations_in
from factory.queries.wording import PREPOSITION_CLASH, TENSE_CLASH
from factory.records import CheckResult, Instance, Value
from factory.toolbox.sense import is_day

GREETING = re.compile("^(?:" + "|".join(re.escape(g.strip()) for g in GREETINGS) + r")\s*", re.IGNORECASE)
RULES = ("stacked", "crowded", "redescribed", "restated", "day_after_day", "situations", "role")

# What may stand between a day and the next without a word of its own: "June 3, on June 5".
# ("from June 3 to June 5" is a span, not two days in a row.)
_BETWEEN_DAYS = re.compile(r"^[ ,]*(?:(?:on|for|from|in|at|by|or|after|of|starting|since) )*$")


def _places(value: Any, text: str) -> list[tuple[int, int]]:
    """Spans of a normalised text where a literal is stated (for a date-time, its day)."""
    spans: list[tuple[int, int]] = []
    for form in {normalise(f) for f in value_groups(value)[0]}:
        spans += [m.span() for m in re.finditer(rf"(?<![0-9a-z]){re.escape(form)}(?![0-9a-z])", text)]
    return spans


def _days(instance: Instance, entries: dict) -> list[tuple[int, int, Any]]:
    """Where the request names a day it states: a date or date-time literal, or the words of a
    time the user named for a canonicalising call; (start, end, value) in text order."""
    text = normalise(instance.query)
    found = []
    for call in instance.chain.calls:
        spec = instance.tool(call.tool)
        named = transparent(call.tool, entries) and spec is not None and any(
            is_day(o) or o.kind == "datetime" for o in spec.returns)
        for arg in call.arguments.values():
            if not isinstance(arg, Value) or not isinstance(arg.value, str):
                continue
            if named or re.fullmatch(r"\d{4}-\d{2}-\d{2}", arg.value):
                found += [(start, end, arg.value) for start, end in _places(arg.value, text)]
            elif re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}", arg.value):  # its day, where its time is said beside it
                clock = [normalise(f) for f in value_groups(arg.value)[1]]
                found += [(start, end, arg.value) for start, end in _places(arg.value, text)
                          if any(form in text[max(0, start - 16):end + 16] for form in clock)]
    # the longest form at a place ("thursday june 26 2025" over "june 26 2025"), a time's day
    # over a date where the time is said
    found.sort(key=lambda s: (s[0], -s[1], "T" not in str(s[2])))
    kept: list[tuple[int, int, Any]] = []
    for span in found:
        if not kept or span[0] >= kept[-1][1]:
            kept.append(span)
    return kept


def restated(instance: Instance, entries: dict) -> list[str]:
    """A day or a time the user named stated twice in a row (or the day of a time just named),
    where no call finds a day that "that day" could be taken for."""
    finds_days = any(is_day(o) or o.kind == "datetime" for c in instance.chain.calls
                     if not transparent(c.tool, entries) and (s := instance.tool(c.tool)) for o in s.returns)
    days = _days(instance, entries)
    if finds_days:
        return []
    return [f"{a!r} is stated twice in a row, where 'that day' would do"
            for (_, _, a), (_, _, b) in zip(days, days[1:], strict=False) if a == b or b == str(a)[:10]][:1]


def days_in_a_row(instance: Instance, entries: dict) -> list[str]:
    """Two different days with nothing but prepositions between them."""
    text = normalise(instance.query)
    days = _days(instance, entries)
    return [f"{text[s1:e1]!r} then {text[s2:e2]!r}" for (s1, e1, a), (s2, e2, b) in zip(days, days[1:], strict=False)
            if a != b and _BETWEEN_DAYS.match(text[e1:s2])]


def _conditions_said(instance: Instance, ctx: CheckContext) -> list[re.Pattern[str]]:
    """The sentences a request may open with for its fix-ups (what a condition says, the context
    its arguments need), as patterns over the request."""
    patterns = []
    for call in instance.chain.calls:
        spec = instance.tool(call.tool)
        seed = ctx.seeds.get(spec.toolbox or "") if spec and call.fixes else None
        condition = seed.toolbox.conditions.get(call.fixes) if seed else None
        for wording in (*condition.says, *condition.context) if condition else ():
            pieces = re.split(r"\{\w+\}", wording)
            patterns.append(re.compile(r"\s*" + r".+?".join(re.escape(p) for p in pieces), re.IGNORECASE))
    return patterns


def without_opening(instance: Instance, ctx: CheckContext) -> str:
    """The request without the sentences that open it for its fix-ups."""
    text = GREETING.sub("", instance.query.strip())
    patterns = _conditions_said(instance, ctx)
    while patterns and (match := next((m for p in patterns if (m := p.match(text))), None)) is not None and match.end():
        text = text[match.end():].lstrip()
    return text


def goal_of(instance: Instance, ctx: CheckContext) -> Any:
    slug, _, name = instance.goal.partition(":")
    seed = ctx.seeds.get(slug)
    return seed.toolbox.goals.get(name) if seed is not None else None


def readability_problems(instance: Instance, ctx: CheckContext) -> list[str]:
    """'rule: detail' for every rule the request breaks."""
    limits = dict(ctx.policy.checks["readability"].model_extra or {})
    entries = {n: e for seed in ctx.seeds.values() for n, e in seed.toolbox.tools.items()}
    specs = {t.name: t for t in (*instance.tools, *instance.withheld_tools)}
    chain = instance.chain
    said = situations_in(without_opening(instance, ctx))

    def stacked() -> list[str]:
        found = walk(chain, chain.asked(), specs, entries, ctx.joint_kinds)
        return [f"the description of what {chain.calls[d.call].tool} finds holds those of "
                f"{', '.join(chain.calls[i].tool for i in d.inside)}"
                for d in found.descriptions if len(d.inside) > limits.get("max_nested_descriptions", 0)]

    def crowded() -> list[str]:
        found = walk(chain, chain.asked(), specs, entries, ctx.joint_kinds)
        return [f"the description of what {chain.calls[d.call].tool} finds says an earlier value again "
                "beside other arguments" for d in found.descriptions if d.crowded]

    def redescribed() -> list[str]:
        found = walk(chain, chain.asked(), specs, entries, ctx.joint_kinds)
        return [f"{chain.calls[i].tool} is described again in full for another of its values"
                for i in found.redescribed]

    def role() -> list[str]:
        goal = goal_of(instance, ctx)
        return [f"{s!r} puts the {goal.role} at work" for s in said if not fits_goal(s, goal)] if goal else []

    found = {
        "stacked": stacked,
        "crowded": crowded,
        "redescribed": redescribed,
        "restated": lambda: restated(instance, entries),
        "day_after_day": lambda: days_in_a_row(instance, entries)
        + [f"{m.group(0)!r}: a day in the person's words after a preposition" for m in PREPOSITION_CLASH.finditer(instance.query)]
        + [f"{m.group(0).strip()!r}: a past day asked of in the present" for m in TENSE_CLASH.finditer(instance.query)],
        "situations": lambda: [f"{len(said)} situations: {' / '.join(said)}"]
        if len(said) > limits.get("max_situations", 1) else [],
        "role": role,
    }
    skip = set(limits.get("skip", []))
    return [f"{rule}: {problem}" for rule in RULES if rule not in skip for problem in found[rule]()]


def check_readability(instance: Instance, ctx: CheckContext) -> CheckResult:
    problems = readability_problems(instance, ctx)
    return CheckResult(name="readability", passed=not problems, blocking=ctx.policy.checks["readability"].blocking,
                       reason="; ".join(problems[:5]))
