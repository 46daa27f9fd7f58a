"""The package's rooms: every module imports only from its own layer or the layers below, and no
modules import each other, directly or in a loop.

The imports are read with ``ast`` (never by importing), including those inside functions and
under ``TYPE_CHECKING``, so a lazy import cannot hide an upward dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "gamelib"

LAYERS = {"games": 1, "search": 2, "play": 3, "view": 4, "teach": 5}
"""Each room's layer; modules outside the rooms (``cli``, ``__main__``, the package itself) sit on
top, at layer 6."""
TOP = 6


def module_name(path: Path) -> str:
    """``gamelib/search/negamax.py`` -> ``gamelib.search.negamax``; a package's ``__init__`` is
    the package."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> int:
    """The layer of a module name of gamelib (``gamelib.play.bots.base`` -> 3)."""
    parts = module.split(".")
    return LAYERS.get(parts[1], TOP) if len(parts) > 1 else TOP


def imported_modules(path: Path, modules: set[str]) -> list[tuple[int, str]]:
    """(line, module) for each import in ``path`` of a module of gamelib, resolving
    ``from gamelib.x import y`` to ``gamelib.x.y`` when that is a module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            assert node.level == 0, f"{path}:{node.lineno}: use absolute imports (from gamelib...)"
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                found.append((node.lineno, full if full in modules else node.module))
    return [(line, name) for line, name in found if name == "gamelib" or name.startswith("gamelib.")]


def import_graph() -> dict[str, list[tuple[int, str]]]:
    """Every module of gamelib and the gamelib modules it imports, with their lines."""
    paths = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    return {name: imported_modules(path, set(paths)) for name, path in sorted(paths.items())}


def upward_imports(graph: dict[str, list[tuple[int, str]]]) -> list[str]:
    """A line for each import from a higher layer than the importer's."""
    return [f"{importer} (layer {layer(importer)}) line {line} imports {imported} (layer {layer(imported)})"
            for importer, imports in graph.items() for line, imported in imports
            if layer(imported) > layer(importer)]


def import_cycles(graph: dict[str, list[tuple[int, str]]]) -> list[list[str]]:
    """The import loops among the modules (each a list of modules, the first repeated last),
    found by depth-first search; a package importing its own submodules does not count as the
    submodules importing the package."""
    edges = {module: sorted({name for _, name in imports if name in graph and name != module})
             for module, imports in graph.items()}
    cycles, state = [], dict.fromkeys(edges, 0)  # 0 unseen, 1 on the path, 2 finished

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in edges[module]:
            if state[target] == 1:
                cycles.append(path[path.index(target):] + [module, target] if target in path
                              else [module, target])
            elif state[target] == 0:
                visit(target, path + [module])
        state[module] = 2

    for module in edges:
        if state[module] == 0:
            visit(module, [])
    return cycles


def test_every_room_is_a_package_with_modules() -> None:
    for room in LAYERS:
        assert (PACKAGE / room / "__init__.py").is_file(), f"gamelib/{room}/ is not a package"
    assert not [path.name for path in PACKAGE.glob("*.py")
                if path.name not in {"__init__.py", "__main__.py", "cli.py"}], "modules outside the rooms"


def test_no_module_imports_from_a_higher_layer() -> None:
    problems = upward_imports(import_graph())
    assert not problems, "imports from a higher layer:\n" + "\n".join(problems)


def test_no_modules_import_each_other() -> None:
    cycles = import_cycles(import_graph())
    assert not cycles, "import loops:\n" + "\n".join(" -> ".join(cycle) for cycle in cycles)


GENERIC = {"gamelib.games", "gamelib.games.game", "gamelib.games.trees", "gamelib.games.multiplayer"}
"""What the search core may import from ``games/``: the protocol and the explicit trees (two-player
and several-player) that the lessons search. A concrete game (Adjacency, tic-tac-toe, Pig) offers
its fast paths through the protocol's optional methods instead."""


def concrete_game_imports(graph: dict[str, list[tuple[int, str]]]) -> list[str]:
    """A line for each import by a ``search`` module of a ``games`` module that is not generic."""
    return [f"{importer} line {line} imports {imported}" for importer, imports in graph.items()
            if importer.startswith("gamelib.search.") for line, imported in imports
            if imported.startswith("gamelib.games") and imported not in GENERIC]


def test_the_search_core_imports_no_concrete_game() -> None:
    problems = concrete_game_imports(import_graph())
    assert not problems, "the search core imports a game:\n" + "\n".join(problems)


def test_a_concrete_game_import_is_named(tmp_path: Path) -> None:
    module = tmp_path / "x.py"
    module.write_text("from gamelib.games.game import Game\nfrom gamelib.games.adjacency import AdjacencyGame\n")
    graph = {"gamelib.search.x": imported_modules(module, {"gamelib.games.game", "gamelib.games.adjacency"})}
    assert concrete_game_imports(graph) == ["gamelib.search.x line 2 imports gamelib.games.adjacency"]


@pytest.mark.parametrize("source, expected", [
    ("from gamelib.teach.quiz import PruningQuiz\n", "gamelib.view.x (layer 4) line 1 imports gamelib.teach.quiz (layer 5)"),
    ("def later():\n    import gamelib.cli\n", "gamelib.view.x (layer 4) line 2 imports gamelib.cli (layer 6)"),
])
def test_an_upward_import_is_named(tmp_path: Path, source: str, expected: str) -> None:
    module = tmp_path / "x.py"
    module.write_text(source)
    graph = {"gamelib.view.x": imported_modules(module, {"gamelib.teach.quiz"})}
    assert upward_imports(graph) == [expected]


def test_a_loop_of_three_is_found() -> None:
    graph = {"gamelib.games.a": [(1, "gamelib.games.b")], "gamelib.games.b": [(1, "gamelib.games.c")],
             "gamelib.games.c": [(3, "gamelib.games.a")], "gamelib.games.d": [(1, "gamelib.games.a")]}
    assert import_cycles(graph) == [["gamelib.games.a", "gamelib.games.b", "gamelib.games.c", "gamelib.games.a"]]
    assert import_cycles({"gamelib.games.a": [(1, "gamelib.games.b")], "gamelib.games.b": []}) == []


def test_what_the_browser_imports_needs_no_server_nor_scipy() -> None:
    """In the browser (Pyodide) there is no jupyter_server, tornado, scipy or numpy: the course's widgets and checks
    must import without them (the app's checker tab, the exercise checks, the explorers). Run in a child
    interpreter in which importing those packages fails."""
    import subprocess
    import sys

    code = ("import sys\n"
            "for name in ('jupyter_server', 'tornado', 'scipy', 'numpy', 'matplotlib', 'voila'):\n"
            "    sys.modules[name] = None\n"
            "import gamelib.teach.app, gamelib.teach.questions, gamelib.teach.quiz, gamelib.view.explorer\n"
            "import gamelib.view.mcts_explorer, gamelib.view.export, gamelib.teach.glossary\n"
            "from gamelib import check_answer, check_function\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
