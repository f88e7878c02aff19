"""Generation throughput of this tree against a baseline commit, on the same machine in one run.

Both versions generate the same mixed run (`factory generate --domain all -n N --seed S`),
alternating, several repetitions each; the script prints instances per second of each run and
the ratio of the medians (this tree / baseline). The baseline is checked out into a temporary
git worktree and run with its own package and seeds. This tree runs twice per repetition: cold
(an empty store of toolbox embeddings, as a first run on a machine) and warm (the store a
previous run left, as every later run); both ratios are printed.

    python benchmarks/generation_throughput.py [--baseline 5e7c5cb] [-n 200] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_BASELINE = "5e7c5cb"  # the last commit before the sense and fairness work


def run(tree: Path, out: Path, n: int, seed: int, cache: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree), "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
           "FACTORY_CACHE_DIR": str(cache)}
    command = [sys.executable, "-m", "factory.cli", "generate", "--domain", "all", "-n", str(n), "--seed", str(seed),
               "--out", str(out), "--fresh"]
    start = time.perf_counter()
    subprocess.run(command, cwd=tree, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default=DEFAULT_BASELINE)
    parser.add_argument("-n", type=int, default=200)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="throughput-") as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), args.baseline],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            rates: dict[str, list[float]] = {"baseline": [], "cold": [], "warm": []}
            cache = Path(tmp) / "cache"
            for rep in range(args.repeat):
                for label, tree in (("baseline", base), ("cold", ROOT), ("warm", ROOT)):
                    if label == "cold":
                        shutil.rmtree(cache, ignore_errors=True)
                    rate = run(tree, Path(tmp) / f"out-{label}", args.n, args.seed, cache)
                    rates[label].append(rate)
                    print(f"repetition {rep + 1}: {label:8s} {rate:6.2f} instances/s", flush=True)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], check=False)
    medians = {k: statistics.median(v) for k, v in rates.items()}
    print(f"median instances/s: baseline {medians['baseline']:.2f}, this tree cold {medians['cold']:.2f}, "
          f"warm {medians['warm']:.2f}; ratio this/baseline: cold {medians['cold'] / medians['baseline']:.2f}, "
          f"warm {medians['warm'] / medians['baseline']:.2f}")


if __name__ == "__main__":
    main()
