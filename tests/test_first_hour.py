"""The scripted first hour of a newcomer (benchmarks/first_hour.py), run as a user runs it:
every command in a fresh process, offline, publishing pointed at a closed port on 127.0.0.1."""

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # end-to-end runs: `make test` runs them, `pytest -m "not slow"` leaves them out

SCRIPT = Path(__file__).parents[1] / "benchmarks" / "first_hour.py"


@pytest.mark.slow
def test_the_first_hour_has_no_traceback_no_empty_results_folder_and_one_line_failures(tmp_path):
    done = subprocess.run([sys.executable, str(SCRIPT), "--instances", "12", "--nestools-rows", "100",
                           "--keep", str(tmp_path / "home")], capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "PROBLEM" not in done.stdout and done.stdout.rstrip().endswith("the run's own export scores 100")
    for command in ("generate", "validate", "stats", "audit", "evaluate static", "evaluate interactive", "report",
                    "import nestools", "evaluate nestools", "score nestools.jsonl", "publish, no token",
                    "publish, Hub unreachable"):
        assert f"\n{command} " in done.stdout, command
