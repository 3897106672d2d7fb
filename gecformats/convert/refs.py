"""Every reference a locus annotation allows, lazily, and how many there are.

The loci of a sentence (:mod:`gecformats.convert.loci`) are independent and the alternatives of a
locus exclude each other, so the valid references of a sentence are the combinations of
one alternative per locus (Felice & Briscoe 2015).  :func:`references` generates them one
at a time, de-duplicated by their text, without ever building the cartesian product;
:func:`count` says how many there are (exactly, or as a bound when enumerating them would
take too long) without materialising them.

Semantics (those of the I-measure reference generator, ``formats.md`` §8.4):

* mixing (default): the cartesian product over loci of their alternatives, plus "no
  change" for a locus that is not required; changes of one alternative with the same span
  are merged (their tokens joined in order); identical alternatives of different
  annotators count once; a combination in which two changes have the same span is not a
  reference; changes are applied right to left, an edit that would empty the sentence is
  skipped and an empty result is the source;
* no mixing: one reference per annotator with alternatives (its first alternative in each
  locus), plus the source when fewer annotators appear than ``numann``.

Order is deterministic: loci in sentence order, the alternatives of a locus in file order
with "no change" last, the last locus varying fastest.

>>> from gecformats.convert.loci import Alternative, Change, Locus, LocusSentence
>>> s = LocusSentence(("He", "go", "home"), (
...     Locus((Alternative(0, (Change(1, 2, ("goes",)),)),
...            Alternative(1, (Change(1, 2, ("went",)),))), required=True),
...     Locus((Alternative(1, (Change(3, 3, (".",)),)),), required=False)), numann=2)
>>> list(references(s))
['He goes home .', 'He goes home', 'He went home .', 'He went home']
>>> list(references(s, mix=False))
['He goes home', 'He went home .']
>>> count(s)
Count(count=4, exact=True, bound=4)
"""

from __future__ import annotations

import itertools
from hashlib import blake2b
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import IO

from gecformats.errors import GecFormatError
from gecformats.convert.loci import Change, Locus, LocusSentence
from gecformats.io import json_text, source_name
from gecformats.model import Sentence

DEFAULT_MAX = 1_000_000
"""Up to how many combinations :func:`count` enumerates to give an exact count."""

DEFAULT_REFERENCES = 10_000
"""How many distinct references :func:`write_references` writes per sentence by default
(as ``gleu --max-references``): one CoNLL-2014 sentence has 2^34."""

Edit3 = tuple[int, int, tuple[str, ...]]
"""A change as ``(start, end, tokens)``."""


@dataclass(frozen=True, slots=True)
class Count:
    """How many distinct references a sentence has.

    ``count`` is exact when ``exact`` is true; otherwise it equals ``bound``, the product
    over loci of their distinct options, an upper bound of the distinct references.
    """

    count: int
    exact: bool
    bound: int


def options(locus: Locus) -> list[tuple[Edit3, ...]]:
    """The distinct options of a locus: each alternative as sorted changes (same-span
    changes merged), in file order, then ``()`` ("no change") unless it is required."""
    out: dict[tuple[Edit3, ...], None] = {}
    for alt in locus.alternatives:
        out.setdefault(_merged(alt.changes), None)
    if not locus.required:
        out.setdefault((), None)
    return list(out)


def _merged(changes: Sequence[Change]) -> tuple[Edit3, ...]:
    merged: dict[tuple[int, int], list[str]] = {}
    for c in changes:
        merged.setdefault((c.start, c.end), []).extend(c.tokens)
    return tuple(sorted((s, e, tuple(t)) for (s, e), t in merged.items()))


def bound(sentence: LocusSentence) -> int:
    """The product over loci of their distinct options (1 for a sentence without loci)."""
    total = 1
    for locus in sentence.loci:
        total *= max(len(options(locus)), 1)
    return total


