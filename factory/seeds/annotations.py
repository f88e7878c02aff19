"""Type names of Python annotations in the tool type vocabulary (`str`, `list[int]`, `dict`, ...).

Standard library only, so code that must stay light (the sandbox worker naming a function's
return types) can use it without importing pydantic.
"""

from __future__ import annotations

import types
from typing import Annotated, Any, Literal, get_args, get_origin

from factory.toolbox import Kind

_SCALARS = {str: "str", int: "int", float: "float", bool: "bool", dict: "dict", list: "list"}


def type_name(annotation: Any) -> tuple[str, Kind | None, list[Any] | None]:
    """(type, kind, enum) of an annotation; raises ValueError for unsupported types."""
    kind = None
    if get_origin(annotation) is Annotated:
        base, *meta = get_args(annotation)
        kind = next((m for m in meta if isinstance(m, Kind)), None)
        annotation = base
    origin = get_origin(annotation)
    if origin is Literal:
        values = list(get_args(annotation))
        return _SCALARS[type(values[0])], kind, values
    if annotation in _SCALARS:
        return _SCALARS[annotation], kind, None
    if origin is list:
        (item,) = get_args(annotation) or (None,)
        if item is None:
            return "list", kind, None
        item_type, item_kind, _ = type_name(item)
        if item_type.startswith("list"):
            raise ValueError("nested lists are not supported")
        return f"list[{item_type}]", kind or item_kind, None
    if origin is dict:
        return "dict", kind, None
    raise ValueError(f"unsupported type {annotation!r}")


def returned_parts(annotation: Any) -> list[Any]:
    """The annotations of the values a function returns: one per item of `tuple[A, B]`."""
    if get_origin(annotation) is tuple:
        return list(get_args(annotation))
    if isinstance(annotation, types.GenericAlias) and annotation.__origin__ is tuple:
        return list(annotation.__args__)
    return [annotation]
