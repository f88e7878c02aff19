"""The model query writer: a chain's request in a person's words. It starts from the offline
wording (every value stated, every nested value described) and the list of values the request
must state; what the model writes is checked like any query (every value stated, no value a
nested call must find given away, no place the chain is not about, no tool name, the parts
asked for in the draft's order, which the gold calls follow, every step and change the draft
asks for, no criterion of choice it does not have, and something asked at all), and a request
that fails gets one repair pass. Demos are seed examples' requests; a request still unfaithful
after the repair is a reject."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from factory.chains.model_writer import model_answer
from factory.checks.faithfulness import (
    added_criteria,
    asks_nothing,
    given_away,
    joined_values,
    leaked_names,
    missing_values,
    places_not_in_chain,
    unspoken_calls,
    unstated_arguments,
)
from factory.lm.signatures import FieldRow, signature
from factory.queries.order import order_problems
from factory.queries.values import render_value
from factory.records import Chain, ToolSpec, Trace, Value

DEMOS_PER_CALL = 2


@dataclass(frozen=True)
class WrittenQuery:
    variants: dict[str, str]  # "model" (the request), "no_conjunctions", and the offline "template"
    reason: str  # why it was rejected, "" when kept
    raw: str
    repairs: tuple[str, ...] = ()  # what was mended without the model, for the instance's provenance


def values_to_state(chain: Chain) -> list[str]:
    """The literal values of the asked calls, as the request must state them."""
    found = []
    for call in chain.calls:
        if call.fixes is None:
            found += [render_value(a.value) for a in call.arguments.values() if isinstance(a, Value)]
    return list(dict.fromkeys(found))


def state_dropped(chain: Chain, text: str, free: set[tuple[int, str]]) -> tuple[str, list[str]]:
    """The request with the literal values it does not state added in one closing sentence
    ("Use 0.65 for the min confidence and 2025 for the year."), and those values as written."""
    missing = unstated_arguments(chain, text, free)
    if not missing:
        return text, []
    parts = [f"{render_value(value)} for the {name.replace('_', ' ').strip()}" for _, name, value in missing]
    said = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    end = "" if text.rstrip().endswith((".", "?", "!")) else "."
    return f"{text.rstrip()}{end} Use {said}.", [render_value(value) for _, _, value in missing]


_DRAFT: FieldRow = ("draft", str, "a plain draft of the request: what the assistant will do")
_VALUES: FieldRow = ("values", str, "every value the request must state, one per line")


def _signatures(write: str, repair: str) -> tuple[Any, Any]:
    return (signature("WriteRequest", write, [_DRAFT, _VALUES],
                      [("request", str, "the request as the user would write it"),
                       ("plain_sentences", str, "the same request as separate sentences without conjunctions")]),
            signature("RepairRequest", repair,
                      [_DRAFT, ("request", str, "the request as written"), ("problems", str, "what is wrong with it"),
                       _VALUES],
                      [("rewritten", str, "the request rewritten to state every value and name no tool")]))


# A field marker of the prompt's format ("[[ ## request ## ]]"): one the model wrote into its
# answer ("... on my receipt. [[ ## completed ## ]]", a real 1.5B model's request) ends the
# field; one opening an answer the format's parser could not split is the field's own.
_MARKER = re.compile(r"\[\[\s*##[^\]]*##\s*\]\]")


def field_text(text: str) -> str:
    """A model's answer in one field as one line: after a marker that opens it and up to any
    other marker of the format, without surrounding quotes."""
    text = _MARKER.split(_MARKER.sub("", text.strip(), count=1) if _MARKER.match(text.strip()) else text)[0]
    return " ".join(text.strip().strip('"').split())


class QueryWriter:
    """Asks a model for the request a chain serves; checks it; repairs it once."""

    def __init__(self, write_instructions: str, repair_instructions: str, demos: list[tuple[str, str, str]]):
        import dspy

        write, repair = _signatures(write_instructions, repair_instructions)
        self.write, self.repair = dspy.Predict(write), dspy.Predict(repair)
        self.demos = demos  # (draft, values, request)

    def problems(self, chain: Chain, text: str, tool_names: list[str], free: set[tuple[int, str]],
                 trace: Trace | None = None, specs: dict[str, ToolSpec] | None = None, draft: str = "") -> list[str]:
        found = [f"does not state {m.split('=', 1)[1]}" for m in missing_values(chain, text, free)]
        if trace is not None:
            found += [f"states {v!r}, which the assistant must find: describe it as the draft does"
                      for v in given_away(chain, trace, text, specs or {})]
            found += [f"names {p!r}, which the request is not about" for p in places_not_in_chain(chain, trace, text)]
        found += order_problems(chain, text)
        found += [f"{problem}: say which step is about which" for problem in joined_values(chain, text, specs or {})]
        if draft and text != draft:
            found += unspoken_calls(chain, text, draft, specs or {})
            found += [f"picks by '{word}', which the draft does not: no step makes that choice"
                      for word in added_criteria(text, draft)]
        if asks_nothing(text):
            found.append("asks for nothing: write what the user asks the assistant for, as a question or a request")
        return found + [f"names the tool {leak}" for leak in leaked_names(text, tool_names, 2)]

    def __call__(self, lm: Any, chain: Chain, draft: str, tool_names: list[str], rng: random.Random,
                 free: set[tuple[int, str]] | None = None, trace: Trace | None = None,
                 specs: dict[str, ToolSpec] | None = None, own: bool = False) -> WrittenQuery:
        """The request for `chain`. `own`: the draft is the request the chain's author (a model)
        wrote with it; when it passes every check it is kept as written, with no call."""
        import dspy

        def check(text: str) -> list[str]:
            return self.problems(chain, text, tool_names, free or set(), trace, specs, draft)

        if own and not check(draft):
            return WrittenQuery({"template": draft, "model": draft, "no_conjunctions": draft}, "", draft)
        values = "\n".join(values_to_state(chain)) or "(none)"
        chosen = rng.sample(self.demos, min(DEMOS_PER_CALL, len(self.demos)))
        examples = [dspy.Example(draft=d, values=v, request=r, plain_sentences=r) for d, v, r in chosen]
        pred: dict[str, str] = {}
        notes: tuple[str, ...] = ()

        def ask() -> str:
            out = self.write(draft=draft, values=values, demos=examples)
            pred.update(request=out.request, plain=getattr(out, "plain_sentences", "") or "")
            return out.request

        text, failed = model_answer(ask, lm)
        if failed:
            return WrittenQuery({"template": draft}, f"query writer: {failed}", text)
        text = field_text(text)
        problems = check(text)
        if problems:
            fixed, failed = model_answer(lambda: self.repair(draft=draft, request=text, problems="; ".join(problems),
                                                             values=values).rewritten, lm)
            fixed = field_text(fixed)
            problems = check(fixed) if not failed else [failed]
            if failed:
                fixed = text
            text, pred["plain"] = fixed, ""
            if problems:
                inserted, stated = state_dropped(chain, text, free or set())
                if not stated or check(inserted):
                    return WrittenQuery({"template": draft, "model": text}, f"query writer: after a repair the request "
                                        f"still {'; '.join(problems[:3])}", text)
                text, notes = inserted, (f"query writer: stated {', '.join(stated)} by insertion after the repair",)
        plain = field_text(pred.get("plain") or "")
        if not plain or check(plain):
            plain = text  # the variant must be as faithful as the request; else it is the request itself
        return WrittenQuery({"template": draft, "model": text, "no_conjunctions": plain}, "", text, notes)
