"""The log's types (kow/log/types.py) and its schema (kow/log/schema.json) stay in step.

For every object of the schema there is one TypedDict with the same keys, in the same
order, the same keys required and optional, and a compatible type for each value: the
schema's ``integer``, ``string``, ``boolean`` and ``null`` are ``int``, ``str``, ``bool``
and ``None``; an array is a ``list`` of its items; an object is its TypedDict; a ``const``
or an ``enum`` is a ``Literal`` of exactly its values, or ``str`` for words kow reads as
text. A new key in the schema, a key dropped, a key made optional, or a value that may
now be null fails here until the types say so. And ``mypy --strict`` refuses a misspelt key.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import textwrap
import types
import typing
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import pytest
from optional import needs

from kow import log
from kow.log import rules_to_log
from kow.rules import Rules

ROOT = Path(__file__).resolve().parents[2]

OBJECTS: dict[str, type] = {
    "#": log.GameLog,
    "#/properties/result": log.ResultLog,
    "#/$defs/rules": log.RulesLog,
    "#/$defs/player": log.PlayerLog,
    "#/$defs/player/properties/settings": log.SettingsLog,
    "#/$defs/play": log.PlayLog,
    "#/$defs/trick": log.TrickLog,
    "#/$defs/cut_card": log.CutCardLog,
    "#/$defs/vote": log.VoteLog,
    "#/$defs/round": log.RoundLog,
    "#/$defs/round/properties/cut": log.CutLog,
}
"""Each object of the schema (by its JSON pointer) and the TypedDict that mirrors it."""

Atom = tuple[Any, ...]
"""One alternative of a value's type: ``("int",)``, ``("str",)``, ``("bool",)``,
``("none",)``, ``("lit", TYPE, VALUE)``, ``("list", ITEMS)`` or ``("typed", NAME)``."""

_SCALARS = {"integer": ("int",), "string": ("str",), "boolean": ("bool",), "null": ("none",)}
_HINTS: dict[Any, Atom] = {int: ("int",), str: ("str",), bool: ("bool",), type(None): ("none",)}


def _objects(node: Any, pointer: str) -> dict[str, dict[str, Any]]:
    """Return every object type of the schema below ``node``, by its JSON pointer."""
    found = {}
    if isinstance(node, dict):
        if node.get("type") == "object":
            found[pointer] = node
        for key, value in node.items():
            found.update(_objects(value, f"{pointer}/{key}"))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found.update(_objects(value, f"{pointer}/{i}"))
    return found


def _resolve(schema: dict[str, Any], pointer: str) -> Any:
    node: Any = schema
    for part in pointer.removeprefix("#/").split("/") if pointer != "#" else []:
        node = node[part]
    return node


def _literal(value: Any) -> Atom:
    return ("lit", type(value).__name__, value)  # 1 and True stay apart


def _from_schema(schema: dict[str, Any], node: dict[str, Any], pointer: str) -> frozenset[Atom]:
    """Return the alternatives of the value that ``node`` (at ``pointer``) allows."""
    if pointer in OBJECTS:
        return frozenset({("typed", OBJECTS[pointer].__name__)})
    if "$ref" in node:
        target = node["$ref"]
        return _from_schema(schema, _resolve(schema, target), target)
    if "const" in node:
        return frozenset({_literal(node["const"])})
    if "enum" in node:
        return frozenset(_literal(v) for v in node["enum"])
    if "anyOf" in node:
        return frozenset().union(
            *(_from_schema(schema, n, f"{pointer}/anyOf/{i}") for i, n in enumerate(node["anyOf"]))
        )
    kinds = node["type"] if isinstance(node["type"], list) else [node["type"]]
    out: set[Atom] = set()
    for kind in kinds:
        if kind == "array":
            out.add(("list", _from_schema(schema, node["items"], f"{pointer}/items")))
        else:
            out.add(_SCALARS[kind])
    return frozenset(out)


def _from_hint(hint: Any) -> frozenset[Atom]:
    """Return the alternatives of the value that the annotation ``hint`` allows."""
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        return frozenset().union(*(_from_hint(arg) for arg in get_args(hint)))
    if origin is Literal:
        return frozenset(_literal(v) for v in get_args(hint))
    if origin is list:
        (items,) = get_args(hint)
        return frozenset({("list", _from_hint(items))})
    if typing.is_typeddict(hint):
        return frozenset({("typed", hint.__name__)})
    return frozenset({_HINTS[hint]})


def _as_text(atoms: frozenset[Atom]) -> frozenset[Atom]:
    """Return ``atoms`` with every string ``Literal`` read as ``str``, in lists too."""
    out: set[Atom] = set()
    for atom in atoms:
        if atom[0] == "lit" and atom[1] == "str":
            out.add(("str",))
        elif atom[0] == "list":
            out.add(("list", _as_text(atom[1])))
        else:
            out.add(atom)
    return frozenset(out)


SCHEMA = log.schema()


def test_every_object_of_the_schema_has_its_typed_dict() -> None:
    assert set(_objects(SCHEMA, "#")) == set(OBJECTS)
    # ... and kow.log offers each, and no other type of a log.
    assert {t.__name__ for t in OBJECTS.values()} == {n for n in log.__all__ if n.endswith("Log")}


@pytest.mark.parametrize("pointer", sorted(OBJECTS))
def test_a_typed_dict_has_the_keys_of_its_object_in_order(pointer: str) -> None:
    node = _resolve(SCHEMA, pointer)
    typed = OBJECTS[pointer]
    assert node["additionalProperties"] is False  # closed, as a TypedDict is
    assert list(get_type_hints(typed)) == list(node["properties"])  # the log's key order
    assert set(typed.__required_keys__) == set(node["required"])  # type: ignore[attr-defined]
    optional = set(node["properties"]) - set(node["required"])
    assert set(typed.__optional_keys__) == optional  # type: ignore[attr-defined]


@pytest.mark.parametrize("pointer", sorted(OBJECTS))
def test_a_typed_dict_types_each_value_as_its_schema_does(pointer: str) -> None:
    node = _resolve(SCHEMA, pointer)
    hints = get_type_hints(OBJECTS[pointer])
    for key, prop in node["properties"].items():
        allowed = _from_schema(SCHEMA, prop, f"{pointer}/properties/{key}")
        typed = _from_hint(hints[key])
        assert typed in (allowed, _as_text(allowed)), (key, allowed, typed)


def test_the_comparison_can_fail() -> None:
    seat_or_null = SCHEMA["$defs"]["trick"]["properties"]["winner"]
    allowed = _from_schema(SCHEMA, seat_or_null, "#/$defs/trick/properties/winner")
    assert _from_hint(int) != allowed and _from_hint(int | None) == allowed
    method = _from_schema(SCHEMA, SCHEMA["$defs"]["trump_method"], "#/$defs/trump_method")
    assert _from_hint(Literal["turned-up", "chosen"]) not in (method, _as_text(method))
    assert _from_hint(Literal[True]) != _from_hint(Literal[1])


def test_rules_to_dict_gives_the_keys_of_rules_log() -> None:
    # Rules.to_dict is typed RulesLog by a cast over dataclasses.asdict: its fields are the keys.
    fields = [f.name for f in dataclasses.fields(Rules)]
    assert fields == list(get_type_hints(log.RulesLog)) == list(rules_to_log(Rules()))


def test_a_log_read_is_the_plain_dict_of_its_json() -> None:
    # The types cost nothing at run time: load gives the dict that json would.
    with open(ROOT / "tests" / "golden" / "seed7.json", "rb") as stream:
        game = log.load(stream)
    assert type(game) is dict and type(game["rounds"][0]["tricks"][0]) is dict


@needs("mypy")
def test_mypy_refuses_a_misspelt_key(tmp_path: Path) -> None:
    source = textwrap.dedent(
        """\
        from kow.log import GameLog

        def good(game: GameLog) -> list[str]:
            rnd = game["rounds"][0]
            plays = rnd["tricks"][0]["plays"]
            won = rnd["tricks_won"]
            return [p.get("card", "knock") for p in plays] + [str(won) if won else ""]

        def bad(game: GameLog) -> object:
            rnd = game["round"][0]  # line 10
            return game["rounds"][0]["tricks"][0]["winer"]  # line 11

        def null(game: GameLog) -> int:
            return game["result"]["winner"] + 1  # line 14: null in a game cut short
        """
    )
    snippet = tmp_path / "snippet.py"
    snippet.write_text(source, encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable, "-m", "mypy", "--strict", "--no-error-summary",
            "--config-file", "", "--cache-dir", str(tmp_path / "cache"), str(snippet),
        ],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    lines = sorted({int(line.split(":")[1]) for line in errors})
    assert lines == [10, 11, 14], done.stdout + done.stderr
    assert 'has no key "round"' in done.stdout and 'has no key "winer"' in done.stdout
