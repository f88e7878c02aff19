"""Export: a Hub-ready dataset folder (Parquet with explicit Features, a dataset card) and the
NesTools-format JSONL files; and loading Instance records back from such a folder."""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from factory.errors import RunError
from factory.records import Instance, content_hash

JSON_COLUMNS = ("query_variants", "tools", "withheld_tools", "chain", "trace", "milestones", "minefields",
                "world", "provenance", "checks")
LICENSE = "cc-by-4.0"


CONVERSATIONS = "conversations"  # the dataset config (and folder) of conversational items


def features(conversations: bool = False):
    """The columns of the default config; the `conversations` config adds the conversation."""
    from datasets import Features, Json, List, Value

    string = Value("string")
    columns: dict[str, Any] = {
        "id": string, "domain": string, "subdomain": string, "goal": string, "query": string,
        "gold_tools": List(string), "categories": List(string), "stated_conditions": List(string),
        "depth": Value("int32"), "shape": string, "n_calls": Value("int32"),
        "chain_code": string, "answer": Json(),
    }
    columns.update({name: Json() for name in JSON_COLUMNS})
    if conversations:
        columns["conversation"] = Json()
    return Features(columns)


def _json_text(value: Any) -> str:
    # Key order is kept: argument order is part of a call as models see it (hashes sort keys).
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def instance_row(instance: Instance) -> dict[str, Any]:
    """One dataset row; JSON-valued columns are passed as JSON text so values round-trip exactly."""
    from factory.chains.code import render_chain

    data = instance.model_dump(mode="json")
    row = {k: data[k] for k in ("id", "domain", "subdomain", "goal", "query", "gold_tools", "categories", "stated_conditions",
                                "depth", "shape")}
    row.update({k: _json_text(data[k]) for k in JSON_COLUMNS})
    row["n_calls"] = len(instance.chain.calls)
    row["chain_code"] = render_chain(instance.chain)
    row["answer"] = _json_text(instance.trace.answer)
    if instance.conversation is not None:
        row["conversation"] = _json_text(data["conversation"])
    return row


def row_instance(row: dict[str, Any]) -> Instance:
    """An Instance from a row whose JSON columns are still JSON text."""
    fields = {k: json.loads(v) if k in (*JSON_COLUMNS, "conversation") else v for k, v in row.items()
              if k in Instance.model_fields}
    return Instance.model_validate(fields)


def write_dataset(instances: list[Instance], out: Path, split: str, card: Callable[[int], str]) -> str:
    """Write `out/` with one split (see `write_splits`); the card is made from its size in bytes."""
    return write_splits({split: instances}, out, lambda sizes: card(sizes[split]))


