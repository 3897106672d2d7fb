"""Sharded output: ``OUT/part-00000.m2 …`` and a manifest, so a run can be resumed and a
partial output is never taken for a whole one.

Two layouts: ``--shards N`` cuts the converted stream into ``N`` equal parts, written in
order by one process (:func:`write_sharded`); ``--shards 0`` makes one part per input file
(a glob of input shards), each converted and written on its own, on the workers of a Dask
engine in parallel (:func:`write_per_input`): the layout for corpora too large to pass
through one process.

``gecformats convert IN OUT --shards N`` writes the items of the conversion in ``N``
consecutive parts of equal size (the last one shorter), each part atomically (whole or not
at all), and after each part ``OUT/manifest.json``::

    {"complete": false, "gecformats": "0.1.0", "settings": {...}, "inputs": [...],
     "total": 1000000, "part_size": 10000,
     "parts": [{"name": "part-00000.m2", "items": 10000, "bytes": 812345,
                "sha256": "…"}, …]}

``complete`` becomes true only once every part is written: a reader (or a training job)
that finds ``false``, or a part whose checksum differs, knows the output is not whole.
``--resume`` continues a run that stopped: the parts the manifest lists whose files still
have their checksums are kept, their input items are skipped without being converted, and
the run goes on from the first missing part, provided the settings and the inputs (sizes
and checksums) are those of the manifest.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import shutil
from contextlib import contextmanager
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from gecformats import __version__
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
    """Name, size and checksum of each input file (what a resumed run must find again)."""
    return [{"path": os.fspath(p), "bytes": os.path.getsize(p), "sha256": file_digest(p)}
            for p in paths]


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
    """Create ``folder`` for a run; if the run fails before any part is written, remove it
    again (nothing to resume), so that a failed run leaves nothing behind.  Once a part is
    written, the folder stays, its manifest saying ``complete: false``, for ``--resume``."""
    created = not folder.exists()
    folder.mkdir(parents=True, exist_ok=True)
    try:
        yield
    except BaseException:
        if created and not written:
            shutil.rmtree(folder, ignore_errors=True)
        raise


def write_sharded(
    writer: Any,
    raw: Iterator[Any],
    items: Iterable[Any],
    dest: str | os.PathLike[str],
    *,
    shards: int,
    total: int,
    suffix: str,
    settings: dict[str, Any],
    inputs: list[dict[str, Any]],
    resume: bool = False,
    **options: Any,
) -> Report:
    """Convert and write ``raw`` input items as ``shards`` parts in folder ``dest``.

    Args:
        writer: the output format's module.
        raw: the input items (before the conversion), ``total`` of them.
        items: the converted items, a lazy stream over ``raw`` (the items of kept parts are
            taken from ``raw`` before it is started, so they are never converted).
        suffix: the parts' file name ending (``.m2``).
        settings: what decides the output (format names, options, tool versions).
        inputs: :func:`describe_inputs` of the input files.
        resume: keep the verified parts of an earlier run with the same settings and inputs.
        options: the writer's options.

    Returns:
        The merged report of the parts written in this run (``sentences``: items written).

    Raises:
        UsageError: ``dest`` holds another run's output (without ``resume``, or with other
            settings or inputs), or is a file.
    """
    folder = Path(dest)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"--shards writes a folder; {dest} is a file")
    size = max(1, -(-total // shards)) if total else 1
    manifest: dict[str, Any] = {"complete": False, "gecformats": __version__,
                                "settings": settings, "inputs": inputs, "total": total,
                                "part_size": size, "parts": []}
    old = read_manifest(folder)
    start = 0
    if old is not None:
        same = all(old.get(k) == manifest[k] for k in ("settings", "inputs", "total", "part_size"))
        if not resume or not same:
            why = "another run's output" if not same else "an earlier run's output"
            raise UsageError(f"{dest} holds {why} ({MANIFEST}); "
                             + ("add --resume to continue it" if same and not resume else
                                "write to an empty folder"))
        start = verified_parts(folder, old)
        manifest["parts"] = old["parts"][:start]
    elif folder.exists() and any(folder.iterdir()):
        raise UsageError(f"{dest} is not empty and has no {MANIFEST}: write to an empty folder")
    report = Report()
    with _new_folder(folder, manifest["parts"]):
        write_json(manifest, folder / MANIFEST)
        skipped = start * size
        for _ in itertools.islice(raw, skipped):
            pass
        stream = iter(items)
        count = max(1, -(-total // size)) if total else 0
        for k in range(start, count):
            name = f"part-{k:05d}{suffix}"
            part = writer.write(itertools.islice(stream, size), folder / name, **options)
            report.sentences += part.sentences
            report.dropped.merge(part.dropped)
            report.notes.merge(part.notes)
            path = folder / name
            manifest["parts"].append({"name": name, "items": part.sentences,
                                      "bytes": path.stat().st_size,
                                      "sha256": file_digest(path)})
            write_json(manifest, folder / MANIFEST)
        manifest["complete"] = True
        write_json(manifest, folder / MANIFEST)
    return report


def convert_part(task: tuple[dict[str, Any], int, list[tuple[str, str]]]) -> tuple[list[dict[str, Any]], Any]:
    """One task of :func:`write_per_input`: convert each ``(input, part)`` pair of the task
    with the local pipeline, writing the part (atomically); the parts' manifest entries and
    the merged extraction report (``None`` for other conversions)."""
    from gecformats.convert.pipeline import convert

    options, _first, pairs = task
    entries = []
    merged = None
    for source, part in pairs:
        report = convert(source, part, **options)
        entries.append({"name": os.path.basename(part), "input": source,
                        "items": report.sentences, "bytes": os.path.getsize(part),
                        "sha256": file_digest(part),
                        "dropped": {w: l.count for w, l in report.losses.items()}})
        if report.conversion is not None and hasattr(report.conversion, "merge"):
            if merged is None:
                merged = type(report.conversion)()
            merged.merge(report.conversion)
    return entries, merged


def write_per_input(files: Sequence[str], dest: str | os.PathLike[str], *, suffix: str,
                    settings: dict[str, Any], options: dict[str, Any], engine: Any = None,
                    resume: bool = False) -> Report:
    """One part per input file (``part-<k>`` for the k-th file in name order), each
    converted on its own: on ``engine``'s workers in parallel (they must see ``dest`` and
    the inputs: a shared file system), else here one after the other.

    Returns:
        The report: items written and what was dropped, summed over the parts written in
        this run; ``conversion`` the merged extraction report when there is one.

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
    report = Report()
    with _new_folder(folder, manifest["parts"]):
        write_json(manifest, folder / MANIFEST)
        tasks = ((options, k + 1, [pair]) for k, pair in enumerate(todo))
        results = (engine.map_chunks(convert_part, tasks) if engine is not None
                   else map(convert_part, tasks))
        for entries, conversion in results:
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
