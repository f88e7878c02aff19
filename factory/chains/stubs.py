"""Tools and a chain as a model writes them: Python stubs with typed signatures and Google-style
docstrings, and a `main()` whose statements call them (`data0, data1 = f(...)`), the user's raw
task as a comment. Read with `ast` only: nothing a model wrote is executed here.

Real answers are messy, so reading is lenient where meaning is clear (prose or code fences
around the code, a `print`, a temporary variable holding a literal, `Optional[...]`) and strict
where it is not (an untyped parameter, a call of an unknown tool, a truncated file): each
problem is a `StubError` naming what was expected and what was found. `stub_source` and
`main_source` write tools and a chain back in this form (demos, the run's record of a chain).
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from typing import Any

import docstring_parser

from factory.chains.code import ChainParseError, parse_chain
from factory.errors import FactoryError
from factory.records import Chain, Output, Param, ToolSpec
from factory.seeds.specs import _returns_block

_FENCE = re.compile(r"```(?:python|py)?[ \t]*\n(.*?)(?:```|\Z)", re.S)
_SCALARS = {"str": "str", "int": "int", "float": "float", "bool": "bool", "dict": "dict", "list": "list",
            "Dict": "dict", "List": "list"}


class StubError(FactoryError):
    """Model-written tools or chain that cannot be read; the message says what and where."""


@dataclass(frozen=True)
class WrittenChain:
    tools: dict[str, ToolSpec]  # the tools main() calls
    chain: Chain
    task: str  # the user's raw task, from the comment in main()
    code: str  # the code that was read
    returns: list[list[Any] | None]  # per call, the values its `# -> [...]` comment says it returns
    others: dict[str, ToolSpec]  # stubs main() does not call (distractor candidates)


def extract_code(text: str) -> str:
    """The Python in a model's answer: its fenced blocks joined, else the text from its first
    line of code on."""
    blocks = _FENCE.findall(text)
    if blocks:
        return "\n\n".join(b.strip("\n") for b in blocks)
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if re.match(r"\s*(def |from |import |@|class )", line)), 0)
    return "\n".join(lines[start:])


def _annotation(node: ast.expr | None, where: str) -> tuple[str, list[Any] | None, bool]:
    """(type, enum, optional) of an annotation written in source."""
    if node is None:
        raise StubError(f"{where} has no type annotation")
    if isinstance(node, ast.Constant) and isinstance(node.value, str):  # a quoted annotation
        return _annotation(ast.parse(node.value, mode="eval").body, where)
    if isinstance(node, ast.Name) and node.id in _SCALARS:
        return _SCALARS[node.id], None, False
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):  # str | None
        sides = [n for n in (node.left, node.right) if not (isinstance(n, ast.Constant) and n.value is None)]
        if len(sides) == 1:
            return (*_annotation(sides[0], where)[:2], True)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        head, inner = node.value.id, node.slice
        if head == "Optional":
            return (*_annotation(inner, where)[:2], True)
        if head in ("list", "List"):
            item, _, _ = _annotation(inner, where)
            return ("list" if item.startswith("list") else f"list[{item}]"), None, False
        if head in ("dict", "Dict"):
            return "dict", None, False
        if head == "Literal":
            values = [e.value for e in (inner.elts if isinstance(inner, ast.Tuple) else [inner])
                      if isinstance(e, ast.Constant)]
            if values:
                return _SCALARS.get(type(values[0]).__name__, "str"), values, False
        if head == "Annotated":
            first = inner.elts[0] if isinstance(inner, ast.Tuple) else inner
            return _annotation(first, where)
    raise StubError(f"{where} has an unsupported type {ast.unparse(node)!r} (use str, int, float, bool, list[...], dict)")


def _returns(node: ast.expr | None, where: str) -> list[str]:
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        raise StubError(f"{where} declares no return type")
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in ("tuple", "Tuple"):
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return [_annotation(p, where)[0] for p in parts]
    return [_annotation(node, where)[0]]


def tool_from_stub(fn: ast.FunctionDef) -> ToolSpec:
    """A ToolSpec from one function stub's signature and docstring."""
    where = f"tool {fn.name!r}"
    try:
        doc = docstring_parser.parse(ast.get_docstring(fn) or "", style=docstring_parser.DocstringStyle.GOOGLE)
    except docstring_parser.ParseError as exc:
        raise StubError(f"{where}: docstring is not Google style ({exc})") from None
    if not doc.short_description:
        raise StubError(f"{where} has no docstring summary")
    if fn.args.vararg or fn.args.kwarg:
        raise StubError(f"{where} takes *args/**kwargs, which cannot be described to a model")
    described = {p.arg_name: " ".join((p.description or "").split()) for p in doc.params}
    positional = fn.args.posonlyargs + fn.args.args
    defaults = [None] * (len(positional) - len(fn.args.defaults)) + list(fn.args.defaults)
    params = []
    for arg, default in [*zip(positional, defaults, strict=True), *zip(fn.args.kwonlyargs, fn.args.kw_defaults, strict=True)]:
        if arg.arg == "self":
            continue
        type_, enum, optional = _annotation(arg.annotation, f"{where} parameter {arg.arg!r}")
        params.append(Param(name=arg.arg, type=type_, enum=enum, required=default is None and not optional,
                            description=described.get(arg.arg) or arg.arg.replace("_", " ")))
    types = _returns(fn.returns, where)
    named = _returns_block(doc)
    if len(named) != len(types):
        if len(types) == 1 and doc.returns is not None and (doc.returns.description or "").strip():
            named = [("result", " ".join(doc.returns.description.split()))]
        else:
            raise StubError(f"{where} returns {len(types)} value(s) but its docstring's Returns names {len(named)}")
    returns = [Output(name=name, type=type_, description=text) for (name, text), type_ in zip(named, types, strict=True)]
    return ToolSpec(name=fn.name, description=" ".join(doc.short_description.split()), parameters=params, returns=returns)


