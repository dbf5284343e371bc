"""The version of kow, stated once: the package, every log (``kow_version``) and ``kow
--version`` read it here.

It imports nothing, so a module low in the layers can name the version without importing
:mod:`kow` itself, whose public names (for type checkers) come from every layer.
``CHANGELOG.md`` says what each version changed.
"""

__all__ = ["__version__"]

__version__ = "0.6.0"
