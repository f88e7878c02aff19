"""The sandbox's ordinary behaviour: warm calls, worlds and their state, the two error
channels, type conformance, recovery, and what happens where no sandbox can be had."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest
from typer.testing import CliRunner

from factory.cli import app
from factory.records import Instance
from factory.seeds.library import load_seed
from factory.world import bubblewrap
from factory.world import sandbox as sandbox_module
from factory.world.sandbox import Sandbox, SandboxFailure, SandboxLimits, SandboxUnavailable, split_values
from tests.world.sandbox_helpers import MISSING, leftovers, needs_sandbox, write_code

pytestmark = pytest.mark.slow  # bubblewrap processes: `make test` runs them

ROOT = Path(__file__).resolve().parents[2]

PLAIN = '''
import math, time

calls = 0

def count() -> int:
    global calls
    calls += 1
    return calls

def add(a: int, b: int) -> int:
    return a + b

def measure(text: str) -> tuple[str, int]:
    return text.upper(), len(text)

def anything(x):
    return {"got": x}

def wrong_type() -> int:
    return "seven"

def wrong_arity() -> tuple[str, int]:
    return "one"

def not_json() -> list:
    return [{1, 2}]

def not_finite() -> float:
    return math.nan

def slow(seconds: float) -> int:
    time.sleep(seconds)
    return 1

def crash() -> int:
    return 1 // 0
'''

TOOLBOX = '''
import random
from dataclasses import dataclass, field
from typing import Annotated

from factory.toolbox import Kind, Toolbox, ToolError, World, world

toolbox = Toolbox()


@dataclass
class ShelfWorld(World):
    books: list[str] = field(default_factory=list)


@toolbox.world
def build(rng: random.Random) -> ShelfWorld:
    return ShelfWorld(books=rng.sample(["Dune", "Emma", "Ulysses", "Beloved", "Middlemarch"], 3),
                      state={"borrowed": []})


@toolbox.tool
def first_book() -> Annotated[str, Kind("title")]:
    """The first book on the shelf.

    Returns:
        title: the book's title.
    """
    return world(ShelfWorld).books[0]


@toolbox.tool(tags=("state_change",))
def borrow(title: Annotated[str, Kind("title")]) -> int:
    """Borrow a book.

    Args:
        title: the book's title.

    Returns:
        borrowed: how many books are now borrowed.
    """
    w = world(ShelfWorld)
    if title not in w.books:
        raise ToolError(f"{title!r} is not on the shelf; ask for the first book")
    w.state["borrowed"].append(title)
    return len(w.state["borrowed"])


@toolbox.tool(tags=("state_change",))
def borrow_then_crash(title: str) -> int:
    """Borrow a book, then fail.

    Args:
        title: the book's title.

    Returns:
        borrowed: never returned.
    """
    world(ShelfWorld).state["borrowed"].append(title)
    raise RuntimeError("shelf collapsed")
'''

LIMITS = SandboxLimits(wall_seconds=3, cpu_seconds=2)


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    with Sandbox(write_code(tmp_path_factory.mktemp("plain"), "plain.py", PLAIN), LIMITS) as box:
        yield box


@pytest.fixture
def shelf(tmp_path):
    with Sandbox(write_code(tmp_path / "shelf", "toolbox.py", TOOLBOX), LIMITS) as box:
        yield box


def test_ci_runs_the_sandbox_for_real():
    """CI installs bubblewrap (.ci/run), so there the sandbox tests must run, not skip."""
    if os.environ.get("CI") or os.environ.get("FACTORY_REQUIRE_SANDBOX"):
        assert MISSING is None, f"CI must run the sandbox tests, but: {MISSING}"


def test_split_values_checks_declared_types():
    assert split_values(3, ["int"]) == ([3], None)
    assert split_values(["a", 1], ["str", "int"]) == (["a", 1], None)
    assert split_values({"x": 1}, None) == ([{"x": 1}], None)
    assert split_values(None, []) == ([], None)
    assert "declared no value" in split_values(1, [])[1]
    assert "declared int" in split_values(True, ["int"])[1]
    assert "declared 2 values" in split_values("a", ["str", "int"])[1]
    assert "as value 2, declared int" in split_values(["a", "b"], ["str", "int"])[1]


@needs_sandbox
def test_warm_worker_serves_many_calls(plain):
    first = plain.call("count", {}).values[0]
    starts = plain.starts
    # The module's counter persists between calls: one worker served them all.
    assert [plain.call("count", {}).values[0] for _ in range(4)] == [first + 1, first + 2, first + 3, first + 4]
    assert plain.starts == starts
    assert plain.call("add", {"a": 2, "b": 5}).values == [7]
    assert plain.call("measure", {"text": "abc"}).values == ["ABC", 3]
    assert plain.call("anything", {"x": [1, None]}).values == [{"got": [1, None]}]


@needs_sandbox
@pytest.mark.parametrize("function, reason", [
    ("wrong_type", "returned str 'seven', declared int"),
    ("wrong_arity", "declared 2 values"),
    ("not_json", "not JSON"),
    ("not_finite", "not JSON"),
    ("crash", "ZeroDivisionError"),
])
def test_results_must_conform(plain, function, reason):
    outcome = plain.call(function, {})
    assert outcome.status == "failed" and reason in outcome.message, outcome
    assert plain.call("add", {"a": 1, "b": 1}).values == [2]


@needs_sandbox
def test_declared_types_from_the_caller_win(plain):
    assert plain.call("add", {"a": 1, "b": 2}, returns=["str"]).status == "failed"
    assert plain.call("anything", {"x": 1}, returns=["dict"]).values == [{"got": 1}]


@needs_sandbox
def test_crash_reason_names_the_host_file_and_line(plain):
    message = plain.call("crash", {}).message
    assert f"{plain.code}:" in message and "/code/" not in message


@needs_sandbox
def test_bad_calls_fail_with_a_reason(plain):
    assert "no function 'nope'" in plain.call("nope", {}).message
    assert "bad arguments" in plain.call("add", {"a": 1}).message


@needs_sandbox
def test_timeout_then_recovery(plain):
    starts = plain.starts
    outcome = plain.call("slow", {"seconds": 30}, timeout=0.5)
    assert outcome.status == "failed" and "timed out after 0.5 s" in outcome.message
    assert plain.call("add", {"a": 1, "b": 2}).values == [3]
    assert plain.starts == starts + 1


@needs_sandbox
def test_world_state_is_kept_and_snapshotted(shelf):
    state = shelf.open_world(0)
    assert state == {"borrowed": []} and shelf.kind == "toolbox"
    title = shelf.call("first_book", {}).values[0]
    first = shelf.call("borrow", {"title": title})
    assert first.values == [1] and first.state == {"borrowed": [title]}
    second = shelf.call("borrow", {"title": title})
    assert second.values == [2] and second.state == {"borrowed": [title, title]}
    assert first.state == {"borrowed": [title]}  # each outcome holds its own snapshot
    assert shelf.state == second.state
    assert shelf.open_world(0, {"borrowed": ["Emma"]}) == {"borrowed": ["Emma"]}  # a new episode
    assert shelf.open_world(1) == {"borrowed": []}


@needs_sandbox
def test_worlds_match_the_seed_builder(shelf, tmp_path):
    shelf.open_world(4)
    write_code(tmp_path / "shelf", "seed.toml", 'domain = "Shelf"\ndescription = "d"\nsubdomains = ["s"]\n')
    seed = load_seed(tmp_path / "shelf")
    assert shelf.call("first_book", {}).values == [seed.build_world(4).books[0]]


@needs_sandbox
def test_tool_errors_pass_through(shelf):
    shelf.open_world(0)
    outcome = shelf.call("borrow", {"title": "Not A Book"})
    assert outcome.status == "tool_error" and "is not on the shelf" in outcome.message
    assert outcome.state == {"borrowed": []}


@needs_sandbox
def test_a_failed_call_leaves_the_world_as_it_was(shelf):
    shelf.open_world(0)
    title = shelf.call("first_book", {}).values[0]
    shelf.call("borrow", {"title": title})
    crashed = shelf.call("borrow_then_crash", {"title": "Emma"})
    assert crashed.status == "failed" and "shelf collapsed" in crashed.message
    assert crashed.state == {"borrowed": [title]}
    assert shelf.call("borrow", {"title": title}).state == {"borrowed": [title, title]}


@needs_sandbox
def test_a_replaced_worker_gets_the_last_good_state(shelf):
    shelf.open_world(0)
    title = shelf.call("first_book", {}).values[0]
    shelf.call("borrow", {"title": title})
    shelf.close()  # as if the worker had died
    assert shelf.call("borrow", {"title": title}).state == {"borrowed": [title, title]}
    assert shelf.starts == 2


@needs_sandbox
def test_tools_need_an_open_world(shelf):
    assert "no world is open" in shelf.call("first_book", {}).message


@needs_sandbox
def test_seed_toolboxes_run_the_same_in_the_sandbox():
    """The committed sample's traces, replayed tool by tool in sandboxes, give the same values and states."""
    lines = (ROOT / "generated" / "sample" / "instances.jsonl").read_text().splitlines()
    instances = [Instance.model_validate(json.loads(line)["instance"]) for line in lines]
    boxes: dict[str, Sandbox] = {}
    replayed = 0
    try:
        for instance in instances:
            if instance.world is None or len(instance.world.toolboxes) != 1:
                continue
            slug = instance.world.toolboxes[0]
            box = boxes.setdefault(slug, Sandbox(ROOT / "seeds" / slug / "toolbox.py"))
            box.open_world(instance.world.seed, instance.world.state.get(slug, {}))
            specs = {s.name: s for s in instance.tools + instance.withheld_tools}
            for step in instance.trace.steps:
                outcome = box.call(step.tool, step.arguments, [o.type for o in specs[step.tool].returns])
                assert outcome.values == list(step.outputs.values()), (instance.id, step.tool, outcome)
                assert (outcome.state or {}) == step.state.get(slug, {})
                replayed += 1
    finally:
        for box in boxes.values():
            box.close()
    assert replayed >= 20 and all(box.starts == 1 for box in boxes.values())


