"""The house stays acyclic: each module of kow imports only modules of lower layers.

The layers are those of ``docs/architecture.md``. Imports made only for type checking
(under ``if TYPE_CHECKING:``) count too when they cross packages (``kow.screen`` naming
``kow.log``'s ``GameLog``): a type is a dependence, and a circle through one is still a
circle. Within one package (the engine's ``_round`` naming its ``State``) they do not: a
package's modules are one unit. No circle is allowed either way. And no function of the
house takes more than three arguments by position.
"""

from __future__ import annotations

import ast
import importlib
import os
from pathlib import Path

import pytest
from conftest import python_prints
from optional import ADAPTER_PACKAGES, absent, not_installed

import kow

KOW = Path(__file__).resolve().parent.parent / "kow"

LAYERS: list[set[str]] = [
    # the vocabulary, and the modules that import nothing of kow
    {"kow.version", "kow.cards", "kow.entries", "kow.stopping", "kow.log._gzip", "kow.log._canon",
     "kow._lazy"},
    {"kow.settings"},
    {"kow.rules", "kow.log._reader"},
    # the oracle: a second statement of the rules, importing nothing else of kow
    {"kow.verify._shape", "kow.verify._table"},
    {"kow.verify._trump"},
    {"kow.verify._walk"},
    {"kow.verify"},
    {"kow.events", "kow.rulebook"},
    # the log's types: what a type checker knows of a log (kow.log re-exports them)
    {"kow.log.types"},
    # the engine
    {"kow.engine.trick", "kow.engine.deal"},
    {"kow.engine.view"},
    {"kow.engine._checks"},
    {"kow.engine._round"},
    {"kow.engine._copies"},
    {"kow.engine._state"},
    {"kow.engine"},
    # the players
    {"kow.players.base", "kow.players.policy", "kow.players.sampling", "kow.players.value"},
    {
        "kow.players.random_bot",
        "kow.players.heuristic",
        "kow.players.inference",
        "kow.players.ismcts",
    },
    {"kow.players.search"},
    {"kow.players"},
    # the game loop (it names the players' type), the text of the game
    {"kow.game", "kow.screen"},
    # the log
    {"kow.log._format", "kow.log._records"},
    {"kow.log._writer", "kow.log._logged"},
    {"kow.log._replay"},
    {"kow.log"},
    # the framework adapters
    {"kow.frameworks", "kow.frameworks.encoding"},
    {"kow.frameworks._gym", "kow.frameworks.openspiel._chance"},
    {"kow.frameworks.openspiel._state"},
    {"kow.frameworks.openspiel._observer", "kow.frameworks.openspiel._bots"},
    {"kow.frameworks.openspiel._game"},
    {"kow.frameworks.openspiel", "kow.frameworks.pettingzoo", "kow.frameworks.gymnasium"},
    # runs of many games, and the tools that read logs
    {"kow.runs", "kow.runs._pool", "kow.runs._rows", "kow.runs.stats", "kow.runs.names"},
    {"kow.runs.executors._local", "kow.runs.executors._ray_tasks"},
    {"kow.runs.executors._cluster"},
    {"kow.runs.executors"},
    {"kow.runs.blocks"},
    {"kow.runs.tournament._results"},
    {"kow.runs.tournament._play", "kow.runs.tournament._tables"},
    {"kow.runs.tournament", "kow.runs.batch", "kow.runs.provenance", "kow.runs.export"},
    {"kow.runs.export_loop"},
    {"kow.runs.analysis"},
    {"kow.runs.analysis_plan"},
    # online play: the protocol, a table, the server, a client's connection (no Click)
    {"kow.online", "kow.online.protocol"},
    {"kow.online.addresses", "kow.online.views", "kow.online.log_file"},
    {"kow.online.table", "kow.online.client", "kow.online.reopen"},
    {"kow.online.server"},
    {"kow.online.running"},
    # the command line
    {"kow.cli._terminal", "kow.cli._files", "kow.cli._pipes", "kow.cli.seats"},
    {"kow.cli._inputs"},
    {"kow.cli.human"},
    {"kow.cli.session"},
    {"kow.cli._options", "kow.cli.remote"},
    {"kow.cli.online"},
    {"kow.cli._resume"},
    # one module per command; no command module imports another
    {
        "kow.cli.commands.simulate",
        "kow.cli.commands.play",
        "kow.cli.commands.tournament",
        "kow.cli.commands.rules",
        "kow.cli.commands.schema",
        "kow.cli.commands.verify",
        "kow.cli.commands.replay",
        "kow.cli.commands.export",
        "kow.cli.commands.analyze",
        "kow.cli.commands.host",
        "kow.cli.commands.join",
        "kow.cli.commands.serve",
    },
    {"kow.cli.commands"},
    {"kow.cli"},
    {"kow.__main__"},
    # the package itself: its public names, for type checkers, come from every layer
    {"kow"},
]
"""Bottom first. Within one layer, modules do not import each other."""


