"""The command line through typer's CliRunner: commands, summaries, one-line errors."""

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from factory.cli import app

runner = CliRunner()


def test_help_lists_the_commands():
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for name in ("domains", "generate", "validate", "stats"):
        assert name in result.output


def test_domains_lists_seeds_with_tool_counts():
    result = runner.invoke(app, ["domains"])
    assert result.exit_code == 0 and "Food and Beverage" in result.output and "tools" in result.output


@pytest.mark.slow  # a generation run end to end
def test_generate_validate_stats(tmp_path):
    out = tmp_path / "run"
    result = runner.invoke(app, ["generate", "--domain", "food & beverage", "-n", "6", "--seed", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    folded = "".join(line.strip(" │") for line in result.output.splitlines())
    assert "kept of" in result.output and str(out / "dataset") in folded
    result = runner.invoke(app, ["validate", str(out)])
    assert result.exit_code == 0 and "6 of 6 instances pass every check" in result.output
    result = runner.invoke(app, ["stats", str(out), "--json"])
    report = json.loads(result.output)
    assert report["instances"] == 6 and "reject_reasons" in report
    again = runner.invoke(app, ["generate", "--domain", "food & beverage", "-n", "6", "--seed", "2", "--out", str(out)])
    assert again.exit_code == 0  # a finished run with the same settings is reported, not redone
    assert "already complete" in again.output and "resumed at candidate" not in again.output


def test_validate_fails_on_a_tampered_dataset(food_run, tmp_path):
    import shutil

    import datasets

    copy = tmp_path / "tampered"
    shutil.copytree(food_run.path / "dataset", copy)
    table = datasets.load_dataset(str(copy))["test"]
    table = table.map(lambda row, i: {"answer": row["answer"], "query": row["query"] + (" Also fly to Mars." if i == 0 else "")},
                      with_indices=True)
    parquet = next((copy / "data").glob("*.parquet"))
    table.to_parquet(str(parquet))
    result = runner.invoke(app, ["validate", str(copy)])
    assert result.exit_code == 1 and "FAIL" in result.output and "id is not the content hash" in result.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["generate", "--domain", "Underwater Basket Weaving", "-n", "3"], "no seed toolbox matches domain"),
        (["generate", "--domain", "food", "-n", "0"], "-n must be at least 1"),
        (["generate", "--domain", "Food and Beverage", "-n", "3", "--max-depth", "-2"], "--max-depth must be between 1 and 5"),
        (["validate", "/nonexistent/dataset"], "/nonexistent/dataset does not exist"),
        (["stats", "/nonexistent/dataset"], "/nonexistent/dataset does not exist"),
        (["audit", "/nonexistent/dataset"], "/nonexistent/dataset does not exist"),
        (["audit", "generated/sample", "--sample", "0"], "--sample must be at least 1"),
        (["report", "/nonexistent/results"], "/nonexistent/results does not exist"),
        (["evaluate", "/nonexistent/dataset", "--agent", "oracle"], "/nonexistent/dataset does not exist"),
        (["publish", "/nonexistent/dataset", "--repo-id", "me/x"], "/nonexistent/dataset does not exist"),
    ],
)
def test_user_errors_are_one_red_line_and_exit_1(args, message):
    result = runner.invoke(app, args)
    assert result.exit_code == 1
    assert message in result.output and "Traceback" not in result.output
    assert len([line for line in result.output.splitlines() if line.strip()]) <= 3


def test_debug_shows_the_traceback():
    result = runner.invoke(app, ["--debug", "generate", "--domain", "food", "-n", "0"])
    assert result.exit_code != 0 and result.exception is not None


