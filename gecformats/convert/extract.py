"""Plain text ↔ edits: extract edits from corrected sentences, and apply them again.

Most GEC data starts as parallel sentences (a source and one or more corrections) and most
systems output plain text.  :func:`extract` turns one :class:`~gecformats.model.Parallel`
into a :class:`~gecformats.model.Sentence` with one annotator per reference;
:func:`to_parallel` does the reverse for one sentence.  :func:`sentences` and
:func:`parallels` do the same for streams (optionally on several cores), filling an
:class:`ExtractionReport`.

Alignment (:func:`align`) works on tokens: it keeps the longest common subsequence of the
source and the corrected tokens unchanged, and every maximal run of other tokens becomes
one edit — adjacent changes are merged, as annotators write them ("have" → "has been" is
one edit, not a replacement plus an insertion).  So the edits are minimal (no edit covers
a token that could stay) and applying them gives the corrected tokens back exactly.

>>> [(e.start, e.end, e.correction, e.type) for e in align_edits(
...     "He go to school yesterday".split(), "He went to the school yesterday".split())]
[(1, 2, ('went',), 'R'), (3, 3, ('the',), 'M')]
>>> s = extract(Parallel("他们去了学校，", ("他们去学校。", "他们去了学校，")), "char")
>>> s.annotators[0][0].type, s.annotators[1]
('R', ())
>>> to_parallel(s, joiner="").references
('他们去学校。', '他们去了学校，')
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from gecformats.errors import UsageError
from gecformats.io import write_json
from gecformats.model import Edit, Parallel, Sentence, Tokens, apply_edits, make_edit, span_order
from gecformats.report import Report, Tally
from gecformats.tokenize import JOINED_TOKENIZERS, Tokenizer, get_tokenizer

NO_ERROR = "没有错误"
"""ChERRANT's reference string for "the source is correct" (a noop annotator)."""

UNANNOTATABLE = "无法标注"
"""ChERRANT's reference string for "cannot be annotated" (the reference is dropped)."""

TYPE_SCHEMES = ("errant", "nlpcc")
"""Edit type names :func:`align_edits` can give: ERRANT's operations ``M`` (missing: an
insertion), ``U`` (unnecessary: a deletion), ``R`` (replacement) and ``R:WO`` (word order),
or NLPCC 2018's ``M`` (missing), ``R`` (redundant: a deletion), ``S`` (substitution) and
``W`` (word order)."""

_TYPES = {
    "errant": ("M", "U", "R", "R:WO"),
    "nlpcc": ("M", "R", "S", "W"),
}

EXTRACTORS = ("lcs", "native", "errant")
"""Edit extractors for text → edits: ``lcs`` (:func:`align`, the default: a longest common
subsequence, each changed run one edit), ``native`` (:mod:`gecformats.convert.native_extract`:
ERRANT's alignment and merging rules on word classes guessed from the strings, closer to
ERRANT, about 10× slower than ``lcs``) and ``errant`` (ERRANT itself with spaCy, the optional
extra: :mod:`gecformats.convert.errant_extract`)."""

MAX_REORDER_GAP = 2
"""At most this many kept tokens may lie inside a word-order edit: "I like very much it" →
"I like it very much" is one edit (``very much`` inside), but "The the cat sat on mat" →
"The cat sat on the mat" stays a deletion and an insertion.  (On CoNLL-2014, 0 to 4 and no
limit agree with the gold edits within 0.3 %.)"""

MAX_CELLS = 4_000_000
"""The largest stretch (source tokens × target tokens, once their common start and end are
set aside) aligned as one longest common subsequence, exactly (about 32 MB and a second):
sentences, and essays up to some 2,000 words.  A larger one is aligned window by window
(:func:`_windowed`), in time and memory linear in its length."""

WINDOW = 32
"""The first window of a stretch past :data:`MAX_CELLS` (tokens of each side); it doubles,
up to :data:`MAX_WINDOW`, while no common token is found past its middle."""

MAX_WINDOW = 256
"""The largest window: past it, a stretch with no common token is one change."""


