"""kow's own pool of worker processes: results in order, flat memory, and signals that end it.

:func:`ordered_map` is what ``--jobs`` runs on (:mod:`kow.runs.batch`, :mod:`kow.runs.tournament`);
:func:`streamed_map` feeds workers that live for the run with items read as it goes
(``kow verify`` and ``export``: blocks of games read from their inputs).
"""

from __future__ import annotations

import contextlib
import mmap
import os
import queue
import sys
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # multiprocessing is imported where workers start: a --jobs 1 run starts none
    from multiprocessing.connection import Connection
    from multiprocessing.context import BaseContext
    from multiprocessing.process import BaseProcess

from ..stopping import stops_blocked, stops_left_to_parent

__all__ = ["WorkerError", "ordered_map", "start_seconds", "streamed_map"]

T = TypeVar("T")
R = TypeVar("R")


class WorkerError(RuntimeError):
    """Raised when a worker process of a parallel run dies (killed, out of memory)."""


def ordered_map(
    func: Callable[[T], R], items: Iterable[T], jobs: int, *, ahead: int = 2, views: bool = False
) -> Generator[R, None, None]:
    """Yield ``func(item)`` for each item in order, computed by ``jobs`` processes.

    Worker ``w`` (0-based) computes items ``w, w + jobs, w + 2*jobs, ...`` and sends each
    result down a pipe of its own; this process reads them back in order. ``func`` and
    the items must pickle (``func`` a module-level function or a partial of one). A
    :class:`~collections.abc.Sequence` of items is not copied (a ``range`` of a billion
    blocks costs nothing); other iterables are read into a list first. At most ``ahead``
    results per worker wait here, plus one in its pipe, so a slow reader keeps memory
    flat. An exception raised by ``func`` is raised here when its item's turn comes; so
    is a :class:`WorkerError` naming the exit code of a worker that died (killed, out of
    memory), at the turn of the first item it did not send.

    The pool is kow's own, not :mod:`concurrent.futures`: this process runs no threads
    and shares no queues, so an exception from a signal handler (Ctrl-C, or SIGTERM once
    the caller turns it into one), an error, or the reader stopping early (closing this
    generator) ends the pool at once: the workers are killed and reaped before the
    exception goes on. Workers ignore Ctrl-C and SIGHUP (sent to the whole terminal's
    process group, they are this process's to handle) and end with this process if it
    is killed outright. Processes start by ``fork`` where the platform has it (fast,
    nothing to re-import), else ``spawn``.

    ``views``: a result of type :class:`bytes` may come as a :class:`memoryview` of
    memory this process shares with its worker (:class:`_Slots`: where workers fork, for
    results of up to :data:`SLOT_BYTES`), valid only until the next result is asked for
    (then released: keep ``bytes(view)`` to keep it). The worker copies its result into
    the memory and sends only its length, so that this process reads no pipe of bytes
    and can write the view straight to a file (``kow simulate --jobs``); it never waits
    for a slot (a worker does), it only gives each back.
    """
    todo = items if isinstance(items, Sequence) else list(items)
    jobs = max(1, min(jobs, len(todo)))
    if jobs == 1:
        yield from map(func, todo)
        return
    import multiprocessing
    from multiprocessing.connection import wait

    fork = _forks()
    context = multiprocessing.get_context("fork") if fork else multiprocessing.get_context("spawn")
    for stream in (sys.stdout, sys.stderr):  # a forked child must not write them again
        if stream is not None:
            stream.flush()
    readers: list[Connection] = []
    workers: list[BaseProcess] = []
    slots: list[_Slots | None] = []
    lent: tuple[memoryview, _Slots] | None = None  # the result yielded from a worker's slot
    try:
        for worker in range(jobs):
            reader, writer = context.Pipe(duplex=False)
            slots.append(_shared_slots(context) if views and fork else None)
            # A forked child inherits the read ends made so far; it closes them, so
            # that only this process holds them and a worker sees its parent go.
            inherited = (*readers, reader) if fork else ()
            process = context.Process(
                target=_work,
                args=(func, todo[worker::jobs], writer),
                kwargs={"inherited": inherited, "slots": slots[worker]},
                name=f"kow-worker-{worker}",
                daemon=True,
            )
            readers.append(reader)
            workers.append(process)  # before it starts: a signal blocked below lands after
            with stops_blocked():  # the worker sets its own handlers before taking any
                process.start()
            writer.close()  # the worker holds the write end; EOF here means it died
        waiting: list[deque[tuple[bool, Any]]] = [deque() for _ in range(jobs)]
        to_come = [len(todo[worker::jobs]) for worker in range(jobs)]  # results not yet read
        for index in range(len(todo)):
            worker = index % jobs
            while not waiting[worker]:
                ready = wait(
                    [readers[w] for w in range(jobs) if to_come[w] and len(waiting[w]) < ahead]
                )
                for w, reader in enumerate(readers):
                    if reader not in ready:
                        continue
                    try:
                        ok, value = _received(reader, slots[w])
                    except EOFError:  # it died: raised at its next item's turn, as an error
                        workers[w].join()
                        code = workers[w].exitcode
                        ok = False
                        value = WorkerError(
                            f"worker process {w} ended unexpectedly (exit code {code})"
                        )
                    waiting[w].append((ok, value))
                    to_come[w] = to_come[w] - 1 if ok else 0  # after an error: nothing
            ok, value = waiting[worker].popleft()
            if not ok:
                raise value
            held = slots[worker]
            if held is not None and isinstance(value, memoryview):
                lent = value, held
            yield value
            if lent is not None:  # asked for the next: the slot is the worker's again
                lent[1].give_back(lent[0])
                lent = None
    finally:
        started = [each for each in workers if each.pid is not None]
        for each in started:
            if each.is_alive():
                each.kill()
        for each in started:
            each.join()
        for reader in readers:
            reader.close()
        if lent is not None:
            lent[0].release()
        for each_slots in slots:
            if each_slots is not None:
                each_slots.close()


