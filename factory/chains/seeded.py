"""Chains from the seed library: the graph composer's backend of the compose stage.

For one attempt it draws a target seed, one of its goals (what a person in one role wants,
and the tools that serve it) and a scenario (plain, canonicalisation, state dependency,
insufficient information, cross-domain), fills a nesting shape with the goal's tools (which
may include another seed's, where the goal says why), and sets the scenario up: fix-up calls
for a broken world state, a withheld tool whose value nothing else can give. A seed that
declares no goals is one goal of all its tools, linked to other seeds through its bridges.

With several target seeds (`--domain all`) and attempts run in blocks (offline), a seed whose
kept instances fall below MIN_SEED_SHARE of the run is tried first, so that seeds whose tools
fill few shapes (calendar, 1 drawn shape in 4) still get their share; a seed that keeps nothing
is given up after GIVE_UP_AFTER attempts per instance it kept, so it cannot stall the run.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
import numpy as np

from factory.chains.composer import NEVER_COMPOSED, can_feed, compose
from factory.chains.pool import ToolPool, pool_of
from factory.chains.shapes import candidates, sample_shape
from factory.checks.context import CheckContext
from factory.generation.splits import Side
from factory.instances.scenarios import CONVERSATION_WEIGHTS, SCENARIO_WEIGHTS, StateFixes, tool_to_withhold
from factory.lm.embeddings import tool_text
from factory.records import Chain, GenerateConfig, ToolSpec, WorldSetup, parse_shape
from factory.seeds.record import Seed
from factory.toolbox import Goal

FILL_TRIES = 4  # seeds and scenarios tried per attempt for the drawn shape
MAX_PATH = 5  # the deepest shape has five calls in a row
REACH_TRIES, REACH_BUDGET = 3, 3000  # composer tries (and steps each) that decide whether a goal fills a shape
TOOL_TRIES = 3  # tool draws per seed and scenario
MIN_SEED_SHARE = 0.03  # of the kept instances, for every target seed of a mixed run
GIVE_UP_AFTER = 200  # attempts per kept instance beyond which a seed below its share is no longer tried first


@dataclass
class Composed:
    """A chain ready to execute, whichever backend composed it, and what the later stages need."""

    chain: Chain
    specs: dict[str, ToolSpec]  # every tool an instance may use or offer (gold and distractor candidates)
    setup: WorldSetup
    domain: str
    subdomain: str
    policy_slug: str | None  # the seed whose policy and duplicate index apply (None: a model-written domain)
    scenario: str = "plain"
    goal: str = ""  # "seed-slug:goal name" of the goal the chain serves ("" for a seed without goals)
    withheld: str | None = None
    draft: str | None = None  # the request as the chain's author wrote it (the model's raw task)
    record: dict[str, Any] = field(default_factory=dict)  # what chains.jsonl keeps of the attempt


@dataclass(frozen=True)
class NotComposed:
    reason: str
    raw: str | None = None  # a model's answer that could not be used


class SeedComposer:
    """Composes chains from seed toolboxes; holds what is computed once per run."""

    def __init__(self, config: GenerateConfig, seeds: dict[str, Seed], targets: list[Seed], subdomain: str | None,
                 contexts: dict[str, CheckContext], balance: bool = False):
        self.config, self.seeds, self.targets, self.subdomain, self.contexts = config, seeds, targets, subdomain, contexts
        # Kept instances per domain, counted only when attempts run in blocks (`balance`): the
        # tally an attempt sees is then the same however many workers compute it, and on resume.
        self.kept: Counter[str] | None = Counter() if balance and len(targets) > 1 else None
        self.run_size = 0.0  # the kept instances a share is of (`balance_on`)
        # Calls of each tool in the kept instances (likewise only in blocks): the composer tries
        # the tools a run has used least first, so every tool of a goal gets its turn instead of
        # the best-linked few, and the requests use more of the seeds' phrasings.
        self.used: Counter[str] | None = Counter() if balance else None
        # Kept instances per shape (likewise): a shape behind its NesTools share is drawn more.
        self.shapes: Counter[str] | None = Counter() if balance else None
        self.specs: dict[str, ToolSpec] = {n: s for seed in seeds.values() for n, s in seed.specs.items()}
        self.entries = {n: e for seed in seeds.values() for n, e in seed.toolbox.tools.items()}
        self._pools: dict[tuple[str, ...], ToolPool] = {}
        self._links: dict[tuple[str, str], list[tuple[int, str]]] = {}  # shared by the pools above
        self._goal_pools: dict[tuple[str, str], ToolPool] = {}
        self._reach: dict[tuple[str, str], tuple[int, int, int, int]] = {}
        self._fills: dict[tuple[str, str, int, tuple[tuple[int, int], ...]], bool] = {}
        self.partners = {t.slug: self._partners(t) for t in targets}
        largest = max([*(len(self.pool((t.slug,) if p == t.slug else (t.slug, p)).specs)
                         for t in targets if not t.toolbox.goals for p in [t.slug, *self.partners[t.slug]]),
                       *(len(self.goal_pool(t, g).specs) for t in targets for g in t.toolbox.goals.values())])
        # shapes some target's tools (with a partner's, for a cross-domain chain) are numerous enough to fill
        self.shape_rows = [row for row in candidates(config.min_depth, config.max_depth, config.shape) if row[1] <= largest]
        # Distractors come from every toolbox: embed all their texts at once, as one batch
        # (sorted by length, it pads least) that later runs read from the store.
        contexts[targets[0].slug].embeddings.preload([t for slug in sorted(seeds) for t in self._toolbox_texts(seeds[slug])])
        self.subdomains = {t.slug: self._subdomain_index(t) for t in targets}

    def pool(self, toolboxes: tuple[str, ...]) -> ToolPool:
        """The tools of these toolboxes with their links, built once per run."""
        if toolboxes not in self._pools:
            limits = self.contexts[self.targets[0].slug].policy.checks["plausibility"].model_extra
            self._pools[toolboxes] = pool_of(self.seeds, toolboxes, self.config.seed, limits, self._links)
        return self._pools[toolboxes]

    def goal_toolboxes(self, seed: Seed, goal: Goal) -> list[str]:
        """The seed first, then the other seeds whose tools the goal names."""
        others = {self.specs[t].toolbox for t in goal.tools if t in self.specs} - {seed.slug}
        return [seed.slug, *sorted(o for o in others if o)]

    def goal_reaches(self, seed: Seed, goal: Goal, n: int, edges: list[tuple[int, int]]) -> bool:
        """Whether the goal's tools could fill a shape at all: enough tools, a link path as
        long as its depth, producers and consumers with as many partners as its widest call.
        Drawing only such goals keeps the drawn shape mix instead of failing on small goals."""
        key = (seed.slug, goal.name)
        if key not in self._reach:
            self._reach[key] = reach_of(self.goal_pool(seed, goal))
        tools, longest, fan_in, fan_out = self._reach[key]
        depth = nx.dag_longest_path_length(nx.DiGraph(edges)) + 1 if edges else 1
        ins = max((sum(1 for _, j in edges if j == c) for c in range(n)), default=0)
        outs = max((sum(1 for i, _ in edges if i == c) for c in range(n)), default=0)
        if not (n <= tools and depth <= longest and ins <= fan_in and outs <= fan_out):
            return False
        # Then a few composer tries with their own seeds, once per run: a shape the goal's links
        # cannot wire (a triangle among tools that feed in a line) would cost every attempt that
        # draws it a dozen tries. The answer depends only on the goal and the shape.
        shaped = (seed.slug, goal.name, n, tuple(edges))
        if shaped not in self._fills:
            pool = self.goal_pool(seed, goal)
            self._fills[shaped] = any(compose(pool, n, edges, random.Random(f"{n}:{edges}:{k}"), budget=REACH_BUDGET)
                                      is not None for k in range(REACH_TRIES))
        return self._fills[shaped]

    def goal_pool(self, seed: Seed, goal: Goal) -> ToolPool:
        """The goal's tools with their links, built once per run."""
        key = (seed.slug, goal.name)
        if key not in self._goal_pools:
            limits = self.contexts[self.targets[0].slug].policy.checks["plausibility"].model_extra
            self._goal_pools[key] = pool_of(self.seeds, self.goal_toolboxes(seed, goal), self.config.seed, limits,
                                            self._links, tools=frozenset(goal.tools))
        return self._goal_pools[key]

    def _partners(self, seed: Seed) -> list[str]:
        """Seeds one of whose tools can feed one of this seed's tools, or the other way round
        (cross-domain chains)."""
        own = set(seed.specs)
        partners = []
        for slug in sorted(self.seeds):
            pool = self.pool((seed.slug, slug)) if slug != seed.slug else None
            if pool and any((a in own) != (b in own) and can_feed(pool, a, b) for a, b in pool.links):
                partners.append(slug)
        return partners

    @staticmethod
    def _toolbox_texts(seed: Seed) -> list[str]:
        """A seed's texts that runs embed: its tools for retrieval, their descriptions for the
        distractor rule, its subdomains to place each tool."""
        tools = list(seed.specs.values())
        return [*map(tool_text, tools), *(t.description for t in tools), *map(seed.subdomain_text, seed.scenario.subdomains)]

    def _subdomain_index(self, seed: Seed) -> dict[str, str]:
        """Each tool's closest subdomain by embedding similarity."""
        ctx = self.contexts[seed.slug]
        subs = seed.scenario.subdomains
        tools = list(seed.specs.values())
        sims = ctx.embeddings.tools(tools) @ ctx.embeddings.vectors(list(map(seed.subdomain_text, subs))).T
        return {t.name: subs[int(np.argmax(row))] for t, row in zip(tools, sims, strict=True)}

    def _scenario(self, seed: Seed, rng: random.Random, nested: bool = True, goal: Goal | None = None,
                  calls: int = 1, wanted: str | None = None) -> str:
        """Draw a scenario among those this seed (or its drawn goal) and the drawn shape make
        possible (withholding a tool needs a chain that nests; a goal in several user turns, two
        calls). Conversational scenarios are drawn only in a run that asks for them. A `wanted`
        one (a held-out split steered to a category) is taken when possible."""
        possible = self.possible_scenarios(seed, nested, goal, calls)
        if wanted is not None and possible.get(wanted):
            return wanted
        weights = {**SCENARIO_WEIGHTS, **(CONVERSATION_WEIGHTS if self.config.conversations else {})}
        names = [s for s in weights if possible[s]]
        return rng.choices(names, weights=[weights[s] for s in names])[0]

    def possible_scenarios(self, seed: Seed, nested: bool = True, goal: Goal | None = None,
                           calls: int = 1) -> dict[str, bool]:
        """Which scenarios the seed (or its goal) and a shape (nesting or not, of `calls` calls) allow."""
        if goal is None:
            entries, pool = list(seed.toolbox.tools.values()), self.pool((seed.slug,))
            crosses = bool(self.partners[seed.slug])
        else:
            pool = self.goal_pool(seed, goal)
            entries = list(pool.entries.values())
            crosses = len(self.goal_toolboxes(seed, goal)) > 1 and any(
                pool.specs[a].toolbox != pool.specs[b].toolbox for a, b in pool.links)
        possible = {
            "plain": True,
            "canonicalisation": any("canonicalise" in e.tags for e in entries),
            "state_dependency": any(e.requires for e in entries),
            "insufficient_information": nested and bool(pool.links),
            "cross_domain": crosses,
            "ask_user": True,
            "multi_turn": calls > 1,
        }
        return possible

    def balance_on(self, kept: Counter[str], used: Counter[str], run_size: float = 0.0,
                   shapes: Counter[str] | None = None) -> None:
        """The kept instances per domain and calls per tool the next attempts balance against
        (where this composer balances at all), and the run's kept instances projected to the
        attempt (the tally may not count the latest: a share is of those)."""
        if self.kept is not None:
            self.kept = kept
        if self.used is not None:
            self.used = used
        if self.shapes is not None and shapes is not None:
            self.shapes = shapes
        self.run_size = max(run_size, sum(kept.values()))  # from the tally alone: a resumed run sees the same

    def _target(self, rng: random.Random, attempt: int, first: bool, side: Side | None = None) -> Seed:
        """The seed to fill the shape with: drawn at random, except that the first try of an
        attempt goes to a seed furthest below its share of the run, if any is still worth it.
        A side of a held-out split draws among its own seeds."""
        targets = self.targets if side is None or side.seeds is None else [t for t in self.targets if t.slug in side.seeds]
        drawn = targets[0] if len(targets) == 1 else rng.choice(targets)
        if not first or self.kept is None:
            return drawn
        floor = MIN_SEED_SHARE * (self.run_size + 1)
        behind = [t for t in targets
                  if self.kept[t.domain] < floor and (self.kept[t.domain] + 1) * GIVE_UP_AFTER > attempt]
        if not behind:
            return drawn
        # Ties go to a random one: attempts balancing against the same tally (a block's window)
        # would otherwise all try the same seed first.
        lowest = min(self.kept[t.domain] for t in behind)
        return rng.choice([t for t in behind if self.kept[t.domain] == lowest])

    def compose(self, rng: random.Random, attempt: int, side: Side | None = None) -> Composed | NotComposed:
        """Draw one shape, then fill it: several tool draws per seed and scenario, and several
        seeds and scenarios. Drawing another shape after a failed fill would favour the shapes
        that are easy to fill over the drawn mix; keeping the shape keeps the run's shapes
        close to it. A `side` of a held-out split keeps to its seeds and tools."""
        if not self.shape_rows:
            return NotComposed("compose: no shape fits the depth bounds")
        shape = side.shape if side is not None and side.shape else sample_shape(rng, self.shape_rows, self.shapes,
                                                                                 self.run_size)
        n, edges = parse_shape(shape)
        for fill in range(FILL_TRIES):
            seed = self._target(rng, attempt, first=fill == 0, side=side)
            goal = None
            if seed.toolbox.goals:
                fit = [g for g in sorted(seed.toolbox.goals.values(), key=lambda g: g.name)
                       if _on_side(seed, g, side) and self.goal_reaches(seed, g, n, edges)]
                if not fit:
                    continue
                goal = rng.choice(fit)
            scenario = self._scenario(seed, rng, nested=bool(edges), goal=goal, calls=n,
                                      wanted=side.scenario if side is not None else None)
            if goal is not None:
                toolboxes, pool = self.goal_toolboxes(seed, goal), self.goal_pool(seed, goal)
            else:
                toolboxes = [seed.slug]
                if scenario == "cross_domain":
                    toolboxes.append(rng.choice(self.partners[seed.slug]))
                pool = self.pool(tuple(toolboxes))
            if n > len(pool.specs):
                continue
            allowed, accept = self._constraints(seed, scenario, toolboxes, goal)
            allowed = _keep_to(side, allowed)
            # A side steered to the goals that fill its shape draws their tools at random, as their
            # trial did: the run's least-used order would retry the wiring the checks refuse.
            used = self.used if side is None or side.goals is None else None
            for _ in range(TOOL_TRIES):
                chain = compose(pool, n, edges, rng, allowed=allowed, accept=accept, used=used)
                if chain is not None and (scenario != "cross_domain" or self._crosses(chain)):
                    composed = self._finish(seed, chain, toolboxes, scenario, rng, goal)
                    if composed is not None:
                        return composed
        return NotComposed(f"compose: the drawn shape {shape} could not be filled")

    def _crosses(self, chain: Chain) -> bool:
        """A cross-domain chain passes a value from one seed to another (through a bridge)."""
        toolbox = [self.specs[c.tool].toolbox for c in chain.calls]
        return any(toolbox[i] != toolbox[j] for i, j in chain.graph().edges)

    def _constraints(self, seed: Seed, scenario: str, toolboxes: list[str], goal: Goal | None = None):
        tags = {name: seed.toolbox.tools[name].tags for name in seed.specs}
        checks = []
        if scenario == "canonicalisation":
            checks.append(lambda tools: any("canonicalise" in tags.get(t, ()) for t in tools))
        if scenario == "state_dependency":
            checks.append(lambda tools: any(t in tags and seed.toolbox.tools[t].requires for t in tools))
        if scenario == "cross_domain" and goal is None:
            checks.append(lambda tools: {self.specs[t].toolbox for t in tools} == set(toolboxes))
        if goal is not None and len(toolboxes) > 1:  # a goal borrowing another seed's tools still uses its own
            checks.append(lambda tools: any(self.specs[t].toolbox == seed.slug for t in tools))
        if self.subdomain:
            index = self.subdomains[seed.slug]
            checks.append(lambda tools: any(index.get(t) == self.subdomain for t in tools))
        allowed = None
        if scenario == "canonicalisation":
            allowed = lambda j, name: j > 0 or "canonicalise" in tags.get(name, ())  # noqa: E731
        return allowed, (lambda tools: all(c(tools) for c in checks)) if checks else None

    def _finish(self, seed: Seed, chain: Chain, toolboxes: list[str], scenario: str,
                rng: random.Random, goal: Goal | None = None) -> Composed | None:
        state: dict[str, dict[str, Any]] = {}
        withheld = None
        if scenario == "state_dependency":
            breakable = None if goal is None or goal.conditions is None else {f"{seed.slug}:{c}" for c in goal.conditions}
            fixed = StateFixes(self.seeds, dict(self.specs), rng, self.config.seed, breakable).apply(chain)
            if fixed:
                chain, state = fixed
        if scenario == "insufficient_information":
            withheld = tool_to_withhold(chain, self.specs, {n: e.tags for n, e in self.entries.items()}, rng)
            if withheld is None:
                return None
        index = self.subdomains[seed.slug]
        subs = Counter(index[c.tool] for c in chain.calls if c.tool in index)
        subdomain = self.subdomain or (subs.most_common(1)[0][0] if subs else seed.scenario.subdomains[0])
        if goal is not None:  # the world holds the toolboxes the chain uses, its own seed first
            used = {self.specs[c.tool].toolbox for c in chain.calls}
            toolboxes = [t for t in toolboxes if t == seed.slug or t in used]
        setup = WorldSetup(toolboxes=toolboxes, seed=self.config.seed, state=state)
        named = f"{seed.slug}:{goal.name}" if goal else ""
        record = {"domain": seed.slug, "scenario": scenario, "toolboxes": toolboxes, "state": state,
                  **({"goal": named} if goal else {})}
        return Composed(chain, self.specs, setup, seed.domain, subdomain, seed.slug, scenario, named, withheld,
                        record=record)


