"""No production file over 500 lines, no function over 60 (issue 47), but the known exceptions below.

A file counts its lines; a function or method counts from its ``def`` to its last line (a nested function
counts inside its parent and on its own). Read from the source with :mod:`ast`, so nothing is imported to
check it. The list of exceptions only shrinks: one that is no longer needed fails until it is taken off.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PACKAGE = ROOT / "referee"

MAX_FILE_LINES = 500
MAX_FUNCTION_LINES = 60

#: Files and functions still over the limit, each with why. A file is named by its path
#: (``referee/pipeline.py``), a function by its path and qualified name (``referee/cli.py::build_parser``).
KNOWN_EXCEPTIONS: dict[str, str] = {
}


def _files() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, int]]:
    """Every function and method under ``tree``: its qualified name and its length in lines."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert node.end_lineno is not None
            yield prefix + node.name, node.end_lineno - node.lineno + 1
            yield from _functions(node, f"{prefix}{node.name}.")
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node, f"{prefix}{node.name}.")
        else:
            yield from _functions(node, prefix)


def _oversized() -> dict[str, int]:
    """Every file and function over its limit, with its length."""
    found: dict[str, int] = {}
    for path in _files():
        text = path.read_text(encoding="utf-8")
        if (lines := len(text.splitlines())) > MAX_FILE_LINES:
            found[_name(path)] = lines
        for qualname, length in _functions(ast.parse(text)):
            if length > MAX_FUNCTION_LINES:
                found[f"{_name(path)}::{qualname}"] = length
    return found


OVERSIZED = _oversized()


@pytest.mark.parametrize("name", sorted(set(OVERSIZED) - set(KNOWN_EXCEPTIONS)))
def test_nothing_new_is_over_the_limit(name: str) -> None:
    limit = MAX_FUNCTION_LINES if "::" in name else MAX_FILE_LINES
    pytest.fail(f"{name} is {OVERSIZED[name]} lines (at most {limit}): split it, or say why in KNOWN_EXCEPTIONS")


def test_the_known_exceptions_are_still_needed() -> None:
    """An exception that is no longer needed is taken off the list, so the list only shrinks."""
    gone = sorted(set(KNOWN_EXCEPTIONS) - set(OVERSIZED))
    assert not gone, f"within the limit now, drop from KNOWN_EXCEPTIONS: {gone}"


def test_every_exception_says_why() -> None:
    assert all(reason.strip() and "\n" not in reason for reason in KNOWN_EXCEPTIONS.values())


def test_the_check_sees_a_method_and_a_nested_function() -> None:
    tree = ast.parse("class A:\n    def f(self):\n        def g():\n            pass\n        return g\n")
    assert dict(_functions(tree)) == {"A.f": 4, "A.f.g": 2}


def test_it_runs_on_every_module() -> None:
    assert len(_files()) > 100
