"""MultiGEC-2025 essay files (``<lang>-<corpus>-<version>-<split>.md``; spec
``formats-more.md`` §5), read and written as the organisers' ``multigec_2025_utils`` do.

A file holds the essays of one split in one version (``orig``, ``ref1``, ``ref2`` …)::

    ### essay_id = 321
    Hallo! Ich bin Pluto, …

    ### essay_id = 322
    …

The organisers' reader is ``for essay in md.split("### essay_id = ")[1:]: id, text =
essay.split("\\n", 1); d[id] = text.strip("\\n")``, and this module reads exactly that:

* anything before the first header is ignored; the header is found *anywhere*, even inside
  a line; the id is the rest of its line, verbatim (spaces kept);
* an essay's text loses its leading and trailing ``\\n`` (not spaces or tabs); other line
  breaks are kept; CRLF and CR read as LF (``open()``'s universal newlines);
* a header whose id is not followed by a line break (another header on its line, or the
  end of the file) is an error ``FILE:LINE`` (``md_to_dict`` fails there).

**Repeated ids.**  ``md_to_dict`` keeps the *last* essay of an id, at the place of the
first.  :func:`read` streams the original file, so it cannot take back an essay it has
given: a repeat with the same text is skipped (exactly ``md_to_dict``'s result: the
organisers' toy ``dummy-dummy-ref-full.md`` repeats two essays six times), a repeat with
another text is an error naming both lines.  The ids seen are kept with a 16-byte digest of
their text (memory grows with the number of essays, not their size).  Reference files are
joined by id and follow ``md_to_dict`` exactly (the last essay of an id wins): they are
scanned once for their ids, then streamed alongside the original, holding only the essays
that come earlier than in the original.  :func:`to_dict` is ``md_to_dict`` itself.

Units (``unit``):

* ``essay`` (the default, as the shared task scored it): one essay is one
  :class:`~gecformats.model.Parallel` (id = the essay id), line breaks kept.  Written as
  one-line text (``parallel``, ``tsv``), each ``\\n`` becomes a TAB, as the organisers'
  ``split_to_parfiles`` writes its ``.tmp`` files (:func:`one_line`);
* ``essay-syntok``: one essay per item as the organisers' *local scorer* reads it
  (:func:`syntok_text`: syntok tokens joined by spaces, which its GLEU and ERRANT score);
* ``line``: line *i* of an essay with line *i* of each reference (id ``ESSAY:i``), for
  essays whose versions have the same number of lines (MultiGEC essays keep the corpora's
  line breaks: GECCC paragraphs, sentence-aligned subcorpora); lines empty in every version
  are left out; an essay whose references have other numbers of lines stays whole, its line
  breaks as spaces (``validate`` lists them as ``line-count``);
* ``sentence``: the sentences of the original (line breaks, then Punkt:
  :class:`gecformats.tokenize.PunktSplitter`), each with the part of each reference its
  words align to (:func:`split_sentences`), id ``ESSAY:sN``.

>>> import io
>>> md = "### essay_id = 7\\n\\nHe go home.\\nShe go too.\\n\\n### essay_id = 8\\nOk.\\n"
>>> [(p.id, p.source) for p in read(io.StringIO(md))]
[('7', 'He go home.\\nShe go too.'), ('8', 'Ok.')]
"""

from __future__ import annotations

import hashlib
import os
import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from gecformats.errors import GecFormatError, UsageError, install_hint
from gecformats.io import Source, atomic_output, source_name, text_lines, text_output
from gecformats.model import Parallel
from gecformats.report import Report

NAME = "multigec"
SUFFIXES = (".md",)
UNIT = "text"

HEADER = "### essay_id = "
"""What starts an essay (wherever it occurs, as ``str.split`` finds it)."""

UNITS = ("essay", "line", "sentence", "essay-syntok")
"""What one item read is: a whole essay, or one line of it."""

Problems = list[tuple[int, GecFormatError]]
"""Problems found while reading: ``(line_number, error)`` pairs."""


@dataclass(frozen=True, slots=True)
class Essay:
    """One essay of a file, as ``md_to_dict`` cuts it.

    Attributes:
        line: the 1-based line of its header.
        id: the essay id (the rest of the header's line).
        raw: everything after the header's line up to the next header or the end.
    """

    line: int
    id: str
    raw: str

    @property
    def text(self) -> str:
        """The text as ``md_to_dict`` gives it: ``raw`` without leading and trailing ``\\n``."""
        return self.raw.strip("\n")