def streamed_map(
    func: Callable[[T], R], items: Iterable[T], jobs: int, *, ahead: int = 4
) -> Generator[R, None, None]:
    """Yield ``func(item)`` for each of ``items`` in order, computed by ``jobs`` processes
    that live for the whole map, each item sent to them as it is read.

    Where :func:`ordered_map` deals the items out when its workers start, this reads
    ``items`` as the workers need them, sends item ``i`` to worker ``i % jobs`` down a
    pipe (pickled: a block of strings is a copy) and reads the results back in order,
    with at most ``ahead`` items per worker sent and not yet read back: memory stays flat
    however long ``items`` runs, and this process only reads the items and the results.
    An exception raised by ``func`` is raised here at its item's turn; so is a
    :class:`WorkerError` naming the exit code of a worker that died; an exception of
    ``items`` itself is raised as it comes. The rest is :func:`ordered_map`'s: ``func``
    pickles, the workers are killed and reaped when this generator ends, closes or is
    interrupted (Ctrl-C, a stop signal turned into an exception), they leave Ctrl-C and
    SIGHUP to this process and end with it; ``jobs`` 1 maps here, in this process.
    """
    if jobs <= 1:
        yield from map(func, items)
        return
    import multiprocessing

    fork = _forks()
    context = multiprocessing.get_context("fork") if fork else multiprocessing.get_context("spawn")
    for stream in (sys.stdout, sys.stderr):  # a forked child must not write them again
        if stream is not None:
            stream.flush()
    results: list[Connection] = []  # from each worker
    senders: list[Connection] = []  # to each worker
    workers: list[BaseProcess] = []
    try:
        for worker in range(jobs):
            item_reader, sender = context.Pipe(duplex=False)
            reader, writer = context.Pipe(duplex=False)
            # A forked child inherits this process's ends made so far: it closes them, so
            # that a worker sees its parent go, and this process a worker die.
            inherited = (*results, *senders, reader, sender) if fork else ()
            process = context.Process(
                target=_serve,
                args=(func, item_reader, writer),
                kwargs={"inherited": inherited},
                name=f"kow-worker-{worker}",
                daemon=True,
            )
            results.append(reader)
            senders.append(sender)
            workers.append(process)  # before it starts: a signal blocked below lands after
            with stops_blocked():  # the worker sets its own handlers before taking any
                process.start()
            item_reader.close()
            writer.close()
        sent: deque[int] = deque()  # the worker of each item sent and not read back, in order
        count = 0
        todo: Iterator[T] | None = iter(items)
        while True:
            while todo is not None and len(sent) < jobs * ahead:
                item = next(todo, _END)
                if item is _END:
                    todo = None
                    break
                worker = count % jobs
                count += 1
                sent.append(worker)
                try:
                    senders[worker].send(item)
                except OSError:  # it died: said at this item's turn
                    pass
            if not sent:
                return
            worker = sent.popleft()
            ok: bool
            value: Any
            try:
                ok, value = _received(results[worker], None)
            except EOFError:
                workers[worker].join()
                code = workers[worker].exitcode
                raise WorkerError(
                    f"worker process {worker} ended unexpectedly (exit code {code})"
                ) from None
            if not ok:
                raise value
            yield value
    finally:
        for connection in senders:  # a worker that reads its end stops
            connection.close()
        started = [each for each in workers if each.pid is not None]
        for each in started:
            if each.is_alive():
                each.kill()
        for each in started:
            each.join()
        for connection in results:
            connection.close()


