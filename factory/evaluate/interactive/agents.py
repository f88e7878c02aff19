"""Reference agents for interactive mode: `oracle`, `noisy:P`, `guesser`, `random`.

The oracle replays the gold chain through the loop (the calls a milestone needs), one call
per turn, filling nested arguments from the tool results it receives, then states the answer. `noisy:P` replays it
too, with each error type of NOISE_KINDS injected independently with probability P (as in
static mode), each into one gold call it applies to; it does not recover, so later calls
that need a lost value use an invented one. `random` calls random available tools with
made-up arguments. In a conversation the oracle asks the person exactly for the values held
back from the first message and answers each user turn after its calls; `noisy:P` also skips
a needed question (and guesses the value) and asks a needless one, each with probability P;
`guesser` is the oracle that never asks. All are seeded by (seed, instance id, trial), so runs
are reproducible.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

import networkx as nx

from factory.evaluate.interactive.episode import Message, expected_answer, needs_refusal
from factory.records import Call, Instance, Ref, ToolSpec

NOISE_KINDS = (
    "wrong_tool",
    "order_swap",
    "wrong_literal",
    "wrong_nested_reference",
    "omitted_call",
    "hallucinated_tool",
    "malformed_output",
)
INVENTED = "unknown"


@dataclass
class Action:
    call: int  # index into the gold chain (kind "call")
    noise: str | None = None
    kind: str = "call"  # "call", "ask" (a question to the person) or "reply" (the answer to a user turn)
    known: int | None = None  # kind "ask": the value asked about (position in the conversation's `knows`)
    turn: int | None = None  # kind "reply": the user turn it answers


def feasible_calls(instance: Instance) -> list[int]:
    """Gold calls the agent can make: not a withheld tool, not fed by one (transitively)."""
    available = {t.name for t in instance.tools}
    producers = instance.chain.producers()
    lost: set[int] = set()
    for i, call in enumerate(instance.chain.calls):
        fed = {producers[a.ref] for a in call.arguments.values() if isinstance(a, Ref) and a.ref in producers}
        if call.tool not in available or fed & lost:
            lost.add(i)
    return [i for i in range(len(instance.chain.calls)) if i not in lost]


def _applies(kind: str, call: Call, has_next: bool, other_tools: bool) -> bool:
    if kind == "wrong_tool":
        return other_tools
    if kind == "order_swap":
        return has_next
    if kind == "wrong_literal":
        return any(not isinstance(a, Ref) for a in call.arguments.values())
    if kind == "wrong_nested_reference":
        return any(isinstance(a, Ref) for a in call.arguments.values())
    return True


def noisy_plan(instance: Instance, rate: float, rng: random.Random) -> list[Action]:
    """The feasible gold calls in order, each error type injected with probability `rate`
    into one call it applies to (an order swap exchanges a call with the next one)."""
    order = feasible_calls(instance)
    calls = instance.chain.calls
    other_tools = len({t.name for t in instance.tools}) > 1
    noise: dict[int, str] = {}  # position in `order` → injected error
    drawn = [kind for kind in NOISE_KINDS if rng.random() < rate]
    rng.shuffle(drawn)  # a call takes one error: no type gets first pick
    for kind in drawn:
        spots = [
            k for k in range(len(order))
            if k not in noise and _applies(kind, calls[order[k]], k + 1 < len(order), other_tools)
            and (kind != "order_swap" or k + 1 not in noise)
        ]
        if spots:
            k = rng.choice(spots)
            noise[k] = kind
            if kind == "order_swap":
                noise[k + 1] = kind
    plan: list[Action] = []
    k = 0
    while k < len(order):
        kind = noise.get(k)
        if kind == "order_swap":
            plan += [Action(order[k + 1], kind), Action(order[k], kind)]
            k += 2
            continue
        if kind != "omitted_call":
            plan.append(Action(order[k], kind))
        k += 1
    return plan


def segments(instance: Instance, order: list[int]) -> list[set[int]]:
    """The gold calls each user turn needs, in turn order: the calls it asks for and what they
    wait for, less what an earlier turn made (a single-turn item: one segment of them all)."""
    conversation = instance.conversation
    if conversation is None or len(conversation.turns) < 2:
        return [set(order)]
    chain = instance.chain
    graph = chain.graph()
    graph.add_edges_from((a, i) for i, c in enumerate(chain.calls) for a in c.after)
    done: set[int] = set()
    parts = []
    for turn in conversation.turns:
        asked = {i for i, c in enumerate(chain.calls) if set(c.outputs) & set(turn.answers)}
        need = asked | {a for i in asked for a in nx.ancestors(graph, i)}
        parts.append((need & set(order)) - done)
        done |= need
    parts[-1] |= set(order) - done
    return parts


def converse(instance: Instance, plan: list[Action], rng: random.Random, skip: float = 0.0,
             needless: float = 0.0) -> list[Action]:
    """A plan with the conversation's questions and replies: a question for each held value
    before the first call that takes it (left out with probability `skip`: the value is then
    guessed), a needless question first with probability `needless` (about a value the person
    stated, else one they cannot know), and a reply after the calls of each user turn but the
    last (whose answer ends the plan)."""
    conversation = instance.conversation
    if conversation is None:
        return plan
    out = list(plan)
    for k, known in enumerate(conversation.knows):
        if not known.held or rng.random() < skip:
            continue
        first = next((p for p, a in enumerate(out) if a.kind == "call" and _takes(instance, a.call, known)), None)
        if first is not None:
            out.insert(first, Action(-1, kind="ask", known=k))
    if rng.random() < needless:
        stated = [k for k, v in enumerate(conversation.knows) if not v.held]
        out.insert(0, Action(-1, kind="ask", known=rng.choice(stated)) if stated else Action(-1, kind="ask"))
    parts = segments(instance, [a.call for a in plan])
    for turn in range(len(parts) - 1):
        upto = set().union(*parts[: turn + 1])
        last = max((p for p, a in enumerate(out) if a.kind == "call" and a.call in upto), default=-1)
        out.insert(last + 1, Action(-1, kind="reply", turn=turn))
    return out


def _takes(instance: Instance, call: int, known: Any) -> bool:
    gold = instance.chain.calls[call]
    arg = gold.arguments.get(known.argument)
    return gold.tool == known.tool and arg is not None and not isinstance(arg, Ref) and arg.value == known.value


def needed_calls(instance: Instance) -> list[int]:
    """The feasible gold calls a milestone needs: with a tool withheld, a call whose values only
    the blocked part would take is left out, as the milestones leave it out (a step that serves
    nothing is no step of the oracle's)."""
    order = feasible_calls(instance)
    if not instance.withheld_tools:
        return order
    chain = instance.chain
    graph = chain.graph()
    graph.add_edges_from((a, i) for i, c in enumerate(chain.calls) for a in c.after)
    reported = [i for i in chain.asked() if i in order]
    useful = set(reported) | {a for i in reported for a in nx.ancestors(graph, i)}
    return [i for i in order if i in useful]


def oracle_plan(instance: Instance) -> list[Action]:
    """The needed gold calls in order, each user turn's calls before its reply."""
    order = needed_calls(instance)
    parts = segments(instance, order)
    return [Action(i) for part in parts for i in order if i in part]


def perturb(value: Any, rng: random.Random, pool: list[Any]) -> Any:
    """A plausible wrong literal: another day, another number, another stated string."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice([-2, -1, 1, 2])
    if isinstance(value, float):
        return round(value * rng.choice([0.5, 1.5, 2.0]), 2)
    if isinstance(value, str):
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            return (date.fromisoformat(value) + timedelta(days=rng.choice([-1, 1]))).isoformat()
        others = [v for v in pool if isinstance(v, str) and v != value]
        return rng.choice(others) if others else value[::-1]
    if isinstance(value, list):
        return value[:-1] if value else [INVENTED]
    return INVENTED


@dataclass
class ReplayPolicy:
    """Replays planned gold calls, binding each call's outputs from the tool result."""

    instance: Instance
    plan: list[Action]
    rng: random.Random
    bound: dict[str, Any] = field(default_factory=dict)
    pending: dict[str, Call] = field(default_factory=dict)  # tool-call id → the gold call it binds
    step: int = 0
    told: set[int] = field(default_factory=set)  # held values the person gave (positions in `knows`)
    asking: int | None = None  # the held value last asked for
    guesses: dict[int, Any] = field(default_factory=dict)  # held values invented, not asked for

    def act(self, messages: list[Message], tools: list[dict[str, Any]]) -> Message:
        self._observe(messages)
        self._heard(messages)
        if self.step >= len(self.plan):
            return {"role": "assistant", "content": self._answer()}
        action = self.plan[self.step]
        self.step += 1
        if action.kind == "ask":
            return {"role": "assistant", "content": self._question(action)}
        if action.kind == "reply":
            return {"role": "assistant", "content": self._reply(action.turn or 0)}
        call_id = f"call_{self.step}"
        name, arguments = self._call(action, call_id)
        return {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}],
        }

    def _observe(self, messages: list[Message]) -> None:
        for message in messages:
            call = self.pending.pop(message.get("tool_call_id", ""), None) if message.get("role") == "tool" else None
            if call is None:
                continue
            try:
                result = json.loads(message.get("content") or "")
            except ValueError:
                continue
            if isinstance(result, dict) and "error" not in result:
                spec = self.instance.tool(call.tool)
                names = [o.name for o in spec.returns] if spec else []
                for var, name in zip(call.outputs, names, strict=False):
                    if name in result:
                        self.bound[var] = result[name]

    def _heard(self, messages: list[Message]) -> None:
        """The value the person gave for the question asked last, if their answer states it."""
        from factory.checks.faithfulness import states

        if self.asking is None or not messages or messages[-1].get("role") != "user":
            return
        known = self.instance.conversation.knows[self.asking]
        if states(str(messages[-1].get("content") or ""), known.value):
            self.told.add(self.asking)
        self.asking = None

    def _question(self, action: Action) -> str:
        conversation = self.instance.conversation
        if action.known is None:
            unknown = conversation.unknown[0].label if conversation.unknown else "result"
            return f"Before I start: do you know the {unknown}?"
        self.asking = action.known
        label = conversation.knows[action.known].label
        return f"Which {label} should I use?" if conversation.knows[action.known].held else f"Could you confirm the {label}?"

    def _reply(self, turn: int) -> str:
        answers = self.instance.conversation.turns[turn].answers
        gold = {var: self.instance.trace.answer[var] for var in answers}
        return self._stated(gold) if gold else "Done: that part is carried out."

    def _held(self, call: Call, name: str, value: Any) -> Any:
        """A literal the person holds: as they gave it, else guessed."""
        conversation = self.instance.conversation
        for k, known in enumerate(conversation.knows if conversation else []):
            if known.held and known.tool == call.tool and known.argument == name and known.value == value:
                if k in self.told:
                    return value
                return self.guesses.setdefault(k, perturb(value, self.rng, self._literals()))
        return value

    def _arguments(self, call: Call) -> dict[str, Any]:
        return {
            name: self.bound.get(arg.ref, INVENTED) if isinstance(arg, Ref) else self._held(call, name, arg.value)
            for name, arg in call.arguments.items()
        }

    def _call(self, action: Action, call_id: str) -> tuple[str, str]:
        call = self.instance.chain.calls[action.call]
        arguments = self._arguments(call)
        name, noise = call.tool, action.noise
        if noise == "wrong_tool":
            name = self.rng.choice(sorted({t.name for t in self.instance.tools} - {call.tool}))
        elif noise == "hallucinated_tool":
            name = self._hallucinated(call.tool)
        elif noise == "wrong_literal":
            literal = self.rng.choice(sorted(n for n, a in call.arguments.items() if not isinstance(a, Ref)))
            arguments[literal] = perturb(arguments[literal], self.rng, self._literals())
        elif noise == "wrong_nested_reference":
            nested = self.rng.choice(sorted(n for n, a in call.arguments.items() if isinstance(a, Ref)))
            others = [v for v in self.bound.values() if v != arguments[nested]]
            arguments[nested] = self.rng.choice(others) if others else INVENTED
        if noise == "malformed_output":
            return name, json.dumps(arguments, ensure_ascii=False)[:-1]
        if noise not in ("wrong_tool", "hallucinated_tool"):
            self.pending[call_id] = call
        return name, json.dumps(arguments, ensure_ascii=False)

    def _hallucinated(self, tool: str) -> str:
        withheld = [t.name for t in self.instance.withheld_tools]
        if withheld:
            return self.rng.choice(sorted(withheld))
        return f"{tool}{self.rng.choice(['_v2', '_details', '_lookup', '_api'])}"

    def _literals(self) -> list[Any]:
        return [a.value for c in self.instance.chain.calls for a in c.arguments.values() if not isinstance(a, Ref)]

    def _answer(self) -> str:
        conversation = self.instance.conversation
        if conversation is not None and len(conversation.turns) > 1:
            return self._reply(len(conversation.turns) - 1)
        gold = expected_answer(self.instance)
        if needs_refusal(self.instance) or len(feasible_calls(self.instance)) < len(self.instance.chain.calls):
            missing = ", ".join(t.name for t in self.instance.withheld_tools) or "a tool it needs"
            refusal = f"I cannot complete the rest of this request: {missing} is not among the available tools."
            return (self._stated(gold) + " " if gold else "") + refusal
        if not gold:
            return "Done: every requested action was carried out."
        return self._stated(gold)

    def _stated(self, gold: dict[str, Any]) -> str:
        labels = _answer_labels(self.instance)
        stated: dict[str, Any] = {}
        for var in gold:
            label = labels.get(var, var)
            key = label if label not in stated else f"{label}_{sum(k.startswith(label) for k in stated) + 1}"
            stated[key] = self.bound.get(var, INVENTED)
        return "Final answer: " + json.dumps(stated, ensure_ascii=False)


