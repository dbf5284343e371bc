"""Names of a package imported on first use (PEP 562), so that a process loads only the
modules it uses (``kow simulate`` writes logs and reads none; a run on one machine
needs no cluster's code).

:func:`lazy_names` gives a package's module-level ``__getattr__`` and ``__dir__``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(
    package: str, names: Mapping[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """Return the ``__getattr__`` and ``__dir__`` of the package ``package`` (its
    ``__name__``) whose ``names`` map each name imported on first use to its module in the
    package (``{"read_logs": "_records"}``); ``namespace`` is the package's ``globals()``.

    ``__getattr__(name)`` imports the name's module, keeps the name in ``namespace`` (so it
    is looked up once) and returns it; it raises :class:`AttributeError` for any other
    name, as a module does. ``__dir__()`` lists the package's names, those not yet
    imported included.
    """

    def __getattr__(name: str) -> Any:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *names})

    return __getattr__, __dir__