def default_types(tokenizer: str) -> str:
    """The type scheme used with ``tokenizer``: ``nlpcc`` for Chinese, else ``errant``."""
    return "nlpcc" if tokenizer in JOINED_TOKENIZERS else "errant"


def joiner_for(tokenizer: str | None) -> str:
    """How tokens become text for ``tokenizer``: ``""`` for ``zh``/``char``, else a space."""
    return "" if tokenizer in JOINED_TOKENIZERS else " "


# ------------------------------------------------------------------ alignment


def align(source: Sequence[str], target: Sequence[str]) -> list[tuple[int, int, int, int]]:
    """The changed spans between two token sequences.

    Args:
        source, target: the token sequences.

    Returns:
        ``(i1, i2, j1, j2)`` tuples, in order: ``source[i1:i2]`` becomes ``target[j1:j2]``.
        Everything between two spans is a run of tokens common to both, which together
        form a longest common subsequence; two spans are never adjacent.  One exception:
        neighbouring spans whose whole stretch is only reordered, with at most
        :data:`MAX_REORDER_GAP` kept tokens between them, become one span (a word-order
        change: "a b" → "b a" is ``(0, 2, 0, 2)``, not a deletion and an insertion).
        Ties are broken deterministically: common leading and trailing tokens are kept
        first ("the the cat" → "the cat" deletes the second "the"); within the rest, the
        matches that come latest in the source.

    >>> align("a b c d".split(), "a x c d e".split())
    [(1, 2, 1, 2), (4, 4, 4, 5)]
    """
    return _reorderings(changed_spans(source, target), source, target)


def changed_spans(source: Sequence[str], target: Sequence[str]
                  ) -> list[tuple[int, int, int, int]]:
    """:func:`align`'s spans before neighbouring spans of a word-order change are joined:
    the maximal runs of tokens outside the longest common subsequence."""
    n, m = len(source), len(target)
    lo = 0
    top = min(n, m)
    while lo < top and source[lo] == target[lo]:
        lo += 1
    hi_s, hi_t = n, m
    while hi_s > lo and hi_t > lo and source[hi_s - 1] == target[hi_t - 1]:
        hi_s -= 1
        hi_t -= 1
    if lo == hi_s and lo == hi_t:
        return []
    if lo == hi_s or lo == hi_t:
        return [(lo, hi_s, lo, hi_t)]
    a, b = source[lo:hi_s], target[lo:hi_t]
    matches = _lcs(a, b) if len(a) * len(b) <= MAX_CELLS else _windowed(a, b)
    spans = []
    i = j = 0
    for a, b in matches:
        if a > i or b > j:
            spans.append((lo + i, lo + a, lo + j, lo + b))
        i, j = a + 1, b + 1
    if i < hi_s - lo or j < hi_t - lo:
        spans.append((lo + i, hi_s, lo + j, hi_t))
    return spans


def _reorderings(spans: list[tuple[int, int, int, int]], source: Sequence[str],
                 target: Sequence[str]) -> list[tuple[int, int, int, int]]:
    """Merge neighbouring spans whose whole stretch (with at most :data:`MAX_REORDER_GAP`
    kept tokens between them) is only reordered: the common subsequence keeps one of two
    swapped words and moves the other, but annotators write one word-order edit ("a b" →
    "b a")."""
    out: list[tuple[int, int, int, int]] = []
    for span in spans:
        if out:
            i1, _, j1, _ = out[-1]
            _, i2, _, j2 = span
            if (i2 - i1 == j2 - j1 and span[0] - out[-1][1] <= MAX_REORDER_GAP
                    and Counter(source[i1:i2]) == Counter(target[j1:j2])):
                out[-1] = (i1, i2, j1, j2)
                continue
        out.append(span)
    return out


