"""The warm worker that runs inside the sandbox: one code file, many calls, JSON lines over a pipe.

Started by `factory.world.sandbox` as `python -S -m factory.world.sandbox_worker CODE LIMITS`
inside bubblewrap. It applies its resource limits before it imports any model-written code,
moves the protocol pipe off stdin/stdout (so nothing the code prints can pose as a reply),
then answers one JSON line per request line. The messages are the ones
`factory.world.sandbox_protocol` validates on the host side. Standard library only (plus the
light `factory.toolbox`): a worker starts in tens of milliseconds.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib.util
import inspect
import json
import os
import random
import sys
import traceback
import typing
from typing import Any

import factory.errors
import factory.toolbox
from factory.errors import ToolError
from factory.toolbox import Toolbox, World, active_world
from factory.world import sandbox_guards
from factory.world.sandbox_guards import InterpreterSeal, apply_limits, budget_cpu, cpu_used, strays

MESSAGE_CHARS = 2000  # longer error messages are cut; the host caps the whole reply as well


def failure(exc: BaseException, code_path: str) -> str:
    """`Type: message (at FILE:LINE)`, the line being the deepest frame in the model's code."""
    where = ""
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == code_path:
            where = f" (at {code_path}:{frame.lineno})"
    try:
        text = str(exc)
    except Exception:  # a hostile __str__
        text = "<unprintable>"
    return f"{type(exc).__name__}: {text}"[:MESSAGE_CHARS] + where


