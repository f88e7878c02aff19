"""Progress of the long commands: on a terminal each step is drawn with its count on stderr;
when stderr is not a terminal nothing is drawn at all."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from rich.console import Console
from typer.testing import CliRunner

import factory.cli as cli
import factory.evaluate.commands as evaluation
from factory.cli import app
from factory.generation.progress import progress

runner = CliRunner()


def frames(screen: StringIO) -> list[str]:
    """What was drawn, frame by frame, without terminal control codes."""
    return [f for f in re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen.getvalue()).split("\r") if f.strip()]


@pytest.fixture
def terminal(monkeypatch):
    """stderr of the commands as a terminal 200 columns wide; returns what was drawn on it."""
    screen = StringIO()
    console = Console(file=screen, force_terminal=True, width=200)
    monkeypatch.setattr(cli, "err_console", console)
    monkeypatch.setattr(evaluation, "err_console", console)
    return screen


def test_nothing_is_drawn_when_stderr_is_not_a_terminal():
    screen = StringIO()
    with progress(Console(file=screen, width=200), "working", 3) as steps:
        steps.update(1, note="a note")
        steps.step("next", 2)
        steps.advance()
    assert screen.getvalue() == ""


def test_steps_are_drawn_with_their_counts_on_a_terminal():
    screen = StringIO()
    with progress(Console(file=screen, force_terminal=True, width=120), "loading") as steps:
        steps.step("checking", 4, note="a note")
    drawn = frames(screen)
    assert any("loading" in f and "/" not in f for f in drawn)  # a step without a total: no count
    assert any("checking" in f and "0/4" in f and "a note" in f for f in drawn)


@pytest.mark.parametrize("command, step", [
    (["validate", "{run}"], r"checking .* 0/16"),
    (["audit", "{run}", "--sample", "3"], r"reading the sample .* 0/3"),
    (["evaluate", "{run}", "--agent", "oracle", "--out", "{tmp}/r"], r"scoring \(each answer run in its world\) .* 0/\d+"),
    (["evaluate", "{run}", "--mode", "interactive", "--agent", "oracle", "--out", "{tmp}/i"], r"episodes of oracle .* 0/16"),
    pytest.param(["generate", "--domain", "Food and Beverage", "-n", "2", "--out", "{tmp}/g"],
                 r"generating .* 0/2 .*loading the seeds", marks=pytest.mark.slow),  # a generation run end to end
    (["domains", "--check"], r"checking each seed's declarations .* 0/\d+"),
])
def test_each_long_command_draws_its_steps(food_run, tmp_path, terminal, command, step):
    args = [a.format(run=food_run.path, tmp=tmp_path) for a in command]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert any(re.search(step, f) for f in frames(terminal)), frames(terminal)


def test_import_draws_its_steps(tmp_path, terminal):
    from tests.evaluate.static.static_helpers import DATA

    source = tmp_path / "source"
    source.mkdir()
    for name in ("test_data.jsonl", "test_api_ids.jsonl"):
        (source / name).write_text("\n".join((DATA / name).read_text().splitlines()[:5]) + "\n")
    result = runner.invoke(app, ["import", "nestools", str(source), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert any(re.search(r"converting .* 0/5", f) for f in frames(terminal)), frames(terminal)
