"""Past one machine: the sentence-by-sentence work of gecformats on a Dask cluster.

gecformats streams: a reader yields items, a per-chunk function transforms them, a writer
writes them in order.  On one machine the chunks go to local worker processes
(``--jobs``); with an :class:`Engine` they go to the workers of a ``dask.distributed``
cluster instead.  The functions shipped are the very ones the local path runs (e.g.
:func:`gecformats.convert.extract.sentences`' per-chunk extraction), so there is one
implementation of every conversion, and the output is the same byte for byte:

* order is kept: results are taken back in the order the chunks were read;
* memory stays flat: at most a few chunks per worker are in flight, the input is read as
  the results come back and the output written as they arrive (on the client);
* reports (counts, dropped, widened) are merged on the client exactly as the local path
  merges its workers';
* nothing is half-written: a task that fails (after ``retries`` further attempts; a task
  lost with a worker is rerun on another by Dask) ends the run with an error, and the
  atomic output is not created;
* errors are the local path's: an error in the data (:data:`USER_ERRORS`) raised on a
  worker comes back as it was raised, not retried, not wrapped, and nothing else is printed
  (the workers' "Compute Failed" logs are off), so the user sees the very line and exit
  status of ``--engine local``.

Dask (``pip install 'gecformats[dask]'``) is needed only here; nothing else imports it.

>>> def double(task):          # a per-chunk function: (settings, first, items) -> results
...     settings, first, items = task
...     return [settings * x for x in items]
>>> with Engine(workers=1, processes=False) as engine:        # doctest: +SKIP
...     list(engine.map_chunks(double, chunks(range(5), 2, settings=2)))
[[0, 2], [4, 6], [8]]
"""

from __future__ import annotations

import atexit
import os
import signal
import time
import weakref
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from gecformats.errors import USER_ERRORS, GecFormatError, UsageError, install_hint
from gecformats.io import chunks as chunks  # the tasks, as the local pipelines make them

IN_FLIGHT = 2
"""Chunks in flight per worker: enough to keep every worker busy, few enough for flat memory."""

DEFAULT_CHUNK = 2048
"""Items per task when no number of partitions is asked for."""


def run_chunks(engine: Any, function: Callable[[Any], tuple[list[Any], Any]],
               items: Iterable[Any], settings: Any, report: Any = None,
               total: int | None = None, default: int = DEFAULT_CHUNK) -> Iterator[Any]:
    """The items ``function`` makes of ``items``, chunk by chunk on ``engine``, in order.

    ``function(task)`` takes a :func:`chunks` task and returns ``(results, part_report)``;
    each part report is merged into ``report`` (``report.merge``) as its results are
    yielded.  This is how every distributed conversion runs its per-chunk function."""
    size = engine.chunk_size(total, default)
    for results, part in engine.map_chunks(function, chunks(items, size, settings)):
        if report is not None:
            report.merge(part)
        yield from results


def map_bag(function: Callable[[Any], tuple[list[Any], Any]], bag: Any, settings: Any = None) -> Any:
    """The items ``function`` makes of a ``dask.bag.Bag``'s items, partition by partition.

    For data already in a bag (read with ``dask.bag.read_text``, made by an earlier step):
    ``function`` is one of the per-chunk functions :func:`run_chunks` ships (a whole
    partition is one chunk), so a bag pipeline runs the very code of the streaming paths.
    Returns a bag of the results in the input's order; the chunks' reports are left out,
    and the numbers in sentence-level messages restart at 1 in each partition.  Computing
    the bag raises what ``function`` raises."""
    return bag.map_partitions(_partition, function, settings)


def _partition(items: Iterable[Any], function: Callable[[Any], tuple[list[Any], Any]],
               settings: Any) -> list[Any]:
    results, _report = function((settings, 1, list(items)))
    return results


def extract_bag(bag: Any, tokenizer: str = "en", *, types: str | None = None,
                split_substitutions: bool = False, extractor: str = "lcs") -> Any:
    """Edit extraction over a ``dask.bag.Bag`` of :class:`~gecformats.model.Parallel` items:
    a bag of :class:`~gecformats.model.Sentence` (those of
    :func:`gecformats.convert.extract.sentences`, in order).

    >>> import dask.bag as db
    >>> from gecformats.formats import m2
    >>> from gecformats.model import Parallel
    >>> pairs = db.from_sequence([Parallel("He go to school .", ("He goes to school .",))])
    >>> blocks = extract_bag(pairs, "space").map(m2.format_sentence)  # M2 text, block by block
    >>> print(blocks.compute(scheduler="sync")[0].strip())
    S He go to school .
    A 1 2|||R|||goes|||REQUIRED|||-NONE-|||0
    """
    from gecformats.convert.extract import _extract_chunk, default_types

    return map_bag(_extract_chunk, bag, (tokenizer, types or default_types(tokenizer),
                                         split_substitutions, extractor))