def _modules() -> dict[str, Path]:
    out = {}
    for path in KOW.rglob("*.py"):
        parts = path.relative_to(KOW.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _package(name: str, path: Path) -> str:
    """Return the package that module ``name`` (at ``path``) belongs to: itself for a
    package's ``__init__.py``."""
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _run_time_imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Return the kow modules that ``name`` imports at run time (not for typing only)."""
    return _imported(name, path, known, typing=False)


def _imports(name: str, modules: dict[str, Path]) -> set[str]:
    """Return the kow modules that ``name`` depends on: those it imports at run time, and
    those of another package that it imports for typing only (under ``if TYPE_CHECKING:``).

    ``modules`` maps each module of the house to its path (:func:`_modules`).
    """
    path, known = modules[name], set(modules)
    typing = {
        imported
        for imported in _imported(name, path, known, typing=True)
        if _package(imported, modules[imported]) != _package(name, path)
    }
    return _run_time_imports(name, path, known) | typing


def _imported(name: str, path: Path, known: set[str], *, typing: bool) -> set[str]:
    """Return the kow modules of ``known`` that ``name`` imports: for typing only (in the
    body of an ``if TYPE_CHECKING:``) when ``typing``, else at run time."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only: set[int] = set()
    for block in ast.walk(tree):
        if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test):
            for statement in block.body:
                typing_only.update(id(node) for node in ast.walk(statement))
    package = _package(name, path)
    found = set()
    for node in ast.walk(tree):
        if (id(node) in typing_only) != typing:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                full = f"{module}.{alias.name}"
                found.add(full if full in known else module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m in known and m != name}


def test_every_module_has_a_layer() -> None:
    placed = set().union(*LAYERS)
    assert set(_modules()) == placed


def test_each_module_imports_only_lower_layers() -> None:
    modules = _modules()
    layer_of = {name: i for i, layer in enumerate(LAYERS) for name in layer}
    faults = []
    for name in sorted(modules):
        for imported in sorted(_imports(name, modules)):
            if layer_of[imported] >= layer_of[name] and not name.startswith(imported + "."):
                faults.append(f"{name} (layer {layer_of[name]}) imports {imported} "
                              f"(layer {layer_of[imported]})")  # fmt: skip
    assert faults == []


def _circle(graph: dict[str, set[str]]) -> list[str]:
    """Return a circle of ``graph`` (module to the modules it imports) as the modules met
    along it, the first repeated at the end; or [] when there is none.

    >>> _circle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})
    ['a', 'b', 'c', 'a']
    >>> _circle({"a": {"b"}, "b": set()})
    []
    """
    done: set[str] = set()
    path: list[str] = []

    def walk(node: str) -> list[str]:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return []
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            found = walk(nxt)
            if found:
                return found
        path.pop()
        done.add(node)
        return []

    for start in sorted(graph):
        found = walk(start)
        if found:
            return found
    return []


