"""Refuse to test a checkout whose sources compiled modules shadow (imported by conftest).

Imported before anything of kow, so that no compiled module is loaded first: a ``.so``
beside ``kow/engine/trick.py`` would be imported instead of it, and the run would test a
build of some earlier source. ``conftest.py`` imports this module first.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parent.parent
"""The checkout these tests belong to."""

CLEAN = "find kow -name '*.so' -delete -o -name '*.pyd' -delete"
"""The command, run in the checkout, that removes compiled modules from its tree."""


def shadowing_builds(package: Path) -> list[Path]:
    """Return the compiled modules under ``package`` that Python imports before a ``.py``.

    A compiled module (``trick.cpython-311-x86_64-linux-gnu.so``, ``trick.pyd``) beside
    ``trick.py`` is imported instead of it, so an edit to the source would not be what
    runs. Sorted paths; empty when every module is its source.
    """
    suffixes = sorted(importlib.machinery.EXTENSION_SUFFIXES + [".so", ".pyd"], key=len)
    found = []
    for built in package.rglob("*"):
        suffix = next((s for s in reversed(suffixes) if built.name.endswith(s)), None)
        if suffix is None or not built.is_file():
            continue
        source = built.with_name(built.name[: -len(suffix)].split(".")[0] + ".py")
        if source.is_file():
            found.append(built)
    return sorted(found)


def refuse_shadowed_sources() -> None:
    """Stop the test run when compiled modules shadow the sources of the checkout's ``kow``.

    Tests run from this checkout import its ``kow``; a compiled module left in the tree
    (by an editable install of kow before issue 34, or ``setup.py build_ext --inplace``)
    would be tested instead of the source beside it. An installed build tested from
    outside the checkout (CI's second run) is not the checkout's ``kow`` and is not
    checked. Exits with pytest's
    usage error (4), naming the files and the command that removes them.
    """
    spec = importlib.util.find_spec("kow")
    if spec is None or spec.origin is None:
        return
    package = Path(spec.origin).resolve().parent
    if package != CHECKOUT / "kow":
        return
    stale = shadowing_builds(package)
    if stale:
        shown = ", ".join(str(p.relative_to(CHECKOUT)) for p in stale[:3])
        more = f" and {len(stale) - 3} more" if len(stale) > 3 else ""
        message = (
            f"compiled modules shadow the checkout's sources ({shown}{more}), so the tests "
            f"would not test the source. Remove them:\n    cd {CHECKOUT} && {CLEAN}\n"
            "and install for development with (an editable install compiles nothing):\n"
            "    pip install -e '.[test]'"
        )
        print(f"ERROR: {message}", file=sys.stderr)
        raise SystemExit(pytest.ExitCode.USAGE_ERROR)


refuse_shadowed_sources()