def raw_bound(sentence: LocusSentence) -> int:
    """The product over loci of (alternatives + 1 if not required), before collapsing
    identical alternatives."""
    total = 1
    for locus in sentence.loci:
        total *= max(len(locus.alternatives) + (not locus.required), 1)
    return total


def apply(source: Sequence[str], edits: Sequence[Edit3]) -> tuple[str, ...] | None:
    """Apply a combination of changes the way the I-measure generator does.

    Returns:
        The reference tokens, or ``None`` when two changes have the same span (not a
        reference).
    """
    spans = [(s, e) for s, e, _ in edits]
    if len(set(spans)) != len(spans):
        return None
    tokens = list(source)
    for s, e, new in sorted(edits, key=lambda x: (x[0], x[1]), reverse=True):
        result = tokens[:s] + list(new) + tokens[e:]
        if result:  # an edit that would empty the sentence is skipped
            tokens = result
    return tuple(tokens) if tokens else tuple(source)


def references(
    sentence: LocusSentence, *, mix: bool = True, max: int | None = None
) -> Iterator[str]:
    """The distinct references of a sentence (tokens joined by spaces), one at a time.

    Args:
        sentence: the sentence and its loci.
        mix: combine the alternatives of all loci (default), or one reference per
            annotator.
        max: stop after this many distinct references.
    """
    if max is not None and max <= 0:
        return
    seen: set[bytes] = set()
    candidates = _mixed(sentence) if mix else _per_annotator(sentence)
    for text in candidates:
        key = _key(text)
        if key not in seen:
            seen.add(key)
            yield text
            if max is not None and len(seen) >= max:
                return


def _key(text: str) -> bytes:
    """What de-duplication remembers of a reference: a 128-bit digest, so that memory does
    not grow with the length of the sentence (a collision is beyond practical chance)."""
    return blake2b(text.encode("utf-8"), digest_size=16).digest()


def count(sentence: LocusSentence, *, mix: bool = True, max: int = DEFAULT_MAX) -> Count:
    """How many distinct references :func:`references` yields.

    Exact when the number of combinations (:func:`bound`) is at most ``max``: they are
    enumerated (quickly: the text of each locus option is built once).  Otherwise the bound
    is returned, marked inexact, at once.
    """
    if not mix:
        n = sum(1 for _ in references(sentence, mix=False))
        return Count(n, True, n)
    b = bound(sentence)
    if b > max:
        return Count(b, False, b)
    n = len({_key(text) for text in _mixed(sentence)})
    return Count(n, True, b)


def _per_annotator(sentence: LocusSentence) -> Iterator[str]:
    by_annotator: dict[int, list[Edit3]] = {}
    for locus in sentence.loci:
        firsts: dict[int, tuple[Edit3, ...]] = {}
        for alt in locus.alternatives:
            firsts.setdefault(alt.annotator, _merged(alt.changes))
        for annotator, changes in firsts.items():
            by_annotator.setdefault(annotator, []).extend(changes)
    for annotator in sorted(by_annotator):
        tokens = apply(sentence.source, by_annotator[annotator])
        if tokens is not None:
            yield " ".join(tokens)
    if len(by_annotator) < sentence.numann or sentence.numann <= 0:
        yield " ".join(sentence.source)


def _mixed(sentence: LocusSentence) -> Iterator[str]:
    """Every combination's text, in order, duplicates included."""
    source = sentence.source
    per_locus = [opts for opts in (options(locus) for locus in sentence.loci) if opts]
    if not per_locus:
        yield " ".join(source)
        return
    pieces = _segments(source, per_locus)
    if pieces is None:
        for combination in itertools.product(*per_locus):
            tokens = apply(source, [c for option in combination for c in option])
            if tokens is not None:
                yield " ".join(tokens)
        return
    join = " ".join
    for combination in itertools.product(*pieces):
        yield join(filter(None, combination))


