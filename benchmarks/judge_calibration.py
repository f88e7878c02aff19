"""Judge calibration: the precision and recall of each model judge's vetoes on planted defects.

Draws sound instances from a run (default: the committed sample), plants defects in copies
(factory.checks.judge_calibration) and prints, per judge, how many vetoes fell on a defect
(precision) and how many defects were vetoed (recall):
- for three stand-in judges that need no model (one that never says no, one that always does,
  and one that balks at long requests, as weak models tend to), so the figures' meaning is plain;
- for a real model when one is given, through the same client a run uses.

    python benchmarks/judge_calibration.py [--run generated/sample] [--cases 12]
    python benchmarks/judge_calibration.py --model openai/qwen --api-base http://127.0.0.1:8080/v1 --cases 8
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
for key, value in (("HF_HUB_OFFLINE", "1"), ("HF_DATASETS_OFFLINE", "1"), ("LITELLM_LOCAL_MODEL_COST_MAP", "True")):
    os.environ.setdefault(key, value)

from factory.checks.judge_calibration import JUDGES, measure, planted  # noqa: E402
from factory.dataset.export import load_instances  # noqa: E402


def _fmt(value: float | None) -> str:
    return "   -" if value is None else f"{value:4.2f}"


def report(label: str, scores: dict, seconds: float) -> None:
    for name in JUDGES:
        s = scores[name]
        print(f"{label:<22} {name:<19} defects {s.defects:3d}  vetoes {s.vetoes:3d}  caught {s.caught:3d}  "
              f"precision {_fmt(s.precision)}  recall {_fmt(s.recall)}  unread {s.unread:3d}  ({seconds:.1f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", type=Path, default=ROOT / "generated" / "sample")
    parser.add_argument("--cases", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--model")
    parser.add_argument("--api-base")
    parser.add_argument("--structured-output", default=None)
    args = parser.parse_args()

    dataset = args.run / "dataset" if (args.run / "dataset").is_dir() else args.run
    instances = [i for i in load_instances(dataset) if i.trace.ok and i.trace.answer]
    cases = planted(instances, args.cases, args.seed)
    print(f"{len(cases)} cases from {len(instances)} instances of {args.run}: "
          f"{sum(not c.plausible for c in cases)} implausible, {sum(not c.faithful for c in cases)} unfaithful")
    stand_ins = {
        "never says no": lambda r, k, a: (True, True, ""),
        "always says no": lambda r, k, a: (False, False, ""),
        "balks at long requests": lambda r, k, a: (len(r) < 260, len(r) < 260, ""),
    }
    for label, ask in stand_ins.items():
        start = time.perf_counter()
        report(label, measure(ask, cases), time.perf_counter() - start)
    if args.model:
        from factory.config import load_settings
        from factory.generation.stages import model_judge

        settings = load_settings({"model": args.model, "api_base": args.api_base,
                                  **({"structured_output": args.structured_output} if args.structured_output else {})})
        with tempfile.TemporaryDirectory() as tmp:
            judge, _, close = model_judge(settings, Path(tmp) / "calls.sqlite")
            try:
                start = time.perf_counter()
                report(args.model, measure(judge.ask, cases), time.perf_counter() - start)
            finally:
                close()


if __name__ == "__main__":
    main()
