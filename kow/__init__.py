"""kow: Knock-Out Whist for the command line.

The folder is the architecture (``docs/architecture.md``), bottom first:

- the vocabulary and the game loop, at the top level: :mod:`kow.cards` (cards and their
  notation), :mod:`kow.entries` (what a person types), :mod:`kow.rules` (the rule settings),
  :mod:`kow.rulebook` (the rules in force as text, with their sources), :mod:`kow.events`
  (seats, actions, phases, one record per kind of event), :mod:`kow.game` (the game loop)
  and :mod:`kow.screen` (cards and events as text);
- :mod:`kow.engine`: the state, its legal actions and the one trick loop, with the rules
  of a trick, the deal and what a seat may know;
- :mod:`kow.players`: the bots; :mod:`kow.log`: the JSON format; :mod:`kow.verify`: an
  independent check of logs;
- :mod:`kow.runs`: runs of many games (batches, tournaments) and the tools that read logs
  (provenance, export, analysis);
- :mod:`kow.frameworks`: the encoding and the adapters to OpenSpiel, PettingZoo and
  Gymnasium, each importing its framework;
- :mod:`kow.cli`: the command line, the only package that imports Click.

The main names are offered here, imported on first use so that ``import kow`` (and
``kow --help``) loads none of them: ``kow.State``, ``kow.Rules``, ``kow.play_game``,
``kow.make_bot``, ``kow.load``... (:data:`__all__` lists them). The modules that moved
into packages keep their old names as aliases of the same module object (``import
kow.openspiel`` is :mod:`kow.frameworks.openspiel`; :data:`MOVED` lists them).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys

from .version import __version__

TYPE_CHECKING = False  # not typing's: importing typing would slow `kow --help` down

PUBLIC: dict[str, str] = {
    "Card": "kow.cards",
    "Suit": "kow.cards",
    "card_name": "kow.cards",
    "parse_card": "kow.cards",
    "Rules": "kow.rules",
    "PRESETS": "kow.rules",
    "Seat": "kow.events",
    "Action": "kow.events",
    "Phase": "kow.events",
    "Outcome": "kow.events",
    "Termination": "kow.events",
    "State": "kow.engine",
    "IllegalActionError": "kow.engine",
    "View": "kow.engine.view",
    "play_game": "kow.game",
    "drive": "kow.game",
    "new_game": "kow.game",
    "Player": "kow.players",
    "make_bot": "kow.players",
    "BOT_KINDS": "kow.players",
    "build": "kow.log",
    "dump": "kow.log",
    "dumps": "kow.log",
    "load": "kow.log",
    "loads": "kow.log",
    "iter_games": "kow.log",
    "replay": "kow.log",
    "verify_game": "kow.verify",
    "Run": "kow.runs.batch",
}
"""Each name of the public API offered by ``kow`` itself, and the module that defines it."""

MOVED: dict[str, str] = {
    "kow.trick": "kow.engine.trick",
    "kow.deal": "kow.engine.deal",
    "kow.view": "kow.engine.view",
    "kow.batch": "kow.runs.batch",
    "kow.tournament": "kow.runs.tournament",
    "kow.provenance": "kow.runs.provenance",
    "kow.tables": "kow.runs.export",
    "kow.analysis": "kow.runs.analysis",
    "kow.encoding": "kow.frameworks.encoding",
    "kow.openspiel": "kow.frameworks.openspiel",
    "kow.pettingzoo": "kow.frameworks.pettingzoo",
    "kow.gymnasium": "kow.frameworks.gymnasium",
    "kow.session": "kow.cli.session",
    "kow.players.human": "kow.cli.human",
}
"""Each public module that moved into a package in 0.6.0, and where it lives now."""

__all__ = ["MOVED", "PUBLIC", "__version__", *PUBLIC]

if TYPE_CHECKING:
    # What the names above are, for type checkers; at run time __getattr__ imports them.
    from types import ModuleType
    from typing import Any

    from kow.cards import Card, Suit, card_name, parse_card  # noqa: F401
    from kow.engine import IllegalActionError, State  # noqa: F401
    from kow.engine.view import View  # noqa: F401
    from kow.events import Action, Outcome, Phase, Seat, Termination  # noqa: F401
    from kow.game import drive, new_game, play_game  # noqa: F401
    from kow.log import build, dump, dumps, iter_games, load, loads, replay  # noqa: F401
    from kow.players import BOT_KINDS, Player, make_bot  # noqa: F401
    from kow.rules import PRESETS, Rules  # noqa: F401
    from kow.runs.batch import Run  # noqa: F401
    from kow.verify import verify_game  # noqa: F401


def __getattr__(name: str) -> Any:
    """Import the module defining ``name`` (a key of :data:`PUBLIC`) and return its value.

    Raises :class:`AttributeError` for any other name.
    """
    module = PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'kow' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later reads skip this function
    return value


def __dir__() -> list[str]:
    """Return the module's names, the lazily imported ones included."""
    return sorted(set(globals()) | set(PUBLIC))


if TYPE_CHECKING:
    from importlib.abc import Loader as _Loader
else:
    _Loader = object  # the protocol is duck-typed: importlib.abc would slow `kow --help`


class _Moved(_Loader):
    """Import a moved module's old name (a key of :data:`MOVED`) as its new module.

    A finder and loader of the import system.
    """

    def find_spec(
        self, fullname: str, path: object = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        """Return a spec for an old name of :data:`MOVED`, None for any other name."""
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        """Return the module at the new name, imported if need be (the same object)."""
        module = importlib.import_module(MOVED[spec.name])
        spec.loader_state = module.__spec__  # the import system sets the old name's spec
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Give the module back its own spec: it has run already, at its new name."""
        assert module.__spec__ is not None
        module.__spec__ = module.__spec__.loader_state


if not any(isinstance(finder, _Moved) for finder in sys.meta_path):
    sys.meta_path.append(_Moved())  # asked last: only names no file answers reach it
