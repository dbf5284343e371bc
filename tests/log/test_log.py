"""The log package's fast writer, and its reader ``iter_games``.

``kow simulate`` writes compact logs with ``kow.log._writer.game_text``, which writes the
JSON straight from the events; :func:`kow.log.build` with :func:`kow.log.dumps` is the
reference. They must agree byte for byte on every game, whole or cut short at any event.

:func:`kow.log.iter_games` reads JSON values piece by piece: it must give the same values,
lines and error places however the input is cut into chunks, and read one big value in
linear time (few reads and decodes, checked by counting them, not by timing). These tests
read with ``iter_values``, its twin that keeps a top-level array whole (``iter_games``
gives the array's elements: tests/log/test_reader.py).
"""

from __future__ import annotations

import io
import json
import math
from typing import Any

import pytest
from conftest import python_prints
from hypothesis import given, settings
from hypothesis import strategies as st

from kow import log
from kow.game import bots_rng, play_game
from kow.log import LoggedPlayer, _reader, game_text
from kow.players import Player, make_bot
from kow.rules import Rules, max_start_cards
from kow.settings import MAX_SEED


@st.composite
def rules_strategy(draw: st.DrawFn) -> Rules:
    players = draw(st.integers(2, 7))
    return Rules(
        players=players,
        start_cards=draw(st.integers(1, max_start_cards(players))),
        dogs_life=draw(st.sampled_from(["off", "once-per-game", "once-per-player"])),
        trump=draw(st.sampled_from(["winner-chooses", "fixed"])),
        final_round_trump=draw(st.booleans()),
        lead=draw(st.sampled_from(["most-tricks", "dealer-left"])),
        eliminated_vote=draw(st.booleans()),
        sweep_wins=draw(st.booleans()),
    )


NAMES = st.sampled_from(
    ["random-0", "Zoë", 'say "hi"', "back\\slash", "n\u00b7b", "🂡 ace", "x" * 64]
)


def players_for(rules: Rules, seed: int, kinds: list[str], names: list[str]) -> list[Player]:
    rng = bots_rng(seed)
    return [
        make_bot(kinds[s % len(kinds)], names[s % len(names)], rng) for s in range(rules.players)
    ]


@settings(max_examples=150, deadline=None)
@given(
    rules=rules_strategy(),
    seed=st.integers(0, MAX_SEED),
    kinds=st.lists(st.sampled_from(["random", "heuristic"]), min_size=1, max_size=7),
    names=st.lists(NAMES, min_size=1, max_size=7),
    cut=st.floats(0, 1),
)
def test_text_is_the_bytes_of_dumps_build(
    rules: Rules, seed: int, kinds: list[str], names: list[str], cut: float
) -> None:
    players = players_for(rules, seed, kinds, names)
    events = play_game(rules, players, seed).events
    whole = game_text(seed, rules, players, events=events)
    assert whole == log.dumps(log.build(seed, rules, players, events=events))
    assert json.loads(whole)["seed"] == seed
    assert whole.isascii()
    # A game cut short at any event (as kow play saves one), abandoned or not.
    part = events[: int(cut * len(events))]
    for abandoned in (False, True):
        assert game_text(seed, rules, players, events=part, abandoned=abandoned) == log.dumps(
            log.build(seed, rules, players, events=part, abandoned=abandoned)
        )


def test_text_of_every_prefix_of_a_game_with_dogs_votes_and_tie_cuts() -> None:
    rules = Rules(players=5, dogs_life="once-per-player", eliminated_vote=True, sweep_wins=False)
    seen: set[str] = set()
    for seed in range(40):
        players = players_for(rules, seed, ["random", "heuristic"], ["a", "b"])
        events = play_game(rules, players, seed).events
        seen.update(type(ev).__name__ for ev in events)
        for end in range(len(events) + 1):
            part = events[:end]
            assert game_text(seed, rules, players, events=part, abandoned=True) == log.dumps(
                log.build(seed, rules, players, events=part, abandoned=True)
            )
    # Every kind of event came up, so every branch of the writer was compared.
    assert seen >= {"Deal", "TurnedUp", "TieCut", "Vote", "TrumpSet", "Lead", "Play",
                    "Knock", "TrickWon", "RoundEnd", "GameEnd"}  # fmt: skip


def test_a_game_writer_writes_game_texts_bytes_for_every_game_and_prefix() -> None:
    # GameWriter (kow simulate's) checks the players once, then writes what game_text
    # writes: the same one-pass writer, whole games and games cut short at any event.
    rules = Rules(players=5, dogs_life="once-per-game", eliminated_vote=True, sweep_wins=False)
    players = players_for(rules, 3, ["random", "heuristic"], ["a", "b"])
    writer = log.GameWriter(rules, players)
    for seed in range(12):
        events = play_game(rules, players, seed).events
        assert writer.text(seed, events) == game_text(seed, rules, players, events=events)
        for end in range(0, len(events), 7):
            assert writer.text(seed, events[:end]) == log.dumps(
                log.build(seed, rules, players, events=events[:end])
            )
    with pytest.raises(ValueError, match="seed"):
        writer.text(-1, events)
    with pytest.raises(ValueError, match=r"players\[1\]\.kind: 'robot' is no kind"):
        log.GameWriter(rules, [players[0], LoggedPlayer("bo", "robot"), *players[2:]])