class _ReadFailed:
    """What :func:`_reading` yields in place of the task it could not read."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


def _reading(tasks: Iterable[Any]) -> Iterator[Any]:
    """The tasks, then, if reading them raised an error of :data:`USER_ERRORS`, that
    error as a :class:`_ReadFailed`: the mappers below first take the results of the tasks
    already sent, so that an earlier task's error wins, as on the plain path, which meets
    the bad sentence before the end of the file (where, e.g., a line-count mismatch is
    found)."""
    iterator = iter(tasks)
    while True:
        try:
            task = next(iterator)
        except StopIteration:
            return
        except USER_ERRORS as exc:
            yield _ReadFailed(exc)
            return
        yield task


def process_map(function: Callable[[Any], Any], tasks: Iterable[Any], jobs: int
                ) -> Iterator[Any]:
    """``function(task)`` for every task in ``jobs`` local processes, yielded in task order,
    with at most :data:`IN_FLIGHT` tasks per process sent and not yet yielded (the input is
    read as results are taken, never ahead): the local twin of :meth:`Engine.map_chunks`,
    shared by every ``--jobs``.

    However the generator ends (its last result, an error, Ctrl-C, SIGTERM, being closed or
    collected early), no worker process outlives it: see :class:`_Workers`.

    Raises:
        USER_ERRORS: what ``function`` raised for bad input, as it raised it (the first such
            task in task order), or what reading ``tasks`` raised, after the results of the
            tasks read before it.
        GecFormatError: a worker process ended without sending its task's result (killed,
            out of memory).
    """
    workers = _Workers(function, jobs)
    limit = IN_FLIGHT * jobs
    waiting: deque[int] = deque()  # the numbers of the tasks sent and not yet yielded
    reading = _reading(tasks)
    last: Any = None  # what ended the reading: _END, or a _ReadFailed
    try:
        while True:
            # a task is read only when a worker is free to take it: a worker has one task
            # at a time, so neither it nor the parent can block sending while the other does
            while last is None and len(waiting) < limit and workers.free():
                task = next(reading, _END)
                if task is _END or isinstance(task, _ReadFailed):
                    last = task
                else:
                    waiting.append(workers.send(task))
            if not waiting:
                break
            if workers.has(waiting[0]):
                yield workers.take(waiting.popleft())
            else:
                workers.receive()
        if isinstance(last, _ReadFailed):
            raise last.error
    finally:
        try:
            workers.stop()
        finally:
            reading.close()


_END = object()


class _RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker process (a bug, not bad input),
    shown as the cause of the exception raised again in the parent."""

    def __str__(self) -> str:
        return f"\n\n(in the worker process)\n{self.args[0]}"


class _Worker:
    """One worker process of :class:`_Workers`: the process, the parent's end of its pipe
    and the number of the task it runs (``None``: free)."""

    __slots__ = ("process", "connection", "task")

    def __init__(self, process: Any, connection: Any) -> None:
        self.process = process
        self.connection = connection
        self.task: int | None = None


STOP_GRACE = 5.0
"""Seconds a free worker gets to end on its own (told by a sentinel) before it is killed."""

PARENT_CHECK = 0.5
"""Seconds between a free worker's checks that the process that started it still runs: a
parent killed with SIGKILL leaves no worker behind for longer."""


