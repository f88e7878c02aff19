"""A `dspy.LM` whose calls go through an LMClient, so DSPy programs get the project's
retries, call cache, accounting, redaction and endpoint-failure stop, once.

DSPy 3.4 takes a custom engine (`complete(Request) -> Response`); `ClientEngine` turns the
canonical request into OpenAI-style messages for the client and the client's Reply back into
a canonical response (finish_reason "length" stays visible to DSPy and to the caller).
DSPy's own cache and retries are switched off: ours apply instead. A request that fails
after its retries raises CallFailed (a stage records it as a reject); a dead endpoint raises
EndpointDown, which ends the run. One LM per sample index: `dspy_lm(client, sample=k)` makes
the k-th sample of an identical prompt a different cached call.
A truncated answer raises CallFailed too (with the partial text), unless asked otherwise.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from factory.errors import EndpointDown
from factory.lm.client import LMClient
from factory.lm.reply import Reply

FINISH = {"stop": "stop", "length": "length", "tool_calls": "tool_call", "function_call": "tool_call",
          "content_filter": "content_filter"}


class CallFailed(Exception):
    """A model call that got no answer after its retries (`reply` says why)."""

    reply: Reply


@functools.cache
def _raised_through_dspy() -> tuple[type, type]:
    """The two failures as DSPy LMErrors too: DSPy passes its own errors through unchanged,
    so the caller of a module catches CallFailed or EndpointDown, not a wrapper."""
    from dspy.utils.exceptions import LMError

    class ModelCallFailed(CallFailed, LMError):
        def __init__(self, reply: Reply, model: str):
            LMError.__init__(self, reply.error or "the answer was cut at max_tokens (finish_reason 'length')", model=model)
            self.reply = reply

    class EndpointStopped(EndpointDown, LMError):
        def __init__(self, message: str):
            LMError.__init__(self, message)

    return ModelCallFailed, EndpointStopped


def _text(parts: Any) -> str:
    if isinstance(parts, str):
        return parts
    return "".join(getattr(p, "text", "") or "" for p in parts or ())


def openai_messages(request: Any) -> list[dict[str, Any]]:
    """A dspy.lm15 Request's system prompt and messages as OpenAI chat messages."""
    from dspy.lm15 import ToolCallPart, ToolResultPart

    messages: list[dict[str, Any]] = []
    if request.system:
        messages.append({"role": "system", "content": _text(request.system)})
    for message in request.messages:
        results = [p for p in message.parts if isinstance(p, ToolResultPart)]
        if results:
            messages += [{"role": "tool", "tool_call_id": r.id, "content": _text(r.content)} for r in results]
            continue
        role = "system" if message.role == "developer" else message.role
        out: dict[str, Any] = {"role": role, "content": _text(message.parts)}
        calls = [p for p in message.parts if isinstance(p, ToolCallPart)]
        if calls:
            out["tool_calls"] = [{"id": c.id, "type": "function",
                                  "function": {"name": c.name, "arguments": json.dumps(c.input, ensure_ascii=False)}}
                                 for c in calls]
        messages.append(out)
    return messages


def openai_tools(request: Any) -> list[dict[str, Any]]:
    return [{"type": "function", "function": {"name": t.name, "description": t.description or "",
                                              "parameters": t.parameters}}
            for t in request.tools if getattr(t, "type", None) == "function"]


def request_options(request: Any) -> dict[str, Any]:
    """The generation settings a DSPy request carries, as OpenAI request fields."""
    config = request.config
    options: dict[str, Any] = {}
    for name in ("temperature", "max_tokens", "top_p", "seed", "response_format"):
        value = getattr(config, name, None)
        if value is not None:
            options[name] = value
    if config.stop:
        options["stop"] = list(config.stop)
    choice = config.tool_choice
    if choice is not None:
        options["tool_choice"] = ({"type": "function", "function": {"name": choice.allowed[0]}}
                                  if len(choice.allowed) == 1 else choice.mode)
    return options