def _import_graph() -> dict[str, set[str]]:
    """Return each module of kow and the modules it depends on (:func:`_imports`), less
    its own parent packages (which Python imports before it in any case)."""
    modules = _modules()
    return {
        name: {m for m in _imports(name, modules) if not name.startswith(m + ".")}
        for name in modules
    }


def test_the_import_graph_has_no_circle() -> None:
    # The layers above forbid one; this says where it is, should a layer be misplaced.
    assert _circle(_import_graph()) == []


def test_a_circle_through_a_type_only_import_is_found(tmp_path: Path) -> None:
    # The check above can fail: kow.rules once imported the log's type for typing only,
    # and the log imports the rules.
    graph = _import_graph()
    rules = tmp_path / "rules.py"
    rules.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .log import RulesLog\n"
    )
    modules = {**_modules(), "kow.rules": rules}
    graph["kow.rules"] = _imports("kow.rules", modules)
    assert graph["kow.rules"] == {"kow.log"}
    circle = _circle(graph)
    assert circle[0] == circle[-1] and "kow.rules" in circle and "kow.log" in circle
    # A type-only import within one package does not count.
    assert _imports("kow.engine._round", _modules()) == _run_time_imports(
        "kow.engine._round", _modules()["kow.engine._round"], set(_modules())
    )


def test_no_command_module_imports_another() -> None:
    # One module per command (kow/cli/commands/): each holds its options and its output;
    # what commands share lives below them (kow.cli._inputs, kow.cli.online, ...).
    modules = _modules()
    commands = {name for name in modules if name.startswith("kow.cli.commands.")}
    assert {"kow.cli.commands.verify", "kow.cli.commands.analyze"} <= commands
    for name in sorted(commands):
        imported = _run_time_imports(name, modules[name], set(modules))
        source = modules[name].read_text(encoding="utf-8")
        assert not imported & commands, (name, imported & commands)
        assert "from ." + " import" not in source and "from .." + "commands" not in source, name


def test_verify_imports_nothing_else_of_kow() -> None:
    # The oracle is independent of the engine: a fault in one is caught by the other.
    modules = _modules()
    for name, path in modules.items():
        if name.startswith("kow.verify"):
            imported = _run_time_imports(name, path, set(modules))
            assert all(m.startswith("kow.verify") for m in imported), (name, imported)


def test_the_log_imports_no_bot_and_only_the_cli_imports_click() -> None:
    modules = _modules()
    for name, path in modules.items():
        imported = _run_time_imports(name, path, set(modules))
        if name.startswith("kow.log"):
            assert not any(m.startswith("kow.players") for m in imported), name
        source = path.read_text(encoding="utf-8")
        if not name.startswith("kow.cli"):
            assert "import click" not in source, name


def test_no_command_or_import_of_kow_loads_a_framework() -> None:
    # The adapters' frameworks (and numpy) are imported by their adapters alone, so
    # `import kow`, the log, the engine and every command stay as fast with them installed.
    heavy = ("numpy", "pyspiel", "open_spiel", "pettingzoo", "gymnasium")
    code = (
        "import sys, kow, kow.log, kow.engine, kow.frameworks.encoding, kow.players\n"
        "import kow.runs.batch\n"
        "from click.testing import CliRunner\n"
        "from kow.cli import main\n"
        "for args in (['--help'], ['simulate', '--seed', '1'], ['rules'], ['schema']):\n"
        "    assert CliRunner().invoke(main, args).exit_code == 0, args\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {heavy!r}))\n"
    )
    assert python_prints(code) == ["[]"]


HEAVY = ("click", "numpy", "pyspiel", "open_spiel", "pettingzoo", "gymnasium")
"""What the library loads on no account: Click (the command line's alone), numpy and the
frameworks (their adapters' alone)."""

ADAPTERS = (
    "kow.frameworks.openspiel",
    "kow.frameworks.openspiel._bots",
    "kow.frameworks.openspiel._chance",
    "kow.frameworks.openspiel._game",
    "kow.frameworks.openspiel._observer",
    "kow.frameworks.openspiel._state",
    "kow.frameworks.pettingzoo",
    "kow.frameworks.gymnasium",
    "kow.frameworks._gym",
)
"""The modules that load their framework (and numpy) by design, and still never Click."""

