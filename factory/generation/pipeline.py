"""The line of flow for one attempt: compose → execute → query (the gold calls then take the
order the request speaks of them in) → milestones → distractors → checks. Each stage has its
backends: chains from the seed library's composer or from a model's chain writer; execution by
seed code, recorded answers, a model simulator or the typed mock; queries from the seeds'
phrasings or from a model. Attempt k depends only on (run seed, k), the call cache and, offline,
the tally of its block: the seeds, tools and phrasings of the instances the run kept before
the block's window (`Tally`), plus those of the candidates its own block passed before it. So
any number of workers, on any machines, and a resumed run build exactly the candidates one
uninterrupted process builds."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from factory import __version__
from factory.chains.seeded import Composed, NotComposed, SeedComposer
from factory.checks import blocking_failures, run_checks
from factory.checks.context import CheckContext
from factory.checks.faithfulness import asked_in, free_arguments, own_words, shows_a_literal
from factory.instances.conversations import CONVERSATIONAL, Converse, plan, split_goal
from factory.instances.distractors import alternative_to_gold, pick_distractors, twin_of_gold
from factory.instances.milestones import derive_milestones, unsolvable_milestones, withheld_tool_minefields
from factory.instances.scenarios import FixContext, fix_context, needed_kinds, producers_of
from factory.queries import Worded, template_query
from factory.queries.order import in_request_order
from factory.queries.values import DateStyle
from factory.queries.wording import asked_calls, mark_asked
from factory.records import (
    Chain,
    GenerateConfig,
    Instance,
    Provenance,
    RecordedCall,
    Reject,
    ToolSpec,
    Trace,
)
from factory.seeds.record import Seed
from factory.seeds.twins import library_rule
from factory.toolbox import Goal
from factory.world.simulator import Simulator, ToolBackend, ToolCrash, run_chain, without_echoes

# Offline, attempts run in blocks of BLOCK, each block in order in one process. A block
# balances against the instances kept before the LAG blocks that end with it (plus its own),
# so up to LAG blocks can be computed at once while the run writes earlier ones: the
# parallelism a run can use, at the price of balancing against a tally up to
# BLOCK * LAG attempts old.
BLOCK = 8
LAG = 8


def block_of(attempt: int) -> int:
    return attempt // BLOCK


def tally_cutoff(block: int) -> int:
    """The attempts whose kept instances a block balances against: those before this one."""
    return max(0, (block - LAG + 1) * BLOCK)


@dataclass
class Tally:
    """What offline attempts balance against: kept instances per seed domain, calls per tool
    (the composer tries the least-used tools first) and (tool, phrasing) pairs of the kept
    requests (each ask takes a phrasing used least)."""

    domains: Counter = field(default_factory=Counter)
    tools: Counter = field(default_factory=Counter)
    phrasings: Counter = field(default_factory=Counter)
    shapes: Counter = field(default_factory=Counter)  # kept instances per nesting shape
    # The gold tool lists kept: a worker embeds a request only where the duplicate check will
    # compare it with another (an optimisation: it changes no output).
    gold: set = field(default_factory=set)
    counted: tuple[int, int] = (0, 0)  # (attempts, kept instances) of the run the tally covers

    def add(self, instance: Instance, phrasings: Iterable[Sequence[str]]) -> None:
        self.domains[instance.domain] += 1
        self.tools.update(c.tool for c in instance.chain.calls if c.fixes is None)
        self.phrasings.update((tool, text) for tool, text in phrasings)
        self.shapes[instance.shape] += 1
        self.gold.add(tuple(instance.gold_tools))

    def copy(self) -> Tally:
        return Tally(Counter(self.domains), Counter(self.tools), Counter(self.phrasings), Counter(self.shapes),
                     set(self.gold), self.counted)

    def run_size(self, attempt: int) -> float:
        """The instances the run is expected to have kept before `attempt`: those counted and,
        at their rate, those of the attempts since (at least those its block kept)."""
        attempts, kept = self.counted
        projected = kept + (attempt - attempts) * kept / attempts if attempts else 0.0
        return max(projected, float(sum(self.domains.values())))


class Composer(Protocol):
    def compose(self, rng: random.Random, attempt: int) -> Composed | NotComposed: ...


@dataclass
class ModelStages:
    """The backend each stage runs on, chosen once per run: a run's model gives a DSPy LM per
    attempt (its own sample of a repeated prompt) and the stages that use one; any stage left
    None runs offline (`OFFLINE`: every stage does)."""

    label: str  # the model's name, for provenance
    lm_for: Callable[[int], Any] | None = None  # None: no model
    query_writer: Any = None  # factory.queries.model_writer.QueryWriter; None: the seeds' phrasings
    simulator: ToolBackend | None = None  # None: seed code, recorded answers and the typed mock
    prompts: dict[str, str] = field(default_factory=dict)  # prompt file → content hash

    @property
    def offline(self) -> bool:
        return self.lm_for is None


OFFLINE = ModelStages(label="offline")


@dataclass
class ComposedRecord:
    """What chains.jsonl keeps of an attempt: the composer's own record and the chain."""

    record: dict[str, Any]
    chain: Chain

    def row(self) -> dict[str, Any]:
        return {**self.record, "chain": self.chain.model_dump(mode="json")}