def _stated_return(line: str) -> list[Any] | None:
    """The values a `# -> [...]` comment after a call says it returns (JSON or Python literals)."""
    match = re.search(r"#\s*->\s*(.+)$", line)
    if not match:
        return None
    text = match.group(1).strip()
    for read in (json.loads, ast.literal_eval):
        try:
            value = read(text)
        except (ValueError, SyntaxError, TypeError):
            continue
        return list(value) if isinstance(value, (list, tuple)) else [value]
    return None


def _main_code(main: ast.FunctionDef, source: str) -> tuple[str, str, list[list[Any] | None]]:
    """main()'s statements as chain code (literal temporaries inlined, prints dropped), its
    leading comments (the user's raw task), and each kept call's stated return values."""
    lines = source.splitlines()
    body = lines[main.lineno:(main.end_lineno or len(lines))]
    comments = [m.group(1).strip() for line in body if (m := re.match(r"\s*#\s?(?!\s*->)(.*)", line))]
    constants: dict[str, ast.expr] = {}
    kept: list[str] = []
    stated: list[list[Any] | None] = []
    for stmt in main.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # a docstring
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and getattr(stmt.value.func, "id", "") == "print":
            continue
        if isinstance(stmt, ast.Return):
            continue
        if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                and not isinstance(stmt.value, ast.Call)):
            try:
                ast.literal_eval(stmt.value)
                constants[stmt.targets[0].id] = stmt.value
                continue
            except ValueError:
                pass
        kept.append(ast.unparse(_Inline(constants).visit(stmt)))
        stated.append(_stated_return(lines[(stmt.end_lineno or stmt.lineno) - 1]))
    return "\n".join(kept), " ".join(comments), stated


class _Inline(ast.NodeTransformer):
    def __init__(self, constants: dict[str, ast.expr]):
        self.constants = constants

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return self.constants.get(node.id, node) if isinstance(node.ctx, ast.Load) else node


def read_written(text: str) -> WrittenChain:
    """Tools and chain from a model's answer; raises StubError with the reason."""
    code = extract_code(text)
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        raise StubError(f"not valid Python (line {exc.lineno}: {exc.msg}); the answer may be truncated") from None
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    main = next((f for f in functions if f.name == "main"), None)
    if main is None:
        raise StubError("no main() function with the calls")
    tools = {f.name: tool_from_stub(f) for f in functions if f.name != "main"}
    if not tools:
        raise StubError("no tool stubs besides main()")
    called = {n.func.id for n in ast.walk(main) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    unknown = sorted(called - set(tools) - {"print"})
    if unknown:
        raise StubError(f"main() calls tools that are not defined: {', '.join(unknown)}")
    chain_code, task, stated = _main_code(main, code)
    try:
        chain = parse_chain(chain_code, tools)
    except ChainParseError as exc:
        raise StubError(f"main(): {exc}") from None
    used = {c.tool for c in chain.calls}
    return WrittenChain({name: tools[name] for name in tools if name in used}, chain, task, code, stated,
                        {name: spec for name, spec in tools.items() if name not in used})


# ---------------------------------------------------------------- writing them (demos, records)


def _written_annotation(type_: str, enum: list[Any] | None = None) -> str:
    if enum:
        return f"Literal[{', '.join(repr(v) for v in enum)}]"
    return type_


def stub_source(spec: ToolSpec) -> str:
    """A tool spec as the Python stub a model is asked to write."""
    params = []
    for p in spec.parameters:
        default = "" if p.required else f" = {p.default!r}"
        params.append(f"{p.name}: {_written_annotation(p.type, p.enum)}{default}")
    returns = [o.type for o in spec.returns]
    annotation = returns[0] if len(returns) == 1 else f"tuple[{', '.join(returns)}]"
    doc = [f'    """{spec.description}', ""]
    if spec.parameters:
        doc += ["    Args:"] + [f"        {p.name}: {p.description}" for p in spec.parameters] + [""]
    doc += ["    Returns:"] + [f"        {o.name}: {o.description}" for o in spec.returns] + ['    """', "    ..."]
    return f"def {spec.name}({', '.join(params)}) -> {annotation}:\n" + "\n".join(doc)


def main_source(task: str, chain_code: str, returns: list[list[Any]]) -> str:
    lines = ["def main():", f"    # {task}"]
    for line, values in zip(chain_code.splitlines(), returns, strict=True):
        lines.append(f"    {line}  # -> {json.dumps(values, ensure_ascii=False)}")
    return "\n".join(lines)
