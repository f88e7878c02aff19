"""Template queries: one sentence per call, every literal value stated, nested values described
by the step that produces them, no tool names; plus a variant without conjunctions."""

from __future__ import annotations

import re
import string
from typing import Any

from factory.records import Chain, Ref, ToolSpec
from factory.toolbox import ToolEntry

_CONNECTIVES = ("First, ", "Then ", "After that, ", "Next, ", "Then ")


def render_value(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float) and value.is_integer():
        return str(int(value)) if abs(value) < 1e15 else str(value)
    if isinstance(value, list):
        items = [render_value(v) for v in value]
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1] if items else "none"
    if isinstance(value, dict):
        return ", ".join(f"{k} {render_value(v)}" for k, v in value.items())
    return str(value)


def _noun(description: str) -> str:
    text = re.sub(r"\s*\([^)]*\)", "", description).strip().rstrip(".")
    return text[0].lower() + text[1:] if text else "result"


def _default_phrase(spec: ToolSpec) -> str:
    summary = spec.description.rstrip(".")
    summary = summary[0].lower() + summary[1:]
    slots = ", ".join(f"{p.name.replace('_', ' ')} {{{p.name}}}" for p in spec.parameters)
    return f"{summary} for {slots}" if slots else summary


def _fill(phrase: str, values: dict[str, str], optional: dict[str, str]) -> str:
    names = [f for _, f, _, _ in string.Formatter().parse(phrase) if f]
    text = phrase.format(**{n: values.get(n, f"the default {n.replace('_', ' ')}") for n in names})
    extra = [f"{n.replace('_', ' ')} {v}" for n, v in optional.items() if n not in names]
    return text + (" with " + " and ".join(extra) if extra else "")


def step_phrases(chain: Chain, specs: dict[str, ToolSpec], entries: dict[str, ToolEntry]) -> list[str]:
    """The wording of each call: literals stated, references named by their producing step."""
    producers = chain.producers()
    step_of = {i: n for n, i in enumerate(i for i, c in enumerate(chain.calls) if c.fixes is None)}
    phrases = []
    for index, call in enumerate(chain.calls):
        if call.fixes is not None:
            continue  # restoring world state is the agent's to discover, not part of the request
        spec = specs[call.tool]
        values: dict[str, str] = {}
        for name, arg in call.arguments.items():
            if isinstance(arg, Ref):
                source = producers[arg.ref]
                out_pos = chain.calls[source].outputs.index(arg.ref)
                noun = _noun(specs[chain.calls[source].tool].returns[out_pos].description)
                previous = step_of[index] - 1 == step_of.get(source)
                values[name] = noun if previous else f"{noun} from step {step_of.get(source, source) + 1}"
            else:
                values[name] = render_value(arg.value)
        entry = entries.get(call.tool)
        phrase = entry.phrase if entry and entry.phrase else _default_phrase(spec)
        required = {p.name for p in spec.parameters if p.required}
        optional = {n: v for n, v in values.items() if n not in required}
        phrases.append(_fill(phrase, values, optional))
    return phrases


def answer_phrase(chain: Chain, specs: dict[str, ToolSpec]) -> str:
    nouns = []
    for i in chain.sinks():
        spec = specs[chain.calls[i].tool]
        nouns += [_noun(out.description) for out in spec.returns]
    if not nouns:
        return ""
    return nouns[0] if len(nouns) == 1 else ", ".join(nouns[:-1]) + " and " + nouns[-1]


def _sentence(text: str) -> str:
    text = text.strip()
    return text[0].upper() + text[1:] + ("" if text.endswith((".", "?")) else ".")


def template_query(chain: Chain, specs: dict[str, ToolSpec], entries: dict[str, ToolEntry]) -> dict[str, str]:
    """{"template": the query with connectives, "no_conjunctions": one bare sentence per step}."""
    steps = step_phrases(chain, specs, entries)
    answer = answer_phrase(chain, specs)
    report = f"Tell me {answer}." if answer else ""
    if len(steps) == 1:
        single = _sentence(steps[0])
        return {"template": f"{single} {report}".strip(), "no_conjunctions": f"{single} {report}".strip()}
    joined = []
    for i, step in enumerate(steps):
        lead = "Finally, " if i == len(steps) - 1 else _CONNECTIVES[min(i, len(_CONNECTIVES) - 1)]
        joined.append(_sentence(lead + step))
    bare = [_sentence(step) for step in steps]
    return {
        "template": " ".join(joined + ([report] if report else [])),
        "no_conjunctions": " ".join(bare + ([report] if report else [])),
    }

