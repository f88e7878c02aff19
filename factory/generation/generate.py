"""A generation run: resolve the domain, resume or start the run directory, stream attempts
until n instances are kept, then export the dataset, the NesTools JSONL files and the manifest."""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple

from factory import __version__
from factory.chains.feasibility import check_fillable, check_shape_request
from factory.chains.pool import ToolPool
from factory.chains.seeded import SeedComposer
from factory.chains.shapes import MAX_CALLS, common_shapes
from factory.checks.contamination import ContaminationIndex
from factory.checks.context import CheckContext
from factory.checks.duplicates import DuplicateIndex
from factory.checks.policy import load_policy
from factory.config import Settings
from factory.dataset.card import dataset_card
from factory.dataset.export import CONVERSATIONS, DatasetWriter, NestoolsWriter
from factory.dataset.stats import Distribution, reject_reason_key, split_report
from factory.errors import ConfigError, FactoryWarning, RunError
from factory.generation.pipeline import BLOCK, Generator, Outcome
from factory.generation.runs import KeptInstances, RejectNote, RunDir, outcome_rows
from factory.generation.splits import SCENARIO, Side, SplitPlan, check_splits
from factory.generation.stages import RunModels, build_models
from factory.generation.workers import Engine, ProcessPool, RayCluster, Tallies, available_cores, outcomes
from factory.lm.embeddings import EmbeddingCache
from factory.records import CheckResult, GenerateConfig, Instance, Manifest, Reject, content_hash, parse_shape
from factory.seeds.library import (
    Seed,
    library_for,
    load_seeds,
    resolve_domain,
    slugify,
    unknown_domain_error,
)

ALL_DOMAINS = "all"
OFFLINE = "offline"
SEED_DEFECT = "seed defect: "  # how the pipeline words a reject for a crashing seed tool
TRIAL_TRIES = 10  # attempts of a held goal at a shape or scenario before the split counts it unable to fill it


@dataclass
class RunResult:
    path: Path
    manifest: Manifest
    instances: Sequence[Instance]  # read from instances.jsonl when asked for (factory.generation.runs.KeptInstances)
    resumed_from: int
    already_complete: bool = False  # every instance was kept by an earlier process: nothing was generated


def resolve_targets(query: str, seeds: dict[str, Seed]) -> tuple[list[Seed], str, str | None]:
    """(seeds to draw from, canonical domain name, subdomain) for a --domain value."""
    if query.strip().lower() == ALL_DOMAINS:
        return list(seeds.values()), ALL_DOMAINS, None
    match = resolve_domain(query, seeds)
    if match is None:
        raise unknown_domain_error(query, seeds)
    if match.unknown_subdomain:
        listed = "; ".join(f"{s.domain}: {', '.join(s.scenario.subdomains)}" for s in match.seeds)
        raise ConfigError(
            f"no seed lists subdomain {match.unknown_subdomain!r} of {match.name!r} ({listed}). Drop the subdomain to "
            "generate across the domain; other subdomains need model-driven generation, which this version does not include."
        )
    name = match.name + (f"/{match.subdomain}" if match.subdomain else "")
    if match.misspelled:
        warnings.warn(FactoryWarning(f"--domain {query!r} is taken as {name!r}, the closest seed domain"), stacklevel=2)
    return match.seeds, name, match.subdomain


def validate_config(config: GenerateConfig) -> None:
    if config.n < 1:
        raise ConfigError(f"-n must be at least 1, got {config.n}")
    if not 1 <= config.max_depth <= MAX_CALLS:
        raise ConfigError(f"--max-depth must be between 1 and {MAX_CALLS}, got {config.max_depth}")
    if not 1 <= config.min_depth <= config.max_depth:
        raise ConfigError(f"--min-depth must be between 1 and --max-depth ({config.max_depth}), got {config.min_depth}")
    if config.distractors < 0:
        raise ConfigError(f"--distractors must be 0 or more, got {config.distractors}")
    check_shape_request(config.min_depth, config.max_depth, config.shape)
    check_splits(config)


def run_dir_for(config: GenerateConfig, settings: Settings) -> Path:
    run_id = f"seed{config.seed}-n{config.n}-{content_hash(config.model_dump(mode='json'), 8)}"
    return settings.output_dir / slugify(config.domain) / run_id