def _lcs(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int]]:
    """The matched index pairs of a longest common subsequence of ``a`` and ``b``."""
    m = len(b)
    # table[i][j] = LCS length of a[i:] and b[j:], filled from the end
    table = [[0] * (m + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) - 1, -1, -1):
        row, below = table[i], table[i + 1]
        ai = a[i]
        for j in range(m - 1, -1, -1):
            if ai == b[j]:
                row[j] = below[j + 1] + 1
            else:
                right, down = row[j + 1], below[j]
                row[j] = right if right > down else down
    out = []
    i = j = 0
    n = len(a)
    while i < n and j < m:
        if a[i] == b[j] and table[i][j] == table[i + 1][j + 1] + 1 and table[i + 1][j] < table[i][j]:
            out.append((i, j))
            i += 1
            j += 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1  # drop a[i] while the rest still holds the longest subsequence
        else:
            j += 1
    return out


def _windowed(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int]]:
    """Matched index pairs of ``a`` and ``b`` (a common subsequence, not always a longest)
    found window by window, for a stretch past :data:`MAX_CELLS`: equal tokens are matched
    as they come; at a difference, the longest common subsequence of the next
    :data:`WINDOW` tokens of each side is taken up to its first match past the window's
    middle (the part the rest of the text cannot change much), the window doubling up to
    :data:`MAX_WINDOW` while there is none; a window of that size without one is a change
    of its first halves.  Each window of ``w`` tokens moves on by ``w / 2`` or more, so the
    work is linear in ``len(a) + len(b)`` (at most ``MAX_WINDOW`` cells a token); the rest,
    once within :data:`MAX_CELLS`, is aligned exactly."""
    out: list[tuple[int, int]] = []
    n, m = len(a), len(b)
    i = j = 0
    w = WINDOW
    while (n - i) * (m - j) > MAX_CELLS:
        if a[i] == b[j]:
            out.append((i, j))
            i, j = i + 1, j + 1
            continue
        wa, wb = min(w, n - i), min(w, m - j)
        matches = _lcs(a[i:i + wa], b[j:j + wb])
        half = w // 2
        cut = next((k for k, (x, y) in enumerate(matches) if x >= half or y >= half), None)
        if cut is None and w < MAX_WINDOW:
            w *= 2
            continue
        taken = matches if cut is None else matches[:cut + 1]
        out += [(i + x, j + y) for x, y in taken]
        if cut is not None:
            i, j = i + taken[-1][0] + 1, j + taken[-1][1] + 1
        else:  # nothing common past the middles: the first halves are a change
            last = taken[-1] if taken else (-1, -1)
            i, j = i + max(last[0] + 1, min(half, wa)), j + max(last[1] + 1, min(half, wb))
        w = WINDOW
    rest = _lcs(a[i:], b[j:])
    return out + [(i + x, j + y) for x, y in rest]


def align_edits(source: Sequence[str], target: Sequence[str], annotator: int = 0,
                types: str = "errant", split_substitutions: bool = False,
                extractor: str = "lcs") -> tuple[Edit, ...]:
    """The edits that turn ``source`` into ``target`` (see :func:`align`, or
    :func:`gecformats.convert.native_extract.spans` with ``extractor="native"``).

    Args:
        source, target: the token sequences.
        annotator: the annotator id the edits get.
        types: the type names, one of :data:`TYPE_SCHEMES`.
        split_substitutions: a changed run of n source tokens replaced by n tokens becomes
            one edit per token that changes (``firghtenning affects`` → ``frightening
            effects`` as two edits), as the CoNLL-2014 annotators mostly wrote them;
            word-order changes stay whole.
        extractor: ``lcs`` or ``native`` (:data:`EXTRACTORS`; ``errant`` needs spaCy and
            works on whole files, :mod:`gecformats.convert.errant_extract`).

    Returns:
        The edits in source order; ``apply_edits(source, edits) == tuple(target)``.

    Raises:
        ValueError: an unknown type scheme or extractor.
    """
    try:
        insertion, deletion, replacement, order = _TYPES[types]
    except KeyError:
        raise ValueError(f"unknown type scheme {types!r} (known: {', '.join(TYPE_SCHEMES)})") from None
    if extractor == "lcs":
        spans = align(source, target)
    elif extractor == "native":
        from gecformats.convert.native_extract import spans as native_spans

        spans = native_spans(source, target)
    else:
        raise ValueError(f"align_edits extracts with lcs or native, not {extractor!r}")
    edits = []
    for i1, i2, j1, j2 in spans:
        correction = tuple(target[j1:j2])
        if i1 == i2:
            kind = insertion
        elif j1 == j2:
            kind = deletion
        elif i2 - i1 > 1 and (Counter(source[i1:i2]) == Counter(correction) or (
                extractor == "native" and _reordered(source[i1:i2], correction))):
            kind = order
        else:
            kind = replacement
            if split_substitutions and i2 - i1 == j2 - j1 > 1:
                edits.extend(make_edit(i, i + 1, ((t,),), kind, True, "-NONE-", annotator)
                             for i, t in zip(range(i1, i2), correction) if source[i] != t)
                continue
        edits.append(make_edit(i1, i2, (correction,), kind, True, "-NONE-", annotator))
    return tuple(edits)


