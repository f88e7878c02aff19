"""Time static scoring of the 1,000 NesTools test instances (tests/data/nestools).

Prints, per repetition: converting the rows into instances (with distractors), building the
prompts, scoring the oracle's answers (parse + NesTools metrics), scoring noisy:0.5, and the
bootstrap intervals; then the noisy ranking and a determinism check.

With `--official DIR` (a checkout of NesTools' repository, whose evaluation/eval.py is its
official scorer) and `--official-python PY` (an interpreter with the scorer's requirements,
rouge==1.0.1 and tqdm), it also scores 11 prediction files of 1,000 answers each (the oracle,
noisy agents from 0.05 to 0.7 and the random agent: NesTools' own model outputs are not
published) in one `factory evaluate --predictions ...` process and with the official scorer,
and prints both wall times, their ratio (target: at most 1.0x) and whether the averages agree;
first, how long loading the imported dataset takes in a fresh process.

    python benchmarks/score_nestools.py [--repeat 5] [--official DIR --official-python PY]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from factory.evaluate.aggregate import confidence_intervals, static_metrics
from factory.evaluate.importer import convert
from factory.evaluate.static.agents import agent_responder, static_agent
from factory.evaluate.static.augment import parse_augment
from factory.evaluate.static.scoring import run_static
from factory.evaluate.static.tasks import build_tasks, load_template
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


AGENTS = ["oracle", "noisy:0.05", "noisy:0.1", "noisy:0.15", "noisy:0.2", "noisy:0.25", "noisy:0.3", "noisy:0.4",
          "noisy:0.5", "noisy:0.7", "random"]


def prediction_files(dataset: Path, folder: Path) -> list[Path]:
    """One NesTools raw-response file per agent, answering every test_id of the import."""
    from factory.dataset.export import load_instances
    from factory.evaluate.tool_ids import identities

    instances = load_instances(dataset / "dataset")
    tasks, _ = build_tasks(instances, identities(instances, dataset / "dataset"), parse_augment([]),
                           load_template(ROOT / "prompts"))
    files = []
    for agent in AGENTS:
        answers = agent_responder(static_agent(agent))([(t, 0) for t in tasks])
        path = folder / agent.replace(":", "-") / "raw_response.jsonl"
        path.parent.mkdir(parents=True)
        path.write_text("".join(json.dumps({"test_id": t.test_id, "response": a.text}) + "\n"
                                for t, a in zip(tasks, answers, strict=True)))
        files.append(path)
    return files


def wall(command: list[str], cwd: Path | None = None) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env={**os.environ, "COLUMNS": "200"})
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command[:4])}... failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    return seconds


LOAD = "import sys; from pathlib import Path; from factory.dataset.export import load_instances; load_instances(Path(sys.argv[1]))"


def against_official(official: Path, python: str, repeat: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        factory = [sys.executable, "-m", "factory.cli"]
        wall([*factory, "import", "nestools", str(DATA), "--out", str(tmp_path / "import")])
        files = prediction_files(tmp_path / "import", tmp_path / "predictions")
        loads = [wall([sys.executable, "-c", LOAD, str(tmp_path / "import" / "dataset")]) for _ in range(repeat)]
        print(f"loading the 1,000 instances in a fresh process (imports included): {statistics.median(loads):.2f}s "
              f"(median of {repeat})")
        ours, theirs = [], []
        for r in range(repeat):
            out = tmp_path / f"ours-{r}"
            ours.append(wall([*factory, "evaluate", str(tmp_path / "import"), "--allow-missing", "--out", str(out),
                              *[a for f in files for a in ("--predictions", str(f))]]))
            csv_path = tmp_path / f"official-{r}.csv"
            theirs.append(wall([python, "evaluation/eval.py", "--gold_file_path", "data/test_data.jsonl",
                                "--result_path", str(csv_path), "--predict_file_path", *map(str, files)], cwd=official))
            print(f"round {r + 1}: factory evaluate {ours[-1]:.2f}s, official scorer {theirs[-1]:.2f}s, "
                  f"ratio {ours[-1] / theirs[-1]:.2f}x")
        mine, official_times = statistics.median(ours), statistics.median(theirs)
        print(f"{len(files)} prediction files x 1,000 answers: factory evaluate {mine:.2f}s, official scorer "
              f"{official_times:.2f}s (medians of {repeat}); ratio {mine / official_times:.2f}x (target <= 1.0x: "
              + ("met)" if mine <= official_times else "NOT met)"))
        with csv_path.open() as handle:
            official_average = {Path(row[0]).parent.name: float(row[-1]) for row in list(csv.reader(handle))[1:]}
        for path in files:
            results = json.loads((out / f"{path.parent.name}-{path.stem}" / "results.json").read_text())
            average = 100 * results["metrics"]["average"]["value"]
            agree = "agree" if abs(average - official_average[path.parent.name]) < 0.051 else "DIFFER"
            print(f"  {path.parent.name:11s} average: factory {average:5.1f}, official {official_average[path.parent.name]:5.1f} ({agree})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--official", type=Path, help="a checkout of NesTools' repository (evaluation/eval.py)")
    parser.add_argument("--official-python", default=sys.executable, help="interpreter with rouge==1.0.1 and tqdm")
    args = parser.parse_args()
    if args.official:
        against_official(args.official, args.official_python, args.repeat)
        return
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
