"""Character-offset documents (HOO) ↔ token-offset sentences (M2), with a full report.

:func:`to_sentences` splits a :class:`~gecformats.model.Document` into sentences, tokenizes
them with a span-exact tokenizer and turns every character-offset edit into a token-offset
edit.  Each edit is converted by applying it to its sentence's text and tokenizing the
result; the new tokens are compared with the old ones *anchored at the edit*: tokens that lie
wholly before the edit's start, or wholly after its end, and did not change, are outside the
token edit; everything else is inside.  So

* an edit whose boundaries fall on token boundaries becomes exactly those tokens;
* a boundary inside a token widens the edit to the whole token, and the cut-off piece
  stays in the correction (``widened``, reason ``inside-token``);
* a correction that makes an unchanged neighbour tokenize differently ("etc." followed by
  ")") takes that neighbour into the edit (``widened``, reason ``context``);
* the annotator's span is kept: an edit "most of" → "most" stays a two-token edit, so that
  HOO → M2 → HOO gives back the same offsets.  With ``shrink=True`` tokens the original and
  the correction share at the edit's edges are trimmed off, as the CoNLL preprocessing
  did (``formats.md`` §7.3, step 7).

Edits that cannot be represented are **dropped and listed**, never lost silently: an edit
crossing a sentence boundary (``cross-sentence``), a HOO detection-only edit without a
correction (``detection-only``), and an edit that changes no token (``no-change``, e.g. a
change of white space only).  The :class:`ConversionReport` counts all of this and checks
each sentence: applying its M2 edits to its tokens must give the tokens of its HOO-corrected
text (``consistent_sentences``).

:func:`to_document` goes back: token edits → character edits in a given text (or in a text
made of the tokens joined by spaces, one sentence per line), re-attaching white space the
way HOO annotators did (an inserted word takes the space after it, ``"the "``; an inserted
comma is glued to the word before it; a deleted word takes the space after it).

>>> from gecformats.model import Document, Edit
>>> doc = Document("Thanks for you letter. It were fine.",
...                (Edit(11, 14, (("your",),), "RD"), Edit(26, 30, (("was",),), "AGV")))
>>> report = ConversionReport()
>>> for s in to_sentences(doc, report=report):
...     print(s.source, s.annotators[0])
('Thanks', 'for', 'you', 'letter', '.') (Edit(start=2, end=3, corrections=(('your',),), type='RD', required=True, comment='-NONE-', annotator=0),)
('It', 'were', 'fine', '.') (Edit(start=1, end=2, corrections=(('was',),), type='AGV', required=True, comment='-NONE-', annotator=0),)
>>> report.summary()
'1 documents, 2 sentences, 2 edits: 2 converted (0 widened), 0 dropped; 2/2 sentences consistent'
"""

from __future__ import annotations

import bisect
import os
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from gecformats import __version__
from gecformats.errors import GecFormatError
from gecformats.formats._hoo import repair_type
from gecformats.model import Document, Edit, Sentence, apply_edits, make_edit, overlapping
from gecformats.report import Tally
from gecformats.tokenize import (IGNORABLE, JOINED_TOKENIZERS, OffsetMap, Token, Tokenizer,
                                 get_splitter, get_tokenizer)

MAX_CASES = 10_000
"""How many individual cases of each kind a report lists (counts are always complete)."""

KINDS = ("widened", "dropped", "inconsistent", "boundary", "repaired")
"""The kinds of case a :class:`ConversionReport` lists."""

LEFT_ATTACHED = frozenset(",.;:!?)]}%") | {"'s", "n't", "'re", "'ve", "'ll", "'d", "'m", "''",
                                            "...", "'S", "N'T"}
"""Tokens written without a space before them when token edits become text."""

RIGHT_ATTACHED = frozenset("([{$") | {"``"}
"""Tokens written without a space after them."""

@dataclass(slots=True)
class ConversionReport:
    """What a character → token conversion did, edit by edit.

    Counts (the top level of :meth:`to_dict`): ``documents``, ``sentences``, ``edits`` (in
    the input), ``converted`` (in the output, widened ones included), ``widened``,
    ``dropped`` and ``consistent_sentences``.  The lists hold the individual cases with
    document, character offsets and reason (a dropped edit's also with its original text,
    corrections and type, :data:`DETAILS`); ``boundary_insertions`` lists insertions that
    sat exactly between two sentences and says which one they were given to.
    """

    tokenizer: str = ""
    splitter: str = ""
    mapping: str = ""
    extractor: str = ""
    documents: int = 0
    sentences: int = 0
    edits: int = 0
    converted: int = 0
    consistent_sentences: int = 0
    cases: Tally = field(default_factory=lambda: Tally(limit=MAX_CASES))

    @property
    def counts(self) -> Counter[str]:
        """Cases by kind, and by ``kind:reason``."""
        return self.cases.counts

    @property
    def widened_edits(self) -> list[dict[str, Any]]:
        """Edits that grew to cover whole tokens (the first :data:`MAX_CASES`)."""
        return self.cases.examples.get("widened", [])

    @property
    def dropped_edits(self) -> list[dict[str, Any]]:
        """Edits left out, with the reason."""
        return self.cases.examples.get("dropped", [])

    @property
    def inconsistent_sentences(self) -> list[dict[str, Any]]:
        """Sentences whose corrected text differs from the document's."""
        return self.cases.examples.get("inconsistent", [])

    @property
    def boundary_insertions(self) -> list[dict[str, Any]]:
        """Insertions between two sentences, and which one they went to."""
        return self.cases.examples.get("boundary", [])

    @property
    def repaired_edits(self) -> list[dict[str, Any]]:
        """Edits whose malformed attributes were repaired."""
        return self.cases.examples.get("repaired", [])

    @property
    def widened(self) -> int:
        """How many converted edits grew to cover whole tokens."""
        return self.counts["widened"]

    @property
    def dropped(self) -> int:
        """How many input edits are not in the output."""
        return self.counts["dropped"]

    def add(self, kind: str, case: dict[str, Any]) -> None:
        """Count one case of ``kind`` (``widened``, ``dropped``, ``inconsistent``,
        ``boundary``) and list it, with its reason counted under ``kind:reason``."""
        if kind not in KINDS:
            raise ValueError(f"unknown kind of case {kind!r}")
        if kind != "dropped":
            case = {k: v for k, v in case.items() if k not in DETAILS}
        self.cases.note(kind, case)
        self.counts[f"{kind}:{case.get('reason', '')}"] += 1

    def merge(self, other: ConversionReport) -> None:
        """Add the numbers and cases of ``other`` (a later part's report, e.g. a Dask
        worker's) to this one; merging the parts in document order gives exactly the report
        of one pass over all the documents."""
        self.tokenizer = self.tokenizer or other.tokenizer
        self.splitter = self.splitter or other.splitter
        self.mapping = self.mapping or other.mapping
        self.documents += other.documents
        self.sentences += other.sentences
        self.edits += other.edits
        self.converted += other.converted
        self.consistent_sentences += other.consistent_sentences
        self.cases.merge(other.cases)

    def reasons(self, kind: str) -> dict[str, int]:
        """Count of each reason of ``kind`` (e.g. ``reasons("dropped")``)."""
        prefix = f"{kind}:"
        return {k[len(prefix):]: v for k, v in sorted(self.counts.items()) if k.startswith(prefix)}

    def summary(self) -> str:
        """The report in one line."""
        return (
            f"{self.documents} documents, {self.sentences} sentences, {self.edits} edits: "
            f"{self.converted} converted ({self.widened} widened), {self.dropped} dropped; "
            f"{self.consistent_sentences}/{self.sentences} sentences consistent"
        )

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data (counts first, then reasons and the cases)."""
        return {
            "documents": self.documents,
            "sentences": self.sentences,
            "edits": self.edits,
            "converted": self.converted,
            "widened": self.widened,
            "dropped": self.dropped,
            "consistent_sentences": self.consistent_sentences,
            "tokenizer": self.tokenizer,
            "sentence_splitter": self.splitter,
            "mapping": self.mapping,
            **({"extractor": self.extractor} if self.extractor else {}),
            "gecformats": __version__,
            "reasons": {k: self.reasons(k) for k in KINDS},
            "widened_edits": self.widened_edits,
            "dropped_edits": self.dropped_edits,
            "inconsistent_sentences": self.inconsistent_sentences,
            "boundary_insertions": self.boundary_insertions,
            "repaired_edits": self.repaired_edits,
        }

    def write_json(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_dict` as JSON to ``path`` (whole or not at all)."""
        from gecformats.io import write_json

        write_json(self.to_dict(), path)


