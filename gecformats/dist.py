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

import logging
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from gecformats.errors import GecFormatError, UsageError, install_hint

IN_FLIGHT = 2
"""Chunks in flight per worker: enough to keep every worker busy, few enough for flat memory."""

DEFAULT_CHUNK = 2048
"""Items per task when no number of partitions is asked for."""

USER_ERRORS: tuple[type[BaseException], ...] = (GecFormatError, OSError, UnicodeError,
                                                 MemoryError, RecursionError)
"""What a task raises for bad input (what the CLI prints as one line): sent back to the
client as a result and raised there, never retried."""


def chunks(items: Iterable[Any], size: int, settings: Any = None
           ) -> Iterator[tuple[Any, int, list[Any]]]:
    """``(settings, first, batch)`` tasks of ``size`` items (``first`` numbers the batch's
    first item from 1), read from ``items`` as they are asked for.

    Raises:
        USER_ERRORS: what reading ``items`` raised, after the task of the items read
            before it."""
    batch: list[Any] = []
    first = 1
    try:
        for item in items:
            batch.append(item)
            if len(batch) == size:
                yield settings, first, batch
                first += len(batch)
                batch = []
    except USER_ERRORS:
        # the items read before the bad one are still work, as on the plain path, where
        # they are written before the error (which an earlier item's own error precedes)
        if batch:
            yield settings, first, batch
        raise
    if batch:
        yield settings, first, batch


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
    with at most two tasks per process in flight (``Pool.imap`` would read the whole input
    ahead): the local twin of :meth:`Engine.map_chunks`, shared by every ``--jobs``."""
    import multiprocessing

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    pending: deque[Any] = deque()
    pool = multiprocessing.get_context(method).Pool(jobs)
    try:
        for task in _reading(tasks):
            if isinstance(task, _ReadFailed):
                while pending:
                    yield pending.popleft().get()
                raise task.error
            pending.append(pool.apply_async(function, (task,)))
            if len(pending) >= 2 * jobs:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()
        # all done: let the workers finish on their own (close + join) rather than stop
        # them with SIGTERM (Pool.__exit__), which a worker blocked on the task queue
        # did not always act on (a test run hung in Pool.terminate)
        pool.close()
        pool.join()
    finally:
        pool.terminate()


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

    def __enter__(self) -> Engine:
        distributed = _import_distributed()
        if self.scheduler is None:
            import os

            n = self.workers or os.cpu_count() or 1
            # CRITICAL: a task's failure is reported once, by the client, not logged by
            # the worker on the user's terminal
            self._cluster = distributed.LocalCluster(
                n_workers=n, threads_per_worker=1, processes=self.processes,
                dashboard_address=":0", silence_logs=logging.CRITICAL)
            self.client = distributed.Client(self._cluster)
        else:
            try:
                self.client = distributed.Client(self.scheduler, timeout="10s")
            except OSError as exc:
                raise GecFormatError(f"cannot reach the Dask scheduler {self.scheduler}: "
                                     f"{exc}") from None
        return self

    def __exit__(self, *exc: object) -> None:
        if self.client is not None:
            self.client.close()
        if self._cluster is not None:
            self._cluster.close()
        self.client = self._cluster = None

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
