"""Shared test setup: offline environment, outputs and caches under a temporary directory."""

from __future__ import annotations

import os

import pytest

# Offline before anything imports datasets, huggingface_hub or litellm.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


@pytest.fixture(autouse=True)
def isolated_paths(tmp_path_factory, monkeypatch):
    """Point run output and every cache at a per-test temporary directory."""
    root = tmp_path_factory.mktemp("factory-home")
    monkeypatch.setenv("FACTORY_OUTPUT_DIR", str(root / "generated"))
    monkeypatch.setenv("DSPY_CACHEDIR", str(root / "dspy-cache"))
    monkeypatch.setenv("HF_HOME", str(root / "hf-home"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_CACHE", str(root / "hf-datasets"))
    return root