def _segments(source: Sequence[str], per_locus: list[list[tuple[Edit3, ...]]]) -> list[list[str]] | None:
    """Texts to concatenate instead of applying edits: ``[gap, locus, gap, ..., gap]``.

    Valid when the loci cover disjoint stretches in order, no two loci have a change of
    the same span, and some source token is outside every locus (so no combination can
    empty the sentence, which would bring in the "skip that edit" rule); otherwise
    ``None``, and combinations are applied one by one.  Options of one locus that render
    the same text stay separate, as the combinations they stand for.
    """
    regions = []
    for opts in per_locus:
        changes = [c for option in opts for c in option]
        if not changes:
            return None
        regions.append((min(c[0] for c in changes), max(c[1] for c in changes), opts))
    if any((r1[0], r1[1]) > (r2[0], r2[1]) or r1[1] > r2[0] for r1, r2 in zip(regions, regions[1:])):
        return None
    for _, _, opts in regions:
        for option in opts:
            # changes that cross inside one option shift each other when applied to the
            # whole sentence: only the slow path does that as the generator did
            if any(a[1] > b[0] for a, b in zip(option, option[1:])):
                return None
    spans_seen: set[tuple[int, int]] = set()
    for _, _, opts in regions:
        spans = {(c[0], c[1]) for option in opts for c in option}
        if spans & spans_seen:
            return None
        spans_seen |= spans
    covered = sum(end - start for start, end, _ in regions)
    if covered >= len(source):
        return None
    pieces: list[list[str]] = []
    pos = 0
    for start, end, opts in regions:
        pieces.append([" ".join(source[pos:start])])
        pieces.append([" ".join(_render(source, start, end, option)) for option in opts])
        pos = end
    pieces.append([" ".join(source[pos:])])
    return pieces


def _render(source: Sequence[str], start: int, end: int, option: tuple[Edit3, ...]) -> list[str]:
    """Tokens ``[start, end)`` with one option's changes applied (no "skip" rule: the
    caller made sure the sentence can never become empty)."""
    tokens = list(source[start:end])
    for s, e, new in sorted(option, key=lambda x: (x[0], x[1]), reverse=True):
        tokens[s - start:e - start] = new
    return tokens


def read(
    source: str | os.PathLike[str], format: str | None = None, grouping: str = "components"
) -> Iterator[LocusSentence]:
    """The sentences of an annotation file as loci, streaming, each with an id.

    I-measure XML gives its own loci and sentence ids; other formats (M2) are grouped into
    loci with ``grouping`` (``components`` or ``imeasure``) and numbered from 1.

    Raises:
        GecFormatError: malformed input or unknown format.
    """
    from gecformats import formats

    module = formats.get(format or formats.infer(source))
    read_loci = getattr(module, "read_loci", None)
    if read_loci is not None:
        for number, ls in enumerate(read_loci(source), 1):
            yield ls if ls.id is not None else replace(ls, id=str(number))
        return
    if module.UNIT != "token":
        raise GecFormatError(f"references need tokens: convert {module.NAME} data to M2 first")
    for number, sentence in enumerate(module.read(source), 1):
        try:
            ls = sentence_loci(sentence, grouping)
        except GecFormatError as exc:
            raise GecFormatError(f"sentence {number}: {exc.message}", source_name(source),
                                 kind=exc.kind) from None
        yield replace(ls, id=str(number))


def sentence_loci(sentence: Sentence, grouping: str = "components") -> LocusSentence:
    """The loci of one token-level sentence, grouped by ``grouping``
    (:func:`gecformats.convert.loci.loci_of`), what :func:`read` yields per sentence.

    Raises:
        GecFormatError: an edit out of the sentence (no reference can apply it), more
            ``||`` alternatives in one locus than :data:`gecformats.convert.loci.MAX_PRODUCT`.
    """
    from gecformats.convert.loci import loci_of

    size = len(sentence.source)
    for annotator, edits in sentence.annotators.items():
        for e in edits:
            if not 0 <= e.start <= e.end <= size:
                raise GecFormatError(
                    f"annotator {annotator}, edit {e.start} {e.end} does not fit the "
                    f"sentence's {size} tokens (no reference can apply it)",
                    kind="offset-out-of-range")
    try:
        return loci_of(sentence, grouping)
    except ValueError as exc:  # more || alternatives in one locus than loci.MAX_PRODUCT
        raise GecFormatError(str(exc)) from None


