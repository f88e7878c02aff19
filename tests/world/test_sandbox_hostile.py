"""Hostile model-written code, one class per test: each must be contained.

Contained means: the host is untouched (the canary folder and its files are unchanged, no
file appears outside the sandbox's scratch, no process is left behind, the test's server
sees no connection), the call ends as a failed call with a reason (or, where the code's own
act is harmless inside the sandbox, with a result that shows it was contained), and the
next call on the same sandbox works.
"""

from __future__ import annotations

import os
import socket
import uuid

import pytest

from factory.world.sandbox import Sandbox, SandboxLimits
from tests.world.sandbox_helpers import leftovers, needs_sandbox, write_code

SECRET = "s3cr3t-" + uuid.uuid4().hex
MARKER = "hostile_" + uuid.uuid4().hex[:12]

HOSTILE = '''
import builtins, os, signal, socket, subprocess, sys, time

def ok() -> int:
    return 42

def shell(target: str) -> int:
    return os.system(f"echo owned > {target}; touch {target}.new; rm -rf /usr/bin/env")

def run_process(path: str) -> str:
    return subprocess.run(["cat", path], capture_output=True, text=True, check=True).stdout

def daemon(marker: str) -> int:
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", marker], start_new_session=True)
    return 1

def write_outside(paths: list[str]) -> list[str]:
    written = []
    for path in paths:
        try:
            with open(path, "w") as f:
                f.write("owned")
            written.append(path)
        except OSError:
            pass
    return written

def write_scratch() -> str:
    with open("/scratch/note.txt", "w") as f:
        f.write("fine")
    return open("/scratch/note.txt").read()

def environment() -> dict:
    return dict(os.environ)

def proc_environ() -> list[str]:
    seen = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                seen.append(open(f"/proc/{pid}/environ", "rb").read().decode(errors="replace"))
            except OSError:
                pass
    return seen

def read_files(paths: list[str]) -> list[str]:
    found = []
    for path in paths:
        try:
            found.append(open(path).read())
        except OSError:
            pass
    return found

def connect(port: int) -> str:
    socket.create_connection(("127.0.0.1", port), timeout=2).sendall(b"hello")
    return "connected"

def connect_unix(name: str) -> str:
    s = socket.socket(socket.AF_UNIX)
    s.connect("\\0" + name)
    return "connected"

def fork_bomb() -> int:
    while True:
        try:
            os.fork()
        except OSError:
            pass

def count_forks(n: int) -> int:
    children = []
    for _ in range(n):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            time.sleep(0.5)
            os._exit(0)
        children.append(pid)
    for pid in children:
        os.waitpid(pid, 0)
    return len(children)

def memory_bomb() -> int:
    hoard = []
    while True:
        hoard.append(bytearray(64 * 1024 * 1024))

def spin() -> int:
    while True:
        pass

def spin_ignoring_sigxcpu() -> int:
    signal.signal(signal.SIGXCPU, signal.SIG_IGN)
    while True:
        pass

def sleep_forever() -> int:
    while True:
        time.sleep(1)

def hijack_imports() -> int:
    class Finder:
        def find_spec(self, *args, **kwargs):
            return None
    sys.meta_path.insert(0, Finder())
    return 1

def replace_import() -> int:
    builtins.__import__ = lambda *a, **k: None
    return 1

def swap_json() -> int:
    class Fake:
        pass
    sys.modules["json"] = Fake()
    return 1

def ctypes_syscalls() -> list[int]:
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    results = []
    results.append(libc.unshare(0x10000000))  # a new user namespace
    results.append(libc.mount(b"none", b"/usr", b"tmpfs", 0, None))
    results.append(libc.setuid(0))
    return results

def subclass_popen(target: str) -> int:
    popen = [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == "Popen"][0]
    return popen(["sh", "-c", f"echo owned > {target}"]).wait()

def globals_builtins(path: str) -> str:
    opener = ok.__globals__["__builtins__"]["open"]
    return opener(path).read()

def patch_worker() -> int:
    worker = [c for c in object.__subclasses__() if c.__name__ == "Worker"][0]
    worker.call = lambda self, request: {"status": "ok", "value": 666}
    return 1

def built_string(target: str) -> int:
    code = "".join(map(chr, [105, 109, 112, 111, 114, 116, 32, 111, 115]))  # "import os"
    exec(code + f"; os.system('echo owned > {target}')")
    return eval("__import__('os').system('id > " + target + "')")

def exit_now() -> int:
    os._exit(3)

def kill_parent() -> int:
    os.kill(os.getppid(), signal.SIGKILL)
    time.sleep(0.2)
    return os.getppid()

def kill_everything() -> int:
    try:
        os.kill(-1, signal.SIGKILL)
    except ProcessLookupError:
        pass
    return 1

def kill_host(pid: int) -> str:
    os.kill(pid, signal.SIGKILL)
    return "sent"

def kill_self() -> int:
    os.kill(os.getpid(), signal.SIGSEGV)
    return 1

def forge_reply() -> int:
    for fd in os.listdir("/proc/self/fd"):
        try:
            os.write(int(fd), b'{"id": 999, "status": "ok", "cpu": 0, "value": 1}\\n')
        except OSError:
            pass
    return 5

def huge_result() -> str:
    return "x" * (8 * 1024 * 1024)

def huge_print() -> int:
    for _ in range(2000):
        print("y" * 10000)
        sys.stderr.write("z" * 10000)
    return 7

def huge_file() -> int:
    with open("/scratch/big", "wb") as f:
        for _ in range(64):
            f.write(b"z" * 1024 * 1024)
    return 1
'''

