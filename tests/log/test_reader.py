"""The log's reader on every input a JSON tool reads, and through ``kow verify``/``replay``.

:func:`kow.log.iter_games` takes what jq and RFC 8259 take and refuses what they refuse,
each fault placed by line and column: a byte-order mark at the start only; no ``NaN`` or
``Infinity`` (Python's json reads them); no literals run together (``1true``); gzip read
by its magic bytes, from files and pipes, with its faults placed; top-level arrays read
element by element as games; an error of the stream told from one of writing. Every case
must give the same answer however the input is cut into reads.
"""

from __future__ import annotations

import errno
import gzip
import io
import json
import os
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from kow import log
from kow.cli import main
from kow.log import LogFormatError, LogReadError, _reader, iter_games, iter_games_and_faults

BOM = b"\xef\xbb\xbf"
CHUNKS = [None, 1, 2, 3, 7]


def read(data: bytes, chunk: int | None = None) -> list[tuple[int, Any]] | str:
    """Return what iter_games gives for ``data`` read in chunks of ``chunk`` bytes: the
    games with their lines, or the text of its LogReadError."""
    with pytest.MonkeyPatch.context() as mp:
        if chunk is not None:
            mp.setattr(_reader, "_CHUNK", chunk)
        try:
            return list(iter_games(io.BytesIO(data)))
        except LogReadError as err:
            return str(err)


# ----------------------------------------------------------------------------- byte-order mark


@pytest.mark.parametrize("chunk", CHUNKS)
def test_a_byte_order_mark_is_skipped_at_the_start(chunk: int | None) -> None:
    assert read(BOM + b'{"a": 1}\n{"b": 2}\n', chunk) == [(1, {"a": 1}), (2, {"b": 2})]
    assert read(BOM, chunk) == []
    # Columns count from after it, as an editor shows the line.
    assert read(BOM + b'{"a" 1}', chunk) == "line 1, column 6: not JSON: Expecting ':' delimiter"
    # Inside a string it is a character like any other.
    assert read(b'["\xef\xbb\xbf"]', chunk) == [(1, "\ufeff")]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"a": 1}\n' + BOM + b'{"b": 2}', "line 2, column 1"),
        (BOM + BOM + b"{}", "line 1, column 1"),
        (b"{}  " + BOM, "line 1, column 5"),
        (b"[{}, " + BOM + b"{}]", "line 1, column 6"),
        (b"[{}" + BOM + b"]", "line 1, column 4"),
    ],
)
@pytest.mark.parametrize("chunk", CHUNKS)
def test_a_byte_order_mark_anywhere_else_is_refused(
    data: bytes, message: str, chunk: int | None
) -> None:
    # As jq 1.6 does: "cat a.jsonl b.jsonl" where b starts with a BOM is not JSON.
    expected = f"{message}: not JSON: a byte-order mark (U+FEFF) may only start the input"
    assert read(data, chunk) == expected


# ----------------------------------------------------------------------------- NaN, Infinity


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"a": 1}\n{"b": [1, NaN]}', "line 2, column 11: not JSON: NaN is not a JSON value"),
        (b"Infinity", "line 1, column 1: not JSON: Infinity is not a JSON value"),
        (b'{"NaN": "Infinity -Infinity \\" NaN",\n "x": -Infinity}',
         "line 2, column 7: not JSON: -Infinity is not a JSON value"),
        (b'[{"a": 1},\n {"b": Infinity}]',
         "line 2, column 8: not JSON: Infinity is not a JSON value"),
    ],
)  # fmt: skip
@pytest.mark.parametrize("chunk", CHUNKS)
def test_nan_and_infinity_are_refused_where_they_stand(
    data: bytes, message: str, chunk: int | None
) -> None:
    assert read(data, chunk) == message


