"""The edit model every format reads into and writes from.

A :class:`Sentence` is a tokenized source sentence plus, for every annotator, the list of
:class:`Edit` s that annotator made.  Offsets are token offsets into ``Sentence.source``,
0-based, end exclusive: ``start == end`` is an insertion before token ``start``.

The model keeps format details that a lossless round trip needs but that do not change what
an edit means (how an M2 file spelled a deletion, a HOO edit's index ...) in ``Edit.meta``,
which takes no part in equality or hashing.

>>> s = Sentence(("This", "are", "a", "test"),
...              {0: (Edit(1, 2, (("is",),), "SVA"),), 1: ()})
>>> s.corrected(0)
('This', 'is', 'a', 'test')
>>> s.corrected(1)
('This', 'are', 'a', 'test')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

Tokens = tuple[str, ...]
"""A token sequence."""

MAX_ANNOTATORS = 1000
"""Annotator ids are below this, and no sentence counts more annotators (I-measure
``numann``): real data has a handful (CoNLL-2014: 0–9).  Readers refuse larger numbers,
which would otherwise make writers allocate per-annotator columns for ids nobody used."""

MAX_DIGITS = 15
"""The most digits a number (offset, id, count) in any input may have; longer numbers are
refused before they are converted (Python refuses over 4,300 digits, and no real offset
needs more than a few)."""


@dataclass(frozen=True, slots=True)
class Edit:
    """One annotator's correction of one span of the source.

    Attributes:
        start, end: token offsets into the source, end exclusive (``start == end`` inserts
            before token ``start``).  Not checked here: a reader keeps what the file says,
            and :mod:`gecformats.validate` reports offsets that are out of range.
        corrections: one or more alternative corrections, each a tuple of tokens; the empty
            tuple is a deletion.  Alternatives are mutually acceptable for this one edit.
        type: the error type as the format wrote it (``ArtOrDet``, ``R:VERB:SVA``, ``S`` ...).
        required: ``False`` for an optional edit (M2 ``OPTIONAL``, a HOO empty correction).
        comment: the M2 comment field (``-NONE-`` in all published data).
        annotator: the annotator id (it equals the key under which the sentence stores it).
        meta: format details kept for lossless writing, as ``(key, value)`` pairs; ignored by
            ``==`` and ``hash``.
    """

    start: int
    end: int
    corrections: tuple[Tokens, ...] = ((),)
    type: str = ""
    required: bool = True
    comment: str = "-NONE-"
    annotator: int = 0
    meta: tuple[tuple[str, str], ...] = field(default=(), compare=False, repr=False)

    @property
    def correction(self) -> Tokens:
        """The first alternative correction."""
        return self.corrections[0] if self.corrections else ()

    @property
    def is_insertion(self) -> bool:
        """True when the edit inserts tokens without replacing any (``start == end``)."""
        return self.start == self.end

    def get_meta(self, key: str, default: str | None = None) -> str | None:
        """Return the format detail stored under ``key`` in :attr:`meta`, or ``default``."""
        for k, v in self.meta:
            if k == key:
                return v
        return default

    def original(self, source: Sequence[str]) -> Tokens:
        """The source tokens this edit replaces (empty for an insertion)."""
        return tuple(source[self.start:self.end])


def _edit_maker():  # type: ignore[no-untyped-def]
    new = object.__new__
    slot = Edit.__dict__
    set_start, set_end = slot["start"].__set__, slot["end"].__set__
    set_corr, set_type = slot["corrections"].__set__, slot["type"].__set__
    set_req, set_comment = slot["required"].__set__, slot["comment"].__set__
    set_ann, set_meta = slot["annotator"].__set__, slot["meta"].__set__

    def make_edit(
        start: int,
        end: int,
        corrections: tuple[Tokens, ...],
        type: str,
        required: bool,
        comment: str,
        annotator: int,
        meta: tuple[tuple[str, str], ...] = (),
    ) -> Edit:
        """``Edit(...)`` with every field given positionally, about twice as fast.

        For readers' inner loops: it fills the slots directly instead of going through the
        frozen dataclass's ``object.__setattr__`` calls.  The result is an ordinary
        :class:`Edit`.
        """
        edit = new(Edit)
        set_start(edit, start)
        set_end(edit, end)
        set_corr(edit, corrections)
        set_type(edit, type)
        set_req(edit, required)
        set_comment(edit, comment)
        set_ann(edit, annotator)
        set_meta(edit, meta)
        return edit

    return make_edit


make_edit = _edit_maker()


@dataclass(frozen=True, slots=True)
class Target:
    """One alignment of one reference in a ChERRANT M2 block (a ``T<r>-A<k>`` line).

    Attributes:
        text: the target sentence as written after the label (tokens joined by spaces, or a
            special string such as ``没有错误``, "no error").
        alignment: ``k`` of ``T<r>-A<k>``; ``None`` for a bare ``T<r>`` line.
        edits: the edits of this alignment (they all belong to annotator ``r``).
    """

    text: str
    alignment: int | None
    edits: tuple[Edit, ...] = ()


@dataclass(frozen=True, slots=True)
class Sentence:
    """A tokenized source sentence and every annotator's edits.

    Attributes:
        source: the source tokens.
        annotators: annotator id → that annotator's edits, in the order the format gave
            them.  An annotator who judged the sentence correct is present with no edits
            (an M2 ``noop`` line); an annotator absent from the mapping said nothing about
            this sentence.  Treat the mapping as read-only.
        id: an identifier from the format, if it has one.
        meta: other sentence-level information from the format (read-only).
        targets: ChERRANT only: annotator (reference) id → its alternative alignments, in
            file order.  ``annotators[r]`` holds the edits of the first alignment.
    """

    source: Tokens
    annotators: Mapping[int, tuple[Edit, ...]] = field(default_factory=dict)
    id: str | None = None
    meta: Mapping[str, str] = field(default_factory=dict)
    targets: Mapping[int, tuple[Target, ...]] = field(default_factory=dict)

    @property
    def edits(self) -> tuple[Edit, ...]:
        """Every edit of every annotator, annotator by annotator."""
        return tuple(e for edits in self.annotators.values() for e in edits)

    def corrected(self, annotator: int, alternative: int = 0) -> Tokens:
        """The source with all edits of ``annotator`` applied (see :func:`apply_edits`).

        Raises:
            KeyError: the annotator is not present in this sentence.
            ValueError: the annotator's edits overlap or fall outside the source.
        """
        return apply_edits(self.source, self.annotators[annotator], alternative)

    def replace(self, **changes: object) -> Sentence:
        """Return a copy with the given fields replaced (``dataclasses.replace``)."""
        return replace(self, **changes)  # type: ignore[arg-type]


def apply_edits(source: Sequence[str], edits: Iterable[Edit], alternative: int = 0) -> Tokens:
    """Apply one annotator's edits to the source tokens.

    Edits are applied in ``(start, end)`` order; edits with the same offsets (several
    insertions at one point) keep the order they are given in, because that order decides
    the text ("this is" versus "is this").  An edit with fewer alternatives than
    ``alternative + 1`` uses its first one.

    Args:
        source: the source tokens.
        edits: the edits of one annotator.
        alternative: which alternative correction to use (0 = first).

    Returns:
        The corrected tokens.

    Raises:
        ValueError: an edit is out of range (``start < 0``, ``end > len(source)`` or
            ``start > end``) or overlaps an earlier one.
    """
    out: list[str] = []
    pos = 0
    n = len(source)
    for e in sorted(edits, key=span_order):
        if e.start < 0 or e.end > n or e.start > e.end:
            raise ValueError(f"edit {e.start} {e.end} is out of range for {n} source tokens")
        if e.start < pos:
            raise ValueError(f"edit {e.start} {e.end} overlaps an earlier edit ending at {pos}")
        out.extend(source[pos:e.start])
        alts = e.corrections
        out.extend(alts[alternative] if alternative < len(alts) else (alts[0] if alts else ()))
        pos = e.end
    out.extend(source[pos:])
    return tuple(out)


def overlapping(a: Edit | Change, b: Edit | Change) -> bool:
    """Whether two edits of one annotator overlap in a way an M2 file cannot hold (the rule
    of ``gecformats validate``): spans that share a token, or an insertion strictly inside
    the other's span; two insertions at one point, or edits that only touch, do not.

    Args:
        a, b: two edits (or I-measure changes) of one annotator.

    Returns:
        True when they overlap.
    """
    if a.start == a.end and b.start == b.end:
        return False
    if a.start == a.end:
        return b.start < a.start < b.end
    if b.start == b.end:
        return a.start < b.start < a.end
    return a.start < b.end and b.start < a.end


def span_order(edit: Edit) -> tuple[int, int]:
    """The sort key ``(start, end)`` of edits in application order: with a stable sort,
    several insertions at one offset keep their given order, which decides the text."""
    return (edit.start, edit.end)


@dataclass(frozen=True, slots=True)
class Document:
    """A raw text with character-offset edits: the model of HOO 2011 and HOO 2012 data.

    A :class:`Sentence` counts in tokens; a document counts in **characters** (code points)
    of :attr:`text`, 0-based, end exclusive.  The two units are never mixed: converting one
    into the other is the job of :mod:`gecformats.convert.retokenize`, which reports every edit it
    cannot carry over exactly.

    The edits are ordinary :class:`Edit` objects whose offsets are character offsets and
    whose corrections are tuples of strings to be concatenated: a reader gives
    ``("the ",)`` for a replacement or insertion and ``()`` for a deletion.  An edit with no
    corrections at all (``corrections == ()``) is *detection only*: it marks a problem
    without saying how to fix it.  An optional edit (HOO's null correction) has
    ``required=False``.

    Attributes:
        text: the source text.
        edits: the edits, in file order.
        id: the document id (``"1005"``), if the format has one.
        breaks: character offsets where a paragraph starts that the text itself does not
            show (HOO 2012 joins its paragraphs with nothing in between); sentences never
            cross them.
        meta: other document-level information from the format (read-only).

    >>> d = Document("Thanks for you letter.", (Edit(11, 14, (("your",),), "RD"),))
    >>> d.corrected()
    'Thanks for your letter.'
    """

    text: str
    edits: tuple[Edit, ...] = ()
    id: str | None = None
    breaks: tuple[int, ...] = ()
    meta: Mapping[str, str] = field(default_factory=dict)

    def corrected(self, alternative: int = 0) -> str:
        """The text with every edit applied (detection-only edits leave the text alone).

        Raises:
            ValueError: edits overlap or fall outside the text.
        """
        edits = [e for e in self.edits if e.corrections]
        return "".join(apply_edits(self.text, edits, alternative))

    def replace(self, **changes: object) -> Document:
        """Return a copy with the given fields replaced (``dataclasses.replace``)."""
        return replace(self, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class Parallel:
    """A source sentence and its corrected versions as plain text: the model of the parallel
    formats (``parallel``, ``tsv``, ``nlpcc``, ``cherrant``).

    Nothing is tokenized here: :mod:`gecformats.convert.extract` turns a ``Parallel`` into a
    :class:`Sentence` (edit extraction) and back (applying an annotator's edits).

    Attributes:
        source: the source sentence.
        references: the corrected versions; position ``k`` is annotator (reference) ``k``.
            ``None`` means that annotator said nothing about this sentence (it is absent, as
            in M2); an empty tuple means nobody did (NLPCC ``N = 0`` keeps that in ``meta``).
        id: the identifier the format gives the sentence, if any (NLPCC: the essay-local
            sentence number; ChERRANT: the id column).
        meta: other format details (read-only), e.g. ``{"nlpcc.n": "0"}``.

    >>> p = Parallel("He go home .", ("He goes home .", None))
    >>> p.present()
    (0,)
    """

    source: str
    references: tuple[str | None, ...] = ()
    id: str | None = None
    meta: Mapping[str, str] = field(default_factory=dict)

    def present(self) -> tuple[int, ...]:
        """The annotators (reference positions) that are not ``None``."""
        return tuple(k for k, ref in enumerate(self.references) if ref is not None)

    def replace(self, **changes: object) -> Parallel:
        """Return a copy with the given fields replaced (``dataclasses.replace``)."""
        return replace(self, **changes)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------
# Error loci (the I-measure XML model, Felice & Briscoe 2015); built by gecformats.convert.loci


@dataclass(frozen=True, slots=True)
class Change:
    """One token-span replacement (an I-measure ``<c>``): tokens ``[start, end)`` become
    ``tokens`` (empty: deletion; ``start == end``: insertion)."""

    start: int
    end: int
    tokens: Tokens


@dataclass(frozen=True, slots=True)
class Alternative:
    """One annotator's correction of a locus (an ``<alt>``): its changes, in order."""

    annotator: int
    changes: tuple[Change, ...]


@dataclass(frozen=True, slots=True)
class Locus:
    """One error locus (an ``<error>``).

    Attributes:
        alternatives: the mutually exclusive corrections, in file order.
        required: False when leaving the locus unchanged is also acceptable (``req="no"``).
        type: the error type(s), ``/``-joined when the locus merges several.
        id: the locus id of the file, if any.
    """

    alternatives: tuple[Alternative, ...]
    required: bool
    type: str = ""
    id: str | None = None

    @property
    def span(self) -> tuple[int, int]:
        """The smallest ``(start, end)`` covering every change of the locus."""
        changes = [c for a in self.alternatives for c in a.changes]
        if not changes:
            return (0, 0)
        return (min(c.start for c in changes), max(c.end for c in changes))


@dataclass(frozen=True, slots=True)
class LocusSentence:
    """A tokenized sentence as loci (an I-measure ``<sentence>``).

    Attributes:
        source: the source tokens.
        loci: the loci, in order.
        numann: how many annotators saw the sentence.
        id: the sentence id, if any.
        text: the ``<text>`` content as read, white space kept (I-measure XML), else
            ``None``; not compared.
    """

    source: Tokens
    loci: tuple[Locus, ...]
    numann: int
    id: str | None = None
    text: str | None = field(default=None, compare=False, repr=False)
