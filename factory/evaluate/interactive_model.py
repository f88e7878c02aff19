"""A model as an interactive agent: OpenAI-compatible chat completions with native tool calling.

`api_base` points at any OpenAI-compatible endpoint (vLLM, llama.cpp, Ollama, a LiteLLM
proxy); without it the OpenAI API is used. A provider prefix in the model name
(`openai/gpt-4o-mini`, `hosted_vllm/qwen`) is dropped, as those servers expect the bare
name. The API key comes from the environment (FACTORY_API_KEY, else OPENAI_API_KEY),
never from outputs. Transient failures (timeouts, connection errors, 429, 5xx) are
retried with exponential backoff. A model that writes its tool call as text
(`<tool_call>{...}</tool_call>`, or a JSON object naming an available tool) gets it
executed, labelled `text_tool_call`.

(The openai client rather than litellm: litellm 1.106 imports its MCP handler, and the
`mcp` package it needs, whenever `tools` are passed.)
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from typing import Any

from factory.evaluate.interactive import Message, PolicyError
from factory.records import Instance

PERMANENT_STATUS = {400, 401, 403, 404, 422}  # a retry cannot fix these
# LiteLLM-style routing prefixes of OpenAI-compatible servers; "meta-llama/..." stays whole.
PREFIXES = ("openai", "hosted_vllm", "vllm", "ollama", "ollama_chat", "lm_studio", "llamafile", "litellm_proxy")


def served_name(model: str) -> str:
    prefix, _, rest = model.partition("/")
    return rest if rest and prefix in PREFIXES else model


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
    model: str
    api_base: str | None = None
    api_key: str | None = None  # None: read from the environment when a request is made
    temperature: float = 0.0
    max_tokens: int = 1024
    retries: int = 4
    backoff: float = 1.0  # seconds before the first retry; doubles each time
    timeout: float = 120.0

    @property
    def name(self) -> str:
        return self.model

    def policy(self, instance: Instance, trial: int) -> ModelPolicy:
        return ModelPolicy(self, {t.name for t in instance.tools})

    def client(self) -> Any:
        from openai import OpenAI

        key = self.api_key or os.environ.get("FACTORY_API_KEY") or os.environ.get("OPENAI_API_KEY")
        if not key and not self.api_base:
            raise PolicyError(f"{self.model}: no API key: set FACTORY_API_KEY or OPENAI_API_KEY, or pass --api-base")
        return OpenAI(base_url=self.api_base, api_key=key or "EMPTY", max_retries=0, timeout=self.timeout)

    def complete(self, messages: list[Message], tools: list[dict[str, Any]]) -> Any:
        """The raw completion; PolicyError after the last retry or on a permanent error."""
        import openai

        client = self.client()
        model = served_name(self.model)
        extra = {"tools": tools} if tools else {}
        delay = self.backoff
        for attempt in range(self.retries + 1):
            try:
                return client.chat.completions.create(
                    model=model, messages=messages, temperature=self.temperature, max_tokens=self.max_tokens, **extra
                )
            except openai.APIError as exc:
                status = getattr(exc, "status_code", None)
                if status in PERMANENT_STATUS or attempt == self.retries:
                    raise PolicyError(f"{self.model}: {type(exc).__name__} after {attempt + 1} attempt(s): {exc}") from exc
                time.sleep(delay)
                delay *= 2
        raise AssertionError("unreachable")


@dataclass
class ModelPolicy:
    agent: ModelAgent
    names: set[str]
    calls: int = field(default=0)

    def act(self, messages: list[Message], tools: list[dict[str, Any]]) -> Message:
        response = self.agent.complete(messages, tools)
        try:
            message = response.choices[0].message
            content = message.content if isinstance(message.content, str) else None
            calls = [self._native(tc) for tc in (message.tool_calls or [])]
        except (AttributeError, IndexError, KeyError, TypeError) as exc:
            raise PolicyError(f"{self.agent.model}: unreadable response: {str(response)[:300]}") from exc
        reply: Message = {"role": "assistant", "content": content}
        if not calls and content:
            calls = [self._with_id(c) for c in text_tool_calls(content, self.names)]
            if calls:
                reply["text_tool_calls"] = True
        if calls:
            reply["tool_calls"] = calls
        return reply

    def _with_id(self, call: dict[str, Any]) -> dict[str, Any]:
        self.calls += 1
        return {"id": call.get("id") or f"call_{self.calls}", **{k: v for k, v in call.items() if k != "id"}}

    def _native(self, tool_call: Any) -> dict[str, Any]:
        function = tool_call.function
        arguments = function.arguments
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments, ensure_ascii=False)
        call = {"id": tool_call.id, "type": "function", "function": {"name": function.name or "", "arguments": arguments}}
        return self._with_id(call)
