"""SEEDA's edit-validity judgments (``data/EditEval_Step1/annotator{1,2,3}/<n>.txt``; spec
``formats-more.md`` §7): the first step of SEEDA's edit-based human evaluation.

One file is one item: the sentence in context, then up to five system corrections
(candidates) with every edit written inline and judged valid (``True``) or not (``False``)::

    <Source with context>
    <the previous sentence>
    <t>the source sentence , some words in [brackets]</t>
    <the next sentence>

    <Correction>
    <s1>[Afterall→After all|True] , what … another [→,|True] although … [make up→make-up|False] …</s1>
    <s2>…</s2>

An edit is ``[`` original ``→`` (U+2192) correction ``|`` label ``]``: an empty original
inserts, an empty correction deletes.  Read into the model (:data:`UNIT` ``token``):

* one :class:`~gecformats.model.Sentence` per item; its source is the tokens of the
  candidates with every edit's original side (all candidates of an item must agree); its id
  the file's path below the folder read, without ``.txt`` (``annotator1/0``);
* candidate ``<sK>`` is annotator ``K - 1``; its edits have offsets into the source tokens,
  no type, and the judge's label **verbatim in** ``Edit.comment`` (``True``/``False``, or a
  judge's typo such as ``Truey``): the M2 comment field, so the judgments survive a
  conversion to M2 and back.  :func:`validity` reads a label as ``True``/``False``/``None``;
* the context lines are kept in ``Sentence.meta`` (``seeda.previous``, ``seeda.target``:
  the ``<t>`` line's text with its brackets, ``seeda.next``), and each candidate's line as
  read (``seeda.line.K``), which :func:`write` writes back when the edits still give it.

Malformed markup (23 candidates of the 2,489: a label outside its brackets, a bracket not
closed, an edit without a label) and candidates whose source differs from the item's other
candidates (one) are errors ``FILE:LINE``: :func:`read` raises, or, given a ``problems``
list, records them there and leaves the candidate out (its line kept in ``meta`` and
written back verbatim; ``meta["seeda.malformed"]`` names them).  ``validate`` lists them
all.  A file may hold several items one after the other (what :func:`write` writes to one
file); a folder is read file by file, in path order with numbers compared as numbers.

>>> import io
>>> text = ("<Source with context>\\nA .\\n<t>He [go] home .</t>\\nB .\\n\\n<Correction>\\n"
...         "<s1>He [go→goes|True] home [→now|False] .</s1>\\n<s2>He go home .</s2>\\n")
>>> [item] = read(io.StringIO(text))
>>> item.source, [(e.start, e.end, e.correction, e.comment) for e in item.annotators[0]]
(('He', 'go', 'home', '.'), [(1, 2, ('goes',), 'True'), (3, 3, ('now',), 'False')])
>>> item.annotators[1]
()
>>> out = io.StringIO(); _ = write([item], out); out.getvalue() == text
True
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import IO

from gecformats.errors import GecFormatError
from gecformats.io import Source, atomic_directory, numbered_lines, source_name, text_output
from gecformats.model import MAX_ANNOTATORS, Edit, Sentence, span_order
from gecformats.report import Report

NAME = "seeda-edits"
SUFFIXES: tuple[str, ...] = ()  # SEEDA's files end in .txt
UNIT = "token"

ARROW = "\u2192"
"""``→``: between an edit's original and its correction."""

HEADER = "<Source with context>"
"""The first line of an item."""
CORRECTION = "<Correction>"
"""The line before the candidates."""

PREVIOUS_META, TARGET_META, NEXT_META = "seeda.previous", "seeda.target", "seeda.next"
"""``Sentence.meta`` keys of the context lines (``seeda.target``: the ``<t>`` line's text)."""
LINE_META = "seeda.line."
"""``Sentence.meta`` key prefix: ``seeda.line.K`` is candidate ``<sK>``'s line as read."""
MALFORMED_META = "seeda.malformed"
"""``Sentence.meta`` key: the candidates left out as malformed (comma-separated ``K``)."""

EDIT = re.compile(f"\\[([^\\[\\]{ARROW}|]*){ARROW}([^\\[\\]{ARROW}|]*)\\|([^\\[\\]\n]+)\\]")
"""A well-formed edit: original, correction, label."""
_CANDIDATE = re.compile(r"<s([0-9]{1,3})>(.*)</s\1>")
_TARGET = re.compile(r"<t>(.*)</t>")
_MARKUP = ("[", "]", ARROW, "|")