LIMITS = SandboxLimits(wall_seconds=3, cpu_seconds=1, memory_mb=256, processes=8, file_size_mb=2, scratch_mb=8,
                       output_kb=256)

pytestmark = [needs_sandbox, pytest.mark.slow]  # bubblewrap processes: `make test` runs them


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    """The host side: a canary folder with a file, a stand-in ~/.netrc holding a secret."""
    root = tmp_path_factory.mktemp("host")
    canary = root / "canary"
    canary.mkdir()
    (canary / "canary.txt").write_text("untouched")
    (root / ".netrc").write_text(f"machine example.com login me password {SECRET}\n")
    return root


@pytest.fixture(scope="module")
def box(tmp_path_factory, host):
    old = os.environ.get("FACTORY_TEST_SECRET")
    os.environ["FACTORY_TEST_SECRET"] = SECRET  # in our environment before the sandbox starts
    code = write_code(tmp_path_factory.mktemp("code"), f"{MARKER}.py", HOSTILE)
    sandbox = Sandbox(code, LIMITS)
    sandbox.start()
    yield sandbox
    sandbox.close()
    if old is None:
        del os.environ["FACTORY_TEST_SECRET"]
    assert not leftovers(MARKER), "processes of the sandbox outlived it"


def snapshot(folder):
    return sorted((p.relative_to(folder), p.stat().st_mtime_ns, p.read_bytes() if p.is_file() else b"")
                  for p in folder.rglob("*"))


@pytest.fixture
def contained(box, host):
    """Checks after the test: host untouched, nothing left running, the next call works."""
    before = snapshot(host)
    yield
    assert snapshot(host) == before
    assert not leftovers(MARKER, box.pid), "a process escaped the sandbox's end"
    assert box.call("ok", {}).values == [42]
    assert not leftovers(MARKER, box.pid)


def failed(outcome, *words):
    assert outcome.status == "failed", outcome
    assert outcome.message and all(w in outcome.message for w in words), outcome.message
    return outcome.message


def test_shell_commands(box, host, contained):
    target = host / "canary" / "canary.txt"
    outcome = box.call("shell", {"target": str(target)})
    assert outcome.status == "ok" and outcome.values[0] != 0  # the shell ran, in the sandbox, and failed
    assert not (host / "canary" / "canary.txt.new").exists()


def test_subprocesses_see_no_host_files(box, host, contained):
    failed(box.call("run_process", {"path": str(host / ".netrc")}), "CalledProcessError")


def test_subprocess_left_running(box, contained):
    failed(box.call("daemon", {"marker": MARKER}), "left 1 process")


def test_file_writes_outside_scratch(box, host, tmp_path, contained):
    paths = [str(host / "canary" / "canary.txt"), str(host / "new.txt"), str(tmp_path / "new.txt"), "/usr/owned",
             "/opt/factory/factory/toolbox/__init__.py", f"/code/{MARKER}.py", "/owned", "/proc/sys/kernel/hostname"]
    outcome = box.call("write_outside", {"paths": paths})
    assert outcome.status == "ok" and outcome.values == [[]]
    assert not (host / "new.txt").exists() and not (tmp_path / "new.txt").exists()
    assert box.call("write_scratch", {}).values == ["fine"]


