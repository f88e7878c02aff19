"""The records every stage reads and writes: pydantic models with JSON round-trip and content ids.

A reference to an earlier call's output is a typed value (`Ref`), never a magic string;
NesTools' `API_call_N` form exists only at the import/export edges.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

if TYPE_CHECKING:
    import networkx as nx

# The type vocabulary of tool parameters and return values (NesTools uses the bare forms).
SCALAR_TYPES = ("str", "int", "float", "bool")
TYPES = SCALAR_TYPES + ("list", "list[str]", "list[int]", "list[float]", "list[dict]", "dict")


def stable_json(obj: Any) -> str:
    """Canonical JSON: sorted keys, no spaces, so equal content gives equal bytes."""
    return _STABLE.encode(obj)


# What json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
# uses, made once (stable_json writes every sample, hash and id).
_STABLE = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def content_hash(obj: Any, length: int = 16) -> str:
    return hashlib.sha256(stable_json(obj).encode()).hexdigest()[:length]


def type_accepts(declared: str, produced: str) -> bool:
    """Whether a value of type `produced` may fill a slot declared as `declared`."""
    if declared == produced:
        return True
    if declared == "float" and produced == "int":
        return True
    if declared == "list" and produced.startswith("list"):
        return True
    return declared.startswith("list") and produced == "list"


def value_matches_type(value: Any, declared: str) -> bool:
    """Whether a concrete JSON value has the declared type (bool is not an int here)."""
    if declared == "str":
        return isinstance(value, str)
    if declared == "bool":
        return isinstance(value, bool)
    if declared == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if declared == "float":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if declared == "dict":
        return isinstance(value, dict)
    if declared.startswith("list"):
        if not isinstance(value, list):
            return False
        item = declared[5:-1] if declared != "list" else ""
        return not item or all(value_matches_type(v, item) for v in value)
    return False


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _normal_text(value: str) -> str:
    return " ".join(value.casefold().split())


def values_equal(expected: Any, actual: Any, *, loose_strings: bool) -> bool:
    """Structural equality; numbers compare by value (2 == 2.0), strings exactly or, when
    `loose_strings`, ignoring case and runs of whitespace."""
    e, a = _number(expected), _number(actual)
    if e is not None or a is not None:
        return e is not None and a is not None and math.isclose(e, a, rel_tol=1e-9, abs_tol=1e-9)
    if isinstance(expected, str) and isinstance(actual, str):
        return _normal_text(expected) == _normal_text(actual) if loose_strings else expected == actual
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(
            values_equal(x, y, loose_strings=loose_strings) for x, y in zip(expected, actual, strict=True)
        )
    if isinstance(expected, dict) and isinstance(actual, dict):
        return expected.keys() == actual.keys() and all(
            values_equal(expected[k], actual[k], loose_strings=loose_strings) for k in expected
        )
    return type(expected) is type(actual) and expected == actual


def entry_holds(needs: list[Any], value: Any) -> bool:
    """Whether one text entry of a listed value states every needed value ("2025-12-25 Christmas
    Day" among a year's holidays, for the next holiday and its day): whoever has the list has
    them. Only text needs of four characters or more are read this way, as whole words, and a
    lone need only if it holds a digit (a day, an id): a city's name in some entry is not it,
    and an entry that is the need itself is one of a list of ids, not a statement of it."""
    if not needs or not isinstance(value, list) or not all(isinstance(n, str) and len(n.strip()) >= 4 for n in needs):
        return False
    if len(needs) == 1 and not any(c.isdigit() for c in needs[0]):
        return False
    bare = {_normal_text(n) for n in needs}  # a list of ids that holds the one needed: which one is the question
    entries = [_normal_text(e) for e in value if isinstance(e, str)]
    return any(e not in bare and all(_says(e, n) for n in needs) for e in entries)


def list_states(need: Any, value: Any) -> bool:
    """Whether a list of text entries states every entry of a needed list inside a longer one of
    its own ("2026-01-01 New Year's Day (United Kingdom)" for "2026-01-01 New Year's Day"): a
    search that lists the same things in its own format, maybe among others. A list of bare ids
    is compared as it is, elsewhere: more ids than needed do not say which."""
    if not isinstance(need, list) or not need or not isinstance(value, list):
        return False
    if not all(isinstance(n, str) and len(n.strip()) >= 4 for n in need):
        return False
    entries = [_normal_text(e) for e in value if isinstance(e, str)]
    return all(any(e != _normal_text(n) and _says(e, n) for e in entries) for n in need)


def _says(entry: str, need: str) -> bool:
    """Whether a normalised text entry holds a need as whole words (a day also as that of a date
    and time: "local time 2025-06-13t09:30" says 2025-06-13, reading 70 #17)."""
    return re.search(rf"(?<!\w){re.escape(_normal_text(need))}(?:(?!\w)|(?<=\d{{4}}-\d\d-\d\d)(?=t\d\d:))", entry) is not None


def gives(need: Any, value: Any) -> bool:
    """Whether an output gives a value the chain needs: the value itself, a list that states its
    entries in a format of its own (`list_states`), or a search's list that holds it alone
    (searching the calendar for "coffee kenji" finds ["EVT-1056"], the event resolving the
    mention would have given)."""
    if values_equal(need, value, loose_strings=True) or list_states(need, value):
        return True
    return (isinstance(value, list) and len(value) == 1 and not isinstance(need, list)
            and values_equal(need, value[0], loose_strings=True))


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid")

    def to_json(self) -> str:
        return stable_json(self.model_dump(mode="json"))


# --- tools ---------------------------------------------------------------------------


class Param(Record):
    name: str
    type: str
    description: str = ""
    required: bool = True
    kind: str | None = None  # meaning of the value ("city", "date"): drives producer → consumer edges
    role: str | None = None  # which of several things of one kind it is ("patient" vs "estate_agent")
    enum: list[Any] | None = None
    default: Any = None


class Output(Record):
    name: str
    type: str
    description: str = ""
    kind: str | None = None
    role: str | None = None


class ToolSpec(Record):
    name: str
    description: str
    parameters: list[Param] = Field(default_factory=list)
    returns: list[Output] = Field(default_factory=list)
    toolbox: str | None = None  # seed toolbox implementing it; None: answered by the simulator's mock

    def param(self, name: str) -> Param | None:
        return next((p for p in self.parameters if p.name == name), None)

    def to_openai(self) -> dict[str, Any]:
        """The tool as an OpenAI function-calling definition (JSON Schema parameters)."""
        props = {}
        for p in self.parameters:
            schema = json_schema_for(p.type)
            if p.description:
                schema["description"] = p.description
            if p.enum:
                schema["enum"] = p.enum
            props[p.name] = schema
        required = [p.name for p in self.parameters if p.required]
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": {"type": "object", "properties": props, "required": required},
            },
        }


