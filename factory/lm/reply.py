"""What a model call gives back: a Reply (an answer, or why there is none), read from an
OpenAI-style completion; and Call, one request of a batch."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, Field

from factory.lm.transport import TransportError

COMPLETE = ("stop", "tool_calls", "function_call", "eos", "end_turn", None)


class Reply(BaseModel):
    """One answer, or why there is none."""

    text: str | None = None  # the assistant's content (None: a failure, or tool calls only)
    tool_calls: list[dict[str, Any]] = Field(default_factory=list)  # OpenAI shape, arguments as strings
    finish_reason: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached: bool = False
    attempts: int = 0
    error: str | None = None
    error_kind: str | None = None  # a TransportError kind
    endpoint_failure: bool = False  # the endpoint failed (not the request, not the model)

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def truncated(self) -> bool:
        return self.finish_reason == "length"

    @property
    def complete(self) -> bool:
        return self.ok and not self.truncated and self.finish_reason in COMPLETE and bool(self.text or self.tool_calls)


class Call(BaseModel):
    """One request for `complete_many`."""

    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None = None
    trial: int = 0
    options: dict[str, Any] = Field(default_factory=dict)


def read_completion(payload: dict[str, Any]) -> Reply:
    """The first choice of an OpenAI-style completion; TransportError("unreadable") when the
    payload has no readable choice."""
    choices = payload.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        problem = payload.get("error") or "no choices"
        raise TransportError("unreadable", f"HTTP 200 without an answer: {str(problem)[:200]}")
    message = choices[0].get("message")
    if not isinstance(message, dict):
        raise TransportError("unreadable", "HTTP 200 whose first choice has no message")
    usage = payload.get("usage") if isinstance(payload.get("usage"), dict) else {}
    return Reply(text=_content(message.get("content")), tool_calls=_tool_calls(message.get("tool_calls")),
                 finish_reason=choices[0].get("finish_reason"), prompt_tokens=int(usage.get("prompt_tokens") or 0),
                 completion_tokens=int(usage.get("completion_tokens") or 0))


def _content(content: Any) -> str | None:
    if isinstance(content, list):  # content parts, as some servers send them
        return "".join(p.get("text", "") for p in content if isinstance(p, dict)) or None
    return content if isinstance(content, str) else None


def _tool_calls(calls: Any) -> list[dict[str, Any]]:
    out = []
    for call in calls if isinstance(calls, list) else []:
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict):
            continue
        arguments = function.get("arguments")
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments if arguments is not None else {}, ensure_ascii=False)
        out.append({"id": call.get("id") or "", "type": "function",
                    "function": {"name": str(function.get("name") or ""), "arguments": arguments}})
    return out
