"""Shared builders for the static-mode tests: NesTools rows from tests/data/nestools, imported
instances and their static tasks (built once per process)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "data" / "nestools"
PROMPTS = Path(__file__).resolve().parents[3] / "prompts"


@lru_cache(maxsize=1)
def nestools_rows() -> tuple[list[dict], dict[int, list[int]]]:
    rows = [json.loads(line) for line in (DATA / "test_data.jsonl").read_text().splitlines()]
    ids = {json.loads(line)["test_id"]: json.loads(line)["api_ids"] for line in (DATA / "test_api_ids.jsonl").read_text().splitlines()}
    return rows, ids


@lru_cache(maxsize=1)
def _imported_all():
    from factory.evaluate.importer import convert

    rows, ids = nestools_rows()
    items, rejects = convert(rows, ids)
    assert not rejects
    return items


def imported(n: int = 1000):
    """The first n imported instances (distractors drawn from all 1,000 rows)."""
    return _imported_all()[:n]


def tasks(n: int = 1000, augment: tuple[str, ...] = ()):
    from factory.evaluate.static.augment import parse_augment
    from factory.evaluate.static.tasks import build_tasks, load_template
    from factory.evaluate.tool_ids import Identity

    items = imported(n)
    built, left_out = build_tasks([i.instance for i in items], [Identity(i.test_id, i.tool_ids, i.call) for i in items],
                                  parse_augment(list(augment)), load_template(PROMPTS))
    assert not left_out
    return built


def run(agent: str, task_list, seed: int = 0, trials: int = 1):
    from factory.evaluate.static.agents import agent_responder, static_agent
    from factory.evaluate.static.scoring import run_static

    return run_static(task_list, agent_responder(static_agent(agent, seed)), agent, trials)
