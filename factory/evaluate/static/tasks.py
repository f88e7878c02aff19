"""What a model sees in static mode, and the gold it is scored against, per instance.

The view: the offered tools in NesTools form with their `api_id` (after any `--augment`
changes) and the query, filled into the editable prompt prompts/evaluate_static.md. The
gold: the chain as NesTools calls with `api_id`s. Instances that withhold a gold tool have no
complete call list to predict, and fix-up calls whose condition the query does not state
have no reason in it: such instances are left out of static mode (and reported).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from factory.errors import ConfigError
from factory.evaluate.static.augment import Augment, apply_view, offered_tools, view_query
from factory.evaluate.tool_ids import Identity
from factory.nestools import chain_to_nestools, spec_to_nestools
from factory.records import Instance, ToolSpec, content_hash, stable_json

PROMPT_FILE = "evaluate_static.md"


@dataclass
class StaticTask:
    instance: Instance
    identity: Identity
    tools: list[dict[str, Any]]  # as shown, NesTools form with api_id
    names: dict[str, str]  # shown tool name → real name
    query: str
    gold: list[dict[str, Any]]  # NesTools calls with api_id, real names
    prompt: str

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


def render_prompt(template: str, tools: list[dict[str, Any]], query: str) -> str:
    listing = ",\n".join(json.dumps(t, ensure_ascii=False) for t in tools)
    return template.replace("{{tools}}", f"[\n{listing}\n]").replace("{{query}}", query)


def gold_calls(instance: Instance, identity: Identity) -> list[dict[str, Any]]:
    calls = identity.call or chain_to_nestools(instance.chain)
    return [{"api_name": c["api_name"], "api_id": identity.tool_ids[c["api_name"]], "parameters": c["parameters"],
             "responses": c["responses"]} for c in calls]


def shown_spec(spec: ToolSpec, api_id: Any) -> dict[str, Any]:
    nestools = spec_to_nestools(spec)
    return {"api_name": nestools.pop("api_name"), "api_id": api_id, **nestools}


def build_task(instance: Instance, identity: Identity, augment: Augment, template: str, seed: int = 0) -> StaticTask:
    by_name = {t.name: t for t in reversed((*instance.tools, *instance.withheld_tools))}  # first of a name wins, as Instance.tool
    specs = [shown_spec(by_name[name], identity.tool_ids[name]) for name in offered_tools(instance, augment, seed)]
    tools, names = apply_view(instance, specs, augment)
    query = view_query(instance, augment)
    return StaticTask(instance, identity, tools, names, query, gold_calls(instance, identity),
                      render_prompt(template, tools, query))


def statically_scorable(instance: Instance) -> bool:
    """Whether the whole gold call list follows from the query and the offered tools: no gold
    tool is withheld, and every fix-up call fixes a condition the query states (others are
    for an agent to discover from tool errors, in interactive mode)."""
    toolbox_of = {t.name: t.toolbox for t in (*instance.tools, *instance.withheld_tools)}
    unstated = [c for c in instance.chain.calls
                if c.fixes is not None and f"{toolbox_of.get(c.tool) or ''}:{c.fixes}" not in instance.stated_conditions]
    return not instance.withheld_tools and not unstated


def build_tasks(instances: list[Instance], identities: list[Identity], augment: Augment, template: str,
                seed: int = 0) -> tuple[list[StaticTask], list[Instance]]:
    """(tasks, instances left out: a gold tool is withheld, or a fix-up call has no reason in the query)."""
    tasks, left_out = [], []
    for instance, identity in zip(instances, identities, strict=True):
        if not statically_scorable(instance):
            left_out.append(instance)
        else:
            tasks.append(build_task(instance, identity, augment, template, seed))
    return tasks, left_out


def fingerprint(tasks: list[StaticTask]) -> str:
    """Of what the models are shown and scored against, so two runs can be told comparable."""
    return content_hash([stable_json([t.test_id, t.prompt, t.gold]) for t in tasks])
