"""`factory import nestools`: NesTools' test set as a dataset of Instance records.

Each row becomes an Instance (tools mock-executed, milestones derived). Distractors are
added as NesTools does for its evaluation prompts, per gold tool, from the other test
rows' tools: the most similar by TF-IDF over name and description (NesTools retrieved with
an embedding model from its full tool pool, which is not public), skipping any whose name
is within 20% edits of a gold name. NesTools' numeric api ids, which its scorer identifies
tools by, are kept next to the dataset in `nestools_api_ids.jsonl` (read back by `factory.evaluate.tool_ids`).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from factory.dataset.nestools import NesToolsFormatError, instance_to_nestools, nestools_to_instance, spec_from_nestools
from factory.errors import RunError
from factory.evaluate.retrieval import similar_tools
from factory.generation.progress import QUIET, Steps
from factory.records import Instance, ToolSpec

DISTRACTORS_PER_TOOL = 5


@dataclass
class Imported:
    instance: Instance
    test_id: int
    api_ids: list[int]  # the gold tools' ids, in NesTools' api order
    tool_ids: dict[str, int]  # every offered tool → its NesTools id
    call: list[dict[str, Any]] | None = None  # NesTools' gold calls when the typed chain cannot say them exactly


def _jsonl(path: Path) -> list[dict[str, Any]]:
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise RunError(f"{path}:{number}: not JSON: {exc}") from exc
    return rows


def read_nestools(path: Path) -> tuple[list[dict[str, Any]], dict[int, list[int]]]:
    """Rows of test_data.jsonl and the api ids per test id; `path` is the file or its folder
    (test_api_ids.jsonl is looked for beside it, or in NesTools' inference/build_test_prompt/)."""
    data = path / "test_data.jsonl" if path.is_dir() else path
    if not data.is_file():
        raise RunError(f"{data} does not exist: pass NesTools' test_data.jsonl or the folder holding it")
    folder = data.parent
    candidates = [folder / "test_api_ids.jsonl", folder.parent / "inference" / "build_test_prompt" / "test_api_ids.jsonl"]
    ids_path = next((p for p in candidates if p.is_file()), None)
    if ids_path is None:
        raise RunError(f"no test_api_ids.jsonl beside {data}: NesTools' scorer needs the gold tools' api ids")
    ids = {int(r["test_id"]): list(r["api_ids"]) for r in _jsonl(ids_path)}
    return _jsonl(data), ids


def _pool(rows: list[dict[str, Any]], ids: dict[int, list[int]]) -> tuple[list[ToolSpec], list[int]]:
    """Every distinct tool of the test set (by api id) with its id."""
    seen: dict[int, ToolSpec] = {}
    for row in rows:
        for api, api_id in zip(row.get("api") or [], ids.get(row.get("test_id"), []), strict=False):
            if api_id not in seen:
                try:
                    seen[api_id] = spec_from_nestools(api)
                except (KeyError, TypeError, ValueError):
                    continue
    ordered = sorted(seen)
    return [seen[i] for i in ordered], ordered


def convert(rows: list[dict[str, Any]], ids: dict[int, list[int]], *, distractors: int = DISTRACTORS_PER_TOOL,
            seed: int = 0, steps: Steps = QUIET) -> tuple[list[Imported], list[str]]:
    """(imported instances in test-id order, one reason per row that could not be converted)."""
    pool, pool_ids = _pool(rows, ids)
    steps.step(f"embedding {len(pool)} tools for the distractors")
    retrieve = similar_tools(pool, pool_ids)
    position = {api_id: i for i, api_id in enumerate(pool_ids)}
    imported, rejects = [], []
    steps.step("converting", len(rows))
    for row in rows:
        steps.advance()
        test_id = row.get("test_id")
        if test_id not in ids:
            rejects.append(f"test_id {test_id}: no api ids")
            continue
        try:
            instance = nestools_to_instance(row, ids[test_id], mock_seed=seed)
        except NesToolsFormatError as exc:
            rejects.append(str(exc))
            continue
        gold_ids = dict(zip(instance.gold_tools, ids[test_id], strict=True))
        extra = retrieve([position[i] for i in gold_ids.values() if i in position], distractors)
        offered = instance.tools + [pool[i] for i in extra]
        random.Random(f"{seed}:{test_id}").shuffle(offered)
        instance = instance.model_copy(update={"tools": offered}).with_id()
        tool_ids = gold_ids | {pool[i].name: pool_ids[i] for i in extra}
        exact = same_gold(instance_to_nestools(instance, test_id)["call"], row["call"])
        imported.append(Imported(instance, test_id, ids[test_id], tool_ids, None if exact else row["call"]))
    return imported, rejects


def same_gold(typed: list[dict[str, Any]], raw: list[dict[str, Any]]) -> bool:
    """Whether the typed chain, once stored, still gives NesTools' gold exactly where scoring
    can tell: tools, outputs and every argument value, including the key order of dict values
    (NesTools compares dict keys by position). It does not for references inside a list
    argument (7 of the 1,000 rows), which a typed argument cannot hold."""
    stored = json.loads(json.dumps(typed))
    if len(stored) != len(raw):
        return False
    for mine, theirs in zip(stored, raw):
        if mine["api_name"] != theirs.get("api_name") or mine["responses"] != theirs.get("responses"):
            return False
        params = theirs.get("parameters") or {}
        if set(mine["parameters"]) != set(params):
            return False
        if any(json.dumps(v) != json.dumps(params[k]) for k, v in mine["parameters"].items()):
            return False
    return True


def side_record(item: Imported) -> dict[str, Any]:
    record: dict[str, Any] = {"test_id": item.test_id, "id": item.instance.id, "api_ids": item.api_ids,
                              "tool_ids": item.tool_ids}
    if item.call is not None:
        record["call"] = item.call
    return record


def import_card(n: int, rejects: int, distractors: int, num_bytes: int) -> str:
    size = "n<1K" if n < 1000 else "1K<n<10K"
    return f"""---
license: apache-2.0
pretty_name: NesTools test set (imported)
language: [en]
tags: [tool-use, function-calling, nested-tool-calls, benchmark, nestools]
size_categories: [{size}]
configs:
- config_name: default
  data_files:
  - split: test
    path: data/test-*.parquet
dataset_info:
  splits:
  - name: test
    num_bytes: {num_bytes}
    num_examples: {n}
---

# NesTools test set, imported

The {n} test instances of NesTools ("NesTools: A Dataset for Evaluating Nested Tool
Learning Abilities of Large Language Models", arXiv 2410.11805; Apache-2.0) as Instance
records: the gold chain with typed references, a trace executed with a deterministic
typed mock (the tools have no implementations), derived milestones, and per instance
{distractors} distractors per gold tool from the other instances' tools.
{rejects} rows could not be converted. NesTools' api ids are in `../nestools_api_ids.jsonl`.
"""


def write_import(imported: list[Imported], rejects: list[str], raw: dict[int, list[dict[str, Any]]], out: Path,
                 distractors: int = DISTRACTORS_PER_TOOL) -> str:
    """Write out/dataset (parquet + card), out/nestools_api_ids.jsonl and out/rejects.txt; returns
    the fingerprint. The dataset is read back, and NesTools' exact gold calls (`raw`, by test id)
    are recorded for every instance whose stored gold no longer matches them."""
    from factory.dataset.export import load_instances, write_dataset

    out.mkdir(parents=True, exist_ok=True)
    instances = [item.instance for item in imported]
    fingerprint = write_dataset(instances, out / "dataset", "test",
                                lambda nbytes: import_card(len(instances), len(rejects), distractors, nbytes))
    reloaded = {i.id: i for i in load_instances(out / "dataset")}
    with (out / "nestools_api_ids.jsonl").open("w", encoding="utf-8") as handle:
        for item in imported:
            stored = reloaded.get(item.instance.id, item.instance)
            if item.call is None and not same_gold(instance_to_nestools(stored, item.test_id)["call"], raw[item.test_id]):
                item.call = raw[item.test_id]
            handle.write(json.dumps(side_record(item), ensure_ascii=False) + "\n")
    (out / "rejects.txt").write_text("".join(f"{r}\n" for r in rejects), encoding="utf-8")
    return fingerprint