# ---------------------------------------------------------------------------------------
# Document → sentences


def document_annotators(document: Document) -> list[int]:
    """The annotator ids of a document: ``meta["annotators"]`` (comma-separated, as readers
    of several-annotator formats record them, so that an annotator without edits is still
    there) or else the ids of its edits; ``[0]`` for a document without either."""
    listed = document.meta.get("annotators")
    if listed:
        return [int(a) for a in listed.split(",")]
    return sorted({e.annotator for e in document.edits}) or [0]


MAX_SENTENCE = 50_000
"""The longest sentence (characters) :func:`to_sentences` converts; a longer one is refused,
since each of its edits tokenizes it again (real sentences are under a thousand)."""

MAPPINGS = ("exact", "conll")
"""How :func:`to_sentences` maps character edits to tokens."""


def to_sentences(
    document: Document,
    tokenizer: str | Tokenizer = "en",
    sentences: str | Tokenizer = "punkt",
    report: ConversionReport | None = None,
    *,
    check: bool = True,
    repair_spaces: bool = True,
    shrink: bool = False,
    mapping: str = "exact",
) -> list[Sentence]:
    """Convert one character-offset document into token-offset sentences, one annotator per
    id of :func:`document_annotators` (HOO: annotator 0).

    Args:
        document: the document (HOO 2011 or 2012).
        tokenizer: a tokenizer or its name (``en``, ``zh``, ``char``, ``space``).
        sentences: a sentence splitter or its name (``punkt``, ``lines``).  Sentences
            never cross the document's paragraph ``breaks``.
        report: filled with counts and cases (a fresh one is used when omitted).
        check: also check each sentence's consistency (``consistent_sentences``).
        repair_spaces: give back the leading space an insertion lost when its HOO file was
            re-indented (see :func:`lost_space`) and, under the ``exact`` mapping, keep
            an edit from gluing two words together (see :func:`unglue`, reason ``would
            glue words``); each repair is listed under ``repaired``.
        shrink: trim tokens an edit's original and correction share at its edges (as the
            CoNLL preprocessing did); by default the annotator's span is kept.
        mapping: ``exact`` (the default) applies each correction to the characters and
            diffs the tokens (the sentence split again first, so that a correction ending
            a sentence tokenizes as one), so the M2 edit does what the character edit does,
            without gluing words (``repair_spaces``); one annotator's edits that would
            touch one token are merged, or the later dropped (see
            :func:`_merge_overlaps`), so the M2 holds no overlapping edits of one annotator;
            ``conll`` maps the way the NUCLE → M2 conversion of CoNLL-2013/14 did: white
            space at the span's edges is left out, the span covers the tokens it touches,
            the correction is tokenized on its own, and (with ``shrink``) shared edge
            tokens are trimmed.  An annotator who marked ``"diagonosed "`` → ``"diagnosed"``
            then gets ``diagonosed`` → ``diagnosed``, not the words glued together; a
            sentence without edits has no annotator (no ``A`` line), as in the CoNLL files.

    Returns:
        The sentences in text order; ``Sentence.id`` is ``"<document>-<n>"`` (n from 1) and
        ``Sentence.meta`` holds ``document``, ``start`` and ``end`` (character offsets).
        Optional edits get ``required=False`` (``OPTIONAL`` in M2), alternatives become
        several corrections, and a malformed HOO type such as ``RT cset ="2"`` is repaired
        (``RT``; the raw value stays in the edit's ``meta`` as ``hoo.type``).
    """
    if mapping not in MAPPINGS:
        raise ValueError(f"unknown mapping {mapping!r} (known: {', '.join(MAPPINGS)})")
    tok = get_tokenizer(tokenizer) if isinstance(tokenizer, str) else tokenizer
    split = get_splitter(sentences) if isinstance(sentences, str) else sentences
    if report is None:
        report = ConversionReport()
    report.tokenizer = f"{tok.name}:{tok.version}"
    report.splitter = f"{split.name}:{split.version}"
    report.mapping = mapping + (" shrink" if shrink else "")
    report.documents += 1
    text = document.text
    spans = _sentence_spans(text, document.breaks, split)
    for span in spans:
        if span.end - span.start > MAX_SENTENCE:
            raise GecFormatError(
                f"document {document.id or '?'}: the sentence at characters {span.start}-"
                f"{span.end} has {span.end - span.start:,} characters, more than "
                f"{MAX_SENTENCE:,} (each of its edits re-tokenizes it): check the text, or "
                f"split it with paragraph breaks or --sentences lines")
    sents = [
        _Sent(span, [Token(t.text, t.start + span.start, t.end + span.start)
                     for t in tok.tokenize(span.text)])
        for span in spans
    ]
    starts = [s.span.start for s in sents]
    doc_id = document.id or ""
    ids = document_annotators(document)
    partial = partial_annotators(document)
    for edit in document.edits:
        report.edits += 1
        case = _case(doc_id, edit, text)
        if repair_spaces and lost_space(text, edit):
            spaced = tuple((" " + "".join(c),) for c in edit.corrections)
            edit = make_edit(edit.start, edit.end, spaced, edit.type, edit.required,
                             edit.comment, edit.annotator, edit.meta)
            report.add("repaired", {**case, "reason": "lost leading space"})
        if repair_spaces and mapping == "exact":
            unglued = unglue(text, edit, tok)
            if unglued is not None:
                edit = unglued
                report.add("repaired", {**case, "reason": "would glue words"})
        if not edit.corrections:
            report.add("dropped", {**case, "reason": "detection-only"})
            continue
        target = _locate(text, edit, sents, starts, report, case)
        if target is None:
            continue
        sent = sents[target]
        # an exact edit's cases wait until the sentence's overlaps are resolved (an edit
        # merged into another is not widened, but dropped)
        own = report if mapping == "conll" else ConversionReport()
        if mapping == "conll":
            converted = _convert_conll(text, sent, edit, tok, split, report, case, shrink)
        else:
            converted = _convert(text, sent, edit, tok, split, own, case, shrink)
        if converted is None and own is not report:
            report.merge(own)
        if converted is not None:
            sent.edits.append(converted)
            sent.sources.append(edit)
            sent.cases.append(own)
            sent.char_edits.append(edit)
            report.converted += 1
        else:
            sent.char_edits.append(edit)
    out = []
    for k, sent in enumerate(sents, 1):
        report.sentences += 1
        if mapping == "exact":
            _merge_overlaps(text, sent, tok, split, report, doc_id)
            for own in sent.cases:
                report.merge(own)
        present = ids + [a for a in partial if any(e.annotator == a for e in sent.char_edits)]
        by_annotator: dict[int, list[Edit]] = {}  # linear in annotators + edits (issue 22)
        for e in sent.edits:
            by_annotator.setdefault(e.annotator, []).append(e)
        annotators = {a: tuple(by_annotator.get(a, ())) for a in present}
        origin = {a: a for a in annotators}
        if mapping == "conll":
            annotators, origin = _conll_annotators(sent, annotators, report, doc_id)
        sentence = Sentence(
            tuple(t.text for t in sent.tokens),
            annotators,
            id=f"{doc_id}-{k}" if doc_id else str(k),
            meta={"document": doc_id, "start": str(sent.span.start), "end": str(sent.span.end)},
        )
        if check:
            _check(text, sent, sentence, tok if mapping == "conll" else _SplitFirst(tok, split),
                   report, doc_id, k, origin)
        out.append(sentence)
    return out


