"""What a model sees in static mode, and the gold it is scored against, per instance.

The view: the offered tools in NesTools form with their `api_id` (after any `--augment`
changes) and the query, filled into the editable prompt prompts/evaluate_static.md. The
gold: the chain as NesTools calls with `api_id`s. Instances whose whole call list does not
follow from the query and the offered tools (a withheld gold tool, a fix-up whose condition
the query does not state, a value it does not state) are left out of static mode, counted by
reason: the same items a run's nestools.jsonl leaves out.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from factory.dataset.nestools import (
    IMPORTED_GENERATOR,
    UNSOLVABLE,
    UNSTATED_CONDITION,
    UNSTATED_VALUE,
    chain_to_nestools,
    spec_to_nestools,
    stock_unfair,
)
from factory.errors import ConfigError
from factory.evaluate.static.augment import Augment, apply_view, offered_tools, view_query
from factory.evaluate.static.metrics import GoldSide, gold_side, score_calls
from factory.evaluate.tool_ids import Identity
from factory.records import Instance, SampleResult, ToolSpec, stable_json

PROMPT_FILE = "evaluate_static.md"


@dataclass
class StaticTask:
    instance: Instance
    identity: Identity
    tools: list[dict[str, Any]]  # as shown, NesTools form with api_id (shared between tasks: read, never changed)
    names: dict[str, str]  # shown tool name → real name
    query: str
    gold: list[dict[str, Any]]  # NesTools calls with api_id, real names
    template: str  # the prompt file, {{tools}} and {{query}} not filled in
    texts: list[str]  # each shown tool's JSON text, as the prompt lists it (shared between tasks)

    @functools.cached_property
    def prompt(self) -> str:
        """What the model is shown (made when asked: scoring a predictions file never shows it)."""
        return render_prompt(self.template, self.tools, self.query, self.texts)

    @functools.cached_property
    def gold_side(self) -> GoldSide:
        return gold_side(self.gold)

    @functools.cached_property
    def unread_scores(self) -> dict[str, float]:
        """The scores of an answer without a call list (a format failure): the gold's counts
        alone, the same for every such answer to this task."""
        return score_calls(self.gold, None, self.query, self.gold_side).as_scores()

    @functools.cached_property
    def blank_sample(self) -> SampleResult:
        """This task's sample before an answer: each answer's is a copy, its own fields filled
        in (a copy is half the cost of making one; scoring a predictions file makes thousands)."""
        return SampleResult.model_construct(
            instance_id=self.instance.id, mode="static", agent="", trial=0, prompt=None, output=None, scores={},
            errors=[], depth=self.instance.depth, shape=self.instance.shape, categories=[], steps=[], user=None)

    @functools.cached_property
    def renamed(self) -> bool:
        """Whether some tool is shown under another name than its own (--augment scramble)."""
        return any(shown != real for shown, real in self.names.items())

    @property
    def test_id(self) -> int:
        return self.identity.test_id

    def spec(self, shown_name: str) -> ToolSpec | None:
        return self.instance.tool(self.names.get(shown_name, shown_name))


def load_template(prompts_dir: Path) -> str:
    path = prompts_dir / PROMPT_FILE
    if not path.is_file():
        raise ConfigError(f"static-mode prompt {path} is missing (it needs {{{{tools}}}} and {{{{query}}}})")
    text = path.read_text(encoding="utf-8")
    missing = [slot for slot in ("{{tools}}", "{{query}}") if slot not in text]
    if missing:
        raise ConfigError(f"{path} lacks {', '.join(missing)}")
    return text


def render_prompt(template: str, tools: list[dict[str, Any]], query: str, texts: list[str] | None = None) -> str:
    """The prompt; `texts`: the tools' JSON texts, when the caller has them already."""
    listing = ",\n".join(texts if texts is not None else (json.dumps(t, ensure_ascii=False) for t in tools))
    return template.replace("{{tools}}", f"[\n{listing}\n]").replace("{{query}}", query)


def gold_calls(instance: Instance, identity: Identity) -> list[dict[str, Any]]:
    calls = identity.call or chain_to_nestools(instance.chain)
    return [{"api_name": c["api_name"], "api_id": identity.tool_ids[c["api_name"]], "parameters": c["parameters"],
             "responses": c["responses"]} for c in calls]


def shown_spec(spec: ToolSpec, api_id: Any) -> dict[str, Any]:
    nestools = spec_to_nestools(spec)
    return {"api_name": nestools.pop("api_name"), "api_id": api_id, **nestools}


class ToolForms:
    """Each offered tool's shown form and its JSON text, made once per tool and api id: a loaded
    dataset shares one ToolSpec among the instances offering it (6 to 28 of them in NesTools'
    test set), and making these forms again for every instance was most of building the prompts."""

    def __init__(self) -> None:
        # keyed by the spec's id: the spec is kept in the value, so no other object takes its id
        self._made: dict[tuple[int, str], tuple[ToolSpec, dict[str, Any], str]] = {}

    def shown(self, spec: ToolSpec, api_id: Any) -> tuple[dict[str, Any], str]:
        key = (id(spec), repr(api_id))
        made = self._made.get(key)
        if made is None:
            form = shown_spec(spec, api_id)
            made = self._made[key] = (spec, form, json.dumps(form, ensure_ascii=False))
        return made[1], made[2]


