"""What the sandbox worker enforces and checks from inside: resource limits, each call's CPU
budget, processes or threads a call left running, and changes to the interpreter parts the
worker itself relies on. Runs inside the sandbox; standard library only.

The guards keep the worker honest, not the host safe: the host is protected by the sandbox
around the worker. Code determined to corrupt its own worker (ctypes can write anywhere in
its memory) can only make its own later results wrong, and those are still type-checked.
"""

from __future__ import annotations

import builtins
import math
import operator
import os
import resource
import signal
import sys
from types import ModuleType
from typing import Any

CPU_LIFETIME_FACTOR = 50  # a worker's lifetime CPU budget, in per-call budgets


def apply_limits(limits: dict[str, Any]) -> None:
    """Hard limits for this process and everything it starts; raising them needs privileges it lacks."""
    mib = 1024 * 1024
    memory = limits["memory_mb"] * mib
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_NPROC, (limits["processes"], limits["processes"]))
    size = limits["file_size_mb"] * mib
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    lifetime = math.ceil(limits["cpu_seconds"] * CPU_LIFETIME_FACTOR)
    resource.setrlimit(resource.RLIMIT_CPU, (lifetime, lifetime))
    # An oversized write fails with EFBIG (an exception with a reason) instead of killing the worker.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def cpu_used() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def budget_cpu(seconds: float) -> None:
    """Per-call CPU budget: the soft limit sits `seconds` above what the worker used so far
    (past it, SIGXCPU ends the worker; the hard limit is its lifetime budget)."""
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = min(hard, math.ceil(cpu_used() + seconds))
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def strays() -> str | None:
    """Processes or threads a call left running (they could act between calls), reaped first."""
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    except ChildProcessError:
        pass
    me = os.getpid()
    others = [p for p in os.listdir("/proc") if p.isdigit() and int(p) not in (1, me)]
    threads = len(os.listdir(f"/proc/{me}/task")) - 1
    if others or threads:
        return f"left {len(others)} process(es) and {threads} thread(s) running"
    return None


class InterpreterSeal:
    """The objects the worker relies on (builtins, the import system, the modules and classes
    it calls), held before any model-written code runs and compared by identity after each request."""

    def __init__(self, modules: list[ModuleType], classes: list[type]):
        namespaces = {"builtins": vars(builtins), **{m.__name__: vars(m) for m in [sys, *modules]}}
        namespaces.update({cls.__qualname__: vars(cls) for cls in classes})
        # A namespace keeps its order: a replaced name keeps its place, a deleted one shifts the
        # rest, and names added later (importing a submodule adds one to its package) come last
        # and are fine.
        self.namespaces = {name: (ns, list(ns.values())) for name, ns in namespaces.items()}
        self.lists = {name: (items, list(items)) for name, items in
                      {"sys.path": sys.path, "sys.meta_path": sys.meta_path, "sys.path_hooks": sys.path_hooks}.items()}
        self.module_names = [m.__name__ for m in [sys, *modules]]
        self.modules = [sys.modules[name] for name in self.module_names]

    def broken(self) -> str | None:
        """What the last request changed, or None. Identity only: no replaced object's code runs."""
        changed = [name for name, (ns, held) in self.namespaces.items()
                   if len(ns) < len(held) or not all(map(operator.is_, ns.values(), held))]
        changed += [name for name, (items, held) in self.lists.items()
                    if len(items) != len(held) or not all(map(operator.is_, items, held))]
        if not all(map(operator.is_, map(sys.modules.get, self.module_names), self.modules)):
            changed.append("sys.modules")
        if changed:
            return f"the code changed the interpreter the worker relies on ({', '.join(changed)})"
        return None
