"""The distribution report of a set of instances: counts, depth, shape, shape family,
categories, calls, tools; plus reject reasons of a run."""

from __future__ import annotations

from collections import Counter
from typing import Any

from factory.chains.shapes import family_of
from factory.records import Instance, parse_shape


def reject_reason_key(reason: str) -> str:
    """A reason's category: the check or stage that raised it ("execution", "faithfulness")."""
    return reason.split(":", 1)[0].strip()


def distribution(instances: list[Instance]) -> dict[str, Any]:
    n = len(instances)
    depth = Counter(i.depth for i in instances)
    return {
        "instances": n,
        "domains": dict(Counter(i.domain for i in instances).most_common()),
        "subdomains": dict(Counter(f"{i.domain}/{i.subdomain}" for i in instances).most_common()),
        "depth": {str(d): depth[d] for d in sorted(depth)},
        "depth_3_plus_share": round(sum(v for d, v in depth.items() if d >= 3) / n, 4) if n else 0.0,
        "calls": dict(sorted(Counter(str(len(i.chain.calls)) for i in instances).items())),
        "mean_calls": round(sum(len(i.chain.calls) for i in instances) / n, 3) if n else 0.0,
        "nested_share": round(sum(1 for i in instances if "nested" in i.categories) / n, 4) if n else 0.0,
        "shapes": dict(Counter(i.shape for i in instances).most_common()),
        "shape_families": dict(Counter(family_of(*parse_shape(i.shape)) for i in instances).most_common()),
        "categories": dict(Counter(c for i in instances for c in i.categories).most_common()),
        "distinct_tools": len({c.tool for i in instances for c in i.chain.calls}),
        "mean_tools_offered": round(sum(len(i.tools) for i in instances) / n, 2) if n else 0.0,
    }


def markdown(stats: dict[str, Any], reject_reasons: dict[str, int] | None = None, top: int = 15) -> str:
    """The report as Markdown (used in the dataset card and by `factory stats --markdown`)."""
    lines = [
        f"- instances: {stats['instances']}",
        f"- depth 3+: {stats['depth_3_plus_share']:.1%}; nested: {stats['nested_share']:.1%}; "
        f"mean calls: {stats['mean_calls']}; distinct tools used: {stats['distinct_tools']}; "
        f"tools offered per instance: {stats['mean_tools_offered']}",
    ]
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