@pytest.mark.parametrize("count", [0, 4, 6])
def test_every_writer_refuses_players_that_are_not_one_a_seat(count: int) -> None:
    # A log's players are its seats (rules.players): kow writes no other, and
    # replay_exact (export's proof) relies on it.
    rules = Rules(players=5)
    players = [LoggedPlayer(f"p{i}", "random") for i in range(count)]
    message = rf"players: {count} given for 5 seats \(rules\.players\): one a seat"
    with pytest.raises(ValueError, match=message):
        log.GameWriter(rules, players)
    with pytest.raises(ValueError, match=message):
        game_text(0, rules, players, events=[])
    with pytest.raises(ValueError, match=message):
        log.build(0, rules, players, events=[])


def test_text_of_no_events() -> None:
    rules = Rules()
    players = players_for(rules, 0, ["random"], ["p"])
    assert game_text(0, rules, players, events=[], abandoned=True) == log.dumps(
        log.build(0, rules, players, events=[], abandoned=True)
    )


# ----------------------------------------------------------------------------- reading


class Counted(io.BytesIO):
    """A stream that counts its reads, keeps the largest size asked for, and fails past
    ``limit`` reads (so a reader that reads too often fails fast, not slowly)."""

    def __init__(self, data: bytes, limit: int = 1 << 30) -> None:
        super().__init__(data)
        self.reads = 0
        self.largest = 0
        self.limit = limit

    def read(self, size: int | None = -1, /) -> bytes:
        self.reads += 1
        assert self.reads <= self.limit, f"more than {self.limit} reads"
        self.largest = max(self.largest, size or 0)
        return super().read(size)


def read_all(data: bytes, chunk: int | None = None) -> list[tuple[int, Any]] | str:
    """Return what iter_values gives for ``data`` read in chunks of ``chunk``: the values,
    or the text of its LogReadError."""
    with pytest.MonkeyPatch.context() as mp:
        if chunk is not None:
            mp.setattr(_reader, "_CHUNK", chunk)
        try:
            return list(_reader.iter_values(io.BytesIO(data)))
        except log.LogReadError as err:
            return str(err)


def test_one_big_value_is_read_in_few_reads_and_decoded_in_linear_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_reader, "_CHUNK", 256)
    value = [{"seat": i % 7, "card": "Th", "pad": "x" * (i % 50)} for i in range(20_000)]
    data = json.dumps(value).encode()  # about 1 MB: 4000 chunks of 256 bytes
    decoded = 0
    real = json.JSONDecoder.raw_decode

    def counting(self: json.JSONDecoder, s: str, idx: int = 0) -> tuple[Any, int]:
        nonlocal decoded
        decoded += len(s) - idx
        return real(self, s, idx)

    monkeypatch.setattr(json.JSONDecoder, "raw_decode", counting)
    # The text of a value doubles with each read, so each value takes about log2(n / chunk)
    # reads and is decoded that many times, over text that sums to about 2 n. With a fixed
    # chunk it would take n / chunk = 4000 reads and decode about n**2 / 2 / chunk.
    rounds = math.ceil(math.log2(len(data) / 256)) + 3
    stream = Counted(data + b"\n" + data, limit=2 * rounds)
    games = list(_reader.iter_values(stream))
    assert games == [(1, value), (2, value)]
    assert decoded <= 8 * len(data), (decoded, len(data))


def test_many_small_values_read_one_chunk_at_a_time() -> None:
    stream = Counted(b'{"a": [1, 2, 3]}\n' * 50_000)
    assert sum(1 for _ in log.iter_games(stream)) == 50_000
    assert stream.largest == _reader._CHUNK


def test_a_value_past_the_cap_is_refused_without_reading_far_past_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_reader, "_CHUNK", 64)
    monkeypatch.setattr(_reader, "_MAX_VALUE", 10_000)
    just_under = json.dumps(["x" * 9_000]).encode()
    assert list(_reader.iter_values(Counted(just_under))) == [(1, ["x" * 9_000])]
    stream = Counted(b'\n["' + b"x" * 100_000 + b'"]')
    with pytest.raises(log.LogReadError, match="line 2, column 1: not readable: a value runs"):
        list(_reader.iter_values(stream))
    assert stream.largest <= 10_001 and stream.tell() <= 2 * 10_001


BAD_LATER_VALUE = b'{"a": 1}   {"bb": 2, "c": tru}'