def partial_annotators(document: Document) -> list[int]:
    """The ids in ``meta["partial_annotators"]``: annotators of only the sentences they have
    edits in (CoNLL-2014's alternative annotations, see :func:`gecformats.formats.nucle.combine`)."""
    return [int(a) for a in document.meta.get("partial_annotators", "").split(",") if a]


def _conll_annotators(sent: _Sent, annotators: dict[int, tuple[Edit, ...]],
                      report: ConversionReport, doc_id: str
                      ) -> tuple[dict[int, tuple[Edit, ...]], dict[int, int]]:
    """A sentence's annotators as the CoNLL-2013/14 files have them.

    An annotator whose mistakes in the sentence (character offsets and corrections, types
    aside; a ``noop`` mistake is none) are exactly an earlier annotator's is left out, as
    the organisers' combined files do (``official-2014.combined.m2``: 88 such sentences), and
    its edits are reported as dropped; the rest are numbered from 0 in order (as in
    ``official-2014.combined-withalt.m2``).  A sentence in which no one has an edit has no
    annotator (no ``A`` line).  Also returns each new id's annotator in the document.
    """
    if not sent.edits:
        return {}, {}
    seen: dict[tuple[tuple[int, int, tuple[tuple[str, ...], ...]], ...], int] = {}
    kept: list[tuple[Edit, ...]] = []
    origin: list[int] = []
    for a, edits in annotators.items():
        marks = tuple(sorted((e.start, e.end, e.corrections) for e in sent.char_edits
                             if e.annotator == a and e.type != "noop"))
        if marks in seen:
            for e in edits:
                report.converted -= 1
                report.add("dropped", {"document": doc_id, "start": e.get_meta("chars"),
                                       "annotator": a,
                                       "reason": f"same as annotator {seen[marks]}",
                                       "original": " ".join(t.text for t in
                                                            sent.tokens[e.start:e.end]),
                                       "corrections": [" ".join(c) for c in e.corrections],
                                       "type": e.type})
            continue
        seen[marks] = a
        kept.append(edits)
        origin.append(a)
    if not any(kept):
        return {}, {}
    renumbered = {k: tuple(e if e.annotator == k else replace(e, annotator=k) for e in edits)
                  for k, edits in enumerate(kept)}
    return renumbered, dict(enumerate(origin))


#: Documents per task on a Dask engine (a document is a whole essay, not a sentence)
DOCUMENT_CHUNK = 8


def documents_to_sentences(
    documents: Iterable[Document],
    tokenizer: str | Tokenizer = "en",
    sentences: str | Tokenizer = "punkt",
    report: ConversionReport | None = None,
    engine: Any = None,
    total: int | None = None,
    **options: Any,
) -> Iterator[Sentence]:
    """:func:`to_sentences` over many documents, streaming, into one report (``options``:
    ``check``, ``repair_spaces``, ``shrink``, ``mapping``).

    With a :class:`gecformats.dist.Engine`, chunks of :data:`DOCUMENT_CHUNK` documents (or
    the engine's partitions of ``total``) are converted on its Dask workers by the same
    function, in order; the tokenizer and splitter must then be given by name.  The
    sentences and the report are the same as without it."""
    if report is None:
        report = ConversionReport()
    if engine is not None:
        if not (isinstance(tokenizer, str) and isinstance(sentences, str)):
            raise ValueError("on an engine the tokenizer and the sentence splitter are "
                             "given by name")
        from gecformats.dist import run_chunks

        yield from run_chunks(engine, _sentences_chunk, documents,
                              (tokenizer, sentences, options), report, total,
                              default=DOCUMENT_CHUNK)
        return
    for document in documents:
        yield from to_sentences(document, tokenizer, sentences, report, **options)


def _sentences_chunk(args: tuple[tuple[str, str, dict[str, Any]], int, list[Document]]
                     ) -> tuple[list[Sentence], ConversionReport]:
    """One task of :func:`documents_to_sentences` on an engine: a chunk of documents."""
    (tokenizer, splitter, options), _first, chunk = args
    report = ConversionReport()
    out = [s for document in chunk
           for s in to_sentences(document, tokenizer, splitter, report, **options)]
    return out, report


@dataclass(slots=True)
class _Sent:
    span: Token
    tokens: list[Token]
    edits: list[Edit] = field(default_factory=list)
    char_edits: list[Edit] = field(default_factory=list)
    broken: str = ""
    sources: list[Edit] = field(default_factory=list)  # the character edit of each of edits
    cases: list[ConversionReport] = field(default_factory=list)  # and its cases (exact)


