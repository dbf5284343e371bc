"""kow._lazy: a package's names imported on first use."""

from __future__ import annotations

import sys
import types

import pytest

from kow._lazy import lazy_names


def test_a_name_is_imported_on_first_use_and_kept() -> None:
    namespace: dict[str, object] = {"here": 1}
    getattr_, dir_ = lazy_names("kow.log", {"replay_exact": "_replay"}, namespace)
    assert dir_() == ["here", "replay_exact"]
    found = getattr_("replay_exact")
    assert found is sys.modules["kow.log._replay"].replay_exact
    assert namespace["replay_exact"] is found  # kept: looked up once
    with pytest.raises(AttributeError, match=r"module 'kow.log' has no attribute 'nope'"):
        getattr_("nope")


def test_the_packages_that_use_it_list_and_give_their_lazy_names() -> None:
    import kow.log
    import kow.runs.executors

    for package, name in ((kow.log, "read_logs"), (kow.runs.executors, "check_cluster")):
        assert isinstance(package, types.ModuleType)
        assert name in dir(package)
        assert callable(getattr(package, name))
        with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
            package.no_such_name  # noqa: B018 - the look-up is the test
