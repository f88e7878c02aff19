"""A model as an interactive agent: chat completions with native tool calling.

Requests go through the shared model client (factory.lm: endpoint and key resolution,
concurrency, total timeout, retries, the call cache keyed by the conversation so far and the
trial, redaction, accounting). A model that writes its tool call as text
(`<tool_call>{...}</tool_call>`, or a JSON object naming an available tool) gets it
executed, labelled `text_tool_call`. A request that fails for good raises PolicyError: an
endpoint failure leaves the episode unscored (the endpoint failed, not the model); a refused
request ends the episode as the model's failure.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from factory.evaluate.interactive.episode import Message, PolicyError
from factory.lm.client import LMClient
from factory.records import Instance


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
    client: LMClient

    @property
    def name(self) -> str:
        return self.client.settings.model

    def policy(self, instance: Instance, trial: int) -> ModelPolicy:
        self.client.check()  # a missing key fails the run here, before any request
        return ModelPolicy(self, {t.name for t in instance.tools}, trial)

    def complete(self, messages: list[Message], tools: list[dict[str, Any]], trial: int = 0) -> dict[str, Any]:
        """The reply as a dict (content, tool_calls, finish_reason)."""
        reply = self.client.complete(messages, tools, trial=trial)
        if not reply.ok:
            raise PolicyError(f"{self.name}: {reply.error}", endpoint=reply.endpoint_failure)
        return {"content": reply.text, "tool_calls": reply.tool_calls, "finish_reason": reply.finish_reason}


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
        if reply["finish_reason"] == "length":
            message["truncated"] = True
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