@pytest.mark.parametrize("chunk", [None, 1, 4, 11, 12, 16, 20, 26, 27, 29])
def test_the_column_counts_from_the_start_of_the_line(chunk: int | None) -> None:
    # "tru" starts at column 27 (from 1); the bad value starts at column 12, and chunks of
    # these sizes cut the input before, inside and after it.
    assert read_all(BAD_LATER_VALUE, chunk) == "line 1, column 27: not JSON: Expecting value"
    two_lines = b"[1,\n 2]  " + BAD_LATER_VALUE + b"\n"
    assert read_all(two_lines, chunk) == "line 2, column 32: not JSON: Expecting value"
    assert read_all(b"[1]\n  \n" + BAD_LATER_VALUE, chunk) == (
        "line 3, column 27: not JSON: Expecting value"
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            b'{"a": 1}\n  {"b": "abc',
            "line 2, column 9: not JSON: Unterminated string starting here (the input ends in"
            " it: cut short?)",
        ),
        (b'{"a": "ab\tc"}', "line 1, column 10: not JSON: Invalid control character"),
        (b'{"a": "ab\\x"}', "line 1, column 10: not JSON: Invalid \\escape"),
        (b'["\\u12"]', "line 1, column 4: not JSON: Invalid \\uXXXX escape"),
        (b'{"a" 1}', "line 1, column 6: not JSON: Expecting ':' delimiter"),
    ],
)
@pytest.mark.parametrize("chunk", [None, 1, 5])
def test_error_messages_read_naturally(data: bytes, message: str, chunk: int | None) -> None:
    assert read_all(data, chunk) == message
    assert not message.endswith(" at")


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=12,
)
SPACE = st.text(alphabet=" \t\r\n", max_size=3)


@settings(max_examples=300)
@given(
    values=st.lists(st.tuples(JSON, st.booleans(), SPACE), min_size=1, max_size=5),
    chunk=st.integers(1, 40),
    ascii_only=st.booleans(),
)
def test_values_and_lines_do_not_depend_on_the_chunks(
    values: list[tuple[Any, bool, str]], chunk: int, ascii_only: bool
) -> None:
    text = ""
    expected = []
    for value, pretty, space in values:
        if not isinstance(value, (dict, list, str)) and text and text[-1] not in ' \t\r\n]}"':
            space = " " + space  # two numbers or literals in a row need a space between them
        text += space
        expected.append((text.count("\n") + 1, value))
        text += json.dumps(value, indent=1 if pretty else None, ensure_ascii=ascii_only)
    assert read_all(text.encode(), chunk) == expected


@settings(max_examples=300)
@given(
    values=st.lists(JSON, min_size=1, max_size=4),
    where=st.floats(0, 1),
    bad=st.sampled_from(["x", "}", "]", ",", ":", "\\", '"', "\n", "\t", "-", "tru", "1.", "e5"]),
    chunk=st.integers(1, 40),
)
def test_errors_do_not_depend_on_the_chunks(
    values: list[Any], where: float, bad: str, chunk: int
) -> None:
    text = "\n".join(json.dumps(v, indent=1) for v in values)
    cut = int(where * len(text))
    data = (text[:cut] + bad + text[cut:]).encode()
    assert read_all(data, chunk) == read_all(data, 1 << 20)


def test_bad_utf8_is_placed_on_its_own_line() -> None:
    data = b'{"a": 1}\n{"b": 2}\n{"c": 3}\n\xff\n'
    with pytest.raises(log.LogReadError) as err:
        list(log.iter_games(io.BytesIO(data)))
    assert err.value.line == 4
    assert "byte 28 of the file is 0xff" in str(err.value)


def test_game_text_checks_players_that_differ_from_the_last_checked() -> None:
    # game_text keeps the seats it checked last (a run writes the same players each
    # game); a bad name or kind after good ones is still refused.
    rules = Rules(players=2)
    good = [LoggedPlayer("ada", "heuristic"), LoggedPlayer("bo", "random")]
    state = play_game(rules, [make_bot("random", p.name, bots_rng(1)) for p in good], 1)
    text = game_text(1, rules, good, events=state.events)
    assert game_text(1, rules, good, events=state.events) == text
    with pytest.raises(ValueError, match=r"players\[1\]\.kind: 'robot' is no kind"):
        game_text(1, rules, [good[0], LoggedPlayer("bo", "robot")], events=state.events)
    with pytest.raises(TypeError, match=r"players\[0\] is 7"):
        game_text(1, rules, [7, good[1]], events=state.events)  # type: ignore[list-item]
    assert game_text(1, rules, good, events=state.events) == text


def test_the_readers_the_replay_and_the_types_are_imported_on_first_use() -> None:
    # A process that only writes logs (kow simulate) loads neither; their names work all
    # the same, as the modules' own objects.
    code = (
        "import sys, kow.log\n"
        "print(sorted(m for m in sys.modules if m.startswith('kow.log.')))\n"
        "from kow.log import read_logs, replay\n"
        "import kow.log._records as r, kow.log._replay as p\n"
        "print(read_logs is r.read_logs, replay is p.replay, kow.log.InputEnd is r.InputEnd)\n"
        "import kow.log._reader as d, kow.log.types as t\n"
        "print(kow.log.iter_games is d.iter_games, kow.log.GameLog is t.GameLog)\n"
    )
    out = python_prints(code)
    for lazy in ("kow.log._records", "kow.log._replay", "kow.log._reader", "kow.log.types"):
        assert lazy not in out[0]
    assert "kow.log._writer" in out[0]
    assert out[1] == "True True True"
    assert out[2] == "True True"
    assert set(log.__all__) <= set(dir(log))
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        log.nothing  # noqa: B018
