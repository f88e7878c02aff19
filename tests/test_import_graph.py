"""The package imports downwards only: no module of `factory/` reaches itself through imports.

Every import statement counts, those inside functions and under TYPE_CHECKING too: an import
moved into a function still closes a circle, it only hides it until the call.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

import factory

PACKAGE = Path(factory.__file__).parent


def _modules(root: Path) -> dict[str, Path]:
    modules = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def _imported(node: ast.AST, package: str) -> list[str]:
    """Dotted names an import statement loads (for `from a import b`, both a.b and a)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        parent = package.split(".")[: len(package.split(".")) - node.level + 1]
        base = ".".join([*parent, base] if base else parent)
    return [base] + [f"{base}.{alias.name}" for alias in node.names]


def _owner(name: str, modules: dict[str, Path]) -> str | None:
    """The module of the package a dotted name lives in (None outside the package)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph(root: Path = PACKAGE) -> nx.DiGraph:
    """Module → every package module it imports, and the packages those live in (their
    `__init__` runs first), except the importer's own packages, which are already loading."""
    modules = _modules(root)
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        own = {".".join(module.split(".")[:i]) for i in range(1, module.count(".") + 1)}
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            for name in _imported(node, package):
                target = _owner(name, modules)
                if target is None:
                    continue
                parts = target.split(".")
                for loaded in {".".join(parts[:i]) for i in range(1, len(parts) + 1)} - own - {module}:
                    graph.add_edge(module, loaded)
    return graph


def test_no_module_of_the_package_imports_itself_round_a_circle():
    circles = [" -> ".join([*c, c[0]]) for c in nx.simple_cycles(import_graph())]
    assert not circles, "import circles:\n" + "\n".join(sorted(circles))


def test_the_graph_sees_a_circle_closed_inside_a_function(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "low.py").write_text("def late():\n    from pkg.high import value\n    return value\n")
    (pkg / "high.py").write_text("from pkg.low import late\nvalue = 1\n")
    assert list(nx.simple_cycles(import_graph(pkg))) != []
