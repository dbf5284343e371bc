"""Tests that need an optional package skip without it; CI makes those skips failures.

A pytest plugin (``conftest.py`` names it in ``pytest_plugins``, so it sees the doctests
of ``kow/`` as well as ``tests/``). A developer can run the core suite in a light virtual
environment (``pip install -e . pytest hypothesis pytest-xdist pytest-timeout jsonschema
pexpect pyte``): what needs Ray, OpenSpiel, PettingZoo, Gymnasium, DuckDB, pandas or numpy
is skipped, each with its reason ("pandas is not installed"), and so are the doctests of
the framework adapters (``kow/frameworks/``), which cannot be imported without their
framework. ``.ci/run`` sets ``KOW_TEST_REQUIRE_ALL=1``: there each such skip fails, so CI
cannot pass by testing less.
"""

from __future__ import annotations

import importlib.util
import os
import re
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

REQUIRE_ALL = os.environ.get("KOW_TEST_REQUIRE_ALL", "") not in ("", "0")
"""CI's switch (``.ci/run`` sets ``KOW_TEST_REQUIRE_ALL=1``): a test skipped because an
optional package is absent fails instead."""

MISSING_PACKAGE = re.compile(r"(is|are) not installed|could not import")
"""The words of a skip for a missing package: this suite's reasons ("pandas is not
installed") and ``pytest.importorskip``'s ("could not import 'pandas'")."""

FRAMEWORKS = Path(__file__).resolve().parent.parent / "kow" / "frameworks"
ADAPTERS = {
    "openspiel": ("numpy", "pyspiel"),
    "pettingzoo": ("numpy", "gymnasium", "pettingzoo"),
    "gymnasium": ("numpy", "gymnasium"),
    "_gym": ("numpy", "gymnasium"),
}
"""The modules (and packages: every module in them) of ``kow/frameworks/`` that import a
framework, by name, and the packages each needs."""


def absent(packages: tuple[str, ...]) -> list[str]:
    """Return the packages of ``packages`` that cannot be imported here, in order."""
    return [p for p in packages if importlib.util.find_spec(p) is None]


def not_installed(missing: list[str]) -> str:
    """Return the reason of a skip for the packages ``missing``.

    >>> not_installed(["numpy", "pyspiel"])
    'numpy, pyspiel are not installed'
    """
    return f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not installed"


def needs(*packages: str) -> pytest.MarkDecorator:
    """Return a mark that skips a test when a package of ``packages`` is absent, saying which."""
    missing = absent(packages)
    return pytest.mark.skipif(bool(missing), reason=not_installed(missing))


ADAPTER_PACKAGES = ("numpy", "pyspiel", "gymnasium", "pettingzoo")
"""Every package that one framework adapter or another imports."""


def missing_package(report: pytest.CollectReport | pytest.TestReport) -> str | None:
    """Return the reason ``report`` was skipped for a missing package, else None."""
    if not report.skipped:
        return None
    longrepr = report.longrepr
    reason = str(longrepr[2]) if isinstance(longrepr, tuple) else str(longrepr)
    return reason if MISSING_PACKAGE.search(reason) else None


def fail_if_required(report: pytest.CollectReport | pytest.TestReport) -> None:
    """Turn ``report``, skipped for a missing package, into a failure when CI requires all."""
    reason = missing_package(report)
    if REQUIRE_ALL and reason is not None:
        report.outcome = "failed"
        report.longrepr = f"KOW_TEST_REQUIRE_ALL is set, and this was skipped: {reason}"


def skip_adapter_without_framework(
    collector: pytest.Collector, report: pytest.CollectReport
) -> None:
    """Make ``report``, an adapter's doctest module that failed to import, a skip with the
    reason, when a package it needs is absent (see :data:`ADAPTERS`)."""
    path = getattr(collector, "path", None)
    if not report.failed or path is None or FRAMEWORKS not in Path(path).parents:
        return
    adapter = Path(path).relative_to(FRAMEWORKS).parts[0]  # a module, or a package's folder
    missing = absent(ADAPTERS.get(adapter.removesuffix(".py"), ()))
    if missing:
        report.outcome = "skipped"
        report.longrepr = (str(path), 0, f"Skipped: {not_installed(missing)}")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, Any, None]:
    """Fail a test skipped for a missing package under ``KOW_TEST_REQUIRE_ALL``."""
    outcome = yield
    fail_if_required(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, None]:
    """Skip an adapter's doctests without its framework; fail a module skipped for a
    missing package under ``KOW_TEST_REQUIRE_ALL``."""
    outcome = yield
    report = outcome.get_result()
    skip_adapter_without_framework(collector, report)
    fail_if_required(report)