def test_python_json_takes_what_the_reader_refuses() -> None:
    values = [json.loads(token) for token in ("NaN", "Infinity", "-Infinity")]
    assert [str(v) for v in values] == ["nan", "inf", "-inf"]
    assert json.JSONDecoder().raw_decode("1true") == (1, 1)
    assert read(b"NaN") == "line 1, column 1: not JSON: NaN is not a JSON value"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"1true", "line 1, column 1: not JSON: Invalid literal"),
        (b"01", "line 1, column 1: not JSON: Invalid literal"),
        (b"{}\n  null1", "line 2, column 3: not JSON: Invalid literal"),
        (b"1.5e", "line 1, column 1: not JSON: Invalid literal"),
        (b"null null", [(1, None), (1, None)]),
        (b'1"a"[2]{}', [(1, 1), (1, "a"), (1, 2), (1, {})]),
        (b"[1, 2]3", [(1, 1), (1, 2), (1, 3)]),
        (b"[1true]", "line 1, column 3: not JSON: Expecting ',' delimiter"),
    ],
)
@pytest.mark.parametrize("chunk", CHUNKS)
def test_literals_run_together_are_one_bad_token(
    data: bytes, expected: list[tuple[int, Any]] | str, chunk: int | None
) -> None:
    # jq reads "1true" or "01" as one token and refuses it; json would read two values.
    assert read(data, chunk) == expected


# ----------------------------------------------------------------------------- arrays of games


@pytest.mark.parametrize("chunk", CHUNKS)
def test_the_elements_of_a_top_level_array_are_games(chunk: int | None) -> None:
    data = b'[{"a": 1},\n {"b": [2]},\n\n {"c": 3}]\n{"d": 4}\n [\n[1, 2] ] [] [ ]'
    assert read(data, chunk) == [
        (1, {"a": 1}), (2, {"b": [2]}), (4, {"c": 3}), (5, {"d": 4}), (7, [1, 2]),
    ]  # fmt: skip
    assert read(b"[]", chunk) == []


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("[", "Expecting value"),
        ('[{"a": 1}', "Expecting ',' delimiter"),
        ("[1,", "Expecting value"),
        ("[1 2]", "Expecting ',' delimiter"),
        ("[1,]", "Expecting value"),
        ("[1,\n\n ,2]", "Expecting value"),
        ("[1]]", "Expecting value"),
        ("[{}\n x", "Expecting ',' delimiter"),
    ],
)
@pytest.mark.parametrize("chunk", CHUNKS)
def test_a_broken_array_is_placed_where_json_places_it(
    text: str, why: str, chunk: int | None
) -> None:
    with pytest.raises(json.JSONDecodeError) as err:
        json.loads(text)
    place = f"line {err.value.lineno}, column {err.value.colno}"
    ends = " (the input ends here: cut short?)" if err.value.pos >= len(text) else ""
    assert read(text.encode(), chunk) == f"{place}: not JSON: {why}{ends}"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"a": 1, "b":', "line 1, column 14: not JSON: Expecting value (the input ends"
         " here: cut short?)"),
        ('{"a": "xy', "line 1, column 7: not JSON: Unterminated string starting here (the"
         " input ends in it: cut short?)"),
        ('{"a": 1}\n{"b": \n\n', "line 4, column 1: not JSON: Expecting value (the input"
         " ends here: cut short?)"),
        ('{"a" 1}', "line 1, column 6: not JSON: Expecting ':' delimiter"),
        ('{"a": 1} x', "line 1, column 10: not JSON: Expecting value"),
    ],
)  # fmt: skip
@pytest.mark.parametrize("chunk", CHUNKS)
def test_a_log_cut_short_is_said_to_end_there(text: str, said: str, chunk: int | None) -> None:
    # A file cut short (a copy stopped, a disk full) reads as JSON that stops mid-value:
    # the message says so, wherever the reader's chunks end.
    assert read(text.encode(), chunk) == said


def test_a_log_loaded_alone_is_not_taken_out_of_an_array() -> None:
    # log.load reads one value: an array there is not a game.
    with pytest.raises(LogFormatError, match="line 1: a log is a JSON object, not list"):
        log.loads('[{"format": "kow-log", "version": 1}]')
    assert list(_reader.iter_values(io.BytesIO(b"[1, 2] 3"))) == [(1, [1, 2]), (1, 3)]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=8,
)
SPACE = st.text(alphabet=" \t\r\n", max_size=3)


