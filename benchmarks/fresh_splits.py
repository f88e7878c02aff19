"""Are scores on fresh splits comparable? A reference agent on several fresh splits of the same
settings, split-to-split spread against the bootstrap interval.

For each run seed, `factory evaluate --fresh-split SEED --domain all -n N --exclude-from nestools
--agent noisy:0.3` in static mode, then in interactive mode on the same split (the run is
complete, so it is reused, not generated again); then prints each split's fingerprint,
contamination counts, static average and interactive success with their 95% bootstrap
intervals, and per metric the spread across splits beside the mean interval width, as
`factory report` over the results folders does.

    python benchmarks/fresh_splits.py [--seeds 1 2 3 4 5] [-n 300] [--agent noisy:0.3] [--out /tmp/fresh-splits]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

HEADLINE = {"static": "average", "interactive": "success"}


def evaluate(seed: int, n: int, agent: str, mode: str, out: Path, references: list[str]) -> dict:
    """One `factory evaluate --fresh-split` in a fresh process; its results.json."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
           "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    results = out / f"{mode}-seed{seed}"
    args = [sys.executable, "-m", "factory.cli", "evaluate", str(out / f"split-seed{seed}"), "--fresh-split", str(seed),
            "--domain", "all", "-n", str(n), "--agent", agent, "--mode", mode, "--out", str(results)]
    for reference in references:
        args += ["--exclude-from", reference]
    done = subprocess.run(args, env=env, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args[2:])} failed:\n{done.stderr[-2000:]}{done.stdout[-2000:]}")
    return json.loads((results / "results.json").read_text(encoding="utf-8"))


def figure(results: dict) -> str:
    metric = results["metrics"][HEADLINE[results["mode"]]]
    return f"{100 * metric['value']:.1f} [{100 * metric['ci_low']:.1f}, {100 * metric['ci_high']:.1f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("-n", type=int, default=300)
    parser.add_argument("--agent", default="noisy:0.3")
    parser.add_argument("--exclude-from", nargs="*", default=["nestools"])
    parser.add_argument("--out", type=Path, default=None, help="Folder for the splits and results (default: a temporary one).")
    options = parser.parse_args()
    out = options.out or Path(tempfile.mkdtemp(prefix="fresh-splits-"))

    from factory.evaluate.fresh import split_groups, verdict
    from factory.evaluate.summary import COUNTS

    runs = []
    print(f"{options.agent} on fresh splits of --domain all -n {options.n}, excluding {', '.join(options.exclude_from) or 'nothing'}")
    print("| seed | fingerprint | candidates | contamination rejects | over the thresholds | static average [95% CI] "
          "| interactive success [95% CI] |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    for seed in options.seeds:
        static = evaluate(seed, options.n, options.agent, "static", out, options.exclude_from)
        interactive = evaluate(seed, options.n, options.agent, "interactive", out, options.exclude_from)
        runs += [(f"static-seed{seed}", static), (f"interactive-seed{seed}", interactive)]
        split = static["fresh_split"]
        c = split["contamination"]
        print(f"| {seed} | `{split['fingerprint']}` | {split['attempts']} | {c['rejected']} | {c['crossed']} "
              f"| {figure(static)} | {figure(interactive)} |", flush=True)
    for group in split_groups(runs):
        print(f"\n{group.mode}: {verdict(group)}")
        print("| metric | mean | min | max | sd | spread | mean 95% interval | comparable |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
        for s in group.spreads:
            scale = 1 if s.metric in COUNTS else 100
            cells = " | ".join(f"{scale * v:.2f}" for v in (s.mean, min(s.values), max(s.values), s.sd, s.spread,
                                                              s.interval))
            print(f"| {s.metric} | {cells} | {'yes' if s.comparable else 'no'} |")
    print(f"\nresults in {out}: factory report {out}/static-seed* {out}/interactive-seed*")


if __name__ == "__main__":
    main()
