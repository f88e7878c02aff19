"""Chains as Python code, the form models write and read:

    data0, data1 = get_top_selling_wine(location="California", date="2025-05-08")
    data2 = get_product_origin(product=data0)

Parsing uses `ast` only; nothing is executed. A `def main():` wrapper is accepted.
"""

from __future__ import annotations

import ast
from typing import Any

from factory.errors import FactoryError
from factory.records import Call, Chain, Ref, ToolSpec, Value


class ChainParseError(FactoryError):
    """Chain code that is not a sequence of `outputs = tool(name=value, ...)` statements."""


def render_chain(chain: Chain) -> str:
    lines = []
    for call in chain.calls:
        args = ", ".join(
            f"{name}={arg.ref}" if isinstance(arg, Ref) else f"{name}={arg.value!r}"
            for name, arg in call.arguments.items()
        )
        target = ", ".join(call.outputs)
        lines.append(f"{target} = {call.tool}({args})" if target else f"{call.tool}({args})")
    return "\n".join(lines)


def _statements(tree: ast.Module) -> list[ast.stmt]:
    body = tree.body
    mains = [s for s in body if isinstance(s, ast.FunctionDef) and s.name == "main"]
    if mains:
        body = mains[0].body
    return [s for s in body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]


def _targets(stmt: ast.stmt) -> tuple[list[str], ast.expr]:
    if isinstance(stmt, ast.Expr):
        return [], stmt.value
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target = stmt.targets[0]
        names = target.elts if isinstance(target, ast.Tuple) else [target]
        if all(isinstance(n, ast.Name) for n in names):
            return [n.id for n in names], stmt.value  # type: ignore[attr-defined]
    if isinstance(stmt, ast.Return) and stmt.value is not None:
        return [], stmt.value
    raise ChainParseError(f"line {stmt.lineno}: expected `outputs = tool(...)`, got {ast.unparse(stmt)!r}")


def _argument(node: ast.expr, bound: set[str], line: int) -> Any:
    if isinstance(node, ast.Name):
        if node.id not in bound:
            raise ChainParseError(f"line {line}: {node.id!r} is used before any call binds it")
        return Ref(ref=node.id)
    try:
        return Value(value=ast.literal_eval(node))
    except ValueError:
        raise ChainParseError(f"line {line}: argument {ast.unparse(node)!r} is neither a literal nor an output") from None


def parse_chain(code: str, specs: dict[str, ToolSpec] | None = None) -> Chain:
    """Parse chain code; positional arguments are named from `specs` when given."""
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        raise ChainParseError(f"line {exc.lineno}: not valid Python: {exc.msg}") from None
    calls: list[Call] = []
    bound: set[str] = set()
    for stmt in _statements(tree):
        outputs, node = _targets(stmt)
        if isinstance(node, ast.Name) and node.id in bound:
            continue  # a trailing `return data3`
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            raise ChainParseError(f"line {stmt.lineno}: expected a call of a tool by name")
        tool = node.func.id
        arguments: dict[str, Any] = {}
        if node.args:
            spec = (specs or {}).get(tool)
            if spec is None or len(node.args) > len(spec.parameters):
                raise ChainParseError(f"line {stmt.lineno}: positional arguments to {tool} cannot be named")
            for param, arg in zip(spec.parameters, node.args, strict=False):
                arguments[param.name] = _argument(arg, bound, stmt.lineno)
        for kw in node.keywords:
            if kw.arg is None:
                raise ChainParseError(f"line {stmt.lineno}: **kwargs are not allowed")
            arguments[kw.arg] = _argument(kw.value, bound, stmt.lineno)
        calls.append(Call(tool=tool, arguments=arguments, outputs=outputs))
        bound.update(outputs)
    if not calls:
        raise ChainParseError("the code contains no tool calls")
    return Chain(calls=calls)
