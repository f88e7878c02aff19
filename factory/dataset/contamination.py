"""`factory contamination`: a dataset compared with reference sets a model may have trained on.

A reference is the NesTools test set this project ships (`nestools`), NesTools' own
`test_data.jsonl` (or the folder holding it), a run folder or an exported dataset folder, or a
Hub dataset id read through the local `datasets` cache (offline when it is cached). Each is
read into entries (factory.checks.contamination.Entry) and compared instance by instance; the
report is `contamination.json` and a Markdown table, both deterministic (no paths of the
machine, no times), and its summary goes on the dataset card when the run is published.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from factory.checks.contamination import Entry, Match, Reference, Thresholds, chain_entry, entry_of
from factory.config import PACKAGE_DIR
from factory.errors import ConfigError, FactoryError
from factory.lm.embeddings import EmbeddingCache
from factory.records import Chain, Record

NESTOOLS_REF = "nestools"
REPORT = "contamination.json"
TABLE = "contamination.md"
SHOWN = 20  # instances listed under the table; the JSON holds every one


def nestools_dir() -> Path:
    """The NesTools test set shipped with the project: inside a wheel, or the source tree."""
    bundled = PACKAGE_DIR / "_data" / "nestools"
    return bundled if bundled.is_dir() else PACKAGE_DIR.parent / "tests" / "data" / "nestools"


def nestools_entries(path: Path) -> list[Entry]:
    """NesTools rows as entries: the task, and the gold calls read as a chain."""
    from factory.dataset.nestools import NesToolsFormatError, chain_from_nestools

    entries = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        name = f"nestools:{row.get('test_id')}"
        try:
            entries.append(chain_entry(name, str(row["task"]), chain_from_nestools(row["call"])[0]))
        except (NesToolsFormatError, KeyError, TypeError, AttributeError):
            entries.append(Entry(id=name, query=str(row.get("task", ""))))  # its words still count
    return entries


def hub_entries(repo_id: str) -> list[Entry]:
    """Every split of a Hub dataset, from the local `datasets` cache when offline. A dataset
    this factory published is compared in full; another one by its requests (`query`, or
    NesTools' `task`)."""
    import datasets

    datasets.disable_progress_bars()
    try:
        loaded = datasets.load_dataset(repo_id)
    except Exception as exc:  # noqa: BLE001 - the library raises many kinds for "not there"
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise FactoryError(f"cannot read the Hub dataset {repo_id} ({type(exc).__name__}: {first}); offline, it must "
                           "be in the local datasets cache: load it once online (datasets.load_dataset), or give a "
                           "folder") from None
    entries = []
    for split in sorted(loaded):
        for number, row in enumerate(loaded[split]):
            query = str(row.get("query") or row.get("task") or "")
            name = str(row.get("id") or f"{repo_id}/{split}:{number}")
            chain = row.get("chain")
            if chain is not None:
                parsed = json.loads(chain) if isinstance(chain, str) else chain
                entries.append(chain_entry(name, query, Chain.model_validate(parsed)))
            elif query:
                entries.append(Entry(id=name, query=query))
    return entries


def reference_entries(ref: str) -> list[Entry]:
    """The entries of a reference as the user names it (see the module docstring)."""
    from factory.dataset.export import load_instances

    path = Path(ref)
    if ref == NESTOOLS_REF and not path.exists():
        return nestools_entries(nestools_dir() / "test_data.jsonl")
    if path.exists():
        nestools = path / "test_data.jsonl" if path.is_dir() else path
        if nestools.is_file() and nestools.suffix == ".jsonl":
            return nestools_entries(nestools)
        dataset = path / "dataset" if (path / "dataset").is_dir() else path
        return [entry_of(i) for i in load_instances(dataset)]
    if ref.count("/") == 1 and not ref.startswith((".", "/")):
        return hub_entries(ref)
    raise ConfigError(f"reference {ref!r} is neither 'nestools', an existing folder or file, nor a Hub dataset id "
                      "(owner/name)")


def load_references(refs: list[str], embeddings: EmbeddingCache) -> list[Reference]:
    return [Reference(ref, reference_entries(ref), embeddings) for ref in refs]


class ReferenceReport(Record):
    """One reference against the dataset: counts, then every instance's match."""

    reference: str
    entries: int
    crossed: int  # instances over the thresholds
    crossed_by: dict[str, int]  # threshold → instances crossing it
    shared_13gram: int  # instances sharing at least one 13-gram
    max_ngram: int
    max_cosine: float
    same_chain: int
    same_skeleton: int
    same_tools: int
    matches: list[Match]


class ContaminationReport(Record):
    dataset: str
    instances: int
    fingerprint: str
    thresholds: dict[str, Any]
    crossed: int  # instances over the thresholds against any reference
    references: list[ReferenceReport]


def compare(instances: list, references: list[Reference], thresholds: Thresholds, dataset: str,
            fingerprint: str, steps: Any = None) -> ContaminationReport:
    reports, crossing = [], set()
    for reference in references:
        if steps is not None:
            steps.step(f"comparing with {reference.name}", len(instances))
        matches = []
        for instance in instances:
            matches.append(reference.match(instance, thresholds))
            if steps is not None:
                steps.advance()
        crossing |= {m.id for m in matches if m.crossed}
        reports.append(ReferenceReport(
            reference=reference.name, entries=len(reference.entries), crossed=sum(bool(m.crossed) for m in matches),
            crossed_by=dict(sorted(Counter(c for m in matches for c in m.crossed).items())),
            shared_13gram=sum(m.ngram13_overlap > 0 for m in matches),
            max_ngram=max((m.longest_ngram for m in matches), default=0),
            max_cosine=max((m.cosine for m in matches), default=0.0),
            same_chain=sum(bool(m.same_chain) for m in matches), same_skeleton=sum(bool(m.same_skeleton) for m in matches),
            same_tools=sum(bool(m.same_tools) for m in matches), matches=matches))
    return ContaminationReport(dataset=dataset, instances=len(instances), fingerprint=fingerprint,
                               thresholds={"max_ngram": thresholds.max_ngram, "max_cosine": thresholds.max_cosine},
                               crossed=len(crossing), references=reports)


def summary_table(report: ContaminationReport) -> str:
    """One row per reference (also the contamination section of the dataset card)."""
    lines = ["| reference | its instances | over the thresholds | sharing a 13-gram | longest shared n-gram "
             "| highest cosine | same chain and values | same skeleton | same tool set |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    lines += [f"| `{r.reference}` | {r.entries} | {r.crossed} | {r.shared_13gram} | {r.max_ngram} | {r.max_cosine:.3f} "
              f"| {r.same_chain} | {r.same_skeleton} | {r.same_tools} |" for r in report.references]
    return "\n".join(lines)


def markdown(report: ContaminationReport) -> str:
    t = report.thresholds
    lines = [f"# Contamination of {report.dataset}", "",
             f"{report.instances} instances (fingerprint `{report.fingerprint}`); an instance counts when it shares more "
             f"than {t['max_ngram']} words in a row with a reference request, its request is at a cosine above "
             f"{t['max_cosine']} to one, or a reference holds its very chain (tools, wiring and values). Same "
             "skeleton and same tool set are reported, not counted.", "",
             summary_table(report), "",
             f"{report.crossed} of {report.instances} instances are over the thresholds."]
    for r in report.references:
        over = [m for m in r.matches if m.crossed]
        if not over:
            continue
        lines += ["", f"## Over the thresholds against `{r.reference}` ({len(over)})", "",
                  "| instance | crossed | longest n-gram | cosine | nearest |", "| --- | --- | ---: | ---: | --- |"]
        lines += [f"| `{m.id}` | {', '.join(m.crossed)} | {m.longest_ngram} | {m.cosine:.3f} | "
                  f"`{(m.same_chain or [m.cosine_reference])[0]}` |" for m in over[:SHOWN]]
        if len(over) > SHOWN:
            lines.append(f"| ({len(over) - SHOWN} more in {REPORT}) | | | | |")
    return "\n".join(lines) + "\n"


def write_report(report: ContaminationReport, folder: Path) -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / REPORT).write_text(report.model_dump_json(indent=1) + "\n", encoding="utf-8")
    (folder / TABLE).write_text(markdown(report), encoding="utf-8")
    return folder / REPORT, folder / TABLE