_LOADED = (
    "import importlib, sys\n"
    "importlib.import_module(sys.argv[1])\n"
    "print(' '.join(sorted({m.split('.')[0] for m in sys.modules} & set(sys.argv[2:]))))\n"
)


def test_no_library_module_loads_click_numpy_or_a_framework() -> None:
    # Each module alone, in a fresh interpreter: what it loads, through any chain of
    # imports (a text search for "import click" misses `kow._io`-style indirections).
    import subprocess
    import sys

    faults = []
    missing = absent(ADAPTER_PACKAGES)
    for name in sorted(_modules()):
        if name == "kow.__main__" or name == "kow.cli" or name.startswith("kow.cli."):
            continue
        if missing and name in ADAPTERS:
            continue  # it cannot be imported without its framework: said below
        banned = ("click",) if name in ADAPTERS else HEAVY
        loaded = subprocess.run(
            [sys.executable, "-c", _LOADED, name, *banned],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        if loaded:
            faults.append(f"import {name} loads {', '.join(loaded)}")
    assert faults == []
    if missing:
        pytest.skip(f"the adapters not checked: {not_installed(missing)}")


def test_the_cli_does_load_click() -> None:
    # The check above can fail: the same probe sees Click when a module does load it.
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", _LOADED, "kow.cli.session", *HEAVY],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.split() == ["click"]


def test_import_kow_loads_only_the_version_and_offers_the_public_api() -> None:
    # kow/__init__.py imports each public name on first use, so `kow --help` stays fast.
    import kow

    code = "import sys, kow\nprint(sorted(m for m in sys.modules if m.startswith('kow')))\n"
    assert python_prints(code) == ["['kow', 'kow.version']"]  # the version imports nothing
    for name, module in kow.PUBLIC.items():
        assert getattr(kow, name) is getattr(importlib.import_module(module), name), name
    assert set(kow.PUBLIC) <= set(kow.__all__) and set(kow.PUBLIC) <= set(dir(kow))


def test_kow_help_loads_neither_the_engine_nor_the_card_tables() -> None:
    # `kow --help` loads the command line and what its options need, no more: kow.cards
    # builds 32,768 tuples as it loads (40 M instructions, more than a tenth of --help).
    import subprocess
    import sys

    code = (
        "import sys\nfrom kow.cli import main\ntry:\n    main(['--help'])\n"
        "except SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('kow')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    ).stdout  # fmt: skip
    loaded = eval(out.strip().splitlines()[-1])  # noqa: S307 (the list printed above)
    assert "kow.cards" not in loaded and not any(m.startswith("kow.engine") for m in loaded)
    assert "kow.cli.commands" in loaded


def test_the_names_of_moved_modules_import_the_same_modules() -> None:
    # Users' `import kow.openspiel`, `kow.batch.Run`... keep working after the move.
    missing = absent(ADAPTER_PACKAGES)
    for old, new in kow.MOVED.items():
        if missing and new in ADAPTERS:
            continue  # it cannot be imported without its framework: said below
        module = importlib.import_module(old)
        assert module is importlib.import_module(new), old
        assert module.__name__ == new and module.__spec__.name == new, old  # type: ignore[union-attr]
        parent, _, leaf = old.rpartition(".")
        assert getattr(importlib.import_module(parent), leaf) is module, old
    assert kow.MOVED["kow.batch"] + ".Run" == "kow.runs.batch.Run"
    from kow.batch import Run  # type: ignore[import-not-found]

    assert Run is importlib.import_module("kow.runs.batch").Run
    if missing:
        pytest.skip(f"the adapters' old names not checked: {not_installed(missing)}")
    from kow.gymnasium import ENV_ID  # type: ignore[import-not-found]

    assert ENV_ID == "kow/KnockOutWhist-v0"


def test_a_compiled_module_beside_its_source_is_found(tmp_path: Path) -> None:
    # tests/shadowed.py stops a run from a checkout where such a module would be tested
    # instead of its source; here, what it finds.
    from shadowed import shadowing_builds

    engine = tmp_path / "kow" / "engine"
    engine.mkdir(parents=True)
    for name in ("trick.py", "trick.cpython-311-x86_64-linux-gnu.so", "deal.py", "deal.pyd"):
        (engine / name).write_text("")
    (tmp_path / "kow" / "abc123__mypyc.cpython-311-x86_64-linux-gnu.so").write_text("")
    (engine / "view.py").write_text("")
    assert shadowing_builds(tmp_path / "kow") == [
        engine / "deal.pyd",
        engine / "trick.cpython-311-x86_64-linux-gnu.so",
    ]
    assert shadowing_builds(KOW) == []  # this run's own checkout, or it would not have started


def _listed_files() -> set[str]:
    """Return the files that docs/architecture.md's folder listing names, relative to kow/."""
    text = (KOW.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    listing = text.split("\n```\nkow/\n", 1)[1].split("\n```", 1)[0]
    folders: list[str] = []
    listed = set()
    for line in listing.splitlines():
        depth = (len(line) - len(line.lstrip(" "))) // 2 - 1
        names = []
        for word in line.split():
            if not word.endswith((".py", ".json", "/")):
                break
            names.append(word)
        if not names:
            continue  # a description's next line
        del folders[depth:]
        for name in names:
            if name.endswith("/"):
                folders.append(name)
            else:
                listed.add("".join(folders) + name)
    return listed


def test_the_architecture_page_lists_every_file_of_the_folder() -> None:
    files = {
        str(path.relative_to(KOW))
        for path in KOW.rglob("*")
        if path.suffix in (".py", ".json") and "__pycache__" not in path.parts
    }
    assert _listed_files() == files


def test_no_function_takes_more_than_three_arguments_by_position() -> None:
    # House style: keyword-only parameters once a call needs more than three facts, so
    # that two ints of a call cannot be swapped unseen (self and cls not counted), and the
    # same for a dataclass's fields (past a KW_ONLY marker). Click passes its options by
    # keyword, so the commands take them all keyword-only. The one exception is HOT.
    found = []
    for path in sorted(KOW.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names = [a.arg for a in node.args.posonlyargs + node.args.args]
                names = [n for n in names if n not in ("self", "cls")]
                where = f"{path.relative_to(KOW.parent)}:{node.name}"
                if len(names) > 3 and where not in HOT:
                    found.append(f"{path.relative_to(KOW.parent)}:{node.lineno} {node.name}")
            elif isinstance(node, ast.ClassDef) and _positional_fields(node) > 3:
                found.append(f"{path.relative_to(KOW.parent)}:{node.lineno} {node.name}")
    assert found == []


HOT = {"kow/engine/trick.py:won_by"}
"""Functions the trick loop calls once per trick, compiled: a call by keyword into a
mypyc function parses its keywords at each call, which cost 1.3% of ``kow simulate
--bots random`` (instructions counted with callgrind). Their four ints are pinned by the
doctest and the test of each :class:`~kow.events.WonBy` instead."""


def _positional_fields(node: ast.ClassDef) -> int:
    """Return how many fields a dataclass's ``__init__`` takes by position (0 for a class
    that is not a dataclass, or whose fields are all keyword-only)."""
    decorators = [ast.unparse(d) for d in node.decorator_list]
    if not any("dataclass" in d for d in decorators):
        return 0
    if any("kw_only=True" in d for d in decorators):
        return 0
    count = 0
    for item in node.body:
        if not (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)):
            continue
        annotation = ast.unparse(item.annotation)
        if annotation == "KW_ONLY":
            break
        if "ClassVar" not in annotation and "init=False" not in ast.unparse(item.value or item):
            count += 1
    return count
