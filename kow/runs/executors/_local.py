"""The executor interface, and kow's own processes on this machine (``--jobs``).

An :class:`Executor` plays a run's blocks and hands their results back in order;
:class:`Processes` is the one on this machine (:mod:`kow.runs._pool`).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar, runtime_checkable

from .._pool import ordered_map, streamed_map

__all__ = ["Executor", "Processes", "check_executor"]

T = TypeVar("T")
R = TypeVar("R")


@runtime_checkable
class Executor(Protocol):
    """Plays a run's blocks and hands their results back in order.

    ``workers``: how many blocks run at once (1 or more); the run functions cut a run into
    about 8 blocks per worker. ``map(func, items)`` yields ``func(item)`` for each item,
    in the items' order, raising an exception of ``func`` at its item's turn; closing
    the generator stops the blocks still running. ``func`` is a module-level function or
    a :func:`functools.partial` of one, and ``func`` and the items pickle.
    """

    @property
    def workers(self) -> int:
        """How many blocks run at once (1 or more)."""

    def map(self, func: Callable[[T], R], items: Sequence[T]) -> Generator[R, None, None]:
        """Yield ``func(item)`` for each of ``items``, in order."""


@dataclass(frozen=True)
class Processes:
    """kow's own pool of ``jobs`` processes on this machine (``--jobs``), or this process
    alone when ``jobs`` is 1. See :func:`kow.runs._pool.ordered_map` for its behaviour
    under signals and when a worker dies (:class:`~kow.runs._pool.WorkerError`)."""

    jobs: int = 1

    @property
    def workers(self) -> int:
        """The processes: ``jobs``."""
        return self.jobs

    def map(
        self, func: Callable[[T], R], items: Sequence[T], *, views: bool = False
    ) -> Generator[R, None, None]:
        """Yield ``func(item)`` for each of ``items`` in order, from ``jobs`` processes.

        ``views``: a :class:`bytes` result may come as a :class:`memoryview` valid only
        until the next is asked for (:func:`~kow.runs._pool.ordered_map`'s ``views``).
        """
        return ordered_map(func, items, min(self.jobs, max(1, len(items))), views=views)

    def stream(self, func: Callable[[T], R], items: Iterable[T]) -> Generator[R, None, None]:
        """Yield ``func(item)`` for each of ``items`` in order, from ``jobs`` processes that
        live for the whole run, each item read as they need it
        (:func:`~kow.runs._pool.streamed_map`): ``kow verify`` and ``export``, whose
        blocks are read from their inputs as the run goes."""
        return streamed_map(func, items, self.jobs)


def check_executor(executor: object, jobs: int) -> Executor:
    """Return the executor of a run given ``executor=`` (None: :class:`Processes` of
    ``jobs``) and ``jobs``, both checked.

    Raises :class:`ValueError` when both are given (``jobs`` other than 1 with an
    executor: say one or the other) and :class:`TypeError` for an executor that is not
    an :class:`Executor` (no ``workers`` and ``map``).
    """
    if executor is None:
        return Processes(jobs)
    if jobs != 1:
        raise ValueError(f"give jobs or executor, not both (jobs={jobs}, executor={executor!r})")
    if not isinstance(executor, Executor):
        raise TypeError(
            f"executor must be a kow.runs.executors.Executor (Processes(jobs), on_ray()), "
            f"not {executor!r}"
        )
    workers = executor.workers
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"an executor's workers must be an int, 1 or more, not {workers!r}")
    return executor
