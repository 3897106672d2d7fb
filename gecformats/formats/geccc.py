"""GECCC, the Czech grammatical error correction corpus (``data/{dev,test,train}/``; spec
``formats-more.md`` §4): its M2 and the text files derived from it.

Each split has, at sentence and at paragraph level, four line-aligned files::

    sentence.m2      block i: the tokenised record i and its edits
    sentence.input   line i: record i as written (detokenised)
    sentence.gold    line i: 1 or 2 corrections of record i, TAB-separated
    sentence.meta    line i: the document id of record i

The M2 is ERRANT M2 with Czech ERRANT types (``R:DIACR``, ``R:WO:SPELL`` …); annotator
0/1 is gold column 1/2, and an annotator without edits has a noop.  Blocks are separated by
one empty line and the file ends right after the last ``A`` line.  ``࿄`` (U+0FC4,
:data:`MARKER`) marks a paragraph break inside a paragraph-level record; it is a token like
any other (edits move it) and is kept as text; :func:`paragraphs` maps it to line breaks.

:func:`read` reads ``X.m2`` and, when they lie beside it, ``X.input``, ``X.gold`` and
``X.meta``: every :class:`~gecformats.model.Sentence` then carries the record as written
(``meta["geccc.input"]``), its gold line (``meta["geccc.gold"]``) and its document id
(``meta["document"]``).  :func:`write` writes ``X.m2`` in GECCC's layout and, for a path,
the three text files beside it:

* ``.input``: the stored text when it still matches the tokens, else the tokens
  detokenised (:func:`detokenize`);
* ``.gold``: per annotator the corrected tokens, spaced as in the stored gold column when it
  still matches, else as the tokens that come from the source were spaced in the input
  (:func:`spacing`), with rules for the tokens an edit wrote;
* ``.meta``: the document ids (an empty line for a record without one).

So read → write gives the four files back byte for byte, and the M2 alone (or with its
``.input``) gives ``.input``/``.gold`` that equal the corpus' with white space removed, as
GECCC's own check has it; how often they are equal including white space is measured in
docs/reference/formats/geccc.md (the M2 cannot say where annotators only changed spacing).

>>> import io
>>> m2 = ("S Milá Anno , ࿄ 18.11 .\\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\\n"
...       "A 0 0|||M:OTHER|||18.11 . ࿄|||REQUIRED|||-NONE-|||1\\n"
...       "A 3 6|||U:OTHER||||||REQUIRED|||-NONE-|||1")
>>> [s] = read(io.StringIO(m2))
>>> [gold_text(s, k) for k in s.annotators]
['Milá Anno, ࿄ 18.11.', '18.11. ࿄ Milá Anno,']
>>> out = io.StringIO(); _ = write([s], out); out.getvalue() == m2 + "\\n"
True
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import IO

from gecformats.errors import GecFormatError
from gecformats.formats import m2
from gecformats.io import Source, atomic_output, own_lines, source_name, text_lines, text_output
from gecformats.model import Sentence, span_order
from gecformats.report import Report

NAME = "geccc"
SUFFIXES: tuple[str, ...] = ()  # GECCC's M2 files end in .m2, which is plain M2
UNIT = "token"

MARKER = "\u0fc4"
"""``࿄``: a paragraph break inside a paragraph-level record (a token of its own)."""

COMPANIONS = (".input", ".gold", ".meta")
"""The text files beside ``X.m2``, in the order :func:`read` reads them."""

INPUT_META = "geccc.input"
"""``Sentence.meta`` key: the record as written (its ``.input`` line)."""
GOLD_META = "geccc.gold"
"""``Sentence.meta`` key: its ``.gold`` line (corrections separated by TAB)."""
DOCUMENT_META = m2.DOCUMENT_META
"""``Sentence.meta`` key: its document id (its ``.meta`` line)."""

_META_KEYS = dict(zip(COMPANIONS, (INPUT_META, GOLD_META, DOCUMENT_META)))

CLOSING = frozenset(".,;:!?)]}…%“”»")
"""Characters that take no space before them when :func:`detokenize` has to guess."""
OPENING = frozenset("([{„«")
"""Characters that take no space after them."""


# ----------------------------------------------------------------------------------- reading


def companions(source: Source) -> dict[str, Path]:
    """The text files beside an M2 path (``X.m2`` → ``X.input``, ``X.gold``, ``X.meta``)
    that exist, by suffix; none for an open file or standard input."""
    if not isinstance(source, (str, os.PathLike)) or os.fspath(source) == "-":
        return {}
    path = Path(os.fspath(source))
    stem = path.with_suffix("") if path.suffix == ".m2" else path
    return {suffix: stem.with_name(stem.name + suffix) for suffix in COMPANIONS
            if stem.with_name(stem.name + suffix).is_file()}


def read(source: Source, with_companions: bool = True) -> Iterator[Sentence]:
    """Read a GECCC M2 file record by record (streaming), with its text files.

    Args:
        source: ``X.m2`` (a path; ``.gz`` is decompressed, ``-`` is standard input) or an
            open file.
        with_companions: read ``X.input``, ``X.gold`` and ``X.meta`` when they exist beside
            a path (``False``: the M2 alone).

    Yields:
        One :class:`~gecformats.model.Sentence` per block; with the text files, its
        ``meta`` holds ``geccc.input``, ``geccc.gold`` and ``document`` (line *i* of each
        file for block *i*).

    Raises:
        GecFormatError: malformed M2 (file and line), a text file with fewer or more lines
            than the M2 has blocks (that file and its line), or invalid UTF-8.
        OSError: a file cannot be opened.
    """
    files = companions(source) if with_companions else {}
    if not files:
        yield from m2.read(source)
        return
    name = source_name(source)
    with ExitStack() as stack:
        streams = {suffix: (str(path), own_lines(stack.enter_context(text_lines(path)), path))
                   for suffix, path in files.items()}
        number = 0
        for number, sentence in enumerate(m2.read(source), 1):
            meta = dict(sentence.meta)
            for suffix, (file, lines) in streams.items():
                line = next(lines, None)
                if line is None:
                    raise GecFormatError(f"{file} ends at line {number - 1} but {name} has "
                                         f"more blocks (record {number} has no line)", file,
                                         number, "line-count")
                meta[_META_KEYS[suffix]] = line[:-1] if line.endswith("\n") else line
            yield sentence.replace(meta=meta)
        for suffix, (file, lines) in streams.items():
            if next(lines, None) is not None:
                raise GecFormatError(f"{file} has more lines than {name} has blocks "
                                     f"({number})", file, number + 1, "line-count")


def check_record(sentence: Sentence) -> Iterator[tuple[str, str, str]]:
    """The disagreements of a record with its text files (GECCC's own checks): ``.input``
    not the ``S`` tokens, a gold column not annotator *k*'s correction (both white space
    aside), a number of gold columns other than of annotators.

    Yields:
        ``(suffix, kind, message)``: the file (``.input``/``.gold``) and a
        :mod:`gecformats.validate` kind (``original-mismatch``, ``field-count``).
    """
    stored = sentence.meta.get(INPUT_META)
    if stored is not None and _squeezed(stored) != "".join(sentence.source):
        yield ".input", "original-mismatch", "the .input line is not the S tokens (white space aside)"
    gold = sentence.meta.get(GOLD_META)
    if gold is None:
        return
    columns = gold.split("\t")
    if len(columns) != len(sentence.annotators):
        yield ".gold", "field-count", (f"{len(columns)} gold column(s) for "
                                       f"{len(sentence.annotators)} annotator(s)")
    for position, (column, annotator) in enumerate(zip(columns, sorted(sentence.annotators)), 1):
        try:
            corrected = "".join(t for t, _ in pieces(sentence, annotator))
        except ValueError:
            continue  # the M2 checks report the edits
        if _squeezed(column) != corrected:
            yield ".gold", "original-mismatch", (f"gold column {position} is "
                                                 f"not annotator {annotator}'s correction "
                                                 "(white space aside)")


def paragraphs(text: str, marker: str = MARKER) -> str:
    """``text`` with each paragraph marker (``࿄`` and the spaces around it) as a line break,
    as in the MultiGEC essays made from GECCC paragraphs.

    >>> paragraphs("Milá Anno, ࿄ 18.11.")
    'Milá Anno,\\n18.11.'
    """
    return "\n".join(part.strip(" ") for part in text.split(marker))


# ------------------------------------------------------------------------- detokenisation


def _glued(previous: str, token: str) -> bool:
    """Whether :func:`detokenize` writes ``token`` right after ``previous`` (no space)."""
    return all(c in CLOSING for c in token) or all(c in OPENING for c in previous)


def detokenize(tokens: Sequence[str], spaces: Sequence[bool | None] | None = None) -> str:
    """Join tokens into text.

    Args:
        tokens: the tokens.
        spaces: per token, whether a space comes before it (the first token's is ignored);
            ``None`` (for all or for one token) lets the rules decide: no space before a
            token of closing punctuation (:data:`CLOSING`) or after one of opening
            punctuation (:data:`OPENING`), a space elsewhere.  The rules give GECCC's own
            ``.input`` for 70–89 % of dev/test records (measured in
            docs/reference/formats/geccc.md).

    >>> detokenize(["Když", "jsem", "šel", "(", "asi", ")", ",", "pršelo", "."])
    'Když jsem šel (asi), pršelo.'
    """
    out: list[str] = []
    for i, token in enumerate(tokens):
        if i:
            space = spaces[i] if spaces is not None else None
            if space is None:
                space = not _glued(tokens[i - 1], token)
            if space:
                out.append(" ")
        out.append(token)
    return "".join(out)


def spacing(tokens: Sequence[str], text: str) -> list[bool] | None:
    """Per token, whether white space comes before it in ``text``: how ``text`` spaced the
    tokens; ``None`` when the tokens, spaces removed, are not ``text`` (white space inside a
    token, or another text).

    >>> spacing(["Anno", ",", "࿄", "18.11", "."], "Anno, ࿄ 18.11.")
    [False, False, True, True, False]
    """
    flags: list[bool] = []
    pos = 0
    for token in tokens:
        start = pos
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if not token or not text.startswith(token, pos):
            return None
        flags.append(pos > start)
        pos += len(token)
    if text[pos:].strip():
        return None
    return flags


def _squeezed(text: str) -> str:
    return "".join(text.split())


def input_text(sentence: Sentence) -> str:
    """The record as written: the stored ``.input`` line when it still matches the tokens
    (white space aside), else :func:`detokenize` of them."""
    stored = sentence.meta.get(INPUT_META)
    if stored is not None and _squeezed(stored) == "".join(sentence.source):
        return stored
    return detokenize(sentence.source)


def pieces(sentence: Sentence, annotator: int) -> list[tuple[str, bool | None]]:
    """Annotator ``annotator``'s corrected tokens, each with whether a space came before it
    in the input (``None`` for a token an edit wrote, or when the input is not known).

    Raises:
        KeyError: no such annotator.
        ValueError: the annotator's edits overlap or fall outside the source.
    """
    source = sentence.source
    stored = sentence.meta.get(INPUT_META)
    flags: list[bool | None] = [None] * len(source)
    found = spacing(source, stored) if stored is not None else None
    if found:
        flags[1:] = found[1:]  # the first token had nothing before it: the rules decide
    out: list[tuple[str, bool | None]] = []
    pos = 0
    n = len(source)
    for edit in sorted(sentence.annotators[annotator], key=span_order):
        if edit.start < pos or edit.end > n or edit.start > edit.end:
            raise ValueError(f"edit {edit.start} {edit.end} overlaps another or is out of "
                             f"range for {n} source tokens")
        out.extend(zip(source[pos:edit.start], flags[pos:edit.start]))
        out.extend((token, None) for token in edit.correction)
        pos = edit.end
    out.extend(zip(source[pos:], flags[pos:]))
    return out


def gold_text(sentence: Sentence, annotator: int) -> str:
    """Annotator ``annotator``'s correction as a ``.gold`` column: the stored column when it
    still matches the corrected tokens (white space aside), else the tokens spaced as the
    input spaced those that come from the source, and by :func:`detokenize`'s rules next to
    what an edit wrote (and everywhere when the input is not known).

    Raises:
        KeyError: no such annotator.
        ValueError: the annotator's edits overlap or fall outside the source.
    """
    corrected = pieces(sentence, annotator)
    stored = sentence.meta.get(GOLD_META)
    if stored is not None:
        columns = stored.split("\t")
        position = sorted(sentence.annotators).index(annotator)
        if position < len(columns) and \
                _squeezed(columns[position]) == "".join(t for t, _ in corrected):
            return columns[position]
    tokens = [t for t, _ in corrected]
    spaces: list[bool | None] = [s for _, s in corrected]
    for i in range(1, len(corrected)):
        # a source token after an edit's opening bracket keeps no space it had before
        if spaces[i - 1] is None and all(c in OPENING for c in tokens[i - 1]):
            spaces[i] = None
    return detokenize(tokens, spaces)


# ----------------------------------------------------------------------------------- writing


def write(sentences: Iterable[Sentence], dest: str | os.PathLike[str] | IO[str],
          *, deletion: str | None = None, with_companions: bool = True) -> Report:
    """Write records as GECCC's ``X.m2`` and, for a path, ``X.input``, ``X.gold`` and
    ``X.meta`` beside it (all whole or none).

    The M2 separates blocks by one empty line and ends after the last ``A`` line, as
    GECCC's files do.  Gold column *k* is the *k*-th annotator in id order (GECCC: 0, 1).

    Args:
        sentences: the records.
        dest: the M2 path (``-`` is standard output, with no text files) or an open text
            file.
        deletion: as for :func:`gecformats.formats.m2.write`.
        with_companions: write the text files beside a path ``X.m2`` (``X`` is the path
            without ``.m2``).

    Returns:
        The :class:`~gecformats.report.Report`: notes count the records whose ``.input`` or
        ``.gold`` had to be detokenised by rule, records without an annotator (their input
        written as gold) and records without a document id.

    Raises:
        ValueError: a token cannot be written (white space in it), or an annotator's edits
            overlap.
    """
    m2.check_options(deletion, "keep")
    report = Report()
    target = os.fspath(dest) if isinstance(dest, (str, os.PathLike)) else None
    texts = with_companions and target is not None and target != "-"
    with ExitStack() as stack:
        fh = stack.enter_context(text_output(dest))
        outs: dict[str, IO[str]] = {}
        if texts:
            stem = target[:-3] if target.endswith(".m2") else target  # type: ignore[union-attr]
            outs = {suffix: stack.enter_context(atomic_output(stem + suffix))
                    for suffix in COMPANIONS}
        n = 0
        for n, sentence in enumerate(sentences, 1):
            block = m2.format_sentence(sentence, deletion=deletion, report=report, number=n)
            fh.write(block[:-1] if n == 1 else "\n" + block[:-1])
            if outs:
                _write_texts(sentence, n, outs, report)
        report.sentences = n
    return report


def _write_texts(sentence: Sentence, number: int, outs: dict[str, IO[str]],
                 report: Report) -> None:
    """Write record ``number``'s ``.input``, ``.gold`` and ``.meta`` lines."""
    where = f"record {number}"
    text = input_text(sentence)
    if text != sentence.meta.get(INPUT_META):
        report.note("records whose .input was detokenised by rule", where)
    golds = []
    for annotator in sorted(sentence.annotators):
        gold = gold_text(sentence, annotator)
        if sentence.meta.get(GOLD_META) is None or gold not in \
                sentence.meta[GOLD_META].split("\t"):
            report.note("gold columns spaced by the input and rules (not stored)", where)
        golds.append(gold)
    if not golds:
        report.note("records without an annotator (the input written as gold)", where)
        golds.append(text)
    document = sentence.meta.get(DOCUMENT_META)
    if document is None:
        report.note("records without a document id (an empty .meta line)", where)
    for value, what in ((text, ".input"), ("\t".join(golds), ".gold"), (document or "", ".meta")):
        if "\n" in value or "\r" in value:
            raise ValueError(f"{where}: its {what} line would contain a line break")
    outs[".input"].write(text + "\n")
    outs[".gold"].write("\t".join(golds) + "\n")
    outs[".meta"].write((document or "") + "\n")