def test_secrets_in_the_environment(box, contained):
    environment = box.call("environment", {}).values[0]
    assert SECRET not in str(environment) and "FACTORY_TEST_SECRET" not in environment
    assert set(environment) <= {"PATH", "HOME", "TMPDIR", "LANG", "PYTHONPATH", "PYTHONHASHSEED",
                                "PYTHONDONTWRITEBYTECODE", "PYTHONUTF8", "PWD"}
    assert SECRET not in str(box.call("proc_environ", {}).values)


def test_secrets_in_files(box, host, contained):
    paths = [str(host / ".netrc"), os.path.expanduser("~/.netrc"), "/root/.netrc", "/etc/shadow", "/etc/passwd",
             f"/proc/{os.getpid()}/environ"]
    outcome = box.call("read_files", {"paths": paths})
    assert outcome.status == "ok" and outcome.values == [[]]


def test_network(box, contained):
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.5)
    with server:
        failed(box.call("connect", {"port": server.getsockname()[1]}), "ConnectionRefusedError")
        with pytest.raises(TimeoutError):
            server.accept()
    name = f"factory-test-{uuid.uuid4().hex}"
    listener = socket.socket(socket.AF_UNIX)
    listener.bind("\0" + name)  # an abstract socket: no file, only the network namespace separates it
    listener.listen()
    listener.settimeout(0.5)
    with listener:
        failed(box.call("connect_unix", {"name": name}), "ConnectionRefusedError")
        with pytest.raises(TimeoutError):
            listener.accept()


@pytest.mark.slow  # waits out the sandbox's time limits
def test_fork_bomb(box, contained):
    failed(box.call("fork_bomb", {}), "timed out")


def test_process_count_is_limited(box, contained):
    forked = box.call("count_forks", {"n": 50}).values[0]
    assert 0 < forked <= LIMITS.processes - 2  # the sandbox's init and the worker count too


def test_memory_bomb(box, contained):
    failed(box.call("memory_bomb", {}), "memory limit exceeded")


@pytest.mark.slow  # waits out the sandbox's time limits
@pytest.mark.parametrize("function, reason, timeout", [
    ("spin", "CPU time limit exceeded", 20),  # wall time to spare, so a busy machine still hits the CPU limit first
    ("spin_ignoring_sigxcpu", "timed out", None),
    ("sleep_forever", "timed out", None),
])
def test_infinite_loops(box, contained, function, reason, timeout):
    failed(box.call(function, {}, timeout=timeout), reason)


@pytest.mark.parametrize("function", ["hijack_imports", "replace_import", "swap_json"])
def test_import_system_tricks(box, contained, function):
    failed(box.call(function, {}), "changed the interpreter")


def test_ctypes_syscalls_are_refused(box, contained):
    outcome = box.call("ctypes_syscalls", {})
    assert outcome.status == "ok" and outcome.values == [[-1, -1, -1]]


def test_escape_through_subclasses(box, host, contained):
    outcome = box.call("subclass_popen", {"target": str(host / "canary" / "canary.txt")})
    assert outcome.status == "ok" and outcome.values[0] != 0


def test_escape_through_globals_and_builtins(box, host, contained):
    failed(box.call("globals_builtins", {"path": str(host / ".netrc")}), "FileNotFoundError")


def test_patching_the_worker_through_subclasses(box, contained):
    failed(box.call("patch_worker", {}), "changed the interpreter", "Worker")


def test_exec_and_eval_of_built_strings(box, host, contained):
    target = host / "canary" / "canary.txt"
    outcome = box.call("built_string", {"target": str(target)})
    assert outcome.status == "ok" and outcome.values[0] != 0


def test_os_exit(box, contained):
    failed(box.call("exit_now", {}), "exited with status 3")


def test_killing_the_parent(box, contained):
    outcome = box.call("kill_parent", {})
    assert outcome.status == "ok" and outcome.values == [1]  # its parent is the sandbox's own init, which survives


def test_killing_everything(box, contained):
    assert box.call("kill_everything", {}).status == "ok"


def test_killing_the_host(box, contained):
    failed(box.call("kill_host", {"pid": os.getpid()}), "ProcessLookupError")


def test_crashing_signal(box, contained):
    failed(box.call("kill_self", {}), "SIGSEGV")


def test_forged_replies(box, contained):
    failed(box.call("forge_reply", {}), "broke the protocol")


def test_enormous_result(box, contained):
    failed(box.call("huge_result", {}), "output limit exceeded")


def test_enormous_printing(box, contained):
    assert box.call("huge_print", {}).values == [7]  # printed output goes nowhere


def test_enormous_file(box, contained):
    failed(box.call("huge_file", {}), "File too large")
