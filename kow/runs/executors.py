"""Where a run's blocks are played: kow's own processes (``--jobs``) or Ray tasks (``--cluster``).

A run is cut into blocks (games ``K..K+M-1`` of ``kow simulate``, a few games of a
tournament, one decision of ``kow analyze``); each block depends on its index alone, so
any executor that hands the results back **in order** gives the same bytes. An
:class:`Executor` is what the run functions take as ``executor=``
(:func:`kow.runs.batch.run_text`, :func:`kow.runs.tournament.game_results`,
:func:`kow.runs.analysis.analyse_game`):

- :class:`Processes`: kow's own pool on this machine (:mod:`kow.runs._pool`), what
  ``--jobs N`` runs on;
- :class:`RayTasks` (made by :func:`on_ray`): each block a Ray task on the Ray runtime
  this process is connected to (``ray.init()``), with a bounded number in flight;
  :func:`ray_connection` connects as ``--cluster`` does.

Ray is imported only when a :class:`RayTasks` runs or :func:`ray_connection` connects
(the extra ``ray``); ``import kow`` and the rest of kow never load it.
"""

from __future__ import annotations

import logging
import os
import sys
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, runtime_checkable

from ..rules import check_int
from ..stopping import (
    restore_handlers,
    stop_ends_after,
    stop_handlers,
    stops_deferred,
)
from ._pool import ordered_map

__all__ = [
    "BlockError",
    "CLUSTERS",
    "ClusterError",
    "Executor",
    "Processes",
    "RayTasks",
    "TaskError",
    "check_cluster",
    "check_executor",
    "on_ray",
    "ray_connection",
]

T = TypeVar("T")
R = TypeVar("R")

MAX_RETRIES = 100
"""The most times :class:`RayTasks` may retry a block whose task failed."""
MAX_IN_FLIGHT = 100_000
"""The most blocks :class:`RayTasks` may have submitted and not handed back."""
POLL_SECONDS = 0.2
"""How long :class:`RayTasks` waits on Ray at a time, so that a stop lands within it."""
PROBE_SECONDS = 5.0
"""How long :func:`ray_connection` waits for a cluster's address to answer at all."""
STOP_GRACE_SECONDS = 15.0
"""How long a stop that lands while Ray connects waits for Ray to return before kow ends
without it (:func:`kow.stopping.stop_ends_after`)."""

CLUSTERS = ("local", "ray", "ray://HOST:PORT", "HOST:PORT")
"""The values of ``--cluster``: ``local`` starts a Ray runtime on this machine; ``ray``
connects to the cluster ``RAY_ADDRESS`` names (else the one ``ray start`` left running
here); ``ray://HOST:PORT`` to a cluster's Ray Client server; ``HOST:PORT`` to the head
node's address (from a node of the cluster)."""


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

    def map(self, func: Callable[[T], R], items: Sequence[T]) -> Generator[R, None, None]:
        """Yield ``func(item)`` for each of ``items`` in order, from ``jobs`` processes."""
        return ordered_map(func, items, min(self.jobs, max(1, len(items))))


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
        return _cluster_cpus()

    def map(self, func: Callable[[T], R], items: Sequence[T]) -> Generator[R, None, None]:
        """Yield ``func(item)`` for each of ``items`` in order, each a Ray task.

        Raises :class:`ClusterError` when this process is not connected to Ray and
        cannot connect, or when a worker's kow is another version; :class:`TaskError`
        for a block whose task failed ``retries + 1`` times; what ``func`` raised, at its
        item's turn. Closing the generator (a stop, an error, the reader leaving)
        cancels every task still in flight, a running one by ending its worker process.
        """
        ray = _connected()
        in_flight = self.in_flight or 2 * _cluster_cpus()
        task = ray.remote(_block).options(
            name="kow-block", num_cpus=1, max_retries=self.retries, retry_exceptions=False
        )
        shipped = _unstopped(ray.put, func)  # pickled and sent once, not once per block
        pending: deque[Any] = deque()
        submitted = 0
        try:
            for item in range(len(items)):
                while submitted < len(items) and len(pending) < in_flight:
                    pending.append(_unstopped(task.remote, shipped, items[submitted], _version()))
                    submitted += 1
                ref = pending.popleft()
                yield _result(ray, ref, item=item, tries=self.retries + 1)
        finally:
            for ref in pending:
                _cancel(ray, ref)


