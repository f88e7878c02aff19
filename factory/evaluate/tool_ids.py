"""Numeric tool ids and test ids for static mode, as NesTools' scorer identifies tools by id.

An imported NesTools dataset keeps its original ids in `nestools_api_ids.jsonl` beside the
dataset folder (one line per instance: test_id, instance id, gold api_ids, tool_ids for
every offered tool, and the exact gold `call` where the typed chain cannot state it).
Other datasets get ids derived from tool names (the same tool has the same id in every
instance) and test ids in dataset order from 1, as in the exported NesTools JSONL.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from factory.errors import RunError
from factory.records import Instance, content_hash

SIDE_FILE = "nestools_api_ids.jsonl"


@dataclass
class Identity:
    test_id: int
    tool_ids: dict[str, Any]  # tool name → api id
    call: list[dict[str, Any]] | None = None  # exact NesTools gold calls, when recorded


def derived_id(name: str) -> int:
    return 100_000 + int(content_hash(name), 16) % 900_000


def _names(instance: Instance) -> set[str]:
    return {t.name for t in (*instance.tools, *instance.withheld_tools)} | set(instance.gold_tools)


def derived_tool_ids(instance: Instance) -> dict[str, int]:
    ids: dict[str, int] = {}
    for name in sorted(_names(instance)):
        value = derived_id(name)
        while value in ids.values():  # a collision inside one instance: the next free id
            value += 1
        ids[name] = value
    return ids


def side_file(dataset_dir: Path) -> Path | None:
    for folder in (dataset_dir, dataset_dir.parent):
        if (folder / SIDE_FILE).is_file():
            return folder / SIDE_FILE
    return None


def read_side_file(path: Path) -> dict[str, Identity]:
    found: dict[str, Identity] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            found[row["id"]] = Identity(int(row["test_id"]), dict(row["tool_ids"]), row.get("call"))
        except (ValueError, KeyError, TypeError) as exc:
            raise RunError(f"{path}:{number}: not a tool-id record ({type(exc).__name__}: {exc})") from exc
    return found


def identities(instances: list[Instance], dataset_dir: Path | None = None) -> list[Identity]:
    """One identity per instance, from the side file when the dataset has one."""
    path = side_file(dataset_dir) if dataset_dir is not None else None
    recorded = read_side_file(path) if path else {}
    out = []
    for position, instance in enumerate(instances, start=1):
        known = recorded.get(instance.id)
        if known is None:
            out.append(Identity(position, derived_tool_ids(instance)))
        elif _names(instance) <= known.tool_ids.keys():  # every id recorded: nothing to derive
            out.append(Identity(known.test_id, dict(known.tool_ids), known.call))
        else:
            out.append(Identity(known.test_id, derived_tool_ids(instance) | known.tool_ids, known.call))
    return out