def _answer_labels(instance: Instance) -> dict[str, str]:
    """Output variable → the returned value's name, for stating answers readably."""
    labels = {}
    for call in instance.chain.calls:
        spec = instance.tool(call.tool)
        for var, out in zip(call.outputs, spec.returns if spec else [], strict=False):
            labels[var] = out.name
    return labels


def _seeded(seed: int, instance: Instance, trial: int, salt: str) -> random.Random:
    return random.Random(f"{salt}:{seed}:{instance.id}:{trial}")


@dataclass
class OracleAgent:
    """Replays the gold chain; asks the person exactly for the values held back from it."""

    name: str = "oracle"
    seed: int = 0

    def policy(self, instance: Instance, trial: int) -> ReplayPolicy:
        rng = _seeded(self.seed, instance, trial, "oracle")
        return ReplayPolicy(instance, converse(instance, oracle_plan(instance), rng), rng)


@dataclass
class GuesserAgent:
    """The oracle that never asks the person: a value held back from it is guessed."""

    name: str = "guesser"
    seed: int = 0

    def policy(self, instance: Instance, trial: int) -> ReplayPolicy:
        rng = _seeded(self.seed, instance, trial, "guesser")
        return ReplayPolicy(instance, converse(instance, oracle_plan(instance), rng, skip=1.0), rng)


