"""A newcomer's first hour, scripted: every command a new user runs, each in a fresh process as
from a shell, offline, checked for what that user should see.

Fresh generate, validate, stats, audit, evaluate the oracle in static and in interactive mode,
report, import NesTools and evaluate it, score predictions written from the run's own
nestools.jsonl (100 on every metric), and publish twice: with no token, and with a token and
a Hub that cannot be reached (HF_ENDPOINT is a closed port on 127.0.0.1, so nothing can reach
the real Hub). Each command must end with its expected exit code and no traceback, a failure
in exactly one line on stderr naming its cause; at the end no results folder may be empty
and every evaluation's folder must hold its results.json.

Prints one line per command (exit code, seconds, its last line) and the problems found;
exits 1 if there are any.

    python benchmarks/first_hour.py [--instances 30] [--seed 1] [--nestools-rows 1000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NESTOOLS = ROOT / "tests" / "data" / "nestools"


@dataclass
class Step:
    name: str
    args: list[str]
    exit_code: int = 0  # expected
    error: str | None = None  # expected failure: what its one line on stderr must contain
    env: dict[str, str | None] = field(default_factory=dict)  # changes to the environment (None: unset)


@dataclass
class Outcome:
    step: Step
    code: int
    seconds: float
    stdout: str
    stderr: str

    def problems(self) -> list[str]:
        found = []
        if self.code != self.step.exit_code:
            found.append(f"exit code {self.code}, expected {self.step.exit_code}")
        if "Traceback" in self.stdout + self.stderr:
            found.append("a traceback was printed")
        if self.step.error is not None:
            lines = [line for line in self.stderr.splitlines() if line.strip()]
            if len(lines) != 1 or not lines[0].startswith("error: ") or self.step.error not in lines[0]:
                got = lines[0] if len(lines) == 1 else f"{len(lines)} lines, the last: {lines[-1] if lines else ''}"
                found.append(f"expected one line on stderr, 'error: ...{self.step.error}...', got {got[:300]!r}")
        return found

    def last_line(self) -> str:
        lines = [line.strip() for line in (self.stderr if self.code else self.stdout).splitlines() if line.strip()]
        return lines[-1] if lines else ""


def closed_port() -> int:
    """A port on 127.0.0.1 where nothing listens: connecting is refused at once."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def base_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FACTORY_", "HF_", "OPENAI_"))}
    env.update(PYTHONPATH=str(ROOT), FACTORY_OUTPUT_DIR=str(home / "generated"), FACTORY_CACHE_DIR=str(home / "cache"),
               HF_HOME=str(home / "hf-home"), HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1",
               LITELLM_LOCAL_MODEL_COST_MAP="True", TOKENIZERS_PARALLELISM="false", COLUMNS="120")
    return env


def run(step: Step, home: Path, env: dict[str, str]) -> Outcome:
    changed = {**env, **{k: v for k, v in step.env.items() if v is not None}}
    for key in (k for k, v in step.env.items() if v is None):
        changed.pop(key, None)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "factory.cli", *step.args], cwd=home, env=changed,
                          capture_output=True, text=True, timeout=1800)
    return Outcome(step, done.returncode, time.perf_counter() - started, done.stdout, done.stderr)


