"""Export: a Hub-ready dataset folder (Parquet with explicit Features, a dataset card) and the
NesTools-format JSONL files; and loading Instance records back from such a folder."""

from __future__ import annotations

import gc
import json
import os
import shutil
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from factory.errors import RunError
from factory.records import Instance, ToolSpec, content_hash

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


_FIELDS = frozenset(Instance.model_fields)  # (asked once: pydantic answers model_fields through a descriptor)
_PARSED = frozenset((*JSON_COLUMNS, "conversation"))


def row_instance(row: dict[str, Any], tools: ToolTexts | None = None) -> Instance:
    """An Instance from a row whose JSON columns are still JSON text. With `tools` (tool specs
    by their JSON text, shared by the rows of one read), a tool offered by many instances is
    validated once and its ToolSpec shared: validating tools is most of the cost of a row,
    and a dataset offers each tool many times (6 to 28 times in NesTools' test set and our runs)."""
    fields = {k: json.loads(v) if k in _PARSED and not (tools is not None and k == "tools")
              else v for k, v in row.items() if k in _FIELDS}
    if tools is not None and "tools" in fields:
        fields["tools"] = tools.specs(fields["tools"])
    return Instance.model_validate(fields)


_DECODER = json.JSONDecoder()
_SPACE = " \t\n\r"
_START = 48  # characters of a tool's text that index the texts already read


class ToolTexts:
    """The ToolSpecs of a read's tools columns, one per distinct tool text. A tool already read
    is recognised where it starts in a list by comparing texts, not parsed again to find where
    it ends: a JSON value read from where a complete one's text starts ends where that text
    ends. (NesTools' 1,000 rows list 13.8 MB of tools, 1.8 MB of them distinct.)"""

    def __init__(self) -> None:
        self.known: dict[str, ToolSpec] = {}
        self.by_start: dict[str, list[str]] = {}

    def specs(self, text: str) -> list[ToolSpec]:
        """The ToolSpec of each item of a JSON array of tools."""
        specs = []
        at = len(text) - len(text.lstrip(_SPACE)) + 1  # after "["
        while True:
            while at < len(text) and text[at] in _SPACE + ",":
                at += 1
            if at >= len(text) or text[at] == "]":
                return specs
            item = self._known_at(text, at)
            if item is None:
                _, end = _DECODER.raw_decode(text, at)
                item = text[at:end]
            specs.append(self._spec(item))
            at += len(item)

    def _known_at(self, text: str, at: int) -> str | None:
        return next((item for item in self.by_start.get(text[at: at + _START], ()) if text.startswith(item, at)), None)

    def _spec(self, item: str) -> ToolSpec:
        spec = self.known.get(item)
        if spec is None:
            spec = self.known[item] = ToolSpec.model_validate_json(item)
            self.by_start.setdefault(item[:_START], []).append(item)
        return spec


def write_dataset(instances: Iterable[Instance], out: Path, split: str, card: Callable[[int], str]) -> str:
    """Write `out/` with one split (see `write_splits`); the card is made from its size in bytes."""
    return write_splits({split: instances}, out, lambda sizes: card(sizes[split]))


def write_splits(splits: Mapping[str, Iterable[Instance]], out: Path, card: Callable[[dict[str, int]], str]) -> str:
    """Write `out/` atomically (data/<split>-00000-of-00001.parquet per split + README.md, the
    card made from each split's size in bytes); returns a fingerprint of the data, the ids in
    the order `load_instances` reads them (splits by name). Conversational items go to the
    `conversations` config instead (conversations/<split>-...parquet; sizes keyed
    "conversations/<split>"), never to the single-request one."""
    writer = DatasetWriter(out, list(splits))
    for split in sorted(splits):
        for instance in splits[split]:
            writer.add(split, instance)
    return writer.close(card)


PART = 128  # rows encoded to Arrow at a time (a multiple of 8: validity bitmaps add up exactly)