FORMATS = ("lines", "tsv", "jsonl")
"""Output formats of :func:`write_references`."""


def write_references(
    sentences: Iterable[LocusSentence],
    out: IO[str],
    *,
    mix: bool = True,
    max: int | None = None,
    format: str = "lines",
    counts: bool = False,
    capped: list[tuple[str | None, Count]] | None = None,
) -> None:
    """Write every sentence's references (or counts) to ``out``.

    Formats: ``lines`` (references one per line, an empty line after each sentence),
    ``tsv`` (``sentence<TAB>reference``), ``jsonl`` (``{"sentence", "reference"}`` per
    line).  With ``counts``: ``tsv`` has the header ``sentence<TAB>count<TAB>kind`` (kind
    ``exact`` or ``bound``), ``lines`` the same without header, ``jsonl``
    ``{"sentence", "count", "kind", "bound"}``; ``max`` (default :data:`DEFAULT_MAX`) is
    then the most combinations enumerated for an exact count.  Otherwise ``max`` is the
    most distinct references written per sentence (default :data:`DEFAULT_REFERENCES`;
    ``0`` for all): the sentences that have more are appended to ``capped`` as ``(id,
    Count)``, their number of references (:func:`count`: exact, or the bound when there
    are more than :data:`DEFAULT_MAX` combinations, so the time stays bounded).
    """
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r} (known: {', '.join(FORMATS)})")
    write = out.write
    if counts:
        if format == "tsv":
            write("sentence\tcount\tkind\n")
        for ls in sentences:
            c = count(ls, mix=mix, max=max if max is not None else DEFAULT_MAX)
            kind = "exact" if c.exact else "bound"
            if format == "jsonl":
                write(json_text({"sentence": ls.id, "count": c.count, "kind": kind,
                                  "bound": c.bound}, ensure_ascii=False) + "\n")
            else:
                write(f"{ls.id}\t{c.count}\t{kind}\n")
        return
    limit = DEFAULT_REFERENCES if max is None else max or None
    for ls in sentences:
        n = 0
        for text in references(ls, mix=mix, max=None if limit is None else limit + 1):
            n += 1
            if limit is not None and n > limit:  # one more exists: this sentence is cut
                if capped is not None:
                    capped.append((ls.id, count(ls, mix=mix)))
                break
            if format == "lines":
                write(text + "\n")
            elif format == "tsv":
                write(f"{ls.id}\t{text}\n")
            else:
                write(json_text({"sentence": ls.id, "reference": text}, ensure_ascii=False) + "\n")
        if format == "lines":
            write("\n")


def capped_note(capped: Sequence[tuple[str | None, Count]], limit: int) -> str:
    """One line on the sentences whose references were cut at ``limit`` (``capped`` from
    :func:`write_references`): how many, the largest, and the option that writes all."""
    biggest_id, biggest = max(capped, key=lambda item: item[1].count)
    size = f"{biggest.count:,}" if biggest.exact else f"up to {biggest.count:,}"
    examples = ", ".join(str(i) for i, _ in capped[:5]) + (", …" if len(capped) > 5 else "")
    return (f"{len(capped)} sentence{'s' if len(capped) != 1 else ''} ({examples}) had more "
            f"than {limit:,} distinct references; wrote the first {limit:,} of each (sentence "
            f"{biggest_id} has {size}); --max-references N for another cap, 0 for all")
