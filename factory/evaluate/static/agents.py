"""Reference agents for static mode: they answer with raw text, as a model would.

- `oracle` writes the gold call list (shown names, api ids, placeholders): 100 everywhere.
- `noisy:P` starts from the oracle's list and injects each error type independently with
  probability P: wrong tool, order swap, wrong literal, wrong nested reference, omitted
  call, hallucinated tool, malformed output. Seeded per instance and trial.
- `random` calls random offered tools with random typed arguments.
- `request-order` writes the gold calls in the order a literal-minded agent takes from the
  request's text (`factory.evaluate.static.reading`): the gold order is that order, so it
  scores 100 where the gold calls follow the request.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from factory.errors import ConfigError
from factory.evaluate.static.answers import Answer, Job, Responder
from factory.evaluate.static.noise import ERRORS, inject
from factory.evaluate.static.reading import Phrasings, read_order
from factory.evaluate.static.tasks import StaticTask
from factory.records import content_hash
from factory.world.mock import mock_value


class StaticAgent(Protocol):
    name: str

    def respond(self, task: StaticTask, trial: int) -> str: ...


def _rng(seed: int, task: StaticTask, trial: int, salt: str) -> random.Random:
    return random.Random(content_hash([seed, task.instance.id, task.test_id, trial, salt], 32))


def oracle_calls(task: StaticTask) -> list[dict[str, Any]]:
    """The gold calls as a model should write them: shown names, outputs named by the tool's returns."""
    shown = {real: name for name, real in task.names.items()}
    calls = []
    for gold in task.gold:
        spec = task.instance.tool(gold["api_name"])
        outputs = [o.name for o in spec.returns] if spec else []
        names = outputs if len(outputs) == len(gold["responses"]) else [f"output_{i}" for i in range(len(gold["responses"]))]
        calls.append({"api_name": shown.get(gold["api_name"], gold["api_name"]), "api_id": gold["api_id"],
                      "parameters": json.loads(json.dumps(gold["parameters"])), "responses": dict(zip(names, gold["responses"]))})
    return calls


@dataclass
class OracleAgent:
    name: str = "oracle"

    def respond(self, task: StaticTask, trial: int) -> str:
        return json.dumps(oracle_calls(task), ensure_ascii=False)


@dataclass
class NoisyAgent:
    rate: float
    seed: int = 0

    @property
    def name(self) -> str:
        return f"noisy:{self.rate:g}"

    def respond(self, task: StaticTask, trial: int) -> str:
        rng = _rng(self.seed, task, trial, self.name)
        chosen = [error for error in ERRORS if rng.random() < self.rate]
        return inject(oracle_calls(task), chosen, task, rng)


def in_order(calls: list[dict[str, Any]], order: Sequence[int]) -> list[dict[str, Any]]:
    """The calls in another order, their output placeholders numbered again in that order."""
    names: dict[str, str] = {}
    for index in order:
        for out in calls[index]["responses"].values():
            names.setdefault(out, f"API_call_{len(names)}")

    def rename(value: Any) -> Any:
        if isinstance(value, list):
            return [rename(v) for v in value]
        return names.get(value, value) if isinstance(value, str) else value

    return [{**calls[i], "parameters": {k: rename(v) for k, v in calls[i]["parameters"].items()},
             "responses": {k: rename(v) for k, v in calls[i]["responses"].items()}} for i in order]


@dataclass
class RequestOrderAgent:
    phrasings: Phrasings
    name: str = "request-order"

    def respond(self, task: StaticTask, trial: int) -> str:
        order = read_order(task.instance, task.query, self.phrasings)
        return json.dumps(in_order(oracle_calls(task), order), ensure_ascii=False)


@dataclass
class RandomAgent:
    seed: int = 0
    name: str = "random"

    def respond(self, task: StaticTask, trial: int) -> str:
        rng = _rng(self.seed, task, trial, "random")
        calls, produced = [], 0
        for _ in range(rng.randint(1, max(1, len(task.gold) + 1))):
            tool = rng.choice(task.tools)
            spec = task.spec(tool["api_name"])
            arguments = {}
            for param in spec.parameters if spec else []:
                if param.required or rng.random() < 0.3:
                    nested = produced and rng.random() < 0.3
                    arguments[param.name] = f"API_call_{rng.randrange(produced)}" if nested else mock_value(param.name, param.type, rng)
            outputs = {o.name: f"API_call_{produced + i}" for i, o in enumerate(spec.returns if spec else [])}
            produced += len(outputs)
            calls.append({"api_name": tool["api_name"], "api_id": tool["api_id"], "parameters": arguments, "responses": outputs})
        return json.dumps(calls, ensure_ascii=False)


def static_agent(spec: str, seed: int = 0, seeds: dict[str, Any] | None = None) -> StaticAgent:
    """`oracle`, `request-order`, `random` or `noisy:P` (0 <= P <= 1); `seeds` give the
    request-order agent the tools' phrasings."""
    if spec == "oracle":
        return OracleAgent()
    if spec == "request-order":
        return RequestOrderAgent(Phrasings.of(seeds))
    if spec == "random":
        return RandomAgent(seed=seed)
    kind, _, rate = spec.partition(":")
    try:
        value = float(rate)
    except ValueError:
        value = -1.0
    if kind != "noisy" or not 0.0 <= value <= 1.0:
        raise ConfigError(f"unknown agent {spec!r}: use oracle, request-order, random or noisy:P with 0 <= P <= 1")
    return NoisyAgent(value, seed=seed)


def agent_responder(agent: StaticAgent) -> Responder:
    """A static-mode responder answering every job with the agent."""
    def respond(jobs: Sequence[Job]) -> list[Answer]:
        return [Answer(agent.respond(task, trial)) for task, trial in jobs]

    return respond
