"""Error loci: mutually exclusive alternative corrections (Felice & Briscoe 2015).

The I-measure format groups the edits of all annotators of a sentence into *loci*.  A
locus holds alternatives, each one annotator's correction of that stretch of the sentence
(one or more token changes); the alternatives of a locus exclude each other, and the loci of
a sentence are independent, so every combination of one alternative per locus is a valid
reference.  A locus is *required* when every annotator who saw the sentence corrected it;
otherwise "no change" is an implicit extra alternative.

:func:`group` builds loci from a model :class:`~gecformats.model.Sentence` (an M2 block) by
one of two rules:

``components`` (default)
    Connected components of overlap: two edits overlap when their spans share a token,
    when they are identical (two insertions at one point), when an insertion lies strictly
    inside the other's span, or when an insertion sits on the boundary of *another
    annotator's* edit.  So loci are truly independent: no reference mixes an insertion of
    one annotator with the neighbouring replacement of another that it belonged with.
``imeasure``
    The rule of the original converter ``m2_to_ixml.py`` (``formats.md`` §8.2): edits
    sorted longest first (stable); each joins the first cluster that has an edit it
    overlaps (insertions only strictly inside a span), clusters are never merged.

Every ``||`` alternative of an M2 edit is kept: an annotator's edit with two corrections
gives that annotator two alternatives in its locus.

:func:`to_sentence` turns loci back into a model sentence (each annotator's alternatives
become its edits; annotators counted in ``numann`` without any alternative become noop
annotators) and records the loci in ``Edit.meta`` so that :func:`loci_of` gives back
exactly the same loci.

>>> from gecformats.model import Edit, Sentence
>>> s = Sentence(("He", "go", "to", "school"),
...              {0: (Edit(1, 2, (("goes",),), "Vt", annotator=0),),
...               1: (Edit(1, 2, (("went",),), "Vt", annotator=1),
...                   Edit(3, 3, ((".",),), "Mec", annotator=1))})
>>> for locus in group(s).loci:
...     print(locus.required, locus.type, [(a.annotator, a.changes) for a in locus.alternatives])
True Vt [(0, (Change(start=1, end=2, tokens=('goes',)),)), (1, (Change(start=1, end=2, tokens=('went',)),))]
False Mec [(1, (Change(start=3, end=3, tokens=('.',)),))]
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from gecformats.model import (Alternative, Change, Edit, Locus, LocusSentence, Sentence, Tokens,
                              make_edit, span_order)

GROUPINGS = ("components", "imeasure")
"""The names of the grouping rules."""

MAX_PRODUCT = 1024
"""Most alternatives one annotator may get in one locus from ``||`` alternatives of
several of its edits (their product); more is refused with a ValueError."""


# ---------------------------------------------------------------------------------------
# Grouping edits into loci


def group(sentence: Sentence, method: str = "components") -> LocusSentence:
    """Group the edits of all annotators of an M2-like sentence into loci.

    Args:
        sentence: the sentence; annotators present without edits (noop) count in
            ``numann``.
        method: ``components`` or ``imeasure`` (see the module documentation).

    Returns:
        The loci, ordered by the span of their first edit (``imeasure``) or of the whole
        locus (``components``); alternatives by annotator id.

    Raises:
        ValueError: unknown method, or ``||`` alternatives whose product in one locus
            exceeds :data:`MAX_PRODUCT`.
    """
    edits = [e for annotator, es in sentence.annotators.items() for e in _with_annotator(es, annotator)]
    if method == "imeasure":
        clusters = _imeasure_clusters(edits)
        clusters.sort(key=lambda c: (c[0].start, c[0].end))
    elif method == "components":
        clusters = _components(edits)
        clusters.sort(key=lambda c: (min(e.start for e in c), min(e.end for e in c)))
    else:
        raise ValueError(f"unknown grouping {method!r} (known: {', '.join(GROUPINGS)})")
    numann = len(sentence.annotators)
    loci = []
    for k, cluster in enumerate(clusters, 1):
        alternatives = _alternatives(cluster)
        annotators = {a.annotator for a in alternatives}
        types = list(dict.fromkeys(e.type for e in cluster if e.type))
        loci.append(Locus(tuple(alternatives), len(annotators) >= numann, "/".join(types), str(k)))
    return LocusSentence(tuple(sentence.source), tuple(loci), numann, sentence.id)


def _with_annotator(edits: Iterable[Edit], annotator: int) -> Iterable[Edit]:
    for e in edits:
        yield e if e.annotator == annotator else make_edit(
            e.start, e.end, e.corrections, e.type, e.required, e.comment, annotator, e.meta)


def imeasure_overlap(a: Edit | Change, b: Edit | Change) -> bool:
    """The overlap test of the original converter: identical spans overlap; an insertion
    overlaps only an edit it lies strictly inside; other spans overlap when they share a
    token."""
    if (a.start, a.end) == (b.start, b.end):
        return True
    if a.start == a.end:
        return b.start < a.start < b.end
    if b.start == b.end:
        return a.start < b.start < a.end
    return b.start < a.end <= b.end or b.start <= a.start < b.end


def _imeasure_clusters(edits: list[Edit]) -> list[list[Edit]]:
    clusters: list[list[Edit]] = []
    for edit in sorted(edits, key=lambda e: -(e.end - e.start)):
        for cluster in clusters:
            if any(imeasure_overlap(edit, other) for other in cluster):
                cluster.append(edit)
                break
        else:
            clusters.append([edit])
    return clusters


def components_overlap(a: Edit, b: Edit) -> bool:
    """The overlap of the ``components`` grouping: :func:`imeasure_overlap` taken both
    ways (the original's test misses a span that contains the other when tried in that
    order), plus an insertion on the boundary of another annotator's edit."""
    if imeasure_overlap(a, b) or imeasure_overlap(b, a):
        return True
    if a.annotator == b.annotator:
        return False
    if a.start == a.end and b.start != b.end:
        return a.start in (b.start, b.end)
    if b.start == b.end and a.start != a.end:
        return b.start in (a.start, a.end)
    return False