@needs_sandbox
def test_specs_derived_inside_match_the_seed():
    seed = load_seed(ROOT / "seeds" / "weather")
    with Sandbox(seed.path / "toolbox.py") as box:
        described = box.describe(specs=True)
    assert described.kind == "toolbox" and not described.spec_errors
    assert described.specs == seed.specs


@needs_sandbox
def test_import_failures_are_reported(tmp_path):
    broken = write_code(tmp_path, "broken.py", "def f() -> int:\n    return (\n")
    with Sandbox(broken, LIMITS) as box:
        with pytest.raises(SandboxFailure, match="importing .*broken.py failed: SyntaxError"):
            box.start()
        assert "SyntaxError" in box.call("f", {}).message
    looping = write_code(tmp_path, "looping.py", "while True:\n    pass\n")
    with Sandbox(looping, SandboxLimits(wall_seconds=1, cpu_seconds=5)) as box:
        with pytest.raises(SandboxFailure, match="timed out"):
            box.start()


def test_no_sandbox_means_no_execution(tmp_path, monkeypatch):
    marker = tmp_path / "ran"
    code = write_code(tmp_path, "code.py", f"open({str(marker)!r}, 'w').close()\ndef f() -> int:\n    return 1\n")
    monkeypatch.setattr(sandbox_module, "unavailable_reason", lambda: "bwrap not found (the Debian package bubblewrap)")
    with Sandbox(code) as box:
        with pytest.raises(SandboxUnavailable, match="sandbox unavailable: bwrap not found"):
            box.call("f", {})
    assert not marker.exists()