_END: Any = object()
"""What :func:`streamed_map` reads at the end of its items."""


def start_seconds() -> float:
    """Return about what a worker costs :func:`ordered_map` to start and hand results
    back, in seconds of work: below that much work per worker, one process is faster.

    0.03 s where workers are forked (Linux: about 5 ms to start two, the rest to send
    results back; on a quiet 2-core machine two workers first beat one at about 0.06 s
    of work, 200 games of ``heuristic`` bots, and on a busy one later), 0.2 s where they
    are spawned (macOS, Windows: a new Python that imports kow again, 0.15 s here).
    """
    return 0.03 if _forks() else 0.2


def _forks() -> bool:
    """Return whether workers start by ``fork`` here: where multiprocessing has it (every
    platform but Windows), not on macOS, where it is unsafe."""
    return hasattr(os, "fork") and sys.platform not in ("win32", "darwin")


def _end_with(parent: BaseProcess) -> None:
    """Wait (in a worker's thread) until the main process is gone, then end the worker."""
    parent.join()
    os._exit(1)


def _answer(
    func: Callable[[T], R], items: Iterable[T], writer: Connection, *, slots: _Slots | None = None
) -> None:
    """Send ``(True, func(item))`` for each of ``items`` down ``writer``, in order, or
    ``(False, error)`` for the first that raises, and stop there; then close ``writer``.

    A result of type :class:`bytes` goes into the next of ``slots`` when it fits, and
    only its length (an int) down ``writer``; otherwise as None and then the bytes
    themselves (``send_bytes``). The worker ends at once when a result cannot be sent
    (the parent went away: nothing to report to).
    """
    try:
        for item in items:
            try:
                result = func(item)
            except Exception as err:  # noqa: BLE001 - raised again in the parent
                writer.send((False, _portable(err)))
                return
            if isinstance(result, bytes):
                if slots is not None and len(result) <= slots.size:
                    slots.put(result)
                    writer.send(len(result))
                else:
                    writer.send(None)
                    writer.send_bytes(result)
            else:
                writer.send((True, result))
    except BaseException:
        os._exit(1)
    finally:
        writer.close()


def _work(
    func: Callable[[T], R],
    items: Sequence[T],
    writer: Connection,
    *,
    inherited: tuple[Connection, ...],
    slots: _Slots | None = None,
) -> None:
    """Run in a worker: send ``(True, func(item))`` for each item, or ``(False, error)``.

    A result of type :class:`bytes` goes into the memory of ``slots``, shared with the
    main process, when it is given and the result fits (``kow simulate``'s blocks of
    logs, a megabyte each); otherwise as None and then the bytes themselves
    (``send_bytes``): not pickled, so neither side copies it once more (see
    :func:`_answer`).

    Ctrl-C and SIGHUP are left to the main process, which stops the run and kills its
    workers; SIGTERM ends the worker. A worker also ends as soon as the main process is
    gone (killed outright), and quietly when a result cannot be sent.
    """
    stops_left_to_parent()
    for connection in inherited:
        connection.close()
    import multiprocessing

    parent = multiprocessing.parent_process()
    if parent is not None:  # end with the main process, even mid-item, if it is killed
        threading.Thread(target=_end_with, args=(parent,), daemon=True).start()
    _answer(func, items, writer, slots=slots)