@dataclass
class WordedRecord:
    """What queries.jsonl keeps of an attempt: the request, its variants, the (tool, phrasing)
    pairs it used (the tally counts them) and the calls in the order it speaks of them."""

    query: str
    variants: dict[str, str]
    phrasings: list[tuple[str, str]]
    mentions: list[int]

    def row(self) -> dict[str, Any]:
        return {"query": self.query, "variants": self.variants, "phrasings": self.phrasings, "mentions": self.mentions}


@dataclass
class StageRecords:
    """An attempt's record of each stage it got through, one line each in the run's files."""

    chains: ComposedRecord | None = None
    traces: Trace | None = None
    queries: WordedRecord | None = None

    def rows(self) -> dict[str, dict[str, Any]]:
        """The lines, by file stem, in stage order."""
        rows = {"chains": self.chains.row() if self.chains else None,
                "traces": {"trace": self.traces.model_dump(mode="json")} if self.traces else None,
                "queries": self.queries.row() if self.queries else None}
        return {name: row for name, row in rows.items() if row is not None}


@dataclass
class Outcome:
    """What one attempt produced: the kept instance or a reject, plus per-stage records."""

    attempt: int
    instance: Instance | None = None
    reject: Reject | None = None
    stages: StageRecords = field(default_factory=StageRecords)
    vectors: dict[str, Any] = field(default_factory=dict)  # query embeddings a worker computed (written nowhere)

    @property
    def phrasings(self) -> list[tuple[str, str]]:
        """The (tool, phrasing) pairs of its request, which a kept instance adds to the tally."""
        return self.stages.queries.phrasings if self.stages.queries else []


