"""Read the content of gzip data that starts in bytes already read and goes on in a stream.

The log reader (:mod:`kow.log._reader`) finds gzip input by its magic bytes, after it has
read them: the content is read from those bytes and the rest of the stream, a pipe
included (gzip itself seeks back, which a pipe cannot), and a fault of the data is
named in plain words after the good bytes before it are read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import IO, Protocol

__all__ = ["Failed", "gunzip"]


class Failed(Protocol):
    """What :func:`gunzip` tells of a fault found after good bytes: its ``failed`` text."""

    failed: str | None


def gunzip(first: bytes, stream: IO[bytes], source: Failed) -> Callable[[int], bytes]:
    """Return a ``read(size)`` of the content of the gzip stream that starts ``first``
    and goes on in ``stream``. A fault of the gzip data found after good bytes is left in
    ``source.failed``, so the good bytes are read first and the fault placed after them.
    """
    import gzip  # here, not at the top: only gzip input pays for it
    import zlib

    unzipped = gzip.GzipFile(fileobj=_Prefixed(first, stream), mode="rb")

    def read(size: int) -> bytes:
        parts: list[bytes] = []
        got = 0
        while got < size:
            try:
                part = unzipped.read1(size - got)
            except (EOFError, zlib.error, gzip.BadGzipFile) as err:
                source.failed = f"not readable: the gzip data {_gzip_message(err)}"
                break
            if not part:
                break
            parts.append(part)
            got += len(part)
        return b"".join(parts)

    return read


class _Prefixed:
    """The bytes ``first``, then the rest of ``stream``: a stream read from its start again."""

    def __init__(self, first: bytes, stream: IO[bytes]) -> None:
        self.first = first
        self.stream = stream

    def read(self, size: int = -1, /) -> bytes:
        """Return up to ``size`` bytes (all that is left for a negative ``size``)."""
        if not self.first:
            return self.stream.read(size)
        if size < 0:
            data, self.first = self.first + self.stream.read(), b""
        else:
            data, self.first = self.first[:size], self.first[size:]
        return data

    def seek(self, offset: int, /) -> int:
        """Refuse to seek: gzip seeks only to go back, which a pipe cannot, nor this."""
        raise OSError("the input cannot go back")


def _gzip_message(err: BaseException) -> str:
    """Return what is wrong with gzip data, from the error gzip or zlib raised.

    >>> _gzip_message(EOFError("Compressed file ended before the end-of-stream marker"))
    'ends too soon (the file was cut short)'
    >>> _gzip_message(OSError("CRC check failed 0x7920ce91 != 0x7920ce6e"))
    'is corrupt (CRC check failed)'
    """
    if isinstance(err, EOFError):
        return "ends too soon (the file was cut short)"
    text = str(err)
    if text.startswith("Not a gzipped file"):
        return "is followed by bytes that are not gzip data"
    if text.startswith("CRC check failed"):
        text = "CRC check failed"
    elif text.startswith("Incorrect length"):
        text = "length check failed"
    return f"is corrupt ({text.removeprefix('Error -3 while decompressing data: ')})"