def _spans_overlap(a: tuple[int, int], b: tuple[int, int], annotators_differ: bool) -> bool:
    """:func:`components_overlap` of an edit on span ``a`` and one on span ``b``."""
    ea, eb = Change(a[0], a[1], ()), Change(b[0], b[1], ())
    if imeasure_overlap(ea, eb) or imeasure_overlap(eb, ea):
        return True
    if not annotators_differ:
        return False
    if a[0] == a[1] and b[0] != b[1]:
        return a[0] in b
    if b[0] == b[1] and a[0] != a[1]:
        return b[0] in a
    return False


def _components(edits: list[Edit]) -> list[list[Edit]]:
    parent = list(range(len(edits)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    # Edits of one span always overlap, and whether two spans do depends on the spans and
    # only on whether two annotators differ: so spans are compared, not edits (a sentence
    # with thousands of A lines on a few spans took minutes pairwise), and in start order,
    # since spans that do not touch never overlap.
    by_span: dict[tuple[int, int], list[int]] = {}
    for i, e in enumerate(edits):
        by_span.setdefault((e.start, e.end), []).append(i)
    for members in by_span.values():
        for i in members[1:]:
            parent[find(i)] = find(members[0])
    annotators = {span: {edits[i].annotator for i in members} for span, members in by_span.items()}
    spans = sorted(by_span)
    for x, first in enumerate(spans):
        for second in spans[x + 1:]:
            if second[0] > first[1]:
                break
            if _spans_overlap(first, second, len(annotators[first] | annotators[second]) > 1):
                parent[find(by_span[first][0])] = find(by_span[second][0])
    groups: dict[int, list[Edit]] = {}
    for i, edit in enumerate(edits):
        groups.setdefault(find(i), []).append(edit)
    return list(groups.values())


def _alternatives(cluster: list[Edit]) -> list[Alternative]:
    by_annotator: dict[int, list[Edit]] = {}
    for edit in cluster:
        by_annotator.setdefault(edit.annotator, []).append(edit)
    out = []
    for annotator in sorted(by_annotator):
        edits = sorted(by_annotator[annotator], key=span_order)
        choices = [e.corrections or ((),) for e in edits]
        total = 1
        for c in choices:
            total *= len(c)
            if total > MAX_PRODUCT:  # stop multiplying: the product can have thousands of digits
                raise ValueError(f"annotator {annotator} has more than {MAX_PRODUCT} "
                                 f"combinations of || alternatives in one locus")
        for combination in itertools.product(*choices):
            out.append(Alternative(annotator, tuple(
                Change(e.start, e.end, tuple(tokens)) for e, tokens in zip(edits, combination))))
    return out


# ---------------------------------------------------------------------------------------
# Loci ↔ model sentences


LOCUS_KEY = "ixml.error"
"""``Edit.meta`` key: the id of the locus an edit came from."""


def to_sentence(ls: LocusSentence) -> Sentence:
    """The model sentence of a locus sentence (the way I-measure XML becomes M2).

    Each annotator's alternatives become its edits: an alternative's changes are edits of
    their own; several alternatives of one annotator in one locus become one edit with
    ``||`` corrections when they differ in one change of the same span (changes they share
    stay separate edits, in the first alternative's order), otherwise one edit over the
    span of all their changes, whose corrections are the alternatives applied to it
    (marked ``ixml.union`` in its meta).  Annotators counted in ``numann`` with no
    alternative anywhere become noop annotators (the smallest unused ids).  Every edit's
    type is its locus type and its ``meta`` records the locus (``ixml.error``) and whether
    it was required (``ixml.req``), which lets :func:`loci_of` rebuild the loci.

    Raises:
        ValueError: a change is out of range for the source.
    """
    n = len(ls.source)
    annotators: dict[int, list[Edit]] = {}
    for index, locus in enumerate(ls.loci):
        lid = locus.id if locus.id is not None else str(index + 1)
        meta = ((LOCUS_KEY, lid), ("ixml.req", "yes" if locus.required else "no"))
        by_annotator: dict[int, list[Alternative]] = {}
        for alt in locus.alternatives:
            for c in alt.changes:
                if not 0 <= c.start <= c.end <= n:
                    raise ValueError(f"change {c.start} {c.end} is out of range for {n} tokens")
            by_annotator.setdefault(alt.annotator, []).append(alt)
        for annotator, alts in by_annotator.items():
            edits = annotators.setdefault(annotator, [])
            edits.extend(_edits_of(ls.source, alts, locus.type, annotator, meta))
    present = sorted(annotators)
    free = (i for i in itertools.count() if i not in annotators)
    for _ in range(max(ls.numann - len(present), 0)):
        annotators[next(free)] = []
    ordered = {a: tuple(annotators[a]) for a in sorted(annotators)}
    meta = {"ixml.numann": str(ls.numann)}
    return Sentence(ls.source, ordered, id=ls.id, meta=meta)


def _edits_of(
    source: Tokens, alts: list[Alternative], type: str, annotator: int,
    meta: tuple[tuple[str, str], ...],
) -> list[Edit]:
    def edit(start: int, end: int, corrections: tuple[Tokens, ...], extra: tuple = ()) -> Edit:
        return make_edit(start, end, corrections, type, True, "-NONE-", annotator, meta + extra)

    if len(alts) == 1:
        return [edit(c.start, c.end, (c.tokens,)) for c in alts[0].changes]
    first = alts[0].changes
    if all(len(a.changes) == len(first) for a in alts):
        differ = [i for i in range(len(first)) if any(a.changes[i] != first[i] for a in alts)]
        if not differ:  # identical alternatives
            return [edit(c.start, c.end, (c.tokens,)) for c in first]
        spans = {(a.changes[i].start, a.changes[i].end) for a in alts for i in differ}
        if len(differ) == 1 and len(spans) == 1:
            # one change differs, always at the same place: an edit with || corrections
            i = differ[0]
            corrections = tuple(dict.fromkeys(a.changes[i].tokens for a in alts))
            return [edit(c.start, c.end, corrections if k == i else (c.tokens,))
                    for k, c in enumerate(first)]
    # otherwise one edit over every change of the locus: each alternative applied to it
    changes = [c for a in alts for c in a.changes]
    start = min(c.start for c in changes)
    end = max(c.end for c in changes)
    corrections = tuple(dict.fromkeys(_apply(source, a.changes, start, end) for a in alts))
    return [edit(start, end, corrections, (("ixml.union", "1"),))]


def _apply(source: Sequence[str], changes: Sequence[Change], start: int, end: int) -> Tokens:
    out: list[str] = []
    pos = start
    for c in sorted(changes, key=lambda c: (c.start, c.end)):
        out.extend(source[pos:c.start])
        out.extend(c.tokens)
        pos = max(pos, c.end)
    out.extend(source[pos:end])
    return tuple(out)


def loci_of(sentence: Sentence, method: str = "components") -> LocusSentence:
    """The loci of a model sentence: the recorded ones when it was read from I-measure XML
    (its edits carry ``ixml.error``), otherwise :func:`group` with ``method``.

    Recorded loci come back with the same alternatives and changes, except that each
    alternative's changes are in offset order and alternatives in annotator order (the
    ``ixml`` reader restores the file's order), and that alternatives of one annotator that
    :func:`to_sentence` had to merge into one edit over their span come back as one change
    per alternative over that span.
    """
    edits = [e for es in sentence.annotators.values() for e in es]
    if not edits or any(e.get_meta(LOCUS_KEY) is None for e in edits):
        if edits and any(e.get_meta(LOCUS_KEY) is not None for e in edits):
            raise ValueError("some edits of the sentence carry I-measure loci and some do not")
        if edits:
            return group(sentence, method)
    numann = int(sentence.meta.get("ixml.numann", len(sentence.annotators)))
    order: dict[str, list[Edit]] = {}
    for annotator, es in sentence.annotators.items():
        for e in _with_annotator(es, annotator):
            order.setdefault(e.get_meta(LOCUS_KEY) or "", []).append(e)
    loci = []
    for lid, cluster in order.items():
        alts = _alternatives(cluster)
        required = cluster[0].get_meta("ixml.req", "yes") == "yes"
        loci.append(Locus(tuple(alts), required, cluster[0].type, lid))
    if all(locus.id and locus.id.isdigit() for locus in loci):
        loci.sort(key=lambda locus: int(locus.id or 0))
    return LocusSentence(tuple(sentence.source), tuple(loci), numann, sentence.id)