def _merge_overlaps(text: str, sent: _Sent, tok: Tokenizer, split: Tokenizer,
                    report: ConversionReport, doc_id: str) -> None:
    """Make one annotator's token edits of a sentence overlap nowhere, in place.

    Two character edits that do not overlap can still touch one token (two fixes inside
    one word, or a correction that retokenizes its neighbour): the later one is merged into
    the earlier, one edit from the first's start to the second's end whose correction is
    the text with both applied (types joined by ``+``), and reported as dropped (``merged
    into an overlapping edit``).  Edits with alternative corrections, or whose characters
    overlap, cannot be merged: the later one is dropped (``overlaps an edit``), as is a
    repeated edit (``duplicate``).
    """
    order = sorted(range(len(sent.edits)), key=lambda k: (sent.edits[k].annotator,
                                                          sent.edits[k].start,
                                                          sent.edits[k].end))
    # (place in file order, token edit, its source, its cases)
    kept: list[tuple[int, Edit, Edit, ConversionReport]] = []
    for k in order:
        edit, source = sent.edits[k], sent.sources[k]
        clash = next((i for i, (_, other, _, _) in enumerate(kept)
                      if other.annotator == edit.annotator and (
                          overlapping(other, edit) or (other.start, other.end,
                          other.corrections) == (edit.start, edit.end, edit.corrections))),
                     None)
        if clash is None:
            kept.append((k, edit, source, sent.cases[k]))
            continue
        place, _, first, _ = kept[clash]
        report.converted -= 1
        case = {"document": doc_id, "start": source.start, "end": source.end,
                **_details(text, source)}
        merged = None
        if any((e.start, e.end, e.corrections) == (edit.start, edit.end, edit.corrections)
               for _, e, _, _ in kept if e.annotator == edit.annotator):
            report.add("dropped", {**case, "reason": "duplicate"})
            continue
        if len(first.corrections) == len(source.corrections) == 1 and \
                (first.end <= source.start or source.end <= first.start):
            a, b = sorted((first, source), key=lambda e: (e.start, e.end))
            joined = "".join(a.corrections[0]) + text[a.end:b.start] + "".join(b.corrections[0])
            types = "+".join(dict.fromkeys(t for t in (first.type, source.type) if t))
            char = make_edit(a.start, max(a.end, b.end), ((joined,) if joined else (),), types,
                             first.required and source.required, first.comment,
                             first.annotator, first.meta)
            own = ConversionReport()
            merged = _convert(text, sent, char, tok, split, own, case, False)
            if merged is not None and any(
                    overlapping(e, merged) for i, (_, e, _, _) in enumerate(kept)
                    if i != clash and e.annotator == merged.annotator):
                merged = None
        if merged is None:
            report.add("dropped", {**case, "reason": "overlaps an edit"})
            continue
        report.add("dropped", {**case, "reason": "merged into an overlapping edit",
                               "into": [first.start, first.end]})
        kept[clash] = (place, merged, char, own)
    kept.sort(key=lambda item: item[0])
    sent.edits = [e for _, e, _, _ in kept]
    sent.sources = [s for _, _, s, _ in kept]
    sent.cases = [c for _, _, _, c in kept]


def _sentence_spans(text: str, breaks: Sequence[int], split: Tokenizer) -> list[Token]:
    bounds = [0, *sorted(b for b in breaks if 0 < b < len(text)), len(text)]
    out: list[Token] = []
    for a, b in zip(bounds, bounds[1:]):
        for s in split.tokenize(text[a:b]):
            out.append(Token(s.text, s.start + a, s.end + a))
    return out


DETAILS = ("original", "corrections", "type")
"""What a dropped edit's case adds to its place: its original text, its corrections and its
type (the cases of other kinds leave them out)."""


def _case(doc_id: str, edit: Edit, text: str = "") -> dict[str, Any]:
    case: dict[str, Any] = {"document": doc_id, "start": edit.start, "end": edit.end}
    index = edit.get_meta("hoo.index")
    if index is not None:
        case["index"] = index
    if text:
        case.update(_details(text, edit))
    return case


def _details(text: str, edit: Edit) -> dict[str, Any]:
    """:data:`DETAILS` of a character edit."""
    return {"original": text[edit.start:edit.end],
            "corrections": ["".join(c) for c in edit.corrections], "type": edit.type}


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and (text[start].isspace() or text[start] == "\ufeff"):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] == "\ufeff"):
        end -= 1
    return start, end


def _locate(
    text: str,
    edit: Edit,
    sents: list[_Sent],
    starts: list[int],
    report: ConversionReport,
    case: dict[str, Any],
) -> int | None:
    """The index of the sentence an edit belongs to, or None (dropped, reported)."""
    if not 0 <= edit.start <= edit.end <= len(text):
        report.add("dropped", {**case, "reason": "outside-text"})
        return None
    if not sents:
        report.add("dropped", {**case, "reason": "cross-sentence"})
        return None
    a, b = _trimmed(text, edit.start, edit.end)
    if a < b:
        first = bisect.bisect_right(starts, a) - 1
        last = bisect.bisect_right(starts, b - 1) - 1
        if first >= 0 and first == last and b <= sents[first].span.end:
            return first
        report.add("dropped", {**case, "reason": "cross-sentence"})
        for k in range(max(first, 0), max(last, 0) + 1):
            sents[k].broken = sents[k].broken or "cross-sentence edit dropped"
        return None
    # An insertion point (or a change of white space only).
    pos = a
    k = bisect.bisect_right(starts, pos) - 1
    if k >= 0 and sents[k].span.start < pos < sents[k].span.end:
        return k
    if k >= 0 and pos == sents[k].span.start:
        k -= 1  # at a sentence start: between sentence k - 1 (if any) and this one
    before = k if k >= 0 else None
    after = k + 1 if k + 1 < len(sents) else None
    if before is None or after is None:
        return before if after is None else after
    glued_left = any(_attaches_left(c) for c in _texts(edit))
    chosen = before if glued_left else after
    report.add("boundary", {**case, "reason": "previous" if glued_left else "next",
                            "sentence": chosen + 1})
    return chosen


def lost_space(text: str, edit: Edit) -> bool:
    """True when an insertion glues a word onto the end of the word before it.

    HOO 2011 gold files were re-indented by a tool that dropped leading white space from
    element text (``formats.md`` §4.3): an inserted `` set`` after ``view`` is stored as
    ``set`` and would give ``viewset``.  In HOO data a suffix is never inserted on its own
    (annotators replace the whole word), so an insertion that starts with a letter or digit,
    right after one, at the end of a word, lost its space.  On all of HOO 2011 this finds
    the 10 such insertions (11 corrections) and nothing else.
    """
    if edit.start != edit.end or not 0 < edit.start <= len(text) or not edit.corrections:
        return False
    if not text[edit.start - 1].isalnum():
        return False
    if edit.start < len(text) and text[edit.start].isalnum():
        return False
    return all(c and "".join(c)[:1].isalnum() for c in edit.corrections)


