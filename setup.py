"""Build kow: the engine and its hot helpers compiled by mypyc where a C compiler is at hand.

The compiled modules (``COMPILED``) are the engine (the state and its one trick loop, a
round's set-up and end, the copies for search, the checks of its public methods, the
views and facts, the rules of a trick and the deal: ``kow/engine/``), the cards
(``kow/cards.py``), the bots' policies, deals and inference
(``kow/players/policy.py``, ``sampling.py``, ``inference.py``), the
log's fast writer (``kow/log/_writer.py``), the reader's measure of a game's text
(``kow/log/_canon.py``), a logged game's decks and plays read for the engine
(``kow/log/_logged.py``: ``kow export`` replays every game it proves legal), the
frameworks' encoding (``kow/frameworks/encoding.py``: every step of the PettingZoo and
Gymnasium environments writes an observation), ``kow export``'s walk of a game's events
into rows (``kow/runs/_rows.py``) and ``kow verify``'s oracle (``kow/verify/``,
still a second statement of the rules, by design, independent of the engine): the same
source files, compiled, so there is
still one statement of each rule. Every public method of the engine checks its
arguments itself (``kow/engine/_checks.py``), so bad input gets kow's own messages in
both builds.

Each module is compiled on its own and is optional: one that fails to build (no C
compiler, say) stays pure Python, so ``pip install .`` works anywhere. Set
``KOW_PURE_PYTHON=1`` to build pure Python only. An editable install (``pip install -e
.``) is always pure Python: a compiled module beside its source would be imported instead
of it, so an edit would not be what runs (as mypy's and black's checkouts, whose mypyc
builds are opt-in). ``COMPILED`` is the one list of compiled modules: ``.ci/run`` reads it
from this file (without running it) to check that the installed build compiled each one.
``python -c "import kow.engine._state; print(kow.engine._state.__file__)"``, run outside
the checkout (inside it, Python finds the checkout's sources first), tells which one is
installed (``.so``: compiled).

A compiled class cannot be subclassed by Python code (``State``, the decks): mypyc makes
them final. Give a deck of your own as any object with ``cut()`` and ``draw(count)``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

COMPILED = [
    "kow/cards.py",
    "kow/engine/view.py",
    "kow/engine/_state.py",
    "kow/engine/_round.py",
    "kow/engine/_copies.py",
    "kow/engine/_checks.py",
    "kow/verify/_shape.py",
    "kow/verify/_walk.py",
    "kow/verify/_trump.py",
    "kow/verify/_table.py",
    "kow/engine/trick.py",
    "kow/engine/deal.py",
    "kow/players/policy.py",
    "kow/players/sampling.py",
    "kow/players/inference.py",
    "kow/log/_writer.py",
    "kow/log/_canon.py",
    "kow/log/_logged.py",
    "kow/frameworks/encoding.py",
    "kow/runs/_rows.py",
]


EDITABLE = ("editable_wheel", "develop")
"""The setuptools commands of an editable install (PEP 660's, then the legacy one)."""


def editable(argv: Sequence[str]) -> bool:
    """Return whether the command line ``argv`` (``sys.argv``) makes an editable install."""
    return any(arg in EDITABLE for arg in argv[1:])


def extensions(argv: Sequence[str] | None = None) -> list:  # type: ignore[type-arg]
    """Return the mypyc extensions to build for the command line ``argv`` (default
    ``sys.argv``): none for an editable install, none when pure Python is asked
    (``KOW_PURE_PYTHON=1``) or impossible (no mypyc)."""
    if editable(sys.argv if argv is None else argv):
        return []
    if os.environ.get("KOW_PURE_PYTHON", "") not in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        return []
    built = mypycify(COMPILED, opt_level="3", separate=True)
    for extension in built:
        extension.optional = True  # a failed build leaves that module in pure Python
    return built


if __name__ == "__main__":  # setuptools runs this file as __main__; tests read it
    from setuptools import setup

    setup(ext_modules=extensions())