Problems = list[tuple[int, GecFormatError]]
"""Problems recorded while reading: ``(item number, error)`` pairs."""


def validity(edit: Edit) -> bool | None:
    """The judgment of an edit: ``True`` (valid), ``False``, or ``None`` when its label is
    neither (``False|True``; a label of another format such as ``-NONE-``).  A judge's typo
    after the word (``True,``, ``Truey``) is read as the word.

    >>> validity(Edit(0, 1, comment="Truey")), validity(Edit(0, 1, comment="False|True"))
    (True, None)
    """
    label = edit.comment
    for word, value in (("True", True), ("False", False)):
        other = "False" if value else "True"
        if label.startswith(word) and other not in label:
            return value
    return None


# ----------------------------------------------------------------------------------- reading


def _files(folder: Path) -> list[Path]:
    def key(path: Path) -> list[object]:
        return [int(p) if p.isdigit() else p
                for p in re.split(r"([0-9]+)", str(path.relative_to(folder).with_suffix("")))]

    return sorted((p for p in folder.rglob("*.txt") if p.is_file()), key=key)


def read(source: Source, problems: Problems | None = None) -> Iterator[Sentence]:
    """Read SEEDA edit judgments item by item (streaming).

    Args:
        source: a file (one or more items), a folder (its ``*.txt`` files, also in
            subfolders, in path order with numbers compared as numbers; ids are the paths
            below it), ``-`` or an open file.
        problems: ``None`` to raise at malformed markup; a list to record each malformed
            candidate there (with its item's number) and read on without it.

    Yields:
        One :class:`~gecformats.model.Sentence` per item (see the module's description).

    Raises:
        GecFormatError: a line out of place, malformed edit markup or candidates with
            different sources (file and line), or invalid UTF-8.
        OSError: a file cannot be opened.
    """
    path = Path(os.fspath(source)) if isinstance(source, (str, os.PathLike)) else None
    if path is not None and path.is_dir():
        count = 0
        for file in _files(path):
            ident = file.relative_to(path).with_suffix("").as_posix()
            for item in _read_file(file, ident, problems, count):
                count += 1
                yield item
        return
    ident = path.stem if path is not None and os.fspath(source) != "-" else None
    yield from _read_file(source, ident, problems, 0)


def _read_file(source: Source, ident: str | None, problems: Problems | None,
               before: int) -> Iterator[Sentence]:
    """The items of one file (``before``: how many items came before, for numbering)."""
    name = source_name(source)
    item: list[tuple[int, str]] = []
    count = 0
    for number, line in numbered_lines(source):
        if line == HEADER and item:
            count += 1
            yield _item(item, name, _ident(ident, count), problems, before + count)
            item = []
        item.append((number, line))
    if item:
        count += 1
        yield _item(item, name, _ident(ident, count), problems, before + count)


def _ident(ident: str | None, count: int) -> str | None:
    return ident if count == 1 or ident is None else f"{ident}#{count}"


