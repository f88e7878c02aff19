"""A model as an interactive agent: OpenAI-compatible chat completions with native tool calling.

The endpoint is configured as in static mode (`factory.evaluate.models`): `api_base` for
any OpenAI-compatible server (vLLM, llama.cpp, Ollama, a LiteLLM proxy), else the OpenAI
API; a LiteLLM-style provider prefix is dropped from the model name; the key comes from
the environment and is never recorded. Transient failures (timeouts, connection errors,
429, 5xx) are retried with exponential backoff; with a cache, each reply is stored under
the conversation so far and the trial, so a rerun replays without asking again. A model
that writes its tool call as text (`<tool_call>{...}</tool_call>`, or a JSON object naming
an available tool) gets it executed, labelled `text_tool_call`.

(The openai client rather than litellm: litellm 1.106 imports its MCP handler, and the
`mcp` package it needs, whenever `tools` are passed.)
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from typing import Any

from factory.evaluate.interactive import Message, PolicyError
from factory.evaluate.models import ChatModel, ModelCallError, ModelSettings, ResponseCache, served_name
from factory.records import Instance, content_hash


def text_tool_calls(content: str, names: set[str]) -> list[dict[str, Any]]:
    """Tool calls a model wrote as text: JSON objects with a known `name` and `arguments`."""
    decoder = json.JSONDecoder()
    calls = []
    for match in re.finditer(r"\{", content):
        try:
            value, _ = decoder.raw_decode(content, match.start())
        except ValueError:
            continue
        if not isinstance(value, dict) or value.get("name") not in names:
            continue
        arguments = value.get("arguments", value.get("parameters", {}))
        raw = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
        calls.append({"type": "function", "function": {"name": value["name"], "arguments": raw}})
    return calls


@dataclass
class ModelAgent:
    settings: ModelSettings
    cache: ResponseCache | None = None  # replies by (conversation so far, trial): a rerun asks nothing twice
    _chat: ChatModel | None = field(default=None, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    @property
    def name(self) -> str:
        return self.settings.model

    def chat(self) -> ChatModel:
        """The endpoint, configured as for static mode (key from the environment)."""
        with self._lock:
            if self._chat is None:
                self._chat = ChatModel(self.settings)
            return self._chat

    def policy(self, instance: Instance, trial: int) -> ModelPolicy:
        self.chat().client()  # a missing key fails the run here, before any request
        return ModelPolicy(self, {t.name for t in instance.tools}, trial)

    def complete(self, messages: list[Message], tools: list[dict[str, Any]], trial: int = 0) -> dict[str, Any]:
        """The reply as a dict (content, tool_calls, finish_reason), from the cache or the endpoint."""
        s = self.settings
        key = content_hash([served_name(s.model), s.api_base or "", messages, tools, s.temperature, s.max_tokens, trial], 32)
        hit = self.cache.get(key) if self.cache else None
        if hit is not None:
            return json.loads(hit[0])
        try:
            reply = _reply(self.chat().create(messages, tools), s.model)
        except ModelCallError as exc:
            raise PolicyError(f"{s.model}: {exc}") from exc
        if self.cache is not None:
            self.cache.put(key, json.dumps(reply, ensure_ascii=False), reply.get("finish_reason"))
        return reply


def _reply(response: Any, model: str) -> dict[str, Any]:
    """The first choice as plain data; arguments always a string, as the API expects them back."""
    try:
        choice = response.choices[0]
        message = choice.message
        calls = []
        for tc in message.tool_calls or []:
            arguments = tc.function.arguments
            if not isinstance(arguments, str):
                arguments = json.dumps(arguments, ensure_ascii=False)
            calls.append({"id": tc.id, "type": "function", "function": {"name": tc.function.name or "", "arguments": arguments}})
        content = message.content if isinstance(message.content, str) else None
        return {"content": content, "tool_calls": calls, "finish_reason": choice.finish_reason}
    except (AttributeError, IndexError, KeyError, TypeError) as exc:
        raise PolicyError(f"{model}: unreadable response: {str(response)[:300]}") from exc


@dataclass
class ModelPolicy:
    agent: ModelAgent
    names: set[str]
    trial: int = 0
    calls: int = 0

    def act(self, messages: list[Message], tools: list[dict[str, Any]]) -> Message:
        reply = self.agent.complete(messages, tools, self.trial)
        content = reply["content"]
        calls = [self._with_id(c) for c in reply["tool_calls"]]
        message: Message = {"role": "assistant", "content": content}
        if not calls and content:
            calls = [self._with_id(c) for c in text_tool_calls(content, self.names)]
            if calls:
                message["text_tool_calls"] = True
        if calls:
            message["tool_calls"] = calls
        return message

    def _with_id(self, call: dict[str, Any]) -> dict[str, Any]:
        self.calls += 1
        return {**call, "id": call.get("id") or f"call_{self.calls}"}