@settings(max_examples=200)
@given(
    elements=st.lists(st.tuples(SPACE, JSON, st.booleans(), SPACE), max_size=5),
    chunk=st.integers(1, 30),
    gzipped=st.booleans(),
)
def test_array_elements_and_their_lines_do_not_depend_on_the_reads(
    elements: list[tuple[str, Any, bool, str]], chunk: int, gzipped: bool
) -> None:
    text = "["
    expected = []
    for i, (before, value, pretty, after) in enumerate(elements):
        text += ("," if i else "") + before
        expected.append((text.count("\n") + 1, value))
        text += json.dumps(value, indent=1 if pretty else None) + after
    text += "]"
    data = gzip.compress(text.encode(), mtime=0) if gzipped else text.encode()
    assert read(data, chunk) == expected


@settings(max_examples=200)
@given(
    values=st.lists(JSON, min_size=1, max_size=4),
    where=st.floats(0, 1),
    bad=st.sampled_from(["x", "]", "[", ",", "\ufeff", "NaN", "-Infinity", "1", "\n"]),
    chunk=st.integers(1, 30),
)
def test_faults_in_arrays_do_not_depend_on_the_reads(
    values: list[Any], where: float, bad: str, chunk: int
) -> None:
    text = json.dumps(values, indent=1)
    cut = int(where * len(text))
    data = (text[:cut] + bad + text[cut:]).encode()
    assert read(data, chunk) == read(data, 1 << 20)


def test_a_big_array_of_games_is_read_in_flat_memory() -> None:
    class Endless:
        """An array of 20 MB of small games, made as it is read."""

        game = b'{"format": "kow-log", "padding": "' + b"x" * 60 + b'"},\n'

        def __init__(self) -> None:
            self.left = 20_000_000 // len(self.game)
            self.started = False

        def read(self, size: int) -> bytes:
            if not self.started:
                self.started = True
                return b"["
            if not self.left:
                return b""
            n = min(self.left, max(1, size // len(self.game)))
            self.left -= n
            return self.game * n + (b"{}]" if not self.left else b"")

    tracemalloc.start()
    count = sum(1 for _ in iter_games(Endless()))  # type: ignore[arg-type, misc]
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert count == 20_000_000 // len(Endless.game) + 1
    assert peak < 2_000_000, f"peak {peak} bytes"


# ----------------------------------------------------------------------------- gzip

TEXT = b'{"a": 1}\n{"b": [2, 3]}\n'
GZ = bytes.fromhex(  # gzip.compress(TEXT, mtime=0), fixed here: zlib builds differ
    "1f8b0800000000000203ab564a54b25230ace5aa564a0232a28d74148c636bb9006ece207917000000"
)
GAMES = [(1, {"a": 1}), (2, {"b": [2, 3]})]
CUT = "not readable: the gzip data ends too soon (the file was cut short)"
CORRUPT = "not readable: the gzip data is corrupt"


def flipped(data: bytes, at: int, mask: int = 0xFF) -> bytes:
    """Return ``data`` with the bits of ``mask`` flipped in its byte ``at``."""
    changed = bytearray(data)
    changed[at] ^= mask
    return bytes(changed)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_gzip_is_read_by_its_first_bytes(chunk: int | None) -> None:
    assert gzip.decompress(GZ) == TEXT
    assert read(GZ, chunk) == GAMES
    assert read(GZ + GZ, chunk) == [*GAMES, (3, {"a": 1}), (4, {"b": [2, 3]})]  # zcat does so
    assert read(gzip.compress(BOM + b'[{"a": 1},\n {"b": 2}]', mtime=0), chunk) == [
        (1, {"a": 1}), (2, {"b": 2}),
    ]  # fmt: skip
    assert read(gzip.compress(b"", mtime=0), chunk) == []


def test_gzip_is_read_from_a_pipe_that_gives_a_byte_at_a_time() -> None:
    class Trickle(io.RawIOBase):
        """A pipe that gives at most one byte per read."""

        def __init__(self, data: bytes) -> None:
            self.data = data

        def readable(self) -> bool:
            return True

        def read(self, size: int = -1) -> bytes:
            byte, self.data = self.data[:1], self.data[1:]
            return byte

    assert list(iter_games(Trickle(GZ))) == GAMES  # type: ignore[arg-type]
    assert list(iter_games(Trickle(TEXT))) == GAMES  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (GZ[:-4], f"line 3, column 1: {CUT}"),
        (GZ[:20], f"line 2, column 1: {CUT}"),
        (GZ[:2], f"line 1, column 1: {CUT}"),
        (flipped(GZ, -8), f"line 3, column 1: {CORRUPT} (CRC check failed)"),
        (flipped(GZ, -1), f"line 3, column 1: {CORRUPT} (length check failed)"),
        (flipped(GZ, 10, 0x55), f"line 1, column 1: {CORRUPT} (invalid block type)"),
        (GZ + b"junk",
         "line 3, column 1: not readable: the gzip data is followed by bytes that are not gzip "
         "data"),
        (b"\x1f\x8bxyz" + b"0" * 30, f"line 1, column 1: {CORRUPT} (Unknown compression method)"),
        (gzip.compress(b'{"a": 1}\n{"b": "\xff"}', mtime=0),
         "line 2, column 8: not UTF-8 text (byte 17 of the decompressed data is 0xff)"),
    ],
)  # fmt: skip
@pytest.mark.parametrize("chunk", CHUNKS)
def test_gzip_cut_short_or_corrupt_is_placed_where_its_text_ends(
    data: bytes, message: str, chunk: int | None
) -> None:
    assert read(data, chunk) == message