def essays(source: Source, problems: Problems | None = None) -> Iterator[Essay]:
    """Every essay of a file in file order, repeats included (streaming).

    Args:
        source: a path (``.gz`` is decompressed, ``-`` is standard input) or an open file.
        problems: ``None`` to raise at a header without a line break after its id; a list
            to record it there and go on (the header is skipped, its text joins nothing).

    Raises:
        GecFormatError: a header whose id is not followed by a line break (file and line),
            or invalid UTF-8.
        OSError: the file cannot be opened.
    """
    name = source_name(source)
    current: tuple[int, str] | None = None  # (line, id) of the essay being read
    parts: list[str] = []
    with text_lines(source) as lines:
        for number, line in enumerate(lines, 1):
            pieces = line.split(HEADER)
            if current is not None:
                parts.append(pieces[0])
            for i, piece in enumerate(pieces[1:], 1):
                if current is not None:
                    yield Essay(current[0], current[1], "".join(parts))
                current, parts = None, []
                ident, newline, rest = piece.partition("\n")
                if not newline:
                    error = GecFormatError(
                        f"essay id {_cut(ident)!r} is not followed by a line break ("
                        + ("another header follows on its line" if i < len(pieces) - 1
                           else "the file ends") + "): md_to_dict fails on it", name, number,
                        "syntax")
                    if problems is None:
                        raise error
                    problems.append((number, error))
                    continue
                current, parts = (number, ident), [rest]
    if current is not None:
        yield Essay(current[0], current[1], "".join(parts))


def to_dict(source: Source) -> dict[str, str]:
    """The organisers' ``md_to_dict``: essay id → text, the last essay of a repeated id
    kept at the place of the first (reads the whole file into memory).

    Raises:
        GecFormatError: as :func:`essays`.
    """
    return {essay.id: essay.text for essay in essays(source)}