def _item(lines: list[tuple[int, str]], name: str, ident: str | None,
          problems: Problems | None, number: int) -> Sentence:
    """One item from its numbered lines."""
    def fail(line: int, message: str) -> GecFormatError:
        return GecFormatError(message, name, line, "syntax")

    fixed = ((0, HEADER), (4, ""), (5, CORRECTION))
    for index, expected in fixed:
        if index >= len(lines) or lines[index][1] != expected:
            at = lines[min(index, len(lines) - 1)][0] + (index >= len(lines))
            raise fail(at, f"line {index + 1} of an item must be {expected or 'empty'!r}"
                       + ("" if index < len(lines) else " (the item ends before it)"))
    target = _TARGET.fullmatch(lines[2][1])
    if target is None:
        raise fail(lines[2][0], "the third line of an item must be <t>…</t>")
    meta = {PREVIOUS_META: lines[1][1], TARGET_META: target.group(1), NEXT_META: lines[3][1]}
    parsed: list[tuple[int, int, tuple[str, ...], tuple[Edit, ...]]] = []
    malformed: list[str] = []

    def bad(line: int, k: int, message: str) -> None:
        error = fail(line, f"candidate <s{k}>: {message}")
        if problems is None:
            raise error
        problems.append((number, error))
        malformed.append(str(k))

    for line, text in lines[6:]:
        match = _CANDIDATE.fullmatch(text)
        if match is None:
            raise fail(line, f"a candidate line must be <sK>…</sK>, not {_cut(text)!r}")
        k = int(match.group(1))
        if not 1 <= k <= MAX_ANNOTATORS or LINE_META + str(k) in meta:
            raise fail(line, f"candidate <s{k}> is out of range or repeated")
        meta[LINE_META + str(k)] = text
        try:
            tokens, edits = parse_candidate(match.group(2), k - 1)
        except ValueError as exc:
            bad(line, k, str(exc))
            continue
        parsed.append((line, k, tokens, edits))
    # the item's source is what most candidates agree on (the first of them on a tie)
    sources = [tokens for _, _, tokens, _ in parsed]
    source = max(sources, key=sources.count) if sources else \
        tuple(_TARGET_BRACKETS.sub("", meta[TARGET_META]).split())
    agreeing = sources.count(source)
    annotators: dict[int, tuple[Edit, ...]] = {}
    for line, k, tokens, edits in parsed:
        if tokens != source:
            bad(line, k, f"its source differs from that of {agreeing} other candidate(s) "
                f"(first difference at token {_first_difference(tokens, source) + 1})")
        else:
            annotators[k - 1] = edits
    if malformed:
        meta[MALFORMED_META] = ",".join(sorted(malformed, key=int))
    return Sentence(source, annotators, ident, meta)


_TARGET_BRACKETS = re.compile(r"[\[\]]")


