"""Sharded output: ``OUT/part-00000.m2 …`` and a manifest, so a run can be resumed and a
partial output is never taken for a whole one.

Two layouts: ``--shards N`` cuts the converted stream into ``N`` equal parts, written in
order by one process (:func:`write_sharded`); ``--shards 0`` makes one part per input file
(a glob of input shards), each converted and written on its own, on the workers of a Dask
engine in parallel (:func:`write_per_input`): the layout for corpora too large to pass
through one process.

``gecformats convert IN OUT --shards N`` writes the items of the conversion (what the plain
conversion writes: sentences, lines, documents) in exactly ``N`` consecutive parts, each
part atomically (whole or not at all): of ``total`` items, the first ``total mod N`` parts
hold ``part_size = ceil(total / N)`` items and the others one less (30 items in 7 parts:
5, 5, 4, 4, 4, 4, 4; fewer items than parts leave the last parts empty), so the parts,
joined in name order, are the plain conversion's output byte for byte (M2, the line
formats; ids that the writer numbers by position keep the numbering of the whole run).
The input is read once: the run first counts the items, keeping them in an unnamed
temporary file in OUT (the input items when the conversion makes one output item of each,
the converted items when it does not, as HOO, NUCLE, BEA, FCE → M2 cut documents into
sentences), so standard input and pipes work.  Then, after each part, it writes
``OUT/manifest.json``::

    {"complete": false, "gecformats": "0.1.0", "settings": {...}, "inputs": [...],
     "shards": 100, "total": 1000000, "part_size": 10000,
     "parts": [{"name": "part-00000.m2", "items": 10000, "bytes": 812345,
                "sha256": "…"}, …]}

``complete`` becomes true only once every part is written: a reader (or a training job)
that finds ``false``, or a part whose checksum differs, knows the output is not whole.
``--resume`` continues a run that stopped: the parts the manifest lists whose files still
have their checksums are kept, and the run goes on from the first missing part, provided
the settings and the inputs (sizes and checksums; a folder's files, the references and
other files read) are those of the manifest.  Where each input item makes one output item,
the input items of the kept parts are skipped without being converted; otherwise the
conversion starts again and the items of the kept parts are not written again.  An input
that cannot be read twice (standard input, a pipe) cannot be checked, so it cannot be
resumed.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import os
import pickle
import shutil
import stat
import tempfile
from contextlib import contextmanager
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from gecformats import __version__
from gecformats.convert.counts import ConversionCounts
from gecformats.errors import GecFormatError, UsageError
from gecformats.io import write_json
from gecformats.report import Report

MANIFEST = "manifest.json"


def file_digest(path: str | os.PathLike[str]) -> str:
    """The SHA-256 of a file's bytes (hex)."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def describe_inputs(paths: Sequence[str | os.PathLike[str]]) -> list[dict[str, Any]]:
    """Name, size and checksum of each input (what a resumed run must find again): a file's
    bytes; a folder's files (their names relative to it and their bytes, in name order);
    ``None`` for both of an input that cannot be read twice (standard input, a pipe, a
    device), which is not read here."""
    return [_describe(p) for p in paths]


def _describe(path: str | os.PathLike[str]) -> dict[str, Any]:
    name = os.fspath(path)
    try:
        mode = os.stat(path).st_mode if name != "-" else 0
    except OSError:
        mode = 0  # the reader says what is wrong with it
    if stat.S_ISREG(mode):
        return {"path": name, "bytes": os.path.getsize(path), "sha256": file_digest(path)}
    if not stat.S_ISDIR(mode):
        return {"path": name, "bytes": None, "sha256": None}
    digest, size = hashlib.sha256(), 0
    for folder, dirs, files in os.walk(path):
        dirs.sort()
        for file in sorted(files):
            full = os.path.join(folder, file)
            size += os.path.getsize(full)
            digest.update(os.path.relpath(full, path).encode("utf-8", "surrogateescape") + b"\0")
            digest.update(file_digest(full).encode("ascii") + b"\0")
    return {"path": name, "bytes": size, "sha256": digest.hexdigest()}


