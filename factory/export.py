"""Export: a Hub-ready dataset folder (Parquet with explicit Features, a dataset card) and a
NesTools-format JSONL; and loading Instance records back from such a folder."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from factory.errors import RunError
from factory.records import Instance, content_hash, stable_json

JSON_COLUMNS = ("query_variants", "tools", "withheld_tools", "chain", "trace", "milestones", "minefields",
                "world", "provenance", "checks")
LICENSE = "cc-by-4.0"


def features():
    from datasets import Features, Json, List, Value

    string = Value("string")
    columns: dict[str, Any] = {
        "id": string, "domain": string, "subdomain": string, "query": string,
        "gold_tools": List(string), "categories": List(string),
        "depth": Value("int32"), "shape": string, "n_calls": Value("int32"),
        "chain_code": string, "answer": Json(),
    }
    columns.update({name: Json() for name in JSON_COLUMNS})
    return Features(columns)


def instance_row(instance: Instance) -> dict[str, Any]:
    """One dataset row; JSON-valued columns are passed as JSON text so values round-trip exactly."""
    from factory.chains.code import render_chain

    data = instance.model_dump(mode="json")
    row = {k: data[k] for k in ("id", "domain", "subdomain", "query", "gold_tools", "categories", "depth", "shape")}
    row.update({k: stable_json(data[k]) for k in JSON_COLUMNS})
    row["n_calls"] = len(instance.chain.calls)
    row["chain_code"] = render_chain(instance.chain)
    row["answer"] = stable_json(instance.trace.answer)
    return row


def row_instance(row: dict[str, Any]) -> Instance:
    fields = {k: v for k, v in row.items() if k in Instance.model_fields}
    return Instance.model_validate(fields)


def write_dataset(instances: list[Instance], out: Path, split: str, card: Callable[[int], str]) -> str:
    """Write `out/` atomically (data/<split>-00000-of-00001.parquet + README.md, the card made
    from the split's size in bytes); returns a fingerprint of the data."""
    import datasets

    datasets.disable_progress_bars()
    tmp = out.with_name(out.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    (tmp / "data").mkdir(parents=True)
    table = datasets.Dataset.from_list([instance_row(i) for i in instances], features=features())
    table.to_parquet(str(tmp / "data" / f"{split}-00000-of-00001.parquet"))
    (tmp / "README.md").write_text(card(table.data.nbytes))
    shutil.rmtree(out, ignore_errors=True)
    os.replace(tmp, out)
    return content_hash([i.id for i in instances])


def load_instances(dataset_dir: Path, split: str | None = None) -> list[Instance]:
    """Instance records of an exported dataset folder (every split unless one is named)."""
    import datasets

    if not (dataset_dir / "README.md").exists() and not (dataset_dir / "data").is_dir():
        raise RunError(f"{dataset_dir} is not an exported dataset (no README.md or data/)")
    datasets.disable_progress_bars()
    try:
        loaded = datasets.load_dataset(str(dataset_dir), features=features())
    except Exception as exc:
        raise RunError(f"cannot load dataset {dataset_dir}: {type(exc).__name__}: {exc}") from exc
    splits = [split] if split else list(loaded)
    instances = []
    for name in splits:
        if name not in loaded:
            raise RunError(f"{dataset_dir} has no split {name!r} (splits: {', '.join(loaded)})")
        instances += [row_instance(row) for row in loaded[name]]
    return instances


def write_nestools(instances: list[Instance], path: Path) -> None:
    from factory.nestools import instance_to_nestools

    with path.open("w", encoding="utf-8") as handle:
        for test_id, instance in enumerate(instances, start=1):
            handle.write(json.dumps(instance_to_nestools(instance, test_id), ensure_ascii=False) + "\n")