def test_a_malformed_seed_folder_is_named_in_one_line(tmp_path, monkeypatch):
    from tests.conftest import write_seed

    write_seed(tmp_path / "seeds", "broken", "x = 1", manifest='domain = "Broken"\ndescription = "d"')
    monkeypatch.setenv("FACTORY_SEEDS_DIR", str(tmp_path / "seeds"))
    result = runner.invoke(app, ["domains"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "seed.toml" in result.output and "subdomains" in result.output


@pytest.mark.parametrize("args", [["domains"], ["generate", "--domain", "Food and Beverage", "-n", "2"]])
def test_an_empty_seed_folder_is_one_line(tmp_path, monkeypatch, args):
    (tmp_path / "seeds").mkdir()
    monkeypatch.setenv("FACTORY_SEEDS_DIR", str(tmp_path / "seeds"))
    result = runner.invoke(app, args)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "holds no seed" in result.output and "FACTORY_SEEDS_DIR" in result.output
    assert len([line for line in result.output.splitlines() if line.strip()]) <= 3


def test_a_broken_seed_is_one_warning_line_and_the_others_are_listed(tmp_path, monkeypatch):
    from tests.conftest import write_seed
    from tests.seeds.test_loading import GOOD_TOOLBOX

    write_seed(tmp_path / "seeds", "sound", GOOD_TOOLBOX)
    write_seed(tmp_path / "seeds", "broken", "x = 1", manifest='domain = "Broken"\ndescription = "d"')
    monkeypatch.setenv("FACTORY_SEEDS_DIR", str(tmp_path / "seeds"))
    result = runner.invoke(app, ["domains"])
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert "warning: seed broken skipped:" in result.output and "subdomains" in result.output
    assert "Sound" in result.output and "1 domains" in result.output


def test_usage_errors_exit_2_as_the_readme_says():
    """typer's own usage errors (an unknown flag, a value that is not a number) exit 2; errors
    in values it parsed, seeds and paths (FactoryError) exit 1. The README says the same."""
    from pathlib import Path

    for args in (["generate", "--domain", "Food and Beverage", "--bogus"], ["generate", "--domain", "x", "-n", "many"]):
        assert runner.invoke(app, args).exit_code == 2
    assert runner.invoke(app, ["generate", "--domain", "Food and Beverage", "-n", "0"]).exit_code == 1
    readme = " ".join((Path(__file__).parents[1] / "README.md").read_text().split())
    assert "exit 1" in readme and "exits 2" in readme


def test_errors_are_the_only_line_on_stderr_when_it_is_not_a_terminal(tmp_path):
    """No progress display and no blank line before the error: stderr is not a terminal here."""
    result = runner.invoke(app, ["generate", "--domain", "Underwater Basket Weaving", "-n", "3", "--out", str(tmp_path / "r")])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: no seed toolbox matches domain")
    assert result.stderr.count("\n") == 1


@pytest.mark.slow  # a generation run end to end
def test_a_misspelt_domain_is_taken_as_the_closest_one_and_said_so(tmp_path):
    result = runner.invoke(app, ["generate", "--domain", "Wether", "-n", "1", "--out", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    assert "warning: --domain 'Wether' is taken as 'Weather', the closest seed domain" in result.stderr
    exact = runner.invoke(app, ["generate", "--domain", "weather", "-n", "1", "--out", str(tmp_path / "exact")])
    assert exact.exit_code == 0 and "warning" not in exact.stderr  # case is no misspelling


@pytest.mark.slow  # a generation run end to end
def test_a_run_that_has_not_finished_is_named_as_such_not_as_a_missing_dataset(tmp_path):
    """A run that used up its attempts exports what it kept (its card says it is incomplete);
    one killed on the way has no dataset, and the commands that read one say what it is."""
    import json
    import shutil

    out = tmp_path / "run"
    stopped = runner.invoke(app, ["generate", "--domain", "Food and Beverage", "-n", "5", "--max-attempts", "3",
                                  "--out", str(out)])
    kept = json.loads((out / "manifest.json").read_text())["accepted"]
    assert stopped.exit_code == 1 and f"kept {kept} of 5" in stopped.output and 0 < kept < 5
    assert f"The {kept} kept {'are' if kept > 1 else 'is'} exported in {out / 'dataset'}" in " ".join(stopped.output.split())
    assert "**Incomplete run:** " in (out / "dataset" / "README.md").read_text()
    stats = runner.invoke(app, ["stats", str(out)])
    assert stats.exit_code == 0 and f"instances: {kept}" in " ".join(stats.output.split()).lower(), stats.output
    manifest = json.loads((out / "manifest.json").read_text())
    (out / "manifest.json").write_text(json.dumps({**manifest, "status": "running"}))  # as a run killed on the way
    shutil.rmtree(out / "dataset")
    for command in (["stats", str(out)], ["validate", str(out)], ["evaluate", str(out), "--agent", "oracle"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert f"{out} is a generation run that was stopped before it finished" in result.output
        assert "status running" in result.output and f"--out {out}" in result.output


def test_a_file_the_system_refuses_is_one_line_naming_it(food_run, tmp_path):
    """An OSError (here: writing into a folder that does not exist) is a line, not a traceback."""
    target = tmp_path / "no-such-folder" / "sheet.md"
    result = runner.invoke(app, ["audit", str(food_run.path), "--sample", "2", "--out", str(target)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.stderr.startswith("error: No such file or directory: ") and str(target) in result.stderr
    assert result.stderr.count("\n") == 1


COMMANDS = (["generate"], ["validate"], ["stats"], ["audit"], ["evaluate"], ["report"], ["publish"], ["import", "nestools"])


def test_help_shows_flags_without_a_value_placeholder():
    """typer 0.27 and later print a flag as `--fresh <bool>` (and `--fresh true` is then refused)
    and an argument as `{path}`: pyproject.toml caps typer below them, and the help of a
    typer in that range shows neither."""
    import tomllib
    from importlib.metadata import version
    from pathlib import Path

    from packaging.requirements import Requirement

    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())["project"]
    typer_req = next(r for r in map(Requirement, project["dependencies"]) if r.name == "typer")
    assert not typer_req.specifier.contains("0.27.0") and not typer_req.specifier.contains("0.29.2")
    if not typer_req.specifier.contains(version("typer")):
        pytest.skip(f"typer {version('typer')} is installed, outside pyproject.toml's {typer_req.specifier}: "
                    "install the project again (make test does)")
    for command in COMMANDS:
        text = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "200"}).output
        assert "<bool>" not in text and "{path}" not in text and "<path>" not in text, command
    fresh = next(line for line in runner.invoke(app, ["generate", "--help"], env={"COLUMNS": "200"}).output.splitlines()
                 if "--fresh" in line)
    assert fresh.split("--fresh", 1)[1].split()[0] == "Start"  # the help text follows the flag directly


def test_the_readme_quickstart_tells_a_newcomer_what_to_do_next():
    """Activate .venv after make, what to try on the demo run (validate, stats, audit, evaluate,
    report, a model), where results go, and why the sandbox tests skip; the demo run's folder
    named in it is the one `make demo` writes."""
    from pathlib import Path

    from factory.config import load_settings
    from factory.generation.generate import run_dir_for
    from factory.records import GenerateConfig

    root = Path(__file__).parents[1]
    readme = (root / "README.md").read_text()
    quickstart = " ".join(readme.split("## Quickstart", 1)[1].split("\n## ", 1)[0].split())
    assert ". .venv/bin/activate" in quickstart.split("Without make")[0]
    for command in ("factory validate $RUN", "factory stats $RUN", "factory audit $RUN", "factory evaluate $RUN --agent",
                    "--mode interactive", "factory report generated/evaluations/*", "--model openai/gpt-4o-mini"):
        assert command in quickstart, command
    assert "generated/evaluations/<dataset>-<mode>-<agent or model>-<tag>/" in quickstart
    assert "bubblewrap" in quickstart and "pytest -rs" in quickstart
    demo = next(line for line in (root / "Makefile").read_text().splitlines() if "factory generate" in line)
    assert '--domain "Food and Beverage" -n 50 --seed 1' in demo
    run = run_dir_for(GenerateConfig(domain="Food and Beverage", n=50, seed=1), load_settings())
    assert f"RUN=generated/food-and-beverage/{run.name} " in quickstart
    assert f"results: generated/evaluations/{run.name}-static-noisy-0.3-<tag>" in quickstart


def test_the_command_line_loads_no_model_library_nor_pydantic_before_a_command_runs():
    # `factory --help` pays for every module cli.py imports; pydantic alone was 0.2 s of it.
    probe = ("import sys, factory.cli; print(' '.join(m for m in ('pydantic', 'torch', 'sentence_transformers', "
             "'datasets', 'numpy') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""


def test_help_keeps_every_bracket_its_author_wrote():
    """Help texts are rich markup: an unescaped '[ray]' is read as a style and vanishes, so
    '--ray' told users to pip install 'toolbench-factory' without its extra."""
    import re

    import typer.main

    command = typer.main.get_command(app)
    seen = 0
    for name, sub in command.commands.items():
        subs = sub.commands.items() if hasattr(sub, "commands") else [(None, sub)]
        for subname, leaf in subs:
            args = [name] + ([subname] if subname else []) + ["--help"]
            shown = " ".join(runner.invoke(app, args, env={"COLUMNS": "2000"}).output.split())
            for param in leaf.params:
                for bracket in re.findall(r"\w\\?\[[\w ,.-]+\]", getattr(param, "help", None) or ""):
                    seen += 1
                    assert bracket.replace("\\", "") in shown, (args, bracket)
    assert seen, "no help text holds a bracket: the test checks nothing"