def _on_side(seed: Seed, goal: Goal, side: Side | None) -> bool:
    """A goal the side can serve: the held side's goals are whole (and among those that fill
    its shape, when it names them), the others' keep a tool."""
    if side is None:
        return True
    if side.goals is not None and f"{seed.slug}:{goal.name}" not in side.goals:
        return False
    if side.tools is not None:
        return set(goal.tools) <= side.tools
    return not set(goal.tools) <= side.avoid


def _keep_to(side: Side | None, allowed: Callable[[int, str], bool] | None) -> Callable[[int, str], bool] | None:
    """The composer's tool filter, narrowed to the tools a side may call."""
    if side is None or (side.tools is None and not side.avoid):
        return allowed
    return lambda j, name: ((allowed is None or allowed(j, name)) and name not in side.avoid
                            and (side.tools is None or name in side.tools))


def reach_of(pool: ToolPool) -> tuple[int, int, int, int]:
    """(tools, longest link path in calls, widest fan-in, widest fan-out) of a pool's composable
    tools: bounds on the shapes it can fill, from its link graph alone."""
    names = [n for n in pool.specs if not NEVER_COMPOSED & set(pool.entry(n).tags if pool.entry(n) else ())]
    feeds = {n: sorted({b for (a, b) in pool.links if a == n and b in names}) for n in names}
    fan_in = max((min(len({a for (a, b) in pool.links if b == n and a in names}),
                      len({p for (a, b), pairs in pool.links.items() if b == n and a in names for _, p in pairs}))
                  for n in names), default=0)
    fan_out = max((len(v) for v in feeds.values()), default=0)

    def longest(node: str, seen: frozenset[str]) -> int:
        if len(seen) >= MAX_PATH:
            return len(seen)
        return max((longest(b, seen | {b}) for b in feeds[node] if b not in seen), default=len(seen))

    path = max((longest(n, frozenset({n})) for n in names), default=0)
    return len(names), path, fan_in, fan_out
