"""Find every problem in an annotation file, not just the first.

Each problem names the file, the line, the 1-based sentence number and a *kind* from a
fixed vocabulary (:data:`KINDS`; for the plain-text formats :data:`TEXT_KINDS`):

``syntax``
    a line or block the format does not allow (it is skipped; checking goes on);
``offset-out-of-range``
    an edit with ``start < 0``, ``end`` past the sentence, or ``start > end``;
``duplicate-edit``
    an annotator lists the same edit (offsets and corrections) twice;
``overlap``
    two edits of one annotator overlap (an insertion overlaps a span it falls strictly
    inside; two insertions at one point do not overlap);
``identity-edit``
    a correction equals the text it replaces, so it changes nothing;
``bad-annotator``
    a missing or non-integer annotator id, or one that contradicts its ChERRANT ``T`` line;
``malformed-type``
    (HOO) a ``type`` attribute into which other annotation leaked (``RT cset ="2"``);
``original-mismatch``
    (HOO) a stored ``<original>`` that differs from the text at the edit's offsets;
``split-character``
    (HOO 2011) a byte offset that falls inside a multi-byte UTF-8 character;
``paragraph-span``
    (HOO 2012) an edit that spans two paragraphs;
``unknown-part``
    (HOO 2012) an edit without a ``part`` or naming a PART the source does not have;
``unpaired-file``
    (HOO) a text or source file without its gold file, or a gold file without its text;
``bad-number``
    (I-measure XML) a ``numann``, ``ann``, ``start`` or ``end`` that is not an integer (or
    a negative ``numann``);
``numann-too-small``
    (I-measure XML) a sentence whose ``numann`` is smaller than the number of distinct
    annotators of its ``<alt>`` elements;
``overlapping-loci``
    (I-measure XML) two loci of a sentence with changes that overlap by the original
    converter's test (:func:`gecformats.convert.loci.imeasure_overlap`, taken in both directions),
    so they are not independent;
``overlapping-changes``
    (I-measure XML) two changes of one ``<alt>`` that overlap (two insertions at one point
    do not);
``duplicate-id``
    (I-measure XML) two ``<error>`` elements of a sentence with the same id (the model
    would merge them);
``empty-locus``
    (I-measure XML) an ``<error>`` without any ``<alt>``;
``field-count``
    (``tsv``, ``nlpcc``, ``cherrant``) a line with the wrong number of tab-separated fields
    (NLPCC: not exactly ``N + 3``; ChERRANT: fewer than 2);
``line-count``
    (``parallel``) a corrected file with another number of lines than its source file;
``duplicate-id``
    (``multigec``) an essay id written twice: with another text an error when read (the
    organisers' ``md_to_dict`` keeps the last), with the same text read once.

A ``multigec`` file is checked for headers whose id is not followed by a line break
(``syntax``: ``md_to_dict`` fails on them) and repeated ids; the line is the header's and
the "sentence" the essay's position.  ``jfleg`` is checked as M2.

A ``geccc`` M2 is checked as M2, then against its ``.input``/``.gold``/``.meta`` beside it
(the line is the record's, in the text file named): ``line-count`` a text file with another
number of lines than blocks (which ends the check), ``original-mismatch`` an ``.input``
line that is not the ``S`` tokens or a gold column that is not its annotator's correction
(white space aside), ``field-count`` a number of gold columns other than of annotators.
``seeda-edits`` (a file or a folder): ``syntax`` each malformed candidate (markup outside
``[orig→corr|label]``, a source that differs from the item's other candidates) or line out
of place (which ends the check), then the M2 checks of each item's candidates
(annotator *k* = candidate ``<s{k+1}>``).

For the plain-text formats (``tsv``, ``nlpcc``, ``cherrant``) every line is a sentence, so
the sentence number is the line number; ``syntax`` is a blank line or an NLPCC ``N`` that
is not a non-negative integer.  For ``parallel`` the file is the corrected file whose line
count differs, the line the first one without a partner, and there is no sentence number.

For I-measure XML, ``duplicate-edit`` is a ``<c>`` repeated within an ``<alt>`` or two
identical ``<alt>`` of one annotator in a locus, ``identity-edit`` a ``<c>`` whose text
equals the tokens it replaces, ``offset-out-of-range`` a ``<c>`` outside its sentence and
``syntax`` XML that is not well-formed (its sentence is ``None``; checking stops there), a
missing attribute, ``req`` other than ``yes``/``no`` or an unexpected element.  The line is
that of the element concerned and the sentence the 1-based position of the ``<sentence>``.

For UA-GEC annotated text (``uagec``) the file is the ``.ann`` file, the line that of the
annotation, the "sentence" the 1-based number of the file (in name order in a folder) and
``syntax`` malformed markup (which ends that file's check).

For HOO data the file is the gold file (or the text or source file for a problem of its
own), the line that of the ``<edit>`` element, and the "sentence" is the 1-based number of
the document (HOO 2012: of the PART) in the order :func:`read` gives them.

>>> import io
>>> text = "S a b c\\nA 1 2|||X|||b|||REQUIRED|||-NONE-|||0\\nA 5 6|||X|||d|||REQUIRED|||-NONE-|||0\\n"
>>> [p.kind for p in validate(io.StringIO(text))]
['identity-edit', 'offset-out-of-range']
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace

from gecformats.errors import GecFormatError, UsageError
from gecformats.formats import _hoo, cherrant, hoo2011, hoo2012, ixml, m2, nlpcc, parallel, tsv
from gecformats.io import Source, source_name
from gecformats.convert.loci import Change, LocusSentence, imeasure_overlap
from gecformats.model import Document, Edit, Sentence, overlapping

M2_KINDS = (
    "syntax",
    "offset-out-of-range",
    "duplicate-edit",
    "overlap",
    "identity-edit",
    "bad-annotator",
)
"""The kinds of problem an M2 file can have."""

HOO_KINDS = (
    "syntax",
    "offset-out-of-range",
    "duplicate-edit",
    "overlap",
    "identity-edit",
    "malformed-type",
    "original-mismatch",
    "split-character",
    "paragraph-span",
    "unknown-part",
    "unpaired-file",
)
"""The kinds of problem HOO 2011 and HOO 2012 data can have."""

IXML_KINDS = (
    "syntax",
    "offset-out-of-range",
    "duplicate-edit",
    "identity-edit",
    "bad-number",
    "numann-too-small",
    "overlapping-loci",
    "overlapping-changes",
    "duplicate-id",
    "empty-locus",
)
"""The kinds of problem I-measure XML can have."""

NUCLE_KINDS = (
    "syntax",
    "bad-number",
    "bad-annotator",
    "offset-out-of-range",
    "too-large",
    "duplicate-edit",
    "overlap",
    "identity-edit",
    "paragraph-span",
)
"""The kinds of problem NUCLE SGML and BEA-2019 JSON can have."""

CONLL_KINDS = ("syntax", "field-count", "bad-number", "offset-out-of-range", "duplicate-edit",
               "overlap", "identity-edit")
"""The kinds of problem a CoNLL ``.conll`` file and its ``.conll.ann`` can have."""

TEXT_KINDS = ("syntax", "field-count", "line-count")
"""The kinds of problem the plain-text formats (``parallel``, ``tsv``, ``nlpcc``,
``cherrant``) can have."""

KINDS = M2_KINDS + tuple(dict.fromkeys(
    kind for kind in HOO_KINDS + IXML_KINDS + NUCLE_KINDS if kind not in M2_KINDS))
"""Every kind of problem of the edit formats: M2's, then HOO's, I-measure XML's, NUCLE's (the
plain-text formats add ``field-count`` and ``line-count``, see :data:`TEXT_KINDS`)."""

TEXT_FORMATS = ("parallel", "tsv", "nlpcc", "cherrant", "multigec")
"""The plain-text formats :func:`validate` checks."""

FORMATS = ("m2", "jfleg", "hoo2011", "hoo2012", "ixml", "nucle", "bea", "conll", "uagec") + TEXT_FORMATS
FORMATS += ("geccc", "seeda-edits", "cowsl2h")
"""The formats :func:`validate` checks."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem found in a file.

    Attributes:
        file: the file's name.
        line: 1-based line number of the offending line.
        sentence: 1-based number of the sentence (block) it belongs to, or ``None``; for
            HOO data the number of the document (HOO 2012: of the PART).
        kind: one of :data:`KINDS`.
        message: what is wrong.
        unit: what ``sentence`` counts, ``"sentence"`` or ``"document"`` (only shown in
            the text form).
    """

    file: str
    line: int | None
    sentence: int | None
    kind: str
    message: str
    unit: str = field(default="sentence", compare=False)

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:" if self.line is not None else f"{self.file}:"
        sentence = f" {self.unit} {self.sentence}:" if self.sentence is not None else ""
        return f"{where}{sentence} {self.kind}: {self.message}"

    def to_dict(self) -> dict[str, object]:
        """The problem as a JSON-ready dict (keys file, line, sentence, kind, message)."""
        data = asdict(self)
        del data["unit"]
        return data


def validate(source: Source, format: str = "m2") -> Iterator[Problem]:
    """Check an annotation file and yield every problem found, in file order.

    Args:
        source: M2: a path or an open file.  I-measure XML: a path, the bytes of the
            document or an open file.  HOO: a path, as for
            :func:`gecformats.formats.hoo2011.read` and
            :func:`gecformats.formats.hoo2012.read` (a text or source file, a gold file or
            a folder); every document is checked, one at a time.  ``tsv``, ``nlpcc``,
            ``cherrant``: a path or an open file.  ``parallel``: a folder as written by
            :func:`gecformats.formats.parallel.write` (a lone source file has nothing to
            be compared with; :func:`validate_parallel` takes the corrected files too).
        format: the file's format, one of :data:`FORMATS`.

    Yields:
        :class:`Problem` s, streaming (the file is never loaded whole).

    Raises:
        OSError: the file cannot be opened or read.
        UsageError: the format is unknown or cannot be validated.
        GecFormatError: the file is not text (invalid UTF-8), HOO
            data is given as an open file, or a parallel folder has no ``source.txt`` or a
            bad ``annotator-*.txt`` name.
    """
    if format in ("hoo2011", "hoo2012"):
        yield from (replace(p, unit="document") for p in _validate_hoo(source, format))
        return
    if format == "ixml":
        yield from _validate_ixml(source)
        return
    if format == "nucle":
        yield from (replace(p, unit="document") for p in _validate_nucle(source))
        return
    if format == "bea":
        yield from (replace(p, unit="document") for p in _validate_bea(source))
        return
    if format == "conll":
        yield from _validate_conll(source)
        return
    if format == "uagec":
        yield from (replace(p, unit="document") for p in _validate_uagec(source))
        return
    if format == "cowsl2h":
        yield from (replace(p, unit="document") for p in _validate_cowsl2h(source))
        return
    if format in TEXT_FORMATS:
        yield from _validate_text(source, format)
        return
    if format in ("geccc", "seeda-edits"):
        yield from (_validate_geccc(source) if format == "geccc" else _validate_seeda(source))
        return
    if format not in ("m2", "jfleg"):
        from gecformats.formats import get

        get(format)  # an unknown name: UsageError, with the known ones
        raise UsageError(f"cannot validate format {format!r} (validates: {', '.join(FORMATS)}); "
                         f"convert it to m2 first")
    name = source_name(source)
    syntax: list[tuple[int, GecFormatError]] = []
    for number, sentence, edit_lines in m2.read_checked(source, syntax):
        # the syntax problems of this block (and of skipped blocks before it) come first
        yield from _drain(syntax, name)
        yield from check_sentence(sentence, name, number, edit_lines)
    yield from _drain(syntax, name)


def _drain(errors: list[tuple[int, GecFormatError]], name: str) -> Iterator[Problem]:
    for number, error in errors:
        yield Problem(name, error.line, number, error.kind, error.message)
    errors.clear()


def check_sentence(
    sentence: Sentence,
    file: str,
    number: int,
    edit_lines: Mapping[int, Sequence[int]] | None = None,
) -> Iterator[Problem]:
    """Check the edits of one sentence; yield its problems in line order.

    Args:
        sentence: the sentence.
        file: the file name to report.
        number: the 1-based sentence number to report.
        edit_lines: per annotator, the line number of each edit (``None``: unknown).
    """
    n = len(sentence.source)
    found: list[tuple[int, int, Problem]] = []

    def report(line: int | None, order: int, kind: str, message: str) -> None:
        found.append((line or 0, order, Problem(file, line, number, kind, message)))

    for annotator, edits in sentence.annotators.items():
        lines = edit_lines.get(annotator, ()) if edit_lines else ()
        seen: dict[tuple[int, int, tuple[tuple[str, ...], ...]], int] = {}
        in_range: list[tuple[int, Edit]] = []
        for i, edit in enumerate(edits):
            line = lines[i] if i < len(lines) else None
            what = f"annotator {annotator}, edit {edit.start} {edit.end}"
            if edit.start < 0 or edit.end > n or edit.start > edit.end:
                why = ("starts after it ends" if edit.start > edit.end
                       else f"does not fit the sentence's {n} tokens")
                report(line, i, "offset-out-of-range", f"{what} {why}")
                continue
            key = (edit.start, edit.end, edit.corrections)
            if key in seen:
                first = seen[key]
                report(line, i, "duplicate-edit",
                       f"{what} repeats the edit of " + (f"line {first}" if first else "an earlier line"))
                continue
            seen[key] = line or 0
            original = sentence.source[edit.start:edit.end]
            for alt in edit.corrections:
                if alt == original:
                    change = (f"replaces {' '.join(original)!r} with itself" if original
                              else "inserts nothing")
                    report(line, i, "identity-edit", f"{what} {change}"
                           + (f" (type {edit.type})" if edit.type else ""))
                    break
            for alt in edit.corrections:
                if "" in alt:
                    report(line, i, "syntax", f"{what}: a double space inside the correction "
                           f"{' '.join(alt)!r} (the NUS scorer can never match it)")
                    break
            for j, other in in_range:
                if overlapping(edit, other):
                    other_line = lines[j] if j < len(lines) else None
                    report(line, i, "overlap", f"{what} overlaps edit {other.start} {other.end}"
                           + (f" of line {other_line}" if other_line else ""))
                    break
            in_range.append((i, edit))
    found.sort(key=lambda item: (item[0], item[1]))
    for _, _, problem in found:
        yield problem


def _validate_hoo(source: Source, format: str) -> Iterator[Problem]:
    if not isinstance(source, (str, os.PathLike)) or os.fspath(source) == "-":
        raise GecFormatError(f"{format} data is checked from files: give a text file, a gold "
                             "file or a folder", source_name(source))
    suffix = hoo2011.TEXT_SUFFIX if format == "hoo2011" else hoo2012.SOURCE_SUFFIX
    label = "HOO 2011" if format == "hoo2011" else "HOO 2012"
    number = 0  # documents (HOO 2012: PARTs) checked so far
    for id, text_path, gold_path in _hoo.pair_files(source, suffix, label, strict=False):
        if text_path is None or gold_path is None:
            present = text_path if text_path is not None else gold_path
            missing = (f"gold file {id}{_hoo.GOLD_SUFFIX}" if gold_path is None
                       else f"{'text' if format == 'hoo2011' else 'source'} file {id}{suffix}")
            yield Problem(str(present), None, None, "unpaired-file",
                          f"document {id} has no {missing}")
            continue
        gold_name = str(gold_path)
        errors: list[tuple[int | None, GecFormatError]] = []
        try:
            text = text_path.read_bytes()
            gold = _hoo.read_limited(gold_path)
            if format == "hoo2011":
                found: list[GecFormatError] = []
                document, lines = hoo2011.parse_checked(text, gold, found, id=id,
                                                        text_name=str(text_path),
                                                        gold_name=gold_name)
                documents, edit_lines = [document], [lines]
                errors = [(0, error) for error in found]
            else:
                documents, edit_lines = hoo2012.parse_checked(
                    text, gold, errors, id=id, source_name=str(text_path), gold_name=gold_name)
        except GecFormatError as exc:  # the whole file is unreadable: on to the next one
            yield Problem(exc.file or gold_name, exc.line, number + 1, exc.kind, exc.message)
            number += format == "hoo2011"
            continue
        problems = [Problem(error.file or gold_name, error.line,
                            None if part is None else number + part + 1, error.kind,
                            error.message) for part, error in errors]
        for i, document in enumerate(documents):
            problems.extend(check_document(document, gold_name, number + i + 1, edit_lines[i]))
        problems.sort(key=lambda p: p.line or 0)  # stable: a line's problems keep their order
        yield from problems
        number += len(documents)


def _validate_nucle(source: str | os.PathLike[str]) -> Iterator[Problem]:
    """Check a NUCLE SGML file document by document: the document checks of HOO
    (:func:`check_document`; a mistake across paragraphs is ``paragraph-span``); a syntax
    error ends the check (SGML offers no safe place to resume)."""
    from gecformats.formats import nucle

    name = source_name(source)
    number = 0
    try:
        for number, document in enumerate(nucle.read(source), 1):
            lines = [int(e.get_meta("nucle.line") or 0) for e in document.edits]
            yield from check_document(document, name, number, lines)
    except GecFormatError as error:
        yield Problem(error.file or name, error.line, number + 1, error.kind, error.message)


def _validate_conll(source: str | os.PathLike[str],
                    ann: Sequence[str | os.PathLike[str]] | None = None) -> Iterator[Problem]:
    """Check a ``.conll`` file with its annotation (default ``SOURCE.ann``): each sentence's
    edits as M2's (:func:`check_sentence`, reported on the annotation file's lines); a
    syntax error or annotation out of step ends the check (the two files cannot be
    realigned after it)."""
    from gecformats.formats import conll

    name = source_name(source)
    ann_names = [os.fspath(a) for a in ann] if ann else [name + ".ann"]
    number = 0
    try:
        for number, sentence in enumerate(conll.read(source, ann=ann), 1):
            for annotator, edits in sentence.annotators.items():
                lines = [int(e.get_meta("conll.line") or 0) for e in edits]
                yield from check_sentence(sentence.replace(annotators={annotator: edits}),
                                          ann_names[annotator], number, {annotator: lines})
    except GecFormatError as error:
        yield Problem(error.file or name, error.line, number + 1, error.kind, error.message)


def _validate_bea(source: str | os.PathLike[str]) -> Iterator[Problem]:
    """Check a BEA-2019 JSON file line by line: a malformed line is reported and skipped,
    each essay gets the document checks (:func:`check_document`, per annotator, since the
    annotators' edits may overlap each other), all reported on the essay's line."""
    from gecformats.formats import bea

    name = source_name(source)
    for number, document in bea.entries(source):  # the reader's own lines and rules
        if isinstance(document, GecFormatError):
            yield Problem(name, number, number, document.kind, document.message)
            continue
        for annotator in sorted({e.annotator for e in document.edits}):
            mine = document.replace(edits=tuple(e for e in document.edits
                                                if e.annotator == annotator))
            yield from check_document(mine, name, number, [number] * len(mine.edits))


def _validate_uagec(source: str | os.PathLike[str]) -> Iterator[Problem]:
    """Check UA-GEC annotated files (one ``.ann`` file, or a folder of them, file by file):
    malformed markup (``syntax``, the file's first, which ends its check) and the document
    checks (:func:`check_document`) of each file's edits, on the line of each annotation."""
    from pathlib import Path

    from gecformats.formats import uagec

    path = Path(os.fspath(source))
    files = sorted(f for f in path.glob("*.ann") if not f.name.endswith(".conll.ann")) \
        if path.is_dir() else [path]
    for number, file in enumerate(files, 1):
        try:
            document = uagec.read_file(file)
        except GecFormatError as error:
            yield Problem(error.file or str(file), error.line, number, error.kind, error.message)
            continue
        raw = file.read_text(encoding="utf-8")
        starts = [m.start() for m in uagec.ANNOTATION.finditer(raw)]
        lines, line, counted = [], 1, 0
        for start in starts:
            line += raw.count("\n", counted, start)
            counted = start
            lines.append(line)
        yield from check_document(document, str(file), number, lines)


def _validate_cowsl2h(source: str | os.PathLike[str]) -> Iterator[Problem]:
    """Check COWSL2H annotated essays (one file, a corpus folder file by file, or a CSV
    dump row by row): broken markup kept as text (``syntax``, one per piece, on its line)
    and the document checks (:func:`check_document`) of each file's edits."""
    import re
    from pathlib import Path

    from gecformats.formats import cowsl2h

    path = Path(os.fspath(source))

    def files() -> Iterator[tuple[Document, str | None, str]]:
        if path.suffix.lower() == ".csv" and not path.is_dir():
            yield from ((d, None, str(path)) for d in cowsl2h.read_csv(path))
            return
        for file in cowsl2h.annotated_files(path) if path.is_dir() else [path]:
            raw = file.read_bytes().decode("utf-8", "replace")
            raw = raw.replace("\r\n", "\n").replace("\r", "\n").removeprefix("\ufeff")
            yield cowsl2h.read_file(file), raw, str(file)

    number = 0
    try:
        for number, (document, raw, name) in enumerate(files(), 1):
            for problem in document.meta.get(cowsl2h.PROBLEMS, "").split("\n"):
                found = re.fullmatch(r"(.*):([0-9]+): (.*)", problem, re.S)
                if found is not None:
                    yield Problem(found.group(1), int(found.group(2)), number, "syntax",
                                  found.group(3))
            for annotator in sorted({e.annotator for e in document.edits}):
                mine = document.replace(edits=tuple(e for e in document.edits
                                                    if e.annotator == annotator))
                lines = cowsl2h.edit_lines(raw) if raw is not None else None
                yield from check_document(mine, name, number, lines)
    except GecFormatError as error:
        yield Problem(error.file or str(path), error.line, number + 1, error.kind, error.message)


def check_document(
    document: Document,
    file: str,
    number: int,
    edit_lines: Sequence[int] | None = None,
) -> Iterator[Problem]:
    """Check the edits of one HOO document (character offsets); yield its problems in line
    order.

    Checks: offsets out of range (``start < 0``, ``end`` past the text, ``start > end``),
    duplicate, identity and overlapping edits, malformed types, a stored original
    (``hoo.original`` in the edit's meta) that differs from the text at the offsets, and
    edits that span a paragraph break.

    Args:
        document: the document.
        file: the file name to report (the gold file).
        number: the document's 1-based number to report.
        edit_lines: the line of each edit (``None``: unknown).
    """
    text = document.text
    n = len(text)
    lines = edit_lines or ()
    found: list[tuple[int, int, Problem]] = []

    def report(line: int | None, order: int, kind: str, message: str) -> None:
        found.append((line or 0, order, Problem(file, line, number, kind, message)))

    seen: dict[tuple[int, int, tuple[tuple[str, ...], ...]], int] = {}
    in_range: list[tuple[int, Edit]] = []
    max_end = 0  # the furthest end of the edits in range so far (edits in text order: linear)
    for i, edit in enumerate(document.edits):
        line = lines[i] if i < len(lines) else None
        index = edit.get_meta("hoo.index")
        what = f"edit {index}" if index else f"edit {edit.start}-{edit.end}"
        type, cset = _hoo.repair_type(edit.type)
        if cset is not None:
            report(line, i, "malformed-type", f"{what}: type {edit.type!r} is malformed "
                   f"(read as type {type!r} with cset {cset!r})")
        if edit.start < 0 or edit.end > n or edit.start > edit.end:
            why = ("starts after it ends" if edit.start > edit.end
                   else f"does not fit the text's {n} characters")
            report(line, i, "offset-out-of-range",
                   f"{what} (characters {edit.start}-{edit.end}) {why}")
            continue
        original = text[edit.start:edit.end]
        stored = edit.get_meta("hoo.original")
        if stored is not None and stored != original:
            only = " (in white space only)" if stored.strip() == original.strip() else ""
            report(line, i, "original-mismatch", f"{what}: the stored original {stored!r} "
                   f"differs from the text at the offsets {original!r}{only}")
        for b in document.breaks:
            if edit.start < b < edit.end:
                report(line, i, "paragraph-span", f"{what} (characters {edit.start}-{edit.end}) "
                       f"spans the paragraph break at {b}")
                break
        key = (edit.start, edit.end, edit.corrections)
        if key in seen:
            first = seen[key]
            report(line, i, "duplicate-edit", f"{what} repeats the edit of "
                   + (f"line {first}" if first else "an earlier line"))
            continue
        seen[key] = line or 0
        for alt in edit.corrections:
            if "".join(alt) == original:
                change = f"replaces {original!r} with itself" if original else "inserts nothing"
                report(line, i, "identity-edit", f"{what} {change}"
                       + (f" (type {edit.type})" if edit.type else ""))
                break
        if edit.start >= max_end:  # starts where every earlier edit has ended: no overlap
            max_end = edit.end
            in_range.append((i, edit))
            continue
        for j, other in in_range:
            if overlapping(edit, other):
                other_line = lines[j] if j < len(lines) else None
                other_index = other.get_meta("hoo.index")
                report(line, i, "overlap", f"{what} (characters {edit.start}-{edit.end}) overlaps "
                       + (f"edit {other_index} " if other_index else "")
                       + f"({other.start}-{other.end})"
                       + (f" of line {other_line}" if other_line else ""))
                break
        max_end = max(max_end, edit.end)
        in_range.append((i, edit))
    found.sort(key=lambda item: (item[0], item[1]))
    for _, _, problem in found:
        yield problem


# ---------------------------------------------------------------------------- I-measure XML


def _validate_ixml(source: ixml.XmlInput) -> Iterator[Problem]:
    name = ixml.name_of(source)
    errors: list[tuple[int | None, GecFormatError]] = []
    for number, _script, ls, lines in ixml.read_checked(source, errors):
        yield from _drain_ixml(errors, name)
        yield from check_loci(ls, name, number, lines)
    yield from _drain_ixml(errors, name)


def _drain_ixml(errors: list[tuple[int | None, GecFormatError]], name: str) -> Iterator[Problem]:
    for number, error in errors:
        message = error.message
        prefix = f"sentence {number}: "
        if message.startswith(prefix):
            message = message[len(prefix):]
        yield Problem(error.file or name, error.line, number, error.kind, message)
    errors.clear()


def check_loci(
    ls: LocusSentence, file: str, number: int, lines: ixml.Lines | None = None
) -> Iterator[Problem]:
    """Check the loci of one I-measure sentence; yield its problems in line order.

    Args:
        ls: the sentence's loci.
        file: the file name to report.
        number: the 1-based position of the sentence to report.
        lines: the line of each element (``None``: unknown).
    """
    n = len(ls.source)
    found: list[tuple[int, int, Problem]] = []
    order = 0

    def line_of(i: int, j: int | None = None, k: int | None = None) -> int | None:
        if lines is None:
            return None
        try:
            if j is None:
                return lines.loci[i]
            if k is None:
                return lines.alternatives[i][j]
            return lines.changes[i][j][k]
        except IndexError:
            return None

    def report(line: int | None, kind: str, message: str) -> None:
        nonlocal order
        order += 1
        found.append((line or 0, order, Problem(file, line, number, kind, message)))

    annotators = {alt.annotator for locus in ls.loci for alt in locus.alternatives}
    if ls.numann < len(annotators):
        report(lines.sentence if lines else None, "numann-too-small",
               f"numann is {ls.numann} but {len(annotators)} annotators have alternatives "
               f"({', '.join(map(str, sorted(annotators)))})")
    ids: dict[str, int] = {}
    in_range: list[list[Change]] = []  # per locus, its changes within the sentence
    for i, locus in enumerate(ls.loci):
        lid = locus.id if locus.id is not None else str(i + 1)
        what = f"error {lid}"
        if lid in ids:
            report(line_of(i), "duplicate-id", f"a second error with the id {lid!r} (the first "
                   f"is error {ids[lid] + 1} of the sentence)")
        else:
            ids[lid] = i
        if not locus.alternatives:
            report(line_of(i), "empty-locus", f"{what} has no <alt>")
        good: list[Change] = []
        seen_alts: dict[tuple[int, tuple[Change, ...]], int] = {}
        for j, alt in enumerate(locus.alternatives):
            key = (alt.annotator, alt.changes)
            if key in seen_alts:
                report(line_of(i, j), "duplicate-edit", f"{what}: alternative {j + 1} of "
                       f"annotator {alt.annotator} repeats alternative {seen_alts[key] + 1}")
            else:
                seen_alts[key] = j
            checked: list[Change] = []
            for k, c in enumerate(alt.changes):
                where = f"{what}, annotator {alt.annotator}, change {c.start} {c.end}"
                if c.start < 0 or c.end > n or c.start > c.end:
                    why = ("starts after it ends" if c.start > c.end
                           else f"does not fit the sentence's {n} tokens")
                    report(line_of(i, j, k), "offset-out-of-range", f"{where} {why}")
                    continue
                if c in checked:
                    report(line_of(i, j, k), "duplicate-edit", f"{where} is repeated in its <alt>")
                    continue
                if c.tokens == ls.source[c.start:c.end]:
                    change = (f"replaces {' '.join(c.tokens)!r} with itself" if c.tokens
                              else "inserts nothing")
                    report(line_of(i, j, k), "identity-edit", f"{where} {change}")
                for other in checked:
                    if overlapping(c, other):  # type: ignore[arg-type]
                        report(line_of(i, j, k), "overlapping-changes",
                               f"{where} overlaps change {other.start} {other.end} of its <alt>")
                        break
                checked.append(c)
            good.extend(checked)
        for earlier, changes in enumerate(in_range):
            pair = next(((c, d) for c in good for d in changes
                         if imeasure_overlap(c, d) or imeasure_overlap(d, c)), None)
            if pair is not None:
                c, d = pair
                other = ls.loci[earlier].id or str(earlier + 1)
                report(line_of(i), "overlapping-loci",
                       f"{what} overlaps error {other} (change {c.start} {c.end} and change "
                       f"{d.start} {d.end})")
        in_range.append(good)
    found.sort(key=lambda item: (item[0], item[1]))
    for _, _, problem in found:
        yield problem


# ------------------------------------------------------------------------ plain-text formats


def _validate_text(source: Source, format: str) -> Iterator[Problem]:
    if format == "parallel":
        yield from validate_parallel(source)
        return
    if format == "multigec":
        yield from _validate_multigec(source)
        return
    module = {"tsv": tsv, "nlpcc": nlpcc, "cherrant": cherrant}[format]
    name = source_name(source)
    errors: list[tuple[int, GecFormatError]] = []
    for _number, _item in module.read_checked(source, errors):
        yield from _drain(errors, name)
    yield from _drain(errors, name)


def validate_parallel(
    source: Source, refs: Sequence[Source] | Source = ()
) -> Iterator[Problem]:
    """Check that line-aligned parallel files have the same number of lines.

    Every corrected file whose count differs from the source file's is a ``line-count``
    problem located at its first line without a partner (no sentence number).  Empty lines
    are valid sentences and not reported.

    Args:
        source, refs: as for :func:`gecformats.formats.parallel.read`: a source file and
            its corrected files, or a parallel folder.

    Raises:
        GecFormatError: a folder without ``source.txt`` or with a bad annotator file name,
            or a file that is not valid UTF-8.
        OSError: a file cannot be opened.
    """
    counts = parallel.line_counts(source, refs)
    source_file, expected = counts[0]
    for name, n in counts[1:]:
        if n != expected:
            yield Problem(name, min(n, expected) + 1, None, "line-count",
                          f"{name} has {n} lines but {source_file} has {expected} "
                          "(line-aligned files must have the same number of lines)")


def _validate_geccc(source: Source) -> Iterator[Problem]:
    """A GECCC M2 file: the M2 checks, then (when it has none of kind ``syntax``) its
    records against the text files beside it (:func:`gecformats.formats.geccc.check_record`)."""
    from gecformats.formats import geccc

    syntax = False
    for problem in validate(source, "m2"):
        syntax = syntax or problem.kind == "syntax"
        yield problem
    files = geccc.companions(source)
    if syntax or not files:
        return
    try:
        for number, sentence in enumerate(geccc.read(source), 1):
            for suffix, kind, message in geccc.check_record(sentence):
                yield Problem(str(files.get(suffix, source_name(source))), number, number,
                              kind, message)
    except GecFormatError as error:
        yield Problem(error.file or source_name(source), error.line, None, error.kind,
                      error.message)


def _validate_seeda(source: Source) -> Iterator[Problem]:
    """SEEDA edit judgments: malformed candidates and lines (``syntax``), then the M2
    checks of each item; the "sentence" is the item's number."""
    from gecformats.formats import seeda_edits

    errors: list[tuple[int, GecFormatError]] = []
    number = 0
    try:
        for number, item in enumerate(seeda_edits.read(source, errors), 1):
            for n, error in errors:
                yield Problem(error.file or source_name(source), error.line, n, error.kind,
                              error.message)
            errors.clear()
            file = source_name(source)
            if item.id is not None and os.path.isdir(file):
                file = os.path.join(file, item.id.split("#")[0] + ".txt")
            yield from check_sentence(item, file, number)
    except GecFormatError as error:
        yield Problem(error.file or source_name(source), error.line, number + 1, error.kind,
                      error.message)


def _validate_multigec(source: Source) -> Iterator[Problem]:
    """The problems of a MultiGEC essay file: unreadable headers and repeated ids."""
    from gecformats.formats import multigec

    name = source_name(source)
    errors: list[tuple[int, GecFormatError]] = []
    seen: dict[str, tuple[int, bytes]] = {}
    for n, essay in enumerate(multigec.essays(source, errors), 1):
        yield from _drain(errors, name)
        digest = multigec.digest(essay.text)
        first = seen.setdefault(essay.id, (essay.line, digest))
        if first[0] != essay.line:
            same = "the same text: read once" if first[1] == digest else \
                "another text: md_to_dict keeps the last, gecformats refuses it"
            yield Problem(name, essay.line, n, "duplicate-id",
                          f"essay id {essay.id!r} repeats line {first[0]} with {same}")
    yield from _drain(errors, name)