def on_ray(*, in_flight: int | None = None, retries: int = 3) -> RayTasks:
    """Return an executor that plays each block of a run as a Ray task.

    Connect first (``ray.init(...)`` in your own program, or :func:`ray_connection`), then
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


def check_cluster(text: str) -> str:
    """Return ``--cluster``'s value if it is one of :data:`CLUSTERS`, else raise
    :class:`ValueError` naming it (its first 60 characters) and what is allowed.

    A PORT is 1 to 65535; a HOST is a name or address of at most 253 characters, no
    space, no slash.

    >>> check_cluster("ray://head:10001")
    'ray://head:10001'
    >>> check_cluster("10.0.0.1:6379")
    '10.0.0.1:6379'
    >>> check_cluster("head:99999")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: 'head:99999' is not a cluster: allowed local, ray, ... (PORT 1 to 65535)

    Raises :class:`TypeError` for a value that is not a str.
    """
    if not isinstance(text, str):
        raise TypeError(
            f"a cluster is a str, not {type(text).__name__}: allowed {', '.join(CLUSTERS)}"
        )
    if text in ("local", "ray"):
        return text
    host, colon, port = text.removeprefix("ray://").rpartition(":")
    if colon and host and port.isdigit() and port.isascii() and 0 < int(port) < 65536:
        if len(host) <= 253 and host.isprintable() and " " not in host and "/" not in host:
            return text
    shown = repr(text) if len(text) <= 60 else repr(text[:60]) + "..."
    raise ValueError(f"{shown} is not a cluster: allowed {', '.join(CLUSTERS)} (PORT 1 to 65535)")


@contextmanager
def ray_connection(cluster: str) -> Iterator[int]:
    """Connect this process to the Ray cluster ``cluster`` names (see :data:`CLUSTERS`)
    for the block, and disconnect at its end; yield the cluster's CPUs.

    ``local`` starts a Ray runtime on this machine and stops it at the end. Ray's
    informational messages are turned off, workers' output is not copied here, and the
    cluster's error messages go to stderr, so stdout carries kow's data only.

    Before Ray is asked, the address must answer, and speak gRPC as a Ray head does,
    within :data:`PROBE_SECONDS` (Ray itself would retry for minutes). Ctrl-C, SIGTERM
    and SIGHUP that land while Ray connects are held until it has (and, for ``local``,
    has started its processes, so that a stop leaves none behind), then reach the
    caller's handlers; if Ray has not returned :data:`STOP_GRACE_SECONDS` after the
    stop (its core can retry an address for good without looking at signals), the
    process ends at once with status 128 + the signal's number. The caller's handlers
    are in force again once Ray is connected: Ray's own for
    SIGTERM is not set, and its core's crash handler is turned off
    (``RAY_DISABLE_FAILURE_SIGNAL_HANDLER``) when Ray is first imported here. At the end
    the handlers are as the block left them. Raises :class:`ClusterError` when Ray is not
    installed, or no cluster answers at the address (the reason in Ray's words), and
    :class:`ValueError` for a value not in :data:`CLUSTERS` (:class:`TypeError` for one
    that is not a str).
    """
    cluster = check_cluster(cluster)
    os.environ.setdefault("RAY_DISABLE_FAILURE_SIGNAL_HANDLER", "1")  # before Ray's import
    if not _is_terminal(sys.stderr):
        os.environ.setdefault("RAY_COLOR_PREFIX", "0")  # Ray's "(raylet)" notes uncoloured
    ray = _ray()
    if ray.is_initialized():
        raise ClusterError("this process is already connected to Ray: use on_ray() alone")
    address = {"local": "local", "ray": os.environ.get("RAY_ADDRESS") or "auto"}.get(
        cluster, cluster
    )
    named = f"{address!r} (RAY_ADDRESS)" if cluster == "ray" and address != "auto" else None
    if address != "local":
        _probe(address, named or repr(address))
    _quiet_ray_advice()
    handlers = stop_handlers()
    slow = f"Ray did not return within {STOP_GRACE_SECONDS:g} s while connecting to {address!r}"
    try:
        with (
            stops_deferred(handlers),
            stop_ends_after(STOP_GRACE_SECONDS, f"{slow}, so kow ends without it"),
            _no_sigterm_handler_of_rays(),
        ):
            try:
                ray.init(
                    address=address,
                    include_dashboard=False if address == "local" else None,
                    log_to_driver=False,
                    logging_level=logging.WARNING,
                    configure_logging=True,
                )
            except Exception as err:  # noqa: BLE001 - ConnectionError, RuntimeError...
                where = f" at {named}" if named else _at(address, cluster)
                raise ClusterError(f"no Ray cluster{where}: {_ray_says(err)}") from None
        if address != "local":  # a local runtime's workers run this Python (and each
            _check_versions(ray)  # block checks its worker's kow anyway)
        with _errors_to_stderr():
            yield _cluster_cpus()
    finally:
        handlers = stop_handlers()  # as the block left them (a stop may ignore more now)
        try:
            _unstopped(ray.shutdown)  # also the processes of a start that was cut short
        finally:
            restore_handlers(handlers)


def _is_terminal(stream: Any) -> bool:
    """Return whether ``stream`` is a terminal (False for a closed or odd stream)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, OSError, ValueError):
        return False


