"""The formats gecformats reads and writes, one module each, found by name or suffix.

Every format module satisfies the :class:`Format` protocol: ``NAME``, ``SUFFIXES``,
``UNIT``, ``read(source)`` and ``write(items, dest, **options) -> Report``.  Token formats (M2) read and write
:class:`~gecformats.model.Sentence` s; character formats (HOO 2011 and 2012, ``UNIT =
"char"``) read and write :class:`~gecformats.model.Document` s; plain-text formats
(``parallel``, ``tsv``, ``nlpcc``, ``cherrant``, ``UNIT = "text"``) read and write
:class:`~gecformats.model.Parallel` s.  A format without suffixes (``parallel``,
``cherrant``) is only used when named.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import Any, Literal, Protocol, cast, runtime_checkable

from gecformats.errors import GecFormatError
from gecformats.formats import cherrant, hoo2011, hoo2012, ixml, m2, nlpcc, parallel, tsv
from gecformats.report import Report

Unit = Literal["token", "char", "text"]
"""What a format's offsets count: tokens (M2, I-measure XML: :class:`~gecformats.model.Sentence`),
characters (HOO: :class:`~gecformats.model.Document`) or nothing, whole texts (parallel
formats: :class:`~gecformats.model.Parallel`)."""


@runtime_checkable
class Format(Protocol):
    """What every module of :mod:`gecformats.formats` provides (modules satisfy it as they are)."""

    NAME: str
    """The name used with ``--from``/``--to``."""
    SUFFIXES: tuple[str, ...]
    """File name endings that imply the format (empty: only used when named)."""
    UNIT: Unit
    """The model type it reads and writes (see :data:`Unit`)."""

    def read(self, source: Any, /, *args: Any, **options: Any) -> Iterator[Any]:
        """Stream the model items (sentences, documents or parallel texts) of ``source``."""

    def write(self, items: Iterable[Any], dest: Any, /, *args: Any, **options: Any) -> Report:
        """Write ``items`` to ``dest`` whole or not at all; report what could not be kept."""


FORMATS: dict[str, Format] = {
    module.NAME: cast(Format, module)
    for module in (m2, hoo2011, hoo2012, ixml, parallel, tsv, nlpcc, cherrant)
}
"""Format name → module."""

assert all(isinstance(module, Format) for module in FORMATS.values())


def get(name: str) -> Format:
    """The module of format ``name``.

    Raises:
        GecFormatError: no such format (the message lists the known ones).
    """
    try:
        return FORMATS[name]
    except KeyError:
        raise GecFormatError(f"unknown format {name!r} (known: {', '.join(FORMATS)})") from None


def infer(path: str | os.PathLike[str]) -> str:
    """The format name implied by the suffix of ``path`` (``.gz`` is looked through).

    Raises:
        GecFormatError: no format, or more than one, uses the suffix; name one with
            ``--from``/``--to``.
    """
    name = os.fspath(path).lower()
    if name.endswith(".gz"):
        name = name[:-3]
    matches = [fmt for fmt, module in FORMATS.items() if name.endswith(module.SUFFIXES)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise GecFormatError(
            f"the suffix of {os.fspath(path)!r} fits several formats ({', '.join(matches)}); "
            "name one with --from/--to"
        )
    raise GecFormatError(
        f"cannot tell the format of {os.fspath(path)!r} from its suffix; "
        f"name it with --from/--to (known: {', '.join(FORMATS)})"
    )