# ----------------------------------------------------------------------------- UTF-8, the stream


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"a": 1}\n{"b": "\xff"}',
         "line 2, column 8: not UTF-8 text (byte 17 of the file is 0xff)"),
        (b'["\xc3\x28"]', "line 1, column 3: not UTF-8 text (byte 3 of the file is 0xc3)"),
        (b'["\xc3\xa9", "\xe2\x82"]',
         "line 1, column 8: not UTF-8 text (byte 9 of the file is 0xe2)"),
        (b'{"a": "\xc3', "line 1, column 8: not UTF-8 text (it ends inside a character)"),
        (b"\xff\xfe{\x00}\x00", "line 1, column 1: not UTF-8 text (byte 1 of the file is 0xff: "
         "a UTF-16 byte-order mark, and logs are UTF-8)"),
    ],
)  # fmt: skip
@pytest.mark.parametrize("chunk", CHUNKS)
def test_bytes_that_are_not_utf8_are_placed_by_line_and_column(
    data: bytes, message: str, chunk: int | None
) -> None:
    assert read(data, chunk) == message


UTF16 = "NUL bytes between ASCII characters: this looks like UTF-16 text (with no byte-order mark)"
NUL = "a NUL byte (0x00), which JSON has nowhere (in a string, write \\u0000)"


@pytest.mark.parametrize(
    ("data", "message"),
    [('{"a": 1}\n'.encode("utf-16-le"), f"line 1, column 2: not JSON: {UTF16}, and logs are UTF-8"),
     ('{"a": 1}\n'.encode("utf-16-be"), f"line 1, column 1: not JSON: {UTF16}, and logs are UTF-8"),
     (b'{"a": 1}\n' + '{"b": 2}'.encode("utf-16-le"),
      f"line 2, column 2: not JSON: {UTF16}, and logs are UTF-8"),
     (b'{"a": 1}\n\x00\n', f"line 2, column 1: not JSON: {NUL}"),
     (b'{"a": \x001}', f"line 1, column 7: not JSON: {NUL}"),
     (b'{"a": "x\x00"}', f"line 1, column 9: not JSON: {NUL}")],
)  # fmt: skip
@pytest.mark.parametrize("chunk", CHUNKS)
def test_utf16_and_nul_bytes_are_named_as_such(
    data: bytes, message: str, chunk: int | None
) -> None:
    # Issue 33, 4: named only as json's "Expecting ..." or "Invalid control character".
    assert read(data, chunk) == message


LATIN_1 = b'{"name": "Jos\xe9"}\n'  # a name saved in Latin-1
GZIP_AFTER = gzip.compress(b'{"a": 1}\n', mtime=0)  # cat today.jsonl archive.jsonl.gz
SHORT_GAMES = b"".join(b'{"g": %d, "pad": "%s"}\n' % (i, b"x" * i) for i in range(12))