def part_sizes(total: int, shards: int) -> list[int]:
    """How many of ``total`` items each of ``shards`` parts holds: the first ``total mod
    shards`` parts one more than the others.

    >>> part_sizes(30, 7)
    [5, 5, 4, 4, 4, 4, 4]
    >>> part_sizes(2, 3)
    [1, 1, 0]
    """
    size, extra = divmod(total, shards)
    return [size + (k < extra) for k in range(shards)]


def read_manifest(folder: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The manifest of a sharded output folder, or ``None`` when there is none.

    Raises:
        GecFormatError: a manifest that is not JSON.
    """
    path = Path(folder) / MANIFEST
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, RecursionError) as exc:
        raise GecFormatError(f"not a manifest: {exc}", str(path)) from None
    if not isinstance(data, dict):
        raise GecFormatError("not a manifest (a JSON object)", str(path))
    return data


def verified_parts(folder: str | os.PathLike[str], manifest: dict[str, Any]) -> int:
    """How many leading parts of the manifest are on disk with their checksums."""
    n = 0
    for part in manifest.get("parts", []):
        path = Path(folder) / str(part.get("name"))
        if not path.is_file() or file_digest(path) != part.get("sha256"):
            break
        n += 1
    return n


def check(folder: str | os.PathLike[str]) -> list[str]:
    """What is wrong with a sharded output (empty when it is whole): no manifest, not
    complete, a part missing or changed."""
    manifest = read_manifest(folder)
    if manifest is None:
        return [f"{folder}: no {MANIFEST}"]
    problems = []
    if not manifest.get("complete"):
        problems.append(f"{folder}: the run did not finish ({MANIFEST} says complete: false)")
    parts = manifest.get("parts", [])
    good = verified_parts(folder, manifest)
    if good < len(parts):
        problems.append(f"{folder}: {parts[good].get('name')} is missing or changed")
    return problems


@contextmanager
def _new_folder(folder: Path, written: list[Any]) -> Iterator[None]:
    """Create ``folder`` for a run; if the run fails before any part is written, or on bad
    input data, remove it again, so that a failed run leaves nothing behind: bad data fails
    again at the same item (and a corrected input is another run), so its parts could
    never be resumed.  A run stopped otherwise (interrupted, killed, a full disk) keeps the
    parts written, its manifest saying ``complete: false``, for ``--resume``."""
    created = not folder.exists()
    folder.mkdir(parents=True, exist_ok=True)
    try:
        yield
    except BaseException as exc:
        if created and (not written or isinstance(exc, (GecFormatError, UnwritableItem))):
            shutil.rmtree(folder, ignore_errors=True)
        raise


Transform = Callable[[Iterable[Any], "int | None", "Callable[[], Iterable[Any]] | None"],
                     Iterable[Any]]
"""The conversion of a sharded run: ``(input items, how many, replay) -> output items``,
lazy; ``replay()`` gives the input items again from the start (for conversions that read
them twice), ``None`` when they cannot be."""

NUMBERED = ("nlpcc", "cherrant", "ixml")
"""Writers that give an item without an id its position in the file as id: in a part, the
position in the whole run."""


class UnwritableItem(ValueError):
    """What a writer could not hold (its ``ValueError``), with the 1-based number of the
    item in the whole run."""

    def __init__(self, number: int, message: str) -> None:
        super().__init__(message)
        self.number = number


def write_sharded(
    writer: Any,
    raw: Iterable[Any],
    transform: Transform,
    dest: str | os.PathLike[str],
    *,
    shards: int,
    suffix: str,
    settings: dict[str, Any],
    inputs: list[dict[str, Any]],
    resume: bool = False,
    per_item: bool = True,
    reread: Callable[[], Iterable[Any]] | None = None,
    **options: Any,
) -> Report:
    """Convert ``raw`` input items and write the result as ``shards`` parts in folder
    ``dest``, reading ``raw`` once (see the module documentation).

    Args:
        writer: the output format's module.
        raw: the input items (before the conversion).
        transform: the conversion (:data:`Transform`).
        shards: how many parts (at least 1).
        suffix: the parts' file name ending (``.m2``).
        settings: what decides the output (format names, options, tool versions).
        inputs: :func:`describe_inputs` of the inputs.
        resume: keep the verified parts of an earlier run with the same settings and inputs.
        per_item: the conversion makes exactly one output item of each input item, in
            order (then a resumed run skips the kept parts' input items unconverted).
        reread: the input items again, from the inputs (a resumed run, whose inputs are
            files, needs no temporary copy for a conversion that reads them twice).
        options: the writer's options.

    Returns:
        The merged report of the parts written in this run (``sentences``: items written).

    Raises:
        UsageError: ``dest`` holds another run's output (without ``resume``, or with other
            settings or inputs, or from an input that cannot be checked), or is a file.
        UnwritableItem: an item the writer cannot hold (numbered in the whole run).
    """
    if shards < 1:
        raise UsageError("--shards must be 0 (one part per input file) or more")
    folder = Path(dest)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"--shards writes a folder; {dest} is a file")
    manifest: dict[str, Any] = {"complete": False, "gecformats": __version__,
                                "settings": settings, "inputs": inputs, "shards": shards,
                                "total": None, "part_size": None, "parts": []}
    old = read_manifest(folder)
    total: int | None = None
    start = 0
    if old is not None:
        same = all(old.get(k) == manifest[k] for k in ("settings", "inputs", "shards"))
        if same and any(i.get("sha256") is None for i in inputs):
            raise UsageError(f"{dest} holds an earlier run's output ({MANIFEST}), and an input "
                             "read as a stream (standard input, a pipe) cannot be checked "
                             "against that run's, so the run cannot be resumed: write to an "
                             "empty folder")
        if not resume or not same:
            why = "another run's output" if not same else "an earlier run's output"
            raise UsageError(f"{dest} holds {why} ({MANIFEST}); "
                             + ("add --resume to continue it" if same and not resume else
                                "write to an empty folder"))
        old_total = old.get("total")
        if isinstance(old_total, int) and old_total >= 0 \
                and old.get("part_size") == part_sizes(old_total, shards)[0]:
            total = old_total
            start = verified_parts(folder, old)
            manifest["parts"] = old["parts"][:start]
    elif folder.exists() and any(folder.iterdir()):
        raise UsageError(f"{dest} is not empty and has no {MANIFEST}: write to an empty folder")
    report = Report()
    number = 0  # items given to the writer so far, in the whole run

    def numbered(items: Iterable[Any]) -> Iterator[Any]:
        nonlocal number
        for item in items:
            number += 1
            if writer.NAME in NUMBERED and getattr(item, "id", "") is None:
                item = item.replace(id=str(number))
            yield item

    with _new_folder(folder, manifest["parts"]), _Spool(folder) as spool:
        try:
            if total is None:  # a new run: count the items, reading the input once
                if per_item:
                    spool.fill(raw)
                    items = iter(transform(spool, spool.count, spool.replay))
                else:
                    spool.fill(transform(raw, None, None))
                    items = iter(spool)
                total = spool.count
            else:  # a resumed run: the total is the manifest's
                number = sum(p.get("items", 0) for p in manifest["parts"])
                if per_item:
                    raw = iter(raw)
                    for _ in itertools.islice(raw, number):
                        pass
                    items = iter(transform(raw, total - number, reread))
                else:
                    items = iter(transform(raw, None, reread))
                    for _ in itertools.islice(items, number):
                        pass
            sizes = part_sizes(total, shards)
            manifest["total"], manifest["part_size"] = total, sizes[0]
            write_json(manifest, folder / MANIFEST)
            for k in range(start, shards):
                name = f"part-{k:05d}{suffix}"
                path = folder / name
                part = writer.write(numbered(itertools.islice(items, sizes[k])), path,
                                    **options)
                report.sentences += part.sentences
                report.dropped.merge(part.dropped)
                report.notes.merge(part.notes)
                manifest["parts"].append({"name": name, "items": part.sentences,
                                          "bytes": path.stat().st_size,
                                          "sha256": file_digest(path)})
                write_json(manifest, folder / MANIFEST)
            try:
                for _ in items:  # past the last item: the checks made at the input's end (a
                    pass         # tsv without any reference column) fail here as unsharded
            except GecFormatError:
                if start == 0:  # the whole input is refused: no part to resume from
                    manifest["parts"].clear()
                raise
        except GecFormatError:
            raise
        except ValueError as exc:  # what the output format cannot hold
            raise UnwritableItem(number or spool.count + 1, str(exc)) from None
        manifest["complete"] = True
        write_json(manifest, folder / MANIFEST)
    return report


def count_parts(writer: Any, folder: str | os.PathLike[str]) -> Any:
    """What the parts of a sharded output hold, counted as one output
    (:class:`~gecformats.convert.counts.Counts`): the parts joined in order, read back as
    one stream by the format's reader (a part may begin inside a UA-GEC M2 document, whose
    header only the part before has), else, for a format whose parts are files of their own
    (I-measure XML, or a reader that needs a path: BEA JSON, C4's edit and text files), each
    part read back on its own.

    Raises:
        GecFormatError: a part does not read back.
    """
    from gecformats.convert.counts import count_output

    manifest = read_manifest(folder) or {}
    paths = [os.path.join(folder, str(part["name"])) for part in manifest.get("parts", [])]
    try:
        with io.BufferedReader(_Joined(paths, os.fspath(folder))) as joined:
            return count_output(writer, [joined])
    except (TypeError, AttributeError, ValueError, OSError):
        return count_output(writer, paths)


class _Joined(io.RawIOBase):
    """The bytes of several files one after another, as one binary stream named ``name``."""

    def __init__(self, paths: Sequence[str], name: str) -> None:
        super().__init__()
        self._paths = list(paths)
        self._file: Any = None
        self.name = name

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while True:
            if self._file is None:
                if not self._paths:
                    return 0
                self._file = open(self._paths.pop(0), "rb")
            n = self._file.readinto(buffer)
            if n:
                return n
            self._file.close()
            self._file = None

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        super().close()


class _Spool:
    """Items kept in an unnamed temporary file in the output folder (gone when closed, or
    when the process ends), to be read back, by several readers in turn."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0
        self._file: Any = None

    def __enter__(self) -> _Spool:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._file is not None:
            self._file.close()

    def fill(self, items: Iterable[Any]) -> None:
        """Keep ``items`` (read to the end), counting them."""
        self._file = tempfile.TemporaryFile(dir=self.folder, prefix=".spool-")
        for item in items:
            pickle.dump(item, self._file, protocol=pickle.HIGHEST_PROTOCOL)
            self.count += 1
        self._file.flush()

    def replay(self) -> Iterator[Any]:
        """The items kept, from the first."""
        return iter(self)

    def __iter__(self) -> Iterator[Any]:
        position = 0
        for _ in range(self.count):
            self._file.seek(position)
            item = pickle.load(self._file)
            position = self._file.tell()
            yield item


def convert_part(task: tuple[dict[str, Any], int, list[tuple[str, str]]]
                 ) -> tuple[list[dict[str, Any]], Any, Any]:
    """One task of :func:`write_per_input`: convert each ``(input, part)`` pair of the task
    with the local pipeline, writing the part (atomically); the parts' manifest entries,
    the merged extraction report (``None`` for other conversions) and the merged counts
    of what was read and written (:class:`~gecformats.convert.counts.ConversionCounts`)."""
    from gecformats.convert.pipeline import convert

    options, _first, pairs = task
    entries = []
    merged = None
    counts = ConversionCounts()
    for source, part in pairs:
        report = convert(source, part, **options)
        if report.counts is not None:
            counts.merge(report.counts)
        entries.append({"name": os.path.basename(part), "input": source,
                        "items": report.sentences, "bytes": os.path.getsize(part),
                        "sha256": file_digest(part),
                        "dropped": {w: l.count for w, l in report.losses.items()}})
        if report.conversion is not None and hasattr(report.conversion, "merge"):
            if merged is None:
                merged = type(report.conversion)()
            merged.merge(report.conversion)
    return entries, merged, counts


def write_per_input(files: Sequence[str], dest: str | os.PathLike[str], *, suffix: str,
                    settings: dict[str, Any], options: dict[str, Any], engine: Any = None,
                    resume: bool = False) -> Report:
    """One part per input file (``part-<k>`` for the k-th file in name order), each
    converted on its own: on ``engine``'s workers in parallel (they must see ``dest`` and
    the inputs: a shared file system), else here one after the other.

    Returns:
        The report: items written and what was dropped, summed over the parts written in
        this run; ``conversion`` the merged extraction report when there is one; ``counts``
        what those parts' inputs held and what the parts hold.

    Raises:
        UsageError: ``dest`` holds another run's output, or is not empty without a manifest.
    """
    folder = Path(dest).absolute()
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"--shards writes a folder; {dest} is a file")
    inputs = describe_inputs(files)
    manifest: dict[str, Any] = {"complete": False, "gecformats": __version__,
                                "settings": settings, "inputs": inputs, "total": None,
                                "part_size": None, "parts": []}
    old = read_manifest(folder)
    done: dict[str, dict[str, Any]] = {}
    if old is not None:
        same = all(old.get(k) == manifest[k] for k in ("settings", "inputs", "part_size"))
        if not resume or not same:
            why = "another run's output" if not same else "an earlier run's output"
            raise UsageError(f"{dest} holds {why} ({MANIFEST}); "
                             + ("add --resume to continue it" if same and not resume else
                                "write to an empty folder"))
        for part in old.get("parts", []):
            path = folder / str(part.get("name"))
            if path.is_file() and file_digest(path) == part.get("sha256"):
                done[part["name"]] = part
    elif folder.exists() and any(folder.iterdir()):
        raise UsageError(f"{dest} is not empty and has no {MANIFEST}: write to an empty folder")
    names = [f"part-{k:05d}{suffix}" for k in range(len(files))]
    manifest["parts"] = [done[n] for n in names if n in done]
    todo = [(os.path.abspath(f), str(folder / n)) for f, n in zip(files, names) if n not in done]
    report = Report(counts=ConversionCounts())
    with _new_folder(folder, manifest["parts"]):
        write_json(manifest, folder / MANIFEST)
        tasks = ((options, k + 1, [pair]) for k, pair in enumerate(todo))
        results = (engine.map_chunks(convert_part, tasks) if engine is not None
                   else map(convert_part, tasks))
        for entries, conversion, counts in _as_given(results, files):
            report.counts.merge(counts)
            for entry in entries:
                report.sentences += entry["items"]
                for what, count in entry["dropped"].items():
                    report.drop(what, entry["name"], count)
                manifest["parts"].append(entry)
            if conversion is not None:
                if report.conversion is None:
                    report.conversion = type(conversion)()
                report.conversion.merge(conversion)
            manifest["parts"].sort(key=lambda p: p["name"])
            write_json(manifest, folder / MANIFEST)
        manifest["total"] = sum(p["items"] for p in manifest["parts"])
        manifest["complete"] = True
        write_json(manifest, folder / MANIFEST)
    return report


def _as_given(results: Iterable[Any], files: Sequence[str]) -> Iterator[Any]:
    """``results``, an error naming an input by the absolute path its task was given
    named as the user gave it (as the plain conversion names it)."""
    from gecformats.io import renamed

    try:
        yield from results
    except (GecFormatError, OSError) as exc:
        raise renamed(exc, {os.path.abspath(f): f for f in files}) from None
