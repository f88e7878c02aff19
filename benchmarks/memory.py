"""Peak memory of long runs: does a run's memory stay flat as it keeps more instances?

Runs `factory generate --domain all -n N --seed S --workers 1` for each N (default 1,000 and
5,000), each in a fresh process into a temporary folder, and prints its wall time and peak
resident memory (the process's own ru_maxrss), each peak's ratio to the first one's, the
memory each further instance adds, and a straight-line extrapolation of the largest run's
time and memory to 100,000 instances. The issue's target: a 10,000-instance run peaks at
no more than 1.2x a 1,000-instance run.

    python benchmarks/memory.py [--sizes 1000 5000 10000] [--seed 3] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(n: int, seed: int, out: Path) -> tuple[float, float]:
    """(wall seconds, peak RSS in MB) of one generation run in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
           "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    command = [sys.executable, "-m", "factory.cli", "generate", "--domain", "all", "-n", str(n), "--seed", str(seed),
               "--workers", "1", "--out", str(out)]
    with tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err, text=True)
        _, status, usage = os.wait4(process.pid, 0)  # this child's own peak, not the largest so far
        seconds = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            raise SystemExit(f"generate -n {n} failed:\n{err.read()[-2000:]}")
    return seconds, usage.ru_maxrss / 1000  # kB → MB, as /usr/bin/time's figure reads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="write the runs here (default: a temporary folder, removed)")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="memory-"))
    results = []
    try:
        for n in args.sizes:
            seconds, peak = run(n, args.seed, folder / f"n{n}")
            results.append((n, seconds, peak))
            print(f"-n {n:>6}: {seconds:7.1f} s wall, peak RSS {peak:7.0f} MB", flush=True)
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    (n0, s0, p0), (n1, s1, p1) = results[0], results[-1]
    for n, _, peak in results[1:]:
        print(f"peak RSS -n {n} / -n {n0}: {peak / p0:.2f}x" + ("  (target <= 1.2x)" if n == 10 * n0 else ""))
    if n1 > n0:
        per = (p1 - p0) / (n1 - n0) * 1000
        print(f"each further instance adds {per:.1f} KB of peak memory and {(s1 - s0) / (n1 - n0) * 1000:.1f} ms")
        at = 100_000
        print(f"extrapolated to -n {at}: {s1 + (s1 - s0) / (n1 - n0) * (at - n1):.0f} s wall, "
              f"peak RSS {p1 + (p1 - p0) / (n1 - n0) * (at - n1):.0f} MB (a straight line through the first and last runs; the export holds at most one 100 MB row group, so this overstates)")


if __name__ == "__main__":
    main()