# ----------------------------------------------------------------------------- Ray's side


def _ray() -> Any:
    """Return the module ``ray``, or raise :class:`ClusterError` when it is not installed."""
    try:
        import ray
    except ImportError:
        raise ClusterError(
            "Ray is not installed: pip install '.[ray]' in kow's folder (on every node of the"
            " cluster)"
        ) from None
    return ray


def _connected() -> Any:
    """Return the module ``ray``, or raise :class:`ClusterError` unless this process is
    connected to a Ray runtime."""
    ray = _ray()
    if not ray.is_initialized():
        raise ClusterError(
            "not connected to Ray: call ray.init() first (or use kow.runs.executors.ray_connection)"
        )
    return ray


def _version() -> str:
    """Return this kow's version (what a block's task checks against its worker's)."""
    from .. import __version__

    return __version__


def _block(func: Callable[[T], R], item: T, version: str) -> R:
    """Run in a Ray worker: return ``func(item)``, if this worker's kow is ``version``."""
    here = _version()
    if here != version:
        raise ClusterError(f"a Ray worker has kow {here}, this process kow {version}")
    return func(item)


@contextmanager
def _errors_to_stderr() -> Iterator[None]:
    """Send the cluster's error messages that Ray prints in this process ("(raylet) A
    worker died...") to stderr, not stdout, which carries kow's data only.

    Ray 2.60's driver prints them from a thread of its own through
    ``ray._private.worker.print_to_stdstream``, to stdout; in the block that function is
    wrapped to print them to stderr. Where a Ray has no such function, nothing changes
    (and ``tests/runs/test_cluster.py`` would see the stdout that is no longer data).
    """
    module = sys.modules.get("ray._private.worker")
    printer = getattr(module, "print_to_stdstream", None)
    if module is None or not callable(printer):
        yield
        return

    def to_stderr(data: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(data, dict):
            data = {**data, "is_err": True}
        return printer(data, *args, **kwargs)

    setattr(module, "print_to_stdstream", to_stderr)  # noqa: B010 - a module of Ray's
    try:
        yield
    finally:
        setattr(module, "print_to_stdstream", printer)  # noqa: B010


@contextmanager
def _no_sigterm_handler_of_rays() -> Iterator[None]:
    """Keep ``ray.init`` from setting its SIGTERM handler (``sys.exit``) in the block, so
    that a SIGTERM while Ray connects reaches kow's handlers, not Ray's half-made state.

    Ray 2.60 sets it through ``ray._private.utils.set_sigterm_handler``, which the block
    makes a no-op; a Ray without that function is left as it is.
    """
    utils = sys.modules.get("ray._private.utils")
    setter = getattr(utils, "set_sigterm_handler", None)
    if utils is None or not callable(setter):
        yield
        return
    setattr(utils, "set_sigterm_handler", lambda handler: None)  # noqa: B010
    try:
        yield
    finally:
        setattr(utils, "set_sigterm_handler", setter)  # noqa: B010


def _ray_says(err: BaseException) -> str:
    """Return Ray's reason for a failed connection, in one line (Ray Client's missing
    package named as kow's extra)."""
    said = _first_line(err)
    if "ray[client]" in said:
        return "Ray Client is not installed here: pip install '.[ray]' in kow's folder has it"
    return said


def _quiet_ray_advice() -> None:
    """Turn off two warnings of Ray's that ask nothing of a kow user: that the cluster
    uses token authentication, and (Ray Client) that Ray set no SIGTERM handler (kow
    has its own)."""
    logging.getLogger("ray._private.authentication.authentication_token_setup").setLevel(
        logging.ERROR
    )
    for name in ("ray._private.worker", "ray.util.client.logsclient"):  # the second relays
        said = logging.getLogger(name)  # the Ray Client server's own log, where it is said
        if not any(isinstance(each, _NoSigtermAdvice) for each in said.filters):
            said.addFilter(_NoSigtermAdvice())


class _NoSigtermAdvice(logging.Filter):
    """Drop Ray's warning that it set no SIGTERM handler outside the main thread."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("SIGTERM handler is not set")


def _at(address: str, cluster: str) -> str:
    """Return where a failed connection looked, for its message (with a hint for ``ray``)."""
    if address == "local":
        return ""
    hint = (
        " (set RAY_ADDRESS, give --cluster ray://HOST:PORT, or --cluster local)"
        if cluster == "ray" and address == "auto"
        else ""
    )
    return f" at {address!r}{hint}"


def _probe(address: str, named: str) -> None:
    """Raise :class:`ClusterError` unless a Ray head answers at ``address`` within
    :data:`PROBE_SECONDS` (``auto`` is Ray's to find); ``named`` is how its messages name
    the address. Ray itself would try an address that answers nothing, or answers in
    another protocol (a dashboard, a web server), for minutes, and for good when it
    cannot reach the address it puts in place of this machine's ``localhost``.

    Checks, in order:

    - the address is a Ray address, ``HOST:PORT`` or ``ray://HOST:PORT`` (``RAY_ADDRESS``
      may hold anything), not a URL of another scheme (``http://...``);
    - something accepts a TCP connection at the host and port Ray will connect to: for
      a head's address, Ray's own choice of this machine's address in place of
      ``localhost``, ``127.0.0.1`` or ``::1`` (``ray://`` is taken as it is);
    - it speaks gRPC, and has the service a Ray head has there: the GCS's
      ``NodeInfoGcsService``, or Ray Client's ``RayletDriver`` for ``ray://``. The call
      sends bytes that are no request, so the server refuses it before running anything;
      a server without the service says so (``UNIMPLEMENTED``).

    The gRPC checks need ``grpcio`` (a requirement of ``ray[client]``) and are left out
    for a cluster that uses TLS (``RAY_USE_TLS``).
    """
    import socket

    if address == "auto":
        return  # Ray's to find
    scheme, sep, _ = address.partition("://")
    client = address.startswith("ray://")
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if (sep and scheme != "ray") or not (colon and host and port.isdigit()):
        raise ClusterError(
            f"{named} is not a Ray address: give HOST:PORT (a head's GCS, 6379 by default)"
            " or ray://HOST:PORT (Ray Client, 10001 by default)"
        )
    given = host.strip("[]")
    target = given if client else _ray_host(given)
    moved = f" (Ray connects to {target} for {given})" if target != given else ""
    try:
        socket.create_connection((target, int(port)), timeout=PROBE_SECONDS).close()
    except (OSError, ValueError) as err:
        why = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise ClusterError(f"no Ray cluster at {named}: {why or 'no answer'}{moved}") from None
    if os.environ.get("RAY_USE_TLS", "0").lower() not in ("0", "false", ""):
        return
    import importlib

    try:  # grpcio ships no types; as Any, mypy needs no stubs in any configuration
        grpc: Any = importlib.import_module("grpc")
    except ImportError:
        return
    method = (
        "/ray.rpc.RayletDriver/ClusterInfo"
        if client
        else "/ray.rpc.NodeInfoGcsService/GetAllNodeInfo"
    )
    channel = grpc.insecure_channel(f"[{target}]:{port}" if ":" in target else f"{target}:{port}")
    try:
        grpc.channel_ready_future(channel).result(timeout=PROBE_SECONDS)
        channel.unary_unary(method)(b"\xff", timeout=PROBE_SECONDS)
    except grpc.FutureTimeoutError:
        speaks = False
    except grpc.RpcError as err:  # the expected answer: the bytes are no request
        speaks = err.code() not in (
            grpc.StatusCode.UNIMPLEMENTED,
            grpc.StatusCode.DEADLINE_EXCEEDED,
        )
    else:
        speaks = True
    finally:
        channel.close()
    if not speaks:
        head = (
            "ray://HOST:10001 for Ray Client"
            if client
            else "the head node's GCS port, 6379 by default"
        )
        raise ClusterError(
            f"no Ray cluster at {named}: something answers there{moved}, but not as Ray"
            f" does (give {head})"
        )


def _ray_host(host: str) -> str:
    """Return the host Ray connects to for a head's address on ``host``: this machine's
    address for ``localhost``, ``127.0.0.1`` or ``::1`` (Ray 2.60's
    ``resolve_ip_for_localhost``), else ``host``."""
    services = sys.modules.get("ray._private.services")
    resolve = getattr(services, "resolve_ip_for_localhost", None)
    if not callable(resolve):
        return host
    try:
        return str(resolve(host))
    except Exception:  # noqa: BLE001 - Ray's to say, when it connects
        return host


def _check_versions(ray: Any) -> None:
    """Raise :class:`ClusterError` when a Ray worker has another version of kow (or none)."""
    probe = ray.remote(_version).options(name="kow-version", num_cpus=0, max_retries=0)
    try:
        there = _result(ray, _unstopped(probe.remote), item=0, tries=1)
    except Exception as err:  # noqa: BLE001 - kow not importable there, most likely
        raise ClusterError(f"kow does not run on the Ray workers: {_first_line(err)}") from None
    if there != _version():
        raise ClusterError(f"the Ray workers have kow {there}, this process kow {_version()}")


def _cluster_cpus() -> int:
    """Return the CPUs of the Ray cluster this process is connected to, 1 or more."""
    ray = _connected()
    return max(1, int(_unstopped(ray.cluster_resources).get("CPU", 1)))


def _result(ray: Any, ref: Any, *, item: int, tries: int) -> Any:
    """Wait for the task of ``ref`` (block ``item``) and return its result.

    Waits in steps of :data:`POLL_SECONDS`, so that a stop signal lands at once (see
    :func:`_unstopped`). Raises
    what the block's code raised, or :class:`TaskError` when Ray gave up on the task.
    """
    while not _unstopped(ray.wait, [ref], timeout=POLL_SECONDS)[0]:
        pass
    try:
        return _unstopped(ray.get, ref)
    except ray.exceptions.RayTaskError as err:  # the block's own code raised
        cause = err.cause
        if isinstance(cause, Exception):
            raise cause from None
        raise TaskError(item, 1, _first_line(err)) from None
    except ray.exceptions.RayError as err:  # a worker died, a node was lost...
        raise TaskError(item, tries, f"{type(err).__name__}: {_first_line(err)}") from None


def _cancel(ray: Any, ref: Any) -> None:
    """Cancel the task of ``ref`` (ending its worker if it runs); quietly if Ray is gone."""
    try:
        _unstopped(ray.cancel, ref, force=True)
    except Exception:  # noqa: BLE001,S110 - done, failed or Ray gone: nothing to cancel
        pass


def _unstopped(call: Callable[..., R], *args: Any, **kwargs: Any) -> R:
    """Return ``call(*args, **kwargs)``, a call into Ray's compiled core, with Ctrl-C,
    SIGTERM and SIGHUP held until it returns (:func:`kow.stopping.stops_deferred`).

    Ray's core checks for signals while it waits, and an exception that a handler raises
    there is lost (Ray 2.60: ``ray.get`` goes on waiting, ``ray.wait`` gives a
    :class:`SystemError`, and a ``KeyboardInterrupt`` vanishes), so the handlers only
    note the signal, and it reaches them once the call returns. Ray's waits here last
    :data:`POLL_SECONDS` at most, so a stop still lands at once.
    """
    with stops_deferred(stop_handlers()):
        return call(*args, **kwargs)


def _first_line(err: BaseException) -> str:
    """Return the first line of ``err``'s text that says something (Ray's run long)."""
    for line in str(err).splitlines():
        if line.strip():
            return line.strip()
    return type(err).__name__