def nestools_subset(folder: Path, rows: int) -> Path:
    """The first `rows` NesTools test rows and their api ids, as the release lays them out."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("test_data.jsonl", "test_api_ids.jsonl"):
        lines = (NESTOOLS / name).read_text(encoding="utf-8").split("\n")
        (folder / name).write_text("\n".join(line for line in lines[:rows] if line) + "\n", encoding="utf-8")
    return folder


def predictions_from(nestools_jsonl: Path, out: Path) -> list[str]:
    """A raw-response line per row of a run's nestools.jsonl, its gold calls written as the
    README's predictions format says (each output named by the tool's `responses`); returns
    what the rows lack for that."""
    lines, problems = [], set()
    for row in map(json.loads, nestools_jsonl.read_text(encoding="utf-8").splitlines()):
        outputs = {api["api_name"]: list(api["responses"]) for api in row["api"]}
        calls = []
        for call in row["call"]:
            if "api_id" not in call:
                problems.add("nestools.jsonl: a gold call without its api_id")
            calls.append({"api_name": call["api_name"], **({"api_id": call["api_id"]} if "api_id" in call else {}),
                          "parameters": call["parameters"],
                          "responses": dict(zip(outputs[call["api_name"]], call["responses"], strict=True))})
        lines.append(json.dumps({"test_id": row["test_id"], "response": json.dumps(calls)}) + "\n")
    out.write_text("".join(lines), encoding="utf-8")
    return sorted(problems)


def steps(home: Path, instances: int, seed: int, nestools_rows: int) -> list[Step]:
    run_dir, imported = home / "run", home / "nestools"
    source = nestools_subset(home / "nestools-source", nestools_rows)
    hub = f"http://127.0.0.1:{closed_port()}"
    no_hub = {"HF_HUB_OFFLINE": None, "HF_ENDPOINT": hub}
    return [
        Step("generate", ["generate", "--domain", "all", "-n", str(instances), "--seed", str(seed), "--out", str(run_dir)]),
        Step("validate", ["validate", str(run_dir)]),
        Step("stats", ["stats", str(run_dir)]),
        Step("audit", ["audit", str(run_dir), "--sample", "5"]),
        Step("evaluate static", ["evaluate", str(run_dir), "--agent", "oracle"]),
        Step("evaluate interactive", ["evaluate", str(run_dir), "--mode", "interactive", "--agent", "oracle"]),
        Step("report", ["report"]),  # + every results folder, as the shell expands generated/evaluations/*
        Step("import nestools", ["import", "nestools", str(source), "--out", str(imported)]),
        Step("evaluate nestools", ["evaluate", str(imported), "--agent", "oracle"]),
        Step("score nestools.jsonl", ["evaluate", str(run_dir), "--predictions", str(home / "predictions.jsonl"),
                                      "--out", str(home / "results" / "own-export")]),
        Step("publish, no token", ["publish", str(run_dir), "--repo-id", "newcomer/first-hour"], 1, "no Hugging Face token",
             {**no_hub, "HF_TOKEN": None}),
        Step("publish, Hub unreachable", ["publish", str(run_dir), "--repo-id", "newcomer/first-hour"], 1,
             f"cannot reach {hub}", {**no_hub, "HF_TOKEN": "hf_first_hour_token"}),
    ]


def checks_after(home: Path, outcomes: dict[str, Outcome]) -> list[str]:
    """What must hold once every command ran: every metric 100 on the run's own export, no
    empty results folder, every evaluation's folder holding its results."""
    problems = []
    own = home / "results" / "own-export" / "results.json"
    if own.is_file():
        results = json.loads(own.read_text())
        below = {k: m["value"] for k, m in results["metrics"].items() if m["value"] != 1.0}
        if below or not results["metrics"]:
            problems.append(f"predictions from nestools.jsonl: not 100 on every metric: {below}")
        coverage = results.get("coverage") or {}
        if coverage.get("missing") or coverage.get("predicted") != coverage.get("tasks"):
            problems.append(f"predictions from nestools.jsonl: coverage {coverage}")
    else:
        problems.append("predictions from nestools.jsonl: no results.json")
    for folder in sorted(p for p in home.rglob("*") if p.is_dir()):
        if not any(folder.iterdir()):
            problems.append(f"empty folder left behind: {folder.relative_to(home)}")
    evaluations = home / "generated" / "evaluations"
    for folder in sorted(evaluations.iterdir()) if evaluations.is_dir() else []:
        if not (folder / "results.json").is_file():
            problems.append(f"results folder without results.json: {folder.relative_to(home)}")
    if "publish, no token" in outcomes and (home / "hf-home").exists() and any((home / "hf-home").rglob("token")):
        problems.append("publish wrote a token file")
    return problems


def first_hour(home: Path, instances: int, seed: int, nestools_rows: int) -> list[str]:
    env = base_env(home)
    outcomes: dict[str, Outcome] = {}
    problems: list[str] = []
    print(f"{'command':26} {'exit':>4} {'seconds':>8}  last line")
    for step in steps(home, instances, seed, nestools_rows):
        if step.name == "score nestools.jsonl":
            problems += predictions_from(home / "run" / "nestools.jsonl", home / "predictions.jsonl")
        if step.name == "report":
            step.args = ["report", *sorted(str(p) for p in (home / "generated" / "evaluations").glob("*"))]
        outcome = outcomes[step.name] = run(step, home, env)
        print(f"{step.name:26} {outcome.code:>4} {outcome.seconds:8.1f}  {outcome.last_line()[:160]}", flush=True)
        problems += [f"{step.name}: {p}" for p in outcome.problems()]
    return problems + checks_after(home, outcomes)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--instances", type=int, default=30, help="instances of the fresh run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--nestools-rows", type=int, default=1000, help="NesTools test rows to import")
    parser.add_argument("--keep", type=Path, help="work in this (new) folder and keep it")
    args = parser.parse_args()
    home = args.keep or Path(tempfile.mkdtemp(prefix="first-hour-"))
    home.mkdir(parents=True, exist_ok=True)
    try:
        problems = first_hour(home.resolve(), args.instances, args.seed, args.nestools_rows)
    finally:
        if args.keep is None:
            shutil.rmtree(home, ignore_errors=True)
    for problem in problems:
        print(f"PROBLEM {problem}")
    print("first hour: " + (f"{len(problems)} problem(s)" if problems else "no traceback, no empty results folder, "
                            "every failure one line, the run's own export scores 100"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
