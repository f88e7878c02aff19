"""Splits of one run (`--splits train=800,validation=100,test=100 --hold-out tools`): which split
each kept instance goes to, decided in attempt order, so a resumed run cuts them as an
uninterrupted one does and the dataset's bytes stay the same.

With a hold-out, one split (`test` if named, else the last) keeps a unit to itself: no
instance of another split shares it.
- `tools`: a seeded draw of whole goals (what a person wants and the tools that serve it) is set
  apart until their tools (and the fix-up tools of their conditions) make the held split's
  share of all tools, then goals that fill a common shape or a scenario none drawn fills; held
  instances are composed from those tools alone, the others from the rest. A goal fills a
  shape or scenario when a short trial of it (attempts outside the run's) keeps such an
  instance through the checks: composition alone wires triangles the checks then refuse
  every time.
- `domains`: a seeded draw of seed domains (as many as the held split's share of them, at least
  one); held instances come from those seeds, the others from the rest (a goal may still borrow
  another seed's tools).
- `skeletons`: a skeleton (tools and wiring, literals aside) belongs to the held split when its
  seeded hash falls in the held split's share; nothing is steered, so shapes and categories
  come as they fall.
Each attempt is steered to the side (held or not) furthest below its share, a held one to a shape
or a category (as its scenario) the held split lags in and to the goals that fill it; a candidate
that still touches the other side's units, arrives when its side is full, or is held and of a
shape the held split has its share of already, is a counted reject (`splits`). Without a
hold-out, each instance goes to the split furthest below its share.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

from factory.checks.duplicates import skeleton
from factory.errors import ConfigError
from factory.records import GenerateConfig, Instance

HOLD_OUTS = ("tools", "skeletons", "domains")
HELD = "test"  # the split a hold-out keeps its units for, when the run names it
# The categories a held split is steered towards, as scenarios ("scenario:state_dependency" is
# the unit that steers the scenario the way a shape like "3:1>2" steers the shape).
STEERED_CATEGORIES = ("canonicalisation", "state_dependency", "insufficient_information", "cross_domain")
SCENARIO = "scenario:"
SHARE_SLACK = 2.5  # how far past its share of tools the held split may take goals that fill missing shapes


def parse_splits(text: str) -> dict[str, int]:
    """'train=800,validation=100,test=100' → {'train': 800, 'validation': 100, 'test': 100}."""
    sizes: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, size = part.partition("=")
        name = name.strip()
        if not name or not name.replace("_", "").isalnum() or "-" in name or not size.strip().isdigit():
            raise ConfigError(f"--splits takes name=size pairs such as train=800,validation=100,test=100; got {part!r}")
        if name in sizes:
            raise ConfigError(f"--splits names {name!r} twice")
        sizes[name] = int(size)
    if not sizes or any(v < 1 for v in sizes.values()):
        raise ConfigError(f"--splits needs at least one split of at least 1 instance; got {text!r}")
    return sizes


def held_split(sizes: dict[str, int]) -> str:
    return HELD if HELD in sizes else list(sizes)[-1]


def check_splits(config: GenerateConfig) -> None:
    if config.hold_out is not None and config.hold_out not in HOLD_OUTS:
        raise ConfigError(f"--hold-out takes {', '.join(HOLD_OUTS)}; got {config.hold_out!r}")
    if config.hold_out and len(config.splits) < 2:
        raise ConfigError("--hold-out needs --splits with at least two splits (the held-out one and another)")
    if config.splits and sum(config.splits.values()) != config.n:
        raise ConfigError(f"--splits add up to {sum(config.splits.values())} instances, -n is {config.n}")


@dataclass(frozen=True)
class Side:
    """What one side of a hold-out may compose with: the seeds to draw and a tool filter."""

    held: bool
    seeds: frozenset[str] | None = None  # seed slugs; None: any
    tools: frozenset[str] | None = None  # tools it may call; None: any
    avoid: frozenset[str] = frozenset()  # tools it may not call
    shape: str | None = None  # the shape to fill, where the held split lags the others' mix; None: drawn
    scenario: str | None = None  # the scenario to make, where the held split lags the others' categories
    goals: frozenset[str] | None = None  # the goals ("seed-slug:goal name") that fill `shape` or `scenario`; None: any


class SplitPlan:
    """The splits of a run and what each has kept so far; `assign` kept instances in attempt order."""

    def __init__(self, config: GenerateConfig, goals: list[tuple[str, str, frozenset[str]]], domains: dict[str, str],
                 reaches: Callable[[str, str, str], bool] | None = None, shapes: list[str] = ()):
        """`goals`: (seed slug, goal name, its tools) of every target seed; `domains`: slug → domain;
        `reaches(slug, goal, unit)`: whether a goal can fill a unit (a shape, or "scenario:" and a
        steered category), for the `shapes` and every steered category the held goals should
        fill between them."""
        self.sizes, self.hold_out, self.seed = dict(config.splits), config.hold_out, config.seed
        self.held = held_split(self.sizes) if self.hold_out else None
        self.kept: Counter[str] = Counter()
        self.shapes: dict[str, Counter[str]] = {name: Counter() for name in self.sizes}  # split → kept shapes
        self.categories: dict[str, Counter[str]] = {name: Counter() for name in self.sizes}  # split → kept steered categories
        self.assigned: dict[str, str] = {}  # instance id → split
        self.share = self.sizes[self.held] / sum(self.sizes.values()) if self.held else 0.0
        self.units: frozenset[str] = frozenset()  # the held split's tools or domains
        self.sides: dict[bool, Side] = {True: Side(True), False: Side(False)}
        # The held goals ("seed-slug:goal name") that fill a unit (a shape or a scenario); None: any held goal may.
        self.fillers: Callable[[str], frozenset[str] | None] = lambda unit: None
        rng = random.Random(f"hold-out:{config.seed}")
        if self.hold_out == "tools":
            self.units = _held_tools(goals, self.share, rng, reaches,
                                     [*shapes, *(SCENARIO + c for c in STEERED_CATEGORIES)])
            self.sides = {True: Side(True, tools=self.units), False: Side(False, avoid=self.units)}
        elif self.hold_out == "domains":
            slugs = sorted(domains)
            rng.shuffle(slugs)
            held = frozenset(slugs[: max(1, round(self.share * len(slugs)))])
            self.units = frozenset(domains[s] for s in held)
            self.sides = {True: Side(True, seeds=held), False: Side(False, seeds=frozenset(slugs) - held)}

    def side(self, attempt: int, in_order: bool) -> Side | None:
        """The side attempt k composes for: the one furthest below its share (attempts in order,
        offline), else drawn by size from the attempt's own seed (attempts in parallel)."""
        if self.hold_out not in ("tools", "domains"):
            return None
        held = self.sizes[self.held]
        others = sum(self.sizes.values()) - held
        if in_order:
            held_fill = self.kept[self.held] / held
            other_fill = (sum(self.kept.values()) - self.kept[self.held]) / others
            side = self.sides[held_fill < other_fill]
            return self._steered(side, attempt) if side.held else side
        return self.sides[random.Random(f"split:{self.seed}:{attempt}").random() < held / (held + others)]

    def _steered(self, side: Side, attempt: int) -> Side:
        """The held side steered to what it lags in most: a shape, or a category with the shape
        it lags in most among those the category's goals fill; and to the goals that fill both."""
        unit = self._lagging(attempt)
        if unit is None:
            return side
        goals = self.fillers(unit)
        if unit.startswith(SCENARIO):
            shape = self._lagging(attempt, within=goals, categories=False)
            if goals is not None and shape is not None:  # (fillers know goals for every unit or for none)
                goals &= self.fillers(shape)
            side = replace(side, scenario=unit.removeprefix(SCENARIO), shape=shape)
        else:
            side = replace(side, shape=unit)
        return side if goals is None else replace(side, goals=goals, seeds=frozenset(g.partition(":")[0] for g in goals))

    def _lagging(self, attempt: int, within: frozenset[str] | None = None, categories: bool = True) -> str | None:
        """A shape, or a category ("scenario:" and its name), the held split has fewer of than
        the others' mix asks for, drawn by how far behind it is, among those the held units can
        fill (`fillers`); None (drawn as usual) when none lags. With `within` (the goals of a
        steered category), a shape those goals fill; without `categories`, a shape. Steered, the held split's shapes and
        categories follow the others' instead of the leanings of the few goals it keeps."""
        size = self.sizes[self.held]
        others = sum((c for name, c in self.shapes.items() if name != self.held), Counter())

        def fillable(unit: str) -> bool:
            goals = self.fillers(unit)
            return goals is None or bool(goals if within is None else goals & within)

        shapes = {shape: count for shape, count in sorted(others.items()) if fillable(shape)}
        total = sum(shapes.values())
        behind = {shape: count / total * size - self.shapes[self.held][shape] for shape, count in shapes.items()}
        made = sum(self.kept.values()) - self.kept[self.held]  # instances of the other splits
        for name, count in sorted(sum((c for n, c in self.categories.items() if n != self.held), Counter()).items()):
            if made and categories and fillable(SCENARIO + name):
                behind[SCENARIO + name] = count / made * size - self.categories[self.held][name]
        behind = {unit: lag for unit, lag in behind.items() if lag > 0}
        rng = random.Random(f"shape:{self.seed}:{attempt}" + (":within" if within is not None else ""))
        return rng.choices(list(behind), weights=[lag * lag for lag in behind.values()])[0] if behind else None

    def is_held(self, instance: Instance) -> bool | None:
        """Whether the instance's units are the held split's (True), the others' (False), or
        both (None: it mixes them)."""
        if self.hold_out == "skeletons":
            digest = hashlib.sha256(f"{self.seed}:{skeleton(instance)}".encode()).digest()
            return int.from_bytes(digest[:8], "big") / 2 ** 64 < self.share
        mine = unit_set(instance, self.hold_out)
        inside = mine & self.units
        if inside and inside != mine:
            return None
        return bool(inside)

    def assign(self, instance: Instance) -> str:
        """The split the instance goes to, or '' when it cannot go to any (`why` says why)."""
        names = list(self.sizes)
        if self.held is not None:
            held = self.is_held(instance)
            if held is None:
                return ""
            names = [self.held] if held else [n for n in names if n != self.held]
            if held and self._over_share(instance):
                return ""
        open_ = [n for n in names if self.kept[n] < self.sizes[n]]
        if not open_:
            return ""
        # The split furthest behind its share of this shape (largest remainder), then the one
        # furthest below its size: splits sharing a side get each shape in proportion.
        side = sum(self.sizes[n] for n in names)
        seen = sum(self.shapes[n][instance.shape] for n in names) + 1
        chosen = max((self.sizes[n] / side * seen - self.shapes[n][instance.shape], -self.kept[n] / self.sizes[n], n)
                     for n in open_)[2]
        self.kept[chosen] += 1
        self.shapes[chosen][instance.shape] += 1
        self.categories[chosen].update(c for c in instance.categories if c in STEERED_CATEGORIES)
        self.assigned[instance.id] = chosen
        return chosen

    def _over_share(self, instance: Instance) -> str | None:
        """The shape of an instance the held split (steered, so never a skeleton hold-out) has its
        share of already, by the others' mix, and one more: steering adds what it lacks, and this
        keeps it from piling up what its goals lean to (five 4:2>3,3>4 items where train's mix
        gives half of one). Once the others have made as many instances as it holds."""
        made = sum(self.kept.values()) - self.kept[self.held]
        size = self.sizes[self.held]
        if self.hold_out not in ("tools", "domains") or made < size:
            return None
        # (Shapes only: capped too, categories cost the shapes more than they gained: shape distance
        # 0.08 to 0.104 on seed 4242 for category gaps of 0.06 to 0.02.)
        others = sum(c[instance.shape] for name, c in self.shapes.items() if name != self.held)
        if self.shapes[self.held][instance.shape] >= math.ceil(others / made * size) + 1:
            return f"shape {instance.shape}"
        return None

    def why(self, instance: Instance) -> str:
        """The reject reason of an instance `assign` placed nowhere."""
        held = self.is_held(instance) if self.held else False
        if held is None:
            mixed = sorted(unit_set(instance, self.hold_out) & self.units)
            return f"mixes {self.hold_out} held out for {self.held} ({', '.join(mixed)}) with others"
        if held and (over := self._over_share(instance)) and self.kept[self.held] < self.sizes[self.held]:
            return f"{self.held} has its share of {over} already"
        if held:
            return f"its {self.hold_out[:-1]} is held out for {self.held}, which is full"
        return "every split its " + (f"{self.hold_out[:-1]} may go to" if self.held else "instance may go to") + " is full"


