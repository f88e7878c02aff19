"""Predictions files: NesTools' raw responses, one `{"test_id": ..., "response": ...}` per line.

Lines are split on "\\n" only: a response may hold U+2028, U+2029 or U+0085, which
`str.splitlines()` would treat as line ends. A response of -1 is a request that never got an
answer (left out of the metrics, as NesTools does). Coverage is counted against the tasks
being evaluated: tasks without a prediction, extra lines for a test_id already predicted,
test_ids the dataset does not have, and ones it has outside the evaluated tasks. A task
without a prediction counts as a failure unless missing ones are allowed, in which case it
is left out, as NesTools' scorer does (it scores only the lines it is given). A task is scored
once: a further line for its test_id is counted and named, not scored (NesTools' scorer would
score it again, weighing that task twice).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel

from factory.errors import ConfigError
from factory.evaluate.static.answers import Answer
from factory.evaluate.static.tasks import StaticTask

MAX_PROBLEMS = 50  # bad lines listed one by one; the rest are counted


class Coverage(BaseModel):
    file: str
    tasks: int  # tasks evaluated
    predicted: int = 0  # tasks with a prediction
    missing: int = 0  # tasks without one
    duplicates: int = 0  # extra lines for a test_id already predicted (not scored)
    unknown: int = 0  # test_ids the dataset does not have
    outside: int = 0  # test_ids of the dataset outside the evaluated tasks (--limit, left out)
    unanswered: int = 0  # responses of -1
    bad_lines: int = 0
    missing_scored_as: str = "failures"  # or "left out" (--allow-missing)

    def line(self) -> str:
        parts = [f"{self.file}: {self.predicted} of {self.tasks} tasks predicted"]
        if self.missing:
            parts.append(f"{self.missing} missing ({'scored as failures' if self.missing_scored_as == 'failures' else 'left out'})")
        for name in ("duplicates", "unknown", "outside", "unanswered", "bad_lines"):
            if getattr(self, name):
                parts.append(f"{getattr(self, name)} {name.replace('_', ' ')}" + (" (not scored)" if name == "duplicates" else ""))
        return ", ".join(parts)


@dataclass
class Predictions:
    jobs: list[tuple[StaticTask, Answer, int]] = field(default_factory=list)  # (task, answer, trial)
    missing: list[StaticTask] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    coverage: Coverage | None = None


def read_predictions(path: Path, tasks: Sequence[StaticTask], known_test_ids: set[int] | None = None,
                     allow_missing: bool = False) -> Predictions:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"--predictions {path}: cannot be read ({exc})") from exc
    by_id = {t.test_id: t for t in tasks}
    seen: dict[int, int] = {}
    out = Predictions()
    counts: Counter[str] = Counter()  # coverage counts, set on the record once (pydantic assignment is slow)
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            test_id = int(row["test_id"])
            response = row["response"]
        except (ValueError, KeyError, TypeError) as exc:
            counts["bad_lines"] += 1
            _problem(out, f"{path.name}:{number}: not a prediction line ({type(exc).__name__}: {exc})")
            continue
        task = by_id.get(test_id)
        if task is None:
            if known_test_ids is not None and test_id in known_test_ids:
                counts["outside"] += 1
            else:
                counts["unknown"] += 1
                _problem(out, f"{path.name}:{number}: unknown test_id {test_id}")
            continue
        if test_id in seen:  # one task, one score: a second answer would weigh the task twice
            counts["duplicates"] += 1
            _problem(out, f"{path.name}:{number}: test_id {test_id} again (first on line {seen[test_id]}): "
                          "only the first line of a test_id is scored")
            continue
        seen[test_id] = number
        answered = response != -1
        counts["unanswered"] += not answered
        out.jobs.append((task, Answer(response, answered), 0))
    out.missing = [t for t in tasks if t.test_id not in seen]
    out.coverage = Coverage(file=path.name, tasks=len(tasks), predicted=len(seen), missing=len(out.missing), **counts,
                            missing_scored_as="left out" if allow_missing else "failures")
    return out


def _problem(out: Predictions, message: str) -> None:
    if len(out.problems) < MAX_PROBLEMS:
        out.problems.append(message)
