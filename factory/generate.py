"""A generation run: resolve the domain, resume or start the run directory, stream attempts
until n instances are kept, then export the dataset, the NesTools JSONL and the manifest."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from factory import __version__
from factory.card import dataset_card
from factory.checks.context import CheckContext
from factory.checks.duplicates import DuplicateIndex
from factory.checks.policy import load_policy
from factory.config import Settings
from factory.embeddings import EmbeddingCache
from factory.errors import ConfigError, RunError
from factory.export import write_dataset, write_nestools
from factory.pipeline import Generator, Outcome
from factory.records import GenerateConfig, Instance, Manifest, Reject, content_hash
from factory.runs import RunDir
from factory.seeds import Seed, load_seeds, resolve_domain, slugify, unknown_domain_error
from factory.stats import distribution, reject_reason_key

ALL_DOMAINS = "all"


@dataclass
class RunResult:
    path: Path
    manifest: Manifest
    instances: list[Instance]
    resumed_from: int


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
    return match.seeds, name, match.subdomain


def validate_config(config: GenerateConfig) -> None:
    from factory.chains.shapes import MAX_CALLS, validate_shape_request

    if config.n < 1:
        raise ConfigError(f"-n must be at least 1, got {config.n}")
    if not 1 <= config.max_depth <= MAX_CALLS:
        raise ConfigError(f"--max-depth must be between 1 and {MAX_CALLS}, got {config.max_depth}")
    if not 1 <= config.min_depth <= config.max_depth:
        raise ConfigError(f"--min-depth must be between 1 and --max-depth ({config.max_depth}), got {config.min_depth}")
    if config.distractors < 0:
        raise ConfigError(f"--distractors must be 0 or more, got {config.distractors}")
    validate_shape_request(config.shape)


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
    on_attempt: Callable[[int, int], None] | None = None,
) -> RunResult:
    """Run (or resume) generation; raises RunError when n instances cannot be reached."""
    validate_config(config)
    seeds = load_seeds(settings.seeds_dir)
    targets, domain, subdomain = resolve_targets(config.domain, seeds)
    config = config.model_copy(update={"domain": domain})
    embeddings = EmbeddingCache()
    contexts = {t.slug: CheckContext(seeds, load_policy(settings.validators_dir, t.slug, config.policy), embeddings)
                for t in targets}
    run = RunDir(out or run_dir_for(config, settings))
    kept, rejects = run.open(config, fresh)
    resumed = len(kept) + len(rejects)
    limit = max_attempts or 20 * config.n + 50
    manifest = Manifest(run_id=run.path.name, status="running", config=config, factory_version=__version__)
    generator = Generator(config, seeds, targets, subdomain, contexts)
    duplicates = {slug: DuplicateIndex(ctx) for slug, ctx in contexts.items()}
    slug_of = {t.domain: t.slug for t in targets}
    for instance in kept:
        duplicates[slug_of[instance.domain]].add(instance)
    attempt = resumed
    try:
        while len(kept) < config.n and attempt < limit:
            outcome = generator.attempt(attempt)
            if outcome.instance is not None:
                _dedupe(outcome, duplicates[slug_of[outcome.instance.domain]])
            run.append(outcome)
            if outcome.instance is not None:
                kept.append(outcome.instance)
            else:
                rejects.append(outcome.reject)
            attempt += 1
            if on_attempt:
                on_attempt(len(kept), attempt)
            if attempt % 25 == 0:
                run.write_manifest(_counted(manifest, attempt, kept, rejects))
    finally:
        run.close()
        run.write_manifest(_counted(manifest, attempt, kept, rejects))
    manifest = _counted(manifest, attempt, kept, rejects)
    if len(kept) < config.n:
        manifest.status = "incomplete"
        run.write_manifest(manifest)
        top = ", ".join(f"{k} ({v})" for k, v in Counter(manifest.reject_reasons).most_common(3))
        raise RunError(
            f"kept {len(kept)} of {config.n} instances after {attempt} attempts (top reject reasons: {top}); "
            f"see {run.file('rejects')}. Run again with a larger --max-attempts to continue."
        )
    _export(run, config, manifest, kept)
    return RunResult(run.path, manifest, kept, resumed)


def _dedupe(outcome: Outcome, index: DuplicateIndex) -> None:
    instance = outcome.instance
    assert instance is not None
    result = index.check(instance)
    if result.passed:
        instance.checks.append(result)
        index.add(instance)
    else:
        outcome.reject = Reject(attempt=outcome.attempt, stage="duplicates", reasons=[f"duplicates: {result.reason}"],
                                checks=[*instance.checks, result], instance=instance)
        outcome.instance = None


def _counted(manifest: Manifest, attempts: int, kept: list[Instance], rejects: list[Reject]) -> Manifest:
    reasons = Counter(reject_reason_key(r.reasons[0]) if r.reasons else r.stage for r in rejects)
    return manifest.model_copy(update={
        "attempts": attempts, "accepted": len(kept), "rejected": len(rejects), "reject_reasons": dict(sorted(reasons.items())),
    })


def _export(run: RunDir, config: GenerateConfig, manifest: Manifest, kept: list[Instance]) -> None:
    instances = kept[: config.n]
    stats = distribution(instances)
    title = f"{config.domain} tool-use benchmark" if config.domain != ALL_DOMAINS else "Multi-domain tool-use benchmark"
    def card(num_bytes: int) -> str:
        return dataset_card(config, stats, manifest.reject_reasons, manifest.attempts, title, num_bytes)

    manifest.dataset_fingerprint = write_dataset(instances, run.path / "dataset", config.split, card)
    write_nestools(instances, run.path / "nestools.jsonl")
    manifest.status = "complete"
    run.write_manifest(manifest)
