"""The formats gecformats reads and writes, one module each, found by name or suffix.

Every format module has ``NAME``, ``SUFFIXES``, ``read(source)`` and
``write(items, dest, **options) -> Report``.  Token formats (M2) read and write
:class:`~gecformats.model.Sentence` s; character formats (HOO 2011 and 2012, ``UNIT =
"char"``) read and write :class:`~gecformats.model.Document` s; plain-text formats
(``parallel``, ``tsv``, ``nlpcc``, ``cherrant``, ``UNIT = "text"``) read and write
:class:`~gecformats.model.Parallel` s.  A format without suffixes (``parallel``,
``cherrant``) is only used when named.
"""

from __future__ import annotations

import os
from types import ModuleType

from gecformats.errors import GecFormatError
from gecformats.formats import cherrant, hoo2011, hoo2012, ixml, m2, nlpcc, parallel, tsv

FORMATS: dict[str, ModuleType] = {
    module.NAME: module
    for module in (m2, hoo2011, hoo2012, ixml, parallel, tsv, nlpcc, cherrant)
}
"""Format name → module."""


def get(name: str) -> ModuleType:
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
