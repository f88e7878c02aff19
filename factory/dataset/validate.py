"""`factory validate`: every check re-run on an exported dataset in a fresh process, counted
per check (passed, failed, skipped, or not applied with the reason: the model judges without a
model); for a run directory also the files its manifest vouches for, and whether
instances.jsonl still agrees with the dataset.

Imported instances (another benchmark converted by `factory import`) were written by that
benchmark's own rules, not by this factory's: the checks of this factory's own writing rules
(how queries state values, what makes a request sensible, how distractors are kept apart) are
skipped for them with the reason, unless every check is asked for.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel

from factory.checks import CHECKS, run_checks
from factory.checks.context import CheckContext
from factory.checks.duplicates import DuplicateIndex
from factory.checks.judges import NOT_APPLIED
from factory.checks.policy import CheckPolicy, Policy, load_policy
from factory.config import Settings
from factory.dataset.export import load_instances
from factory.errors import RunError
from factory.generation.progress import QUIET, Steps
from factory.generation.runs import RunDir
from factory.lm.embeddings import EmbeddingCache, tool_text
from factory.records import CheckResult, Instance
from factory.seeds.library import library_for


@dataclass(frozen=True)
class ImportedSource:
    name: str
    # Checks of this factory's own writing rules, which the benchmark never followed: why each
    # does not apply to its instances.
    not_applicable: dict[str, str]
    note: str  # what the failures that remain on its instances mean


IMPORTED = {  # provenance.generator of an importer → what its instances are
    "nestools": ImportedSource(
        name="NesTools",
        not_applicable={
            "faithfulness": "its queries were written by its authors' model and do not state every argument "
                            "literally (booleans and defaults implied, values paraphrased or given with units)",
            "readability": "its queries were written by its authors' model, one sentence per task, without this "
                           "factory's descriptions or situations to judge",
            "plausibility": "its tools declare no kinds or roles to judge links by, and a task may join "
                            "independent requests",
            "distractors": "its distractors follow its own protocol (the most similar tools of other instances), "
                           "which does not keep them apart from the gold tools",
        },
        note="format failures on them are data a typed record cannot hold exactly: a reference inside a list "
             "argument (its depth and shape, kept from NesTools, then disagree with the chain) or a parameter "
             "named like a Python keyword",
    ),
}
RUN_FILES_CHECK = "run files"


class Failure(BaseModel):
    instance: str  # "" for a problem with the run directory's files
    check: str
    reason: str
    imported_from: str | None = None


@dataclass
class CheckCount:
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    not_applied: Counter[str] = field(default_factory=Counter)  # why the check did not run (a judge without a model) → instances


@dataclass
class ValidationReport:
    total: int = 0
    passed: int = 0
    checks: dict[str, CheckCount] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)
    imported: Counter[str] = field(default_factory=Counter)  # importer (a key of IMPORTED) → instances

    @property
    def ok(self) -> bool:
        return not self.failures


class Checker:
    """The checks of each domain's policy (for imported instances without those that do not
    apply to them, unless `all_checks`), with a near-duplicate index per policy."""

    def __init__(self, settings: Settings, embeddings: EmbeddingCache, all_checks: bool = False):
        self.settings, self.all_checks = settings, all_checks
        self.seeds = library_for(settings).seeds
        self.slugs = {seed.domain: slug for slug, seed in self.seeds.items()}
        self.embeddings = embeddings
        self.contexts: dict[tuple[str | None, str | None], CheckContext] = {}
        self.indexes: dict[tuple[str | None, str | None], DuplicateIndex] = {}

    def context(self, instance: Instance) -> tuple[CheckContext, DuplicateIndex]:
        source = None if self.all_checks else IMPORTED.get(instance.provenance.generator)
        key = (self.slugs.get(instance.domain), source.name if source else None)
        if key not in self.contexts:
            policy = load_policy(self.settings.validators_dir, key[0])
            if source:
                policy = _without(policy, source.not_applicable)
            self.contexts[key] = CheckContext(self.seeds, policy, self.embeddings)
            self.indexes[key] = DuplicateIndex(self.contexts[key])
        return self.contexts[key], self.indexes[key]

    def check(self, instance: Instance) -> list[CheckResult]:
        ctx, index = self.context(instance)
        results = run_checks(instance, ctx)
        results.append(index.check(instance))
        index.add(instance)
        return results


def _without(policy: Policy, names: dict[str, str]) -> Policy:
    checks = {k: CheckPolicy(**{**v.model_dump(), "enabled": False}) if k in names else v for k, v in policy.checks.items()}
    return policy.model_copy(update={"checks": checks})


def _prefetch(instances: list[Instance], embeddings: EmbeddingCache) -> None:
    """Embed every tool and query once, in large batches, rather than a few per instance."""
    texts = {tool_text(t) for i in instances for t in (*i.tools, *i.withheld_tools)} | {i.query for i in instances}
    embeddings.vectors(sorted(texts))


def validate_dataset(dataset_dir: Path, settings: Settings, run_dir: Path | None = None,
                     all_checks: bool = False, steps: Steps = QUIET) -> ValidationReport:
    """Every check on every instance; with `run_dir`, also the run's files."""
    instances = load_instances(dataset_dir, conversations=True)
    steps.step(f"embedding the tools and queries of {len(instances)} instances")
    embeddings = EmbeddingCache()
    _prefetch(instances, embeddings)
    checker = Checker(settings, embeddings, all_checks)
    report = ValidationReport(total=len(instances), checks={name: CheckCount() for name in (*CHECKS, "duplicates")})
    steps.step("checking", len(instances))
    for instance in instances:
        steps.advance()
        source = IMPORTED.get(instance.provenance.generator)
        source_name = source.name if source else None
        report.imported[instance.provenance.generator] += source is not None
        results = {r.name: r for r in checker.check(instance)}
        for name, count in report.checks.items():
            result = results.get(name)
            if result is None:
                count.skipped += 1
            elif result.reason.startswith(NOT_APPLIED):
                count.not_applied[result.reason.removeprefix(NOT_APPLIED)] += 1
            elif result.passed or not result.blocking:
                count.passed += 1
            else:
                count.failed += 1
                report.failures.append(Failure(instance=instance.id, check=name, reason=result.reason, imported_from=source_name))
        report.passed += all(r.passed or not r.blocking for r in results.values())
    report.imported = +report.imported
    if run_dir is not None:
        steps.step("checking the run's files")
        problems = run_problems(run_dir, instances)
        report.failures += [Failure(instance="", check=RUN_FILES_CHECK, reason=p) for p in problems]
    return report


