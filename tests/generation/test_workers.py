"""Offline attempts computed by worker processes or Ray tasks: the same bytes as one process,
for any number of workers and any interruption."""

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from factory.config import load_settings
from factory.generation.generate import generate
from factory.generation.pipeline import BLOCK, LAG, Tally, tally_cutoff
from factory.records import GenerateConfig

pytestmark = pytest.mark.slow  # end-to-end runs: `make test` runs them, `pytest -m "not slow"` leaves them out

CONFIG = GenerateConfig(domain="all", n=40, seed=2, max_depth=3)


def files(run: Path) -> dict[str, str]:
    """Every file a run wrote, by path, as a digest (the lock file holds the writer's pid)."""
    return {str(p.relative_to(run)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(run.rglob("*")) if p.is_file() and p.name != "run.lock"}


@pytest.fixture(scope="module")
def one_process(tmp_path_factory):
    out = tmp_path_factory.mktemp("one") / "run"
    generate(CONFIG, load_settings(), out, workers=1)
    return files(out)


@pytest.mark.parametrize("workers", [2, 3])
def test_any_number_of_workers_writes_the_bytes_one_process_writes(tmp_path, one_process, workers):
    generate(CONFIG, load_settings(), tmp_path / "run", workers=workers)
    assert files(tmp_path / "run") == one_process


class Interrupt(Exception):
    pass


@pytest.mark.parametrize("stop_at, workers, then", [(5, 2, 1), (13, 1, 2), (30, 3, 2)])
def test_an_interrupted_run_resumes_to_the_same_bytes_whatever_the_workers(tmp_path, one_process, stop_at, workers,
                                                                           then):
    def stop(kept, tried, note=""):
        if tried == stop_at:
            raise Interrupt

    with pytest.raises(Interrupt):
        generate(CONFIG, load_settings(), tmp_path / "run", workers=workers, on_attempt=stop)
    resumed = generate(CONFIG, load_settings(), tmp_path / "run", workers=then)
    assert resumed.resumed_from == stop_at
    assert files(tmp_path / "run") == one_process


def test_a_run_killed_three_times_resumes_to_the_same_bytes(tmp_path, one_process):
    """kill -9 of the writing process at three points: its workers go with it (the run folder
    is free at once) and each resume picks up where the files say."""
    out = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    command = [sys.executable, "-m", "factory.cli", "generate", "--domain", CONFIG.domain, "-n", str(CONFIG.n),
               "--seed", str(CONFIG.seed), "--max-depth", str(CONFIG.max_depth), "--out", str(out), "--workers", "2"]
    for lines in (3, 12, 25):
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        rejects, instances = out / "rejects.jsonl", out / "instances.jsonl"
        while process.poll() is None:
            written = sum(len(p.read_bytes().splitlines()) for p in (rejects, instances) if p.exists())
            if written >= lines:
                process.send_signal(signal.SIGKILL)
                break
            time.sleep(0.05)
        process.wait()
        assert process.returncode == -signal.SIGKILL, "the run ended before it could be killed"
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert files(out) == one_process


def test_a_block_balances_against_the_instances_kept_before_its_window():
    assert [tally_cutoff(b) for b in (0, LAG - 1, LAG, LAG + 3)] == [0, 0, BLOCK, 4 * BLOCK]
    tally = Tally()
    copy = tally.copy()
    copy.domains["Food"] += 1
    assert tally.domains["Food"] == 0  # a block's own tally never reaches the run's


def test_workers_below_one_are_refused(tmp_path):
    from factory.errors import ConfigError

    with pytest.raises(ConfigError, match="--workers must be at least 1"):
        generate(CONFIG, load_settings(), tmp_path / "run", workers=0)


def test_ray_tasks_on_a_local_ray_write_the_bytes_one_process_writes(tmp_path, one_process):
    pytest.importorskip("ray", reason='Ray is the optional extra "ray" (make test installs it)')
    generate(CONFIG, load_settings(), tmp_path / "run", ray="local")
    assert files(tmp_path / "run") == one_process
