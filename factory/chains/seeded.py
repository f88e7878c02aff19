"""Chains from the seed library: the graph composer's backend of the compose stage.

For one attempt it draws a target seed and a scenario (plain, canonicalisation, state
dependency, insufficient information, cross-domain), fills a nesting shape with that seed's
tools (and a linked seed's, for cross-domain chains), and sets the scenario up: fix-up calls
for a broken world state, a withheld tool whose value nothing else can give.

With several target seeds (`--domain all`) and attempts run in order (offline), a seed whose
kept instances fall below MIN_SEED_SHARE of the run is tried first, so that seeds whose tools
fill few shapes (calendar, 1 drawn shape in 4) still get their share; a seed that keeps nothing
is given up after GIVE_UP_AFTER attempts per instance it kept, so it cannot stall the run.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from factory.chains.composer import can_feed, compose
from factory.chains.pool import ToolPool, pool_of
from factory.chains.shapes import candidates, sample_shape
from factory.checks.context import CheckContext
from factory.embeddings import tool_text
from factory.records import Chain, GenerateConfig, ToolSpec, WorldSetup, parse_shape
from factory.scenarios import SCENARIO_WEIGHTS, StateFixes, tool_to_withhold
from factory.seeds import Seed

FILL_TRIES = 4  # seeds and scenarios tried per attempt for the drawn shape
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
        # Kept instances per domain, counted only when attempts run in order (`balance`): their
        # outcome before an attempt is then the same whenever the run is resumed.
        self.kept: Counter[str] | None = Counter() if balance and len(targets) > 1 else None
        self.specs: dict[str, ToolSpec] = {n: s for seed in seeds.values() for n, s in seed.specs.items()}
        self.entries = {n: e for seed in seeds.values() for n, e in seed.toolbox.tools.items()}
        self._pools: dict[tuple[str, ...], ToolPool] = {}
        self._links: dict[tuple[str, str], list[tuple[int, str]]] = {}  # shared by the pools above
        self.partners = {t.slug: self._partners(t) for t in targets}
        largest = max(len(self.pool((t.slug,) if p == t.slug else (t.slug, p)).specs)
                      for t in targets for p in [t.slug, *self.partners[t.slug]])
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

    def _scenario(self, seed: Seed, rng: random.Random, nested: bool = True) -> str:
        """Draw a scenario among those this seed and the drawn shape make possible (withholding
        a tool needs a chain that nests)."""
        possible = {
            "plain": True,
            "canonicalisation": any("canonicalise" in e.tags for e in seed.toolbox.tools.values()),
            "state_dependency": bool(seed.toolbox.conditions),
            "insufficient_information": nested and bool(self.pool((seed.slug,)).links),
            "cross_domain": bool(self.partners[seed.slug]),
        }
        names = [s for s in SCENARIO_WEIGHTS if possible[s]]
        return rng.choices(names, weights=[SCENARIO_WEIGHTS[s] for s in names])[0]

    def count_kept(self, domain: str) -> None:
        """An instance of this domain was kept (in attempt order)."""
        if self.kept is not None:
            self.kept[domain] += 1

    def _target(self, rng: random.Random, attempt: int, first: bool) -> Seed:
        """The seed to fill the shape with: drawn at random, except that the first try of an
        attempt goes to the seed furthest below its share of the run, if any is still worth it."""
        drawn = self.targets[0] if len(self.targets) == 1 else rng.choice(self.targets)
        if not first or self.kept is None:
            return drawn
        floor = MIN_SEED_SHARE * (sum(self.kept.values()) + 1)
        behind = [t for t in self.targets
                  if self.kept[t.domain] < floor and (self.kept[t.domain] + 1) * GIVE_UP_AFTER > attempt]
        return min(behind, key=lambda t: self.kept[t.domain]) if behind else drawn

    def compose(self, rng: random.Random, attempt: int) -> Composed | NotComposed:
        """Draw one shape, then fill it: several tool draws per seed and scenario, and several
        seeds and scenarios. Drawing another shape after a failed fill would favour the shapes
        that are easy to fill over the drawn mix; keeping the shape keeps the run's shapes
        close to it."""
        if not self.shape_rows:
            return NotComposed("compose: no shape fits the depth bounds")
        shape = sample_shape(rng, self.shape_rows)
        n, edges = parse_shape(shape)
        for fill in range(FILL_TRIES):
            seed = self._target(rng, attempt, first=fill == 0)
            scenario = self._scenario(seed, rng, nested=bool(edges))
            toolboxes = [seed.slug]
            if scenario == "cross_domain":
                toolboxes.append(rng.choice(self.partners[seed.slug]))
            pool = self.pool(tuple(toolboxes))
            if n > len(pool.specs):
                continue
            allowed, accept = self._constraints(seed, scenario, toolboxes)
            for _ in range(TOOL_TRIES):
                chain = compose(pool, n, edges, rng, allowed=allowed, accept=accept)
                if chain is not None and (scenario != "cross_domain" or self._crosses(chain)):
                    composed = self._finish(seed, chain, toolboxes, scenario, rng)
                    if composed is not None:
                        return composed
        return NotComposed(f"compose: the drawn shape {shape} could not be filled")

    def _crosses(self, chain: Chain) -> bool:
        """A cross-domain chain passes a value from one seed to another (through a bridge)."""
        toolbox = [self.specs[c.tool].toolbox for c in chain.calls]
        return any(toolbox[i] != toolbox[j] for i, j in chain.graph().edges)

    def _constraints(self, seed: Seed, scenario: str, toolboxes: list[str]):
        tags = {name: seed.toolbox.tools[name].tags for name in seed.specs}
        checks = []
        if scenario == "canonicalisation":
            checks.append(lambda tools: any("canonicalise" in tags.get(t, ()) for t in tools))
        if scenario == "state_dependency":
            checks.append(lambda tools: any(t in tags and seed.toolbox.tools[t].requires for t in tools))
        if scenario == "cross_domain":
            checks.append(lambda tools: {self.specs[t].toolbox for t in tools} == set(toolboxes))
        if self.subdomain:
            index = self.subdomains[seed.slug]
            checks.append(lambda tools: any(index.get(t) == self.subdomain for t in tools))
        allowed = None
        if scenario == "canonicalisation":
            allowed = lambda j, name: j > 0 or "canonicalise" in tags.get(name, ())  # noqa: E731
        return allowed, (lambda tools: all(c(tools) for c in checks)) if checks else None

    def _finish(self, seed: Seed, chain: Chain, toolboxes: list[str], scenario: str,
                rng: random.Random) -> Composed | None:
        state: dict[str, dict[str, Any]] = {}
        withheld = None
        if scenario == "state_dependency":
            fixed = StateFixes(self.seeds, dict(self.specs), rng, self.config.seed).apply(chain)
            if fixed:
                chain, state = fixed
        if scenario == "insufficient_information":
            withheld = tool_to_withhold(chain, self.specs, {n: e.tags for n, e in self.entries.items()}, rng)
            if withheld is None:
                return None
        index = self.subdomains[seed.slug]
        subs = Counter(index[c.tool] for c in chain.calls if c.tool in index)
        subdomain = self.subdomain or (subs.most_common(1)[0][0] if subs else seed.scenario.subdomains[0])
        setup = WorldSetup(toolboxes=toolboxes, seed=self.config.seed, state=state)
        record = {"domain": seed.slug, "scenario": scenario, "toolboxes": toolboxes, "state": state}
        return Composed(chain, self.specs, setup, seed.domain, subdomain, seed.slug, scenario, withheld, record=record)
