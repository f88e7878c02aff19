"""Tool specs derived from a typed, documented Python function: its signature and docstring
are the single source of the spec. Also the example values a spec's descriptions show
(`e.g. "Jane Doe"`), which no gold literal may equal: an agent reads them without reading the
request."""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable
from typing import Any

import docstring_parser

from factory.errors import SeedError
from factory.records import Output, Param, ToolSpec
from factory.seeds.annotations import returned_parts, type_name

_RETURN_LINE = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?:\([^)]*\))?\s*:\s*(.*)$")


def _where(fn: Callable[..., Any]) -> str:
    try:
        path = inspect.getsourcefile(fn) or "?"
        line = inspect.getsourcelines(fn)[1]
    except (OSError, TypeError):
        return fn.__qualname__
    return f"{path}:{line} {fn.__name__}"


def _returns_block(doc: docstring_parser.Docstring) -> list[tuple[str, str]]:
    """Named entries of a Google-style Returns section: `name: description` lines."""
    if doc.returns is None:
        return []
    # The parser reads the first "name:" as a type; rebuild the block and split it on names.
    first = doc.returns.type_name
    text = (f"{first}: " if first else "") + (doc.returns.description or "")
    entries: list[tuple[str, str]] = []
    for line in text.splitlines():
        match = _RETURN_LINE.match(line)
        if match:
            entries.append((match.group(1), match.group(2).strip()))
        elif entries and line.strip():
            name, desc = entries[-1]
            entries[-1] = (name, f"{desc} {line.strip()}")
    return entries


def spec_from_function(fn: Callable[..., Any], toolbox: str | None = None) -> ToolSpec:
    """Build the ToolSpec of a seed tool; a SeedError names the file, function and field."""
    where = _where(fn)
    if not fn.__doc__ or not fn.__doc__.strip():
        raise SeedError(f"{where}: tool has no docstring (needs a summary, Args and Returns)")
    doc = docstring_parser.parse(fn.__doc__, style=docstring_parser.DocstringStyle.GOOGLE)
    if not doc.short_description:
        raise SeedError(f"{where}: docstring has no one-line summary")
    if doc.long_description and not doc.blank_after_short_description:  # a model would read half a sentence
        raise SeedError(f"{where}: docstring summary runs past one line; keep it to one, then a blank line")
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except Exception as exc:  # a seed's annotation names something undefined
        raise SeedError(f"{where}: cannot resolve type annotations: {exc}") from exc
    arg_docs = {p.arg_name: " ".join((p.description or "").split()) for p in doc.params}

    params = []
    for name, parameter in inspect.signature(fn).parameters.items():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            raise SeedError(f"{where}: parameter {name!r}: *args/**kwargs cannot be described to a model")
        if name not in hints:
            raise SeedError(f"{where}: parameter {name!r} has no type annotation")
        if name not in arg_docs:
            raise SeedError(f"{where}: parameter {name!r} is not described in the docstring's Args")
        try:
            type_, kind, enum = type_name(hints[name])
        except ValueError as exc:
            raise SeedError(f"{where}: parameter {name!r}: {exc}") from exc
        required = parameter.default is inspect.Parameter.empty
        params.append(
            Param(
                name=name,
                type=type_,
                description=arg_docs[name],
                required=required,
                kind=kind.name if kind else None,
                role=kind.role if kind else None,
                enum=enum,
                default=None if required else parameter.default,
            )
        )
    unknown = set(arg_docs) - {p.name for p in params}
    if unknown:
        raise SeedError(f"{where}: docstring describes unknown parameters {sorted(unknown)}")

    returns = _outputs(fn, where, hints.get("return"), _returns_block(doc))
    return ToolSpec(
        name=fn.__name__,
        description=" ".join(doc.short_description.split()),
        parameters=params,
        returns=returns,
        toolbox=toolbox,
    )