def build_task(instance: Instance, identity: Identity, augment: Augment, template: str, seed: int = 0,
               forms: ToolForms | None = None) -> StaticTask:
    by_name = {t.name: t for t in reversed((*instance.tools, *instance.withheld_tools))}  # first of a name wins, as Instance.tool
    offered = offered_tools(instance, augment, seed)
    query = view_query(instance, augment)
    if augment.flags:  # a view that changes the forms: this task's own, changed
        tools, names = apply_view(instance, [shown_spec(by_name[name], identity.tool_ids[name]) for name in offered], augment)
        texts = [json.dumps(t, ensure_ascii=False) for t in tools]
    else:
        forms = forms or ToolForms()
        made = [forms.shown(by_name[name], identity.tool_ids[name]) for name in offered]
        tools, texts = [form for form, _ in made], [text for _, text in made]
        names = {t["api_name"]: t["api_name"] for t in tools}
    return StaticTask(instance, identity, tools, names, query, gold_calls(instance, identity), template, texts)


# Why static mode leaves instances out, said of a count of them (on screen and in summary.md).
LEFT_OUT_WHY = {
    UNSOLVABLE: "withhold a gold tool (the right answer is to say it cannot be done)",
    UNSTATED_CONDITION: "need a fix-up for a condition the request does not say holds",
    UNSTATED_VALUE: "need a value the request does not state",
}


def left_out_reason(instance: Instance) -> str | None:
    """Why the whole gold call list does not follow from the query and the offered tools (a
    key of LEFT_OUT_WHY), or None when static mode scores the instance.

    These are the reasons nestools.jsonl is split by (`stock_unfair`), so static mode scores
    exactly the items a run's nestools.jsonl holds. An instance imported from NesTools is
    scored as NesTools scores it: only a withheld tool or an unstated fix-up leave it out, never
    how its query words a value. Left-out instances are for interactive mode, where an agent
    can discover a condition from a tool error or say that a tool is missing."""
    unfair = stock_unfair(instance, values=instance.provenance.generator != IMPORTED_GENERATOR)
    return unfair[0] if unfair else None


def statically_scorable(instance: Instance) -> bool:
    return left_out_reason(instance) is None


def build_tasks(instances: list[Instance], identities: list[Identity], augment: Augment, template: str,
                seed: int = 0) -> tuple[list[StaticTask], Counter[str]]:
    """(tasks, how many instances were left out by reason: see `left_out_reason`)."""
    tasks, left_out, forms = [], Counter(), ToolForms()
    for instance, identity in zip(instances, identities, strict=True):
        reason = left_out_reason(instance)
        if reason:
            left_out[reason] += 1
        else:
            tasks.append(build_task(instance, identity, augment, template, seed, forms))
    return tasks, left_out


def fingerprint(tasks: list[StaticTask]) -> str:
    """Of what the models are shown and scored against, so two runs can be told comparable:
    content_hash([stable_json([t.test_id, t.prompt, t.gold]) for t in tasks]).

    That JSON list is hashed item by item as it is written, each prompt from its parts: hashing
    escapes a prompt twice (as a JSON string, then inside the JSON string of its item), and a
    tool's text, listed in many prompts, is escaped so once. (NesTools' 1,000 prompts are 12.6 MB,
    11 MB of it tool listings of 1.8 MB of distinct texts; hashed whole, the list was 30 MB of
    text and bytes at once.)"""
    twice: dict[str, str] = {}  # a tool's text escaped twice

    def escaped_twice(text: str) -> str:
        if text not in twice:
            twice[text] = _escaped(_escaped(text))
        return twice[text]

    digest = hashlib.sha256(b"[")
    for k, task in enumerate(tasks):
        item = (f'"{_escaped(f"[{stable_json(task.test_id)},")}\\"{_prompt_escaped_twice(task, escaped_twice)}\\"'
                f'{_escaped(f",{stable_json(task.gold)}]")}"')
        digest.update(("," if k else "").encode() + item.encode())
    digest.update(b"]")
    return digest.hexdigest()[:16]


def _escaped(text: str) -> str:
    """A text as it stands between the quotes of its JSON string. Escaping goes character by
    character: the escape of a concatenation is the concatenation of the escapes."""
    return stable_json(text)[1:-1]


def _prompt_escaped_twice(task: StaticTask, escaped_twice: Callable[[str], str]) -> str:
    """_escaped(_escaped(task.prompt)), put together from the template around each {{tools}}
    (its {{query}} filled in) and the listing of the tools' texts, as render_prompt puts the
    prompt together. No {{query}} straddles the listing, which starts with "[" and ends with
    "]"; one inside it (a tool's text that holds one) would be filled in too: such a prompt is
    escaped whole."""
    if any("{{query}}" in text for text in task.texts):
        return _escaped(_escaped(task.prompt))
    listing = "".join((escaped_twice("[\n"), escaped_twice(",\n").join(map(escaped_twice, task.texts)), escaped_twice("\n]")))
    return listing.join(_escaped(_escaped(part.replace("{{query}}", task.query))) for part in task.template.split("{{tools}}"))
