"""PNG plots of a run: scores by nesting depth, by nesting shape and by category (Agg backend).

Sized so every label stays readable: the figure widens with the number of bars, tick labels
slant when they are long or many, the title takes two lines (who, then what), the legend
sits outside the bars, and the saved image is cropped to what was drawn, never clipping it.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from factory.evaluate.summary import show, who

PLOTTED = {
    "static": (("average", "Average"), ("tree_pass_rate", "Tree pass")),
    "interactive": (("milestone_similarity", "Milestones"), ("success", "Success")),
}
PLOTS = (("depth", "nesting depth", "score_by_depth.png"), ("shape", "nesting shape", "score_by_shape.png"),
         ("category", "category", "score_by_category.png"))
MAX_BARS = 15


def _groups(groups: dict[str, dict[str, Any]], title: str) -> list[tuple[str, dict[str, Any]]]:
    items = list(groups.items())
    if title == "shape":  # the most frequent shapes
        items = sorted(items, key=lambda kv: -kv[1]["n"])[:MAX_BARS]
    return items[:MAX_BARS]


def _plot(path: Path, items: list[tuple[str, dict[str, Any]]], metrics: tuple[tuple[str, str], ...], xlabel: str,
          title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    labels = [f"{name}\n(n={m['n']})" for name, m in items]
    slanted = len(items) > 5 or max(len(name) for name, _ in items) > 14
    x = np.arange(len(items))
    width = 0.8 / len(metrics)
    fig, ax = plt.subplots(figsize=(max(6.5, (0.75 if slanted else 1.3) * len(items) + 2.5), 4.8))
    for k, (key, label) in enumerate(metrics):
        values = [100 * (m.get(key) or 0.0) for _, m in items]
        ax.bar(x + (k - (len(metrics) - 1) / 2) * width, values, width, label=label)
    ax.set_xticks(x, labels, rotation=35 if slanted else 0, ha="right" if slanted else "center",
                  rotation_mode="anchor" if slanted else "default", fontsize=9)
    ax.set_ylim(0, 105)
    ax.set_ylabel("score (%)")
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=11)
    ax.legend(fontsize=9, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    ax.grid(axis="y", alpha=0.3)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)


def write_plots(out: Path, results: dict[str, Any]) -> list[str]:
    metrics = PLOTTED[results["mode"]]
    headline = results["metrics"].get(metrics[0][0], {}).get("value")
    written = []
    for key, label, filename in PLOTS:
        items = _groups(results["breakdowns"][key], key)
        if not items:
            continue
        name = "\n".join(textwrap.wrap(who(results), 70))
        title = f"{name}\nscore by {label} (overall {metrics[0][1].lower()} {show(metrics[0][0], headline)})"
        _plot(out / filename, items, metrics, label, title)
        written.append(filename)
    return written
