"""The package's imports go one way: down the layers, never from the library to a command, no circle.

Every import counts, the ones inside functions too (a lazy import is still a dependency), but those under
``if TYPE_CHECKING:`` (the type checker's only). Read from the source with :mod:`ast`, so nothing is
imported to check it.

The same rules are import-linter contracts in pyproject.toml (``[tool.importlinter]``), which ``lint-imports``
checks; :func:`test_the_import_linter_contracts_hold` runs it, and
:func:`test_the_contracts_say_what_the_layers_here_say` checks that they name the same layers, commands and
core as :data:`LAYERS`, :data:`COMMAND_MODULES` and :data:`CORE_MODULES` (change both together; a known
exception goes in :data:`KNOWN_EXCEPTIONS` and in the contract's ``ignore_imports``). Two rules import-linter
cannot say stay only here:

- no import circle between modules (:func:`test_no_import_circle`): its ``acyclic_siblings`` contract counts
  a package as one node, so web and hall, which import each other's modules with no module in a circle,
  would break it;
- the pure core imports the standard library only (:func:`test_the_core_is_pure`): a ``forbidden`` contract
  names the packages it may not import (the contract "core" lists the project's dependencies), not the
  ones it may.
"""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PACKAGE = ROOT / "referee"

#: The commands: argument parsing and a ``main`` for one ``referee ...`` subcommand each. They sit above
#: everything else; the library (every other module) never imports one.
COMMAND_MODULES = frozenset({
    "referee.cli",
    "referee.commands",
    "referee.bench",
    "referee.bench.games",
    "referee.hall.command",
    "referee.synth.command",
    "referee.train",
    "referee.train_classifier",
    "referee.web.standalone",
    "referee.web.__main__",
})

#: The pure core: what it imports of the package, and that in turn, import only the standard library.
CORE_MODULES = ("referee.cards", "referee.contract", "referee.rules")

