"""Measure a JSON value read against its canonical text, at compiled speed.

The canonical text of a value is ``json.dumps(value, separators=(",", ":"),
ensure_ascii=False)`` with the keys of each object in a given order: what kow's writer
writes, a game a line. :func:`measure` walks a value once and returns its canonical
length and the number of keys of its objects, which lets the reader prove, without a
second parse or a ``json.dumps``, that a value's text repeats no key, nests no deeper
than it reads, and is the canonical text itself (:mod:`._reader`, :mod:`._records`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator

__all__ = ["KeyOrders", "measure"]


def measure(
    value: object, orders: Collection[tuple[str, ...]], deepest: int = -1
) -> tuple[int, int]:
    """Return ``(length, keys)`` of the JSON value ``value`` (as ``json.loads`` gives it).

    ``keys`` is the number of keys of all its objects. ``length`` is the length, in
    characters, of its canonical text (compact, strings as written when no character
    in them needs an escape), or -1 when it has no canonical text here: it holds a
    float, or an object of two keys or more whose keys (in its order) are not one of
    ``orders`` (an object of one key or none has one order), or (``deepest`` 0 or more)
    it nests arrays and objects deeper than ``deepest`` levels, which are not walked
    (their keys are not counted). A text of JSON that reads as ``value`` and holds no
    backslash is that canonical text exactly when it is this long: every other way of
    writing the value is longer (whitespace, a repeated key, ``-0``), and a string with
    no backslash in its text has no character that needs one. ``orders`` may be a
    :class:`KeyOrders`, made once for many values (faster).

    >>> measure({"a": [1, True, None, "xy"], "b": -12}, {("a", "b")})
    (32, 2)
    >>> measure({"b": 1, "a": 2}, {("a", "b")})[0], measure([1.5], ())[0]
    (-1, -1)
    >>> measure([[1]], (), deepest=2), measure([[1]], (), deepest=1)
    ((5, 0), (-1, 0))
    """
    index = orders if isinstance(orders, KeyOrders) else KeyOrders(orders)
    walk = _Walk(index.by_first, deepest)
    length = walk.length(value, 1)
    return length, walk.keys


class KeyOrders:
    """Orders of keys (tuples of keys), looked up by their first key."""

    def __init__(self, orders: Collection[tuple[str, ...]]) -> None:
        self.by_first: dict[str, list[tuple[str, ...]]] = {}
        for order in orders:
            if order:
                self.by_first.setdefault(order[0], []).append(order)

    def __len__(self) -> int:
        return sum(len(orders) for orders in self.by_first.values())

    def __iter__(self) -> Iterator[tuple[str, ...]]:
        for orders in self.by_first.values():
            yield from orders

    def __contains__(self, order: object) -> bool:
        return isinstance(order, tuple) and order in self.by_first.get(
            order[0] if order else "", []
        )


class _Walk:
    """One walk of :func:`measure`: the orders, the depth allowed, the keys counted."""

    def __init__(self, orders: dict[str, list[tuple[str, ...]]], deepest: int) -> None:
        self.orders = orders
        self.deepest = deepest
        self.keys = 0

    def length(self, value: object, depth: int) -> int:
        """Return the canonical length of ``value`` at ``depth`` (its brackets' level if
        it has them, from 1), or -1: none; count its keys."""
        if isinstance(value, str):
            return len(value) + 2
        if isinstance(value, bool):
            return 4 if value else 5
        if isinstance(value, int):
            return _digits(value)
        if value is None:
            return 4
        if depth > self.deepest >= 0:
            return -1
        if isinstance(value, list):
            total = len(value) + 1 if value else 2  # the brackets and the commas
            for item in value:
                size = self.length(item, depth + 1)
                if size < 0:
                    total = -1
                elif total >= 0:
                    total += size
            return total
        if isinstance(value, dict):
            size = len(value)
            self.keys += size
            if not size:
                return 2
            total = 1  # the brackets, and a colon and a comma a key but one
            order: tuple[str, ...] | None = None  # the order its keys so far are in
            at = 0
            for key, item in value.items():  # one pass: its keys' order, and its values
                if total >= 0:
                    if not isinstance(key, str):
                        total = -1
                    elif size > 1:
                        if order is None:
                            order = self.first(key, size)
                        elif order[at] != key:
                            order = self.other(order, at, key)
                        if order is None:
                            total = -1
                    if total >= 0:
                        total += len(key) + 4  # its quotes, its colon, a comma
                length = self.length(item, depth + 1)
                if length < 0:
                    total = -1
                elif total >= 0:
                    total += length
                at += 1
            return total
        return -1  # a float, or no JSON value

    def first(self, key: str, size: int) -> tuple[str, ...] | None:
        """Return the first of the orders of ``size`` keys that starts with ``key``, or None."""
        candidates = self.orders.get(key)
        if candidates is not None:
            for order in candidates:
                if len(order) == size:
                    return order
        return None

    def other(self, order: tuple[str, ...], at: int, key: str) -> tuple[str, ...] | None:
        """Return an order of as many keys as ``order``, with its keys before ``at``, and
        ``key`` at ``at``, or None."""
        for other in self.orders[order[0]]:
            if len(other) == len(order) and other[at] == key and other[:at] == order[:at]:
                return other
        return None


def _digits(number: int) -> int:
    """Return the length of ``str(number)``."""
    if 0 <= number < 10:
        return 1
    if 10 <= number < 100:
        return 2
    return len(str(number))
