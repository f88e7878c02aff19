"""The model chain writer, NesTools' generation pattern: for a domain, a subdomain and a nesting
shape, a model writes tool stubs, a `main()` that calls them as the shape says with the user's
raw task as a comment, and what each call returns. The answer is read with `ast` only
(factory.chains.stubs); whatever cannot be read, or has another shape, is a reject with the
model's raw output. A problem the model can mend (no main(), an untyped parameter, an unknown
tool, another shape) goes back to it once with the exact problem; the repaired answer is read
the same way. Few-shot demos come from the seed library, rotated per attempt.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from typing import Any

from factory.chains.code import parse_chain, render_chain
from factory.chains.structured import (
    calls_schema,
    demo_steps,
    described_alike,
    described_as,
    joined,
    read_structured,
    read_tools,
    schema_format,
    tools_schema,
)
from factory.chains.stubs import StubError, WrittenChain, main_source, read_written, stub_source
from factory.checks.faithfulness import asked_in
from factory.lm.signatures import model_answer, signature, structured_answer
from factory.records import (
    Chain,
    GenerateConfig,
    RecordedCall,
    Ref,
    ToolSpec,
    Value,
    WorldSetup,
    parse_shape,
    value_matches_type,
)
from factory.seeds.specs import without_examples_of

DEMOS_PER_CALL = 2
STRUCTURED_TOKENS = 2048  # room for a chain of five calls with their tools as JSON


def shape_in_words(shape: str) -> str:
    """"3:1>2,2>3" → "3 calls: call 2 takes values that call 1 returns; call 3 takes values that call 2 returns"."""
    n, edges = parse_shape(shape)
    needs = {j: sorted(i + 1 for i, jj in edges if jj == j) for j in range(n)}
    parts = [f"call {j + 1} takes values that call{'s' if len(v) > 1 else ''} {' and '.join(map(str, v))} "
             f"return{'' if len(v) > 1 else 's'}" for j, v in needs.items() if v]
    alone = "; no call takes another's values" if not edges else ""
    return f"{n} call{'s' if n > 1 else ''}" + (": " + "; ".join(parts) if parts else alone)


@dataclass(frozen=True)
class Demo:
    domain: str
    subdomain: str
    shape: str
    code: str
    tools_answer: str = ""  # the same example in the two steps under schemas (factory.chains.structured)
    calls_answer: str = ""


def seed_demos(seeds: dict[str, Any], world_seed: int = 0) -> list[Demo]:
    """One demo per seed example: its tools as stubs (plus two it does not use), and main()
    with the example's request and the values the seed's own tools really return."""
    from factory.records import WorldSetup
    from factory.world.simulator import Simulator, run_chain

    specs = {name: spec for seed in seeds.values() for name, spec in seed.specs.items()}
    demos = []
    for slug, seed in sorted(seeds.items()):
        others = sorted(seed.specs)
        for example in seed.scenario.examples:
            try:
                chain = parse_chain(example.chain, specs)
                toolboxes = sorted({specs[c.tool].toolbox or slug for c in chain.calls})
                trace = run_chain(chain, specs, Simulator(seeds, WorldSetup(toolboxes=toolboxes, seed=world_seed)))
            except Exception:  # seed examples are checked by the seed tests; a broken one is no demo
                continue
            if not trace.ok:
                continue
            used = list(dict.fromkeys(c.tool for c in chain.calls))
            extra = [t for t in others if t not in used][: 2]
            stubs = "\n\n\n".join(stub_source(specs[t]) for t in used + extra)
            returns = [list(step.outputs.values()) for step in trace.steps]
            code = f"from typing import Literal\n\n\n{stubs}\n\n\n{main_source(example.query, render_chain(chain), returns)}"
            tools, calls = demo_steps(chain, specs, [specs[t] for t in extra], example.query, returns) or ("", "")
            demos.append(Demo(seed.domain, seed.scenario.subdomains[0], chain.shape(), code, tools, calls))
    return demos


@dataclass(frozen=True)
class Written:
    """What one chain-writer call gave: the chain, or the reason it was rejected; and the raw answer."""

    chain: WrittenChain | None
    reason: str
    raw: str
    repaired: str = ""  # the problem of the first answer, when a repair mended it


@dataclass(frozen=True)
class Step:
    """One step of the writer under a schema: what its answer was read as (None: it failed),
    the answer, why it failed, and the problem a repair mended."""

    value: Any
    raw: str
    problem: str = ""
    repaired: str = ""


ASKS = [("domain", str, "the domain of the tools"),
        ("subdomain", str, "the part of the domain the task is about"),
        ("shape", str, "how many calls main() makes and which call takes which earlier call's values")]
GIVES = [("code", str, "one Python code block: typed tool stubs with docstrings, then main()")]
REPAIR_ASKS = [*ASKS, ("previous_code", str, "the earlier answer"), ("problem", str, "why it could not be used")]


def read_answer(raw: str, shape: str, structured: bool = False) -> tuple[WrittenChain | None, str]:
    """(the chain, "") from an answer (`structured`: the two steps' answers `joined`), or
    (None, the problem in words a model can act on)."""
    try:
        written = read_structured(raw) if structured else read_written(raw)
    except StubError as exc:
        return None, str(exc)
    if written.chain.shape() != shape:
        return None, (f"asked for shape {shape}, the model wrote {written.chain.shape()}: main() must make "
                      f"{shape_in_words(shape)}, but it makes {shape_in_words(written.chain.shape())}")
    alike = next((found for name in dict.fromkeys(c.tool for c in written.chain.calls)
                  if (found := described_alike(written.tools[name]))), "")
    problem = (alike or mislinked_values(written) or misdescribed_link(written) or unasked_end(written)
               or twice_returned(written) or told_back(written))
    if problem:
        return None, problem
    return written, ""


def twice_returned(written: WrittenChain) -> str:
    """A call that returns one value under two names (a real 1.5B model's measurements came back
    as both `data` and `oceanographic_data`; the gold answer then asks for each copy)."""
    for i, (call, values) in enumerate(zip(written.chain.calls, written.returns, strict=False)):
        names = [o.name for o in written.tools[call.tool].returns]
        seen: dict[str, str] = {}
        for name, value in zip(names, values or [], strict=False):
            key = json.dumps(value, sort_keys=True, default=str)
            if isinstance(value, (str, list, dict)) and len(key) > 4 and key in seen:
                return (f"call_{i + 1} ({call.tool}) returns {value!r} as both {seen[key]!r} and {name!r}: each "
                        f"returned value is another thing, with a value of its own")
            seen.setdefault(key, name)
    return ""


def told_back(written: WrittenChain) -> str:
    """A call the request ends on that finds what the request states itself, or a call that
    finds only what an earlier one found: a real 1.5B model's specimen located by the id found
    for "Escherichia coli" came back as "Escherichia coli", and a species found again from its
    own details (the plausibility check's `round_trip` rule rejected 2 of 12 Marine Biology
    attempts for this after every model call was spent). Said here, the model mends the chain."""
    chain = written.chain
    stated = {str(a.value).casefold(): (k, name) for k, c in enumerate(chain.calls) for name, a in c.arguments.items()
              if isinstance(a, Value) and isinstance(a.value, str) and len(a.value.strip()) > 2}
    found: dict[str, int] = {}
    ends = set(chain.sinks())
    for i, (call, values) in enumerate(zip(chain.calls, written.returns, strict=False)):
        names = [o.name for o in written.tools[call.tool].returns]
        keys = [json.dumps(v, sort_keys=True, default=str) for v in values or []]
        if keys and all(key in found for key in keys) and any(len(key) > 4 for key in keys):
            earlier = found[keys[0]]
            return (f"call_{i + 1} ({call.tool}) finds only what call_{earlier + 1} ({chain.calls[earlier].tool}) "
                    f"found already: each call finds something new")
        for name, value in zip(names, values or [], strict=False):
            said = stated.get(value.casefold()) if isinstance(value, str) else None
            # under the name it was given by (an organiser who is the person the meeting was
            # found with is the world's answer, a seed example's)
            if i in ends and said is not None and said[0] != i and said[1] == name:
                return (f"call_{i + 1} ({call.tool}) finds {name} {value!r}, which the request states already "
                        f"(call_{said[0] + 1} is given it as {said[1]}): a call finds what the user does not know")
        for key in keys:
            found.setdefault(key, i)
    return ""


def unasked_end(written: WrittenChain) -> str:
    """A call no later call takes from whose findings the request does not ask for, beside
    another such call ("What is the current speed of the water flow?" over a chain that also
    analyses the ocean data for patterns: the gold would need a call and values nobody asked
    for). The one such call of a chain may be asked in any words."""
    chain, tools = written.chain, written.tools
    ends = chain.sinks()
    if len(ends) < 2 or not written.task:
        return ""
    asked = asked_in(chain, written.task, tools, anywhere=True)
    for end in ends:
        if end not in asked:
            tool = tools[chain.calls[end].tool]
            finds = ", ".join(o.name.replace("_", " ") for o in tool.returns)
            return (f"the request does not ask for what call_{end + 1} ({tool.name}) finds ({finds}), and no later "
                    f"call takes it: ask for it in the request, in the tool's own words")
    return ""


def _links(written: WrittenChain) -> Any:
    """Each link of a written chain in call order: (the call's index, the call, its parameter,
    the index of the call whose value it takes, the name that call's tool gives the value, and
    every output variable so far → (call, the name its tool gives it))."""
    producer: dict[str, tuple[int, str]] = {}
    for i, call in enumerate(written.chain.calls):
        for out, declared in zip(call.outputs, written.tools[call.tool].returns, strict=False):
            producer[out] = (i, declared.name)
        for param, arg in call.arguments.items():
            if isinstance(arg, Ref) and arg.ref in producer:
                yield i, call, param, *producer[arg.ref], producer


def misdescribed_link(written: WrittenChain) -> str:
    """A link whose parameter is described as another value the earlier call returns than the
    one it takes: environmental_study(species_name=<the species' common name>) whose species_name
    is "the scientific name of the marine organism", while call 1 also returns scientific_name
    (a real 1.5B model's; an agent that follows the description passes the other value)."""
    for i, call, param, k, taken, _ in _links(written):
        declared = written.tools[call.tool].param(param)
        returned = [o.name for o in written.tools[written.chain.calls[k].tool].returns]
        meant = described_as(declared, taken, returned) if declared else ""
        if meant:
            return (f"call_{i + 1} ({call.tool}) describes {param!r} as {declared.description!r}, which is "
                    f"call_{k + 1}'s {meant!r}, yet takes its {taken!r}: take the value the parameter is described "
                    f"as, or describe the parameter as the value it takes")
    return ""


def mislinked_values(written: WrittenChain) -> str:
    """A link that fills a parameter with a value of another name while an earlier call returns
    one under the parameter's very name: get_park_hours(park_name=<the park's location>) while
    call 1 returned park_name (a real 1.5B model's chain, which its own judges passed; the gold
    answer then asks an agent for the wrong value). Of 1,000 offline chains one has such a link
    on purpose (a prescriber's id as a doctor_id beside another doctor's): a model-written one
    is sent back, at worst costing a candidate."""
    for i, call, param, k, given, producer in _links(written):
        same = [m for m, named in producer.values() if named == param and m < i]
        if given != param and same:
            return (f"call_{i + 1} ({call.tool}) fills {param!r} with call_{k + 1}'s {given!r}, not with the "
                    f"{param!r} call_{same[0] + 1} returns: take each value from the call that returns it, keeping the "
                    f"requested shape")
    return ""


class ChainWriter:
    """Asks a model for tools and a chain of a given shape, and sends a problem back once with
    the answer (`repair_instructions` follow the writer's own): as code read with ast, or, where
    the endpoint constrains answers to a schema, in two steps under schemas (the tools, then the
    calls over them; `structured` holds the two steps' instructions)."""

    def __init__(self, instructions: str, demos: list[Demo], repair_instructions: str = "",
                 structured: tuple[str, str] | None = None, structured_repair: str = ""):
        import dspy

        self.predict = dspy.Predict(signature("WriteToolsAndChain", instructions, ASKS, GIVES))
        self.repair = dspy.Predict(signature("RepairToolsAndChain", f"{instructions}\n\n{repair_instructions}".strip(),
                                             REPAIR_ASKS, GIVES)) if repair_instructions else None
        self.demos = demos
        self.structured = structured  # (the tools step's, the calls step's instructions); None: the code format
        self.repair_instructions = repair_instructions
        self.structured_repair = structured_repair or repair_instructions  # how to mend an answer under a schema

    def __call__(self, lm: Any, domain: str, subdomain: str, shape: str, rng: random.Random) -> Written:
        if self.structured:
            return self.under_schema(lm, domain, subdomain, shape, rng)
        return self.as_code(lm, domain, subdomain, shape, rng)

    def under_schema(self, lm: Any, domain: str, subdomain: str, shape: str, rng: random.Random) -> Written:
        """The tools of the calls under `tools_schema`, then the request and the calls over
        those tools under `calls_schema` (one worked example before each): each step checked
        before the next, and a problem of a step sent back once, with its answer, under its schema."""
        assert self.structured is not None
        tools_text, calls_text = self.structured
        demos = closest_demos([d for d in self.demos if d.tools_answer], shape)
        demo = rng.sample(demos, min(1, len(demos)))
        messages = [{"role": "system", "content": tools_text}]
        for d in demo:
            messages += [{"role": "user", "content": _asked(d.domain, d.subdomain, d.shape)},
                         {"role": "assistant", "content": d.tools_answer}]
        messages.append({"role": "user", "content": _asked(domain, subdomain, shape)})
        step = self._step(lm, messages, schema_format("tools", tools_schema(shape)), lambda raw: read_tools(raw, shape))
        if step.value is None:
            return Written(None, f"chain writer (tools): {step.problem}", step.raw)
        specs, tools, others = step.value
        messages = [{"role": "system", "content": calls_text}]
        for d in demo:
            messages += [{"role": "user", "content": _given(d.domain, d.subdomain, d.shape, read_tools(d.tools_answer, d.shape)[1])},
                         {"role": "assistant", "content": d.calls_answer}]
        messages.append({"role": "user", "content": _given(domain, subdomain, shape, tools)})

        def read(raw: str) -> WrittenChain:
            written, problem = read_answer(joined(shape, tools, others, raw), shape, structured=True)
            if written is None:
                raise StubError(problem)
            return written

        calls = self._step(lm, messages, schema_format("calls", calls_schema(shape, specs)), read)
        repaired = "; ".join(f"{part}: {problem}" for part, problem in (("tools", step.repaired), ("calls", calls.repaired))
                             if problem)
        if calls.value is None:
            return Written(None, f"chain writer (calls): {calls.problem}", f"{step.raw}\n\n{calls.raw}")
        return Written(calls.value, "", f"{step.raw}\n\n{calls.raw}", repaired=repaired)

    def _step(self, lm: Any, messages: list[dict[str, Any]], fmt: dict[str, Any], read: Any) -> Step:
        """One answer under `fmt`, read by `read` (which raises StubError with the problem); a
        problem goes back once, with the answer."""
        tokens = max(STRUCTURED_TOKENS, lm.kwargs.get("max_tokens") or 0)
        raw, failed = structured_answer(lm, messages, fmt, max_tokens=tokens)
        if failed:
            return Step(None, raw, failed)
        try:
            return Step(read(raw), raw)
        except StubError as exc:
            problem = str(exc)
        retry = [*messages, {"role": "assistant", "content": raw},
                 {"role": "user", "content": f"{self.structured_repair}\n\nproblem: {problem}"}]
        fixed, failed = structured_answer(lm, retry, fmt, max_tokens=tokens)
        if failed:
            return Step(None, raw, f"{problem}; its repair failed: {failed}")
        try:
            return Step(read(fixed), fixed, repaired=problem)
        except StubError as exc:
            return Step(None, fixed, f"after a repair, {exc}")

    def as_code(self, lm: Any, domain: str, subdomain: str, shape: str, rng: random.Random) -> Written:
        import dspy

        chosen = rng.sample(self.demos, min(DEMOS_PER_CALL, len(self.demos)))
        examples = [dspy.Example(domain=d.domain, subdomain=d.subdomain, shape=shape_in_words(d.shape), code=d.code)
                    for d in chosen]
        raw, failed = model_answer(lambda: self.predict(domain=domain, subdomain=subdomain, shape=shape_in_words(shape),
                                                        demos=examples).code, lm)
        if failed:
            return Written(None, f"chain writer: {failed}", raw)
        written, problem = read_answer(raw, shape)
        if not problem:
            return Written(written, "", raw)
        if self.repair is None:
            return Written(None, f"chain writer: {problem}", raw)
        fixed, failed = model_answer(lambda: self.repair(domain=domain, subdomain=subdomain, shape=shape_in_words(shape),
                                                         previous_code=raw, problem=problem).code, lm)
        if failed:
            return Written(None, f"chain writer: {problem}; its repair failed: {failed}", raw)
        written, again = read_answer(fixed, shape)
        if again:
            return Written(None, f"chain writer: after a repair, {again}", fixed)
        return Written(written, "", fixed, repaired=problem)


def closest_demos(demos: list[Demo], shape: str) -> list[Demo]:
    """The worked examples nearest the asked shape: of that very shape, else with as many calls
    and links, else with links where links are asked (a small model copies the example's
    structure more than it follows the shape in words)."""
    n, edges = parse_shape(shape)

    def size(demo: Demo) -> tuple[int, int]:
        m, links = parse_shape(demo.shape)
        return m, len(links)

    for near in (lambda d: d.shape == shape, lambda d: size(d) == (n, len(edges)),
                 lambda d: bool(parse_shape(d.shape)[1]) == bool(edges)):
        chosen = [d for d in demos if near(d)]
        if chosen:
            return chosen
    return demos


def _asked(domain: str, subdomain: str, shape: str) -> str:
    return f"domain: {domain}\nsubdomain: {subdomain}\nshape: {shape_in_words(shape)}"


def _given(domain: str, subdomain: str, shape: str, tools: list[dict[str, Any]]) -> str:
    """What the calls step is asked: the task, and the tool of each call as the tools step wrote it."""
    written = {f"tool_of_call_{j + 1}": tool for j, tool in enumerate(tools)}
    return f"{_asked(domain, subdomain, shape)}\ntools: {json.dumps(written, ensure_ascii=False)}"


def stated_answers(chain: Chain, specs: dict[str, ToolSpec], stated: list[list[Any] | None]) -> list[RecordedCall]:
    """The chain writer's own answers as recorded calls: walked in call order with the values
    its comments give, until a call's stated values are missing or not of the declared types
    (from there on the simulator answers, since later arguments would differ)."""
    bound: dict[str, Any] = {}
    recorded = []
    for call, values in zip(chain.calls, stated, strict=True):
        spec = specs[call.tool]
        arguments = {k: bound[a.ref] if isinstance(a, Ref) else a.value for k, a in call.arguments.items()}
        if values is None or len(values) != len(spec.returns) or not all(
                value_matches_type(v, out.type) for v, out in zip(values, spec.returns, strict=True)):
            break
        recorded.append(RecordedCall(tool=call.tool, arguments=arguments, outputs=list(values), source="writer"))
        bound.update(zip(call.outputs, values, strict=True))
    return recorded


SUBDOMAINS = ("List distinct subdomains of a domain: areas in which a service would offer its own tools "
              "(for the domain Weather: Forecasts, Air Quality, Severe Weather Alerts).")


def _subdomain_signature() -> Any:
    return signature("ListSubdomains", SUBDOMAINS, [("domain", str, "")], [("subdomains", list[str], "8 to 12 short names")])


def propose_subdomains(lm: Any, domain: str) -> list[str]:
    """Subdomains to spread a run over, asked once per run; the domain itself when the model
    gives fewer than two that can be read and say more than the words it was asked with (the
    real 1.5B model listed 'biology', 'marine', 'services', 'offering' for Marine Biology)."""
    import dspy

    names: list[str] = []

    def ask() -> str:
        names.extend(str(s).strip() for s in dspy.Predict(_subdomain_signature())(domain=domain).subdomains)
        return "\n".join(names)

    raw, failed = model_answer(ask, lm)
    if not names and not failed:
        names = [line.strip(" -*0123456789.\t") for line in raw.splitlines()]
    asked = {word[:5] for word in re.findall(r"[a-z]+", f"{domain} {SUBDOMAINS}".lower())}
    named = [n for n in dict.fromkeys(names) if 2 < len(n) < 80
             and not {word[:5] for word in re.findall(r"[a-z]+", n.lower())} <= asked]
    return named[:12] if len(named) > 1 else [domain]


def without_shown_literals(specs: dict[str, ToolSpec], chain: Chain) -> tuple[dict[str, ToolSpec], list[str]]:
    """The tools with every example clause that shows one of the chain's literal arguments taken
    out of their documentation (a small model writes `location: str, e.g. "Alaskan Arctic"` and
    then calls it with "Alaskan Arctic": an agent could copy the example without reading the
    request); and the names of the tools changed."""
    values = [a.value for c in chain.calls for a in c.arguments.values() if isinstance(a, Value)]
    changed, cleaned = [], {}
    for name, spec in specs.items():
        update = {"description": without_examples_of(spec.description, values),
                  "parameters": [p.model_copy(update={"description": without_examples_of(p.description, values)})
                                 for p in spec.parameters],
                  "returns": [o.model_copy(update={"description": without_examples_of(o.description, values)})
                              for o in spec.returns]}
        cleaned[name] = spec.model_copy(update=update)
        if cleaned[name] != spec:
            changed.append(name)
    return cleaned, changed


class ModelComposer:
    """The model backend of the compose stage: chains a model writes for a domain no seed
    covers, with their tools, the request as the model states it, and its stated answers."""

    def __init__(self, config: GenerateConfig, domain: str, subdomains: list[str], writer: ChainWriter,
                 lm_for: Any):
        from factory.chains.shapes import candidates

        self.config, self.domain, self.subdomains, self.writer, self.lm_for = config, domain, subdomains, writer, lm_for
        self.shape_rows = candidates(config.min_depth, config.max_depth, config.shape)

    def compose(self, rng: random.Random, attempt: int) -> Any:
        from factory.chains.seeded import Composed, NotComposed
        from factory.chains.shapes import sample_shape

        shape = sample_shape(rng, self.shape_rows)
        subdomain = rng.choice(self.subdomains)
        written = self.writer(self.lm_for(attempt), self.domain, subdomain, shape, rng)
        if written.chain is None:
            return NotComposed(written.reason, written.raw)
        chain = written.chain.chain.renumbered()
        specs, unshown = without_shown_literals({**written.chain.tools, **written.chain.others}, chain)
        setup = WorldSetup(toolboxes=[], seed=self.config.seed, recorded=stated_answers(chain, specs, written.chain.returns))
        record = {"domain": self.domain, "subdomain": subdomain, "scenario": "plain", "code": written.chain.code}
        repairs = [f"chain writer: repaired ({written.repaired})"] if written.repaired else []
        if unshown:
            repairs.append(f"chain writer: examples of the request's values taken out of the documentation of "
                           f"{', '.join(unshown)}")
        if repairs:
            record["repairs"] = repairs
        return Composed(chain, specs, setup, self.domain, subdomain, None, draft=written.chain.task or None, record=record)
