"""The formats gecformats reads and writes, one module each, found by name or suffix.

Every format module satisfies the :class:`Format` protocol: ``NAME``, ``SUFFIXES``,
``UNIT``, ``read(source)`` and ``write(items, dest, **options) -> Report``.  Token formats (M2) read and write
:class:`~gecformats.model.Sentence` s; character formats (HOO 2011 and 2012, ``UNIT =
"char"``) read and write :class:`~gecformats.model.Document` s; plain-text formats
(``parallel``, ``tsv``, ``nlpcc``, ``cherrant``, ``UNIT = "text"``) read and write
:class:`~gecformats.model.Parallel` s.  A format without suffixes (``parallel``,
``cherrant``) is only used when named.

Optional module attributes: ``ANNOTATORS``, how many annotators one output holds (a
conversion from tokens to characters gives a format with more than one every annotator's
edits, the others annotator 0's); ``read_back(dest)``, how to read what ``write`` wrote to
``dest`` when ``read(dest)`` alone does not (C4's text file, MultiGEC's reference files
beside it), which :mod:`gecformats.convert.counts` uses to count every output.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, Literal, Protocol, cast, runtime_checkable

from gecformats.errors import UsageError

if TYPE_CHECKING:  # the writers' report: ``score`` reads M2 and never imports it
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


NAMES = ("m2", "hoo2011", "hoo2012", "ixml", "nucle", "bea", "parallel", "tsv", "nlpcc", "uagec",
         "cherrant", "c4edits", "fce", "conll")
"""The format names; each is the name of its module in this package (``-`` as ``_``)."""
NAMES += ("jfleg", "multigec")
NAMES += ("geccc", "seeda-edits", "cowsl2h")


SUFFIXES: dict[str, tuple[str, ...]] = {
    "m2": (".m2", ".m2.char", ".m2.word"), "ixml": (".ixml", ".ieval.xml", ".xml"),
    "nucle": (".sgml",), "bea": (".json",), "tsv": (".tsv",), "nlpcc": (".train",),
    "uagec": (".ann",), "conll": (".conll",), "multigec": (".md",),
}
"""Each format's ``SUFFIXES`` (the formats not listed have none), as its module declares
them (a test holds the two equal): :func:`infer` reads them here, so that telling a file's
format imports no reader (the XML ones pull in lxml)."""


class _Registry(Mapping[str, Format]):
    """Format name → module, imported on first use: a command that only needs M2 (``score``,
    the ``maxmatch`` drop-in) does not pay for lxml and the other readers at start-up."""

    def __getitem__(self, name: str) -> Format:
        if name not in NAMES:
            raise KeyError(name)
        module = importlib.import_module(f"{__name__}.{name.replace('-', '_')}")
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
    matches = [fmt for fmt in NAMES if name.endswith(SUFFIXES.get(fmt, ()))]
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


def infer_input(path: str | os.PathLike[str], example: str | None = None,
                reads: tuple[str, ...] | None = None) -> str:
    """The format of an input file: from its suffix, else from its first bytes.

    A file without a telling suffix (NLPCC 2018's ``gold.01``) or standard input (``-``)
    is recognised as M2 when its first line is an ``S`` line and as I-measure XML when it
    opens a ``<scripts>`` document; anything else must be named, and the message suggests
    the format the first lines look like (``parallel`` for plain text, ``tsv``, ``nlpcc``
    ...).

    Args:
        path: the input (``-`` is standard input, peeked at without consuming it).
        example: the command line to suggest, with ``{format}`` where ``--from`` goes
            (e.g. ``"gecformats convert gold.01 OUT.m2 --from {format}"``).
        reads: the formats the command reads, when not all (``("ixml", "m2")``): a file
            that looks like another is said to be so, with no command to type.

    Raises:
        UsageError: the format cannot be told; the message gives the command to type.
        FileNotFoundError: there is no ``path`` (and its name does not tell the format):
            bad input, not a format to name.
    """
    try:
        return infer(path)
    except UsageError as exc:
        suffix_error = exc
    name = os.fspath(path)
    if name != "-" and not os.path.exists(name):
        import errno

        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), name)
    head = _head(path)
    found = _sniff_text(head)
    if found is not None:
        return found
    if example is None:
        raise suffix_error
    guess = _guess(head)
    where = f"cannot tell the format of {os.fspath(path)!r} from its name or first line"
    if guess is not None and reads is not None and guess[0] not in reads:
        raise UsageError(f"{where}; it looks like {guess[1]}, which this command does not read "
                         f"(it reads: {', '.join(reads)})")
    if guess is None:
        looks, suggestion = "", example.format(format="FORMAT")
    else:
        looks = f"it looks like {guess[1]}; "
        named = guess[0]
        if guess[0] == "parallel" and " convert " in f" {example}":
            named += " --ref REF.txt"  # a source file is read with its corrected files
        suggestion = example.format(format=named)
    raise UsageError(f"{where}; {looks}name it, e.g.: {suggestion} (formats: "
                     f"{', '.join(reads or FORMATS)})")


def _head(path: str | os.PathLike[str]) -> str | None:
    """The first kilobytes of ``path`` as text (``-``: standard input, peeked at without
    consuming it), or ``None`` when they cannot be read."""
    import sys

    name = os.fspath(path)
    try:
        if name == "-":
            peek = getattr(sys.stdin.buffer, "peek", None)
            head = peek(1024)[:1024] if peek is not None else b""
        elif os.path.isfile(name):
            if name.endswith(".gz"):
                import gzip

                opener: Any = gzip.open
            else:
                opener = open
            with opener(name, "rb") as fh:
                head = fh.read(8192)
        else:
            return None
    except (OSError, EOFError, ValueError):
        return None  # the reader will say what is wrong with the file
    return head.decode("utf-8", "replace").lstrip("\ufeff \t\r\n")


def _sniff(path: str | os.PathLike[str]) -> str | None:
    """``m2`` or ``ixml`` when the first bytes of ``path`` say so, else ``None``."""
    return _sniff_text(_head(path))


def _sniff_text(text: str | None) -> str | None:
    """``m2`` or ``ixml`` when the first bytes of a file say so for certain, else ``None``."""
    if text is None:
        return None
    if text.startswith(("S ", "S\n", "S\r\n")):
        return "m2"
    if text.startswith("<") and "<scripts" in text:
        return "ixml"
    return None


def _guess(text: str | None) -> tuple[str, str] | None:
    """The format the first lines of a file suggest, and why in words (``("tsv", "tab-
    separated text")``), for the message that asks for ``--from``; ``None`` when nothing
    fits (an empty, binary or unreadable file).  A guess, never used without being named.

    >>> _guess("3\\t1\\t我在家里一个人学习中文。\\t我在家里自学中文。\\n")
    ('nlpcc', 'NLPCC 2018 training data (sent_no, N, source, N corrections)')
    >>> _guess("He go home .\\tHe goes home .\\n")[0], _guess("He go home .\\n")[0]
    ('tsv', 'parallel')
    """
    if not text or "\x00" in text or text.count("\ufffd") > len(text) // 10:
        return None
    if text.startswith("{"):
        return "bea", "BEA-2019 JSON (one essay a line)"
    if text.startswith("<"):
        opening = text[:2000]
        for tag, name, what in (("<DOC", "nucle", "NUCLE SGML"), ("<HOO", "hoo2012", "a HOO 2012 script"),
                                ("<learner", "fce", "an FCE script"), ("<coded_answer", "fce", "an FCE script"),
                                ("<ANNOTATION", "conll", "a CoNLL annotation (.conll.ann: convert the .conll beside it)")):
            if tag in opening:
                return name, what
        if "<edits" in opening:
            if " part=" in opening:
                return "hoo2012", "HOO 2012 gold edits"
            return "hoo2011", "HOO 2011 gold edits"
        return None
    lines = [line.rstrip("\r") for line in text.split("\n")[:-1] or [text] if line.strip()][:5]
    if not lines:
        return None
    if not any("\t" in line for line in lines):
        return "parallel", "plain text (one sentence a line)"
    kinds = {_tab_kind(line.split("\t")) for line in lines}
    if len(kinds) == 1:
        return kinds.pop()
    return "tsv", "tab-separated text"


def _tab_kind(fields: list[str]) -> tuple[str, str]:
    """The tab-separated format one line's fields fit best."""
    numbers = [f.strip().isascii() and f.strip().isdigit() for f in fields]
    if len(fields) >= 3 and numbers[0] and numbers[1] and len(fields) == int(fields[1]) + 3:
        return "nlpcc", "NLPCC 2018 training data (sent_no, N, source, N corrections)"
    if len(fields) >= 9 and all(numbers[:4]):
        return "conll", "CoNLL tokens (.conll: one token a line)"
    if len(fields) == 4 and numbers[1] and numbers[2]:
        return "c4edits", "C4_200M edits (id, byte start, byte end, replacement)"
    if numbers[0] and len(fields) >= 2:
        return "cherrant", "ChERRANT input (id, source, references)"
    return "tsv", "tab-separated text (source, references)"