def _reordered(a: Sequence[str], b: Sequence[str]) -> bool:
    """The same tokens but for case, in another order (ERRANT's word order: ``R:WO``)."""
    lower_a, lower_b = [t.lower() for t in a], [t.lower() for t in b]
    return sorted(lower_a) == sorted(lower_b) and lower_a != lower_b


# ------------------------------------------------------------------ one sentence


LOSSES = ("unannotatable", "out-of-range", "overlap", "spacing-only", "negative-annotator")
"""The events of an :class:`ExtractionReport` that leave something out of the output."""


@dataclass(slots=True)
class ExtractionReport:
    """What an extraction (text → edits) or application (edits → text) did.

    Attributes:
        sentences: sentences processed.
        references: references read (extraction) or written (application).
        edits: edits extracted or applied.
        noops: references equal to their source (extraction: a noop annotator).
        absent: annotators absent from a sentence (extraction: ``None`` references;
            application: the source was written for them).
        events: other events by name, with the first few cases of each (``"sentence 12,
            annotator 1: ..."``), as a :class:`~gecformats.report.Tally` (also
            :attr:`counts` and :attr:`examples`), e.g. ``spacing-only`` (a reference that
            differs from its source only in white space: it becomes a noop, the spacing is
            lost),
            ``unannotatable`` (a ChERRANT ``无法标注`` reference, dropped),
            ``out-of-range`` / ``overlap`` (edits that could not be applied and were left
            out), ``no-alternative`` (an edit with fewer alternatives than asked: its first
            was used).
        versions: the tools the result depends on (``tokenizer``, ``simplifier``) with
            their versions.
    """

    sentences: int = 0
    references: int = 0
    edits: int = 0
    noops: int = 0
    absent: int = 0
    events: Tally = field(default_factory=Tally)
    versions: dict[str, str] = field(default_factory=dict)
    absent_policy: str | None = None

    @property
    def counts(self) -> Counter[str]:
        """Other events by name (see the class docstring)."""
        return self.events.counts

    @property
    def examples(self) -> dict[str, list[str]]:
        """The first few cases of each event in :attr:`counts`."""
        return self.events.examples

    def note(self, what: str, example: str) -> None:
        """Count one event ``what`` and keep ``example`` among the first few."""
        self.events.note(what, example)

    @property
    def dropped(self) -> int:
        """How many events lost something (:data:`LOSSES`): what ``convert -q`` still
        reports."""
        return sum(self.counts[what] for what in LOSSES)

    def merge(self, other: ExtractionReport) -> None:
        """Add the numbers of ``other`` (a worker's report) to this one."""
        self.sentences += other.sentences
        self.references += other.references
        self.edits += other.edits
        self.noops += other.noops
        self.absent += other.absent
        self.events.merge(other.events)
        self.versions.update(other.versions)

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data."""
        return {"sentences": self.sentences, "references": self.references,
                "edits": self.edits, "noops": self.noops, "absent": self.absent,
                "counts": dict(self.counts), "examples": self.examples,
                "versions": self.versions}

    def summary(self) -> str:
        """One line for people."""
        parts = [f"{self.sentences} sentences"]
        if self.references:
            parts.append(f"{self.references} references")
        parts.append(f"{self.edits} edits")
        if self.references:
            parts.append(f"{self.noops} noop references")
        if self.absent:
            what = {"source": "wrote the source", "first": "wrote the first annotator's "
                    "correction"}.get(self.absent_policy or "", "")
            if self.absent_policy == AUTO_FIRST:
                what = ("--absent auto: wrote the first annotator's correction, as the file "
                        "writes noop lines beside other annotators' edits; --absent source "
                        "for the source")
            elif what:
                what = f"{what}: --absent {self.absent_policy}"
            parts.append(f"{self.absent} references of annotators absent from a sentence"
                         + (f" ({what})" if what else ""))
        parts += [f"{count} {what}" for what, count in sorted(self.counts.items())]
        return ", ".join(parts)

    def write_json(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_dict` as JSON to ``path`` (whole or not at all)."""
        write_json(self.to_dict(), path)


