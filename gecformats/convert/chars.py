"""Word-level M2 → character-level M2, exactly.

Chinese gold data is segmented into words by some segmenter (``gold.01`` of NLPCC 2018 by
PKUNLP); character-level M2 (one token per character, digits and Latin letters split too,
as ChERRANT's ``.char`` files) needs no segmenter at all.  The conversion is exact: the
characters of the source are the characters of its tokens, and a word offset becomes the
number of characters before that word (cumulative lengths).

>>> from gecformats.model import Edit, Sentence
>>> s = Sentence(("我", "喜欢", "看书"), {0: (Edit(2, 3, (("看报",),), "S"),)})
>>> c = to_chars(s)
>>> c.source, [(e.start, e.end, e.correction) for e in c.annotators[0]]
(('我', '喜', '欢', '看', '书'), [(3, 5, ('看', '报'))])
>>> [(e.start, e.end, e.correction) for e in to_chars(s, shrink=True).annotators[0]]
[(4, 5, ('报',))]
"""

from __future__ import annotations

from typing import Any
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate

from gecformats.convert.extract import NO_ERROR, UNANNOTATABLE, ExtractionReport
from gecformats.model import Edit, Sentence, Target, Tokens, make_edit, span_order
from gecformats.tokenize import IGNORABLE


def _chars(tokens: Iterable[str]) -> Tokens:
    return tuple(IGNORABLE.sub("", "".join(tokens)))


def to_chars(sentence: Sentence, *, shrink: bool = False, report: ExtractionReport | None = None,
             number: int = 0) -> Sentence:
    """Convert one word-level sentence to one token per character.

    Args:
        sentence: the word-level sentence.
        shrink: trim characters an edit's original and its (single) correction share at
            either end, so that ``看书 → 看报`` becomes ``书 → 报``; without it every edit keeps
            its word boundaries.  Identity edits keep their span.
        report: counts ``sentences`` and ``edits``, and notes ``out-of-range`` edits, which
            cannot be converted and are left out.
        number: the sentence's 1-based number, for the report's examples.

    Returns:
        The character-level sentence; annotators, noop annotators, types, flags, comments
        and ChERRANT targets are kept.  Each annotator's edits come in ``(start, end)``
        order (insertions at one point in their file order), as M2 writers write them.
        White space and U+FEFF inside tokens are dropped.
    """
    lengths = [len(_chars((t,))) for t in sentence.source]
    offsets = [0, *accumulate(lengths)]
    source = _chars(sentence.source)

    def convert(edits: Sequence[Edit], annotator: int, count: bool) -> tuple[Edit, ...]:
        out = []
        # in (start, end) order, insertions at one point in file order: shrinking can turn
        # an edit into an insertion at the same point as another, and this order is the
        # order in which they apply
        for e in sorted(edits, key=span_order):
            if not 0 <= e.start <= e.end <= len(lengths):
                if report is not None:
                    report.note("out-of-range",
                                f"sentence {number}, annotator {annotator}: {e.start} {e.end}")
                continue
            start, end = offsets[e.start], offsets[e.end]
            corrections = tuple(_chars(c) for c in e.corrections)
            if shrink and len(corrections) == 1 and source[start:end] != corrections[0]:
                # (an identity edit, ERRANT's UNK, keeps its span: it marks a problem)
                start, end, corrections = _shrunk(source, start, end, corrections[0])
            out.append(make_edit(start, end, corrections, e.type, e.required, e.comment,
                                 e.annotator, e.meta))
        if report is not None and count:
            report.edits += len(out)
        return tuple(out)

    # count every edit line once: a ChERRANT reference's edits are those of its alignments
    # (the first of which is also the annotator's)
    annotators = {k: convert(edits, k, k not in sentence.targets)
                  for k, edits in sentence.annotators.items()}
    targets = {
        k: tuple(Target(_target_text(t.text), t.alignment, convert(t.edits, k, True))
                 for t in ts)
        for k, ts in sentence.targets.items()
    }
    if report is not None:
        report.sentences += 1
    return Sentence(source, annotators, sentence.id, sentence.meta, targets)


def _shrunk(source: Tokens, start: int, end: int, correction: Tokens
            ) -> tuple[int, int, tuple[Tokens, ...]]:
    i, j = 0, len(correction)
    while start < end and i < j and source[start] == correction[i]:
        start += 1
        i += 1
    while start < end and i < j and source[end - 1] == correction[j - 1]:
        end -= 1
        j -= 1
    return start, end, (correction[i:j],)


def _target_text(text: str) -> str:
    # a ChERRANT target line holds tokens; its special strings (没有错误) stay as they are
    return text if text in (NO_ERROR, UNANNOTATABLE) else " ".join(_chars(text.split()))


def sentences_to_chars(sentences: Iterable[Sentence], *, shrink: bool = False,
                       report: ExtractionReport | None = None, engine: Any = None,
                       total: int | None = None) -> Iterator[Sentence]:
    """:func:`to_chars` every sentence of a stream, in order, streaming (on the Dask
    ``engine``'s workers when one is given, :func:`gecformats.dist.run_chunks`)."""
    if engine is not None:
        from gecformats.dist import run_chunks

        yield from run_chunks(engine, _chars_chunk, sentences, shrink, report, total)
        return
    for number, sentence in enumerate(sentences, 1):
        yield to_chars(sentence, shrink=shrink, report=report, number=number)


def _chars_chunk(args: tuple[bool, int, list[Sentence]]) -> tuple[list[Sentence], ExtractionReport]:
    """One task of :func:`sentences_to_chars` on an engine."""
    shrink, first, chunk = args
    report = ExtractionReport()
    return [to_chars(s, shrink=shrink, report=report, number=first + i)
            for i, s in enumerate(chunk)], report
