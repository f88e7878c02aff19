"""Streamed export: Parquet written part by part is byte for byte what `datasets` writes from
the whole list (row groups, page chunks and the card's sizes), the kept instances of a run are
read back from instances.jsonl, the distribution report does not depend on how it is fed, and
loading reads each distinct tool once."""

from __future__ import annotations

import json

import datasets
import pyarrow.parquet as pq

from factory.dataset import export
from factory.dataset.export import features, instance_row, load_instances, write_splits
from factory.dataset.stats import Distribution, distribution
from factory.generation.runs import KeptInstances, RunDir


def _whole(instances, path, conversations):
    """The Parquet file and Arrow size of writing the whole split at once (the former export)."""
    table = datasets.Dataset.from_list([instance_row(i) for i in instances], features=features(conversations))
    table.to_parquet(str(path))
    return path.read_bytes(), table.data.nbytes


def test_streamed_splits_are_the_bytes_of_writing_them_whole(mixed_run, conversation_run, tmp_path, monkeypatch):
    # Small parts and row groups of about 300 KB: several parts per row group, and row
    # groups that begin in the middle of a part.
    monkeypatch.setattr(export, "PART", 16)
    monkeypatch.setattr(datasets.config, "MAX_ROW_GROUP_SIZE", "300KB")
    single = list(mixed_run.instances)
    talks = [i for i in conversation_run.instances if i.conversation is not None]
    splits = {"train": single[:130] + talks[:7], "test": single[130:] + talks[7:], "empty": []}
    sizes: dict[str, int] = {}
    write_splits(splits, tmp_path / "out", lambda s: sizes.update(s) or "card")

    for name, group in splits.items():
        for key, folder, items in ((name, "data", [i for i in group if i.conversation is None]),
                                   (f"conversations/{name}", "conversations", [i for i in group if i.conversation])):
            if not items:  # `from_list` refuses an empty list: the file holds the columns and no rows
                table = pq.read_table(tmp_path / "out" / folder / f"{name}-00000-of-00001.parquet")
                assert table.num_rows == 0 and set(table.column_names) == set(features(folder == "conversations"))
                continue
            expected, nbytes = _whole(items, tmp_path / f"{folder}-{name}.parquet", folder == "conversations")
            written = tmp_path / "out" / folder / f"{name}-00000-of-00001.parquet"
            assert written.read_bytes() == expected, key
            assert sizes[key] == nbytes, key
    assert pq.ParquetFile(tmp_path / "out" / "data" / "train-00000-of-00001.parquet").num_row_groups > 2
    assert not list((tmp_path / "out").glob(".*"))  # no spilled part is left behind
    assert [i.id for i in load_instances(tmp_path / "out", "train")] == [i.id for i in single[:130]]


def test_a_run_holds_its_kept_instances_by_place(food_run):
    kept = food_run.instances
    assert isinstance(kept, KeptInstances) and len(kept) == 16
    stored = RunDir(food_run.path).kept_instances()
    assert list(kept) == stored and kept[3] == stored[3] and list(kept[2:5]) == stored[2:5]
    chosen = kept.where(lambda i: i in {stored[1].id, stored[7].id})
    assert [i.id for i in chosen] == [stored[1].id, stored[7].id]


def test_the_distribution_is_the_same_in_any_order_of_adding(mixed_run):
    instances = list(mixed_run.instances)
    report = Distribution()
    for k in reversed(range(len(instances))):
        report.add(instances[k], k)
    assert json.dumps(report.report()) == json.dumps(distribution(instances))
    # Ties are listed in the order given, so the order matters:
    assert json.dumps(distribution(instances)) != json.dumps(distribution(instances[::-1]))


def test_tools_read_once_are_recognised_in_later_rows_as_parsing_would_find_them():
    from factory.records import ToolSpec

    def tool(name, description, params):
        return {"name": name, "description": description, "parameters": [{"name": p, "type": "str"} for p in params],
                "returns": [{"name": "out", "type": "str"}], "toolbox": None}

    long = "Find the thing the user asked for, in every catalogue there is, and say where it is."
    same_start = [tool("find", long, ["a"]), tool("find", long, ["a", "b"]), tool("find", long + " Quickly.", [])]
    rows = [json.dumps(same_start[:1], separators=(",", ":")),
            json.dumps([same_start[1], same_start[0], tool("f", "", [])], separators=(",", ":")),
            " [ " + " , ".join(json.dumps(t, separators=(",", ":")) for t in reversed(same_start)) + " ] ",
            json.dumps([same_start[0], {**same_start[0], "toolbox": "shop"}], separators=(",", ":")), "[]"]
    texts = export.ToolTexts()
    read = [texts.specs(row) for row in rows]
    assert read == [[ToolSpec.model_validate(t) for t in json.loads(row)] for row in rows]
    assert read[0][0] is read[1][1] is read[2][2] and read[1][0] is read[2][1]
    assert len(texts.known) == 5  # each distinct text validated once