def generate(
    config: GenerateConfig,
    settings: Settings,
    out: Path | None = None,
    *,
    fresh: bool = False,
    max_attempts: int | None = None,
    on_attempt: Callable[[int, int, str], None] | None = None,
    workers: int | None = None,
    ray: str | None = None,
) -> RunResult:
    """Run (or resume) generation; raises RunError when n instances cannot be reached.
    `on_attempt(kept, tried, note)` follows progress; the note tells model calls and cost.
    Offline, attempts are computed by `workers` processes (default: the cores available), or
    as Ray tasks with `ray` (a `ray.init` address: "local" starts a Ray for the run, "auto"
    joins the cluster this machine is part of); the output is the same bytes either way."""
    validate_config(config)
    if workers is not None and workers < 1:
        raise ConfigError(f"--workers must be at least 1, got {workers}")
    library = library_for(settings)
    broken = library.broken_named(config.domain)
    if broken is not None:  # asked for by name: its load error is the answer, not a skip
        raise broken
    seeds = library.seeds or load_seeds(settings.seeds_dir)
    with_model = config.generator != OFFLINE
    match = None if config.domain.strip().lower() == ALL_DOMAINS else resolve_domain(config.domain, seeds)
    if with_model and match is None and config.domain.strip().lower() != ALL_DOMAINS:
        return _generate_with_model_tools(config, settings, seeds, out, fresh, max_attempts, on_attempt)
    generator = _seed_generator(config, settings, seeds, with_model)
    config = generator.config
    composer = generator.composer
    assert isinstance(composer, SeedComposer)
    check_fillable(_pools(composer), config.domain, config.min_depth, config.max_depth, config.shape)
    with _claimed(RunDir(out or run_dir_for(config, settings)), fresh) as run:
        models = build_models(config, settings, run.path, seeds) if with_model else None
        if models is not None:
            for ctx in generator.contexts.values():
                ctx.judge = models.judge
            generator.use_model(models.stages)
        engine = None if models is not None else _engine(generator, settings, workers, ray)
        try:
            return _open_and_run(run, generator, fresh, max_attempts, on_attempt, models, engine)
        finally:
            if engine is not None:
                engine.close()


def offline_generator(config: GenerateConfig, settings: Settings) -> Generator:
    """The generator of an offline run, from its settings alone: what a Ray worker builds."""
    library = library_for(settings)
    return _seed_generator(config, settings, library.seeds or load_seeds(settings.seeds_dir), False)


def _seed_generator(config: GenerateConfig, settings: Settings, seeds: dict[str, Seed], with_model: bool) -> Generator:
    """Composer, checks and generator of a run on the seeds (its domain resolved in its config)."""
    targets, domain, subdomain = resolve_targets(config.domain, seeds)
    config = config.model_copy(update={"domain": domain})
    embeddings = EmbeddingCache(settings.embeddings_store)
    contexts: dict[str | None, CheckContext] = {
        t.slug: CheckContext(seeds, load_policy(settings.validators_dir, t.slug, config.policy), embeddings) for t in targets}
    composer = SeedComposer(config, seeds, targets, subdomain, contexts, balance=not with_model)
    generator = Generator(config, composer, seeds, contexts)
    generator.contamination = _references(config, embeddings)
    generator.splits = _split_plan(config, generator)
    return generator


def _engine(generator: Generator, settings: Settings, workers: int | None, ray: str | None) -> Engine | None:
    """Where the run's attempt blocks are computed: None for this process alone. A held-out
    split steers each attempt by the splits filled so far, which only one process knows."""
    if generator.splits is not None and generator.splits.hold_out in ("tools", "domains"):
        return None
    if ray is not None:
        recipe = {"config": generator.config.model_dump(mode="json"), "settings": settings.model_dump(mode="json")}
        return RayCluster(ray, recipe, offline_generator)
    workers = available_cores() if workers is None else workers
    # A few instances are not worth forking for (nor loading the model the workers share).
    return ProcessPool(generator, workers) if workers > 1 and generator.config.n > BLOCK else None


