"""Running untrusted (model-written) tool code: a warm worker inside a bubblewrap sandbox.

    with Sandbox(Path("generated/seeds/marine-biology/toolbox.py")) as box:
        box.open_world(0)                                  # the seed's world, as Seed.build_world makes it
        outcome = box.call("find_species", {"name": "orca"}, returns=["str", "int"])
        outcome.status, outcome.values, outcome.state       # "ok" | "tool_error" | "failed"

One `Sandbox` runs one code file: a seed `toolbox.py` (tools over a world) or a plain module
of functions. Calls never raise for anything the code does: a `ToolError` comes back as a
`tool_error` outcome, and a crash, timeout, exceeded limit, non-JSON result or result that
does not match the declared return types as a `failed` outcome with its reason. A failed
call leaves the world as it was before the call; a worker that died or hung is replaced on
the next request, with the world restored from the last good state. Only
`SandboxUnavailable` is raised by `call`: no sandbox can be had here, and the code must not
run at all (callers fall back to the tool simulator or the typed mock).

Not thread-safe: one Sandbox per thread. bubblewrap's `--die-with-parent` ties the sandbox
to the thread that started it, so a sandbox started by a thread that exits is killed (the
next call starts a new one).
"""

from __future__ import annotations

import copy
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from factory.errors import FactoryError
from factory.records import ToolSpec, value_matches_type
from factory.world.bubblewrap import CODE_DIR, SandboxUnavailable, unavailable_reason
from factory.world.sandbox_guards import CPU_LIFETIME_FACTOR
from factory.world.sandbox_process import CALL_LIMITS, SandboxLimits, WorkerGone, WorkerProcess
from factory.world.sandbox_protocol import (
    CallRequest,
    DescribeRequest,
    FunctionReturns,
    LoadRequest,
    Reply,
    Request,
    WorldRequest,
)

__all__ = ["CallOutcome", "CodeDescription", "Sandbox", "SandboxFailure", "SandboxLimits", "SandboxUnavailable"]


class SandboxFailure(FactoryError):
    """The sandboxed code could not be loaded, described or given a world; the message says why."""


class CallOutcome(BaseModel):
    model_config = ConfigDict(extra="forbid")
    status: Literal["ok", "tool_error", "failed"]
    values: list[Any] = Field(default_factory=list)  # one per declared return value
    message: str = ""  # the tool's ToolError message, or why the call failed
    state: dict[str, Any] | None = None  # the world state after the call (toolbox code)
    seconds: float = 0.0


class CodeDescription(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["toolbox", "module"]
    functions: dict[str, FunctionReturns]
    specs: dict[str, ToolSpec] = Field(default_factory=dict)
    spec_errors: dict[str, str] = Field(default_factory=dict)


def split_values(value: Any, declared: Sequence[str] | None) -> tuple[list[Any], str | None]:
    """The returned values, one per declared type, and what is wrong with them (None: they conform)."""
    if declared is None:
        return [value], None
    if not declared:
        return ([], None) if value is None else ([], f"returned {_shown(value)}, declared no value")
    if len(declared) > 1:
        if not isinstance(value, list) or len(value) != len(declared):
            return [], f"returned {_shown(value)}, declared {len(declared)} values ({', '.join(declared)})"
        values = value
    else:
        values = [value]
    for i, (v, type_) in enumerate(zip(values, declared, strict=True)):
        if not value_matches_type(v, type_):
            which = f" as value {i + 1}" if len(declared) > 1 else ""
            return [], f"returned {_shown(v)}{which}, declared {type_}"
    return values, None


def _shown(value: Any) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 80 else text[:77] + '...'}"