def _outputs(fn: Callable[..., Any], where: str, annotation: Any, documented: list[tuple[str, str]]) -> list[Output]:
    if annotation is None or annotation is type(None):
        raise SeedError(f"{where}: tool has no return annotation")
    parts = returned_parts(annotation)
    if len(documented) != len(parts):
        raise SeedError(
            f"{where}: return annotation has {len(parts)} value(s) but the docstring's Returns "
            f"names {len(documented)} (write one 'name: description' line per value)"
        )
    outputs = []
    for (name, desc), part in zip(documented, parts, strict=True):
        try:
            type_, kind, _ = type_name(part)
        except ValueError as exc:
            raise SeedError(f"{where}: return value {name!r}: {exc}") from exc
        outputs.append(Output(name=name, type=type_, description=desc, kind=kind.name if kind else None,
                              role=kind.role if kind else None))
    return outputs


_EXAMPLE_CUE = re.compile(r"\b(?:e\.g\.|for example|for instance|such as|like)\s*,?\s*", re.IGNORECASE)
_EXAMPLE_PART = re.compile(r'"([^"]*)"|“([^”]*)”|([);]|\.(?=\s|$))')


def _example_clauses(text: str) -> list[tuple[int, int, list[str]]]:
    """(where the clause starts, where it ends, its example values) for each example clause: the
    quoted strings after the cue, else the one bare token after "e.g."."""
    clauses = []
    for cue in _EXAMPLE_CUE.finditer(text):
        rest = text[cue.end():]
        quoted, end = [], cue.end()
        for part in _EXAMPLE_PART.finditer(rest):
            if part.group(3) is not None:
                break
            quoted.append(part.group(1) if part.group(1) is not None else part.group(2))
            end = cue.end() + part.end()
        if quoted:
            clauses.append((cue.start(), end, quoted))
        elif cue.group(0).lower().startswith("e.g."):
            bare = re.match(r"[^\s,;)\]]+", rest)
            if bare and bare.group(0).rstrip("."):
                clauses.append((cue.start(), cue.end() + len(bare.group(0).rstrip(".")), [bare.group(0).rstrip(".")]))
    return clauses


def examples_in(text: str) -> list[str]:
    """The example values a description shows (`e.g. "Maria Lopez" or "maria"`, `e.g. CS201`,
    `like "P-10001"`): the quoted strings of the clause after the cue, else the one bare token
    after "e.g."."""
    return [example for _, _, examples in _example_clauses(text) for example in examples]


def without_examples_of(text: str, values: list[Any]) -> str:
    """The text without each example clause that shows one of these values (`, e.g. "Alaska"`,
    `(e.g. 7.6)`), tidied: a tool whose documentation shows a request's literal gives it away."""
    original = text
    for start, end, examples in reversed(_example_clauses(text)):
        shown = frozenset(e.strip().casefold() for e in examples)
        if not any(shows_example(v, shown) for v in values):
            continue
        if text[start:end].count("[") > text[start:end].count("]") and text[end:end + 1] == "]":
            end += 1
        text = text[:start] + text[end:]
    if text == original:
        return text
    text = re.sub(r"\s*,\s*(?=[.;)\]]|$)", "", text)
    text = re.sub(r"\s*\(\s*\)", "", text)
    return re.sub(r"\s+([.;,])", r"\1", re.sub(r"\s{2,}", " ", text)).strip()


def documented_examples(spec: ToolSpec) -> frozenset[str]:
    """Every example value the tool's description and its parameters' and returns' descriptions
    show (an agent reads them without reading the request), case-folded for comparing."""
    texts = [spec.description, *(p.description for p in spec.parameters), *(o.description for o in spec.returns)]
    return frozenset(example.strip().casefold() for text in texts for example in examples_in(text))


def shows_example(value: Any, examples: frozenset[str]) -> bool:
    """Whether a literal value is one of `documented_examples` (text ignoring case, numbers by
    value, a list when any item is)."""
    if isinstance(value, list):
        return any(shows_example(item, examples) for item in value)
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return False
    if isinstance(value, str):
        return value.strip().casefold() in examples
    for example in examples:
        try:
            if float(example) == value:
                return True
        except ValueError:
            continue
    return False