def write_splits(splits: dict[str, list[Instance]], out: Path, card: Callable[[dict[str, int]], str]) -> str:
    """Write `out/` atomically (data/<split>-00000-of-00001.parquet per split + README.md, the
    card made from each split's size in bytes); returns a fingerprint of the data, the ids in
    the order `load_instances` reads them (splits by name). Conversational items go to the
    `conversations` config instead (conversations/<split>-...parquet; sizes keyed
    "conversations/<split>"), never to the single-request one."""
    import datasets

    datasets.disable_progress_bars()
    tmp = out.with_name(out.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    (tmp / "data").mkdir(parents=True)
    sizes = {}
    talks = {name: [i for i in group if i.conversation is not None] for name, group in splits.items()}
    for split in sorted(splits):
        single = [i for i in splits[split] if i.conversation is None]
        sizes[split] = _write_parquet(single, tmp / "data" / f"{split}-00000-of-00001.parquet", False)
        if any(talks.values()):
            (tmp / CONVERSATIONS).mkdir(exist_ok=True)
            sizes[f"{CONVERSATIONS}/{split}"] = _write_parquet(
                talks[split], tmp / CONVERSATIONS / f"{split}-00000-of-00001.parquet", True)
    (tmp / "README.md").write_text(card(sizes))
    shutil.rmtree(out, ignore_errors=True)
    os.replace(tmp, out)
    ordered = [i for split in sorted(splits) for i in splits[split] if i.conversation is None]
    ordered += [i for split in sorted(splits) for i in talks[split]]
    return content_hash([i.id for i in ordered])


def _write_parquet(instances: list[Instance], path: Path, conversations: bool) -> int:
    import datasets

    table = datasets.Dataset.from_list([instance_row(i) for i in instances], features=features(conversations))
    table.to_parquet(str(path))
    return table.data.nbytes


def load_instances(dataset_dir: Path, split: str | None = None, conversations: bool = False) -> list[Instance]:
    """Instance records of an exported dataset folder (every split unless one is named); with
    `conversations`, its conversational items (the `conversations` config) after the others.

    The Parquet files are read directly so JSON columns are parsed exactly: `datasets`
    decodes `Json` columns with a fast parser that can perturb the last digit of a float.
    """
    files = sorted((dataset_dir / "data").glob("*.parquet")) if (dataset_dir / "data").is_dir() else []
    if not files:
        raise RunError(_no_dataset(dataset_dir))
    instances = _read_config(files, dataset_dir, split)
    talks = sorted((dataset_dir / CONVERSATIONS).glob("*.parquet")) if conversations else []
    return instances + (_read_config(talks, dataset_dir, split) if talks else [])


def _read_config(files: list[Path], dataset_dir: Path, split: str | None) -> list[Instance]:
    import pyarrow.parquet as pq

    splits: dict[str, list[Path]] = {}
    for path in files:
        splits.setdefault(path.name.split("-", 1)[0], []).append(path)
    if split is not None and split not in splits:
        raise RunError(f"{dataset_dir} has no split {split!r} (splits: {', '.join(splits)})")
    instances = []
    for name in [split] if split else sorted(splits):
        for path in splits[name]:
            try:
                table = pq.ParquetFile(path).read()  # read_table would import pyarrow.dataset and pandas (~1 s)
                rows = table.cast(_as_text(table.schema)).to_pylist()
                instances += [row_instance(row) for row in rows]
            except Exception as exc:  # a damaged file or a row that is not an instance
                raise RunError(f"cannot read {path}: {type(exc).__name__}: {exc}") from exc
    return instances


def split_names(dataset_dir: Path) -> list[str]:
    """The splits of an exported dataset folder, by name."""
    return sorted({p.name.split("-", 1)[0] for p in (dataset_dir / "data").glob("*.parquet")})


def _no_dataset(dataset_dir: Path) -> str:
    """Why a folder holds no dataset, and what to do: it does not exist, it is a run whose
    dataset is written only when it completes, or it is something else."""
    if not dataset_dir.exists():
        return f"{dataset_dir} does not exist; give a run directory (generated/<domain>/<run-id>) or its dataset/ folder"
    for folder in (dataset_dir, dataset_dir.parent):
        manifest = folder / "manifest.json"  # factory.runs.MANIFEST (runs imports this module)
        if manifest.is_file():
            try:
                run = json.loads(manifest.read_text(encoding="utf-8"))
                kept, wanted, status = run["accepted"], run["config"]["n"], run["status"]
            except (OSError, ValueError, KeyError, TypeError):
                break
            busy = "is being generated" if _locked(folder / "run.lock") else "was stopped before it finished"
            return (f"{folder} is a generation run that {busy} ({kept} of {wanted} instances kept, status {status}): "
                    "its dataset is written when the run completes; to finish a stopped run, run the same "
                    f"`factory generate` command again with --out {folder}")
    return f"{dataset_dir} is not an exported dataset (no data/*.parquet); give a run directory or its dataset/ folder"


def _locked(lock: Path) -> bool:
    """Whether a process holds a run's lock now (a file left by a killed one is not held)."""
    import fcntl

    try:
        fd = os.open(lock, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(fd)


def _as_text(schema):
    """The schema with JSON extension columns read as their underlying JSON text."""
    import pyarrow as pa

    text = (*JSON_COLUMNS, "answer", "conversation")
    return pa.schema([pa.field(f.name, pa.string()) if f.name in text else f for f in schema])


NESTOOLS = "nestools.jsonl"  # items a stock NesTools scorer scores fairly
NESTOOLS_EXCLUDED = "nestools_excluded.jsonl"  # the others, each with why it is not in nestools.jsonl


def nestools_split(instances: list[Instance]) -> dict[str, Counter[str]]:
    """How many instances go to each NesTools file, by reason for the excluded ones."""
    from factory.nestools import stock_unfair

    split: dict[str, Counter[str]] = {NESTOOLS: Counter(), NESTOOLS_EXCLUDED: Counter()}
    for instance in instances:
        unfair = stock_unfair(instance)
        split[NESTOOLS_EXCLUDED if unfair else NESTOOLS][unfair[0] if unfair else "fair"] += 1
    return split


def write_nestools(instances: list[Instance], folder: Path) -> None:
    """nestools.jsonl with the items a stock NesTools scorer scores fairly, and
    nestools_excluded.jsonl with the others, each row saying why in `excluded`. A row's
    test_id is the instance's position in the dataset, from 1, in either file, and every tool
    and gold call carries the `api_id` that `factory evaluate` shows a model for it, so a
    prediction written from a row is scored as the model's would be."""
    from factory.nestools import instance_to_nestools, stock_unfair

    with (folder / NESTOOLS).open("w", encoding="utf-8") as fair, (folder / NESTOOLS_EXCLUDED).open("w", encoding="utf-8") as other:
        for test_id, instance in enumerate(instances, start=1):
            row = with_api_ids(instance_to_nestools(instance, test_id), instance)
            unfair = stock_unfair(instance)
            if unfair:
                row["excluded"] = {"reason": unfair[0], "detail": unfair[1]}
            (other if unfair else fair).write(json.dumps(row, ensure_ascii=False) + "\n")


def with_api_ids(row: dict[str, Any], instance: Instance) -> dict[str, Any]:
    """A NesTools row whose tools (`api`, `withheld_api`) and gold calls carry their `api_id`,
    placed after `api_name` as in the static-mode prompt: NesTools keeps its ids in a file
    beside the data, which a run has no need of."""
    from factory.evaluate.tool_ids import derived_tool_ids

    ids = derived_tool_ids(instance)

    def named(item: dict[str, Any]) -> dict[str, Any]:
        return {"api_name": item["api_name"], "api_id": ids[item["api_name"]],
                **{k: v for k, v in item.items() if k != "api_name"}}

    out = dict(row)
    for key in ("api", "withheld_api", "call"):
        if key in out:
            out[key] = [named(item) for item in out[key]]
    return out
