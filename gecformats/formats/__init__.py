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

import importlib
import os
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Literal, Protocol, cast, runtime_checkable

from gecformats.errors import UsageError
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


NAMES = ("m2", "hoo2011", "hoo2012", "ixml", "nucle", "bea", "parallel", "tsv", "nlpcc",
         "cherrant", "c4edits", "fce", "conll")
"""The format names; each is the name of its module in this package."""


class _Registry(Mapping[str, Format]):
    """Format name → module, imported on first use: a command that only needs M2 (``score``,
    the ``maxmatch`` drop-in) does not pay for lxml and the other readers at start-up."""

    def __getitem__(self, name: str) -> Format:
        if name not in NAMES:
            raise KeyError(name)
        module = importlib.import_module(f"{__name__}.{name}")
        if not isinstance(module, Format) or module.NAME != name:
            raise TypeError(f"{module.__name__} does not satisfy the Format protocol")
        return cast(Format, module)

    def __iter__(self) -> Iterator[str]:
        return iter(NAMES)

    def __len__(self) -> int:
        return len(NAMES)


FORMATS: Mapping[str, Format] = _Registry()
"""Format name → module (imported when first looked up)."""


def get(name: str) -> Format:
    """The module of format ``name``.

    Raises:
        UsageError: no such format (the message lists the known ones).
    """
    try:
        return FORMATS[name]
    except KeyError:
        raise UsageError(f"unknown format {name!r} (known: {', '.join(FORMATS)})") from None


def infer(path: str | os.PathLike[str]) -> str:
    """The format name implied by the suffix of ``path`` (``.gz`` is looked through).

    Raises:
        UsageError: no format, or more than one, uses the suffix; name one with
            ``--from``/``--to``.
    """
    name = os.fspath(path).lower()
    if name.endswith(".gz"):
        name = name[:-3]
    matches = [fmt for fmt, module in FORMATS.items() if name.endswith(module.SUFFIXES)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise UsageError(
            f"the suffix of {os.fspath(path)!r} fits several formats ({', '.join(matches)}); "
            "name one with --from/--to"
        )
    raise UsageError(
        f"cannot tell the format of {os.fspath(path)!r} from its suffix; "
        f"name it with --from/--to (known: {', '.join(FORMATS)})"
    )


def infer_input(path: str | os.PathLike[str], example: str | None = None) -> str:
    """The format of an input file: from its suffix, else from its first bytes.

    A file without a telling suffix (NLPCC 2018's ``gold.01``) or standard input (``-``)
    is recognised as M2 when its first line is an ``S`` line and as I-measure XML when it
    opens a ``<scripts>`` document; anything else must be named.

    Args:
        path: the input (``-`` is standard input, peeked at without consuming it).
        example: the command line to suggest, with ``{format}`` where ``--from`` goes
            (e.g. ``"gecformats convert gold.01 OUT.m2 --from {format}"``).

    Raises:
        UsageError: the format cannot be told; the message gives the command to type.
    """
    try:
        return infer(path)
    except UsageError as exc:
        suffix_error = exc
    found = _sniff(path)
    if found is not None:
        return found
    if example is None:
        raise suffix_error
    raise UsageError(f"cannot tell the format of {os.fspath(path)!r} from its name or first "
                     f"line; name it, e.g.: {example.format(format='m2')} (formats: "
                     f"{', '.join(FORMATS)})")


def _sniff(path: str | os.PathLike[str]) -> str | None:
    """``m2`` or ``ixml`` when the first bytes of ``path`` say so, else ``None``."""
    import gzip
    import sys

    name = os.fspath(path)
    try:
        if name == "-":
            peek = getattr(sys.stdin.buffer, "peek", None)
            head = peek(1024)[:1024] if peek is not None else b""
        elif os.path.isfile(name):
            opener = gzip.open if name.endswith(".gz") else open
            with opener(name, "rb") as fh:
                head = fh.read(1024)
        else:
            return None
    except (OSError, EOFError, ValueError):
        return None  # the reader will say what is wrong with the file
    text = head.decode("utf-8", "replace").lstrip("\ufeff \t\r\n")
    if text.startswith(("S ", "S\n", "S\r\n")):
        return "m2"
    if text.startswith("<") and "<scripts" in text:
        return "ixml"
    return None
