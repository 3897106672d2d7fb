"""Format → model → format conversion of whole files."""

from __future__ import annotations

import os
from typing import Any

from gecformats import formats
from gecformats.io import Source
from gecformats.report import Report


def convert(
    source: Source,
    dest: str | os.PathLike[str],
    *,
    from_format: str | None = None,
    to_format: str | None = None,
    **options: Any,
) -> Report:
    """Read ``source`` in one format and write ``dest`` in another, streaming.

    Args:
        source: input path (or open file when ``from_format`` is given).
        dest: output path; it appears whole or not at all (``-`` is standard output).
        from_format, to_format: format names; inferred from the suffixes when omitted.
        options: writer options of the output format (e.g. ``deletion``, ``targets`` for
            M2).

    Returns:
        The writer's :class:`~gecformats.report.Report` (sentences written, what was lost).

    Raises:
        GecFormatError: malformed input, or a format that cannot be inferred; no output
            file is left behind.
        OSError: the input cannot be read or the output written.
    """
    reader = formats.get(from_format or formats.infer(_path(source)))
    writer = formats.get(to_format or formats.infer(dest))
    return writer.write(reader.read(source), dest, **options)


def _path(source: Source) -> str:
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    return str(getattr(source, "name", ""))