def wire_response_format(fmt: dict[str, Any], how: str) -> dict[str, Any]:
    """A response_format as the endpoint takes it. DSPy carries a schema in its own form
    ({"type": "json_schema", "schema": ..., "name": ...}); OpenAI-compatible servers take
    {"type": "json_schema", "json_schema": {"name", "schema"}}, llama-cpp-python's server
    {"type": "json_object", "schema": ...} (`how` = "json_object")."""
    if fmt.get("type") != "json_schema":
        return fmt
    inner = fmt.get("json_schema") or {"name": fmt.get("name") or "answer", "schema": fmt.get("schema") or {}}
    if how == "json_object":
        return {"type": "json_object", "schema": inner.get("schema") or {}}
    return {"type": "json_schema", "json_schema": {"name": inner.get("name") or "answer", "schema": inner.get("schema")}}


def dspy_response(text: str | None, tool_calls: list[dict[str, Any]], finish_reason: str | None, model: str,
                  prompt_tokens: int = 0, completion_tokens: int = 0) -> Any:
    from dspy.lm15 import Message, Response, TextPart, ToolCallPart, Usage

    parts: list[Any] = [TextPart(text)] if text else []
    for call in tool_calls:
        function = call.get("function") or {}
        try:
            arguments = json.loads(function.get("arguments") or "{}")
        except ValueError:
            arguments = None
        parts.append(ToolCallPart(id=call.get("id") or f"call_{len(parts)}", name=function.get("name") or "?",
                                  input=arguments if isinstance(arguments, dict) else {"arguments": function.get("arguments")}))
    return Response(id=None, model=model, message=Message.assistant(parts or [TextPart("")]),
                    finish_reason=FINISH.get(finish_reason or "stop", "stop"),
                    usage=Usage(input_tokens=prompt_tokens, output_tokens=completion_tokens))


class ClientEngine:
    """A DSPy engine that asks an LMClient. A truncated answer raises CallFailed (its reply
    holds the partial text) unless `allow_truncated`: DSPy would otherwise parse the cut
    text as if it were whole."""

    def __init__(self, client: LMClient, sample: int = 0, allow_truncated: bool = False):
        self.client, self.sample, self.allow_truncated = client, sample, allow_truncated

    def complete(self, request: Any) -> Any:
        failed, stopped = _raised_through_dspy()
        options = request_options(request)
        if "response_format" in options:
            options["response_format"] = wire_response_format(options["response_format"],
                                                              self.client.settings.structured_output)
        try:
            reply = self.client.complete(openai_messages(request), openai_tools(request) or None, trial=self.sample,
                                         **options)
        except EndpointDown as exc:
            raise stopped(str(exc)) from None
        if not reply.ok or (reply.truncated and not self.allow_truncated):
            raise failed(reply, self.client.settings.model)
        return dspy_response(reply.text, reply.tool_calls, reply.finish_reason, self.client.settings.model,
                             reply.prompt_tokens, reply.completion_tokens)

    def stream(self, request: Any) -> Any:
        from dspy.lm15 import response_to_events

        return response_to_events(self.complete(request))

    def close(self) -> None:
        pass


def dspy_lm(client: LMClient, sample: int = 0, allow_truncated: bool = False) -> Any:
    """A dspy.LM over the client (its temperature and max_tokens); use it with
    `dspy.context(lm=...)` for one run or stage, never as a global."""
    import dspy

    settings = client.settings
    engine = ClientEngine(client, sample, allow_truncated)
    return dspy.LM(f"factory/{settings.model}", engine=engine, cache=False, num_retries=0,
                   temperature=settings.temperature, max_tokens=settings.max_tokens)


def fake_dspy_lm(engine: Any) -> Any:
    """A dspy.LM straight over a FakeLM (no client), for unit tests of DSPy modules."""
    import dspy

    return dspy.LM("offline/fake", engine=engine, cache=False, num_retries=0)