#: The layers, top first: a module imports only from its own layer and the ones below. Each layer is its
#: module names (a name covers the package under it too).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("commands", tuple(sorted(COMMAND_MODULES))),
    ("web and hall", ("referee.web", "referee.hall")),
    ("session and pipeline", ("referee.session", "referee.session_game", "referee.pipeline", "referee.store",
                              "referee.store_rows", "referee.clips", "referee.readers", "referee.evaluation")),
    ("synth", ("referee.synth",)),  # the generator draws cards and tables as vision reads them
    ("vision and rules", ("referee.vision", "referee.rules")),
    ("cards, contract and words", ("referee", "referee.cards", "referee.contract", "referee.words", "referee.phrases",
                                   "referee.yolo_env")),
)
#: Imports that still break a rule below (up a layer, between vision and rules, or closing a circle), each
#: with what it waits for. Nothing else may.
KNOWN_EXCEPTIONS: dict[tuple[str, str], str] = {
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _resolve(name: str) -> str | None:
    """The package module ``name`` is, or lies in (``referee.rules.Referee`` -> ``referee.rules``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node of ``tree`` but those under ``if TYPE_CHECKING:`` (names for the type checker only)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            for orelse in node.orelse:
                yield orelse
                yield from _nodes(orelse)
            continue
        yield node
        yield from _nodes(node)


def _imported(module: str) -> Iterator[str]:
    """Every package module ``module`` imports when it runs, at any depth of its code."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in _nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            # ``from referee.web import app`` imports the module referee.web.app; ``from referee.rules
            # import Referee`` the package referee.rules.
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
        else:
            continue
        for name in names:
            if name == "referee" or name.startswith("referee."):
                found = _resolve(name)
                if found is not None and found != module:
                    yield found


GRAPH: dict[str, frozenset[str]] = {module: frozenset(_imported(module)) for module in MODULES}


def test_the_command_list_names_modules_that_exist() -> None:
    assert set(MODULES) >= COMMAND_MODULES


@pytest.mark.parametrize("module", sorted(set(MODULES) - COMMAND_MODULES))
def test_no_library_module_imports_a_command(module: str) -> None:
    assert not GRAPH[module] & COMMAND_MODULES, f"{module} imports {sorted(GRAPH[module] & COMMAND_MODULES)}"


def _outside_imports(module: str) -> set[str]:
    """The top-level names ``module`` imports from outside the package and the standard library."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module.split(".")[0])
    return found - set(sys.stdlib_module_names) - {"referee", "__future__"}


def test_the_core_is_pure() -> None:
    """``cards`` and ``rules``, and every package module they import, use the standard library only."""
    reached = {m for m in MODULES if m.startswith(CORE_MODULES)}
    todo = list(reached)
    while todo:
        for other in GRAPH[todo.pop()] - reached:
            reached.add(other)
            todo.append(other)
    impure = {m: sorted(_outside_imports(m)) for m in sorted(reached) if _outside_imports(m)}
    assert not impure, impure


def _layer(module: str) -> int:
    """The index of ``module``'s layer in :data:`LAYERS` (0: the top); the most specific name wins."""
    best: tuple[int, int] | None = None  # (length of the name matched, layer)
    for index, (_, names) in enumerate(LAYERS):
        for name in names:
            if (module == name or module.startswith(name + ".")) and (best is None or len(name) > best[0]):
                best = (len(name), index)
    assert best is not None, f"{module} is in no layer: add it to LAYERS"
    return best[1]


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_down_the_layers(module: str) -> None:
    upward = sorted(other for other in GRAPH[module]
                    if _layer(other) < _layer(module) and (module, other) not in KNOWN_EXCEPTIONS)
    names = [LAYERS[_layer(other)][0] for other in upward]
    assert not upward, f"{module} ({LAYERS[_layer(module)][0]}) imports {upward} from higher layers {names}"


def test_vision_and_rules_know_nothing_of_each_other() -> None:
    for module, imported in GRAPH.items():
        for mine, theirs in (("referee.vision", "referee.rules"), ("referee.rules", "referee.vision")):
            if module.startswith(mine):
                crossing = {m for m in imported if m.startswith(theirs) and (module, m) not in KNOWN_EXCEPTIONS}
                assert not crossing, f"{module} imports {sorted(crossing)}"


def test_the_known_exceptions_are_still_there() -> None:
    """An exception that is no longer needed is taken off the list."""
    for module, other in KNOWN_EXCEPTIONS:
        assert other in GRAPH[module], f"{module} no longer imports {other}: drop it from KNOWN_EXCEPTIONS"


def _cycle() -> list[str] | None:
    """One import circle of the package, if there is one."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for other in sorted(GRAPH[module]):
            if (module, other) in KNOWN_EXCEPTIONS:
                continue
            if state.get(other) == 1:
                return [*path[path.index(other):], other]
            if other not in state and (found := visit(other)) is not None:
                return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(GRAPH):
        if module not in state and (found := visit(module)) is not None:
            return found
    return None


def test_no_import_circle() -> None:
    cycle = _cycle()
    assert cycle is None, " -> ".join(cycle or [])


def test_the_check_sees_a_circle_and_a_lazy_import() -> None:
    """The walk finds imports inside functions (the circle the commands once made went through them)."""
    assert "referee.evaluation" in GRAPH["referee.cli"]  # imported inside _cmd_eval
    assert "referee.rules.referee" in GRAPH["referee.rules"]


def test_the_import_linter_contracts_hold() -> None:
    """``lint-imports`` keeps every contract of pyproject.toml (what CI runs; its report is the failure's message)."""
    assert importlib.util.find_spec("importlinter"), "import-linter is missing: pip install -e '.[dev]'"
    run = subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command as c; c()",
                          "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, f"lint-imports failed:\n{run.stdout}\n{run.stderr}"


def test_the_contracts_say_what_the_layers_here_say() -> None:
    """pyproject.toml's contracts name the layers, commands and core of this file."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    contracts = {contract["id"]: contract for contract in config["contracts"]}
    # The layers, one by one: their top-level modules (import-linter's container is referee). The commands
    # inside web, hall and synth are in the top layer by ignoring what they import; a module LAYERS leaves out
    # is in the bottom layer (LAYERS' "referee"), and the contract names it there.
    exceptions = {f"{module} -> {other}" for module, other in KNOWN_EXCEPTIONS}
    layers = contracts["layers"]
    assert layers["containers"] == ["referee"]
    written = [{f"referee.{tail.strip()}" for tail in layer.replace("|", ":").split(":")} for layer in layers["layers"]]
    top_level = {module for module in MODULES if module.count(".") == 1}
    named = [{name for name in names if name in top_level} for _, names in LAYERS]
    named[-1] |= top_level - set().union(*named)
    assert written == named
    nested = {module for module in COMMAND_MODULES if module.count(".") > 1 and _layer(module.rsplit(".", 1)[0])}
    assert set(layers["ignore_imports"]) - exceptions == {f"{module} -> referee.**" for module in nested}
    commands = contracts["commands"]
    assert set(commands["forbidden_modules"]) == COMMAND_MODULES
    assert set(commands["ignore_imports"]) - exceptions == {f"{module} -> referee.**" for module in COMMAND_MODULES}
    assert contracts["vision-rules"]["modules"] == ["referee.vision", "referee.rules"]
    assert tuple(contracts["core"]["source_modules"]) == CORE_MODULES
    # referee/__init__.py is in the bottom layer: it may import nothing above it.
    above = {name for _, names in LAYERS[:-1] for name in names if name in top_level}
    assert set(contracts["root"]["forbidden_modules"]) == above | {
        f"{name}.**" for name in above if (PACKAGE / name.removeprefix("referee.") / "__init__.py").exists()}
    ignored = {line for contract in contracts.values() for line in contract.get("ignore_imports", ())}
    missing = sorted(exceptions - ignored)
    assert not missing, f"known exceptions no contract ignores: {missing}"