def json_schema_for(type_: str) -> dict[str, Any]:
    base = {"str": "string", "int": "integer", "float": "number", "bool": "boolean", "dict": "object"}
    if type_ in base:
        return {"type": base[type_]}
    if type_.startswith("list"):
        item = type_[5:-1] if type_ != "list" else ""
        return {"type": "array", "items": json_schema_for(item)} if item else {"type": "array"}
    return {}


# --- chains --------------------------------------------------------------------------


class Value(Record):
    """A literal argument value, stated in the query."""

    value: Any


class Ref(Record):
    """An argument taken from an earlier call's output variable (a nested call)."""

    ref: str


Argument = Value | Ref


class Call(Record):
    tool: str
    arguments: dict[str, Argument] = Field(default_factory=dict)
    outputs: list[str] = Field(default_factory=list)  # variables bound to the tool's returns, in order
    after: list[int] = Field(default_factory=list)  # earlier calls it needs for a state reason, not data
    fixes: str | None = None  # the world-state condition this call restores (not asked for in the query)
    asked: bool = False  # the request asks for this call: its outputs belong in the final answer

    @model_serializer(mode="wrap")
    def _without_unasked(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """`asked` is written only when set, so a record made before calls were marked (or
        imported) keeps its bytes and its content id."""
        data = handler(self)
        if not self.asked:
            data.pop("asked", None)
        return data


class Chain(Record):
    calls: list[Call]

    def renumbered(self) -> Chain:
        """The chain with its output variables renamed data0, data1, ... in call order."""
        names: dict[str, str] = {}
        for call in self.calls:
            for var in call.outputs:
                names[var] = f"data{len(names)}"
        calls = []
        for call in self.calls:
            arguments = {k: Ref(ref=names[a.ref]) if isinstance(a, Ref) else a for k, a in call.arguments.items()}
            calls.append(call.model_copy(update={"arguments": arguments, "outputs": [names[v] for v in call.outputs]}))
        return Chain(calls=calls)

    def reordered(self, order: Sequence[int]) -> Chain:
        """The chain with its calls in `order` (old indices), `after` following the calls, and the
        output variables renamed data0, data1, ... in the new call order."""
        position = {old: new for new, old in enumerate(order)}
        calls = [self.calls[old].model_copy(update={"after": sorted(position[a] for a in self.calls[old].after)})
                 for old in order]
        return Chain(calls=calls).renumbered()

    def producers(self) -> dict[str, int]:
        """Output variable → index of the call that binds it (first binding wins)."""
        found: dict[str, int] = {}
        for i, call in enumerate(self.calls):
            for var in call.outputs:
                found.setdefault(var, i)
        return found

    def graph(self) -> nx.DiGraph:
        """Dependency DAG over call indices; edge (i, j) when call j consumes an output of call i."""
        import networkx as nx  # here, not at the top: scoring predictions never builds a graph (60 ms)

        g = nx.DiGraph()
        g.add_nodes_from(range(len(self.calls)))
        producers = self.producers()
        for j, call in enumerate(self.calls):
            for name, arg in call.arguments.items():
                if isinstance(arg, Ref) and arg.ref in producers:
                    i = producers[arg.ref]
                    g.add_edge(i, j)
                    g.edges[i, j].setdefault("params", []).append(name)
        return g

    def depth(self) -> int:
        """Longest dependency path counted in calls (1 = no nesting), as NesTools counts it."""
        import networkx as nx

        g = self.graph()
        if not self.calls:
            return 0
        if not nx.is_directed_acyclic_graph(g):
            return len(self.calls)
        return nx.dag_longest_path_length(g) + 1

    def shape(self) -> str:
        return shape_of(len(self.calls), self.graph().edges)

    def sinks(self) -> list[int]:
        """Task calls whose outputs no later call consumes."""
        g = self.graph()
        return [i for i in g.nodes if g.out_degree(i) == 0 and self.calls[i].fixes is None]

    def asked(self) -> list[int]:
        """Calls the request asks for, whose outputs form the final answer: those marked `asked`
        (the sinks and every action, `factory.queries.wording.asked_calls`). A chain that marks
        none (imported from NesTools, or recorded before calls were marked) asks for its sinks."""
        marked = [i for i, call in enumerate(self.calls) if call.asked]
        return marked or self.sinks()


def shape_of(n_calls: int, edges: Any) -> str:
    """Nesting shape: call count and the dependency edges over 1-based call positions.

    "3:1>2,1>3,2>3" is the diamond-like NesTools shape {1,(1,2),(1,3),(2,3)}; "2:" is two
    independent calls.
    """
    pairs = sorted((i + 1, j + 1) for i, j in edges)
    return f"{n_calls}:" + ",".join(f"{i}>{j}" for i, j in pairs)


def parse_shape(shape: str) -> tuple[int, list[tuple[int, int]]]:
    """Inverse of `shape_of`, with 0-based call indices."""
    count, _, body = shape.partition(":")
    edges = []
    for part in filter(None, body.split(",")):
        a, _, b = part.partition(">")
        edges.append((int(a) - 1, int(b) - 1))
    return int(count), edges


# --- execution -----------------------------------------------------------------------


BACKENDS = ("seed", "sandbox", "recorded", "model", "mock")  # who answered a call, in the order they are tried


class TraceStep(Record):
    call: int
    tool: str
    arguments: dict[str, Any]  # concrete values, references resolved
    outputs: dict[str, Any] = Field(default_factory=dict)  # output variable → value
    error: str | None = None
    state: dict[str, Any] = Field(default_factory=dict)  # world-state snapshot after the call
    backend: str = "seed"  # one of BACKENDS


class Trace(Record):
    steps: list[TraceStep]
    answer: dict[str, Any] = Field(default_factory=dict)  # output variables the query asks for → value

    @property
    def ok(self) -> bool:
        return all(s.error is None for s in self.steps)

    def step(self, call: int) -> TraceStep | None:
        """The step that made call `call` of the chain; None when the run never reached it."""
        return next((s for s in self.steps if s.call == call), None)

    def values(self) -> dict[str, Any]:
        """Every output variable bound during the run → its value."""
        out: dict[str, Any] = {}
        for step in self.steps:
            out.update(step.outputs)
        return out


class RecordedCall(Record):
    """A simulated tool's answer to one call, kept so the same call always gets it again."""

    tool: str
    arguments: dict[str, Any]
    outputs: list[Any]  # one per declared return value
    source: str = "model"  # who first gave the answer: "writer" (the chain's author), "model" (the simulator), "mock"


class WorldSetup(Record):
    """How to rebuild the world an instance runs in: toolboxes, world seed, initial state, and
    the recorded answers of tools that have no implementation."""

    toolboxes: list[str]
    seed: int
    state: dict[str, dict[str, Any]] = Field(default_factory=dict)  # toolbox → state overrides
    recorded: list[RecordedCall] = Field(default_factory=list)


# --- milestones ----------------------------------------------------------------------


class Expected(Record):
    """The value a call argument must have; `source` names the output it must come from."""

    value: Any
    source: str | None = None


class Milestone(Record):
    """One thing a successful episode does, in order: a call (met by the gold tool with the
    expected arguments, or by any call whose outputs include the values the chain needs from
    it), a restored state condition (met by whatever call restores it, with any arguments),
    or the final answer."""

    index: int
    kind: Literal["call", "state", "answer"]
    description: str
    tool: str | None = None
    arguments: dict[str, Expected] = Field(default_factory=dict)
    needs: list[Any] = Field(default_factory=list)  # kind == "call": values later calls or the answer use
    condition: str | None = None  # kind == "state": "toolbox:condition" that must come to hold
    answer: dict[str, Any] = Field(default_factory=dict)  # kind == "answer": values to report
    refuse: bool = False  # kind == "answer": the reply must also say what cannot be done
    after: list[int] = Field(default_factory=list)  # milestones that must be reached first
    turn: int | None = None  # kind == "answer" of a conversation: the user turn whose reply states it

    @model_serializer(mode="wrap")
    def _without_turn(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """`turn` is written only in conversations, so single-turn records keep their bytes."""
        data = handler(self)
        if self.turn is None:
            data.pop("turn", None)
        return data


class Minefield(Record):
    """A call that must not happen; reaching it zeroes the milestone score."""

    tool: str
    arguments: dict[str, Expected] | None = None  # None: any call of the tool
    reason: str
    # Hit when an argument listed differs from its expected value instead: a value only the
    # person knows, which an agent that did not ask for it can only invent.
    invented: bool = False
    # For a value only a withheld tool could give: the values the request itself gives. The mine
    # is hit when a listed argument is anything else, the value the tool would have given
    # included (searching the store for the product the request names is no invention).
    given: list[Any] | None = None

    @model_serializer(mode="wrap")
    def _without_invented(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = handler(self)
        if not self.invented:
            data.pop("invented", None)
        if self.given is None:
            data.pop("given", None)
        return data


# --- conversations -------------------------------------------------------------------


class KnownValue(Record):
    """A value the person knows and may say, because a tool needs it: their passport number,
    the day they want, which card."""

    label: str  # what it is, in words a question about it would use ("travel date")
    value: Any
    tool: str
    argument: str
    held: bool = False  # left out of the first message: the agent must ask for it


class UnknownValue(Record):
    """A value only the tools give: the person does not know it and must not say it."""

    label: str
    value: Any


class UserTurn(Record):
    """One part of the goal, in the person's words: the first message, then each follow-up."""

    text: str
    answers: list[str] = Field(default_factory=list)  # output variables the reply to it must state


class Conversation(Record):
    """How a person pursues the instance's goal over several messages, and what they know
    (ToolSandbox's knowledge boundary): what they may say, what they cannot."""

    kind: Literal["ask_user", "multi_turn"]
    turns: list[UserTurn]
    knows: list[KnownValue] = Field(default_factory=list)
    unknown: list[UnknownValue] = Field(default_factory=list)

    @property
    def held(self) -> list[KnownValue]:
        return [k for k in self.knows if k.held]


# --- checks, instances, runs ---------------------------------------------------------


class CheckResult(Record):
    name: str
    passed: bool
    blocking: bool = True
    reason: str = ""


class Provenance(Record):
    generator: str  # "offline" or a model name
    seed: int
    attempt: int
    factory_version: str
    policy: str = "default"
    prompts: dict[str, str] = Field(default_factory=dict)  # prompt file → content hash
    # what was mended on the way ("query writer: stated 0.65 by insertion"); left out when nothing was
    repairs: list[str] = Field(default_factory=list, exclude_if=lambda repairs: not repairs)


class Instance(Record):
    id: str = ""
    domain: str
    subdomain: str = ""
    goal: str = ""  # "seed-slug:goal name": what the person wants (Toolbox.goal); "" when the seed declares none
    query: str
    query_variants: dict[str, str] = Field(default_factory=dict)
    tools: list[ToolSpec]  # what the model sees: gold tools (minus any withheld) and distractors
    gold_tools: list[str]
    withheld_tools: list[ToolSpec] = Field(default_factory=list)  # gold tools deliberately not offered
    stated_conditions: list[str] = Field(default_factory=list)  # conditions the query states ("toolbox:condition")
    chain: Chain
    trace: Trace
    milestones: list[Milestone] = Field(default_factory=list)
    minefields: list[Minefield] = Field(default_factory=list)
    categories: list[str] = Field(default_factory=list)
    depth: int
    shape: str
    world: WorldSetup | None = None  # None: tools are answered by the simulator's mock
    provenance: Provenance
    checks: list[CheckResult] = Field(default_factory=list)
    conversation: Conversation | None = None  # a conversational item: first message, follow-ups, knowledge

    @model_serializer(mode="wrap")
    def _without_conversation(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """`conversation` is written only for conversational items: single-turn ones keep their
        bytes and content ids."""
        data = handler(self)
        if self.conversation is None:
            data.pop("conversation", None)
        return data

    @property
    def first_message(self) -> str:
        """What the person says first: the whole request, or a conversation's first turn."""
        return self.conversation.turns[0].text if self.conversation else self.query

    def content_id(self) -> str:
        """Id from what the instance asks and expects, not from how or when it was made."""
        body = self.model_dump(mode="json", exclude={"id", "provenance", "checks"})
        return content_hash(body)

    def with_id(self) -> Instance:
        return self.model_copy(update={"id": self.content_id()})

    def tool(self, name: str) -> ToolSpec | None:
        """A tool of the instance by name, offered or withheld."""
        return next((t for t in (*self.tools, *self.withheld_tools) if t.name == name), None)


class Reject(Record):
    attempt: int
    stage: str
    reasons: list[str]
    raw: str | None = None  # a model's answer that could not be used, as evidence
    checks: list[CheckResult] = Field(default_factory=list)
    instance: Instance | None = None  # the candidate, when one was built


class SampleResult(Record):
    """One scored attempt of an agent or model on one instance (one trial)."""

    instance_id: str
    mode: Literal["static", "interactive"]
    agent: str  # "oracle", "noisy:0.3", "random", or a model name
    trial: int = 0
    prompt: Any = None  # what the model saw: prompt text or the opening messages
    output: Any = None  # raw output (static) or the transcript of messages (interactive)
    scores: dict[str, float] = Field(default_factory=dict)
    errors: list[str] = Field(default_factory=list)  # error-taxonomy labels
    depth: int = 0
    shape: str = ""
    categories: list[str] = Field(default_factory=list)
    steps: list[StepLabel] = Field(default_factory=list)  # interactive: each agent step labelled
    user: UserCheck | None = None  # interactive conversation: the simulated user's turns checked

    @model_serializer(mode="wrap")
    def _without_unused(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = handler(self)
        if not self.steps:
            data.pop("steps", None)
        if self.user is None:
            data.pop("user", None)
        return data

    def to_json(self) -> str:
        """As every record writes itself. A sample without steps or user check whose prompt and
        output are text (or no answer) and whose scores are finite floats, as every static
        sample is, holds only what the JSON dump would hand back unchanged: it is written from
        its fields directly (pydantic's dump was a third of writing samples.jsonl)."""
        fields = self.__dict__
        if (self.steps or self.user is not None or type(self.prompt) not in _PLAIN or type(self.output) not in _PLAIN
                or not all(type(v) is float and v - v == 0.0 for v in self.scores.values())):
            return super().to_json()
        return stable_json({k: v for k, v in fields.items() if k != "steps" and k != "user"})


_PLAIN = (str, int, bool, type(None))  # values a JSON dump hands back as they are (a float may be NaN: not here)


class StepLabel(Record):
    """One agent step of an interactive trajectory, labelled from the milestones and the world
    (process supervision, as ToolComp labels steps): a tool call, a question to the person, or
    an answer."""

    message: int  # position of the agent's message in the transcript
    call: int | None = None  # position of the tool call within that message; None: a message to the person
    kind: Literal["call", "question", "answer"]
    label: Literal["advances", "harmless", "wrong_call", "minefield", "asked_needed", "asked_needless", "wrong_answer"]
    reason: str = ""

    @property
    def correct(self) -> bool:
        """ToolComp's binary label: a reasonable step towards the goal."""
        return self.label in ("advances", "asked_needed")


class UserCheck(Record):
    """The simulated user's turns of one conversation, checked against its knowledge boundary
    (ToolSandbox's Table 2 counted these by hand)."""

    turns: int  # user messages after the first
    hallucination: int = 0  # turns stating a value outside the boundary
    instruction: int = 0  # turns speaking as the assistant
    ended_early: bool = False  # ended before the goal was met, the agent not having given up
    never_ended: bool = False  # did not end once the goal was met
    problems: list[str] = Field(default_factory=list)


class GenerateConfig(Record):
    domain: str  # seed domain name, or a free-form domain for the model path
    n: int
    seed: int = 0
    max_depth: int = 5
    min_depth: int = 1
    shape: str | None = None  # a shape family or an exact shape string; None: the default mix
    distractors: int = 5
    split: str = "test"
    policy: str = "default"
    generator: str = "offline"  # or the model that drives the generating stages
    temperature: float = 0.7  # the model's sampling temperature (with a model)
    exclude_from: list[str] = Field(default_factory=list)  # references a candidate must not resemble (contamination)
    splits: dict[str, int] = Field(default_factory=dict)  # split → instances, in order; empty: all n in `split`
    hold_out: str | None = None  # what the held-out split keeps to itself: tools, skeletons or domains
    conversations: bool = False  # also compose conversational items (ask the user, several user turns)
    # judge check → the measured precision of its vetoes for the generator (`factory calibrate`);
    # a judge missing here is advisory (factory.checks.judges)
    judge_precision: dict[str, float] = Field(default_factory=dict)

    @model_serializer(mode="wrap")
    def _without_unused(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Options added later are written only when used, so a run without them keeps its id,
        its card and its bytes."""
        data = handler(self)
        for name in ("exclude_from", "splits", "hold_out", "conversations", "judge_precision"):
            if not data.get(name):
                data.pop(name, None)
        return data


class FileDigest(Record):
    """What a run wrote to one file: its first `bytes` bytes hash to `sha256`."""

    bytes: int
    sha256: str


class Manifest(Record):
    run_id: str
    status: Literal["running", "complete", "incomplete"]
    config: GenerateConfig
    factory_version: str
    attempts: int = 0
    accepted: int = 0
    rejected: int = 0
    reject_reasons: dict[str, int] = Field(default_factory=dict)
    model_usage: dict[str, Any] = Field(default_factory=dict)  # model → calls, cache hits, tokens, cost
    dataset_fingerprint: str | None = None
    # Stage files vouched for up to a length (a resumed run regenerates what lies beyond);
    # dataset files exactly. Keys are paths relative to the run directory.
    files: dict[str, FileDigest] = Field(default_factory=dict)