def _tokenizer(tokenizer: str | Tokenizer) -> Tokenizer:
    return get_tokenizer(tokenizer) if isinstance(tokenizer, str) else tokenizer


def _texts(tok: Tokenizer) -> Callable[[str], Tokens]:
    """``text → token texts`` for ``tok``, through its ``words`` shortcut if it has one."""
    words = getattr(tok, "words", None)
    if words is not None:
        return lambda text: tuple(words(text))
    return lambda text: tuple(t.text for t in tok.tokenize(text))


def extract(parallel: Parallel, tokenizer: str | Tokenizer = "en", *, types: str | None = None,
            split_substitutions: bool = False, report: ExtractionReport | None = None,
            number: int = 0, extractor: str = "lcs") -> Sentence:
    """Extract one annotator's edits per reference of ``parallel``.

    Args:
        parallel: the source and its references (``None`` = absent annotator).
        tokenizer: a tokenizer or its name (``en``, ``zh``, ``char``, ``space``).
        types: the edit type scheme (:data:`TYPE_SCHEMES`); by default ``nlpcc`` for ``zh``
            and ``char``, ``errant`` otherwise.
        split_substitutions, extractor: see :func:`align_edits`.
        report: filled with what happened, if given.
        number: the sentence's 1-based number, for the report's examples.

    Returns:
        The :class:`Sentence`: the source tokens and, for every present reference ``k``,
        annotator ``k``'s edits (none for a reference equal to the source, which makes a
        noop annotator).  A sentence without any reference (NLPCC ``N = 0``: judged
        correct) gets a noop annotator 0.  A ChERRANT ``没有错误`` reference is a noop; a
        ``无法标注`` reference is left out (reported).  The guarantee: for every annotator
        ``k``, ``sentence.corrected(k)`` equals the tokens of reference ``k``.
    """
    tok = _tokenizer(tokenizer)
    scheme = types or default_types(tok.name)
    texts = _texts(tok)
    source = texts(parallel.source)
    annotators: dict[int, tuple[Edit, ...]] = {}
    seen: dict[str, Tokens] = {parallel.source: source}
    if report is not None:
        report.sentences += 1
        if "tokenizer" not in report.versions:
            report.versions["tokenizer"] = f"{tok.name}-{tok.version}"
    if not parallel.references:
        annotators[0] = ()
        if report is not None:
            report.noops += 1
    for k, ref in enumerate(parallel.references):
        if ref is None:
            if report is not None:
                report.absent += 1
            continue
        if ref == UNANNOTATABLE:
            if report is not None:
                report.note("unannotatable", f"sentence {number}, annotator {k}")
            continue
        if report is not None:
            report.references += 1
        if ref == NO_ERROR:
            target = source
        else:
            target = seen.get(ref)
            if target is None:
                target = seen[ref] = texts(ref)
        edits = (align_edits(source, target, k, scheme, split_substitutions, extractor)
                 if target != source else ())
        annotators[k] = edits
        if report is not None:
            report.edits += len(edits)
            if not edits:
                report.noops += 1
                if ref != parallel.source and ref != NO_ERROR:
                    report.note("spacing-only", f"sentence {number}, annotator {k}")
    return Sentence(source, annotators, id=parallel.id)