def digest(text: str) -> bytes:
    """A 16-byte digest of an essay text (to tell repeats apart without keeping them)."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def unique(items: Iterable[Essay], name: str, problems: Problems | None = None
           ) -> Iterator[Essay]:
    """``items`` without repeats of an id that have the same text (``md_to_dict``'s result);
    a repeat with another text is an error (kind ``duplicate-id``), or recorded in
    ``problems`` and skipped."""
    seen: dict[str, tuple[int, bytes]] = {}
    for essay in items:
        key = digest(essay.text)
        first = seen.get(essay.id)
        if first is None:
            seen[essay.id] = (essay.line, key)
            yield essay
        elif first[1] != key:
            error = GecFormatError(
                f"essay id {_cut(essay.id)!r} repeats line {first[0]} with another text: "
                "md_to_dict would keep this last one, which a streaming reader cannot (it "
                "has given the first); remove one of them", name, essay.line, "duplicate-id")
            if problems is None:
                raise error
            problems.append((essay.line, error))


class _References:
    """The essays of one reference file by id, ``md_to_dict``'s way (the last of an id wins),
    streamed alongside the original: only essays met before the original asks for them are
    held."""

    def __init__(self, source: Source) -> None:
        self.remaining: dict[str, int] = {}
        for essay in essays(source):
            self.remaining[essay.id] = self.remaining.get(essay.id, 0) + 1
        self.stream = essays(source)
        self.held: dict[str, str] = {}

    def take(self, ident: str, syntok: bool = False) -> str | None:
        """The text of essay ``ident`` (with ``syntok``: :func:`syntok_text` of it), or
        ``None`` when the file does not have it."""
        if ident not in self.remaining:
            return None
        if ident in self.held:
            return self.held.pop(ident)
        for essay in self.stream:
            self.remaining[essay.id] -= 1
            if self.remaining[essay.id]:
                continue  # a later essay of this id wins
            text = syntok_text(essay.raw) if syntok else essay.text
            if essay.id == ident:
                return text
            self.held[essay.id] = text
        return None

    def close(self) -> None:
        self.stream.close()  # type: ignore[attr-defined]


def read(source: Source, refs: Sequence[Source] | Source = (), unit: str = "essay"
         ) -> Iterator[Parallel]:
    """Read the essays of an original file and their corrections (streaming).

    Args:
        source: the original (``…-orig-….md``): a path or an open file.
        refs: the reference files (``…-ref1-….md`` …), paths; reference ``k`` is
            ``refs[k]`` (a single path is one reference).  An essay a reference file does
            not have is ``None`` there (MultiGEC ``refN`` files may hold a subset).
        unit: ``essay`` or ``line`` (see the module's description).

    Yields:
        :class:`~gecformats.model.Parallel` s with ids (``ESSAY`` or ``ESSAY:LINE``).

    Raises:
        GecFormatError: a header without a line break after its id, an id repeated with
            another text in the original (file and line), or invalid UTF-8.
        UsageError: an unknown ``unit``.
        OSError: a file cannot be opened.
    """
    if unit not in UNITS:
        raise UsageError(f"--unit must be one of {', '.join(UNITS)}, not {unit!r}")
    if isinstance(refs, (str, os.PathLike)) or hasattr(refs, "read"):
        refs = [refs]  # type: ignore[list-item]
    name = source_name(source)
    with ExitStack() as stack:
        references = [_References(r) for r in refs]  # type: ignore[union-attr]
        for r in references:
            stack.callback(r.close)
        for essay in unique(essays(source), name):
            if unit == "essay-syntok":
                yield Parallel(syntok_text(essay.raw),
                               tuple(r.take(essay.id, syntok=True) for r in references),
                               essay.id, {"multigec.line": str(essay.line)})
                continue
            item = Parallel(essay.text, tuple(r.take(essay.id) for r in references), essay.id,
                            {"multigec.line": str(essay.line)})
            if unit == "essay":
                yield item
            elif unit == "sentence":
                yield from split_sentences(item)
            else:
                yield from split_lines(item)


def syntok_text(raw: str) -> str:
    """An essay as the organisers' local scorer (``gleu_errant``) reads it: the raw text
    after the header line, tokenised by syntok, each token with the white space or
    hyphen before it stripped, joined by single spaces.  So ``don't`` → ``do not``,
    ``z.B.`` → ``z . B .``, ``e-mail`` → ``e -mail``, line breaks become spaces and an essay
    followed by an empty line ends in a space (syntok's last, empty token).

    Raises:
        GecFormatError: syntok is not installed (``pip install 'gecformats[multigec]'``).
    """
    global _SYNTOK
    if _SYNTOK is None:
        try:
            from syntok.tokenizer import Tokenizer
        except ImportError:
            raise GecFormatError("--unit essay-syntok needs syntok: "
                                 f"{install_hint('multigec')}") from None
        _SYNTOK = Tokenizer()
    return " ".join(str(token).strip() for token in _SYNTOK.tokenize(raw))


_SYNTOK: Any = None


def split_lines(item: Parallel) -> list[Parallel]:
    """An essay as one item per line: line *i* of the source with line *i* of each
    reference (id ``ESSAY:i``, 1-based), leaving out lines empty in every version; the
    essay whole, line breaks as spaces and ``meta["multigec.unsplit"]`` saying why, when a
    reference has another number of lines."""
    lines = item.source.split("\n")
    refs = [None if r is None else r.split("\n") for r in item.references]
    differ = [f"reference {k} has {len(r)} lines" for k, r in enumerate(refs)
              if r is not None and len(r) != len(lines)]
    if differ:
        why = f"{', '.join(differ)}, the source {len(lines)}"
        return [Parallel(item.source.replace("\n", " "),
                         tuple(None if r is None else r.replace("\n", " ")
                               for r in item.references),
                         item.id, {**item.meta, "multigec.unsplit": why})]
    out = []
    for i, line in enumerate(lines):
        row = tuple(None if r is None else r[i] for r in refs)
        if not line and not any(row):
            continue
        out.append(Parallel(line, row, f"{item.id}:{i + 1}", item.meta))
    return out


def split_sentences(item: Parallel) -> list[Parallel]:
    """An essay as one item per sentence of the original (id ``ESSAY:sN``, 1-based), each
    with the part of each reference that its words align to.

    The original is split at line breaks and by Punkt; each reference's words are aligned
    with the original's (:func:`gecformats.convert.extract.align`, on white-space tokens)
    and every sentence boundary is carried across the alignment: a word the reference
    inserts at a boundary stays with the sentence before it (a full stop a learner left
    out), a changed stretch that starts at a boundary goes with the sentence after it.  A
    boundary inside a changed stretch of some reference (the reference rewrote across it)
    cannot be carried: the two sentences stay one (``meta["multigec.merged"]`` counts
    them).  The texts are cut from the essay's own, spacing kept; line breaks inside an
    item become spaces.
    """
    from gecformats.convert.extract import align
    from gecformats.tokenize import get_splitter, get_tokenizer

    words = get_tokenizer("space")
    source = words.tokenize(item.source)
    if not source:
        return [item]
    # sentence starts as word indices of the original: the first word at or after each
    # sentence's start (the sentences come in order, so bisection finds it)
    offsets = [w.start for w in source]
    starts: list[int] = []
    for sentence in get_splitter("punkt").tokenize(item.source):
        k = bisect_left(offsets, sentence.start)
        if k < len(source) and (not starts or k > starts[-1]):
            starts.append(k)
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    refs = [None if r is None else words.tokenize(r) for r in item.references]
    maps: list[dict[int, int] | None] = []
    blocked: set[int] = set()
    for ref in refs:
        if ref is None:
            maps.append(None)
            continue
        spans = align([w.text for w in source], [w.text for w in ref])
        mapping: dict[int, int] = {}
        at = 0  # spans before the boundary, passed once: starts and spans are both in order
        shift = 0  # reference index = b + shift where the words agree
        for b in starts[1:]:
            while at < len(spans) and spans[at][1] <= b:  # an insertion at b stays before it
                shift = spans[at][3] - spans[at][1]
                at += 1
            here = shift
            if at < len(spans):
                i1, i2, j1, _ = spans[at]
                if i1 < b < i2:
                    blocked.add(b)
                elif i1 == b:
                    here = j1 - i1
            mapping[b] = b + here
        maps.append(mapping)
    kept = [b for b in starts if b not in blocked]
    bounds = kept + [len(source)]
    out = []
    for n, (a, z) in enumerate(zip(bounds, bounds[1:]), 1):
        text = item.source[source[a].start:source[z - 1].end]
        row: list[str | None] = []
        for ref, mapping, raw in zip(refs, maps, item.references):
            if ref is None or mapping is None or raw is None:
                row.append(None)
                continue
            ra = 0 if a == 0 else mapping[a]
            rz = len(ref) if z == len(source) else mapping[z]
            row.append(raw[ref[ra].start:ref[rz - 1].end].replace("\n", " ") if rz > ra else "")
        meta = dict(item.meta)
        if blocked:
            meta["multigec.merged"] = str(len(blocked))
        out.append(Parallel(text.replace("\n", " "), tuple(row), f"{item.id}:s{n}", meta))
    return out


UNSPLIT = "essays whose references have other numbers of lines: kept whole"
"""Report entry of an essay :func:`split_lines` could not split."""

FLATTENED = "essays with line breaks: each written as a TAB (as split_to_parfiles)"
"""Report entry of an essay :func:`one_line` flattened."""


def one_line(items: Iterable[Parallel], report: object | None = None, *,
             flatten: bool = True, count: bool = True) -> Iterator[Parallel]:
    """``items`` with every ``\\n`` of their texts replaced by a TAB, as the organisers'
    ``split_to_parfiles`` writes essays one per line.

    Args:
        items: the essays (or lines) read.
        report: an :class:`~gecformats.convert.extract.ExtractionReport` (or ``None``):
            counts the items, references and absent references, and notes the essays
            flattened (:data:`FLATTENED`) and those :func:`split_lines` kept whole
            (:data:`UNSPLIT`).
        flatten: ``False`` only counts and notes (text → M2: line breaks are white space
            to the tokenizers).
        count: ``False`` only notes (the extraction counts for itself).
    """
    for item in items:
        texts = (item.source, *(r for r in item.references if r is not None))
        if report is not None and count:
            report.sentences += 1  # type: ignore[attr-defined]
            report.references += len(texts) - 1  # type: ignore[attr-defined]
            report.absent += len(item.references) + 1 - len(texts)  # type: ignore[attr-defined]
        if report is not None and "multigec.unsplit" in item.meta:
            report.note(UNSPLIT, f"essay {item.id}: {item.meta['multigec.unsplit']}")  # type: ignore[attr-defined]
        if not flatten or not any("\n" in t for t in texts):
            yield item
            continue
        if report is not None:
            report.note(FLATTENED, f"essay {item.id}")  # type: ignore[attr-defined]
        yield item.replace(source=item.source.replace("\n", "\t"),
                           references=tuple(None if r is None else r.replace("\n", "\t")
                                            for r in item.references))


# ----------------------------------------------------------------------------------- writing

_ORIG = re.compile(r"-orig-")


def reference_path(dest: str | os.PathLike[str], k: int) -> Path:
    """Where :func:`write` puts reference ``k`` (0-based) of original file ``dest``:
    ``-orig-`` in the name becomes ``-ref<k+1>-`` (``de-merlin-orig-dev.md`` →
    ``de-merlin-ref1-dev.md``), else ``NAME.md`` → ``NAME.ref<k+1>.md``."""
    path = Path(os.fspath(dest))
    if _ORIG.search(path.name):
        return path.with_name(_ORIG.sub(f"-ref{k + 1}-", path.name, count=1))
    stem = path.name[:-3] if path.name.endswith(".md") else path.name
    return path.with_name(f"{stem}.ref{k + 1}.md")


def read_back(dest: str | os.PathLike[str]) -> Iterator[Parallel]:
    """Read what :func:`write` wrote to ``dest``: the original and the reference files
    beside it (:func:`reference_path`, ``ref1``, ``ref2`` … while they exist)."""
    refs: list[Path] = []
    while reference_path(dest, len(refs)).is_file():
        refs.append(reference_path(dest, len(refs)))
    return read(dest, refs)


def format_essay(ident: str, text: str) -> str:
    """One essay as ``dict_to_md`` writes it: ``### essay_id = ID\\nTEXT\\n\\n``."""
    return f"{HEADER}{ident}\n{text}\n\n"


def write(items: Iterable[Parallel], dest: str | os.PathLike[str] | IO[str]) -> Report:
    """Write essays as ``dict_to_md`` does: the sources to ``dest``, reference ``k`` to
    :func:`reference_path` (only the essays it has: ``None`` is an essay absent from that
    file, as MultiGEC's partial ``refN`` files).  Streaming; each file whole or not at all.

    What ``md_to_dict`` would not read back as written is refused or reported: a text or id
    holding ``### essay_id = `` or an id holding a line break (refused: they would cut the
    essay), leading or trailing line breaks of a text (reported: stripped on reading),
    items without an id (numbered 1, 2, … by position; reported), ids written twice
    (reported: reading keeps the last).

    Args:
        items: the essays (any :class:`~gecformats.model.Parallel` s).
        dest: the original's path (``-`` or an open file: standard output, only without
            references).

    Returns:
        The :class:`~gecformats.report.Report` (``sentences`` = essays written).

    Raises:
        GecFormatError: a text or id the format cannot hold (names the essay), or
            references to write beside standard output or an open file.
    """
    report = Report()
    name = source_name(dest)
    seen: set[str] = set()
    with ExitStack() as stack:
        out = stack.enter_context(text_output(dest))
        outputs: dict[int, IO[str]] = {}
        n = 0
        for n, item in enumerate(items, 1):
            ident = item.id
            if ident is None:
                ident = str(n)
                report.note("essays without an id: numbered by position", f"essay {n}")
            _check(ident, item, n, name, report)
            if ident in seen:
                report.note("repeated essay ids: md_to_dict keeps the last", f"essay {n}: {ident!r}")
            seen.add(ident)
            out.write(format_essay(ident, item.source))
            for k in item.present():
                if k not in outputs:
                    if not isinstance(dest, (str, os.PathLike)) or os.fspath(dest) == "-":
                        raise GecFormatError("references are written to files beside the "
                                             "original's: give its path, not standard output",
                                             name)
                    outputs[k] = stack.enter_context(atomic_output(reference_path(dest, k)))
                outputs[k].write(format_essay(ident, item.references[k]))  # type: ignore[arg-type]
        report.sentences = n
    return report


def _check(ident: str, item: Parallel, n: int, name: str, report: Report) -> None:
    """Refuse an id or text ``md_to_dict`` would cut elsewhere; report stripped line breaks."""
    if "\n" in ident or "\r" in ident or HEADER in ident:
        raise GecFormatError(f"essay {n}: the id {_cut(ident)!r} holds a line break or "
                             f"{HEADER.strip()!r}, which an essay header cannot", name)
    for what, text in (("the source", item.source),
                       *((f"reference {k}", item.references[k]) for k in item.present())):
        if HEADER in text:  # type: ignore[operator]
            raise GecFormatError(f"essay {n} ({ident}): {what} holds {HEADER!r}, which would "
                                 "start another essay", name)
        if text != text.strip("\n"):  # type: ignore[union-attr]
            report.drop("leading or trailing line breaks of essays (md_to_dict strips them)",
                        f"essay {n} ({ident}), {what}")
        if "\r" in text:  # type: ignore[operator]
            report.drop("carriage returns in essays (read back as line breaks)",
                        f"essay {n} ({ident}), {what}")


def _cut(text: str, size: int = 40) -> str:
    return text if len(text) <= size else text[:size] + "…"