@pytest.mark.parametrize(
    ("tail", "message"),
    [(LATIN_1, "line 13, column 14: not UTF-8 text (byte 322 of the file is 0xe9)"),
     (GZIP_AFTER, "line 13, column 2: not UTF-8 text (byte 310 of the file is 0x8b)"),
     (b'{"a": "\xc3', "line 13, column 8: not UTF-8 text (it ends inside a character)")],
)  # fmt: skip
def test_every_whole_game_before_a_byte_that_is_not_utf8_is_read(
    tail: bytes, message: str
) -> None:
    # Issue 33, 1: the games decoded in the same read as the bad byte were lost with it,
    # so what was kept depended on the read size. Every size, from one byte to past the
    # whole input, puts the bad byte at another place in its read.
    games = [(i + 1, {"g": i, "pad": "x" * i}) for i in range(12)]
    data = SHORT_GAMES + tail
    for chunk in [*range(1, len(data) + 2), 1 << 16]:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(_reader, "_CHUNK", chunk)
            got: list[tuple[int, Any]] = []
            with pytest.raises(LogReadError) as err:
                got.extend(iter_games(io.BytesIO(data)))
            assert (got, str(err.value)) == (games, message), chunk
            entries: list[Any] = []
            with pytest.raises(LogReadError):
                entries.extend(iter_games_and_faults(io.BytesIO(gzip.compress(data, mtime=0))))
            assert [(e.line, e.value) for e in entries] == games, chunk


def test_the_commands_keep_every_game_before_a_byte_that_is_not_utf8(
    lines: list[str], tmp_path: Path
) -> None:
    data = ("\n".join(lines) + "\n").encode() + LATIN_1
    path = tmp_path / "all.jsonl"
    path.write_bytes(data)
    byte = len(data) - len(LATIN_1) + 14
    for source, piped in ((str(path), None), ("-", data)):
        code, out, err = invoke("verify", source, input=piped)
        assert (code, out) == (1, "3 games in 1 file: 3 legal, 0 faulty, 1 unreadable input\n")
        assert err.endswith(f"4, column 14: not UTF-8 text (byte {byte} of the file is 0xe9)\n")
        code, out, err = invoke("export", "--table", "games", source, input=piped)
        assert code == 1 and [row.split(",")[1] for row in out.splitlines()[1:]] == ["1", "2", "3"]
        code, out, err = invoke("replay", source, "--game", "3", "--ascii", input=piped)
        assert (code, err) == (0, "") and "wins the game" in out  # game 3 is whole


class Failing(io.BytesIO):
    """A stream that gives ``data``, then fails as a disk does (EIO)."""

    def read(self, size: int | None = -1, /) -> bytes:
        data = super().read(size)
        if not data:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        return data


@pytest.mark.parametrize(
    ("data", "place"),
    [(b"", "line 1, column 1"), (b'{"a": 1}\n', "line 2, column 1"),
     (b'{"a": 1}\n{"b": ', "line 2, column 7")],
)  # fmt: skip
@pytest.mark.parametrize("chunk", CHUNKS)
def test_an_error_of_the_stream_is_one_of_reading_placed(
    data: bytes, place: str, chunk: int | None
) -> None:
    # A LogReadError, never an OSError: a caller that writes as it reads takes any OSError
    # for a write's (a closed stdout), and every LogReadError for its input's.
    with pytest.MonkeyPatch.context() as mp:
        if chunk is not None:
            mp.setattr(_reader, "_CHUNK", chunk)
        with pytest.raises(LogReadError) as err:
            list(iter_games(Failing(data)))
    assert str(err.value) == f"{place}: cannot read: {os.strerror(errno.EIO)}"
    long = data + b"\n" * 100_000  # more than one read
    for plain_or_gzip in (long, gzip.compress(long, mtime=0)):
        with pytest.raises(LogReadError) as err:
            list(iter_games(Failing(plain_or_gzip)))
        assert str(err.value).endswith(f", column 1: cannot read: {os.strerror(errno.EIO)}")


# ----------------------------------------------------------------------------- through the commands