def unglue(text: str, edit: Edit, tokenizer: Tokenizer | None = None) -> Edit | None:
    """The edit as its annotator meant it when, applied to the letter, it would glue two
    words together; ``None`` when it would not.

    Two cases, both common in NUCLE (``formats.md`` §7.3):

    * the span starts or ends with white space that a correction does not have, and the
      text on that side is no white space: ``"diagonosed "`` → ``"diagnosed"`` before
      ``out`` would give ``diagnosedout``.  The white space is left out of the span (and
      off that edge of every correction): ``"diagonosed"`` → ``"diagnosed"``.
    * a word inserted against a word: at a word's start without a trailing space
      (``"the"`` before ``cat``), or replacing white space only between two words (``" "``
      → ``"the"``).  A space goes between them.  (An insertion at a word's end is
      :func:`lost_space`'s case; one inside a word, and white space replaced by nothing or
      by punctuation, join on purpose: ``"some times"`` → ``"sometimes"``.)

    With a ``tokenizer``, an edit is repaired only when that tokenizer, applied to the
    edit as written, makes a token across an edge of a correction (``diagnosedout``,
    ``testing.even``); without one, whenever a word or punctuation would touch.

    Args:
        text: the document's text.
        edit: a character-offset edit in it.
        tokenizer: the tokenizer of the conversion.

    Returns:
        The repaired edit (same type, annotator and meta), or ``None``.
    """
    a, b = edit.start, edit.end
    if not edit.corrections or not 0 <= a <= b <= len(text):
        return None
    texts = _texts(edit)
    left, right = text[a - 1:a], text[b:b + 1]
    core_a, core_b = _trimmed(text, a, b)
    if core_a < core_b:
        cut_left = core_a > a and bool(left) and not left.isspace() and any(
            not (c + text[b:])[:1].isspace() for c in texts)
        cut_right = core_b < b and bool(right) and not right.isspace() and any(
            not (text[:a] + c)[-1:].isspace() for c in texts)
        start, end = (core_a if cut_left else a), (core_b if cut_right else b)
        fixed = [c.lstrip() if cut_left else c for c in texts]
        fixed = [c.rstrip() if cut_right else c for c in fixed]
        # punctuation glued to a word, replaced by a word: "oversea|," → "and"
        inner_left, inner_right = text[start:start + 1], text[end - 1:end]
        left, right = text[start - 1:start], text[end:end + 1]
        fixed = [(" " if c[:1].isalnum() and left.isalnum() and not inner_left.isalnum()
                  else "") + c +
                 (" " if c[-1:].isalnum() and right.isalnum() and not inner_right.isalnum()
                  else "") for c in fixed]
        if (start, end) == (a, b) and fixed == texts:
            return None
    else:
        # an insertion, or white space replaced: pad a word that would touch a word
        start, end = a, b
        only_space = a < b
        fixed = []
        for c in texts:
            pad_left = bool(c) and c[0].isalnum() and left.isalnum() and only_space
            pad_right = bool(c) and c[-1].isalnum() and right.isalnum() and (
                only_space or not left.isalnum())
            fixed.append((" " if pad_left else "") + c + (" " if pad_right else ""))
        if fixed == texts:
            return None
    if tokenizer is not None and not any(_glues(text, a, b, c, tokenizer) for c in texts):
        return None
    corrections = tuple((c,) if c else () for c in fixed)
    return make_edit(start, end, corrections, edit.type, edit.required, edit.comment,
                     edit.annotator, edit.meta)


GLUE_WINDOW = 200
"""How many characters on each side of an edit :func:`_glues` tokenizes (up to white space)."""


def _glues(text: str, a: int, b: int, correction: str, tokenizer: Tokenizer) -> bool:
    """Whether ``correction`` written over ``text[a:b]`` makes a token across one of its
    edges (the words around it tokenized up to the white space before and after)."""
    p = a
    while p > max(a - GLUE_WINDOW, 0) and not text[p - 1].isspace():
        p -= 1
    q = b
    while q < min(b + GLUE_WINDOW, len(text)) and not text[q].isspace():
        q += 1
    window = text[p:a] + correction + text[b:q]
    seams = (a - p, a - p + len(correction))
    return any(t.start < seam < t.end for t in tokenizer.tokenize(window) for seam in seams)


def _texts(edit: Edit) -> list[str]:
    return ["".join(c) for c in edit.corrections]


def _attaches_left(correction: str) -> bool:
    """An insertion continues the text before it: it starts with space or closing punctuation."""
    return bool(correction) and (correction[0].isspace() or correction[0] in ",.;:!?)]}'\"")


def _convert(
    text: str,
    sent: _Sent,
    edit: Edit,
    tok: Tokenizer,
    split: Tokenizer,
    report: ConversionReport,
    case: dict[str, Any],
    shrink: bool,
) -> Edit | None:
    ss, se = sent.span.start, sent.span.end
    local = sent.span.text
    a = min(max(edit.start, ss), se) - ss
    b = max(min(edit.end, se), ss) - ss
    old = sent.tokens
    rel = [Token(t.text, t.start - ss, t.end - ss) for t in old]
    ranges: list[tuple[int, int, tuple[str, ...]]] = []
    for correction in _texts(edit):
        # split first: a correction that ends a sentence ("alone," → "alone.") tokenizes
        # as the end of one, as the whole text would
        new = _split_tokens(local[:a] + correction + local[b:], tok, split)
        ranges.append(_anchored_diff(rel, new, a, b, len(correction), shrink))
    olds = tuple(t.text for t in old)
    changed = [r for r in ranges if r[2] != olds[r[0]:r[1]]]
    if not changed:
        report.add("dropped", {**case, "reason": "no-change"})
        return None
    start = min(r[0] for r in changed)
    end = max(r[1] for r in changed)
    corrections = [olds[start:s] + toks + olds[e:end] for s, e, toks in ranges]
    # Where the edit would have landed by offsets alone, to tell widening apart.
    ta, tb = _trimmed(text, edit.start, edit.end)
    ta = min(max(ta, ss), se)
    mapped = OffsetMap(old).char_to_token(ta, max(min(tb, se), ta)) if old else None
    if mapped is not None and mapped.widened:
        report.add("widened", {**case, "reason": "inside-token", "tokens": [start, end]})
    elif mapped is not None and (start < mapped.start or end > mapped.end):
        report.add("widened", {**case, "reason": "context", "tokens": [start, end]})
    raw_type = edit.type
    etype, _ = repair_type(raw_type)
    meta = tuple(edit.meta) + ((("hoo.type", raw_type),) if etype != raw_type else ())
    meta += (("chars", f"{edit.start} {edit.end}"),)
    return make_edit(start, end, tuple(corrections), etype, edit.required, edit.comment,
                     edit.annotator, meta)


