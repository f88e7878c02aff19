"""Run directories: --fresh removes only run files, a run without a manifest resumes, one writer
at a time (tested with real processes), and stage files vouched for by digests."""

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from factory.cli import app
from factory.config import load_settings
from factory.errors import RunError
from factory.generation.generate import generate
from factory.generation.runs import LOCK, RunDir
from factory.records import GenerateConfig
from tests.generation.test_generate import Interrupt, digest

pytestmark = pytest.mark.slow  # end-to-end runs: `make test` runs them, `pytest -m "not slow"` leaves them out

CONFIG = GenerateConfig(domain="Food and Beverage", n=16, seed=3, max_depth=3)
ROOT = Path(__file__).parents[2]


def empty_run(path: Path) -> None:
    """A run directory as a run leaves it after writing its manifest, without generating."""
    from factory import __version__
    from factory.records import Manifest

    run = RunDir(path)
    run.open(CONFIG, fresh=False)
    run.write_manifest(Manifest(run_id=path.name, status="running", config=CONFIG, factory_version=__version__))
    run.close()


def user_files(folder: Path) -> dict[str, str]:
    """Files of the user's own in `folder`, by relative path."""
    files = {"notes/todo.txt": "buy milk", "thesis.tex": "\\section{Results}"}
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return files


def files_in(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): p.read_text() for p in folder.rglob("*") if p.is_file()}


# --- 1. --fresh removes only what a run wrote ------------------------------------------


def test_fresh_refuses_a_folder_of_user_files_and_deletes_nothing(tmp_path):
    before = user_files(tmp_path / "work")
    with pytest.raises(RunError, match=r"holds no run \(notes, thesis.tex\); --fresh removes only what a run wrote, so nothing was deleted"):
        RunDir(tmp_path / "work").open(CONFIG, fresh=True)
    assert files_in(tmp_path / "work") == before  # not even a lock file is left behind


def test_fresh_out_dot_in_a_working_directory_is_refused_in_one_line(tmp_path, monkeypatch):
    before = user_files(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["generate", "--domain", "Food and Beverage", "-n", "2", "--out", ".", "--fresh"])
    assert result.exit_code == 1 and "nothing was deleted" in result.output and "Traceback" not in result.output
    assert files_in(tmp_path) == before


def test_fresh_removes_the_run_files_and_keeps_everything_else(tmp_path):
    out = tmp_path / "run"
    empty_run(out)
    (out / "dataset").mkdir()
    (out / "dataset" / "README.md").write_text("old card")
    (out / "chains.jsonl").write_text('{"attempt": 0}\n')
    before = user_files(out)
    run = RunDir(out)
    assert run.open(CONFIG, fresh=True) == ([], [])
    run.close()
    assert not (out / "manifest.json").exists() and not (out / "dataset").exists()
    assert (out / "chains.jsonl").read_text() == ""
    for name, text in before.items():
        assert (out / name).read_text() == text


# --- 2. a run killed before its manifest existed -----------------------------------------


def test_the_manifest_is_written_before_the_first_candidate(tmp_path, monkeypatch):
    from factory.generation.pipeline import Generator

    def killed(self, k, tally=None):
        raise Interrupt

    monkeypatch.setattr(Generator, "attempt", killed)
    with pytest.raises(Interrupt):
        generate(CONFIG, load_settings(), tmp_path / "run")
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["status"] == "running" and manifest["attempts"] == 0


def test_stage_files_without_a_manifest_resume(tmp_path, food_run):
    out = tmp_path / "run"

    def stop_after_seven(kept, tried, note=''):
        if tried == 7:
            raise Interrupt

    with pytest.raises(Interrupt):
        generate(CONFIG, load_settings(), out, on_attempt=stop_after_seven)
    (out / "manifest.json").unlink()  # as a run killed before its manifest existed leaves it
    with (out / "chains.jsonl").open("a") as handle:
        handle.write('{"attempt": 7, "domain": "food_and_bev')  # torn by the kill
    result = generate(CONFIG, load_settings(), out)
    assert result.resumed_from == 7
    assert digest(out / "dataset") == digest(food_run.path / "dataset")


def test_stage_files_without_a_manifest_from_other_settings_are_refused(tmp_path):
    out = tmp_path / "run"

    def stop_after_three(kept, tried, note=''):
        if tried == 3:
            raise Interrupt

    with pytest.raises(Interrupt):
        generate(CONFIG, load_settings(), out, on_attempt=stop_after_three)
    (out / "manifest.json").unlink()
    before = digest(out)
    with pytest.raises(RunError, match="other settings and no manifest; use --fresh"):
        generate(CONFIG.model_copy(update={"seed": 4}), load_settings(), out)
    assert digest(out) == before