class _Workers:
    """Up to ``jobs`` worker processes, each with its own pipe and one task at a time.

    Started as tasks come (a short input forks fewer), by ``fork`` where there is one.
    Nothing is shared between the processes but the pipes: no task queue, no lock a
    process killed while holding it could leave locked.  :meth:`stop` ends them all:
    free workers are sent a sentinel and joined (at most :data:`STOP_GRACE` seconds), busy
    ones (their results are not wanted any more) and laggards are killed (SIGKILL, which
    no handler can delay or lose), then all are joined.

    Signals: the stopping signals (SIGINT, SIGTERM, SIGHUP) are blocked while a worker is
    forked, and the worker sets its own handlers before unblocking them: a forked child
    runs the parent's Python handlers until it replaces them, and CPython discards the
    signals that reach a child before it has set itself up after the fork (its "tripped"
    flags are cleared), so a SIGTERM sent at that moment to a child inheriting
    :func:`gecformats.io.terminations_raise`'s handler was lost.  A worker ignores SIGINT
    (Ctrl-C reaches the whole process group: the parent stops the workers, and prints the
    one line) and dies of SIGTERM and SIGHUP as by default."""

    def __init__(self, function: Callable[[Any], Any], jobs: int) -> None:
        import multiprocessing

        self.fork = "fork" in multiprocessing.get_all_start_methods()
        self.context = multiprocessing.get_context("fork" if self.fork else "spawn")
        self.function = function
        self.jobs = jobs
        self.workers: list[_Worker] = []
        self.results: dict[int, tuple[bool, Any]] = {}
        self.sent = 0
        self.owner = os.getpid()
        _RUNNING.add(self)

    def free(self) -> bool:
        """Whether a task sent now starts at once (a free worker, or room for one more)."""
        return len(self.workers) < self.jobs or any(w.task is None for w in self.workers)

    def send(self, task: Any) -> int:
        """Give ``task`` to a free worker (:meth:`free` must be true); returns its number."""
        worker = next((w for w in self.workers if w.task is None), None) or self._start()
        number = self.sent
        self.sent += 1
        worker.task = number
        try:
            worker.connection.send((number, task))
        except (OSError, EOFError):
            raise self._ended(worker) from None
        return number

    def has(self, number: int) -> bool:
        """Whether the result of task ``number`` has arrived."""
        return number in self.results

    def receive(self) -> None:
        """Wait until at least one busy worker sends its task's result, and keep it.

        Raises:
            GecFormatError: a busy worker ended without a result."""
        from multiprocessing.connection import wait

        busy = [w for w in self.workers if w.task is not None]
        if not busy:
            raise AssertionError("no task is running")
        by_connection = {w.connection: w for w in busy}
        ready = wait([*by_connection, *(w.process.sentinel for w in busy)])
        for worker in busy:
            if worker.connection not in ready and worker.process.sentinel not in ready:
                continue
            try:
                number, ok, value = worker.connection.recv()
            except (OSError, EOFError):
                raise self._ended(worker) from None
            worker.task = None
            self.results[number] = (ok, value)

    def take(self, number: int) -> Any:
        """The result of task ``number`` (:meth:`has` must be true), or what it raised."""
        ok, value = self.results.pop(number)
        if ok:
            return value
        error, trace = value
        if trace is None:
            raise error
        raise error from _RemoteTraceback(trace)

    def stop(self) -> None:
        """End every worker (see the class), and wait until all have.  Nothing in another
        process (a worker's copy of a parent's generator, collected there)."""
        if os.getpid() != self.owner:
            return
        try:
            for worker in self.workers:
                if worker.task is None:
                    try:
                        worker.connection.send(None)
                    except (OSError, EOFError):
                        pass
                else:
                    worker.process.kill()
            deadline = time.monotonic() + STOP_GRACE
            for worker in self.workers:
                worker.process.join(max(0.0, deadline - time.monotonic()))
        finally:
            for worker in self.workers:
                if worker.process.exitcode is None:
                    worker.process.kill()
                worker.process.join()
                worker.connection.close()
                worker.process.close()
            self.workers = []

    def _start(self) -> _Worker:
        mine, theirs = self.context.Pipe()
        # the child closes the parent's ends it inherits by fork, so that its pipe reads as
        # closed when the parent is gone
        inherited = [w.connection for w in self.workers] + [mine] if self.fork else []
        block = getattr(signal, "pthread_sigmask", None)
        before = block(signal.SIG_BLOCK, _STOP_SIGNALS) if block else None
        try:
            process = self.context.Process(target=_serve, daemon=True, args=(
                self.function, theirs, inherited, os.getpid(), before))
            process.start()
            worker = _Worker(process, mine)
            self.workers.append(worker)  # before a signal held back can stop the run
        finally:
            theirs.close()
            if block:
                block(signal.SIG_SETMASK, before)
        return worker

    @staticmethod
    def _ended(worker: _Worker) -> GecFormatError:
        worker.process.join(1.0)
        code = worker.process.exitcode
        how = (f"killed by signal {-code}" if code is not None and code < 0
               else f"exit status {code}" if code is not None else "its pipe closed")
        return GecFormatError(f"a --jobs worker process ended before it finished its task "
                              f"({how}; out of memory? try fewer --jobs)")