def _convert_conll(
    text: str,
    sent: _Sent,
    edit: Edit,
    tok: Tokenizer,
    split: Tokenizer,
    report: ConversionReport,
    case: dict[str, Any],
    shrink: bool,
) -> Edit | None:
    """The CoNLL mapping (see :func:`to_sentences`): tokens by position, the correction
    tokenized in context.

    As the NUS preprocessing (release 2.2 on) did: a span that covers part of a token is
    widened to the whole token, the token's untouched characters joining the correction
    (``t`` → ``T`` in ``therefore`` is ``therefore`` → ``Therefore``); and the correction
    is tokenized followed by the rest of its sentence, then cut at its own end, so that
    sentence splitting and the tokenizer's end-of-sentence rules see what follows it
    (``dilemma.`` written before the sentence's own ``.`` stays one token; ``contagious.
    The`` splits as two sentences do).
    """
    a, b = _trimmed(text, edit.start, edit.end)
    if a == b:
        a = b = min(max(edit.start, sent.span.start), sent.span.end)
    old = sent.tokens
    if a < b:
        start = next((k for k, t in enumerate(old) if t.end > a), len(old))
        end = next((k for k, t in enumerate(old) if t.start >= b), len(old))
    else:
        start = end = next((k for k, t in enumerate(old) if t.start >= a), len(old))
    prefix = text[old[start].start:a] if start < end and old[start].start < a else ""
    suffix = text[b:old[end - 1].end] if start < end and old[end - 1].end > b else ""
    rest = text[b + len(suffix):sent.span.end]
    olds = tuple(t.text for t in old)
    ranges = []
    for correction in _texts(edit):
        toks = _tokenized_before(prefix + correction.lstrip() + suffix, rest, tok, split)
        s, e = start, end
        if shrink:
            k = 0
            while s < e and k < len(toks) and olds[s] == toks[k]:
                s += 1
                k += 1
            toks = toks[k:]
            while s < e and toks and olds[e - 1] == toks[-1]:
                e -= 1
                toks = toks[:-1]
        ranges.append((s, e, toks))
    changed = [r for r in ranges if r[2] != olds[r[0]:r[1]]]
    if not changed:
        report.add("dropped", {**case, "reason": "no-change"})
        return None
    s0 = min(r[0] for r in changed)
    e0 = max(r[1] for r in changed)
    corrections = [olds[s0:s] + toks + olds[e:e0] for s, e, toks in ranges]
    raw_type = edit.type
    etype, _ = repair_type(raw_type)
    meta = tuple(edit.meta) + ((("hoo.type", raw_type),) if etype != raw_type else ())
    meta += (("chars", f"{edit.start} {edit.end}"),)
    return make_edit(s0, e0, tuple(corrections), etype, edit.required, edit.comment,
                     edit.annotator, meta)


def _split_tokens(text: str, tok: Tokenizer, split: Tokenizer) -> list[Token]:
    """The tokens of ``text`` split into sentences first (offsets into ``text``)."""
    return [Token(t.text, t.start + s.start, t.end + s.start)
            for s in split.tokenize(text) for t in tok.tokenize(s.text)]


class _SplitFirst:
    """A tokenizer that splits its text into sentences first (:func:`_split_tokens`): how
    the exact mapping sees a sentence with its corrections applied."""

    def __init__(self, tok: Tokenizer, split: Tokenizer) -> None:
        self.tok, self.split = tok, split
        self.name, self.version = tok.name, tok.version

    def tokenize(self, text: str) -> list[Token]:
        return _split_tokens(text, self.tok, self.split)


def _tokenized_before(correction: str, rest: str, tok: Tokenizer, split: Tokenizer
                      ) -> tuple[str, ...]:
    """The tokens of ``correction`` as sentence splitting and tokenizing
    ``correction + rest`` make them, cut at the end of ``correction`` (a token across
    that end keeps its part before it)."""
    if not correction:
        return ()
    whole = correction + rest
    n = len(correction)
    out: list[str] = []
    last_end = -1
    for sentence in split.tokenize(whole):
        if sentence.start >= n:
            break
        for t in tok.tokenize(sentence.text):
            start, end = t.start + sentence.start, t.end + sentence.start
            if start >= n:
                break
            if end <= n:
                out.append(t.text)
            elif start == last_end and out and not whole[start:n].strip("."):
                # the 2013/14 tokenizer left "word.." whole: the correction's own period
                # stays on its word when the sentence's period follows it ("dilemma.")
                out[-1] += whole[start:n]
            else:
                out.append(whole[start:n])
            last_end = end
    return tuple(out)


def _anchored_diff(
    old: list[Token], new: list[Token], a: int, b: int, length: int, shrink: bool
) -> tuple[int, int, tuple[str, ...]]:
    """Old tokens ``[s, e)`` and the new tokens that replace them, anchored at the edit.

    ``old`` tokenizes the sentence, ``new`` the sentence with ``[a, b)`` replaced by a
    string of ``length`` characters.
    """
    n, m = len(old), len(new)
    k = 0
    while k < n and k < m and new[k].end <= a and new[k] == old[k]:
        k += 1
    delta = length - (b - a)
    cut = a + length
    j = 0
    while (j < n - k and j < m - k and new[m - 1 - j].start >= cut
           and old[n - 1 - j].start + delta == new[m - 1 - j].start
           and old[n - 1 - j].text == new[m - 1 - j].text):
        j += 1
    s, e = k, n - j
    ns, ne = k, m - j
    if not shrink:
        return s, e, tuple(t.text for t in new[ns:ne])
    while s < e and ns < ne and old[s].text == new[ns].text:
        s += 1
        ns += 1
    while s < e and ns < ne and old[e - 1].text == new[ne - 1].text:
        e -= 1
        ne -= 1
    return s, e, tuple(t.text for t in new[ns:ne])


