"""Distractor tools: retrieved by embedding similarity to the gold tools, so they are
plausible; kept only when their names are far enough (Levenshtein) from every gold name and
their descriptions are not near-copies of a gold tool's, so the query stays unambiguous."""

from __future__ import annotations

import random

import Levenshtein
import numpy as np

from factory.embeddings import EmbeddingCache
from factory.records import ToolSpec


def description_similarity(gold: list[ToolSpec], others: list[ToolSpec], embeddings: EmbeddingCache) -> np.ndarray:
    """Cosine similarity of what the tools say they do (gold x others), names left out."""
    return embeddings.vectors([g.description for g in gold]) @ embeddings.vectors([o.description for o in others]).T


def too_close(candidate: ToolSpec, gold: list[ToolSpec], similarity: np.ndarray, min_name_distance: int,
              max_similarity: float) -> str | None:
    """Why a candidate may not be a distractor for these gold tools (`similarity`: description
    similarity to each gold tool)."""
    for g, sim in zip(gold, similarity, strict=True):
        if Levenshtein.distance(candidate.name, g.name) < min_name_distance:
            return f"name {candidate.name!r} is within {min_name_distance - 1} edits of gold tool {g.name!r}"
        if sim >= max_similarity:
            return f"{candidate.name!r} describes nearly the same thing as gold tool {g.name!r} (cosine {sim:.2f})"
    return None


def pick_distractors(
    gold: list[ToolSpec],
    pool: list[ToolSpec],
    k: int,
    rng: random.Random,
    embeddings: EmbeddingCache,
    *,
    min_name_distance: int,
    max_similarity: float,
) -> list[ToolSpec]:
    """Up to k distractors, drawn from the 2k most similar admissible tools of the pool."""
    gold_names = {g.name for g in gold}
    candidates = [t for t in pool if t.name not in gold_names]
    if k <= 0 or not candidates:
        return []
    sims = embeddings.tools(gold) @ embeddings.tools(candidates).T  # gold x candidates
    same = description_similarity(gold, candidates, embeddings)
    ranked = sorted(range(len(candidates)), key=lambda c: (-float(sims[:, c].max()), candidates[c].name))
    admissible = [
        candidates[c] for c in ranked
        if too_close(candidates[c], gold, same[:, c], min_name_distance, max_similarity) is None
    ]
    shortlist = admissible[: 2 * k]
    return rng.sample(shortlist, min(k, len(shortlist)))