def to_parallel(sentence: Sentence, *, alternative: int = 0, joiner: str = " ",
                report: ExtractionReport | None = None, number: int = 0) -> Parallel:
    """Apply each annotator's edits to ``sentence`` and give the texts.

    Args:
        sentence: the tokenized sentence with its annotators.
        alternative: which alternative correction of each edit to use (0 = the first); an
            edit with fewer alternatives uses its first (reported as ``no-alternative``).
        joiner: put between tokens (``" "``; ``""`` for Chinese).
        report: filled with what happened, if given.
        number: the sentence's 1-based number, for the report's examples.

    Returns:
        A :class:`Parallel` whose reference ``k`` is annotator ``k``'s corrected text, or
        ``None`` when annotator ``k`` is absent from this sentence.  Edits are applied in
        ``(start, end)`` order; several insertions at one offset keep their file order;
        optional edits are applied.  An edit out of range, or overlapping an earlier edit
        of its annotator, is left out and reported (``out-of-range``, ``overlap``).
    """
    source = sentence.source
    width = max(sentence.annotators, default=-1) + 1
    refs: list[str | None] = [None] * width
    for k, edits in sentence.annotators.items():
        if k < 0:
            if report is not None:
                report.note("negative-annotator", f"sentence {number}, annotator {k}")
            continue
        usable = _applicable(source, edits, report, number, k)
        if report is not None:
            report.references += 1
            report.edits += len(usable)
            if not usable:
                report.noops += 1
            if alternative and any(len(e.corrections) <= alternative for e in usable):
                report.note("no-alternative", f"sentence {number}, annotator {k}")
        refs[k] = joiner.join(apply_edits(source, usable, alternative))
    if report is not None:
        report.sentences += 1
        report.absent += refs.count(None)
    return Parallel(joiner.join(source), tuple(refs), id=sentence.id)


def _applicable(source: Tokens, edits: Sequence[Edit], report: ExtractionReport | None,
                number: int, annotator: int) -> list[Edit]:
    """The edits that can be applied together; the others are reported."""
    n = len(source)
    out: list[Edit] = []
    end = 0
    for e in sorted(edits, key=span_order):
        if e.start == -1 and e.end == -1:  # an M2 noop line that slipped through
            continue
        if e.start < 0 or e.end > n or e.start > e.end:
            problem = "out-of-range"
        elif e.start < end:
            problem = "overlap"
        else:
            out.append(e)
            end = e.end
            continue
        if report is not None:
            report.note(problem, f"sentence {number}, annotator {annotator}: {e.start} {e.end}")
    return out


# ------------------------------------------------------------------ streams


def sentences(items: Iterable[Parallel], tokenizer: str = "en", *, types: str | None = None,
              split_substitutions: bool = False, report: ExtractionReport | None = None,
              jobs: int = 1, chunk: int = 256, engine: Any = None,
              total: int | None = None, extractor: str = "lcs") -> Iterator[Sentence]:
    """:func:`extract` every item of a stream, in order, streaming.

    Args:
        items: the parallel sentences.
        tokenizer, types, split_substitutions, extractor: see :func:`extract`.
        report: filled as the stream is consumed.
        jobs: worker processes (1: none; 0: one per CPU).  The output order and content
            do not depend on it.
        chunk: sentences per task handed to a worker.
        engine: a :class:`gecformats.dist.Engine`: the chunks go to its Dask workers
            instead (``jobs`` is then not used; the engine decides the chunk size).
        total: how many items there are, when known (the engine's ``partitions`` need it).

    Yields:
        One :class:`Sentence` per item.
    """
    tok = get_tokenizer(tokenizer)
    scheme = types or default_types(tokenizer)
    settings = (tokenizer, scheme, split_substitutions, extractor)
    if engine is not None:
        from gecformats.dist import run_chunks

        yield from run_chunks(engine, _extract_chunk, items, settings, report, total)
        return
    if jobs == 0:
        jobs = os.cpu_count() or 1
    if jobs <= 1:
        for number, item in enumerate(items, 1):
            yield extract(item, tok, types=scheme, split_substitutions=split_substitutions,
                          report=report, number=number, extractor=extractor)
        return
    yield from _parallel_map(_extract_chunk, items, settings, report, jobs, chunk)


