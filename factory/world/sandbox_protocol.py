"""The messages between the host and the sandbox worker: one JSON line each way per request.

The host writes requests from these models; every reply line the worker sends is validated
against `Reply` before anything reads it, since the code behind the worker is untrusted.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: int


class LoadRequest(Request):
    """Import the code file (its module-level code runs here, under the limits)."""

    op: Literal["load"] = "load"


class DescribeRequest(Request):
    """Name each function's return types; with `specs`, derive each toolbox tool's ToolSpec."""

    op: Literal["describe"] = "describe"
    specs: bool = False
    toolbox: str | None = None


class WorldRequest(Request):
    """Make the world of `seed` active: its base state (or `state`), then `overrides` on top."""

    op: Literal["world"] = "world"
    seed: str
    state: dict[str, Any] | None = None
    overrides: dict[str, Any] = Field(default_factory=dict)


class CallRequest(Request):
    """Call a function; with `world`, first make the world of that seed active in `state`
    (one round trip per call for a caller that keeps the state itself)."""

    op: Literal["call"] = "call"
    function: str
    arguments: dict[str, Any]
    world: str | None = None
    state: dict[str, Any] | None = None


class DeclareRequest(Request):
    """Everything a toolbox declares that is data: each tool's asks, gives, groups, sense
    rules, requires and tags; bridges, internal kinds, written_as templates, conditions, and
    which kinds have value generators and facts. Declarations that are code (a `sensible`
    rule, a `written_as` function of the toolbox) are listed as dropped, with the reason."""

    op: Literal["declare"] = "declare"


class TablesRequest(Request):
    """The literal values, joint values and facts of the world of `seed`."""

    op: Literal["tables"] = "tables"
    seed: str


class HoldsRequest(Request):
    """Which declared conditions hold in the world of `seed` with `state`."""

    op: Literal["holds"] = "holds"
    seed: str
    state: dict[str, Any]


class FactsRequest(Request):
    """What one value of `kind` implies (facts_about), in the world of `seed`."""

    op: Literal["facts"] = "facts"
    seed: str
    kind: str
    value: Any


class RebuildRequest(Request):
    """Build the world of `seed` twice afresh and say whether the builds agree (determinism)."""

    op: Literal["rebuild"] = "rebuild"
    seed: str


class FunctionReturns(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    returns: list[str] | None  # None: no return annotation, any JSON value is accepted
    error: str | None = None  # the return annotation is outside the type vocabulary


class SpecReply(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    spec: dict[str, Any] | None = None
    error: str | None = None


class Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: int
    status: Literal["ok", "tool_error", "failed"]
    cpu: float  # CPU seconds the worker has used in its life
    message: str = ""
    recycle: bool = False  # the worker is no longer trustworthy (MemoryError, strays, tampering): replace it
    value: Any = None
    state: dict[str, Any] | None = None
    kind: Literal["toolbox", "module"] | None = None
    names: list[str] | None = None
    functions: list[FunctionReturns] | None = None
    specs: list[SpecReply] | None = None
    data: Any = None  # the answer of declare, tables, holds, facts and rebuild requests