def _split_plan(config: GenerateConfig, generator: Generator) -> SplitPlan | None:
    """The splits of --splits. Held goals are drawn, and the held side steered, by the shapes and
    scenarios a goal fills with instances that pass the checks (a short trial of each goal and
    unit, once per run): composition alone says a goal can wire a triangle whose every instance
    the checks then refuse, and the held split would lack the shape."""
    if not config.splits:
        return None
    composer = generator.composer
    targets = composer.targets
    goals = [(t.slug, g.name, _with_fixes(composer, g.tools)) if g else (t.slug, "", frozenset(t.specs))
             for t in targets for g in (t.toolbox.goals.values() or [None])]
    seeds = {t.slug: t for t in targets}
    tried: dict[tuple[str, str, str], bool] = {}

    def reaches(slug: str, goal: str, unit: str) -> bool:
        seed = seeds[slug]
        if goal not in seed.toolbox.goals:
            return False
        if (slug, goal, unit) not in tried:
            known = seed.toolbox.goals[goal]
            side = Side(True, seeds=frozenset({slug}), tools=frozenset(known.tools))
            if unit.startswith(SCENARIO):
                side = replace(side, scenario=unit.removeprefix(SCENARIO))
                can = composer.possible_scenarios(seed, True, known, MAX_CALLS)[side.scenario]
            else:
                side = replace(side, shape=unit)
                can = composer.goal_reaches(seed, known, *parse_shape(unit))
            tried[slug, goal, unit] = can and generator.trial(side, TRIAL_TRIES)
        return tried[slug, goal, unit]

    drawn = {row[0] for row in composer.shape_rows}
    plan = SplitPlan(config, goals, {t.slug: t.domain for t in targets}, reaches,
                     [shape for shape in common_shapes() if shape in drawn])
    held = plan.sides[True]
    held_goals = [(t.slug, g.name) for t in targets for g in t.toolbox.goals.values()
                  if (held.seeds is None or t.slug in held.seeds) and (held.tools is None or set(g.tools) <= held.tools)]
    plan.fillers = lambda unit: frozenset(f"{slug}:{goal}" for slug, goal in held_goals if reaches(slug, goal, unit))
    return plan


def _with_fixes(composer: SeedComposer, tools: Sequence[str]) -> frozenset[str]:
    """A goal's tools and the fix-up tools that restore what they require (a traveller profile
    for a booking): a held-out goal takes its fix-ups with it, or its state-dependency instances
    would mix held tools with the others'."""
    found, todo = set(tools), list(tools)
    while todo:
        name = todo.pop()
        entry, spec = composer.entries.get(name), composer.specs.get(name)
        seed = composer.seeds.get(spec.toolbox or "") if spec is not None else None
        for required in entry.requires if entry is not None and seed is not None else ():
            condition = seed.toolbox.conditions.get(required)
            if condition is not None and condition.fix_tool not in found:
                found.add(condition.fix_tool)
                todo.append(condition.fix_tool)
    return frozenset(found)


def _references(config: GenerateConfig, embeddings: EmbeddingCache) -> ContaminationIndex | None:
    """The references of --exclude-from, read and indexed once per run."""
    if not config.exclude_from:
        return None
    from factory.dataset.contamination import load_references

    return ContaminationIndex(load_references(config.exclude_from, embeddings))


def _generate_with_model_tools(config: GenerateConfig, settings: Settings, seeds: dict[str, Seed], out: Path | None,
                               fresh: bool, max_attempts: int | None,
                               on_attempt: Callable[[int, int, str], None] | None) -> RunResult:
    """A domain no seed covers: a model writes the tools and chains, a model simulator answers
    what the writer did not, and the rest of the line of flow runs unchanged."""
    from factory.chains.model_writer import ModelComposer, propose_subdomains

    domain, _, subdomain = (part.strip() for part in config.domain.partition("/"))
    config = config.model_copy(update={"domain": domain + (f"/{subdomain}" if subdomain else "")})
    if config.hold_out in ("tools", "domains"):
        raise ConfigError(f"--hold-out {config.hold_out} needs a seed domain; a domain whose tools a model writes "
                          "can hold out skeletons")
    with _claimed(RunDir(out or run_dir_for(config, settings)), fresh) as run:
        models = build_models(config, settings, run.path, seeds)
        contexts: dict[str | None, CheckContext] = {
            None: CheckContext({}, load_policy(settings.validators_dir, None, config.policy), EmbeddingCache(), models.judge)}
        subdomains = [subdomain] if subdomain else propose_subdomains(models.writer_lm_for(0), domain)
        composer = ModelComposer(config, domain, subdomains, models.chain_writer, models.writer_lm_for)
        generator = Generator(config, composer, {}, contexts, models.stages)
        generator.contamination = _references(config, contexts[None].embeddings)
        generator.splits = SplitPlan(config, [], {}) if config.splits else None
        return _open_and_run(run, generator, fresh, max_attempts, on_attempt, models)


