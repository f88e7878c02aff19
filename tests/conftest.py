"""Shared test setup: offline environment, outputs and caches under a temporary directory."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import pytest

# Offline before anything imports datasets, huggingface_hub or litellm.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
if "FACTORY_CACHE_DIR" not in os.environ:  # session fixtures too; removed when the session ends
    os.environ["FACTORY_CACHE_DIR"] = tempfile.mkdtemp(prefix="factory-cache-")
    atexit.register(shutil.rmtree, os.environ["FACTORY_CACHE_DIR"], ignore_errors=True)


@pytest.fixture(autouse=True)
def isolated_paths(tmp_path_factory, monkeypatch):
    """Point run output and every cache at a per-test temporary directory."""
    root = tmp_path_factory.mktemp("factory-home")
    monkeypatch.setenv("FACTORY_OUTPUT_DIR", str(root / "generated"))
    monkeypatch.setenv("FACTORY_CACHE_DIR", str(root / "cache"))
    monkeypatch.setenv("DSPY_CACHEDIR", str(root / "dspy-cache"))
    monkeypatch.setenv("HF_HOME", str(root / "hf-home"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_CACHE", str(root / "hf-datasets"))
    return root


# A test that reads a whole generated or imported run is end-to-end: `make test` runs it,
# the fast loop (`pytest -m "not slow"`) leaves it out.
RUN_FIXTURES = frozenset({"food_run", "food_instances", "mixed_run", "conversation_run", "imported"})


def pytest_collection_modifyitems(items):
    for item in items:
        if RUN_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def food_run(tmp_path_factory):
    """One small offline run of the food seed, shared by the tests that read a dataset."""
    from factory.config import load_settings
    from factory.generation.generate import generate
    from factory.records import GenerateConfig

    out = tmp_path_factory.mktemp("food-run") / "run"
    config = GenerateConfig(domain="Food and Beverage", n=16, seed=3, max_depth=3)
    return generate(config, load_settings({"output_dir": str(out.parent)}), out)


@pytest.fixture(scope="session")
def food_instances(food_run):
    return food_run.instances


def write_seed(root, slug, toolbox_code, manifest=None):
    """Write a seed folder for tests of the seed format; returns its path."""
    import textwrap

    folder = root / slug
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "seed.toml").write_text(manifest if manifest is not None else textwrap.dedent(f'''
        domain = "{slug.replace('_', ' ').title()}"
        description = "A seed written by a test."
        subdomains = ["Everything"]
    '''))
    (folder / "toolbox.py").write_text(textwrap.dedent(toolbox_code))
    return folder


@pytest.fixture(scope="session")
def mixed_run(tmp_path_factory):
    """One offline run over every seed, with every scenario category, shared by the tests of
    the seed library's bar and of the scenarios."""
    from factory.config import load_settings
    from factory.generation.generate import generate
    from factory.records import GenerateConfig

    out = tmp_path_factory.mktemp("mixed-run") / "run"
    config = GenerateConfig(domain="all", n=150, seed=6)
    return generate(config, load_settings({"output_dir": str(out.parent)}), out)


@pytest.fixture
def fake_server():
    """Start fake OpenAI-compatible servers on 127.0.0.1 (tests/fake_server.py); all are
    stopped after the test. `fake_server(responder, latency=..., failure_rate=...)`."""
    from tests.fake_server import FakeServer

    started = []

    def start(responder, **options):
        server = FakeServer(responder, **options)
        server.thread.start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.httpd.shutdown()
        server.httpd.server_close()


@pytest.fixture(scope="session")
def conversation_run(tmp_path_factory):
    """One offline run over every seed with conversational items (ask the user, several turns)."""
    from factory.config import load_settings
    from factory.generation.generate import generate
    from factory.records import GenerateConfig

    out = tmp_path_factory.mktemp("conversation-run") / "run"
    config = GenerateConfig(domain="all", n=60, seed=5, conversations=True)
    return generate(config, load_settings({"output_dir": str(out.parent)}), out)