def m2_blocks(items: Iterable[Parallel], tokenizer: str, engine: Any, *, types: str | None = None,
              split_substitutions: bool = False, report: ExtractionReport | None = None,
              total: int | None = None, deletion: str | None = None,
              targets: str = "keep", extractor: str = "lcs"
              ) -> Iterator[tuple[str, Report, tuple[int, str] | None]]:
    """Text → M2 on ``engine``'s workers, which also write the M2: one
    ``(text, writer_report, failure)`` per chunk, in order.

    What :func:`sentences` followed by :func:`gecformats.formats.m2.write` makes, but the
    workers send back M2 text instead of sentences, so the client only reads and writes
    (unpickling a sentence's tokens cost it more than formatting them).  ``failure`` is
    ``(number, message)`` for the first sentence M2 cannot hold (the chunk's text then stops
    before it), else ``None``.

    Raises:
        ValueError: unknown ``deletion`` or ``targets`` (:func:`gecformats.formats.m2.check_options`).
    """
    from gecformats.dist import run_chunks
    from gecformats.formats.m2 import check_options

    check_options(deletion, targets)
    settings = (tokenizer, types or default_types(tokenizer), split_substitutions, extractor,
                deletion, targets)
    yield from run_chunks(engine, _m2_chunk, items, settings, report, total)


def _m2_chunk(args: tuple[tuple[str, str, bool, str, str | None, str], int, list[Parallel]]
              ) -> tuple[list[tuple[str, Report, tuple[int, str] | None]], ExtractionReport]:
    """One task of :func:`m2_blocks`: extract a chunk, then write it as M2."""
    from gecformats.formats.m2 import format_sentence

    (tokenizer, scheme, split, extractor, deletion, targets), first, chunk = args
    sentences, report = _extract_chunk(((tokenizer, scheme, split, extractor), first, chunk))
    written = Report()
    blocks = []
    failure = None
    for i, sentence in enumerate(sentences):
        try:
            blocks.append(format_sentence(sentence, deletion=deletion, targets=targets,  # type: ignore[arg-type]
                                          report=written, number=first + i))
        except ValueError as exc:
            failure = (first + i, str(exc))
            break
    written.sentences = len(blocks)
    return [("".join(blocks), written, failure)], report


def _extract_chunk(args: tuple[tuple[str, str, bool, str], int, list[Parallel]]
                   ) -> tuple[list[Sentence], ExtractionReport]:
    """One task of the parallel paths (local processes or Dask workers): extract a chunk of
    items numbered from ``first``; the results and the chunk's report."""
    (tokenizer, scheme, split, extractor), first, chunk = args
    tok = get_tokenizer(tokenizer)
    report = ExtractionReport()
    out = [extract(p, tok, types=scheme, split_substitutions=split, report=report,
                   number=first + i, extractor=extractor) for i, p in enumerate(chunk)]
    return out, report


def _parallel_map(function: Any, items: Iterable[Any], settings: tuple[Any, ...],
                  report: ExtractionReport | None, jobs: int, chunk: int) -> Iterator[Any]:
    """Run ``function`` over chunks of ``items`` in ``jobs`` processes, in order, with at
    most a few chunks in flight (flat memory)."""
    from gecformats.dist import chunks, process_map

    for done in process_map(function, chunks(items, chunk, settings), jobs):
        yield from _collect(done, report)


def _collect(done: tuple[list[Any], ExtractionReport], report: ExtractionReport | None
             ) -> list[Any]:
    results, part = done
    if report is not None:
        report.merge(part)
    return results


ABSENT = ("source", "first", "skip")
"""What an annotator absent from a sentence gets in M2 → text (as ``gleu --absent``): the
source sentence, the first present annotator's correction (right for the CoNLL-2014
combined file, which leaves out annotator 1 where its edits equal annotator 0's), or nothing
(``skip``: the reference is left out where the output format allows it)."""