_RUNNING: weakref.WeakSet[_Workers] = weakref.WeakSet()
"""The workers of the mappers running in this process."""


@atexit.register
def _stop_running() -> None:
    # a mapper left suspended (its generator held by a traceback) would be finalized late in
    # the interpreter's shutdown, when modules are half gone: stop its workers before that
    for workers in list(_RUNNING):
        workers.stop()


_STOP_SIGNALS = frozenset(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                          if hasattr(signal, name))
"""What stops a run: blocked while a worker is forked (see :class:`_Workers`)."""


def _serve(function: Callable[[Any], Any], connection: Any, inherited: list[Any],
           parent: int, blocked: Any) -> None:
    """A worker process of :class:`_Workers`: run the tasks that come on ``connection``
    until a sentinel (``None``), the pipe's end or the parent's; each task's result, or
    the exception it raised, goes back as ``(number, ok, value)``."""
    import gc
    import traceback

    # what the parent held is the parent's: a collection here must not finalize the copies
    # (a reader's generator closing its file, an output removing its temporary file)
    gc.freeze()
    for parents_end in inherited:
        parents_end.close()
    if hasattr(signal, "SIGINT"):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    if blocked is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    while True:
        try:
            while not connection.poll(PARENT_CHECK):
                if os.getppid() != parent:
                    return
            message = connection.recv()
        except (OSError, EOFError):
            return
        if message is None:
            return
        number, task = message
        try:
            reply = (number, True, function(task))
        except BaseException as exc:  # sent back, raised again in the parent
            trace = None if isinstance(exc, USER_ERRORS) else traceback.format_exc()
            reply = (number, False, (_portable(exc), trace))
        try:
            try:
                connection.send(reply)
            except (OSError, EOFError):
                raise
            except Exception as exc:  # a result that does not pickle: a bug, told as one
                connection.send((number, False, (_portable(exc), traceback.format_exc())))
        except (OSError, EOFError):  # the parent is gone
            return


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise UsageError(f"--engine dask needs Dask: {install_hint('dask')}") from None
    return distributed