def _check(
    text: str,
    sent: _Sent,
    sentence: Sentence,
    tok: Tokenizer,
    report: ConversionReport,
    doc_id: str,
    number: int,
    origin: Mapping[int, int] | None = None,
) -> None:
    """Count the sentence as consistent when each annotator's token edits give the tokens
    of its character edits applied (``origin``: the document's id of each annotator)."""
    case = {"document": doc_id, "sentence": number, "start": sent.span.start,
            "end": sent.span.end}
    if sent.broken:
        report.add("inconsistent", {**case, "reason": sent.broken})
        return
    ss, se = sent.span.start, sent.span.end
    own_edits: dict[int, list[Edit]] = {}
    for e in sent.char_edits:
        own_edits.setdefault(e.annotator, []).append(e)
    # annotators with the same character edits (typically none: hundreds of empty BEA
    # annotators) are tokenized once, so the check is linear in the annotators
    tokenized: dict[tuple[Any, ...], tuple[str, ...]] = {}
    for annotator in sentence.annotators or (0,):
        clipped = []
        own = origin.get(annotator, annotator) if origin else annotator
        for e in own_edits.get(own, ()):
            a = min(max(e.start, ss), se) - ss
            b = max(min(e.end, se), ss) - ss
            clipped.append(make_edit(a, b, e.corrections, e.type, e.required, e.comment, 0))
        key = tuple((e.start, e.end, e.corrections) for e in clipped)
        expected = tokenized.get(key)  # type: ignore[assignment]
        if expected is None:
            try:
                expected = tuple(t.text for t in
                                 tok.tokenize("".join(apply_edits(sent.span.text, clipped))))
            except ValueError:
                report.add("inconsistent", {**case, "reason": "overlapping edits in the input"})
                return
            tokenized[key] = expected
        try:
            got = apply_edits(sentence.source, sentence.annotators.get(annotator, ()))
        except ValueError:
            report.add("inconsistent", {**case, "reason": "edits overlap after widening"})
            return
        if got != expected:
            break
    else:
        report.consistent_sentences += 1
        return
    reasons = {c["reason"] for c in report.widened_edits
               if c["document"] == doc_id and ss <= c["start"] <= se}
    reason = ("widened edit" if reasons else
              "sentence tokenizes differently with all its edits applied")
    report.add("inconsistent", {**case, "reason": reason, "m2": " ".join(got),
                                "expected": " ".join(expected)})


# ---------------------------------------------------------------------------------------
# Sentences → document


def to_document(
    sentences: Iterable[Sentence],
    text: str | None = None,
    *,
    id: str | None = None,
    tokenizer: str = "en",
    annotator: int | None = 0,
    meta: dict[str, str] | None = None,
) -> Document:
    """Turn token-offset sentences into one character-offset document.

    Args:
        sentences: the sentences, in text order.
        text: the original text; each sentence's tokens are found in it in order (white
            space between tokens is skipped; nltk's rewritten quotes and brackets, such as
            ````` or ``-LRB-``, also match the characters they stand for).  When omitted,
            the text is the sentences' tokens joined by spaces, one sentence per line.
        id: the document id.
        tokenizer: the tokenizer the tokens came from; ``zh`` and ``char`` corrections are
            written without spaces between tokens.
        annotator: whose edits to take; ``None``: every annotator's (their ids go to
            ``meta["annotators"]``, which ``meta`` gives for a document without sentences).
        meta: the document's ``meta``.

    Returns:
        The document; each edit's ``meta`` keeps the source edit's meta.

    Raises:
        GecFormatError: a token cannot be found in ``text``, or text is left over.
    """
    sents = list(sentences)
    if text is None:
        text = "\n".join(" ".join(s.source) for s in sents)
    doc = _Aligner(text, id or "")
    edits: list[Edit] = []
    ids: set[int] = set()
    joined = tokenizer in JOINED_TOKENIZERS
    for number, sentence in enumerate(sents, 1):
        spans = doc.align(sentence.source, number)
        for edits_of in _chosen(sentence, annotator, ids):
            edits.extend(_char_edits(text, spans, edits_of, joined))
    doc.finish()
    return Document(text, tuple(edits), id=id, meta=_with_annotators(meta, annotator, ids))


def _chosen(sentence: Sentence, annotator: int | None, ids: set[int]) -> list[tuple[Edit, ...]]:
    """The edit lists to carry over: the one annotator's (as annotator 0 of a one-annotator
    document), or (``None``) every annotator's, whose ids are added to ``ids``."""
    if annotator is not None:
        return [tuple(e if e.annotator == 0 else replace(e, annotator=0)
                      for e in sentence.annotators.get(annotator, ()))]
    ids.update(sentence.annotators)
    return [tuple(edits) for _, edits in sorted(sentence.annotators.items())]


def _with_annotators(meta: dict[str, str] | None, annotator: int | None,
                     ids: set[int]) -> dict[str, str]:
    out = dict(meta or {})
    if annotator is None and (ids or "annotators" not in out):
        out["annotators"] = ",".join(map(str, sorted(ids) or [0]))
    elif annotator is not None:
        out.pop("annotators", None)  # the one annotator taken is annotator 0
    return out


def to_documents(
    sentences: Iterable[Sentence],
    texts: Iterable[tuple[str, str]],
    *,
    tokenizer: str = "en",
    annotator: int | None = 0,
) -> Iterator[Document]:
    """Split a stream of sentences over several original texts, in order.

    Args:
        sentences: the sentences of all documents, in document order (as one M2 file made
            from a HOO directory holds them).
        texts: ``(id, text)`` of each document, in the same order.

    Yields:
        One document per text; a document takes sentences until its text has no
        non-space character left.

    Raises:
        GecFormatError: a sentence does not fit the current text, or sentences are left
            over or missing.
    """
    it = iter(sentences)
    pending: Sentence | None = None
    number = 0
    joined = tokenizer in JOINED_TOKENIZERS
    for doc_id, text in texts:
        doc = _Aligner(text, doc_id)
        edits: list[Edit] = []
        ids: set[int] = set()
        while not doc.done():
            if pending is None:
                pending = next(it, None)
                number += 1
            if pending is None:
                raise GecFormatError(f"the sentences end before document {doc_id} does")
            spans = doc.align(pending.source, number)
            for edits_of in _chosen(pending, annotator, ids):
                edits.extend(_char_edits(text, spans, edits_of, joined))
            pending = None
        yield Document(text, tuple(edits), id=doc_id, meta=_with_annotators(None, annotator, ids))
    if next(it, None) is not None:
        raise GecFormatError(f"sentence {number + 1} and later do not belong to any document")


_EQUIVALENTS = {"``": ('"', "“", "``"), "''": ('"', "”", "''"), "-LRB-": ("(",),
                "-RRB-": (")",), "-LSB-": ("[",), "-RSB-": ("]",), "-LCB-": ("{",),
                "-RCB-": ("}",)}


