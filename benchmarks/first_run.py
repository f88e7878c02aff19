"""A first run's cost: `factory --help` and `factory generate -n 1`, each in a fresh process.

Times `factory --help` and `factory generate --domain DOMAIN -n 1 --fresh` (after one
unmeasured run, so the caches are warm, as on a second try), several repetitions each, and
prints their wall times, peak memory, and whether the process loaded pydantic (for --help)
or the embedding model's libraries (torch, sentence-transformers): an offline run of one
instance needs neither the model nor any check that embeds.

    python benchmarks/first_run.py [--repeat 5] [--domain "Food and Beverage"]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODEL_LIBRARIES = ("torch", "sentence_transformers", "transformers")


def run(args: list[str], importtime: bool = False) -> tuple[float, float, set[str]]:
    """(wall seconds, peak RSS in MB, top-level modules imported: with `importtime` only, which
    slows the process) of one fresh process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
           "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    with tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        process = subprocess.Popen([sys.executable, *(["-X", "importtime"] if importtime else []), "-m", "factory.cli", *args], env=env, cwd=ROOT,
                                   stdout=subprocess.DEVNULL, stderr=err, text=True)
        _, status, usage = os.wait4(process.pid, 0)  # this child's own peak RSS, not the largest so far
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read()
    if process.returncode != 0:
        raise SystemExit(f"factory {' '.join(args)} failed:\n{stderr[-2000:]}")
    modules = {line.rsplit("|", 1)[1].strip().split(".")[0] for line in stderr.splitlines()
               if line.startswith("import time:") and "|" in line}
    return seconds, usage.ru_maxrss / 1024, modules


def measure(name: str, args: list[str], repeat: int, watch: tuple[str, ...]) -> float:
    walls, peaks = [], []
    for _ in range(repeat):
        seconds, peak, _ = run(args)
        walls.append(seconds)
        peaks.append(peak)
    loaded = run(args, importtime=True)[2] & set(watch)
    print(f"{name:22s} wall median {statistics.median(walls):.2f}s (min {min(walls):.2f}, max {max(walls):.2f}, "
          f"{repeat} runs); peak RSS up to {max(peaks):.0f} MB; loaded {', '.join(sorted(loaded)) or 'none'} of "
          f"{', '.join(watch)}")
    return statistics.median(walls)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--domain", default="Food and Beverage")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        generate = ["generate", "--domain", args.domain, "-n", "1", "--out", str(Path(tmp) / "run"), "--fresh"]
        run(generate)  # warms the caches (seed tables, embeddings store)
        help_wall = measure("factory --help", ["--help"], args.repeat, ("pydantic", *MODEL_LIBRARIES))
        run_wall = measure("generate -n 1 (warm)", generate, args.repeat, MODEL_LIBRARIES)
    print(f"targets: --help under 0.5 s ({'met' if help_wall < 0.5 else 'NOT met'}), generate -n 1 at most 3 s "
          f"({'met' if run_wall <= 3 else 'NOT met'})")


if __name__ == "__main__":
    main()
