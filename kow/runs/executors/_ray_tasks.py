"""Ray tasks: each block of a run a Ray task (:class:`RayTasks`, made by :func:`on_ray`),
and the calls into Ray that the connection (:mod:`kow.runs.executors._cluster`) shares.

Every call into Ray's compiled core goes through :func:`unstopped`, so that a stop
signal still reaches kow's handlers. Ray is imported on use (:func:`ray_module`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ...settings import check_int
from ...stopping import stop_handlers, stops_deferred

__all__ = [
    "MAX_IN_FLIGHT",
    "MAX_RETRIES",
    "POLL_SECONDS",
    "BlockError",
    "ClusterError",
    "RayTasks",
    "TaskError",
    "cluster_cpus",
    "connected",
    "first_line",
    "kow_version",
    "on_ray",
    "ray_module",
    "task_result",
    "unstopped",
]

T = TypeVar("T")
R = TypeVar("R")

MAX_RETRIES = 100
"""The most times :class:`RayTasks` may retry a block whose task failed."""
MAX_IN_FLIGHT = 100_000
"""The most blocks :class:`RayTasks` may have submitted and not handed back."""
POLL_SECONDS = 0.2
"""How long :class:`RayTasks` waits on Ray at a time, so that a stop lands within it."""


class ClusterError(RuntimeError):
    """Raised when kow cannot use a Ray cluster: Ray not installed, no cluster at the
    address, or a cluster whose kow is another version."""


class BlockError(RuntimeError):
    """Raised when ``games`` (a range of 0-based game numbers) of a run or a tournament
    could not be played for a reason of the cluster's (their Ray task failed, retried
    each time): ``seed`` is the first game's own and ``reason`` says what failed. For
    ``kow simulate``, ``--first-game FIRST --games COUNT`` plays those games alone.
    """

    def __init__(self, games: range, seed: int, reason: str) -> None:
        super().__init__(games, seed, reason)
        self.games = games
        self.seed = seed
        self.reason = reason

    def __str__(self) -> str:
        first, last = self.games[0], self.games[-1]
        games = f"game {first}" if first == last else f"games {first} to {last}"
        return f"{games} (game {first}'s seed {self.seed}): {self.reason}"


class TaskError(RuntimeError):
    """Raised when the Ray task of block ``item`` (0-based, in the order given to
    ``map``) failed ``tries`` times for a reason of the cluster's (a worker killed, a node
    lost), Ray retrying it each time; ``reason`` is Ray's first line. The run functions
    raise it again naming the block's first game and seed."""

    def __init__(self, item: int, tries: int, reason: str) -> None:
        super().__init__(item, tries, reason)
        self.item = item
        self.tries = tries
        self.reason = reason

    def __str__(self) -> str:
        times = "once" if self.tries == 1 else f"{self.tries} times"
        return f"its Ray task failed {times}: {self.reason}"


