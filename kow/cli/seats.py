"""The seats this user holds at remote tables, kept in a file of the user's.

``kow join`` and ``kow host`` keep each seat's secret (:class:`SeatBook`, in
:func:`seats_file`), so that the same ``kow join`` line, run again after the terminal
closed, takes the same seat back, never by name alone.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from typing import Any

__all__ = ["SeatBook", "seats_file"]


def seats_file(environ: dict[str, str] | None = None) -> str:
    """Return the file that keeps this user's seats: ``$XDG_STATE_HOME/kow/seats.json``,
    else ``~/.local/state/kow/seats.json``."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "kow", "seats.json")


_KEEP_SECONDS = 30 * 24 * 3600.0
"""Seats not taken for this long are forgotten when the file is next written."""


class SeatBook:
    """The seats this user holds at tables, kept in ``path`` (readable by the user alone).

    Each seat is kept under its server's URL and the table's code (:meth:`key`), with the
    secret that retakes it: running the same ``kow join`` line again retakes the seat,
    never by name alone. The file is written whole (a temporary file, then renamed), mode
    0600, in a folder of mode 0700. A file that cannot be read is taken as empty.
    """

    def __init__(self, path: str) -> None:
        self.path = path

    @staticmethod
    def key(url: str, code: str) -> str:
        """Return the key of table ``code`` (its plain form) at the server of ``url``."""
        return f"{url} {code}"

    def _read(self) -> dict[str, Any]:
        try:
            with open(self.path, encoding="utf-8") as stream:
                data = json.load(stream)
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def get(self, key: str) -> dict[str, Any] | None:
        """Return the seat kept under ``key`` (``seat``, ``secret``, ``name``), or None."""
        entry = self._read().get(key)
        if isinstance(entry, dict) and isinstance(entry.get("secret"), str):
            return entry
        return None

    def put(self, key: str, entry: dict[str, Any]) -> None:
        """Keep ``entry`` (``seat``, ``secret``, ``name``) under ``key``. Raises
        :class:`OSError` when the file cannot be written."""
        data = self._read()
        now = time.time()
        data = {
            k: v for k, v in data.items()
            if isinstance(v, dict) and now - float(v.get("saved", 0)) < _KEEP_SECONDS
        }  # fmt: skip
        data[key] = {**entry, "saved": now}
        self._write(data)

    def forget(self, key: str) -> None:
        """Forget the seat kept under ``key``. Raises :class:`OSError` as :meth:`put`."""
        data = self._read()
        if data.pop(key, None) is not None:
            self._write(data)

    def _write(self, data: dict[str, Any]) -> None:
        folder = os.path.dirname(self.path)
        os.makedirs(folder, mode=0o700, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=".seats-", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as stream:  # mkstemp: mode 0600
                json.dump(data, stream, indent=1)
            os.replace(temporary, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
