"""The distribution report of a set of instances: counts, depth, shape, shape family,
categories, calls, tools; how varied and clean the queries are and how close the shapes are
to NesTools'; plus reject reasons of a run."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

import Levenshtein

from factory.chains.shapes import common_shapes, family_of, nestools_shares
from factory.checks.duplicates import skeleton
from factory.checks.faithfulness import text_glitches
from factory.records import Instance, parse_shape

_WORD = re.compile(r"[a-z']+")
NEAR_DUPLICATE_RATIO = 0.9


def reject_reason_key(reason: str) -> str:
    """A reason's category: the check or stage that raised it ("execution"), and for the
    checks with named rules the rule too ("plausibility/no_op", "faithfulness/example",
    "readability/stacked")."""
    check, _, rest = reason.partition(":")
    check = check.strip()
    if check in ("plausibility", "faithfulness", "readability") and rest.strip():
        return f"{check}/{rest.strip().split(':', 1)[0].strip()}"
    return check


def words(text: str) -> list[str]:
    """Runs of letters and apostrophes, lower-cased."""
    return _WORD.findall(text.lower())


def _distinct_n(queries: list[list[str]], n: int) -> float:
    grams = [tuple(q[i:i + n]) for q in queries for i in range(len(q) - n + 1)]
    return round(len(set(grams)) / len(grams), 4) if grams else 0.0


class Facts(NamedTuple):
    """What the distribution report reads of one instance: a report over many instances
    holds these (about a kilobyte each), not the instances."""

    domain: str
    subdomain: str
    goal: str
    depth: int
    calls: int
    nested: bool
    shape: str
    categories: tuple[str, ...]
    tools: frozenset[str]  # the tools its chain calls
    offered: int  # tools offered
    query: str
    skeleton: str
    judged: tuple[tuple[str, bool, bool], ...] = ()  # (judge check, passed, blocking) of each model judge that ran


def facts(instance: Instance) -> Facts:
    from factory.checks.judges import NOT_APPLIED  # also what a judge spared by an earlier failure says

    judged = tuple((r.name, r.passed, r.blocking) for r in instance.checks
                   if r.name.startswith("judge_") and not r.reason.startswith(NOT_APPLIED))
    return Facts(instance.domain, instance.subdomain, instance.goal, instance.depth, len(instance.chain.calls),
                 "nested" in instance.categories, instance.shape, tuple(instance.categories),
                 frozenset(c.tool for c in instance.chain.calls), len(instance.tools), instance.query, skeleton(instance),
                 judged)


def query_report(instances: Iterable[Instance | Facts]) -> dict[str, Any]:
    """How varied and clean the queries are: first words, distinct-n, vocabulary, step numbers,
    template leftovers, and same-skeleton pairs worded nearly alike."""
    return _query_report([i if isinstance(i, Facts) else facts(i) for i in instances])


def _query_report(instances: list[Facts]) -> dict[str, Any]:
    tokens = [words(i.query) for i in instances]
    firsts = Counter(t[0] for t in tokens if t)
    glitches = Counter(g.split(":")[0] for i in instances for g in text_glitches(i.query))
    by_skeleton: dict[str, list[str]] = defaultdict(list)
    for instance in instances:
        by_skeleton[instance.skeleton].append(instance.query)
    near = sum(1 for queries in by_skeleton.values() for a in range(len(queries)) for b in range(a + 1, len(queries))
               if Levenshtein.ratio(queries[a], queries[b]) > NEAR_DUPLICATE_RATIO)
    n = len(instances)
    top, top_count = firsts.most_common(1)[0] if firsts else ("", 0)
    return {
        "distinct_first_words": len(firsts),
        "top_first_word": top,
        "top_first_word_share": round(top_count / n, 4) if n else 0.0,
        "distinct_2": _distinct_n(tokens, 2),
        "distinct_3": _distinct_n(tokens, 3),
        "vocabulary": len({w for t in tokens for w in t}),
        "step_number_share": round(glitches["names a step number"] / n, 4) if n else 0.0,
        "doubled_words": glitches["doubled word"] + glitches["doubled phrase"],
        "empty_slots": glitches["empty slot or stray punctuation"],
        "near_duplicate_pairs": near,
    }


def shape_report(instances: Iterable[Instance | Facts]) -> dict[str, Any]:
    """Share in the 13 common NesTools shapes and the total-variation distance to NesTools'
    shape distribution (half the sum of absolute differences of shape shares)."""
    counts = Counter(i.shape for i in instances)
    n = sum(counts.values())
    shares = nestools_shares()
    tv = 0.5 * sum(abs(counts[s] / n - shares.get(s, 0.0)) for s in set(counts) | set(shares)) if n else 1.0
    common = set(common_shapes())
    return {
        "common_nestools_shape_share": round(sum(c for s, c in counts.items() if s in common) / n, 4) if n else 0.0,
        "nestools_shape_tv_distance": round(tv, 4),
    }


def shape_tv(a: Iterable[Instance], b: Iterable[Instance]) -> float:
    """Total-variation distance between the shape distributions of two sets of instances."""
    return _counts_tv(Counter(i.shape for i in a), Counter(i.shape for i in b))


def _counts_tv(ca: Counter[str], cb: Counter[str]) -> float:
    na, nb = sum(ca.values()), sum(cb.values())
    if not na or not nb:
        return 1.0
    return round(0.5 * sum(abs(ca[s] / na - cb[s] / nb) for s in set(ca) | set(cb)), 4)


def split_report(splits: Mapping[str, Iterable[Instance]], hold_out: str | None = None,
                 held: str | None = None) -> dict[str, Any]:
    """Per split: instances, and the shape and category distances to the largest split; with a
    hold-out, the units of the held split that another split also has (none when cut right).
    Each split is read once (a run's splits are read from its files)."""
    from factory.generation.splits import unit_set

    sizes: dict[str, int] = {}
    shapes: dict[str, Counter[str]] = {}
    categories: dict[str, Counter[str]] = {}
    units: dict[str, set[str]] = {}
    for name, group in splits.items():
        sizes[name], shapes[name], categories[name], units[name] = 0, Counter(), Counter(), set()
        for instance in group:
            sizes[name] += 1
            shapes[name][instance.shape] += 1
            categories[name].update(instance.categories)
            if hold_out and held:
                units[name] |= unit_set(instance, hold_out)
    largest = max(splits, key=lambda name: (sizes[name], name))
    report: dict[str, Any] = {
        "sizes": sizes,
        "compared_with": largest,
        "shape_tv": {name: _counts_tv(shapes[name], shapes[largest]) for name in splits if name != largest},
        "category_share": {name: {c: round(n / sizes[name], 4) for c, n in sorted(counts.items())}
                           for name, counts in categories.items()},
    }
    if hold_out and held:
        inside = units.get(held, set())
        outside = set().union(*(u for name, u in units.items() if name != held))
        report.update(hold_out=hold_out, held=held, leaked_units=len(inside & outside))
    return report


def split_markdown(report: dict[str, Any]) -> str:
    sizes = ", ".join(f"{name} {n}" for name, n in report["sizes"].items())
    tv = ", ".join(f"{name} {d}" for name, d in report["shape_tv"].items())
    lines = [f"- splits: {sizes}; shape total-variation distance to {report['compared_with']}: {tv}"]
    if "hold_out" in report:
        lines.append(f"- held out: the {report['held']} split's {report['hold_out']}; units of it another split also "
                     f"has: {report['leaked_units']}")
    return "\n".join(lines)


def judge_report(instances: list[Facts]) -> dict[str, dict[str, Any]]:
    """Per model judge that ran: the kept instances it judged, those it said no to (an advisory
    veto keeps them; a blocking one would have rejected them), and whether its veto blocked."""
    found: dict[str, dict[str, Any]] = {}
    for instance in instances:
        for name, passed, blocking in instance.judged:
            row = found.setdefault(name, {"judged": 0, "said_no": 0, "blocking": False})
            row["judged"] += 1
            row["said_no"] += not passed
            row["blocking"] = row["blocking"] or blocking
    return found


def distribution(instances: Iterable[Instance]) -> dict[str, Any]:
    """The report of a set of instances (each read once)."""
    report = Distribution()
    for instance in instances:
        report.add(instance)
    return report.report()


class Distribution:
    """The distribution report built one instance at a time; `order` places an instance in
    the report where it comes in another order than it is added (ties in counts are listed
    in order of first appearance)."""

    def __init__(self) -> None:
        self.facts: list[tuple[int, Facts]] = []

    def add(self, instance: Instance, order: int | None = None) -> None:
        self.facts.append((len(self.facts) if order is None else order, facts(instance)))

    def report(self) -> dict[str, Any]:
        instances = [f for _, f in sorted(self.facts, key=lambda item: item[0])]
        n = len(instances)
        depth = Counter(i.depth for i in instances)
        return {
            "instances": n,
            "domains": dict(Counter(i.domain for i in instances).most_common()),
            "subdomains": dict(Counter(f"{i.domain}/{i.subdomain}" for i in instances).most_common()),
            "goals": dict(Counter(i.goal for i in instances if i.goal).most_common()),
            "depth": {str(d): depth[d] for d in sorted(depth)},
            "depth_3_plus_share": round(sum(v for d, v in depth.items() if d >= 3) / n, 4) if n else 0.0,
            "calls": dict(sorted(Counter(str(i.calls) for i in instances).items())),
            "mean_calls": round(sum(i.calls for i in instances) / n, 3) if n else 0.0,
            "nested_share": round(sum(1 for i in instances if i.nested) / n, 4) if n else 0.0,
            "shapes": dict(Counter(i.shape for i in instances).most_common()),
            "shape_families": dict(Counter(family_of(*parse_shape(i.shape)) for i in instances).most_common()),
            "categories": dict(Counter(c for i in instances for c in i.categories).most_common()),
            "distinct_tools": len(set().union(*(i.tools for i in instances))),
            "mean_tools_offered": round(sum(i.offered for i in instances) / n, 2) if n else 0.0,
            "queries": _query_report(instances),
            "nestools_shapes": shape_report(instances),
            **({"judges": judges} if (judges := judge_report(instances)) else {}),  # offline cards keep their bytes
        }


def markdown(stats: dict[str, Any], reject_reasons: dict[str, int] | None = None, top: int = 15) -> str:
    """The report as Markdown (used in the dataset card and by `factory stats --markdown`)."""
    lines = [
        f"- instances: {stats['instances']}",
        f"- depth 3+: {stats['depth_3_plus_share']:.1%}; nested: {stats['nested_share']:.1%}; "
        f"mean calls: {stats['mean_calls']}; distinct tools used: {stats['distinct_tools']}; "
        f"tools offered per instance: {stats['mean_tools_offered']}",
    ]
    q, shapes = stats.get("queries"), stats.get("nestools_shapes")
    if q and shapes:
        lines += [
            f"- queries: {q['distinct_first_words']} distinct first words (most common {q['top_first_word']!r}, "
            f"{q['top_first_word_share']:.1%}); distinct-2 {q['distinct_2']}, distinct-3 {q['distinct_3']}; "
            f"vocabulary {q['vocabulary']}; naming a step number {q['step_number_share']:.1%}; doubled words or phrases "
            f"{q['doubled_words']}; empty slots {q['empty_slots']}; same-skeleton pairs worded alike {q['near_duplicate_pairs']}",
            f"- shapes: {shapes['common_nestools_shape_share']:.1%} in the 13 common NesTools shapes; "
            f"total-variation distance to NesTools {shapes['nestools_shape_tv_distance']}",
        ]
    for name, row in stats.get("judges", {}).items():
        lines.append(f"- {name}: said no to {row['said_no']} of the {row['judged']} kept instances it judged "
                     f"({'its veto blocks' if row['blocking'] else 'advisory: not calibrated to block'})")
    tables = [("Domain", "domains"), ("Max nesting depth", "depth"), ("Calls", "calls"),
              ("Shape family", "shape_families"), ("Nesting shape", "shapes"), ("Category", "categories")]
    for title, key in tables:
        rows = list(stats[key].items())
        lines += ["", f"| {title} | instances |", "| --- | ---: |"]
        lines += [f"| `{k}` | {v} |" if key == "shapes" else f"| {k} | {v} |" for k, v in rows[:top]]
        if len(rows) > top:
            lines.append(f"| ({len(rows) - top} more) | {sum(v for _, v in rows[top:])} |")
    if reject_reasons is not None:
        lines += ["", "| Reject reason | candidates |", "| --- | ---: |"]
        lines += [f"| {k} | {v} |" for k, v in sorted(reject_reasons.items(), key=lambda kv: -kv[1])] or ["| (none) | 0 |"]
    return "\n".join(lines)