# --- 3. one writer per run directory ---------------------------------------------------

HOLDER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from factory.records import GenerateConfig
    from factory.generation.runs import RunDir

    run = RunDir(Path(sys.argv[1]))
    run.open(GenerateConfig(domain="Food and Beverage", n=16, seed=3, max_depth=3), fresh=False)
    print("holding", flush=True)
    time.sleep(float(sys.argv[2]))
    run.close()
""")


def python(*args: str, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", HOLDER, *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kwargs)


def test_a_second_process_is_refused_and_a_crashed_writer_leaves_no_stale_lock(tmp_path):
    out = tmp_path / "run"
    first = python(str(out), "120")
    try:
        assert first.stdout.readline().strip() == "holding"
        second = python(str(out), "0")
        _, err = second.communicate(timeout=120)
        assert second.returncode != 0
        assert f"another process (pid {first.pid}) is writing to {out}" in err
        first.send_signal(signal.SIGKILL)  # a crash: no clean-up runs
        first.wait(timeout=30)
        assert (out / LOCK).exists()  # the file stays, but the kernel dropped the lock with the process
        third = python(str(out), "0")
        assert third.communicate(timeout=120)[0].strip() == "holding" and third.returncode == 0
        assert not (out / LOCK).exists()  # released and removed on close
    finally:
        first.kill()
        first.wait()


def test_generate_says_in_one_line_that_another_process_writes_the_run(tmp_path):
    out = tmp_path / "run"
    holder = python(str(out), "120")
    try:
        assert holder.stdout.readline().strip() == "holding"
        result = CliRunner().invoke(app, ["generate", "--domain", "Food and Beverage", "-n", "16", "--seed", "3",
                                          "--out", str(out)])
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert f"another process (pid {holder.pid}) is writing to" in result.output
    finally:
        holder.kill()
        holder.wait()


def test_the_same_process_cannot_open_a_run_twice(tmp_path):
    first = RunDir(tmp_path / "run")
    first.open(CONFIG, fresh=False)
    with pytest.raises(RunError, match="is writing to"):
        RunDir(tmp_path / "run").open(CONFIG, fresh=False)
    first.close()
    again = RunDir(tmp_path / "run")
    again.open(CONFIG, fresh=False)
    again.close()


# --- 4. digests of the stage and dataset files -----------------------------------------


def test_the_manifest_records_a_digest_of_every_file(food_run):
    import hashlib

    files = json.loads((food_run.path / "manifest.json").read_text())["files"]
    expected = {"chains.jsonl", "traces.jsonl", "queries.jsonl", "instances.jsonl", "rejects.jsonl", "nestools.jsonl",
                "nestools_excluded.jsonl", "dataset/README.md", "dataset/data/test-00000-of-00001.parquet"}
    assert set(files) == expected
    for name, recorded in files.items():
        data = (food_run.path / name).read_bytes()
        assert recorded == {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def edit_first_query(path: Path) -> None:
    lines = path.read_text().splitlines()
    row = json.loads(lines[0])
    row["instance"]["query"] += " Also book a table for two."
    path.write_text("\n".join([json.dumps(row), *lines[1:]]) + "\n")


def test_resume_names_a_hand_edited_instances_file(tmp_path, food_run):
    out = tmp_path / "edited"
    shutil.copytree(food_run.path, out)
    edit_first_query(out / "instances.jsonl")
    with pytest.raises(RunError, match=r"instances.jsonl changed since the run wrote it"):
        generate(CONFIG, load_settings(), out)


def test_validate_names_a_hand_edited_instances_file(tmp_path, food_run):
    out = tmp_path / "edited"
    shutil.copytree(food_run.path, out)
    edit_first_query(out / "instances.jsonl")
    result = CliRunner().invoke(app, ["validate", str(out)])
    assert result.exit_code == 1
    assert "instances.jsonl changed since the run wrote it" in result.output
    assert "16 of 16 instances pass every check" in result.output  # the dataset itself is intact


def test_validate_compares_instances_file_and_dataset_without_digests(tmp_path, food_run):
    """A manifest without digests (older runs) still gets instances.jsonl read and compared."""
    out = tmp_path / "edited"
    shutil.copytree(food_run.path, out)
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest["files"]
    (out / "manifest.json").write_text(json.dumps(manifest))
    edit_first_query(out / "instances.jsonl")
    result = CliRunner().invoke(app, ["validate", str(out)])
    assert result.exit_code == 1 and "instances.jsonl does not agree with the dataset" in result.output
