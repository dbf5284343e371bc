"""The house stays acyclic: each module of kow imports only modules of lower layers.

The layers are those of ``docs/architecture.md``. Imports made only for type checking
(under ``if TYPE_CHECKING:``) do not count: they are not made at run time.
"""

from __future__ import annotations

import ast
from pathlib import Path

KOW = Path(__file__).resolve().parent.parent / "kow"

LAYERS: list[set[str]] = [
    {"kow", "kow.cards", "kow._io", "kow._pool", "kow.log._reader", "kow.entries"},
    {"kow.rules"},
    {"kow.verify._shape", "kow.verify._table"},
    {"kow.verify._trump"},
    {"kow.verify._walk"},
    {"kow.verify"},
    {"kow.events", "kow.rulebook"},
    {"kow.trick", "kow.deal"},
    {"kow.view"},
    {"kow.engine._round"},
    {"kow.engine._search"},
    {"kow.engine._state"},
    {"kow.engine"},
    {"kow.game", "kow.screen", "kow.encoding"},
    {"kow.players.base", "kow.players.policy", "kow.players.sampling", "kow.players.value"},
    {
        "kow.players.random_bot",
        "kow.players.heuristic",
        "kow.players.inference",
        "kow.players.ismcts",
    },
    {"kow.players.search"},
    {"kow.players.human", "kow.players"},
    {"kow.log._format"},
    {"kow.log._writer", "kow.log._replay"},
    {"kow.log"},
    {"kow.openspiel", "kow.pettingzoo", "kow.gymnasium"},
    {"kow.batch", "kow.tournament", "kow.provenance", "kow.tables"},
    {"kow.analysis"},
    {"kow.session"},
    {"kow._options"},
    {"kow._cli_logs"},
    {"kow.cli"},
    {"kow.__main__"},
]
"""Bottom first. Within one layer, modules do not import each other."""


def _modules() -> dict[str, Path]:
    out = {}
    for path in KOW.rglob("*.py"):
        parts = path.relative_to(KOW.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _run_time_imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Return the kow modules that ``name`` imports at run time (not for typing only)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
        for node in ast.walk(block)
    }
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
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
    for name, path in sorted(modules.items()):
        for imported in sorted(_run_time_imports(name, path, set(modules))):
            if layer_of[imported] >= layer_of[name] and not name.startswith(imported + "."):
                faults.append(f"{name} (layer {layer_of[name]}) imports {imported} "
                              f"(layer {layer_of[imported]})")  # fmt: skip
    assert faults == []


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
        if name not in ("kow.cli", "kow._cli_logs", "kow._options", "kow._io"):
            assert "import click" not in source, name


def test_no_command_or_import_of_kow_loads_a_framework() -> None:
    # The adapters' frameworks (and numpy) are imported by their adapters alone, so
    # `import kow`, the log, the engine and every command stay as fast with them installed.
    import subprocess
    import sys

    heavy = ("numpy", "pyspiel", "open_spiel", "pettingzoo", "gymnasium")
    code = (
        "import sys, kow, kow.log, kow.engine, kow.encoding, kow.players, kow.batch\n"
        "from click.testing import CliRunner\n"
        "from kow.cli import main\n"
        "for args in (['--help'], ['simulate', '--seed', '1'], ['rules'], ['schema']):\n"
        "    assert CliRunner().invoke(main, args).exit_code == 0, args\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {heavy!r}))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
