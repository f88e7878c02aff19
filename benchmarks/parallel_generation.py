"""Throughput of `factory generate --workers 2` against `--workers 1` (and, with --ray, of a
local two-CPU Ray against `--workers 2`) on the same mixed run, alternating, several repetitions
each; prints instances per second, the ratios of the medians, whether every run wrote the same
bytes, and what the machine gave: the load average and the speed-up two processes of plain
Python got at the same moment (on a machine whose cores others share, that bounds any ratio).

    python benchmarks/parallel_generation.py [-n 1000] [--repeat 3] [--ray]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def spin(_: int) -> float:
    started = time.perf_counter()
    total = 0
    for i in range(10_000_000):
        total += i
    return time.perf_counter() - started


def machine_parallelism() -> float:
    """How much faster two processes finish two equal pieces of work than one process does."""
    with Pool(2) as pool:
        started = time.perf_counter()
        pool.map(spin, range(2), chunksize=1)
        two = time.perf_counter() - started
    started = time.perf_counter()
    spin(0), spin(1)
    return (time.perf_counter() - started) / two


def digest(run: Path) -> str:
    files = sorted(p for p in run.rglob("*") if p.is_file() and p.name != "run.lock")
    return hashlib.sha256(b"".join(hashlib.sha256(p.read_bytes()).digest() for p in files)).hexdigest()[:16]


def run(out: Path, n: int, seed: int, engine: list[str]) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    command = [sys.executable, "-m", "factory.cli", "generate", "--domain", "all", "-n", str(n), "--seed", str(seed),
               "--out", str(out), "--fresh", *engine]
    started = time.perf_counter()
    subprocess.run(command, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return n / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--ray", action="store_true", help="also a Ray started for each run (two CPUs)")
    args = parser.parse_args()
    engines = {"workers=1": ["--workers", "1"], "workers=2": ["--workers", "2"]}
    if args.ray:
        engines["ray"] = ["--ray", "local"]
    rates: dict[str, list[float]] = {label: [] for label in engines}
    digests: dict[str, set[str]] = {label: set() for label in engines}
    with tempfile.TemporaryDirectory(prefix="parallel-") as tmp:
        for rep in range(args.repeat):
            for label, engine in engines.items():
                out = Path(tmp) / label / "run"  # the same folder name: the manifest holds it
                parallelism = machine_parallelism()
                rate = run(out, args.n, args.seed, engine)
                rates[label].append(rate)
                digests[label].add(digest(out))
                load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
                print(f"repetition {rep + 1}: {label:9s} {rate:6.2f} instances/s   (load {load}; two processes "
                      f"of plain Python ran {parallelism:.2f}x one just before)", flush=True)
    median = {label: statistics.median(values) for label, values in rates.items()}
    print(f"workers=2 / workers=1: {median['workers=2'] / median['workers=1']:.2f}x")
    if args.ray:
        print(f"ray / workers=2: {median['ray'] / median['workers=2']:.2f}x")
    same = len(set().union(*digests.values())) == 1
    print("every run wrote the same bytes" if same else f"runs differ: {digests}")


if __name__ == "__main__":
    main()