def test_probe_says_why_no_sandbox(monkeypatch):
    monkeypatch.setattr(bubblewrap.shutil, "which", lambda *a, **k: None)
    assert "bwrap" in bubblewrap._probe() and "bubblewrap" in bubblewrap._probe()
    monkeypatch.undo()
    # A bubblewrap that cannot create namespaces (as in a locked-down container); in a
    # folder everyone can read, since as root it runs after the switch to `nobody`.
    with tempfile.TemporaryDirectory() as fake:
        os.chmod(fake, 0o755)
        bwrap = Path(fake) / "bwrap"
        bwrap.write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
        bwrap.chmod(0o755)
        monkeypatch.setattr(bubblewrap, "HOST_PATH", f"{fake}:{bubblewrap.HOST_PATH}")
        assert "No permissions to create new namespace" in bubblewrap._probe()


@needs_sandbox
def test_command_line_prints_the_result_or_one_line(tmp_path):
    code = write_code(tmp_path, "plain.py", PLAIN)
    runner = CliRunner()
    result = runner.invoke(app, ["sandbox", "run", str(code), "measure", "--args", '{"text": "abc"}'])
    assert result.exit_code == 0 and json.loads(result.stdout) == ["ABC", 3]
    result = runner.invoke(app, ["sandbox", "run", str(code), "slow", "--args", '{"seconds": 9}', "--timeout", "0.5"])
    assert result.exit_code == 1 and result.output.strip().splitlines() == ["error: slow failed: timed out after 0.5 s"]
    shelf = write_code(tmp_path / "shelf", "toolbox.py", TOOLBOX)
    result = runner.invoke(app, ["sandbox", "run", str(shelf), "borrow", "--args", '{"title": "Nope"}'])
    assert result.exit_code == 1 and "borrow raised a tool error: 'Nope' is not on the shelf" in result.output