def _open_and_run(run: RunDir, generator: Generator, fresh: bool, max_attempts: int | None,
                  on_attempt: Callable[[int, int, str], None] | None, models: RunModels | None,
                  engine: Engine | None = None) -> RunResult:
    config = generator.config
    try:
        kept, rejects = run.open(config, fresh, rebuild_first=lambda: _first_rows(generator))
        previous = run.read_manifest() if models is not None and not fresh else None
        if previous is not None:
            models.carry(previous.model_usage)  # the manifest counts every process's calls
        return _run(run, generator, kept, rejects, max_attempts or 20 * config.n + 50, on_attempt, models, engine)
    finally:
        if models is not None:
            models.close()


@contextmanager
def _claimed(run: RunDir, fresh: bool) -> Iterator[RunDir]:
    """The run folder, locked (and emptied of an earlier run's files with `fresh`) before a
    model's call cache opens in it, and released however the run ends."""
    run.claim(fresh)
    try:
        yield run
    finally:
        run.close()


def _pools(composer: SeedComposer) -> list[tuple[ToolPool, bool]]:
    """The tools each target seed composes with: each of its goals' tools; for a seed without
    goals its own, then with each seed it links to (whose chains must pass a value across seeds)."""
    goals = [(composer.goal_pool(t, g), False) for t in composer.targets for g in t.toolbox.goals.values()]
    bare = [t for t in composer.targets if not t.toolbox.goals]
    own = [(composer.pool((t.slug,)), False) for t in bare]
    return goals + own + [(composer.pool((t.slug, p)), True) for t in bare for p in composer.partners[t.slug]]


