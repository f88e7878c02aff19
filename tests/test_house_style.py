"""The house's shape: the package follows the line of flow, one folder per stage, with only the
entry point and the shared vocabulary at its top, and no function too long to read at once."""

from __future__ import annotations

import ast
from pathlib import Path

import factory

PACKAGE = Path(factory.__file__).parent
TOP = {"__init__.py", "cli.py", "config.py", "errors.py", "records.py"}
MAX_FUNCTION_LINES = 60


def test_only_the_entry_point_and_the_shared_vocabulary_sit_at_the_top():
    assert {p.name for p in PACKAGE.glob("*.py")} == TOP


def test_no_function_is_longer_than_a_screen():
    long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} {node.name} ({lines} lines)")
    assert not long, "functions over 60 lines:\n" + "\n".join(long)