def invoke(*args: str, input: bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def lines() -> list[str]:
    code, out, _ = invoke("simulate", "--seed", "5", "--games", "3", "-q")
    assert code == 0
    return out.splitlines()


def verdict(count: int) -> str:
    return f"{count} games in 1 file: {count} legal, 0 faulty\n"


def test_verify_and_replay_read_every_form_of_the_same_games(
    lines: list[str], tmp_path: Path
) -> None:
    jsonl = "\n".join(lines) + "\n"
    code, out, err = invoke("simulate", "--seed", "5", "--games", "3", "-q", "--pretty")
    assert code == 0 and len(out.splitlines()) > 3  # concatenated JSON, not JSON Lines
    forms = {
        "games.jsonl": jsonl.encode(),
        "bom.jsonl": BOM + jsonl.encode(),
        "pretty.json": out.encode(),
        "array.json": ("[" + ",\n".join(lines) + "]").encode(),  # what jq -s writes
        "games.jsonl.gz": gzip.compress(jsonl.encode()),
        "gzip-named-plainly.json": gzip.compress(("[" + ",".join(lines) + "]").encode()),
    }
    told = set()
    for name, data in forms.items():
        path = tmp_path / name
        path.write_bytes(data)
        assert invoke("verify", str(path)) == (0, verdict(3), ""), name
        assert invoke("verify", "-", input=data) == (0, verdict(3), ""), name
        code, out, err = invoke("replay", str(path), "--game", "3", "--ascii")
        assert (code, err) == (0, ""), name
        told.add(out.replace(str(path), "FILE"))
        code, out, err = invoke("replay", "-", "--game", "3", "--ascii", input=data)
        assert (code, err) == (0, ""), name
        told.add(out.replace("stdin", "FILE"))
    assert len(told) == 1  # the same game 3, told the same way


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"{}\n" + BOM + b"{}",
         "line 2, column 1: not JSON: a byte-order mark (U+FEFF) may only start the input"),
        (b'{"a": 1}\n{"b": [1, NaN]}', "line 2, column 11: not JSON: NaN is not a JSON value"),
        (b"{}\n-Infinity", "line 2, column 1: not JSON: -Infinity is not a JSON value"),
        (b"[{}, [] {}]", "line 1, column 9: not JSON: Expecting ',' delimiter"),
        (GZ[:-4], f"line 3, column 1: {CUT}"),
        (flipped(GZ, -8), f"line 3, column 1: {CORRUPT} (CRC check failed)"),
    ],
)  # fmt: skip
def test_verify_and_replay_name_file_line_and_column(
    data: bytes, message: str, tmp_path: Path
) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(data)
    code, out, err = invoke("verify", str(path))
    assert (code, err) == (1, f"{path}: {message}\n")
    assert out.endswith(", 1 unreadable input\n")
    code, out, err = invoke("verify", "-", input=data)
    assert (code, err) == (1, f"stdin: {message}\n")
    code, out, err = invoke("replay", str(path), "--game", "3")
    assert (code, out, err) == (1, "", f"Error: {path}: {message}\n")


def test_simulate_help_says_pretty_is_concatenated_json() -> None:
    code, out, _ = invoke("simulate", "--help")
    assert code == 0
    flat = " ".join(out.split())
    games = "with --pretty, indented objects one after another: concatenated JSON, not JSON Lines"
    pretty = "Several games are then concatenated JSON, not JSON Lines: verify, replay and jq read"
    assert games in flat and pretty in flat


# ----------------------------------------------------------------------------- surrogates


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize(
    ("data", "place", "escape"),
    [
        (b'{"name": "h\\ud800"}', "line 1, column 12", "\\ud800"),
        (b'{"name": "h\\uDC00x"}', "line 1, column 12", "\\uDC00"),
        (b'{"k\\udbff": 1}', "line 1, column 4", "\\udbff"),
        (b'["\\ud83d\\ud83d\\ude00"]', "line 1, column 3", "\\ud83d"),
        (b'"\\ud83d x"', "line 1, column 2", "\\ud83d"),
        (b'{"a": 1}\n[{"b": ["ok", "\\\\ud800", "\\ud800"]}]', "line 2, column 27", "\\ud800"),
    ],
)
def test_a_lone_surrogate_escape_is_refused_where_it_stands(
    chunk: int | None, data: bytes, place: str, escape: str
) -> None:
    # jq 1.6: "Invalid \\uXXXX\\uXXXX surrogate pair escape"; json reads a lone surrogate,
    # a str that no UTF-8 output can take.
    assert read(data, chunk) == (
        f"{place}: not JSON: a lone surrogate escape ({escape}) is not a character"
    )