class DatasetWriter:
    """`write_splits` one instance at a time, holding a part of rows at most: each part is
    encoded to Arrow as `datasets` encodes a whole split and spilled to disk column by column;
    once all are in, each split is written in the row groups `Dataset.to_parquet` cuts (up to
    100 MB of Arrow each, the most this holds at once), so the files and the card are byte for
    byte those of writing the whole list at once."""

    def __init__(self, out: Path, splits: list[str]):
        import datasets

        datasets.disable_progress_bars()
        self.out, self.splits = out, splits
        self.tmp = out.with_name(out.name + ".tmp")
        shutil.rmtree(self.tmp, ignore_errors=True)
        (self.tmp / "data").mkdir(parents=True)
        self.parts: dict[str, _Spill] = {}  # "<split>" or "conversations/<split>" → its rows so far
        self.ids: dict[str, list[str]] = {}

    def add(self, split: str, instance: Instance) -> None:
        key = split if instance.conversation is None else f"{CONVERSATIONS}/{split}"
        if key not in self.parts:
            self.parts[key] = _Spill(self.tmp / f".{key.replace('/', '-')}", instance.conversation is not None)
            self.ids[key] = []
        self.parts[key].add(instance_row(instance))
        self.ids[key].append(instance.id)

    @property
    def rows(self) -> dict[str, int]:
        """Instances per split (keyed as the sizes the card is made from)."""
        return {key: len(self.ids[key]) for key in self.parts}

    def close(self, card: Callable[[dict[str, int]], str]) -> str:
        sizes = {}
        talks = any(key.startswith(f"{CONVERSATIONS}/") for key in self.parts)
        for split in sorted(self.splits):
            keys = [(split, "data", False)] + ([(f"{CONVERSATIONS}/{split}", CONVERSATIONS, True)] if talks else [])
            for key, folder, conversations in keys:
                spill = self.parts.get(key) or _Spill(self.tmp / f".{key.replace('/', '-')}", conversations)
                (self.tmp / folder).mkdir(exist_ok=True)
                sizes[key] = spill.write(self.tmp / folder / f"{split}-00000-of-00001.parquet")
        (self.tmp / "README.md").write_text(card(sizes))
        shutil.rmtree(self.out, ignore_errors=True)
        os.replace(self.tmp, self.out)
        ordered = [i for split in sorted(self.splits) for i in self.ids.get(split, [])]
        ordered += [i for split in sorted(self.splits) for i in self.ids.get(f"{CONVERSATIONS}/{split}", [])]
        return content_hash(ordered)


