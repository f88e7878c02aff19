"""A fake model for tests: scripted or rule-based answers, misbehaving the way real models do.

`FakeLM` answers from a list (in order, the last one repeating), a mapping (the first key
found in the conversation), or a rule (a function from the FakeRequest to text or a
FakeAnswer). It plugs in two places: as the transport of an LMClient (so the evaluator's
model path, retries, cache and accounting run with no network) and as a DSPy engine
(`dspy.LM("offline/fake", engine=FakeLM(...), cache=False)`). Real models put prose around
their answers, fence them, write Python where JSON was asked, and get cut at max_tokens:
the style helpers below produce exactly that, and `failure_rate` makes a share of attempts
fail transiently (429, 500, an unreadable 200) without failing any request more than
`max_failures` times in a row.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

from factory.lm.transport import TransportError


@dataclass(frozen=True)
class FakeAnswer:
    text: str | None = None
    tool_calls: Sequence[dict[str, Any]] = ()
    finish_reason: str | None = None  # default: "tool_calls" with tool calls, else "stop"
    fail: str | None = None  # raise this TransportError kind instead of answering
    retry_after: float | None = None


@dataclass(frozen=True)
class FakeRequest:
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def prompt(self) -> str:
        """The last user message."""
        return next((str(m.get("content") or "") for m in reversed(self.messages) if m.get("role") == "user"), "")

    @property
    def system(self) -> str:
        return "\n".join(str(m.get("content") or "") for m in self.messages if m.get("role") == "system")

    @property
    def text(self) -> str:
        return "\n".join(str(m.get("content") or "") for m in self.messages)


Script = Union[Sequence[Union[str, FakeAnswer]], Mapping[str, Union[str, FakeAnswer]],
               Callable[[FakeRequest], Union[str, FakeAnswer]]]


def in_prose(text: str) -> str:
    return f"Sure! Here is what you asked for:\n\n{text}\n\nLet me know if you need anything else."


def in_fence(text: str, language: str = "json") -> str:
    return f"```{language}\n{text}\n```"


def near_miss(text: str) -> str:
    """JSON written the way models miss it: Python quotes and literals, a trailing comma."""
    out = text.replace('"', "'").replace("true", "True").replace("false", "False").replace("null", "None")
    for closer in ("]", "}"):
        at = out.rfind(closer)
        if at > 0:
            out = out[:at] + "," + out[at:]
            break
    return out


def truncated(text: str, share: float = 0.5) -> FakeAnswer:
    return FakeAnswer(text[: max(1, int(len(text) * share))], finish_reason="length")


STYLES: dict[str, Callable[[str], str | FakeAnswer]] = {
    "plain": lambda t: t, "prose": in_prose, "fenced": in_fence, "prose+fenced": lambda t: in_prose(in_fence(t)),
    "near_miss": near_miss, "truncated": truncated,
}


def misbehaving(rule: Callable[[FakeRequest], str], styles: Sequence[str] = tuple(STYLES)) -> Callable[[FakeRequest], str | FakeAnswer]:
    """A rule whose answers come in a style chosen per prompt (deterministically)."""
    def answer(request: FakeRequest) -> str | FakeAnswer:
        pick = int(hashlib.sha256(request.text.encode()).hexdigest(), 16) % len(styles)
        return STYLES[styles[pick]](rule(request))

    return answer


TRANSIENT = ("rate_limited", "server_error", "unreadable")


class FakeLM:
    def __init__(self, script: Script, *, model: str = "fake", failure_rate: float = 0.0, max_failures: int = 2,
                 default: str = "I don't know."):
        self.script, self.model, self.default = script, model, default
        self.failure_rate, self.max_failures = failure_rate, max_failures
        self.requests: list[FakeRequest] = []  # every attempt, failed ones included
        self._attempts: dict[str, int] = {}
        self._lock = threading.Lock()
        self._position = 0

    def answer(self, request: FakeRequest) -> FakeAnswer:
        with self._lock:
            self.requests.append(request)
            failure = self._failure(request)
        if failure:
            return FakeAnswer(fail=failure, retry_after=0.0)
        reply = self._scripted(request)
        return FakeAnswer(reply) if isinstance(reply, str) else reply

    def _scripted(self, request: FakeRequest) -> str | FakeAnswer:
        if callable(self.script):
            return self.script(request)
        if isinstance(self.script, Mapping):
            return next((v for k, v in self.script.items() if k in request.text), self.default)
        with self._lock:
            reply = self.script[min(self._position, len(self.script) - 1)]
            self._position += 1
        return reply

    def _failure(self, request: FakeRequest) -> str | None:
        """A transient failure for this attempt, decided by the request and its attempt number."""
        if not self.failure_rate:
            return None
        key = json.dumps([request.messages, request.tools], sort_keys=True, default=str)
        attempt = self._attempts.get(key, 0)
        digest = int(hashlib.sha256(f"{key}|{attempt}".encode()).hexdigest(), 16)
        failed = attempt < self.max_failures and (digest % 10_000) < self.failure_rate * 10_000
        self._attempts[key] = attempt + 1 if failed else 0
        return TRANSIENT[digest % len(TRANSIENT)] if failed else None

    # As the transport of an LMClient.
    def send(self, body: dict[str, Any], deadline: float) -> dict[str, Any]:
        options = {k: v for k, v in body.items() if k not in ("model", "messages", "tools")}
        answer = self.answer(FakeRequest(list(body["messages"]), list(body.get("tools") or []), options))
        if answer.fail:
            raise TransportError(answer.fail, f"fake {answer.fail}", retry_after=answer.retry_after)
        return completion_dict(answer, self.model)

    def close(self) -> None:
        pass

    # As a DSPy engine.
    def complete(self, request: Any) -> Any:
        from factory.lm.dspy_bridge import dspy_response, openai_messages, openai_tools, request_options

        answer = self.answer(FakeRequest(openai_messages(request), openai_tools(request), request_options(request)))
        if answer.fail:
            raise TransportError(answer.fail, f"fake {answer.fail}")
        return dspy_response(answer.text, list(answer.tool_calls), _finish(answer), self.model)

    def stream(self, request: Any) -> Any:
        from dspy.lm15 import response_to_events

        return response_to_events(self.complete(request))


def _finish(answer: FakeAnswer) -> str:
    return answer.finish_reason or ("tool_calls" if answer.tool_calls else "stop")


def completion_dict(answer: FakeAnswer, model: str = "fake") -> dict[str, Any]:
    """An OpenAI chat completion holding the answer."""
    message: dict[str, Any] = {"role": "assistant", "content": answer.text}
    if answer.tool_calls:
        message["tool_calls"] = [dict(c) for c in answer.tool_calls]
    completion_tokens = len((answer.text or "").split()) + 4 * len(answer.tool_calls)
    return {"id": "chatcmpl-fake", "object": "chat.completion", "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": _finish(answer)}],
            "usage": {"prompt_tokens": 10, "completion_tokens": completion_tokens,
                      "total_tokens": 10 + completion_tokens}}