class _Aligner:
    """Finds the tokens of consecutive sentences in a text."""

    def __init__(self, text: str, doc_id: str) -> None:
        self.text = text
        self.pos = 0
        self.doc_id = doc_id

    def _skip(self) -> None:
        m = IGNORABLE.match(self.text, self.pos)
        if m:
            self.pos = m.end()

    def done(self) -> bool:
        self._skip()
        return self.pos >= len(self.text)

    def align(self, tokens: Sequence[str], number: int) -> list[tuple[int, int]]:
        spans = []
        text = self.text
        for i, token in enumerate(tokens):
            self._skip()
            for surface in (token, *_EQUIVALENTS.get(token, ())):
                if text.startswith(surface, self.pos):
                    spans.append((self.pos, self.pos + len(surface)))
                    self.pos += len(surface)
                    break
            else:
                where = f"document {self.doc_id} " if self.doc_id else ""
                raise GecFormatError(
                    f"sentence {number}, token {i} {token!r} is not in the text of "
                    f"{where}at character {self.pos} (found {text[self.pos:self.pos + 20]!r})"
                )
        return spans

    def finish(self) -> None:
        if not self.done():
            raise GecFormatError(
                f"text left over after the last sentence at character {self.pos}: "
                f"{self.text[self.pos:self.pos + 30]!r}"
            )


def detokenize(tokens: Sequence[str], joined: bool = False) -> str:
    """Join tokens into text: no space before closing punctuation and clitics (``,``
    ``'s`` ``n't``), none after opening brackets; ``joined`` (Chinese) uses no spaces.

    >>> detokenize(["(", "see", "Smith", ",", "2010", ")", "'s"])
    "(see Smith, 2010)'s"
    >>> detokenize(["on", '"', "prologues", '"', "."])
    'on "prologues".'

    """
    if joined:
        return "".join(tokens)
    out: list[str] = []
    quotes = 0  # straight double quotes seen: an even count opens, an odd one closes
    glue_next = True
    for token in tokens:
        if token == '"':
            closing = quotes % 2 == 1
            quotes += 1
            if not glue_next and not closing:
                out.append(" ")
            out.append(token)
            glue_next = not closing
            continue
        if not glue_next and token not in LEFT_ATTACHED:
            out.append(" ")
        out.append(token)
        glue_next = token in RIGHT_ATTACHED
    return "".join(out)


def _char_edits(
    text: str, spans: list[tuple[int, int]], edits: Sequence[Edit], joined: bool
) -> list[Edit]:
    """One sentence's token edits as character edits; a deletion gives back the space it
    took along when that would make it overlap another edit; adjacent deletions share out
    the white space one deletion of all their tokens would take (see :func:`_deletion_runs`)."""
    out = [_char_edit(text, spans, edit, joined) for edit in edits]
    if not joined:
        _deletion_runs(text, spans, edits, out)
    for k, (edit, char) in enumerate(zip(edits, out)):
        if edit.start == edit.end:
            continue
        exact = (spans[edit.start][0], spans[edit.end - 1][1])
        if (char.start, char.end) != exact and any(
            other.start < char.end and char.start < other.end
            or (other.start == other.end and char.start < other.start < char.end)
            for j, other in enumerate(out) if j != k
        ):
            out[k] = make_edit(exact[0], exact[1], char.corrections, char.type, char.required,
                               char.comment, char.annotator, char.meta)
    return out


def _deletion_runs(
    text: str, spans: list[tuple[int, int]], edits: Sequence[Edit], out: list[Edit]
) -> None:
    """Give adjacent deletions (no insertion between them) the white space that one
    deletion of all their tokens takes, shared out in ``out``: the first starts where that
    span starts, each ends where the next one's tokens start, the last ends where the span
    ends.  So "x a b, y" minus "a" and "b" is "x, y", as minus "a b" (each deletion on its
    own would keep to its own space and leave "x , y")."""
    pure = sorted((k for k, e in enumerate(edits)
                   if e.start < e.end and not e.correction and len(e.corrections) == 1),
                  key=lambda k: (edits[k].start, edits[k].end))
    insertions = {e.start for e in edits if e.start == e.end}
    runs: list[list[int]] = []
    for k in pure:
        start = edits[k].start
        if runs and edits[runs[-1][-1]].end == start and start not in insertions:
            runs[-1].append(k)
        else:
            runs.append([k])
    for run in runs:
        if len(run) < 2:
            continue
        first, last = edits[run[0]], edits[run[-1]]
        start, end = _deletion_span(text, spans, first.start, last.end, first)
        for i, k in enumerate(run):
            a = start if i == 0 else spans[edits[k].start][0]
            b = end if i == len(run) - 1 else spans[edits[run[i + 1]].start][0]
            c = out[k]
            out[k] = make_edit(a, b, c.corrections, c.type, c.required, c.comment,
                               c.annotator, c.meta)


def _char_edit(text: str, spans: list[tuple[int, int]], edit: Edit, joined: bool) -> Edit:
    n = len(spans)
    s, e = edit.start, edit.end
    if not (0 <= s <= e <= n):
        raise GecFormatError(f"edit {s} {e} is outside the sentence's {n} tokens")
    gap = "" if joined else " "
    corrections = []
    if s == e:
        glue_left = bool(edit.correction) and edit.correction[0] in LEFT_ATTACHED and s > 0
        if n == 0:
            pos, pre, post = 0, "", ""
        elif glue_left:
            pos, pre, post = spans[s - 1][1], "", ""
        elif s < n and (s == 0 or spans[s - 1][1] < spans[s][0]):
            pos, pre, post = spans[s][0], "", gap  # a word before the next word: "the "
        else:
            # at the end, or before a token glued to the one before it ("it|,"): " a lot"
            pos, pre, post = spans[s - 1][1], gap, ""
        for c in edit.corrections:
            corrections.append((pre + detokenize(c, joined) + post,) if c else ())
        start = end = pos
    else:
        start, end = spans[s][0], spans[e - 1][1]
        if not edit.correction and len(edit.corrections) == 1 and not joined:
            start, end = _deletion_span(text, spans, s, e, edit)
        for c in edit.corrections:
            corrections.append((detokenize(c, joined),) if c else ())
    meta = tuple((k, v) for k, v in edit.meta if k not in ("chars", "hoo.type"))
    etype = edit.get_meta("hoo.type") or edit.type  # the raw HOO type, when it was repaired
    return make_edit(start, end, tuple(corrections), etype, edit.required, edit.comment,
                     edit.annotator, meta)


def _deletion_span(
    text: str, spans: list[tuple[int, int]], s: int, e: int, edit: Edit
) -> tuple[int, int]:
    """The white space a deleted stretch of tokens takes with it, so that one space is
    left where there were two: the space after it when there is space on both sides, the
    space before it when it ends the sentence or is followed by glued punctuation ("word
    ." → "."), none otherwise (deleted "," or "(")."""
    n = len(spans)
    start, end = spans[s][0], spans[e - 1][1]
    space_before = s > 0 and spans[s - 1][1] < start and text[spans[s - 1][1]:start].isspace()
    space_after = e < n and end < spans[e][0] and text[end:spans[e][0]].isspace()
    if space_after and (space_before or s == 0):
        return start, spans[e][0]
    if space_before and (e == n or text[spans[e][0]:spans[e][1]] in LEFT_ATTACHED):
        return spans[s - 1][1], end
    return start, end