def _serve(
    func: Callable[[T], R],
    items: Connection,
    writer: Connection,
    *,
    inherited: tuple[Connection, ...],
) -> None:
    """Run in a worker of :func:`streamed_map`: send ``func(item)`` for each item received
    from ``items``, as :func:`_work` sends them, until ``items`` ends.

    A thread reads the items as they come, so that the parent's sending never waits on
    this worker's sending a result (two full pipes would wait on each other).
    """
    stops_left_to_parent()
    for connection in inherited:
        connection.close()
    import multiprocessing

    parent = multiprocessing.parent_process()
    if parent is not None:  # end with the main process, even mid-item, if it is killed
        threading.Thread(target=_end_with, args=(parent,), daemon=True).start()
    received: queue.SimpleQueue[Any] = queue.SimpleQueue()
    threading.Thread(target=_receive, args=(items, received), daemon=True).start()
    _answer(func, iter(received.get, _END), writer)


def _received(reader: Connection, slots: _Slots | None) -> tuple[bool, Any]:
    """Return the next result a worker sent down ``reader`` (see :func:`_answer`), as
    ``(ok, value)``: a value in the worker's ``slots`` as a view of it (:meth:`_Slots.take`).

    Raises :class:`EOFError` when the worker is gone.
    """
    message = reader.recv()
    if message is None:  # bytes follow, sent as they are (no pickle)
        return True, reader.recv_bytes()
    if isinstance(message, int) and slots is not None:  # that many bytes in the next slot
        return True, slots.take(message)
    ok, value = message
    return ok, value


SLOT_BYTES = 4 << 20
"""The most bytes a worker hands over in a slot of shared memory (:class:`_Slots`); a
larger result goes down its pipe. ``kow simulate``'s blocks are about 1 MB (200 games)."""


def _shared_slots(context: BaseContext) -> _Slots | None:
    """Return a worker's :class:`_Slots` of :data:`SLOT_BYTES`, or None where the system
    will not give them (no memory to map, no POSIX semaphores: some containers, or a
    Python built without them, whose multiprocessing raises ImportError): its results
    then go down its pipe."""
    try:
        return _Slots(context, SLOT_BYTES)
    except (OSError, ImportError):
        return None


class _Slots:
    """A few slots of memory that a forked worker shares with the main process, each
    holding one :class:`bytes` result (:func:`ordered_map`'s ``views``).

    The worker copies its ``k``-th such result into slot ``k % count`` and sends only its
    length; the main process takes the results in the same order, as views of the slots,
    and gives each slot back when it is done with it. A semaphore counts the free slots:
    the worker waits on it while every slot holds a result not yet taken, so memory stays
    flat (``count * size`` bytes at most, touched as used). The memory is an anonymous
    mapping made before the fork and the semaphore is unlinked as it is made (the
    ``fork`` context's): neither has a name, so nothing is left behind however the
    processes end (an anonymous mapping goes with the last process that maps it).
    """

    def __init__(self, context: BaseContext, size: int, count: int = 3) -> None:
        self.count = count
        self.size = size
        self.memory = mmap.mmap(-1, count * size)  # MAP_SHARED | MAP_ANONYMOUS
        self.free = context.Semaphore(count)
        self.used = 0  # results put (in the worker) or taken (here): each side counts its own

    def put(self, data: bytes) -> None:
        """Copy ``data`` (at most ``size`` bytes) into the next slot once it is free (in
        the worker)."""
        self.free.acquire()
        start = self.used % self.count * self.size
        self.memory[start : start + len(data)] = data
        self.used += 1

    def take(self, length: int) -> memoryview:
        """Return a view of the first ``length`` bytes of the next slot (in the main
        process)."""
        start = self.used % self.count * self.size
        self.used += 1
        return memoryview(self.memory)[start : start + length]

    def give_back(self, view: memoryview) -> None:
        """Release ``view``, the oldest slot taken, and give the slot back to the worker."""
        view.release()
        self.free.release()

    def close(self) -> None:
        """Unmap the memory here, unless a view of it is still held (it then goes with
        the last view)."""
        with contextlib.suppress(BufferError):
            self.memory.close()


def _receive(items: Connection, received: queue.SimpleQueue[Any]) -> None:
    """Put each item read from ``items`` into ``received``, then :data:`_END`."""
    try:
        while True:
            received.put(items.recv())
    except Exception:  # noqa: BLE001 - the end, closed or broken: the parent tells why
        received.put(_END)


def _portable(err: Exception) -> Exception:
    """Return ``err`` if it survives pickling, else a RuntimeError with its text."""
    import pickle  # a worker's: multiprocessing has it loaded

    try:
        pickle.loads(pickle.dumps(err))
    except Exception:  # noqa: BLE001 - any pickling failure
        return RuntimeError(f"{type(err).__name__}: {err}")
    return err
