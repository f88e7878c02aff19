"""Distractor retrieval for imported test sets: TF-IDF cosine over tool names and descriptions.

Lexical, deterministic and fast (no model to load), which is enough to find tools from the
same field for each gold tool. NesTools' name rule applies: a candidate whose name is
within 20% of a gold name's length in edits would make the task ambiguous and is skipped.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable

import Levenshtein
import numpy as np
from scipy import sparse

from factory.records import ToolSpec
from factory.world.mock import words_of

STOPWORDS = frozenset("a an and the of to for in on by with from or is are be as at this that it its into".split())
MIN_NAME_EDIT_RATIO = 0.2


def _terms(spec: ToolSpec) -> list[str]:
    text = f"{spec.description} " + " ".join(p.name for p in spec.parameters)
    words = words_of(spec.name) + re.findall(r"[a-z0-9]+", text.lower())
    return [w for w in words if w not in STOPWORDS]


class TfIdf:
    def __init__(self, docs: list[list[str]]):
        df = Counter(t for doc in docs for t in set(doc))
        self.vocab = {t: i for i, t in enumerate(sorted(df))}
        self.idf = np.array([math.log((1 + len(docs)) / (1 + df[t])) + 1 for t in sorted(df)])

    def matrix(self, docs: list[list[str]]) -> sparse.csr_matrix:
        rows, cols, vals = [], [], []
        for r, doc in enumerate(docs):
            counts = Counter(t for t in doc if t in self.vocab)
            weights = {self.vocab[t]: (1 + math.log(c)) * self.idf[self.vocab[t]] for t, c in counts.items()}
            norm = math.sqrt(sum(w * w for w in weights.values())) or 1.0
            for c, w in sorted(weights.items()):
                rows.append(r)
                cols.append(c)
                vals.append(w / norm)
        return sparse.csr_matrix((vals, (rows, cols)), shape=(len(docs), len(self.vocab)))


def _too_close(name: str, gold: list[ToolSpec]) -> bool:
    return any(name == g.name or Levenshtein.distance(g.name, name) / len(g.name) < MIN_NAME_EDIT_RATIO for g in gold)


def similar_tools(pool: list[ToolSpec], pool_ids: list[int]) -> Callable[[list[int], int], list[int]]:
    """A picker: (pool positions of the gold tools, k per gold tool) → pool positions of the
    distractors, never a gold tool (by id or name) nor one named like a gold tool."""
    model = TfIdf([_terms(t) for t in pool])
    vectors = model.matrix([_terms(t) for t in pool])
    pool_matrix = vectors.T.tocsc()
    order = np.arange(len(pool))

    def pick(gold_positions: list[int], k: int) -> list[int]:
        if k <= 0 or not gold_positions:
            return []
        gold = [pool[g] for g in gold_positions]
        exclude = {pool_ids[g] for g in gold_positions}
        sims = (vectors[gold_positions] @ pool_matrix).toarray()
        chosen: list[int] = []
        names = {g.name for g in gold}
        for row in sims:
            taken = 0
            for position in np.lexsort((order, -row)):
                if taken == k:
                    break
                spec = pool[position]
                if pool_ids[position] in exclude or spec.name in names or _too_close(spec.name, gold):
                    continue
                chosen.append(int(position))
                names.add(spec.name)
                taken += 1
        return chosen

    return pick
