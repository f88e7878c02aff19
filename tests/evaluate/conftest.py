"""Shared by the evaluator's tests: the first N NesTools rows imported once, and the CLI."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from factory.cli import app
from tests.evaluate.static.static_helpers import DATA

runner = CliRunner()
N = 40


def invoke(*args, **kwargs):
    return runner.invoke(app, [str(a) for a in args], **kwargs)


@pytest.fixture(scope="session")
def imported(tmp_path_factory):
    """The first N NesTools rows imported into a dataset folder."""
    source = tmp_path_factory.mktemp("nestools-source")
    for name in ("test_data.jsonl", "test_api_ids.jsonl"):
        lines = (DATA / name).read_text().splitlines()[:N]
        (source / name).write_text("\n".join(lines) + "\n")
    out = tmp_path_factory.mktemp("nestools-import")
    result = invoke("import", "nestools", source, "--out", out)
    assert result.exit_code == 0, result.output
    return out