@pytest.mark.parametrize("chunk", CHUNKS)
def test_surrogate_pairs_and_escaped_backslashes_are_read(chunk: int | None) -> None:
    data = b'{"n": "\\ud83d\\ude00\\uD83D\\uDE00", "m": "\\\\ud800", "o": "\\u00e9\\ud7ff\\ue000"}'
    assert read(data, chunk) == [
        (1, {"n": "\U0001f600" * 2, "m": "\\ud800", "o": "\u00e9\ud7ff\ue000"})
    ]
    with pytest.raises(LogReadError, match=r"line 1, column 3: .*\(\\udfff\)"):
        list(_reader.iter_values(io.BytesIO(b'["\\udfff"]')))


# ---------------------------------------------------- faults of one game: placed, then read on
# issue 20, kinds 5 and 6: a nesting too deep or an integer too long was placed at its
# game's start and stopped the reading; a repeated key was taken without a word.

DEEP = "[" * (log.MAX_DEPTH + 1) + "]" * (log.MAX_DEPTH + 1)
VERY_DEEP = "[" * 50_000 + "]" * 50_000
LONG = "7" * 5_000


def entries(data: bytes, chunk: int | None = None, unique_keys: bool = True) -> list[Any]:
    """Return ``(line, value, fault text)`` for each entry of ``data``, or the error's text."""
    with pytest.MonkeyPatch.context() as mp:
        if chunk is not None:
            mp.setattr(_reader, "_CHUNK", chunk)
        got: list[Any] = []
        try:
            for e in log.iter_games_and_faults(io.BytesIO(data), unique_keys=unique_keys):
                got.append((e.line, e.value, None if e.fault is None else str(e.fault)))
        except LogReadError as err:
            got.append(str(err))
        return got


@pytest.mark.parametrize("chunk", [None, 1, 7])
@pytest.mark.parametrize(
    ("bad", "column", "why"),
    [
        ('{"x": ' + DEEP + "}", 6 + log.MAX_DEPTH, "not readable: this array opens level 513"),
        ('{"x": ' + VERY_DEEP + "}", 6 + log.MAX_DEPTH, "not readable: this array opens level"),
        ('{"x": [1, ' + LONG + "]}", 11, "not readable: an integer of 5000 digits"),
        ('{"x": 1,\t"x": 2}', 10, 'ambiguous: the key "x" is repeated in this object'),
    ],
)
def test_a_fault_of_one_game_is_placed_and_the_next_games_are_read(
    chunk: int | None, bad: str, column: int, why: str
) -> None:
    data = f'{{"a": 1}}\n  {bad}\n{{"b": 2}}\n[{{"c": 3}}, {bad}, {{"d": 4}}]\n'.encode()
    got = entries(data, chunk)
    assert [(line, value) for line, value, _ in got if _ is None] == [
        (1, {"a": 1}), (3, {"b": 2}), (4, {"c": 3}), (4, {"d": 4})
    ]  # fmt: skip
    faults = [(line, fault) for line, _, fault in got if fault is not None]
    assert [line for line, _ in faults] == [2, 4]
    assert faults[0][1].startswith(f"line 2, column {column + 2}: {why}")
    assert faults[1][1].startswith(f"line 4, column {column + 11}: {why}")
    # iter_games stops at the first, placed there too (jq's reading keeps a repeated key).
    if "repeated" in why:
        assert read(data, chunk)[1] == (2, {"x": 2})
    else:
        assert read(data, chunk) == faults[0][1]


def test_a_game_cut_short_inside_the_fault_stops_the_reading_there() -> None:
    data = b'{"a": 1}\n{"x": ' + b"[" * 600
    assert entries(data) == [
        (1, {"a": 1}, None),
        "line 2, column 518: not readable: this array opens level 513; at most 512 levels"
        " of nesting are read",
    ]


