"""The reader's fast proofs (kow/log/_canon.py): a game's text read by plain json is its
canonical text, or repeats no key, or is read again by the hook that tells; each case
where the fast proof must not hold falls back, with the same value, fault and digest."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kow.cli import main
from kow.log import GameRecord, LogReadError, iter_games_and_faults, read_logs
from kow.log._canon import KeyOrders, measure
from kow.log._records import KEY_ORDERS, _digest


def simulated(seed: int, games: int) -> list[str]:
    """Return ``games`` lines of random bots' games from ``seed``."""
    result = CliRunner().invoke(
        main, ["simulate", "--seed", str(seed), "--games", str(games), "--bots", "random"]
    )
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def compact(value: object) -> str:
    """Return what kow writes of ``value``."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize(
    "value",
    [
        {"a": [1, True, False, None, "xy", [], {}], "b": -12},
        [10, 99, 100, -1, -10, 12345678901234567890, "é"],
        {"": ""},
        [[[[]]]],
    ],
)
def test_measure_gives_the_length_of_the_compact_text(value: object) -> None:
    orders = {("a", "b"), ("",), ()}
    assert measure(value, orders) == (len(compact(value)), compact(value).count(":"))


def test_measure_refuses_floats_and_keys_in_an_order_not_given() -> None:
    assert measure([1.0], ()) == (-1, 0)
    assert measure({"b": 1, "a": {"c": 2}}, {("a", "b"), ("c",)}) == (-1, 3)
    assert measure({"a": 1, "b": {"c": 2, "d": 3}}, {("a", "b")}) == (-1, 4)
    assert measure({"a": 1, "b": {"c": 2, "d": 3}}, {("a", "b"), ("c", "d")}) == (25, 4)
    # An object of one key or none has one order: given or not.
    assert measure({"a": {"c": 2}, "b": {}}, {("a", "b")}) == (20, 3)
    assert measure({"a": {"c": 2}, "b": {}}, KeyOrders({("a", "b")})) == (20, 3)


def read(text: str) -> list[tuple[object, str | None, str | None]]:
    """Return (value, fault, text) of each game of ``text`` as the commands read it."""
    stream = io.BytesIO(text.encode())
    return [
        (e.value, None if e.fault is None else str(e.fault), e.text)
        for e in iter_games_and_faults(stream, unique_keys=True, orders=set(KEY_ORDERS.values()))
    ]


def test_kows_lines_are_canonical_and_their_text_is_kept() -> None:
    lines = simulated(3, 5)
    found = read("\n".join(lines))
    assert [text for _, _, text in found] == lines
    assert [value for value, _, _ in found] == [json.loads(line) for line in lines]


@pytest.mark.parametrize(
    ("text", "value", "column"),
    [
        # Longer than its value's canonical text, and one colon more than it has keys.
        ('{"seat":0,"seat":1}', {"seat": 1}, 11),
        # Colons in strings as many as the keys lost to the repeat: the hook tells.
        ('{"a:":1,"a:":2,"b":"x"}', {"a:": 2, "b": "x"}, 9),
        # Whitespace and a repeat, as simulate --pretty writes games.
        ('{\n  "by": 1,\n  "by": 2\n}', {"by": 2}, 3),
    ],
)
def test_a_repeated_key_the_fast_proof_cannot_rule_out_is_still_found(
    text: str, value: object, column: int
) -> None:
    ((read_value, fault, canonical),) = read(text)
    assert read_value == value and canonical is None
    assert fault is not None and "ambiguous: the key" in fault and f"column {column}:" in fault


@pytest.mark.parametrize(
    "text",
    [
        '{"by":1,"position":2}',  # canonical
        '{"position":2,"by":1}',  # another order: the colons prove it
        '{"by":1,"position":2,"x:y":"a:b"}',  # colons in strings: read again, no repeat
        '{"by":"\\u0041","position":2}',  # an escape: not canonical
        '{"by": 1, "position": 2}',  # whitespace: not canonical
        '{"by":1.0,"position":2}',  # a float: not canonical
    ],
)
def test_a_value_without_repeats_is_read_without_fault(text: str) -> None:
    ((value, fault, canonical),) = read(text)
    assert value == json.loads(text) and fault is None
    assert canonical == (text if text == '{"by":1,"position":2}' else None)


def test_a_game_repeated_in_another_form_is_still_a_repeat(tmp_path: Path) -> None:
    # The digest of a canonical line is of its text; of any other form, of the canonical
    # text made again: the same 16 bytes, whatever the form.
    line = simulated(4, 1)[0]
    game = json.loads(line)
    shuffled = {key: game[key] for key in reversed(list(game))}
    forms = [line, json.dumps(game, indent=2), json.dumps(shuffled), compact(game)]
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(forms) + "\n", encoding="utf-8")
    records = [r for r in read_logs([str(path)]) if isinstance(r, GameRecord)]
    assert [r.text is not None for r in records] == [True, False, False, True]
    assert records[1].note == f"{path}: game 2 (line 2) repeats game 1 whole"
    assert len({_digest(r.game, r.text) for r in records}) == 1
    assert _digest(game, line) == _digest(game)
    assert _digest(game) != _digest({**game, "seed": True})  # true is not 1


def test_measure_walks_no_deeper_than_asked() -> None:
    deep: list[object] = []
    for _ in range(599):
        deep = [deep]  # 600 levels
    assert measure(deep, (), 600) == (1200, 0)
    assert measure(deep, (), 599) == (-1, 0)
    assert measure({"a": [{"b": 1}]}, (), 2) == (-1, 1)  # the inner object is not walked
    assert measure({"a": [{"b": 1}]}, (), 3) == (15, 2)


DEEP = "[" * 512 + "]" * 512  # in an object: 513 levels, one more than is read


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        # Compact, kow's form: the canonical text of a value too deep is not its proof.
        ('{"a":' + DEEP + "}", "line 1, column 517: not readable: this array opens level 513"),
        # Too deep is said first, as before, where a key is also repeated.
        (
            '{"x":' + DEEP + ',"x":1}',
            "line 1, column 517: not readable: this array opens level 513",
        ),
        ('{"x":"\\ud800"}', "line 1, column 7: not JSON: a lone surrogate escape (\\ud800)"),
        ('{"x":1,"x":2}', 'line 1, column 8: ambiguous: the key "x" is repeated'),
    ],
)
def test_compact_text_is_still_refused_as_before(text: str, fault: str) -> None:
    try:
        found = read(text)
    except LogReadError as err:  # a lone surrogate stops the reading
        found = [(None, str(err), None)]
    ((_, said, canonical),) = found
    assert said is not None and said.startswith(fault), said
    assert canonical is None


def test_compact_text_as_deep_as_read_is_canonical() -> None:
    text = '{"a":' + "[" * 511 + "]" * 511 + "}"
    ((_, fault, canonical),) = read(text)
    assert fault is None and canonical == text


def test_measure_tells_orders_that_share_their_first_keys() -> None:
    orders = [("seat", "card"), ("seat", "suit"), ("a", "b", "c"), ("a", "x", "d")]
    assert measure({"seat": 1, "suit": "h"}, orders) == (21, 2)  # {"seat":1,"suit":"h"}
    assert measure({"seat": 1, "card": "Th"}, orders) == (22, 2)
    assert measure({"seat": 1, "knock": True}, orders) == (-1, 2)
    assert measure({"a": 1, "x": 2, "d": 3}, orders) == (19, 3)
    assert measure({"a": 1, "x": 2, "c": 3}, orders) == (-1, 3)  # no order a, x, c
    assert measure({"a": 1, "b": 2}, orders) == (-1, 2)  # no order of two keys from a
    assert measure({1: 2}, ()) == (-1, 1)  # not JSON: a key that is not a string