@dataclass(frozen=True)
class RayTasks:
    """Each block a Ray task, on the Ray runtime this process is connected to.

    Made by :func:`on_ray`, whose arguments it holds. ``in_flight``: the most blocks
    submitted and not yet handed back (None: 2 per CPU of the cluster, read when ``map``
    starts), so memory stays flat however long the run; ``retries``: how many times Ray
    runs a block again whose task failed for a reason of the cluster's (Ray's
    ``max_retries``); an exception raised by the block's own code is not retried. Each
    is checked as :func:`on_ray` says (:class:`ValueError` naming it).
    """

    in_flight: int | None = None
    retries: int = 3

    def __post_init__(self) -> None:
        if self.in_flight is not None:
            in_flight = check_int("in_flight", self.in_flight, lo=1, hi=MAX_IN_FLIGHT,
                                  what="a number of tasks")  # fmt: skip
            object.__setattr__(self, "in_flight", in_flight)
        retries = check_int("retries", self.retries, lo=0, hi=MAX_RETRIES,
                            what="a number of retries")  # fmt: skip
        object.__setattr__(self, "retries", retries)

    @property
    def workers(self) -> int:
        """The cluster's CPUs (or half of ``in_flight`` when it is given), 1 or more."""
        if self.in_flight is not None:
            return max(1, self.in_flight // 2)
        return cluster_cpus()

    def map(self, func: Callable[[T], R], items: Sequence[T]) -> Generator[R, None, None]:
        """Yield ``func(item)`` for each of ``items`` in order, each a Ray task.

        Raises :class:`ClusterError` when this process is not connected to Ray and
        cannot connect, or when a worker's kow is another version; :class:`TaskError`
        for a block whose task failed ``retries + 1`` times; what ``func`` raised, at its
        item's turn. Closing the generator (a stop, an error, the reader leaving)
        cancels every task still in flight, a running one by ending its worker process.
        """
        ray = connected()
        in_flight = self.in_flight or 2 * cluster_cpus()
        task = ray.remote(_block).options(
            name="kow-block", num_cpus=1, max_retries=self.retries, retry_exceptions=False
        )
        shipped = unstopped(ray.put, func)  # pickled and sent once, not once per block
        pending: deque[Any] = deque()
        submitted = 0
        try:
            for item in range(len(items)):
                while submitted < len(items) and len(pending) < in_flight:
                    pending.append(unstopped(task.remote, shipped, items[submitted], kow_version()))
                    submitted += 1
                ref = pending.popleft()
                yield task_result(ray, ref, item=item, tries=self.retries + 1)
        finally:
            for ref in pending:
                _cancel(ray, ref)


def on_ray(*, in_flight: int | None = None, retries: int = 3) -> RayTasks:
    """Return an executor that plays each block of a run as a Ray task.

    Connect first (``ray.init(...)`` in your own program, or
    :func:`~kow.runs.executors.ray_connection`), then
    pass it to a run function: ``run_text(run, 0, 100_000, executor=on_ray())``. The
    results are the same bytes as ``jobs=1``; kow's tasks are scheduled among the
    program's own. ``in_flight``: the most blocks submitted at once, 1 to
    :data:`MAX_IN_FLIGHT` (None: 2 per CPU of the cluster); ``retries``: Ray's retries of
    a block whose task failed (a worker killed, a node lost), 0 to :data:`MAX_RETRIES`.
    Every node needs the same version of kow installed (``pip install '.[ray]' in kow's folder``).
    Raises :class:`ValueError` naming a value out of range (a bool or a float is
    refused).
    """
    return RayTasks(in_flight=in_flight, retries=retries)


def ray_module() -> Any:
    """Return the module ``ray``, or raise :class:`ClusterError` when it is not installed."""
    try:
        import ray
    except ImportError:
        raise ClusterError(
            "Ray is not installed: pip install '.[ray]' in kow's folder (on every node of the"
            " cluster)"
        ) from None
    return ray


def connected() -> Any:
    """Return the module ``ray``, or raise :class:`ClusterError` unless this process is
    connected to a Ray runtime."""
    ray = ray_module()
    if not ray.is_initialized():
        raise ClusterError(
            "not connected to Ray: call ray.init() first (or use kow.runs.executors.ray_connection)"
        )
    return ray


def kow_version() -> str:
    """Return this kow's version (what a block's task checks against its worker's)."""
    from ...version import __version__

    return __version__


def _block(func: Callable[[T], R], item: T, version: str) -> R:
    """Run in a Ray worker: return ``func(item)``, if this worker's kow is ``version``."""
    here = kow_version()
    if here != version:
        raise ClusterError(f"a Ray worker has kow {here}, this process kow {version}")
    return func(item)


def cluster_cpus() -> int:
    """Return the CPUs of the Ray cluster this process is connected to, 1 or more."""
    ray = connected()
    return max(1, int(unstopped(ray.cluster_resources).get("CPU", 1)))


def task_result(ray: Any, ref: Any, *, item: int, tries: int) -> Any:
    """Wait for the task of ``ref`` (block ``item``) and return its result.

    Waits in steps of :data:`POLL_SECONDS`, so that a stop signal lands at once (see
    :func:`unstopped`). Raises
    what the block's code raised, or :class:`TaskError` when Ray gave up on the task.
    """
    while not unstopped(ray.wait, [ref], timeout=POLL_SECONDS)[0]:
        pass
    try:
        return unstopped(ray.get, ref)
    except ray.exceptions.RayTaskError as err:  # the block's own code raised
        cause = err.cause
        if isinstance(cause, Exception):
            raise cause from None
        raise TaskError(item, 1, first_line(err)) from None
    except ray.exceptions.RayError as err:  # a worker died, a node was lost...
        raise TaskError(item, tries, f"{type(err).__name__}: {first_line(err)}") from None


def _cancel(ray: Any, ref: Any) -> None:
    """Cancel the task of ``ref`` (ending its worker if it runs); quietly if Ray is gone."""
    try:
        unstopped(ray.cancel, ref, force=True)
    except Exception:  # noqa: BLE001,S110 - done, failed or Ray gone: nothing to cancel
        pass


def unstopped(call: Callable[..., R], *args: Any, **kwargs: Any) -> R:
    """Return ``call(*args, **kwargs)``, a call into Ray's compiled core, with Ctrl-C,
    SIGTERM and SIGHUP deferred until it returns (:func:`kow.stopping.stops_deferred`).

    Ray's core checks for signals while it waits, and an exception that a handler raises
    there is lost (Ray 2.60: ``ray.get`` goes on waiting, ``ray.wait`` gives a
    :class:`SystemError`, and a ``KeyboardInterrupt`` vanishes), so the handlers only
    note the signal, and it reaches them once the call returns. Ray's waits here last
    :data:`POLL_SECONDS` at most, so a stop still lands at once.
    """
    with stops_deferred(stop_handlers()):
        return call(*args, **kwargs)


def first_line(err: BaseException) -> str:
    """Return the first line of ``err``'s text that says something (Ray's run long)."""
    for line in str(err).splitlines():
        if line.strip():
            return line.strip()
    return type(err).__name__