@dataclass
class NoisyAgent:
    """The oracle with errors injected at rate P; in a conversation it also skips a needed
    question (and guesses) and asks a needless one, each with probability P."""

    rate: float
    seed: int = 0

    @property
    def name(self) -> str:
        return f"noisy:{self.rate:g}"

    def policy(self, instance: Instance, trial: int) -> ReplayPolicy:
        rng = _seeded(self.seed, instance, trial, self.name)
        plan = noisy_plan(instance, self.rate, rng)
        if instance.conversation is not None:
            order = [a.call for a in plan]
            parts = segments(instance, order)
            plan = [a for part in parts for a in plan if a.call in part]
            plan = converse(instance, plan, rng, skip=self.rate, needless=self.rate)
        return ReplayPolicy(instance, plan, rng)


def random_value(type_: str, rng: random.Random, words: list[str]) -> Any:
    if type_ == "bool":
        return rng.random() < 0.5
    if type_ == "int":
        return rng.randint(0, 100)
    if type_ == "float":
        return round(rng.uniform(0, 100), 2)
    if type_.startswith("list"):
        return [random_value(type_[5:-1] or "str", rng, words)]
    if type_ == "dict":
        return {}
    return rng.choice(words) if words else "x"


@dataclass
class RandomPolicy:
    instance: Instance
    rng: random.Random
    calls_left: int

    def act(self, messages: list[Message], tools: list[dict[str, Any]]) -> Message:
        if self.calls_left <= 0 or not self.instance.tools:
            last = next((m.get("content") for m in reversed(messages) if m.get("role") == "tool"), None)
            return {"role": "assistant", "content": f"Here is what I found: {last}"}
        self.calls_left -= 1
        spec: ToolSpec = self.rng.choice(self.instance.tools)
        words = re.findall(r"[A-Za-z][\w-]+", self.instance.query)
        arguments = {p.name: random_value(p.type, self.rng, words) for p in spec.parameters if p.required}
        call = {"id": f"call_{self.calls_left}", "type": "function",
                "function": {"name": spec.name, "arguments": json.dumps(arguments)}}
        return {"role": "assistant", "content": None, "tool_calls": [call]}


@dataclass
class RandomAgent:
    name: str = "random"
    seed: int = 0

    def policy(self, instance: Instance, trial: int) -> RandomPolicy:
        rng = _seeded(self.seed, instance, trial, "random")
        return RandomPolicy(instance, rng, max(1, len(instance.chain.calls)))


def reference_agent(spec: str, seed: int = 0) -> OracleAgent | GuesserAgent | NoisyAgent | RandomAgent:
    """`oracle`, `guesser`, `random` or `noisy:P` (0 <= P <= 1) as an interactive agent."""
    from factory.errors import ConfigError

    if spec == "oracle":
        return OracleAgent(seed=seed)
    if spec == "guesser":
        return GuesserAgent(seed=seed)
    if spec == "random":
        return RandomAgent(seed=seed)
    if spec == "request-order":
        raise ConfigError("request-order is a static-mode agent (it writes the whole call list): use --mode static")
    kind, _, rate = spec.partition(":")
    try:
        value = float(rate)
    except ValueError:
        value = -1.0
    if kind != "noisy" or not 0.0 <= value <= 1.0:
        raise ConfigError(f"unknown agent {spec!r}: use oracle, guesser, random or noisy:P with 0 <= P <= 1")
    return NoisyAgent(value, seed=seed)