class Engine:
    """A connection to a Dask cluster, used as a context manager.

    Args:
        scheduler: the scheduler's address (``tcp://host:8786``); ``None`` starts a local
            cluster (``workers`` processes, one thread each) and shuts it down on exit.
        workers: local cluster only: how many workers (default: one per CPU).
        processes: local cluster only: workers in processes (default) or threads.
        partitions: split an input of known size into this many tasks (``None``: tasks of
            :data:`DEFAULT_CHUNK` items).
        retries: further attempts of a task that raised or was lost with its worker.
    """

    def __init__(self, scheduler: str | None = None, *, workers: int | None = None,
                 processes: bool = True, partitions: int | None = None, retries: int = 1
                 ) -> None:
        if partitions is not None and partitions < 1:
            raise UsageError("--partitions must be at least 1")
        self.scheduler = scheduler
        self.workers = workers
        self.processes = processes
        self.partitions = partitions
        self.retries = retries
        self.client: Any = None
        self._cluster: Any = None
        self._config: Any = None
        self._scratch: str | None = None

    def __enter__(self) -> Engine:
        distributed = _import_distributed()
        if self.scheduler is None:
            import tempfile

            import dask

            n = self.workers or os.cpu_count() or 1
            # the scheduler's and workers' scratch space (Dask's default is TMPDIR/
            # dask-scratch-space, left behind): a folder of this run, removed on exit
            self._scratch = tempfile.mkdtemp(prefix="gecformats-dask-")
            self._config = dask.config.set({"temporary-directory": self._scratch})
            try:
                import logging

                # CRITICAL: a task's failure is reported once, by the client, not logged
                # by the worker on the user's terminal
                self._cluster = distributed.LocalCluster(
                    n_workers=n, threads_per_worker=1, processes=self.processes,
                    dashboard_address=":0", silence_logs=logging.CRITICAL,
                    local_directory=self._scratch)
                self.client = distributed.Client(self._cluster)
            except BaseException:
                self.__exit__()
                raise
        else:
            try:
                self.client = distributed.Client(self.scheduler, timeout="10s")
            except OSError as exc:
                raise GecFormatError(f"cannot reach the Dask scheduler {self.scheduler}: "
                                     f"{exc}") from None
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            if self.client is not None:
                self.client.close()
            if self._cluster is not None:
                self._cluster.close()
        finally:
            self.client = self._cluster = None
            if self._config is not None:
                self._config.__exit__(None, None, None)
                self._config = None
            if self._scratch is not None:
                import shutil

                shutil.rmtree(self._scratch, ignore_errors=True)
                self._scratch = None

    @property
    def n_workers(self) -> int:
        """How many workers the cluster has now (at least 1)."""
        return max(1, len(self.client.scheduler_info().get("workers", {})))

    def chunk_size(self, total: int | None, default: int = DEFAULT_CHUNK) -> int:
        """Items per task: ``total / partitions`` when both are known, else ``default``."""
        if self.partitions and total:
            return max(1, -(-total // self.partitions))
        return default

    def map_chunks(self, function: Callable[[Any], Any], tasks: Iterable[Any]) -> Iterator[Any]:
        """``function(task)`` for every task, computed on the cluster, yielded in task order
        with at most :data:`IN_FLIGHT` tasks per worker outstanding.

        A task's data is scattered to a worker rather than put in the task definition (the
        scheduler keeps definitions it has seen: a long run would grow the client's memory
        by the size of its input).  A task that fails, or whose data was lost with its
        worker, is sent again up to ``retries`` times from the copy kept here until its
        result arrives.

        Raises:
            GecFormatError: a task failed every attempt (its exception and the task number
                named); the remaining tasks are cancelled.
            USER_ERRORS: what ``function`` raised for bad input, as it raised it (the first
                such task in task order; not retried).
        """
        if self.client is None:
            raise RuntimeError("use the Engine in a with block")
        pending: deque[tuple[Any, Any]] = deque()
        limit = IN_FLIGHT * self.n_workers
        number = 0

        def send(task: Any) -> Any:
            for attempt in range(5):
                try:
                    data = self.client.scatter(task, hash=False)
                    return self.client.submit(_guarded, function, data, pure=False)
                except Exception as exc:  # the worker chosen went away: choose again
                    if attempt == 4:
                        raise GecFormatError(f"cannot send task {number + len(pending) + 1} "
                                             f"to the Dask cluster: {type(exc).__name__}: "
                                             f"{exc}") from None
                    time.sleep(0.2 * (attempt + 1))
            raise AssertionError("unreachable")

        def take() -> Any:
            nonlocal number
            number += 1
            future, task = pending.popleft()
            for attempt in range(self.retries + 1):
                try:
                    value = _result(future, number)
                except GecFormatError:  # the cluster failed the task: try again
                    if attempt == self.retries:
                        raise
                    future = send(task)
                    continue
                if isinstance(value, _Raised):  # the data is wrong: as the local path says
                    raise value.error
                return value
            raise AssertionError("unreachable")

        try:
            for task in _reading(tasks):
                if isinstance(task, _ReadFailed):
                    while pending:
                        yield take()
                    raise task.error
                pending.append((send(task), task))
                if len(pending) >= limit:
                    yield take()
            while pending:
                yield take()
        finally:
            for future, _ in pending:
                future.cancel()


class _Raised:
    """What a task raised for bad input, sent back as its result (see :func:`_guarded`)."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


def _guarded(function: Callable[[Any], Any], task: Any) -> Any:
    """Run ``function(task)`` on a worker; an error of :data:`USER_ERRORS` is returned, as
    :class:`_Raised`, instead of raised: Dask would log it on the worker, retry it, and send
    it back wrapped when its chained exceptions (an lxml error log …) cannot be pickled."""
    try:
        return function(task)
    except USER_ERRORS as exc:
        return _Raised(_portable(exc))


def _portable(exc: BaseException) -> BaseException:
    """``exc`` without its traceback and chained exceptions, which need not pickle; an
    exception that still does not pickle becomes a :class:`GecFormatError` with its text."""
    import pickle

    exc.__traceback__ = exc.__context__ = exc.__cause__ = None
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return GecFormatError(str(exc) or type(exc).__name__)
    return exc


def _result(future: Any, number: int) -> Any:
    try:
        value = future.result()
    except GecFormatError:
        raise
    except Exception as exc:  # a worker's exception, or the cluster's (KilledWorker …)
        raise GecFormatError(f"task {number} failed on the Dask cluster: "
                             f"{type(exc).__name__}: {exc}") from None
    return value
