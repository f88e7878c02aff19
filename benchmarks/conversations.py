"""Conversations measured: the reference agents with the offline user on a run with
conversational items (`factory generate --domain all -n 300 --seed 5 --conversations`).

Prints, for the oracle, the guesser and noisy:0.1/0.3/0.5, success and milestone similarity with
their 95% bootstrap intervals over every instance and over the conversational ones, whether
adjacent noise levels separate (non-overlapping intervals), how many ask-the-user items the
guesser lost through a minefield, the share of correct step labels, and the offline user's
error rates.

    python benchmarks/conversations.py [-n 300] [--seed 5] [--dataset RUN_DIR]
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

AGENTS = ("oracle", "guesser", "noisy:0.1", "noisy:0.3", "noisy:0.5")
NOISY = ("noisy:0.1", "noisy:0.3", "noisy:0.5")
METRICS = ("success", "milestone_similarity")


def _interval(samples: list, metric: str) -> tuple[float, float, float]:
    from factory.evaluate.aggregate import confidence_intervals

    value = sum(s.scores.get(metric, 0.0) for s in samples) / len(samples)
    low, high = confidence_intervals(samples, "interactive")[metric]
    return value, low, high


def _table(samples: dict[str, list], title: str) -> list[str]:
    lines = [f"## {title} ({len(next(iter(samples.values())))} instances)", "",
             "| agent | " + " | ".join(METRICS) + " |", "| --- |" + " ---: |" * len(METRICS)]
    intervals = {agent: {m: _interval(s, m) for m in METRICS} for agent, s in samples.items()}
    for agent, row in intervals.items():
        lines.append(f"| {agent} | " + " | ".join(f"{100 * v:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"
                                                   for v, lo, hi in row.values()) + " |")
    for metric in METRICS:
        pairs = zip(NOISY, NOISY[1:], strict=False)
        apart = [intervals[a][metric][1] > intervals[b][metric][2] for a, b in pairs]
        lines.append(f"\nnoisy levels separate on {metric}: {'yes' if all(apart) else 'no'}")
    return lines + [""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=300)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--dataset", type=Path, help="score this run directory instead of generating one")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from factory.config import load_settings
    from factory.dataset.export import load_instances
    from factory.evaluate.interactive.agents import reference_agent
    from factory.evaluate.interactive.episode import run_interactive
    from factory.evaluate.report import step_label_counts, user_rates
    from factory.generation.generate import generate
    from factory.records import GenerateConfig

    with tempfile.TemporaryDirectory(prefix="conversations-") as tmp:
        settings = load_settings({"output_dir": tmp})
        run = args.dataset or generate(GenerateConfig(domain="all", n=args.n, seed=args.seed, conversations=True),
                                       settings, Path(tmp) / "split").path
        instances = load_instances(run / "dataset", conversations=True)
        talks = [k for k, i in enumerate(instances) if i.conversation is not None]
        print(f"# Conversations on {run}: {len(talks)} of {len(instances)} instances conversational\n")
        samples = {agent: run_interactive(instances, reference_agent(agent)) for agent in AGENTS}
        print("\n".join(_table(samples, "every instance")))
        print("\n".join(_table({a: [s[k] for k in talks] for a, s in samples.items()}, "conversational instances")))
        asks = [k for k in talks if instances[k].conversation.kind == "ask_user"]
        lost = sum(samples["guesser"][k].scores["success"] == 0 and "invented_value" in samples["guesser"][k].errors
                   for k in asks)
        print(f"guesser: {lost} of {len(asks)} ask-the-user items lost through an invented-value minefield")
        for agent in AGENTS:
            counts = step_label_counts(samples[agent])
            print(f"{agent}: {counts['steps']} steps, {100 * counts['correct_share']:.1f}% correct, {counts['labels']}")
        print(f"offline user: {user_rates([samples['oracle'][k] for k in talks])}")


if __name__ == "__main__":
    main()