def read_summary(folder: Path) -> ContaminationReport | None:
    """The report written beside a run, without its per-instance matches (for the card)."""
    path = folder / REPORT
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    for reference in data.get("references", []):
        reference["matches"] = []
    return ContaminationReport.model_validate(data)


def check_dataset(path: Path, refs: list[str], settings: Any, max_ngram: int | None = None,
                  max_cosine: float | None = None, steps: Any = None) -> tuple[ContaminationReport, Thresholds]:
    """Compare the dataset of a run (or a dataset folder) with the references, at the given
    thresholds or those of `[checks.contamination]` (what `factory contamination` reports)."""
    from factory.checks.policy import load_policy
    from factory.dataset.export import load_instances
    from factory.records import content_hash

    policy = load_policy(settings.validators_dir).checks["contamination"]
    thresholds = Thresholds(max_ngram if max_ngram is not None else policy.get("max_ngram"),
                            max_cosine if max_cosine is not None else policy.get("max_cosine"))
    if steps is not None:
        steps.step("loading the dataset")
    instances = load_instances(path / "dataset" if (path / "dataset").is_dir() else path)
    if steps is not None:
        steps.step("reading the references and loading the embedding model")
    references = load_references(refs, EmbeddingCache(settings.embeddings_store))
    report = compare(instances, references, thresholds, path.name, content_hash([i.id for i in instances]), steps)
    return report, thresholds
