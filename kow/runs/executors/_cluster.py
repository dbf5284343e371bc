"""The connection to a Ray cluster (``--cluster``, :func:`ray_connection`): the address
checked (:func:`check_cluster`) and probed before Ray is asked, stop signals deferred
while Ray connects, and Ray's quirks (its logging, its SIGTERM handler, its messages on
stdout) kept off kow's output and handlers.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ...stopping import restore_handlers, stop_ends_after, stop_handlers, stops_deferred
from ._ray_tasks import (
    ClusterError,
    cluster_cpus,
    first_line,
    kow_version,
    ray_module,
    task_result,
    unstopped,
)

__all__ = ["CLUSTERS", "PROBE_SECONDS", "STOP_GRACE_SECONDS", "check_cluster", "ray_connection"]

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
    and SIGHUP that land while Ray connects are deferred until it has (and, for ``local``,
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
    ray = ray_module()
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
            yield cluster_cpus()
    finally:
        handlers = stop_handlers()  # as the block left them (a stop may ignore more now)
        try:
            unstopped(ray.shutdown)  # also the processes of a start that was cut short
        finally:
            restore_handlers(handlers)


def _is_terminal(stream: Any) -> bool:
    """Return whether ``stream`` is a terminal (False for a closed or odd stream)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, OSError, ValueError):
        return False


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
    said = first_line(err)
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
    probe = ray.remote(kow_version).options(name="kow-version", num_cpus=0, max_retries=0)
    try:
        there = task_result(ray, unstopped(probe.remote), item=0, tries=1)
    except Exception as err:  # noqa: BLE001 - kow not importable there, most likely
        raise ClusterError(f"kow does not run on the Ray workers: {first_line(err)}") from None
    if there != kow_version():
        raise ClusterError(f"the Ray workers have kow {there}, this process kow {kow_version()}")