class _Spill:
    """One split's rows encoded to Arrow part by part, each column spilled to its own
    temporary file, then written as Parquet a row group at a time."""

    def __init__(self, folder: Path, conversations: bool):
        self.folder, self.conversations = folder, conversations
        self.rows: list[dict[str, Any]] = []
        self.count = 0
        self.streams: list[Any] = []  # an Arrow IPC stream per column, opened with the first part
        self.features = None  # the columns as `datasets` ordered them for the first part
        self.nbytes = 0
        self.nulls: set[str] = set()  # columns with a null somewhere
        self.bare: dict[str, int] = {}  # column → rows of parts holding no validity bitmap for it

    def add(self, row: dict[str, Any]) -> None:
        self.rows.append(row)
        if len(self.rows) == PART:
            self._encode()

    def _encode(self) -> None:
        import datasets
        import pyarrow as pa

        part = datasets.Dataset.from_list(self.rows, features=features(self.conversations))
        self.count += len(self.rows)
        self.rows = []
        table = part.data.table
        if not self.streams:
            self.features = part.features
            self.folder.mkdir(parents=True)
            self.streams = [pa.ipc.new_stream(str(self.folder / f"{k}.arrow"), pa.schema([field]))
                            for k, field in enumerate(table.schema)]
        self.nbytes += table.nbytes
        for k, (name, column) in enumerate(zip(table.column_names, table.columns, strict=True)):
            if column.null_count:
                self.nulls.add(name)
            if column.chunk(0).buffers()[0] is None:
                self.bare[name] = self.bare.get(name, 0) + len(table)
            self.streams[k].write_batch(pa.record_batch([column.chunk(0)], names=[name]))
        del part, table
        _release_arrow_memory()

    def _table_nbytes(self) -> int:
        """`nbytes` of the split as one table: a column with a null has a validity bitmap over
        every row, where a part without one has none."""
        return self.nbytes + sum(-(-self.bare.get(name, 0) // 8) for name in self.nulls)

    def write(self, path: Path) -> int:
        """Write the Parquet file as `Dataset.to_parquet` writes the whole split; returns the
        split's size in bytes as Arrow (`Dataset.data.nbytes`)."""
        import datasets
        import pyarrow as pa
        import pyarrow.parquet as pq
        from datasets import config
        from datasets.arrow_writer import (
            get_parquet_column_options,
            get_writer_batch_size_from_data_size,
            get_writer_batch_size_from_features,
        )

        if self.rows:
            self._encode()
        for stream in self.streams:
            stream.close()
        if self.count == 0:  # no rows (`from_list` refuses an empty list): the features' own columns
            empty = features(self.conversations)
            dataset = datasets.Dataset.from_dict({name: [] for name in empty}, features=empty)
            self.features = dataset.features
        nbytes = self._table_nbytes() if self.count else dataset.data.nbytes
        features_ = self.features
        # As Dataset.to_parquet cuts row groups (`_estimate_nbytes` adds nothing for JSON columns).
        batch = get_writer_batch_size_from_features(features_) or get_writer_batch_size_from_data_size(self.count, nbytes)
        schema = features_.arrow_schema
        cdc = config.DEFAULT_CDC_OPTIONS
        columns = [_Column(self.folder / f"{k}.arrow") for k in range(len(schema))] if self.count else []
        with path.open("wb") as handle:
            writer = pq.ParquetWriter(handle, schema=schema, use_content_defined_chunking=cdc, write_page_index=True,
                                      **get_parquet_column_options(features_, schema))
            for start in range(0, self.count, batch):
                rows = min(batch, self.count - start)
                # One contiguous array per column, as slices of the whole table were: Parquet's
                # pages (content-defined chunks) depend on how a column is chunked.
                writer.write_table(pa.Table.from_arrays([column.take(rows) for column in columns], schema=schema))
                _release_arrow_memory()
            writer.add_key_value_metadata({"content_defined_chunking": json.dumps(cdc)})
            writer.close()
        for column in columns:
            column.close()
        shutil.rmtree(self.folder, ignore_errors=True)
        return nbytes


def _release_arrow_memory() -> None:
    """Hand the memory of freed Arrow buffers back: Arrow's allocator otherwise keeps it, and
    encoding part after part grew a 5,000-instance export by 52 MB (7 MB with this)."""
    import pyarrow as pa

    pa.default_memory_pool().release_unused()


class _Column:
    """A spilled column, read back a row group at a time: only that column's parts of the
    group are held while they are joined (a row group is held about once, not twice)."""

    def __init__(self, path: Path):
        import pyarrow as pa

        self.source = pa.OSFile(str(path))
        self.reader = pa.ipc.open_stream(self.source)
        self.left = None  # the unread rest of the last part read

    def take(self, rows: int):
        import pyarrow as pa

        pieces = []
        while rows:
            if self.left is None or not len(self.left):
                self.left = self.reader.read_next_batch().column(0)
            piece = self.left.slice(0, min(rows, len(self.left)))
            pieces.append(piece)
            self.left = self.left.slice(len(piece))
            rows -= len(piece)
        return pa.concat_arrays(pieces)

    def close(self) -> None:
        self.left = None
        self.source.close()


def load_instances(dataset_dir: Path, split: str | None = None, conversations: bool = False,
                   unread: tuple[str, ...] = ()) -> list[Instance]:
    """Instance records of an exported dataset folder (every split unless one is named); with
    `conversations`, its conversational items (the `conversations` config) after the others.
    Fields in `unread` (each one with a default) are not read and keep their default: for a
    reader that never looks at them (static scoring at milestones, a third of loading NesTools).

    The Parquet files are read directly so JSON columns are parsed exactly: `datasets`
    decodes `Json` columns with a fast parser that can perturb the last digit of a float.
    """
    required = [name for name in unread if Instance.model_fields[name].is_required()]
    if required:
        raise ValueError(f"{', '.join(required)}: an instance cannot be read without it")
    files = sorted((dataset_dir / "data").glob("*.parquet")) if (dataset_dir / "data").is_dir() else []
    if not files:
        raise RunError(_no_dataset(dataset_dir))
    instances = _read_config(files, dataset_dir, split, unread)
    talks = sorted((dataset_dir / CONVERSATIONS).glob("*.parquet")) if conversations else []
    return instances + (_read_config(talks, dataset_dir, split, unread) if talks else [])


def _read_config(files: list[Path], dataset_dir: Path, split: str | None, unread: tuple[str, ...] = ()) -> list[Instance]:
    import pyarrow.parquet as pq

    splits: dict[str, list[Path]] = {}
    for path in files:
        splits.setdefault(path.name.split("-", 1)[0], []).append(path)
    if split is not None and split not in splits:
        raise RunError(f"{dataset_dir} has no split {split!r} (splits: {', '.join(splits)})")
    instances = []
    tools = ToolTexts()
    with _collection_paused():
        for name in [split] if split else sorted(splits):
            for path in splits[name]:
                try:
                    file = pq.ParquetFile(path)  # read_table would import pyarrow.dataset and pandas (~1 s)
                    table = file.read(columns=[c for c in file.schema_arrow.names
                                               if c in Instance.model_fields and c not in unread])
                    rows = _as_text(table).to_pylist()
                    instances += [row_instance(row, tools) for row in rows]
                except Exception as exc:  # a damaged file or a row that is not an instance
                    raise RunError(f"cannot read {path}: {type(exc).__name__}: {exc}") from exc
    return instances


@contextmanager
def _collection_paused():
    """Pause the cyclic garbage collector while a dataset's records are built: they make no
    cycles, and the collections their many allocations set off took two thirds of the time
    of loading 1,000 NesTools instances (1.8 s against 0.55 s, measured on a busy machine)."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def split_names(dataset_dir: Path) -> list[str]:
    """The splits of an exported dataset folder, by name."""
    return sorted({p.name.split("-", 1)[0] for p in (dataset_dir / "data").glob("*.parquet")})


def _no_dataset(dataset_dir: Path) -> str:
    """Why a folder holds no dataset, and what to do: it does not exist, it is a run whose
    dataset is written only when it completes, or it is something else."""
    if not dataset_dir.exists():
        return f"{dataset_dir} does not exist; give a run directory (generated/<domain>/<run-id>) or its dataset/ folder"
    for folder in (dataset_dir, dataset_dir.parent):
        manifest = folder / "manifest.json"  # factory.generation.runs.MANIFEST (runs imports this module)
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


def _as_text(table):
    """The table with JSON extension columns read as their underlying JSON text: their storage
    arrays, taken as they are (a cast would load pyarrow.compute, 35 ms of a scoring run)."""
    import pyarrow as pa

    text = (*JSON_COLUMNS, "answer", "conversation")
    columns = [pa.chunked_array([chunk.storage for chunk in column.chunks], column.type.storage_type)
               if name in text and isinstance(column.type, pa.BaseExtensionType) else column
               for name, column in zip(table.column_names, table.columns, strict=True)]
    return pa.Table.from_arrays(columns, names=table.column_names)


NESTOOLS = "nestools.jsonl"  # items a stock NesTools scorer scores fairly
NESTOOLS_EXCLUDED = "nestools_excluded.jsonl"  # the others, each with why it is not in nestools.jsonl


def nestools_split(instances: Iterable[Instance]) -> dict[str, Counter[str]]:
    """How many instances go to each NesTools file, by reason for the excluded ones."""
    from factory.dataset.nestools import stock_unfair

    split: dict[str, Counter[str]] = {NESTOOLS: Counter(), NESTOOLS_EXCLUDED: Counter()}
    for instance in instances:
        unfair = stock_unfair(instance)
        split[NESTOOLS_EXCLUDED if unfair else NESTOOLS][unfair[0] if unfair else "fair"] += 1
    return split


def write_nestools(instances: Iterable[Instance], folder: Path) -> None:
    """nestools.jsonl with the items a stock NesTools scorer scores fairly, and
    nestools_excluded.jsonl with the others (see `NestoolsWriter`)."""
    with NestoolsWriter(folder) as writer:
        for instance in instances:
            writer.add(instance)


class NestoolsWriter:
    """Writes nestools.jsonl with the items a stock NesTools scorer scores fairly, and
    nestools_excluded.jsonl with the others, each row saying why in `excluded`, one instance
    at a time; `split` counts them as `nestools_split` does. A row's test_id is the
    instance's position in the dataset, from 1, in either file, and every tool and gold call
    carries the `api_id` that `factory evaluate` shows a model for it, so a prediction
    written from a row is scored as the model's would be."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.split: dict[str, Counter[str]] = {NESTOOLS: Counter(), NESTOOLS_EXCLUDED: Counter()}
        self.test_id = 0

    def __enter__(self) -> NestoolsWriter:
        self.fair = (self.folder / NESTOOLS).open("w", encoding="utf-8")
        self.other = (self.folder / NESTOOLS_EXCLUDED).open("w", encoding="utf-8")
        return self

    def __exit__(self, *exc: object) -> None:
        self.fair.close()
        self.other.close()

    def add(self, instance: Instance) -> None:
        self.test_id += 1
        file, row = nestools_row(instance, self.test_id)
        self.split[file][row["excluded"]["reason"] if "excluded" in row else "fair"] += 1
        (self.other if file == NESTOOLS_EXCLUDED else self.fair).write(json.dumps(row, ensure_ascii=False) + "\n")


def nestools_row(instance: Instance, test_id: int) -> tuple[str, dict[str, Any]]:
    """The NesTools file an instance's row goes to, and the row as written there: with `api_id`s,
    and in nestools_excluded.jsonl with why it is not in nestools.jsonl (`excluded`)."""
    from factory.dataset.nestools import instance_to_nestools, stock_unfair

    row = with_api_ids(instance_to_nestools(instance, test_id), instance)
    unfair = stock_unfair(instance)
    if unfair:
        row["excluded"] = {"reason": unfair[0], "detail": unfair[1]}
    return (NESTOOLS_EXCLUDED if unfair else NESTOOLS), row


def with_api_ids(row: dict[str, Any], instance: Instance) -> dict[str, Any]:
    """A NesTools row whose tools (`api`, `withheld_api`) and gold calls (`call`,
    `call_if_offered`) carry their `api_id`, placed after `api_name` as in the static-mode
    prompt: NesTools keeps its ids in a file beside the data, which a run has no need of."""
    from factory.evaluate.tool_ids import derived_tool_ids

    ids = derived_tool_ids(instance)

    def named(item: dict[str, Any]) -> dict[str, Any]:
        return {"api_name": item["api_name"], "api_id": ids[item["api_name"]],
                **{k: v for k, v in item.items() if k != "api_name"}}

    out = dict(row)
    for key in ("api", "withheld_api", "call", "call_if_offered"):
        if key in out:
            out[key] = [named(item) for item in out[key]]
    return out