def noop_beside_edits(sentence: Sentence) -> bool:
    """Whether ``sentence`` has an annotator with no edits (an M2 ``noop`` line) beside one
    with edits.  A file that has such a sentence says "no change" explicitly, so an
    annotator it leaves out of a sentence did not mean "no change": the CoNLL-2014 combined
    file leaves out annotator 1 where its edits equal annotator 0's.  ``--absent auto``
    (``gleu``, and M2 → parallel or tsv) then takes ``first``, else ``source``."""
    lists = [bool(edits) for k, edits in sentence.annotators.items() if k >= 0]
    return any(lists) and not all(lists)


AUTO_FIRST = "auto-first"
"""``ExtractionReport.absent_policy`` when ``first`` was taken by default for a file with
noop lines beside other annotators' edits (:func:`noop_beside_edits`)."""


def parallels(items: Iterable[Sentence], *, alternative: int = 0, joiner: str = " ",
              report: ExtractionReport | None = None, absent: str | None = None,
              annotators: Iterable[int] = (), engine: Any = None,
              total: int | None = None) -> Iterator[Parallel]:
    """:func:`to_parallel` every sentence of a stream, in order, streaming.

    Args:
        items, alternative, joiner, report: as for :func:`to_parallel`.
        absent: ``None`` or ``skip`` leave an absent annotator's reference ``None``;
            ``source`` and ``first`` fill it (see :data:`ABSENT`) for every annotator in
            ``annotators`` or seen in an earlier sentence.  ``report.absent`` then counts
            the filled references.
        annotators: the annotator ids of the whole input, if known (a first pass over a
            file): an annotator that first appears late is then filled from sentence 1.
        engine, total: as for :func:`sentences` (with ``absent`` filling, ``annotators``
            must be the whole input's: each chunk is filled on its own).

    Raises:
        ValueError: an unknown ``absent`` policy.
    """
    if absent is not None and absent not in ABSENT:
        raise ValueError(f"unknown absent-annotator policy {absent!r} (known: {', '.join(ABSENT)})")
    if report is not None and absent is not None and report.absent_policy != AUTO_FIRST:
        report.absent_policy = absent
    fill = absent in ("source", "first")
    known = set(annotators)
    if engine is not None:
        from gecformats.dist import run_chunks

        if fill and not known:
            raise UsageError(f"--engine dask with --absent {absent} needs the annotators "
                             "known in advance (a file input, read a first time)")
        yield from run_chunks(engine, _parallels_chunk, items,
                              (alternative, joiner, absent if fill else None, frozenset(known)),
                              report, total)
        return
    for number, sentence in enumerate(items, 1):
        before = report.absent if report is not None else 0
        item = to_parallel(sentence, alternative=alternative, joiner=joiner, report=report,
                           number=number)
        if fill:
            known.update(k for k in sentence.annotators if k >= 0)
            item, filled = fill_absent(item, known, absent)  # type: ignore[arg-type]
            if report is not None:
                report.absent = before + filled
        yield item


def _parallels_chunk(args: tuple[tuple[int, str, str | None, frozenset[int]], int, list[Sentence]]
                     ) -> tuple[list[Parallel], ExtractionReport]:
    """One task of ``parallels`` on an engine: a chunk numbered from ``first``."""
    (alternative, joiner, absent, known), first, chunk = args
    report = ExtractionReport()
    out = []
    for i, sentence in enumerate(chunk):
        item = to_parallel(sentence, alternative=alternative, joiner=joiner, report=report,
                           number=first + i)
        if absent is not None:
            item, filled = fill_absent(item, known, absent)
            report.absent += filled
        out.append(item)
    return out, report


def fill_absent(item: Parallel, annotators: Iterable[int], policy: str) -> tuple[Parallel, int]:
    """``item`` with a reference for each of ``annotators`` that has none: the source
    (``policy == "source"``, or when no annotator is present) or the first present
    reference (``"first"``).  Returns the new item and how many references were filled."""
    ids = sorted(set(annotators))
    if not ids:
        return item, 0
    refs = list(item.references) + [None] * max(0, ids[-1] + 1 - len(item.references))
    present = [r for r in refs if r is not None]
    stand_in = present[0] if policy == "first" and present else item.source
    filled = 0
    for k in ids:
        if refs[k] is None:
            refs[k] = stand_in
            filled += 1
    return item.replace(references=tuple(refs)), filled