def _first_difference(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def _cut(text: str, size: int = 40) -> str:
    return text if len(text) <= size else text[:size] + "…"


def parse_candidate(text: str, annotator: int = 0) -> tuple[tuple[str, ...], tuple[Edit, ...]]:
    """The source tokens and the edits of one candidate's text (between ``<sK>`` and
    ``</sK>``).

    Raises:
        ValueError: markup (``[``, ``]``, ``→``, ``|``) outside a well-formed edit: what
            and where, in characters.

    >>> parse_candidate("a [b→c d|True] [→e|False]")
    (('a', 'b'), (Edit(start=1, end=2, corrections=(('c', 'd'),), type='', required=True, comment='True', annotator=0), Edit(start=2, end=2, corrections=(('e',),), type='', required=True, comment='False', annotator=0)))
    """
    tokens: list[str] = []
    edits: list[Edit] = []
    pos = 0
    for match in EDIT.finditer(text):
        _plain(text, pos, match.start(), tokens)
        original = match.group(1).split()
        start = len(tokens)
        tokens.extend(original)
        edits.append(Edit(start, len(tokens), (tuple(match.group(2).split()),), "", True,
                          match.group(3), annotator))
        pos = match.end()
    _plain(text, pos, len(text), tokens)
    return tuple(tokens), tuple(edits)


def _plain(text: str, start: int, end: int, tokens: list[str]) -> None:
    """Add the tokens of ``text[start:end]``, which must hold no markup."""
    part = text[start:end]
    found = [(part.index(c), c) for c in _MARKUP if c in part]
    if found:
        at, char = min(found)
        near = text[max(0, start + at - 15):start + at + 25]
        raise ValueError(f"{char!r} outside a well-formed edit [orig{ARROW}corr|label] at "
                         f"character {start + at + 1}: …{near}…")
    tokens.extend(part.split())


# ----------------------------------------------------------------------------------- writing


def format_candidate(source: tuple[str, ...] | list[str], edits: Iterable[Edit],
                     report: Report | None = None, where: str = "") -> str:
    """A candidate's text: the source with each edit written ``[orig→corr|label]`` (the
    label is the edit's comment).

    Raises:
        ValueError: an edit out of range or overlapping another, or text that would not
            read back (markup characters or a line break in a token or label).
    """
    out: list[str] = []
    pos = 0
    for edit in sorted(edits, key=span_order):
        if edit.start < pos or edit.end > len(source) or edit.start > edit.end:
            raise ValueError(f"{where}: edit {edit.start} {edit.end} overlaps another or is "
                             f"out of range")
        if len(edit.corrections) > 1 and report is not None:
            report.drop("alternative corrections (one per edit is written)", where,
                        len(edit.corrections) - 1)
        out.extend(source[pos:edit.start])
        original = " ".join(source[edit.start:edit.end])
        out.append(f"[{original}{ARROW}{' '.join(edit.correction)}|{edit.comment}]")
        pos = edit.end
    out.extend(source[pos:])
    text = " ".join(out)
    tokens, _ = _checked(text, where)
    if tokens != tuple(source):
        raise ValueError(f"{where}: a token or label holds markup or white space: {text!r}")
    return text


def _checked(text: str, where: str) -> tuple[tuple[str, ...], tuple[Edit, ...]]:
    if "\n" in text or "\r" in text:
        raise ValueError(f"{where}: a line break in a candidate")
    try:
        return parse_candidate(text)
    except ValueError as exc:
        raise ValueError(f"{where}: the candidate would not read back ({exc})") from None


def format_item(sentence: Sentence, report: Report | None = None, where: str = "") -> str:
    """One item's text (every line ends with ``\\n``): the context from ``meta`` (or empty
    lines and the source as ``<t>``), then a candidate per annotator (``<s{k+1}>``), each
    line as read when the edits still give it.

    Raises:
        ValueError: an annotator that cannot be written (see :func:`format_candidate`).
    """
    meta = sentence.meta
    target = meta.get(TARGET_META, " ".join(sentence.source))
    lines = [HEADER, meta.get(PREVIOUS_META, ""), f"<t>{target}</t>", meta.get(NEXT_META, ""),
             "", CORRECTION]
    candidates: dict[int, str] = {}
    for annotator, edits in sentence.annotators.items():
        k = annotator + 1
        stored = meta.get(LINE_META + str(k))
        if stored is not None and _gives(stored, sentence.source, edits, annotator):
            candidates[k] = stored
            continue
        if stored is None and report is not None and any(validity(e) is None for e in edits):
            report.note("edits without a True/False label (their comment written as label)",
                        where)
        candidates[k] = f"<s{k}>{format_candidate(sentence.source, edits, report, where)}</s{k}>"
    for k in (meta.get(MALFORMED_META) or "").split(","):
        if k.isdigit() and LINE_META + k in meta and int(k) not in candidates:
            candidates[int(k)] = meta[LINE_META + k]
    lines.extend(candidates[k] for k in sorted(candidates))
    for line in lines:
        if "\n" in line or "\r" in line:
            raise ValueError(f"{where}: a line break inside a line of the item")
    return "\n".join(lines) + "\n"


def _gives(line: str, source: tuple[str, ...], edits: tuple[Edit, ...], annotator: int) -> bool:
    match = _CANDIDATE.fullmatch(line)
    if match is None or int(match.group(1)) != annotator + 1:
        return False
    try:
        tokens, read_edits = parse_candidate(match.group(2), annotator)
    except ValueError:
        return False
    return tokens == source and read_edits == edits


_SAFE_ID = re.compile(r"[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*")


def write(sentences: Iterable[Sentence], dest: str | os.PathLike[str] | IO[str]) -> Report:
    """Write items as SEEDA edit judgments, whole or not at all.

    Args:
        sentences: the items.
        dest: a folder (a path not ending in ``.txt``): one file ``<id>.txt`` per item (an
            item without a usable id, or with one already written, is ``item-<n>.txt``); a
            ``.txt`` path, ``-`` or an open file: every item in one file, one after the
            other (read back as such).

    Returns:
        The :class:`~gecformats.report.Report` (alternative corrections dropped; labels
        that are not ``True``/``False``).

    Raises:
        ValueError: an item that cannot be written (edits overlapping, markup in a token).
    """
    report = Report()
    target = os.fspath(dest) if isinstance(dest, (str, os.PathLike)) else None
    n = 0
    if target is None or target == "-" or target.endswith(".txt"):
        with text_output(dest) as fh:
            for n, sentence in enumerate(sentences, 1):
                fh.write(format_item(sentence, report, f"item {n}"))
        report.sentences = n
        return report
    with ExitStack() as stack:
        folder = stack.enter_context(atomic_directory(target))
        used: set[str] = set()
        for n, sentence in enumerate(sentences, 1):
            ident = sentence.id or ""
            if not _SAFE_ID.fullmatch(ident) or ".." in ident.split("/") or ident in used:
                if sentence.id is not None:
                    report.note("items written as item-<n>.txt (id not a safe path or repeated)",
                                f"item {n}")
                ident = f"item-{n}"
            used.add(ident)
            path = folder / f"{ident}.txt"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(format_item(sentence, report, f"item {n}"), encoding="utf-8",
                            newline="\n")
    report.sentences = n
    return report
