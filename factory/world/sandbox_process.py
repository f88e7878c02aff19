"""One running sandbox worker: the bubblewrap process, its pipe, deadlines and the output cap.

Every read and write has a deadline, replies are read only up to the output limit, and any
way the worker can misbehave (dies, hangs, floods the pipe, answers out of turn, breaks the
message format) ends with the whole sandbox killed and a `WorkerGone` carrying the reason.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import tempfile
import time
import weakref
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from factory.world.bubblewrap import (
    CODE_DIR,
    host_env,
    launch_command,
    make_stage,
    python_binary,
    python_binds,
    remove_stage,
)
from factory.world.sandbox_protocol import Reply, Request


class SandboxLimits(BaseModel):
    """Per-sandbox resource limits. Memory is per process; processes count threads too."""

    model_config = ConfigDict(extra="forbid")
    wall_seconds: float = 10.0  # per call, then the sandbox is killed and replaced
    cpu_seconds: float = 10.0  # per call
    memory_mb: int = 512  # address space of each process
    processes: int = 8  # the sandbox's init and the worker included
    file_size_mb: int = 16  # largest file the code may write
    scratch_mb: int = 64  # size of /scratch, the only writable place
    output_kb: int = 1024  # largest reply read from the pipe
    startup_seconds: float = 30.0  # for bubblewrap and the interpreter to come up


# Every limit a sandbox runs under is set here. A code file run on its own (`factory sandbox
# run`, its --timeout overriding the two time limits) gets CALL_LIMITS; a model-written seed's
# workers get SEED_LIMITS, whose replies carry the value tables of a whole world. The worker
# applies them from inside (sandbox_guards, which also caps its lifetime CPU at
# CPU_LIFETIME_FACTOR calls' worth).
CALL_LIMITS = SandboxLimits()
SEED_LIMITS = SandboxLimits(output_kb=8192)


class WorkerGone(Exception):
    """The worker died, hung or misbehaved; it has been killed. `reason` says how."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def exit_reason(status: int | None, limits: SandboxLimits) -> str:
    """Why the worker ended, from bubblewrap's exit status (128 + N: killed by signal N)."""
    if status is None:
        return "the worker stopped answering"
    number = status - 128 if status > 128 else -status if status < 0 else 0
    if not number:
        return f"the worker exited with status {status}"
    if number == signal.SIGXCPU:
        return f"CPU time limit exceeded ({limits.cpu_seconds:g} s per call)"
    if number == signal.SIGXFSZ:
        return f"file size limit exceeded ({limits.file_size_mb} MiB)"
    try:
        name = signal.Signals(number).name
    except ValueError:
        name = f"signal {number}"
    return f"the worker was killed by {name}"


class WorkerProcess:
    """A started sandbox running `factory.world.sandbox_worker` on one code file."""

    def __init__(self, code: Path, limits: SandboxLimits):
        self.limits = limits
        self.stage = make_stage()
        self.stderr = tempfile.TemporaryFile()
        inner = [str(python_binary()), "-S", "-m", "factory.world.sandbox_worker", f"{CODE_DIR}/{code.name}",
                 limits.model_dump_json()]
        command = launch_command(python_binds(code), inner, limits.scratch_mb, self.stage)
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr,
                                        env=host_env(), start_new_session=True, close_fds=True)
        # Should the owner never close us, the sandbox and the stage still go at exit.
        self._finalizer = weakref.finalize(self, _end, self.process, self.stage)
        os.set_blocking(self.process.stdout.fileno(), False)
        os.set_blocking(self.process.stdin.fileno(), False)
        self.buffer = b""
        self.cpu = 0.0  # the worker's lifetime CPU seconds, as last reported
        self.alive = True
        self.late = ""  # the reason given when the current deadline passes

    def ready(self) -> Reply:
        """The worker's first line, sent once its limits are applied."""
        self.late = f"did not start within {self.limits.startup_seconds:g} s"
        return self.read_reply(0, time.monotonic() + self.limits.startup_seconds)

    def exchange(self, request: Request, timeout: float) -> Reply:
        deadline = time.monotonic() + timeout
        self.late = f"timed out after {timeout:g} s"
        self.write(request.model_dump_json().encode() + b"\n", deadline)
        reply = self.read_reply(request.id, deadline)
        self.cpu = reply.cpu
        return reply

    def write(self, data: bytes, deadline: float) -> None:
        fd = self.process.stdin.fileno()
        view = memoryview(data)
        while view:
            self.wait_for(fd, select.POLLOUT, deadline)
            try:
                view = view[os.write(fd, view):]
            except BlockingIOError:
                continue
            except BrokenPipeError:
                self.gone(None)

    def read_reply(self, expected_id: int, deadline: float) -> Reply:
        fd = self.process.stdout.fileno()
        cap = self.limits.output_kb * 1024
        while b"\n" not in self.buffer:
            self.wait_for(fd, select.POLLIN, deadline)
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                continue
            if not chunk:
                self.gone(None)
            self.buffer += chunk
            if len(self.buffer) > cap:
                self.gone(f"output limit exceeded (more than {self.limits.output_kb} KiB)")
        line, self.buffer = self.buffer.split(b"\n", 1)
        if self.buffer:
            self.gone("the worker broke the protocol: more than one reply to a request")
        try:
            reply = Reply.model_validate_json(line)
        except ValidationError as exc:
            self.gone(f"the worker broke the protocol: {exc.errors()[0]['msg']}")
        if reply.id != expected_id:
            self.gone(f"the worker broke the protocol: reply {reply.id} to request {expected_id}")
        return reply

    def wait_for(self, fd: int, event: int, deadline: float) -> None:
        poller = select.poll()
        poller.register(fd, event)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self.gone(self.late)
            if poller.poll(left * 1000):
                return

    def gone(self, reason: str | None) -> None:
        """Kill the sandbox and raise WorkerGone; without a reason, say how the worker ended."""
        if reason is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=2)  # the worker ended by itself: let bubblewrap report how
            reason = exit_reason(self.process.returncode, self.limits)
            said = self.bubblewrap_said()
            if said:
                reason += f" ({said})"
        self.kill()
        raise WorkerGone(reason)

    def bubblewrap_said(self) -> str:
        """The last line bubblewrap or the interpreter wrote before the worker took over stderr."""
        self.stderr.seek(0)
        lines = self.stderr.read(4096).decode(errors="replace").strip().splitlines()
        return lines[-1] if lines else ""

    def kill(self) -> None:
        """Kill bubblewrap; its `--die-with-parent` takes the whole PID namespace down with it."""
        self.alive = False
        self._finalizer()
        with contextlib.suppress(OSError):
            self.stderr.close()


def _end(process: subprocess.Popen, stage: Path | None) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.kill()
    process.wait()
    for stream in (process.stdin, process.stdout):
        with contextlib.suppress(OSError):
            stream.close()
    remove_stage(stage)
