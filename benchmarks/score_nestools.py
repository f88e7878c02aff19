"""Time static scoring of the 1,000 NesTools test instances (tests/data/nestools).

Prints, per repetition: converting the rows into instances (with distractors), building the
prompts, scoring the oracle's answers (parse + NesTools metrics), scoring noisy:0.5, and the
bootstrap intervals; then the noisy ranking and a determinism check.

    python benchmarks/score_nestools.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from factory.evaluate.agents import agent_responder, static_agent
from factory.evaluate.aggregate import confidence_intervals, static_metrics
from factory.evaluate.augment import parse_augment
from factory.evaluate.importer import convert
from factory.evaluate.static import run_static
from factory.evaluate.static_tasks import build_tasks, load_template
from factory.evaluate.tool_ids import Identity

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "nestools"


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def one_round(rows, ids, template):
    t_convert, (items, _) = timed(lambda: convert(rows, ids))
    identity = [Identity(i.test_id, i.tool_ids, i.call) for i in items]
    t_tasks, (tasks, _) = timed(lambda: build_tasks([i.instance for i in items], identity, parse_augment([]), template))
    answers = {a: agent_responder(static_agent(a))([(t, 0) for t in tasks]) for a in ("oracle", "noisy:0.5")}
    t_oracle, oracle = timed(lambda: run_static(tasks, lambda jobs: answers["oracle"], "oracle"))
    t_noisy, noisy = timed(lambda: run_static(tasks, lambda jobs: answers["noisy:0.5"], "noisy:0.5"))
    t_ci, _ = timed(lambda: confidence_intervals(noisy, "static"))
    assert all(v == 1.0 for v in static_metrics(oracle).values())
    return {"convert": t_convert, "prompts": t_tasks, "score oracle": t_oracle, "score noisy:0.5": t_noisy,
            "bootstrap CI": t_ci}, tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rows = [json.loads(line) for line in (DATA / "test_data.jsonl").read_text().splitlines()]
    ids = {json.loads(line)["test_id"]: json.loads(line)["api_ids"] for line in (DATA / "test_api_ids.jsonl").read_text().splitlines()}
    template = load_template(ROOT / "prompts")
    rounds = []
    for r in range(args.repeat):
        times, tasks = one_round(rows, ids, template)
        rounds.append(times)
        print(f"round {r + 1}: " + ", ".join(f"{k} {v:.2f}s" for k, v in times.items()))
    print(f"{len(tasks)} instances; median over {args.repeat} rounds:")
    for key in rounds[0]:
        values = [t[key] for t in rounds]
        print(f"  {key:16s} {statistics.median(values):6.3f}s  (min {min(values):.3f}, max {max(values):.3f})")
    oracle_share = statistics.median(t["score oracle"] / t["convert"] for t in rounds)
    print(f"  scoring the oracle takes {oracle_share:.2f}x the time of converting the rows")
    averages = {p: static_metrics(run_static(tasks, agent_responder(static_agent(f"noisy:{p}")), "n"))["average"]
                for p in (0.1, 0.3, 0.5)}
    print("noisy averages: " + ", ".join(f"noisy:{p} {100 * a:.1f}" for p, a in averages.items())
          + (" (strictly decreasing)" if averages[0.1] > averages[0.3] > averages[0.5] else " (NOT ranked)"))
    first = [s.scores for s in run_static(tasks, agent_responder(static_agent("noisy:0.3")), "n")]
    again = [s.scores for s in run_static(tasks, agent_responder(static_agent("noisy:0.3")), "n")]
    print("deterministic: " + ("yes" if first == again else "NO"))


if __name__ == "__main__":
    main()