@settings(max_examples=60, deadline=None)
@given(
    games=st.lists(
        st.dictionaries(st.sampled_from("abcdefgh"), st.integers(-5, 5), max_size=4),
        min_size=1,
        max_size=5,
    ),
    which=st.data(),
    indent=st.sampled_from([None, 1]),
)
def test_a_repeated_key_is_named_where_it_stands(
    games: list[dict[str, int]], which: st.DataObject, indent: int | None
) -> None:
    """Plant a key a second time in one object of one game: verify's reading names that
    key at its second place, and reads every game; jq's reading takes the last value."""
    at = which.draw(st.integers(0, len(games) - 1))
    key = which.draw(st.sampled_from("abcdefgh"))
    texts = [json.dumps(g, indent=indent) for g in games]
    planted = f'{{"{key}": 99, {texts[at][1:]}'  # the key first, then again
    if not games[at]:  # no comma after the planted key in "{}"
        planted = planted.replace(", }", "}")
    twice = key in games[at]
    if twice:
        texts[at] = planted
    data = "\n".join(texts).encode()
    got = entries(data, unique_keys=True)
    assert [value for _, value, _ in got] == games
    faults = [fault for _, _, fault in got if fault is not None]
    if not twice:
        assert faults == []
        return
    assert len(faults) == 1
    start = "\n".join(texts[:at]).count("\n") + (1 if at else 0) + 1  # the game's first line
    second = planted.index(f'"{key}"', planted.index(f'"{key}"') + 1)
    line = start + planted.count("\n", 0, second)
    column = second - (planted.rfind("\n", 0, second) + 1) + 1
    assert faults[0].startswith(f'line {line}, column {column}: ambiguous: the key "{key}"')
    assert [value for _, value in read(data)] == games  # type: ignore[str-unpack]


# ----------------------------------------------- a value after the last line read: its text alone
# The reader drops the text before a value that starts after the last line break read (likely
# cut short by the read) before json reads it: the same faults at the same places, whatever
# the reads' size.


@pytest.mark.parametrize("chunk", [1, 3, 7, 11, 20, 64, None])
@pytest.mark.parametrize(
    ("data", "last"),
    [
        (
            b'{"a": 1}\n{"b": 2}\n{"c": [1, 2,, 3]}\n',
            "line 3, column 13: not JSON: Expecting value",
        ),
        (
            b'{"a": 1}\n{"b": 2}\n\x00{\x00"\x00a\x00"\x00:\x001\x00}\x00\n',
            "line 3, column 1: not JSON: NUL bytes between ASCII characters: this looks like"
            " UTF-16 text (with no byte-order mark), and logs are UTF-8",
        ),
        (
            b'{"a": 1}\n{"b": 2} \x00 {"c": 3}\n',
            "line 2, column 10: not JSON: a NUL byte (0x00), which JSON has nowhere (in a"
            " string, write \\u0000)",
        ),
        (
            b'{"a": 1}\n{"b": 2}\n  {"c": "x\\ud800"}\n',
            "line 3, column 11: not JSON: a lone surrogate escape (\\ud800) is not a character",
        ),
    ],
)
def test_a_fault_in_a_value_after_the_last_line_read_is_placed_as_before(
    chunk: int | None, data: bytes, last: str
) -> None:
    assert entries(data, chunk) == [(1, {"a": 1}, None), (2, {"b": 2}, None), last]


@pytest.mark.parametrize("chunk", [1, 7, 20, None])
def test_a_repeated_key_after_the_last_line_read_is_placed_and_read_on(chunk: int | None) -> None:
    data = b'{"a": 1}\n{"b": 2}\n{"a": 1, "a": 2}\n{"d": 4}'
    assert entries(data, chunk) == [
        (1, {"a": 1}, None),
        (2, {"b": 2}, None),
        (3, {"a": 2}, 'line 3, column 10: ambiguous: the key "a" is repeated in this object'
         " (readers differ: jq takes the last one, others the first)"),
        (4, {"d": 4}, None),
    ]  # fmt: skip
