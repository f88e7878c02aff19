"""The offline line of flow for one attempt: seed → chain → trace → query → milestones →
distractors → checks. Attempt k depends only on (run seed, k), so a resumed run rebuilds
exactly the candidates an uninterrupted run would have built."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from factory import __version__
from factory.chains.composer import ToolPool, compose
from factory.chains.shapes import candidates, sample_shape
from factory.checks import blocking_failures, run_checks
from factory.checks.context import CheckContext
from factory.distractors import pick_distractors
from factory.milestones import derive_milestones, withheld_tool_minefields
from factory.queries import template_query
from factory.records import (
    Chain,
    GenerateConfig,
    Instance,
    Milestone,
    Provenance,
    Reject,
    ToolSpec,
    Trace,
    WorldSetup,
    parse_shape,
)
from factory.scenarios import SCENARIO_WEIGHTS, StateFixes, withheld_candidates
from factory.seeds import Seed
from factory.simulator import Simulator, ToolCrash, base_world, run_chain

SHAPE_TRIES = 6  # shapes tried per attempt before the attempt is rejected as unfillable


@dataclass
class Composed:
    chain: Chain
    toolboxes: list[str]
    scenario: str
    state: dict[str, dict[str, Any]] = field(default_factory=dict)
    withheld: str | None = None


@dataclass
class Outcome:
    """What one attempt produced: the kept instance or a reject, plus per-stage records."""

    attempt: int
    instance: Instance | None = None
    reject: Reject | None = None
    stages: dict[str, dict[str, Any]] = field(default_factory=dict)


class Generator:
    """Builds and checks candidates for a run; holds what is computed once per run."""

    def __init__(self, config: GenerateConfig, seeds: dict[str, Seed], targets: list[Seed],
                 subdomain: str | None, contexts: dict[str, CheckContext]):
        self.config, self.seeds, self.targets, self.subdomain, self.contexts = config, seeds, targets, subdomain, contexts
        self.specs: dict[str, ToolSpec] = {n: s for seed in seeds.values() for n, s in seed.specs.items()}
        self.values = {
            slug: {kind: fn(base_world(seed, config.seed)) for kind, fn in seed.toolbox.values.items()}
            for slug, seed in seeds.items()
        }
        self.joint = {
            slug: {kinds: fn(base_world(seed, config.seed)) for kinds, fn in seed.toolbox.joint_values.items()}
            for slug, seed in seeds.items()
        }
        self._pools: dict[tuple[str, ...], ToolPool] = {}
        self.partners = {t.slug: self._partners(t) for t in targets}
        self.shape_rows = candidates(config.min_depth, config.max_depth, config.shape)
        self.subdomains = {t.slug: self._subdomain_index(t) for t in targets}

    def pool(self, toolboxes: tuple[str, ...]) -> ToolPool:
        """The tools of these toolboxes with their links, built once per run."""
        if toolboxes not in self._pools:
            specs = {n: s for slug in toolboxes for n, s in self.seeds[slug].specs.items()}
            self._pools[toolboxes] = ToolPool(specs, self.values, self.joint)
        return self._pools[toolboxes]

    def _partners(self, seed: Seed) -> list[str]:
        """Seeds whose tools link with this seed's tools in either direction (cross-domain chains)."""
        own = set(seed.specs)
        return [
            slug for slug in sorted(self.seeds)
            if slug != seed.slug and any((a in own) != (b in own) for a, b in self.pool((seed.slug, slug)).links)
        ]

    def _subdomain_index(self, seed: Seed) -> dict[str, str]:
        """Each tool's closest subdomain by embedding similarity."""
        ctx = self.contexts[seed.slug]
        subs = seed.scenario.subdomains
        tools = list(seed.specs.values())
        sims = ctx.embeddings.tools(tools) @ ctx.embeddings.vectors([f"{seed.domain}: {s}" for s in subs]).T
        return {t.name: subs[int(np.argmax(row))] for t, row in zip(tools, sims, strict=True)}

    # --- composing --------------------------------------------------------------------

    def _scenario(self, seed: Seed, rng: random.Random) -> str:
        """Draw a scenario among those this seed and the depth bounds make possible."""
        possible = {
            "plain": True,
            "canonicalisation": any("canonicalise" in e.tags for e in seed.toolbox.tools.values()),
            "state_dependency": bool(seed.toolbox.conditions),
            "insufficient_information": self.config.max_depth >= 2 and bool(self.pool((seed.slug,)).links),
            "cross_domain": bool(self.partners[seed.slug]),
        }
        names = [s for s in SCENARIO_WEIGHTS if possible[s]]
        return rng.choices(names, weights=[SCENARIO_WEIGHTS[s] for s in names])[0]

    def _compose(self, seed: Seed, scenario: str, rng: random.Random) -> Composed | None:
        toolboxes = [seed.slug]
        if scenario == "cross_domain":
            toolboxes.append(rng.choice(self.partners[seed.slug]))
        pool = self.pool(tuple(toolboxes))
        allowed, accept = self._constraints(seed, scenario, toolboxes)
        rows = [row for row in self.shape_rows if row[1] <= len(pool.specs)]
        for _ in range(SHAPE_TRIES if rows else 0):
            n, edges = parse_shape(sample_shape(rng, rows))
            if scenario == "insufficient_information" and not edges:
                continue
            chain = compose(pool, n, edges, rng, allowed=allowed, accept=accept)
            if chain is not None:
                return self._finish(chain, toolboxes, scenario, rng)
        return None

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

    def _finish(self, chain: Chain, toolboxes: list[str], scenario: str, rng: random.Random) -> Composed:
        composed = Composed(chain=chain, toolboxes=toolboxes, scenario=scenario)
        if scenario == "state_dependency":
            fixed = StateFixes(self.seeds, dict(self.specs), rng, self.config.seed).apply(chain)
            if fixed:
                composed.chain, composed.state = fixed
        if scenario == "insufficient_information":
            composed.withheld = chain.calls[rng.choice(withheld_candidates(chain))].tool
        return composed

    # --- one attempt ------------------------------------------------------------------

    def attempt(self, k: int) -> Outcome:
        rng = random.Random(f"{self.config.seed}:{k}")
        seed = self.targets[0] if len(self.targets) == 1 else rng.choice(self.targets)
        scenario = self._scenario(seed, rng)
        outcome = Outcome(attempt=k)
        composed = self._compose(seed, scenario, rng)
        if composed is None:
            outcome.reject = Reject(attempt=k, stage="compose", reasons=[f"compose: no {seed.slug} tools fit the drawn shapes ({scenario})"])
            return outcome
        outcome.stages["chains"] = {"domain": seed.slug, "scenario": scenario, "toolboxes": composed.toolboxes,
                                    "state": composed.state, "chain": composed.chain.model_dump(mode="json")}
        setup = WorldSetup(toolboxes=composed.toolboxes, seed=self.config.seed, state=composed.state)
        try:
            trace = run_chain(composed.chain, self.specs, Simulator(self.seeds, setup))
        except ToolCrash as exc:
            outcome.reject = Reject(attempt=k, stage="execution", reasons=[f"execution: {exc}"])
            return outcome
        outcome.stages["traces"] = {"trace": trace.model_dump(mode="json")}
        failed = next((s for s in trace.steps if s.error), None)
        if failed:
            outcome.reject = Reject(attempt=k, stage="execution", reasons=[f"execution: {failed.tool}: {failed.error}"])
            return outcome
        instance = self._instance(seed, composed, setup, trace, rng, k)
        outcome.stages["queries"] = {"query": instance.query, "variants": instance.query_variants}
        results = run_checks(instance, self.contexts[seed.slug])
        instance = instance.model_copy(update={"checks": results})
        failures = blocking_failures(results)
        if failures:
            reasons = [f"{r.name}: {r.reason}" for r in failures]
            outcome.reject = Reject(attempt=k, stage="checks", reasons=reasons, checks=results, instance=instance)
        else:
            outcome.instance = instance
        return outcome

    def _instance(self, seed: Seed, composed: Composed, setup: WorldSetup, trace: Trace,
                  rng: random.Random, k: int) -> Instance:
        chain = composed.chain
        entries = {n: e for s in self.seeds.values() for n, e in s.toolbox.tools.items()}
        queries = template_query(chain, self.specs, entries)
        gold = list(dict.fromkeys(c.tool for c in chain.calls))
        gold_specs = [self.specs[t] for t in gold]
        policy = self.contexts[seed.slug].policy.checks["distractors"]
        distractors = pick_distractors(
            gold_specs, list(self.specs.values()), self.config.distractors, rng, self.contexts[seed.slug].embeddings,
            min_name_distance=policy.get("min_name_distance"), max_similarity=policy.get("max_description_similarity"),
        )
        offered = [s for s in gold_specs if s.name != composed.withheld] + distractors
        rng.shuffle(offered)
        milestones = derive_milestones(chain, trace)
        minefields = []
        withheld = [self.specs[composed.withheld]] if composed.withheld else []
        if composed.withheld:
            minefields = withheld_tool_minefields(chain, trace, composed.withheld)
            missing = self.specs[composed.withheld].description.rstrip(".").lower()
            milestones = [Milestone(index=0, kind="answer", description=f"say the task cannot be completed: no available tool can {missing}")]
        index = self.subdomains[seed.slug]
        subs = Counter(index[c.tool] for c in chain.calls if c.tool in index)
        subdomain = self.subdomain or (subs.most_common(1)[0][0] if subs else seed.scenario.subdomains[0])
        return Instance(
            domain=seed.domain,
            subdomain=subdomain,
            query=queries["template"],
            query_variants=queries,
            tools=offered,
            gold_tools=gold,
            withheld_tools=withheld,
            chain=chain,
            trace=trace,
            milestones=milestones,
            minefields=minefields,
            categories=self._categories(chain, composed),
            depth=chain.depth(),
            shape=chain.shape(),
            world=setup,
            provenance=Provenance(generator="offline", seed=self.config.seed, attempt=k,
                                  factory_version=__version__, policy=self.config.policy),
        ).with_id()

    def _categories(self, chain: Chain, composed: Composed) -> list[str]:
        tasks = [c for c in chain.calls if c.fixes is None]
        tags = [
            "single_tool_call" if len(tasks) == 1 else "multiple_tool_call",
            "nested" if chain.graph().number_of_edges() else "",
            "canonicalisation" if any("canonicalise" in self._entry(c.tool).tags for c in chain.calls) else "",
            "state_dependency" if composed.state else "",
            "insufficient_information" if composed.withheld else "",
            "cross_domain" if len({self.specs[c.tool].toolbox for c in chain.calls}) > 1 else "",
        ]
        return [t for t in tags if t]

    def _entry(self, tool: str):
        return self.seeds[self.specs[tool].toolbox].toolbox.tools[tool]