def run_problems(run_dir: Path, dataset: list[Instance]) -> list[str]:
    """What is wrong with a run directory's files: a file the manifest records that changed
    since the run wrote it, and an instances.jsonl that no longer matches the dataset."""
    run = RunDir(run_dir)
    manifest = run.read_manifest()
    if manifest is None:
        raise RunError(f"{run_dir} holds no manifest.json; give the dataset folder to validate only the dataset")
    problems = run.changed_files(manifest)
    kept = run.kept_instances()[: len(dataset)]
    if manifest.config.splits:  # the dataset holds them split by split (by name), each split in attempt order
        from factory.dataset.export import load_instances, split_names

        folder = run_dir / "dataset"
        split_of = {i.id: name for name in split_names(folder) for i in load_instances(folder, name)}
        kept = sorted(kept, key=lambda i: split_of.get(i.id, "\uffff"))
    kept = sorted(kept, key=lambda i: i.conversation is not None)  # the conversations config is read last
    if [i.id for i in kept] != [i.id for i in dataset]:
        problems.append(f"instances.jsonl does not agree with the dataset: its first {len(dataset)} instances are "
                        f"not the dataset's ({sum(a.id != b.id for a, b in zip(kept, dataset))} differ, "
                        f"{len(dataset) - len(kept)} missing)")
    elif kept != dataset:
        differ = next(a.id for a, b in zip(kept, dataset, strict=True) if a != b)
        problems.append(f"instances.jsonl does not agree with the dataset: instance {differ} differs")
    return problems


def write_failures(report: ValidationReport, path: Path) -> None:
    """Every failure as one JSON line (the file is rewritten, empty when nothing failed)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(f.model_dump(), ensure_ascii=False) + "\n" for f in report.failures))
    except OSError as exc:
        raise RunError(f"cannot write the failures to {path}: {exc.strerror or exc}; choose another --failures") from exc
