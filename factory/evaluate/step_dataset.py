"""`factory export-steps`: the step labels of interactive results as a ToolComp-style dataset
for scoring process reward models: one row per agent step, with the conversation before it
(`context`), the step itself and its label (`correct` as ToolComp's binary label, `label` the
finer one: advances, harmless, wrong_call, minefield, asked_needed, asked_needless,
wrong_answer). Written as Parquet with a card, so `datasets.load_dataset(OUT)` reads it."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from factory.errors import RunError
from factory.records import SampleResult

SPLIT = "train"


def features():
    from datasets import Features, Value

    string = Value("string")
    return Features({
        "instance_id": string, "agent": string, "trial": Value("int32"), "step": Value("int32"),
        "kind": string, "context": string, "step_message": string, "label": string, "correct": Value("bool"),
        "reason": string, "categories": string,
    })


def step_rows(sample: SampleResult) -> list[dict[str, Any]]:
    """One row per labelled step: the messages before it as JSON, the step's message (for a
    tool call, the assistant message with that call alone)."""
    messages = sample.output if isinstance(sample.output, list) else []
    rows = []
    for position, step in enumerate(sample.steps):
        message = dict(messages[step.message]) if step.message < len(messages) else {}
        if step.call is not None:
            message["tool_calls"] = [(message.get("tool_calls") or [{}])[step.call]]
        rows.append({
            "instance_id": sample.instance_id, "agent": sample.agent, "trial": sample.trial, "step": position,
            "kind": step.kind, "context": json.dumps(messages[: step.message], ensure_ascii=False, default=str),
            "step_message": json.dumps(message, ensure_ascii=False, default=str), "label": step.label,
            "correct": step.correct, "reason": step.reason, "categories": ",".join(sample.categories),
        })
    return rows


def export_steps(results_dir: Path, out: Path) -> int:
    """Write the dataset folder `out`; returns the number of steps."""
    import datasets

    from factory.evaluate.report import SAMPLES, read_samples

    if not (results_dir / SAMPLES).is_file():
        raise RunError(f"{results_dir} holds no {SAMPLES}: give the results directory of a `factory evaluate` run")
    rows = [row for sample in read_samples(results_dir) for row in step_rows(sample)]
    if not rows:
        raise RunError(f"{results_dir} holds no step labels: they come with interactive mode (--mode interactive)")
    datasets.disable_progress_bars()
    tmp = out.with_name(out.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    (tmp / "data").mkdir(parents=True)
    datasets.Dataset.from_list(rows, features=features()).to_parquet(str(tmp / "data" / f"{SPLIT}-00000-of-00001.parquet"))
    correct = sum(r["correct"] for r in rows)
    (tmp / "README.md").write_text(f"""---
configs:
- config_name: default
  data_files:
  - split: {SPLIT}
    path: data/{SPLIT}-*.parquet
---

# Step labels of {results_dir.name}

{len(rows)} agent steps ({correct} correct, {len(rows) - correct} incorrect) of interactive episodes, each
labelled from the instance's milestones and world: `context` is the transcript before the step
(JSON messages), `step_message` the step (an assistant message: one tool call, a question to the
person, or an answer), `correct` ToolComp's binary label and `label` the finer one.
""")
    shutil.rmtree(out, ignore_errors=True)
    os.replace(tmp, out)
    return len(rows)
