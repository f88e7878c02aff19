"""Robustness variants of what the model sees: fewer or more distractors, scrambled tool
names, descriptions, argument descriptions or types removed, a query without conjunctions.

Options (repeat `--augment` or separate with commas): `distractors=0|3|10|all`,
`scramble`, `no-descriptions`, `no-arg-descriptions`, `no-types`, `no-conjunctions`.
Only the view changes; scoring maps scrambled names back to the real tools.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from factory.errors import ConfigError
from factory.records import Instance, content_hash

FLAGS = ("scramble", "no-descriptions", "no-arg-descriptions", "no-types", "no-conjunctions")
CONNECTIVES = re.compile(
    r"\b(?:and then|and after that|after that|afterwards|and subsequently|subsequently|then|next|finally|lastly|"
    r"first(?:ly)?|second(?:ly)?|once (?:that|this) is done|following (?:that|this)|upon completion)\b,?\s*",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Augment:
    distractors: int | None = None  # None: as offered; -1: every distractor the instance has
    flags: frozenset[str] = field(default_factory=frozenset)

    @property
    def label(self) -> str:
        parts = [] if self.distractors is None else [f"distractors={'all' if self.distractors < 0 else self.distractors}"]
        return ",".join(parts + sorted(self.flags)) or "none"


def parse_augment(values: list[str] | None) -> Augment:
    distractors, flags = None, set()
    for part in (p.strip() for v in values or [] for p in v.split(",")):
        if not part:
            continue
        name, _, arg = part.partition("=")
        if name == "distractors":
            if arg == "all":
                distractors = -1
            elif arg.isdigit():
                distractors = int(arg)
            else:
                raise ConfigError(f"--augment distractors={arg!r}: use a count (0, 3, 10) or 'all'")
        elif part in FLAGS:
            flags.add(part)
        else:
            raise ConfigError(f"unknown --augment option {part!r}: use distractors=N|all, {', '.join(FLAGS)}")
    return Augment(distractors, frozenset(flags))


def strip_conjunctions(query: str) -> str:
    """The query with its sequencing connectives removed ("then", "after that", "finally")."""
    out, last = [], 0
    for match in CONNECTIVES.finditer(query):
        out.append(query[last: match.start()])
        last = match.end()
        before = "".join(out).rstrip()
        if (not before or before[-1] in ".!?") and last < len(query):  # a sentence now starts here
            query = query[:last] + query[last].upper() + query[last + 1:]
    text = "".join(out) + query[last:]
    text = re.sub(r"\s+([,.;])", r"\1", re.sub(r"\s{2,}", " ", text)).strip()
    return re.sub(r",\s*([.;])", r"\1", text)


def no_conjunction_query(instance: Instance) -> str:
    return instance.query_variants.get("no_conjunctions") or strip_conjunctions(instance.query)


def offered_tools(instance: Instance, augment: Augment, seed: int = 0) -> list[str]:
    """Names of the tools to show: offered gold tools plus the chosen distractors, in offer order."""
    gold = set(instance.gold_tools)
    distractors = [t.name for t in instance.tools if t.name not in gold]
    if augment.distractors is not None and augment.distractors >= 0:
        rng = random.Random(f"{seed}:{instance.id}:distractors")
        distractors = rng.sample(distractors, min(augment.distractors, len(distractors)))
    keep = gold | set(distractors)
    return [t.name for t in instance.tools if t.name in keep]


def scrambled_name(instance: Instance, name: str) -> str:
    return f"fn_{content_hash([instance.id, name], 8)}"


def _strip(spec: dict[str, Any], flags: frozenset[str]) -> dict[str, Any]:
    if "no-descriptions" in flags:
        spec.pop("api_description", None)
    for section in ("parameters", "responses"):
        for entry in spec.get(section, {}).values():
            if "no-types" in flags:
                entry.pop("type", None)
            if "no-arg-descriptions" in flags and section == "parameters":
                entry.pop("description", None)
    return spec


def apply_view(instance: Instance, specs: list[dict[str, Any]], augment: Augment) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """(tools as shown, shown name → real name) after removals and scrambling."""
    shown, names = [], {}
    for spec in specs:
        spec = _strip(spec, augment.flags)
        real = spec["api_name"]
        if "scramble" in augment.flags:
            spec["api_name"] = scrambled_name(instance, real)
        names[spec["api_name"]] = real
        shown.append(spec)
    return shown, names


def view_query(instance: Instance, augment: Augment) -> str:
    return no_conjunction_query(instance) if "no-conjunctions" in augment.flags else instance.query