def unit_set(instance: Instance, hold_out: str | None) -> frozenset[str]:
    """The units of an instance a hold-out keeps apart: its gold tools (fix-ups and a withheld
    tool included), its domain, or its skeleton."""
    if hold_out == "tools":
        return frozenset({*(c.tool for c in instance.chain.calls), *(t.name for t in instance.withheld_tools)})
    if hold_out == "domains":
        return frozenset({instance.domain})
    if hold_out == "skeletons":
        return frozenset({skeleton(instance)})
    return frozenset()


def _held_tools(goals: list[tuple[str, str, frozenset[str]]], share: float, rng: random.Random,
                reaches: Callable[[str, str, str], bool] | None, shapes: list[str]) -> frozenset[str]:
    """Whole goals drawn until their tools make `share` of all the goals' tools; then, in the same
    order, goals that fill a shape of `shapes` none drawn can, while their tools stay within
    `SHARE_SLACK` times that share (the held split then fills the shapes the others do)."""
    every = frozenset().union(*(tools for _, _, tools in goals)) if goals else frozenset()
    order = sorted(goals)
    rng.shuffle(order)
    held: set[str] = set()
    missing = list(shapes)
    for slug, goal, tools in order:
        if len(held) >= share * len(every):
            if reaches is None or not missing:
                break
            if len(held | tools) > SHARE_SLACK * share * len(every) or not any(reaches(slug, goal, s) for s in missing):
                continue
        held |= tools
        if reaches is not None:
            missing = [shape for shape in missing if not reaches(slug, goal, shape)]
    return frozenset(held)


def leaks(groups: dict[str, list[Instance]], hold_out: str, held: str) -> set[str]:
    """Units of the held split that an instance of another split also has (none, when cut right)."""
    inside = frozenset().union(*(unit_set(i, hold_out) for i in groups.get(held, [])))
    outside = frozenset().union(*(unit_set(i, hold_out) for name, group in groups.items() if name != held
                                  for i in group))
    return set(inside & outside)
