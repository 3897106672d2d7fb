"""Format → model → format conversion of whole files.

Formats count in tokens (M2: :class:`~gecformats.model.Sentence`) or in characters (HOO:
:class:`~gecformats.model.Document`; their modules say ``UNIT = "char"``).  Between the
two units the conversion goes through :mod:`gecformats.retokenize`, with a tokenizer and a
sentence splitter, and everything it could not carry over exactly is in the report.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from gecformats import formats
from gecformats.errors import GecFormatError
from gecformats.io import Source
from gecformats.model import Document, Sentence
from gecformats.report import Report
from gecformats.retokenize import ConversionReport, documents_to_sentences, to_document, to_documents


def convert(
    source: Source,
    dest: str | os.PathLike[str],
    *,
    from_format: str | None = None,
    to_format: str | None = None,
    tokenizer: str = "en",
    sentences: str = "punkt",
    text: str | os.PathLike[str] | None = None,
    shrink: bool = False,
    **options: Any,
) -> Report:
    """Read ``source`` in one format and write ``dest`` in another, streaming.

    Args:
        source: input path (or open file when ``from_format`` is given).  For HOO formats:
            one document (its text file with the gold edits beside it) or a directory in
            the distribution layout (``Raw/`` and ``Gold/``).
        dest: output path; it appears whole or not at all (``-`` is standard output).  For
            HOO formats a directory, written in the distribution layout.
        from_format, to_format: format names; inferred from the suffixes when omitted.
        tokenizer, sentences: characters → tokens (HOO → M2): the tokenizer (``en``,
            ``zh``, ``char``, ``space``) and sentence splitter (``punkt``, ``lines``).
            Tokens → characters: the tokenizer the tokens came from (``zh`` and ``char``
            corrections are joined without spaces).
        text: tokens → characters only: the original text the sentences come from (a text
            file, or a directory of ``*.txt`` files or with a ``Raw/`` folder, taken in file
            name order, one document each).  Without it the text is the tokens joined by
            spaces, one sentence per line, in one document.
        shrink: characters → tokens: trim tokens an edit's original and correction share
            (the CoNLL way) instead of keeping the annotator's span.
        options: writer options of the output format (e.g. ``deletion``, ``targets`` for
            M2).

    Returns:
        The writer's :class:`~gecformats.report.Report` (what was written and lost); after a
        change of unit, ``report.conversion`` holds the
        :class:`~gecformats.retokenize.ConversionReport`.

    Raises:
        GecFormatError: malformed input, or a format that cannot be inferred; no output
            file is left behind.
        OSError: the input cannot be read or the output written.
    """
    reader = formats.get(from_format or formats.infer(_path(source)))
    writer = formats.get(to_format or formats.infer(dest))
    items: Iterable[Sentence] | Iterable[Document] = reader.read(source)
    conversion: ConversionReport | None = None
    if unit(reader) == "char" and unit(writer) == "token":
        conversion = ConversionReport()
        items = documents_to_sentences(items, tokenizer, sentences, conversion,  # type: ignore[arg-type]
                                       shrink=shrink)
    elif unit(reader) == "token" and unit(writer) == "char":
        items = _documents(items, text, tokenizer)  # type: ignore[arg-type]
    elif reader.NAME == "hoo2012" and writer.NAME == "hoo2011":
        items = _part_ids(items)  # type: ignore[arg-type]
    report = writer.write(items, dest, **options)
    report.conversion = conversion
    return report


def unit(module: ModuleType) -> str:
    """``"char"`` for formats with character offsets (HOO), otherwise ``"token"``."""
    return getattr(module, "UNIT", "token")


def _documents(
    sentences: Iterable[Sentence], text: str | os.PathLike[str] | None, tokenizer: str
) -> Iterator[Document]:
    if text is None:
        yield to_document(sentences, None, id="0001", tokenizer=tokenizer)
        return
    path = Path(text)
    try:
        if path.is_dir():
            raw = path / "Raw" if (path / "Raw").is_dir() else path
            files = sorted(raw.glob("*.txt"))
            if not files:
                raise GecFormatError("no .txt files to take the original texts from", file=str(path))
            texts = ((f.stem, _read_text(f)) for f in files)
            yield from to_documents(sentences, texts, tokenizer=tokenizer)
        else:
            yield to_document(sentences, _read_text(path), id=path.stem, tokenizer=tokenizer)
    except GecFormatError as exc:
        if exc.file is not None:
            raise
        # the sentences do not fit the original text: name the text it was checked against
        raise GecFormatError(exc.message, file=str(path), kind=exc.kind) from None


def _part_ids(documents: Iterable[Document]) -> Iterator[Document]:
    """HOO 2011 has no parts: each HOO 2012 PART becomes a document ``<id>-<part>``."""
    for doc in documents:
        part = doc.meta.get("hoo2012.part")
        yield doc.replace(id=f"{doc.id}-{part}") if part is not None and doc.id else doc


def _read_text(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise GecFormatError(f"not UTF-8 at byte {exc.start}", file=str(path)) from None


def _path(source: Source) -> str:
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    return str(getattr(source, "name", ""))
