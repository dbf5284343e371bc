"""The build (setup.py) and the test run's own rules (conftest.py): the dev loop of issue 34.

An editable install is pure Python, a regular one compiles ``COMPILED``, the one list of
compiled modules that ``.ci/run`` reads too; and a test skipped for a missing optional
package fails when CI sets ``KOW_TEST_REQUIRE_ALL`` (``tests/optional.py``).
"""

from __future__ import annotations

import ast
import runpy
from pathlib import Path
from typing import Any, Literal

import conftest
import optional
import pytest

ROOT = Path(__file__).resolve().parent.parent


def setup_module_names() -> dict[str, Any]:
    """Return setup.py's names, read without building (it calls setup() only as __main__)."""
    return runpy.run_path(str(ROOT / "setup.py"), run_name="kow_setup")


def test_every_compiled_module_is_a_source_of_kow() -> None:
    compiled = setup_module_names()["COMPILED"]
    assert compiled and len(set(compiled)) == len(compiled)
    for path in compiled:
        assert path.startswith("kow/") and path.endswith(".py"), path
        assert (ROOT / path).is_file(), path
    assert "kow/engine/_state.py" in compiled and "kow/players/models.py" not in compiled


def test_ci_reads_the_one_list_of_compiled_modules_from_setup_py() -> None:
    # .ci/run parses setup.py (ast) for COMPILED rather than keeping a list of its own.
    run = (ROOT / ".ci" / "run").read_text()
    assert "setup.py" in run and "COMPILED" in run
    assert '"kow.engine._state"' not in run and "kow.players.policy" not in run
    tree = ast.parse((ROOT / "setup.py").read_text())
    found = [
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets)
    ]
    assert found == [setup_module_names()["COMPILED"]]


@pytest.mark.parametrize(
    ("argv", "editable"),
    [
        (["setup.py", "editable_wheel", "--dist-dir", "/tmp/x"], True),
        (["setup.py", "develop"], True),
        (["setup.py", "bdist_wheel", "--dist-dir", "/tmp/x"], False),
        (["setup.py", "build_ext"], False),
        (["editable_wheel"], False),  # argv[0] is the script, never a command
    ],
)
def test_an_editable_install_is_told_from_a_regular_one(argv: list[str], editable: bool) -> None:
    assert setup_module_names()["editable"](argv) is editable


def test_an_editable_install_builds_no_compiled_module(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KOW_PURE_PYTHON", raising=False)
    extensions = setup_module_names()["extensions"]
    assert extensions(["setup.py", "editable_wheel", "--dist-dir", "/tmp/x"]) == []
    assert extensions(["setup.py", "develop"]) == []


def test_kow_pure_python_builds_no_compiled_module(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KOW_PURE_PYTHON", "1")
    assert setup_module_names()["extensions"](["setup.py", "bdist_wheel"]) == []


def skipped(
    reason: str, when: Literal["setup", "call", "teardown"] = "setup"
) -> pytest.TestReport:
    """Return the report of a test skipped for ``reason``."""
    return pytest.TestReport(
        nodeid="tests/test_x.py::test_x",
        location=("tests/test_x.py", 1, "test_x"),
        keywords={},
        outcome="skipped",
        longrepr=("tests/test_x.py", 1, f"Skipped: {reason}"),
        when=when,
    )


@pytest.mark.parametrize(
    "reason",
    ["pandas is not installed", "could not import 'duckdb': No module named 'duckdb'"],
)
def test_a_skip_for_a_missing_package_fails_when_ci_requires_all(
    reason: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = skipped(reason)
    monkeypatch.setattr(optional, "REQUIRE_ALL", False)
    optional.fail_if_required(report)
    assert report.skipped
    monkeypatch.setattr(optional, "REQUIRE_ALL", True)
    optional.fail_if_required(report)
    assert report.failed and not report.skipped
    assert (
        report.longrepr == f"KOW_TEST_REQUIRE_ALL is set, and this was skipped: Skipped: {reason}"
    )


def test_another_skip_stays_a_skip_when_ci_requires_all(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(optional, "REQUIRE_ALL", True)
    report = skipped("jq is not on PATH")
    optional.fail_if_required(report)
    assert report.outcome == "skipped"
    assert optional.missing_package(report) is None


def test_the_first_difference_spreads_json_one_value_a_line() -> None:
    pinned = '{"hands":[["Qh","2s"]],"seed":1}\n{"seed":2}\n'
    got = pinned.replace("Qh", "Qs")
    diff = conftest.first_difference(pinned, got).splitlines()
    assert diff[:2] == ["--- pinned", "+++ now"]
    assert [line for line in diff if line[:1] in "+-" and line[:3] not in ("---", "+++")] == [
        '-   "Qh",',
        '+   "Qs",',
    ]
    assert conftest.first_difference(pinned, pinned) == ""


# Top-level modules of kow/ are tested at the top of tests/; each package has a folder.
PACKAGES = ("engine", "players", "log", "verify", "runs", "frameworks", "online", "cli")


def test_tests_mirror_the_packages() -> None:
    # Every package of kow/ has its folder of tests, every folder of tests is a package of
    # kow/, and no two test files share a name (pytest imports each by its name alone).
    packages = {p.name for p in (ROOT / "kow").iterdir() if (p / "__init__.py").is_file()}
    tests = (ROOT / "tests").iterdir()
    folders = {p.name for p in tests if p.is_dir() and any(p.glob("test_*.py"))}
    assert packages == set(PACKAGES) == folders
    names = [p.name for p in (ROOT / "tests").rglob("test_*.py")]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
