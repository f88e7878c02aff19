"""`factory validate`: every check re-run on an exported dataset, in a fresh process."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from factory.checks import run_checks
from factory.checks.context import CheckContext
from factory.checks.duplicates import DuplicateIndex
from factory.checks.policy import load_policy
from factory.config import Settings
from factory.embeddings import EmbeddingCache
from factory.export import load_instances
from factory.seeds import load_seeds


@dataclass
class ValidationReport:
    total: int = 0
    passed: int = 0
    failures: list[str] = field(default_factory=list)


def validate_dataset(dataset_dir: Path, settings: Settings) -> ValidationReport:
    instances = load_instances(dataset_dir)
    seeds = load_seeds(settings.seeds_dir) if settings.seeds_dir.is_dir() else {}
    slugs = {seed.domain: slug for slug, seed in seeds.items()}
    embeddings = EmbeddingCache()
    contexts: dict[str | None, CheckContext] = {}
    indexes: dict[str | None, DuplicateIndex] = {}
    report = ValidationReport(total=len(instances))
    for instance in instances:
        slug = slugs.get(instance.domain)
        if slug not in contexts:
            contexts[slug] = CheckContext(seeds, load_policy(settings.validators_dir, slug), embeddings)
            indexes[slug] = DuplicateIndex(contexts[slug])
        results = run_checks(instance, contexts[slug])
        results.append(indexes[slug].check(instance))
        indexes[slug].add(instance)
        failed = [r for r in results if r.blocking and not r.passed]
        if failed:
            report.failures += [f"{instance.id} {r.name}: {r.reason}" for r in failed]
        else:
            report.passed += 1
    return report