class Sandbox:
    """A warm sandbox worker for one code file; see the module docstring."""

    def __init__(self, code: Path | str, limits: SandboxLimits | None = None, *, slug: str | None = None):
        self.code = Path(code).resolve()
        self.limits = limits or CALL_LIMITS
        self.slug = slug or self.code.parent.name  # world seeds are "<slug>:<seed>", as for seed folders
        self.starts = 0  # how many workers this sandbox has started
        self._worker: WorkerProcess | None = None
        self._ids = 0
        self._kind: str | None = None
        self._declared: dict[str, FunctionReturns] | None = None
        self._world: WorldRequest | None = None  # the open world and its last good state
        self._world_stale = False  # the worker's world may differ from the last good state

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._worker is not None:
            self._worker.kill()
            self._worker = None

    @property
    def state(self) -> dict[str, Any] | None:
        """The open world's state after the last call that did not fail."""
        return copy.deepcopy(self._world.state) if self._world else None

    @property
    def pid(self) -> int | None:
        """The host pid of the running sandbox (its bubblewrap process), None when none runs."""
        return self._worker.process.pid if self._worker is not None else None

    @property
    def kind(self) -> str:
        """"toolbox" (a seed toolbox: tools over a world) or "module" (plain functions); starts the worker."""
        self._ready()
        return self._kind or "module"

    def start(self) -> None:
        """Start the worker and import the code now rather than on the first request."""
        self._ready()

    def describe(self, specs: bool = False) -> CodeDescription:
        """Each function's declared return types; with `specs`, each toolbox tool's ToolSpec
        (derived inside the sandbox: the code's signatures and docstrings are its own)."""
        reply = self._request(DescribeRequest(id=0, specs=specs, toolbox=self.slug), self.limits.wall_seconds)
        functions = {f.name: f for f in reply.functions or []}
        self._declared = functions
        described = CodeDescription(kind=self._kind or "module", functions=functions)
        for entry in reply.specs or []:
            try:
                described.specs[entry.name] = ToolSpec.model_validate(entry.spec)
            except ValidationError as exc:
                described.spec_errors[entry.name] = entry.error or f"not a tool spec: {exc.errors()[0]['msg']}"
        return described

    def open_world(self, seed: int | str, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
        """Build (or reuse) the world of `seed`, apply state `overrides`, and make it the one calls see."""
        request = WorldRequest(id=0, seed=f"{self.slug}:{seed}" if isinstance(seed, int) else seed,
                               overrides=overrides or {})
        reply = self._request(request, self.limits.wall_seconds)
        self._world = WorldRequest(id=0, seed=request.seed, state=reply.state or {})
        self._world_stale = False
        return copy.deepcopy(self._world.state)

    def call(self, function: str, arguments: dict[str, Any], returns: Sequence[str] | None = None,
             *, timeout: float | None = None, world: int | str | None = None,
             state: dict[str, Any] | None = None) -> CallOutcome:
        """Call `function` with JSON `arguments`; `returns` are the declared types (default: the
        function's own annotation, read inside the sandbox). With `world` (a seed, as for
        `open_world`), the call runs in that world with `state` (default: its base state), in
        the same round trip."""
        started = time.perf_counter()
        seed = None if world is None else f"{self.slug}:{world}" if isinstance(world, int) else world
        try:
            declared = list(returns) if returns is not None else self._returns_of(function)
            if seed is not None:
                self._world, self._world_stale = None, False  # the request carries its world
            reply = self._request(CallRequest(id=0, function=function, arguments=arguments, world=seed, state=state),
                                  timeout or self.limits.wall_seconds)
            if seed is not None:
                self._world = WorldRequest(id=0, seed=seed, state=copy.deepcopy(state) if state is not None else {})
        except SandboxFailure as exc:
            return self._failed(str(exc), started)
        if reply.status == "tool_error":
            self._keep_state(reply)
            return CallOutcome(status="tool_error", message=reply.message, state=self.state,
                               seconds=time.perf_counter() - started)
        values, problem = split_values(reply.value, declared)
        if problem:
            return self._failed(problem, started)
        self._keep_state(reply)
        return CallOutcome(status="ok", values=values, state=self.state, seconds=time.perf_counter() - started)

    def ask(self, request: Request) -> Any:
        """The `data` of a declare, tables, holds, facts or rebuild request; SandboxFailure when it fails."""
        return self._request(request, self.limits.wall_seconds).data

    def _failed(self, reason: str, started: float) -> CallOutcome:
        self._world_stale = self._world is not None  # undo whatever the failed call changed
        return CallOutcome(status="failed", message=reason, state=self.state, seconds=time.perf_counter() - started)

    def _keep_state(self, reply: Reply) -> None:
        if self._world is not None and reply.state is not None:
            self._world.state = reply.state

    def _returns_of(self, function: str) -> list[str] | None:
        if self._declared is None:
            self.describe()
        entry = (self._declared or {}).get(function)
        if entry is None:
            known = ", ".join(sorted(self._declared or {})) or "none"
            raise SandboxFailure(f"{self.code} defines no function {function!r} (functions: {known})")
        if entry.error:
            raise SandboxFailure(f"{function}: cannot check its results: {entry.error}")
        return entry.returns

    def _request(self, request: Request, timeout: float) -> Reply:
        """Send one request to a ready worker; a `failed` reply or a lost worker raises SandboxFailure."""
        worker = self._ready()
        self._ids += 1
        request.id = self._ids
        try:
            reply = worker.exchange(request, timeout)
        except WorkerGone as exc:
            self._worker = None
            raise SandboxFailure(self._on_host(exc.reason)) from None
        if reply.recycle:
            self.close()
        if reply.status == "failed":
            raise SandboxFailure(self._on_host(reply.message))
        return reply

    def _ready(self) -> WorkerProcess:
        """The live worker, started, loaded and given the open world's last good state if need be."""
        worker = self._worker
        lifetime = self.limits.cpu_seconds * CPU_LIFETIME_FACTOR
        if worker is not None and worker.cpu + self.limits.cpu_seconds >= lifetime:
            self.close()  # retire it before its lifetime CPU budget could cut a call short
            worker = None
        if worker is None:
            worker = self._start_worker()
        if self._world is not None and self._world_stale:
            self._ids += 1
            restore = self._world.model_copy(update={"id": self._ids})
            try:
                reply = worker.exchange(restore, self.limits.wall_seconds)
            except WorkerGone as exc:
                self._worker = None
                raise SandboxFailure(f"restoring the world failed: {self._on_host(exc.reason)}") from None
            if reply.status != "ok":
                raise SandboxFailure(f"restoring the world failed: {self._on_host(reply.message)}")
            self._world_stale = False
        return worker

    def _start_worker(self) -> WorkerProcess:
        reason = unavailable_reason()
        if reason:
            raise SandboxUnavailable(f"sandbox unavailable: {reason}")
        if not self.code.is_file():
            raise SandboxFailure(f"{self.code}: no such file")
        worker = WorkerProcess(self.code, self.limits)
        self.starts += 1
        try:
            worker.ready()
        except WorkerGone as exc:
            raise SandboxFailure(f"the sandbox did not start: {exc.reason}") from None
        self._ids += 1
        try:
            loaded = worker.exchange(LoadRequest(id=self._ids), self.limits.wall_seconds)
        except WorkerGone as exc:
            raise SandboxFailure(f"importing {self.code} failed: {self._on_host(exc.reason)}") from None
        if loaded.status != "ok":
            worker.kill()
            raise SandboxFailure(f"importing {self.code} failed: {self._on_host(loaded.message)}")
        self._kind = loaded.kind
        self._worker = worker
        self._world_stale = self._world is not None
        return worker

    def _on_host(self, message: str) -> str:
        """Name the code file by its host path in messages from inside."""
        return message.replace(f"{CODE_DIR}/{self.code.name}", str(self.code))