def _attempts(generator: Generator, start: int, limit: int, workers: int,
              wanted: Callable[[], int] = lambda: 1 << 30) -> Iterator[Outcome]:
    """Outcomes of attempts start, start+1, ... in order, up to `workers` of them computed at a
    time (model calls wait on the network; seed code alone runs one at a time).

    A finished attempt frees its worker at once, even while an earlier one still runs (its
    outcome waits to be yielded in order), so a slow answer does not idle the others. No more
    attempts run than `wanted()` (the instances still needed) plus the share of them that
    rejects are expected to take, so the last ones do not pay for calls whose results would be
    thrown away. Which attempts are made, and so the output, does not depend on timing."""
    if workers <= 1:
        yield from (generator.attempt(k) for k in range(start, limit))
        return
    pool = ThreadPoolExecutor(max_workers=workers)
    futures: dict[int, Future] = {}
    k = start  # the next attempt to launch
    first = start  # the next attempt to yield
    rejected = 0
    try:
        while first < limit:
            running = sum(not f.done() for f in futures.values())
            needed = wanted()
            margin = -(-needed * rejected // max(first - start, 1))  # ceil: the expected rejects among them
            while k < limit and running < workers and len(futures) < needed + margin + 1 and len(futures) < 4 * workers:
                futures[k] = pool.submit(generator.attempt, k)
                k += 1
                running += 1
            if first not in futures:
                return
            if not futures[first].done():
                wait([f for f in futures.values() if not f.done()], return_when=FIRST_COMPLETED)
                continue
            outcome = futures.pop(first).result()
            first += 1
            rejected += outcome.instance is None
            yield outcome
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


class _TalliedCall(NamedTuple):
    tool: str
    fixes: str | None


class _TalliedChain(NamedTuple):
    calls: tuple[_TalliedCall, ...]


class _Tallied(NamedTuple):
    """What the balance tally reads of a kept instance (`Tally.add`): the run holds this for
    each kept instance to its end, not the instance itself."""

    domain: str
    gold_tools: tuple[str, ...]
    chain: _TalliedChain
    shape: str


def _tallied(instance: Instance) -> Any:
    calls = tuple(_TalliedCall(c.tool, c.fixes) for c in instance.chain.calls)
    return _Tallied(instance.domain, tuple(instance.gold_tools), _TalliedChain(calls), instance.shape)


def _run(run: RunDir, generator: Generator, kept: KeptInstances, rejects: list[RejectNote], limit: int,
         on_attempt: Callable[[int, int, str], None] | None, models: RunModels | None = None,
         engine: Engine | None = None) -> RunResult:
    """Stream attempts until n instances are kept. Kept instances are read back from
    instances.jsonl when needed (`kept` holds their places), rejects are held without their
    candidates, so memory does not grow with the run's length beyond a few ids and texts."""
    config = generator.config
    resumed = attempt = len(kept) + len(rejects)
    already_complete = len(kept) >= config.n
    manifest = Manifest(run_id=run.path.name, status="running", config=config, factory_version=__version__)
    duplicates = {slug: DuplicateIndex(ctx) for slug, ctx in generator.contexts.items()}
    tallies = Tallies()
    phrasings = {row["attempt"]: row.get("phrasings", []) for row in run.records("queries")} if generator.balanced and kept else {}
    for instance in kept:  # read once, in attempt order
        duplicates[_slug(generator, instance)].add(instance)
        if generator.splits:
            generator.splits.assign(instance)  # the same split it had: assignment follows attempt order
        if generator.balanced:
            tallies.add(instance.provenance.attempt, _tallied(instance), phrasings.get(instance.provenance.attempt, []))
    phrasings.clear()
    reasons = Counter(_reason(r) for r in rejects)  # kept up to date: the manifest is written per attempt
    run.write_manifest(_counted(manifest, attempt, len(kept), reasons, models))  # from now on the folder is a run
    wanted = lambda: config.n - len(kept)  # noqa: E731
    if generator.balanced:
        attempts = outcomes(generator, engine, tallies, attempt, limit, wanted)
    else:
        attempts = _attempts(generator, attempt, limit, models.clients[config.generator].settings.concurrency, wanted)
    for outcome in attempts if len(kept) < config.n else ():
        if outcome.instance is not None:
            generator.contexts[_slug(generator, outcome.instance)].embeddings.put(outcome.vectors)
            _screen(outcome, generator, duplicates[_slug(generator, outcome.instance)], generator.splits)
        run.append(outcome)  # a kept instance joins `kept` here
        if outcome.instance is not None:
            tallies.add(outcome.attempt, _tallied(outcome.instance), outcome.phrasings)
        else:
            rejects.append(RejectNote.of(outcome.reject))
            reasons[_reason(outcome.reject)] += 1
        attempt += 1
        run.write_manifest(_counted(manifest, attempt, len(kept), reasons, models))  # vouches for the attempt's lines
        if on_attempt:
            on_attempt(len(kept), attempt, models.line() if models else "")
        if len(kept) >= config.n:
            break
    _warn_seed_defects(rejects, run)
    manifest = _counted(manifest, attempt, len(kept), reasons, models)
    if len(kept) < config.n:
        # What was kept is exported, so it can be read, audited and validated; the run stays
        # incomplete, and a larger --max-attempts resumes it.
        if len(kept):
            _export(run, config, manifest, kept, generator.splits, status="incomplete")
        else:
            manifest.status = "incomplete"
            run.write_manifest(manifest)
        raise RunError(_shortfall(manifest, run))
    instances = kept[: config.n]
    return RunResult(run.path, _export(run, config, manifest, instances, generator.splits), instances, resumed,
                     already_complete)


def _slug(generator: Generator, instance: Instance) -> str | None:
    """The policy an instance was checked under: its seed's, or the one of a model-written domain."""
    return next((slug for slug, seed in generator.seeds.items() if slug in generator.contexts
                 and seed.domain == instance.domain), None)


def _first_rows(generator: Generator) -> dict[str, dict[str, Any]]:
    """The lines attempt 0 writes with these settings (no earlier instance can duplicate it)."""
    outcome = generator.attempt(0)
    if outcome.instance is not None:
        _screen(outcome, generator, DuplicateIndex(generator.contexts[_slug(generator, outcome.instance)]))
    return outcome_rows(outcome)


def _warn_seed_defects(rejects: list[RejectNote], run: RunDir) -> None:
    """A crashing tool is a bug in its seed, not a property of the candidate: say so once per tool."""
    crashes = Counter(r.reasons[0].removeprefix(SEED_DEFECT).split(" (", 1)[0] for r in rejects
                      if r.stage == "seed_defect" and r.reasons)
    for where, count in sorted(crashes.items()):
        warnings.warn(FactoryWarning(f"seed defect: {where} crashed in {count} candidate(s); the reasons are in "
                                     f"{run.file('rejects')}"), stacklevel=2)


def _shortfall(manifest: Manifest, run: RunDir) -> str:
    reasons = Counter(manifest.reject_reasons)
    top = ", ".join(f"{k} ({v})" for k, v in reasons.most_common(3))
    if reasons["compose"] * 2 > sum(reasons.values()):
        advice = ("most candidates could not be composed: the seed tools rarely fill the requested shapes; "
                  "widen --shape, --min-depth or --max-depth")
    else:
        advice = "run again with a larger --max-attempts to continue"
    k = manifest.accepted
    exported = f" The {k} kept {'are' if k > 1 else 'is'} exported in {run.path / 'dataset'}." if k else ""
    return (f"kept {manifest.accepted} of {manifest.config.n} instances after {manifest.attempts} attempts "
            f"(top reject reasons: {top}); see {run.file('rejects')}.{exported} {advice[0].upper()}{advice[1:]}.")


def _screen(outcome: Outcome, generator: Generator, duplicates: DuplicateIndex, splits: SplitPlan | None = None) -> None:
    """The run-level checks, in attempt order: against the references of --exclude-from, then
    against the instances kept so far; then the split the instance goes to."""
    instance = outcome.instance
    assert instance is not None
    if generator.contamination is not None:
        ctx = generator.contexts[_slug(generator, instance)]
        if not _kept(outcome, generator.contamination.check(instance, ctx)):
            return
    if not _kept(outcome, duplicates.check(instance)):
        return
    if splits is not None and not splits.assign(instance):
        outcome.reject = Reject(attempt=outcome.attempt, stage="splits", reasons=[f"splits: {splits.why(instance)}"],
                                checks=instance.checks, instance=instance)
        outcome.instance = None
        return
    duplicates.add(instance)


def _kept(outcome: Outcome, result: CheckResult) -> bool:
    """Record a run-level check's result on the instance, or turn the outcome into its reject."""
    instance = outcome.instance
    assert instance is not None
    if result.passed:
        instance.checks.append(result)
        return True
    outcome.reject = Reject(attempt=outcome.attempt, stage=result.name, reasons=[f"{result.name}: {result.reason}"],
                            checks=[*instance.checks, result], instance=instance)
    outcome.instance = None
    return False


def _reason(reject: Reject | RejectNote) -> str:
    return reject_reason_key(reject.reasons[0]) if reject.reasons else reject.stage


def _counted(manifest: Manifest, attempts: int, kept: int, reasons: Counter[str], models: RunModels | None = None) -> Manifest:
    return manifest.model_copy(update={
        "attempts": attempts, "accepted": kept, "rejected": sum(reasons.values()),
        "reject_reasons": dict(sorted(reasons.items())), "model_usage": models.usage() if models else {},
    })


def _export(run: RunDir, config: GenerateConfig, manifest: Manifest, instances: KeptInstances,
            plan: SplitPlan | None = None, status: str = "complete") -> Manifest:
    """Write the dataset, the NesTools files and the manifest (of a complete run, or of one that
    kept fewer than n), reading each kept instance once (split by split, as `load_instances`
    reads them back) and holding none."""
    title = f"{config.domain} tool-use benchmark" if config.domain != ALL_DOMAINS else "Multi-domain tool-use benchmark"
    if plan is None:
        groups = {config.split: instances}
    else:
        groups = {name: instances.where(lambda i, name=name: plan.assigned.get(i) == name) for name in config.splits}
    report = split_report(groups, config.hold_out, plan.held) if plan is not None else None
    stats = Distribution()
    order = {instance_id: k for k, instance_id in enumerate(instances.ids)}  # the report lists ties in attempt order
    dataset = DatasetWriter(run.path / "dataset", list(groups))
    # Conversational items go to their own config and never to the NesTools files, whose
    # formats have no turns; the others are numbered in the order load_instances reads them.
    with NestoolsWriter(run.path) as nestools:
        for name in sorted(groups):
            for instance in groups[name]:
                stats.add(instance, order[instance.id])
                dataset.add(name, instance)
                if instance.conversation is None:
                    nestools.add(instance)
    rows = dataset.rows

    def card(num_bytes: dict[str, int]) -> str:
        sizes = {name: (rows.get(name, 0), num_bytes[name]) for name in groups}
        talks = {name: (rows.get(f"{CONVERSATIONS}/{name}", 0), num_bytes[f"{CONVERSATIONS}/{name}"])
                 for name in groups if f"{CONVERSATIONS}/{name}" in num_bytes}
        return dataset_card(config, stats.report(), manifest.reject_reasons, manifest.attempts, title, sizes,
                            nestools.split, report, talks)

    manifest.dataset_fingerprint = dataset.close(card)
    manifest.status = status
    return run.write_manifest(manifest)