class Worker:
    """The loaded code file, the active world, and the request handlers."""

    def __init__(self, code_path: str, limits: dict[str, Any]):
        self.code_path = code_path
        self.limits = limits
        self.seal = InterpreterSeal(
            [sys.modules[__name__], sandbox_guards, factory.errors, factory.toolbox, json, json.encoder, json.decoder,
             json.scanner, os, copy, dataclasses, importlib, importlib.util, inspect, traceback],
            [Worker, InterpreterSeal, Toolbox, World],
        )
        self.module: Any = None
        self.toolbox: Toolbox | None = None
        self.worlds: dict[str, World] = {}  # base worlds by random seed, built once
        self.world: World | None = None

    def load(self, request: dict[str, Any]) -> dict[str, Any]:
        name = "sandboxed_" + os.path.splitext(os.path.basename(self.code_path))[0]
        spec = importlib.util.spec_from_file_location(name, self.code_path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses and typing resolve names through sys.modules
        budget_cpu(self.limits["cpu_seconds"])
        spec.loader.exec_module(module)
        self.module = module
        toolbox = getattr(module, "toolbox", None)
        self.toolbox = toolbox if isinstance(toolbox, Toolbox) else None
        return {"status": "ok", "kind": "toolbox" if self.toolbox else "module", "names": sorted(self.functions())}

    def functions(self) -> dict[str, Any]:
        if self.toolbox is not None:
            return {name: entry.fn for name, entry in self.toolbox.tools.items()}
        return {name: fn for name, fn in vars(self.module).items()
                if inspect.isfunction(fn) and fn.__module__ == self.module.__name__ and not name.startswith("_")}

    def describe(self, request: dict[str, Any]) -> dict[str, Any]:
        from factory.seeds.annotations import returned_parts, type_name

        described = []
        for name, fn in sorted(self.functions().items()):
            entry: dict[str, Any] = {"name": name, "returns": None, "error": None}
            try:
                hints = typing.get_type_hints(fn, include_extras=True)
                if "return" in hints:
                    entry["returns"] = [type_name(part)[0] for part in returned_parts(hints["return"])]
            except Exception as exc:
                entry["error"] = f"return annotation: {failure(exc, self.code_path)}"
            described.append(entry)
        specs = None
        if request.get("specs") and self.toolbox is not None:
            from factory.seeds.specs import spec_from_function

            specs = []
            for name, entry in self.toolbox.tools.items():
                try:
                    specs.append({"name": name, "spec": spec_from_function(entry.fn, request.get("toolbox")).model_dump(mode="json")})
                except Exception as exc:
                    specs.append({"name": name, "error": failure(exc, self.code_path)})
        return {"status": "ok", "functions": described, "specs": specs}

    def open_world(self, request: dict[str, Any]) -> dict[str, Any]:
        if self.toolbox is None or self.toolbox.build_world is None:
            return {"status": "failed", "message": "the code registers no world builder (@toolbox.world)"}
        seed = request["seed"]
        if seed not in self.worlds:
            budget_cpu(self.limits["cpu_seconds"])
            built = self.toolbox.build_world(random.Random(seed))
            if not isinstance(built, World):
                return {"status": "failed", "message": f"the world builder returned a {type(built).__name__}, not a World"}
            self.worlds[seed] = built
        base = self.worlds[seed]
        state = copy.deepcopy(base.state if request.get("state") is None else request["state"])
        state.update(copy.deepcopy(request.get("overrides") or {}))
        self.world = dataclasses.replace(base, state=state)
        return {"status": "ok", "state": self.world.state}

    def call(self, request: dict[str, Any]) -> dict[str, Any]:
        fn = self.functions().get(request["function"])
        if fn is None:
            return {"status": "failed", "message": f"no function {request['function']!r} in the code"}
        try:
            inspect.signature(fn).bind(**request["arguments"])
        except TypeError as exc:
            return {"status": "failed", "message": f"bad arguments: {exc}"}
        if request.get("world") is not None:
            opened = self.open_world({"seed": request["world"], "state": request.get("state")})
            if opened["status"] != "ok":
                return opened
        if self.toolbox is not None and self.world is None:
            return {"status": "failed", "message": "no world is open (open one before calling a tool)"}
        budget_cpu(self.limits["cpu_seconds"])
        try:
            if self.toolbox is not None:
                with active_world(self.world):
                    value = fn(**request["arguments"])
            else:
                value = fn(**request["arguments"])
        except ToolError as exc:
            return {"status": "tool_error", "message": str(exc)[:MESSAGE_CHARS], "state": self.state()}
        return {"status": "ok", "value": value, "state": self.state()}

    def state(self) -> dict[str, Any] | None:
        return self.world.state if self.world is not None else None

    # Declarations and tables, as data for the host (factory.world.sandboxed_seed).

    def _toolbox(self) -> Toolbox:
        if self.toolbox is None:
            raise ValueError("the code defines no `toolbox = Toolbox()`")
        return self.toolbox

    def _base(self, seed: str) -> World:
        """The base world of `seed`, built once; the active world is left alone."""
        toolbox = self._toolbox()
        if seed not in self.worlds:
            if toolbox.build_world is None:
                raise ValueError("the code registers no world builder (@toolbox.world)")
            budget_cpu(self.limits["cpu_seconds"])
            built = toolbox.build_world(random.Random(seed))
            if not isinstance(built, World):
                raise ValueError(f"the world builder returned a {type(built).__name__}, not a World")
            self.worlds[seed] = built
        return self.worlds[seed]

    def declare(self, request: dict[str, Any]) -> dict[str, Any]:
        toolbox = self._toolbox()
        dropped: list[str] = []
        tools = {}
        for name, entry in toolbox.tools.items():
            sense = []
            for rule in entry.sense:
                data = rule_data(rule)
                if data is None:
                    label = getattr(rule, "name", type(rule).__name__)
                    dropped.append(f"{name}: sense rule {label!r} is code (sensible); a model-written toolbox keeps "
                                   "only distinct, within, around, trip, together and same_day")
                else:
                    sense.append(data)
            tools[name] = {"asks": list(entry.asks), "gives": [[list(k), list(v)] for k, v in entry.gives.items()],
                           "groups": dict(entry.groups), "sense": sense, "requires": list(entry.requires),
                           "tags": list(entry.tags)}
        written = {}
        for kind, template in toolbox.written.items():
            if isinstance(template, str):
                written[kind] = {"template": template}
            elif callable(template) and getattr(template, "__module__", None) in SHARED_WRITERS:
                written[kind] = {"function": f"{template.__module__}:{getattr(template, '__name__', '')}"}
            else:
                dropped.append(f"written_as({kind!r}) is a function of the toolbox; a model-written toolbox keeps "
                               "only string templates (and the factory's own functions)")
        conditions = [{"name": c.name, "broken_state": c.broken_state, "fix_tool": c.fix_tool,
                       "fix_arguments": c.fix_arguments, "free": list(c.free), "context": list(c.context), "says": list(c.says)}
                      for c in toolbox.conditions.values()]
        data = {"tools": tools, "bridges": sorted(toolbox.bridges), "internal": sorted(toolbox.internal),
                "written": written, "conditions": conditions, "values": list(toolbox.values),
                "joint": [list(kinds) for kinds in toolbox.joint_values], "facts": list(toolbox.facts),
                "world": toolbox.build_world is not None, "dropped": dropped}
        return {"status": "ok", "data": data}

    def tables(self, request: dict[str, Any]) -> dict[str, Any]:
        toolbox = self._toolbox()
        base = self._base(request["seed"])
        budget_cpu(self.limits["cpu_seconds"])
        values = {kind: list(fn(base)) for kind, fn in toolbox.values.items()}
        joint = [[list(kinds), [list(t) for t in fn(base)]] for kinds, fn in toolbox.joint_values.items()]
        facts = []
        for kind, fn in toolbox.facts.items():
            seen = set()
            for key, drawn in values.items():
                if key != kind and key.split("/")[0] != kind:
                    continue
                for value in drawn:
                    if isinstance(value, (str, int, float)) and (type(value), value) not in seen:
                        seen.add((type(value), value))
                        facts.append([kind, value, fn(base, value)])
        return {"status": "ok", "data": {"values": values, "joint": joint, "facts": facts}}

    def holds(self, request: dict[str, Any]) -> dict[str, Any]:
        toolbox = self._toolbox()
        base = self._base(request["seed"])
        probe = dataclasses.replace(base, state=copy.deepcopy(request["state"]))
        budget_cpu(self.limits["cpu_seconds"])
        holding, errors = [], {}
        for name, condition in toolbox.conditions.items():
            try:
                if condition.holds(probe):
                    holding.append(name)
            except Exception as exc:
                errors[name] = failure(exc, self.code_path)
        return {"status": "ok", "data": {"holding": holding, "errors": errors}}

    def facts(self, request: dict[str, Any]) -> dict[str, Any]:
        describe = self._toolbox().facts.get(request["kind"])
        base = self._base(request["seed"])
        budget_cpu(self.limits["cpu_seconds"])
        try:
            found = describe(base, request["value"]) if describe is not None else None
        except Exception:  # an unknown value implies nothing; the tools themselves reject it
            found = None
        return {"status": "ok", "data": found or {}}

    def rebuild(self, request: dict[str, Any]) -> dict[str, Any]:
        toolbox = self._toolbox()
        builds = []
        for _ in range(2):
            budget_cpu(self.limits["cpu_seconds"])
            built = toolbox.build_world(random.Random(request["seed"]))
            if not isinstance(built, World):
                return {"status": "failed", "message": f"the world builder returned a {type(built).__name__}, not a World"}
            builds.append(built)
        first, second = builds
        same_state = first.state == second.state
        same_world = repr(first) == repr(second)
        values = [{kind: fn(w) for kind, fn in toolbox.values.items()} for w in builds]
        return {"status": "ok", "data": {"same_state": same_state, "same_world": same_world,
                                         "same_values": values[0] == values[1]}}

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        handlers = {"load": self.load, "describe": self.describe, "world": self.open_world, "call": self.call,
                    "declare": self.declare, "tables": self.tables, "holds": self.holds, "facts": self.facts,
                    "rebuild": self.rebuild}
        try:
            reply = handlers[request["op"]](request)
        except MemoryError:
            reply = {"status": "failed", "recycle": True,
                     "message": f"memory limit exceeded ({self.limits['memory_mb']} MiB): MemoryError"}
        except BaseException as exc:  # SystemExit and KeyboardInterrupt from the code are failures too
            reply = {"status": "failed", "message": failure(exc, self.code_path)}
        broken = self.seal.broken() or strays()
        if broken:  # the call fails, and the host replaces this worker
            reply = {"status": "failed", "message": broken, "recycle": True}
        reply["id"] = request["id"]
        reply["cpu"] = cpu_used()
        return reply


SHARED_WRITERS = ("factory.toolbox.gazetteer",)  # modules whose functions the host may use as written_as


def rule_data(rule: Any) -> dict[str, Any] | None:
    """A declarative sense rule as data; None for a rule that is code (`sensible`)."""
    kind = getattr(rule, "kind", None)
    if kind in ("distinct", "together", "arrives", "present"):
        return {"kind": kind, "params": list(rule.params)}
    if kind == "same_day":
        return {"kind": kind, "param": rule.param}
    if kind == "within":
        return {"kind": kind, "param": rule.param, "low": rule.low, "high": rule.high}
    if kind == "around":
        return {"kind": kind, "param": rule.param, "before": rule.before, "after": rule.after}
    if kind == "trip":
        return {"kind": kind, "start": list(rule.start), "end": list(rule.end), "mode": rule.mode}
    return None


def encode(reply: dict[str, Any], to_json: Any) -> bytes:
    try:
        return to_json(reply).encode() + b"\n"
    except (TypeError, ValueError, RecursionError) as exc:
        bad = {"id": reply.get("id"), "status": "failed", "cpu": reply.get("cpu", 0.0),
               "message": f"the result or world state is not JSON: {type(exc).__name__}: {exc}"[:MESSAGE_CHARS]}
        return to_json(bad).encode() + b"\n"


def protocol_pipes() -> tuple[Any, int]:
    """Move the protocol off fds 0 and 1 (close-on-exec copies), and point 0, 1, 2 at /dev/null."""
    requests = os.fdopen(os.dup(0), "rb")
    replies = os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    return requests, replies


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def serve(code_path: str, limits: dict[str, Any]) -> None:
    apply_limits(limits)
    requests, replies = protocol_pipes()
    worker = Worker(code_path, limits)
    # Bound before any model-written code runs: rebinding json.dumps or Worker.handle later
    # cannot reroute replies.
    handle, read_json = worker.handle, json.JSONDecoder().decode
    to_json = json.JSONEncoder(allow_nan=False, ensure_ascii=False).encode
    write_all(replies, encode({"id": 0, "status": "ok", "cpu": cpu_used()}, to_json))  # ready
    for line in requests:
        write_all(replies, encode(handle(read_json(line.decode())), to_json))


if __name__ == "__main__":
    serve(sys.argv[1], json.loads(sys.argv[2]))
