"""A seed's words as data: `phrasings.toml` beside its `toolbox.py`.

The toolbox holds the tools and the world (code); the phrasings file holds what people say:
how a request asks for each tool's call (`asks`), how a later request describes what a call
gave (`gives`), parameters that travel as one phrase (`groups`), how a literal of a kind is
written (`[written]`), what a person says of a broken condition and the sentence that lets
its fix be made (`[conditions.NAME]` `says`, `context`), and the goals people have
(`[goals.NAME]`: who asks, what they want, the tools that serve it). The loader applies it to
the toolbox once the code is loaded, in the sandbox's case to the host's copy of what the
code declared, so both kinds of seed read their words the same way. See seeds/README.md.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Collection
from pathlib import Path
from typing import Any

from factory.errors import SeedError
from factory.toolbox import Toolbox, wordings

PHRASINGS = "phrasings.toml"
_TOOL_KEYS = {"asks", "gives", "groups"}
_CONDITION_KEYS = {"context", "says"}
_GOAL_KEYS = {"role", "wants", "tools", "conditions"}


def read_phrasings(folder: Path) -> dict[str, Any]:
    """The parsed phrasings file of a seed folder; {} when it has none."""
    path = folder / PHRASINGS
    if not path.is_file():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SeedError(f"{path}: cannot be read as TOML: {exc}") from exc


def _texts(value: Any, where: str) -> tuple[str, ...]:
    """One wording or a list of them."""
    if isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        return wordings(value)
    raise SeedError(f"{where}: a text or a list of texts, not {value!r}")


def _text(value: Any, where: str) -> str:
    if isinstance(value, str):
        return value
    raise SeedError(f"{where}: a text, not {value!r}")


def _table(data: dict[str, Any], name: str, where: str, keys: set[str] | None = None) -> dict[str, Any]:
    table = data.get(name, {})
    if not isinstance(table, dict):
        raise SeedError(f"{where}: [{name}] is a table, not {type(table).__name__}")
    if keys is not None:
        for entry, fields in table.items():
            unknown = set(fields) - keys if isinstance(fields, dict) else None
            if unknown is None or unknown:
                raise SeedError(f"{where}: [{name}.{entry}] may hold only {', '.join(sorted(keys))}"
                                + (f", not {', '.join(sorted(unknown))}" if unknown else ""))
    return table


def apply_phrasings(toolbox: Toolbox, folder: Path, *, dropped: Collection[str] = ()) -> None:
    """Give the toolbox the words of the seed folder's phrasings file. A tool, kind or
    condition worded both in the code and in the file, or a name the code does not declare,
    is a SeedError naming the file and entry; `dropped` names tools left out of a
    model-written seed on purpose, whose words are passed over."""
    data = read_phrasings(folder)
    if not data:
        return
    where = str(folder / PHRASINGS)
    unknown = set(data) - {"written", "tools", "conditions", "goals"}
    if unknown:
        raise SeedError(f"{where}: unknown table(s) {', '.join(sorted(unknown))}; a phrasings file holds "
                        "[written], [tools.NAME], [conditions.NAME] and [goals.NAME]")
    for kind, template in _table(data, "written", where).items():
        if not isinstance(template, str):
            raise SeedError(f"{where}: [written] {kind} is a text with {{}} for the value, not {template!r}")
        if kind in toolbox.written:
            raise SeedError(f"{where}: [written] {kind} is also written_as in the code; say it in one place")
        toolbox.written[kind] = template
    for name, fields in _table(data, "tools", where, _TOOL_KEYS).items():
        entry = toolbox.tools.get(name)
        if entry is None:
            if name in dropped:
                continue
            raise SeedError(f"{where}: [tools.{name}] names no tool of the toolbox")
        if entry.asks or entry.gives or entry.groups:
            raise SeedError(f"{where}: [tools.{name}] words a tool whose decorator already has asks, gives or "
                            "groups; say them in one place")
        gives = _table(fields, "gives", f"{where} [tools.{name}]")
        groups = _table(fields, "groups", f"{where} [tools.{name}]")
        toolbox.tools[name] = dataclasses.replace(
            entry, asks=_texts(fields.get("asks", []), f"{where}: [tools.{name}] asks"),
            gives={tuple(part.strip() for part in key.split(",")): _texts(text, f"{where}: [tools.{name}.gives] {key}")
                   for key, text in gives.items()},
            groups={key: _text(text, f"{where}: [tools.{name}.groups] {key}") for key, text in groups.items()})
    for name, fields in _table(data, "conditions", where, _CONDITION_KEYS).items():
        condition = toolbox.conditions.get(name)
        if condition is None:
            raise SeedError(f"{where}: [conditions.{name}] names no condition of the toolbox")
        if condition.context or condition.says:
            raise SeedError(f"{where}: [conditions.{name}] words a condition the code already words; say it in one place")
        toolbox.conditions[name] = dataclasses.replace(
            condition, context=_texts(fields.get("context", []), f"{where}: [conditions.{name}] context"),
            says=_texts(fields.get("says", []), f"{where}: [conditions.{name}] says"))
    for name, fields in _table(data, "goals", where, _GOAL_KEYS).items():
        if name in toolbox.goals:
            raise SeedError(f"{where}: [goals.{name}] is also declared in the code; say it in one place")
        missing = {"role", "wants", "tools"} - set(fields)
        if missing:
            raise SeedError(f"{where}: [goals.{name}] lacks {', '.join(sorted(missing))}")
        conditions = fields.get("conditions")
        toolbox.goal(name, role=_text(fields["role"], f"{where}: [goals.{name}] role"),
                     wants=_text(fields["wants"], f"{where}: [goals.{name}] wants"),
                     tools=_texts(fields["tools"], f"{where}: [goals.{name}] tools"),
                     conditions=None if conditions is None else _texts(conditions, f"{where}: [goals.{name}] conditions"))