def test_command_line_rejects_bad_arguments(tmp_path):
    runner = CliRunner()
    code = write_code(tmp_path, "plain.py", PLAIN)
    result = runner.invoke(app, ["sandbox", "run", str(code), "add", "--args", "[1, 2]"])
    assert result.exit_code == 1 and "--args must be a JSON object" in result.output
    result = runner.invoke(app, ["sandbox", "run", str(tmp_path / "missing.py"), "add"])
    assert result.exit_code == 1 and "no such file" in result.output


@needs_sandbox
def test_the_sandbox_dies_with_its_host(tmp_path):
    marker = f"orphan_{uuid.uuid4().hex[:12]}"
    code = write_code(tmp_path, f"{marker}.py", "import time\ndef wait() -> int:\n    time.sleep(60)\n    return 1\n")
    host = subprocess.Popen(
        [sys.executable, "-c", "import sys\nfrom factory.world.sandbox import Sandbox\n"
         "box = Sandbox(sys.argv[1]); box.start(); print('ready', flush=True); box.call('wait', {})", str(code)],
        stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)}, text=True)
    assert host.stdout.readline().strip() == "ready"
    assert leftovers(marker, wait=0)  # the sandbox is running
    host.kill()
    host.wait()
    assert not leftovers(marker)
    if os.geteuid() == 0:  # its staging folder is swept by the next sandbox started
        with Sandbox(code) as box:
            box.start()
        assert not list(Path("/tmp").glob(f"{bubblewrap.STAGE_PREFIX}{host.pid}-*"))


def test_every_declarative_sense_rule_crosses_the_sandbox_boundary_unchanged():
    """A model-written toolbox's rules travel as data; each declarative kind comes back as the
    same rule (only `sensible`, which is code, is dropped)."""
    from factory.toolbox.sense import around, distinct, same_day, sensible, together, trip, within
    from factory.world.sandbox_worker import rule_data
    from factory.world.sandboxed_seed import RuleData

    rules = [distinct("a", "b"), together("x", "y"), same_day("when"), within("n", 1, 9),
             around("day", before=7, after=30), trip(start=("la", "lo"), end=("lb", "lc"), mode="m")]
    for rule in rules:
        assert RuleData(**rule_data(rule)).rule() == rule
    assert rule_data(sensible("odd", ("n",), lambda args: True)) is None
