"""No text from a log reaches a terminal or a table raw (issue 20, kind 2).

Every string a log holds is either refused by ``kow verify`` (the players' names and
``kow_version``, fields the schema constrains; the rules' words, kinds, cards and suits,
fields with fixed values) or shown escaped. Each string field of a log, in turn, and a
key, and a value where an int belongs, is given escape sequences (CSI colour, an OSC
that retitles the terminal, a C1 CSI, a bidirectional override, NUL), and every command
that reads logs runs on it: no control character reaches stdout or stderr.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kow.cli import main
from kow.verify import verify_game

PAYLOAD = "A\x1b[31mred\x1b]0;PWNED\x07\x9b2J\u202eevil\x00"
"""Escape sequences that act on a terminal: CSI colour, OSC title, C1 CSI, RLO, NUL."""

COMMANDS = [
    ["verify"],
    ["verify", "--json"],
    ["verify", "--against-seed"],
    ["verify", "--against-seed", "--json"],
    ["replay"],
    ["replay", "--round", "1"],
    *(["export", "--table", table] for table in ("games", "rounds", "tricks", "plays")),
    *(["export", "--spreadsheet-safe", "--table", t] for t in ("games", "plays")),
    ["analyze", "--iterations", "2", "-q"],
    ["analyze", "--iterations", "2", "-q", "--json"],
]
"""Every command and output form that reads a log (a tournament reads none)."""


def _raw_controls(text: str) -> list[str]:
    """Return the characters of ``text`` that act on a terminal: every one that is not
    printable but the newline (NUL, ESC, BEL, C1 controls, bidirectional overrides...)."""
    return [c for c in text if not c.isprintable() and c != "\n"]


def _run(args: list[str], path: Path) -> tuple[int, str, str]:
    # color=True: Click would strip ANSI colour from what is not a terminal, hiding a leak.
    result = CliRunner().invoke(main, [*args, str(path)], color=True)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


def _strings(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Yield the path of every string in ``node``, a parsed log."""
    if isinstance(node, str):
        yield path
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _strings(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _strings(value, (*path, index))


def _put(game: Any, path: tuple[Any, ...], value: object) -> dict[str, Any]:
    """Return a copy of ``game`` with ``value`` at ``path`` (a new key of an object too)."""
    out = copy.deepcopy(game)
    node: Any = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return out  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def game() -> dict[str, Any]:
    result = CliRunner().invoke(
        main,
        ["simulate", "--seed", "4", "--players", "2", "--start-cards", "2", "--bots", "random"],
    )
    assert result.exit_code == 0, result.output
    loaded: dict[str, Any] = json.loads(result.stdout)
    assert verify_game(loaded) is None
    return loaded


def _nodes(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Yield the path and value of every value in ``node``, a parsed log, itself included."""
    yield path, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _nodes(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _nodes(value, (*path, index))


def _cases(game: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield ``(what, log)``: the payload in each string field, in place of every other
    value (an int, a list, an object...), and as a key of every object."""
    for path in _strings(game):
        if path[-1] in ("name", "kow_version"):  # the payload after plain text
            yield ".".join(map(str, path)) + " (after text)", _put(game, path, "ok" + PAYLOAD)
    for path, value in _nodes(game):
        what = ".".join(map(str, path))
        if path:
            yield what, _put(game, path, PAYLOAD)
        if isinstance(value, dict):
            yield f"a key of {what or 'the game'}", _put(game, (*path, PAYLOAD), 1)


def test_every_string_field_is_covered(game: Any) -> None:
    fields = {[k for k in path if isinstance(k, str)][-1] for path in _strings(game)}
    assert {"format", "kow_version", "name", "kind", "dogs_life", "trump", "lead"} <= fields
    assert {"trump_method", "hands", "card", "turned_up"} <= fields


@pytest.mark.parametrize(
    "raw", [False, True], ids=["escaped in JSON", "raw UTF-8 where JSON allows"]
)
def test_no_control_character_reaches_the_output(
    game: Any, tmp_path: Path, raw: bool
) -> None:
    checked = 0
    for what, log in _cases(game):
        assert verify_game(log) is not None, what  # each such log is refused
        path = tmp_path / "g.jsonl"
        # ensure_ascii=False writes the C1 control and the override raw, as UTF-8.
        path.write_text(json.dumps(log, ensure_ascii=not raw) + "\n", encoding="utf-8")
        for args in COMMANDS:
            code, out, err = _run(args, path)
            assert code == 1, (what, args, out, err)
            assert not _raw_controls(out), (what, args, out)
            assert not _raw_controls(err), (what, args, err)
            checked += 1
    assert checked > 1000


def test_raw_control_characters_in_the_file_are_not_echoed(
    game: Any, tmp_path: Path
) -> None:
    # JSON refuses a raw control character in a string: the reader names the place only.
    text = json.dumps(_put(game, ("players", 0, "name"), PAYLOAD))
    path = tmp_path / "g.jsonl"
    path.write_bytes(text.replace("\\u001b", "\x1b").encode() + b"\n\x1b]0;PWNED\x07\n")
    for args in COMMANDS:
        code, out, err = _run(args, path)
        assert code == 1, (args, out, err)
        assert not _raw_controls(out + err), (args, out, err)


def test_a_verify_fault_shows_the_value_escaped(game: Any, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps(_put(game, ("kow_version",), "0.5\x1b]0;x\x07")) + "\n")
    code, out, _ = _run(["verify"], path)
    assert code == 1
    assert out.splitlines()[0] == (
        f"{path}: game 1 (seed 4): kow_version: '0.5\\x1b]0;x\\x07' is not 1 to 64"
        " printable ASCII characters (space to '~')"
    )
    code, out, _ = _run(["verify", "--json"], path)
    assert json.loads(out)["faults"][0]["message"].startswith("kow_version: '0.5\\x1b]0;x\\x07'")
    assert "\\u001b" not in out  # escaped as repr writes it, not only by JSON


@pytest.mark.parametrize(
    ("version", "legal"),
    [("0.5.0", True), ("1.0.0rc1+local.7 (fork)", True), ("x" * 64, True), ("x" * 65, False),
     ("", False), ("0.5.0\t", False), ("0.5.0\u202e", False), ("0,5 é", False)],
)  # fmt: skip
def test_kow_version_is_printable_ascii(game: Any, version: str, legal: bool) -> None:
    fault = verify_game(_put(game, ("kow_version",), version))
    assert (fault is None) == legal, fault
    if not legal:
        assert fault is not None and fault.message.startswith("kow_version: ")


def test_the_seed_check_names_another_version_printably(
    game: Any, tmp_path: Path
) -> None:
    from kow.runs.provenance import check_against_seed

    log = _put(game, ("kow_version",), "0.1\x1b]0;x\x07")
    log["rounds"][0]["cut"]["position"] = log["rounds"][0]["cut"]["position"] % 51 + 1
    difference = check_against_seed(log)  # type: ignore[arg-type]
    assert difference is not None
    assert "the log is from kow 0.1\\x1b]0;x\\x07)" in difference.message


@pytest.mark.parametrize("legal", [True, False])
def test_a_file_name_is_shown_escaped(game: Any, tmp_path: Path, legal: bool) -> None:
    # A glob can pick up a file whose name holds an escape sequence or an undecodable byte
    # (carried as a lone surrogate): its name is in every message and in the CSV's column.
    path = tmp_path / "g\x1b]0;PWNED\x07\udce9.jsonl"
    shown = "g\\x1b]0;PWNED\\x07\\udce9.jsonl"
    logged = game if legal else _put(game, ("players", 0, "name"), "")
    path.write_text(json.dumps(logged) + "\n")
    for args in COMMANDS:
        code, out, err = _run(args, path)
        assert code == (0 if legal else 1), (args, out, err)
        assert not _raw_controls(out + err), (args, out, err)
        named = shown in out + err or json.dumps(shown)[1:-1] in out  # JSON doubles a \\
        assert named or args[0] == "verify" and legal, (args, out, err)
    if legal:
        _, out, _ = _run(["export", "--table", "games"], path)
        assert out.splitlines()[1].startswith(f"{tmp_path}/{shown},1,")