class Generator:
    """Builds and checks candidates for a run."""

    def __init__(self, config: GenerateConfig, composer: Composer, seeds: dict[str, Seed],
                 contexts: dict[str | None, CheckContext], stages: ModelStages = OFFLINE):
        self.config, self.composer, self.seeds, self.contexts, self.stages = config, composer, seeds, contexts, stages
        self.entries = {n: e for seed in seeds.values() for n, e in seed.toolbox.tools.items()}
        self.joint_kinds = sorted({kinds for seed in seeds.values() for kinds in seed.toolbox.joint_values})
        self.written = {slug: seed.toolbox.written for slug, seed in seeds.items()}
        # Offline, attempts run in blocks (`Tally`), so each request can take the phrasings the
        # run's kept requests have used least; with a model they run in parallel and draw.
        self.phrasings: Counter | None = Counter() if stages.offline else None
        self.contamination: Any = None  # factory.checks.contamination.ContaminationIndex of --exclude-from
        self.splits: Any = None  # factory.generation.splits.SplitPlan of --splits

    @property
    def balanced(self) -> bool:
        """Whether attempts balance against a tally (offline) or draw (with a model)."""
        return self.stages.offline

    def use_model(self, stages: ModelStages) -> None:
        """Run the stages on a model from now on; attempts then draw phrasings instead of balancing."""
        self.stages, self.phrasings = stages, None

    def block(self, block: int, tally: Tally, start: int = 0, limit: int = 1 << 62) -> Iterator[Outcome]:
        """The outcomes of a block's attempts from `start` on (before `limit`), computed in order
        from its first: each candidate that passes its checks joins the block's own tally.
        `tally` is the run's at `tally_cutoff(block)`; it is not changed."""
        tally = tally.copy()
        for k in range(block * BLOCK, min((block + 1) * BLOCK, limit)):
            outcome = self.attempt(k, tally)
            if outcome.instance is not None:
                tally.add(outcome.instance, outcome.phrasings)
            if k >= start:
                yield outcome

    def trial(self, side: Any, tries: int) -> bool:
        """Whether any of `tries` attempts composed for `side` (a held split's tools, and the shape
        or scenario it should fill) passes its checks as that shape or category. The attempts are
        numbered below the run's (their own seeds) and are not kept: they ask of a goal what
        composition alone cannot tell, whether its instances of a shape survive the checks."""
        for i in range(tries):
            made = self.attempt(-1 - i, side=side).instance
            if (made is not None and side.shape in (None, made.shape)
                    and (side.scenario is None or side.scenario in made.categories)):
                return True
        return False

    def attempt(self, k: int, tally: Tally | None = None, side: Any = None) -> Outcome:
        """One attempt; offline, it balances against `tally` (none: an empty one). A held-out
        split steers it to a side, unless `side` is given (a trial)."""
        if self.balanced:
            tally = tally or Tally()
            self.phrasings = tally.phrasings
            if isinstance(self.composer, SeedComposer):
                self.composer.balance_on(tally.domains, tally.tools, tally.run_size(k), tally.shapes)
        rng = random.Random(f"{self.config.seed}:{k}")
        outcome = Outcome(attempt=k)
        composed = self._compose(rng, k, side)
        if isinstance(composed, NotComposed):
            outcome.reject = Reject(attempt=k, stage="compose", reasons=[composed.reason], raw=composed.raw)
            return outcome
        composed.chain = mark_asked(composed.chain, self.entries, composed.specs, self.joint_kinds)
        if composed.draft:
            composed.chain = self._asked_as_written(composed)
        converse = self._converse(composed, k)
        outcome.stages.chains = ComposedRecord(composed.record, composed.chain)
        try:
            trace = self._execute(composed)
        except ToolCrash as exc:
            outcome.reject = Reject(attempt=k, stage="seed_defect", reasons=[f"seed defect: {exc}"])
            return outcome
        outcome.stages.traces = trace
        failed = next((s for s in trace.steps if s.error), None)
        if failed:
            outcome.reject = Reject(attempt=k, stage="execution", reasons=[f"execution: {failed.tool}: {failed.error}"])
            return outcome
        fixes, worded, first = self._word(composed, rng, converse)
        worded_trace = trace
        try:
            trace = self._in_request_order(composed, trace, worded.mentions)
        except ToolCrash as exc:
            outcome.reject = Reject(attempt=k, stage="seed_defect", reasons=[f"seed defect: {exc}"])
            return outcome
        composed.chain = without_echoes(composed.chain, composed.specs, trace.steps)
        instance, rejected = self._instance(composed, trace, rng, k, worded.variants, fixes.stated)
        if rejected is not None:
            outcome.reject = rejected
            return outcome
        if converse is not None:
            converse.asks, converse.opening = worded.asks, " ".join(fixes.sentences)
            instance = converse.build(instance, worded_trace, first, composed.specs) or instance
        outcome.stages.queries = WordedRecord(instance.query, instance.query_variants, worded.phrasings,
                                              worded.mentions)
        self._check(outcome, instance, composed.policy_slug)
        return outcome

    def _compose(self, rng: random.Random, k: int, side: Any) -> Composed | NotComposed:
        """The chain of attempt k; a held-out split steers it to a side unless `side` is given
        (a trial, which keeps the shape it asks for)."""
        trial = side is not None
        if not trial and self.splits:
            side = self.splits.side(k, in_order=self.phrasings is not None)
        composed = self.composer.compose(rng, k, side=side) if side else self.composer.compose(rng, k)
        if isinstance(composed, NotComposed) and side is not None and side.shape is not None and not trial:
            # the shape the held split lags in cannot be filled this time: any shape it can fill
            composed = self.composer.compose(rng, k, side=replace(side, shape=None))
        return composed

    def _word(self, composed: Composed, rng: random.Random, converse: Converse | None) -> tuple[FixContext, Worded, str | None]:
        """The fix-up sentences and the template request; for a conversation, also its first
        message: the same wording, drawn alike, with the held value left out."""
        style = DateStyle.draw(rng)  # one way of writing days and times for the whole request
        fixes = fix_context(composed.chain, composed.specs, self.seeds, rng, style)
        before = rng.getstate()
        word = dict(context=fixes.sentences, written=self.written, speaks_of=fixes.speaks_of,
                    goal=self._goal(composed.goal), style=style)
        worded = template_query(composed.chain, composed.specs, self.entries, self.joint_kinds, rng,
                                used=self.phrasings, **word)
        first = None
        if converse is not None and converse.held:
            again = random.Random()
            again.setstate(before)
            first = template_query(composed.chain, composed.specs, self.entries, self.joint_kinds, again,
                                   used=Counter(self.phrasings or {}), held=converse.held, **word).variants["template"]
        return fixes, worded, first

    def _check(self, outcome: Outcome, instance: Instance, policy_slug: str) -> None:
        """Run the checks: the outcome keeps the instance, or rejects it with the failures."""
        results = run_checks(instance, self.contexts[policy_slug])
        instance = instance.model_copy(update={"checks": results})
        failures = blocking_failures(results)
        if failures:
            reasons = [f"{r.name}: {r.reason}" for r in failures]
            outcome.reject = Reject(attempt=outcome.attempt, stage="checks", reasons=reasons, checks=results,
                                    instance=instance)
        else:
            outcome.instance = instance
            if not self.balanced:
                # The duplicate check runs in attempt order on the main thread; embedding the
                # query here, in parallel with other attempts, leaves it only a lookup. Offline
                # attempts run one at a time: the check embeds a query only if it needs it.
                self.contexts[policy_slug].embeddings.vectors([instance.query])

    def _asked_as_written(self, composed: Composed) -> Chain:
        """A model's own chain, asked as its request asks: the calls it ends on, its actions and
        each call the request asks for by the call's own words (`asked_in`), so their findings
        are answered (reading 80: a request asking for every step had the last one's answered);
        no call the request does not speak of (reading 83: a species' details nobody asked for,
        marked for a template wording the request does not have). A call with no word of its
        own keeps the mark the template wording gives it."""
        chain = composed.chain
        asked = set(asked_calls(chain, self.entries)) | set(asked_in(chain, composed.draft, composed.specs))
        judged = own_words(chain, composed.specs)
        return Chain(calls=[c.model_copy(update={"asked": i in asked or (c.asked and not judged[i])})
                            for i, c in enumerate(chain.calls)])

    def _converse(self, composed: Composed, k: int) -> Converse | None:
        """The conversation stage of a conversational scenario (None for the others, and for a
        chain it cannot be made of: the attempt then goes on as a single request). A goal in
        several turns needs two asked calls; the chain is marked so."""
        if composed.scenario not in CONVERSATIONAL:
            return None
        if composed.scenario == "multi_turn":
            split = split_goal(composed.chain)
            if split is None:
                return None
            composed.chain = split
        rng = random.Random(f"conversation:{self.config.seed}:{k}")
        held = plan(composed.scenario, composed.chain, composed.specs, self.entries, rng, self.joint_kinds)
        return None if held is None else Converse(composed.scenario, held, [], "", rng)

    def _goal(self, name: str) -> Goal | None:
        """The goal a composed chain serves ("seed-slug:goal name"), None for a seed without goals."""
        slug, _, goal = name.partition(":")
        seed = self.seeds.get(slug)
        return seed.toolbox.goals.get(goal) if seed is not None else None

    def _execute(self, composed: Composed) -> Trace:
        """Run the chain. Answers of tools without an implementation are recorded in the world
        setup, and the chain is run again on them, so the instance replays them exactly."""
        trace = run_chain(composed.chain, composed.specs,
                          Simulator(self.seeds, composed.setup, simulator=self.stages.simulator))
        answered = [RecordedCall(tool=s.tool, arguments=s.arguments, outputs=list(s.outputs.values()), source=s.backend)
                    for s in trace.steps if s.backend != "seed" and s.error is None]
        if not answered or not trace.ok:
            return trace
        known = {(r.tool, repr(r.arguments)) for r in composed.setup.recorded}
        recorded = [*composed.setup.recorded, *(r for r in answered if (r.tool, repr(r.arguments)) not in known)]
        composed.setup = composed.setup.model_copy(update={"recorded": recorded})
        return run_chain(composed.chain, composed.specs, Simulator(self.seeds, composed.setup))

    def _in_request_order(self, composed: Composed, trace: Trace, mentions: list[int]) -> Trace:
        """Put the chain's calls in the order the request speaks of them (`in_request_order`);
        the trace of the chain as it now runs."""
        if composed.draft and self.stages.query_writer is not None:
            return trace  # a model rewrites its own chain's draft, in the draft's order: the chain's own
        chain = composed.chain
        toolboxes = [composed.specs[c.tool].toolbox for c in chain.calls]
        actions = {i for i, c in enumerate(chain.calls)
                   if c.fixes is not None or "state_change" in getattr(self.entries.get(c.tool), "tags", ())}

        def run(moved: Chain) -> Trace:
            return run_chain(moved, composed.specs, Simulator(self.seeds, composed.setup))

        composed.chain, trace = in_request_order(chain, trace, mentions, run, toolboxes, actions)
        return trace

    def _instance(self, composed: Composed, trace: Trace, rng: random.Random, k: int, queries: dict[str, str],
                  stated: list[str]) -> tuple[Instance, Reject | None]:
        chain, specs = composed.chain, composed.specs
        query = queries["template"]
        gold = list(dict.fromkeys(c.tool for c in chain.calls))
        toolbox_of = {name: spec.toolbox for name, spec in specs.items()}
        minefields = []
        if composed.withheld:
            missing = specs[composed.withheld].description.rstrip(".").lower()
            milestones, _ = unsolvable_milestones(chain, trace, composed.withheld, f"no available tool can {missing}",
                                                  toolbox_of)
            minefields = withheld_tool_minefields(chain, trace, composed.withheld)
        else:
            milestones = derive_milestones(chain, trace, toolbox_of)
        instance = Instance(
            domain=composed.domain,
            subdomain=composed.subdomain,
            goal=composed.goal,
            query=query,
            query_variants=queries,
            tools=self._offered(composed, trace, gold, rng),
            gold_tools=gold,
            withheld_tools=[specs[composed.withheld]] if composed.withheld else [],
            stated_conditions=stated,
            chain=chain,
            trace=trace,
            milestones=milestones,
            minefields=minefields,
            categories=self._categories(composed),
            depth=chain.depth(),
            shape=chain.shape(),
            world=composed.setup,
            provenance=Provenance(generator=self.stages.label, seed=self.config.seed, attempt=k,
                                  factory_version=__version__, policy=self.config.policy, prompts=self.stages.prompts,
                                  repairs=list(composed.record.get("repairs", []))),
        )
        if self.stages.query_writer is not None:
            return self._model_query(instance, composed, k)
        return instance.with_id(), None

    def _model_query(self, instance: Instance, composed: Composed, k: int) -> tuple[Instance, Reject | None]:
        """The request in a model's words, from the offline wording (or the chain author's own)."""
        draft = composed.draft or instance.query
        names = [t.name for t in (*instance.tools, *instance.withheld_tools)]
        free = free_arguments(instance, self.contexts[composed.policy_slug])
        written = self.stages.query_writer(self.stages.lm_for(k), instance.chain, draft, names,
                                           random.Random(f"query:{self.config.seed}:{k}"), free, instance.trace,
                                           composed.specs, own=bool(composed.draft))
        if written.reason:
            return instance, Reject(attempt=k, stage="queries", reasons=[written.reason], raw=written.raw)
        variants = {**instance.query_variants, **written.variants}
        provenance = instance.provenance.model_copy(update={"repairs": [*instance.provenance.repairs, *written.repairs]})
        return instance.model_copy(update={"query": written.variants["model"], "query_variants": variants,
                                           "provenance": provenance}).with_id(), None

    def _offered(self, composed: Composed, trace: Trace, gold: list[str], rng: random.Random) -> list[ToolSpec]:
        """The gold tools (less a withheld one) and distractors: similar tools that are no
        alternative to a gold call nor a twin of a gold tool, show none of its literals as a
        documented example and, when a tool is withheld, produce nothing it gives."""
        chain, specs = composed.chain, composed.specs
        gold_specs = [specs[t] for t in gold]
        kinds = set()
        if composed.withheld:
            kinds = needed_kinds(chain, specs, next(i for i, c in enumerate(chain.calls) if c.tool == composed.withheld))

        ctx = self.contexts[composed.policy_slug]
        policy = ctx.policy.checks["distractors"]
        rule = library_rule(self.seeds, policy.get("twin_similarity"))

        def world() -> Simulator:
            return Simulator(self.seeds, composed.setup)

        def admissible(tool: ToolSpec) -> bool:
            return (not producers_of(kinds, [tool]) and not shows_a_literal(tool, chain)
                    and alternative_to_gold(tool, chain, trace, specs, world) is None
                    and twin_of_gold(tool, chain, trace, specs, world, rule, ctx.embeddings) is None)

        distractors = pick_distractors(
            gold_specs, list(specs.values()), self.config.distractors, rng, ctx.embeddings,
            min_name_distance=policy.get("min_name_distance"), max_similarity=policy.get("max_description_similarity"),
            admissible=admissible,
        )
        offered = [s for s in gold_specs if s.name != composed.withheld] + distractors
        rng.shuffle(offered)
        return offered

    def _categories(self, composed: Composed) -> list[str]:
        chain = composed.chain
        tasks = [c for c in chain.calls if c.fixes is None]
        tags = {name: entry.tags for name, entry in self.entries.items()}
        labels = [
            "single_tool_call" if len(tasks) == 1 else "multiple_tool_call",
            "nested" if chain.graph().number_of_edges() else "",
            "canonicalisation" if any("canonicalise" in tags.get(c.tool, ()) for c in chain.calls) else "",
            "state_dependency" if any(c.fixes for c in chain.calls) else "",
            "insufficient_information" if composed.withheld else "",
            "cross_domain" if len({composed.specs[c.tool].toolbox for c in chain.calls}) > 1 else "",
        ]
        return [label for label in labels if label]

