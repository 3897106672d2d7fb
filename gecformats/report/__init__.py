"""What a conversion wrote and what it could not carry over.

One record type for every conversion: a :class:`Tally` counts named events (an edit
widened, a reference absent, an alignment dropped) and keeps the first few examples of
each.  Writers fill a :class:`Report` (how many sentences they wrote and a tally of what the
target format cannot hold); the character → token conversion
(:class:`~gecformats.convert.retokenize.ConversionReport`) and edit extraction
(:class:`~gecformats.convert.extract.ExtractionReport`) keep their cases in tallies too.
The CLI prints them, so that nothing is ever lost silently.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

MAX_EXAMPLES = 3
"""How many examples of each loss a report keeps."""


@dataclass(slots=True)
class Tally:
    """Counts of named events, each with its first few examples (counts are complete).

    >>> t = Tally(limit=2)
    >>> for n in range(3):
    ...     t.note("absent", f"sentence {n}")
    >>> t.counts["absent"], t.examples["absent"]
    (3, ['sentence 0', 'sentence 1'])
    """

    counts: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[Any]] = field(default_factory=dict)
    limit: int = MAX_EXAMPLES
    """How many examples of each event are kept."""

    def note(self, what: str, example: Any, count: int = 1) -> None:
        """Count ``count`` events ``what``; keep ``example`` among the first :attr:`limit`."""
        self.counts[what] += count
        kept = self.examples.setdefault(what, [])
        if len(kept) < self.limit:
            kept.append(example)

    def merge(self, other: Tally) -> None:
        """Add the counts and examples of ``other`` (e.g. a worker's) to this tally."""
        for what, count in other.counts.items():
            self.counts[what] += count
        for what, examples in other.examples.items():
            kept = self.examples.setdefault(what, [])
            kept.extend(examples[:max(0, self.limit - len(kept))])

    def __bool__(self) -> bool:
        return any(self.counts.values())


@dataclass(slots=True)
class Loss:
    """One kind of dropped information: how often, and the first examples."""

    count: int = 0
    examples: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Report:
    """The outcome of writing one output.

    Attributes:
        sentences: how many sentences were written.
        dropped: what was dropped, by description (e.g. ``"alternative alignments"``);
            :attr:`losses` gives it as :class:`Loss` records.
        notes: what was done that loses nothing but is worth saying (e.g. the source
            written for an annotator absent from a sentence).
        conversion: set by :func:`gecformats.convert.convert` when the conversion changed
            the offset unit: the :class:`~gecformats.convert.retokenize.ConversionReport`.
        counts: set by :func:`gecformats.convert.convert`: what was read and what was
            written (:class:`~gecformats.convert.counts.ConversionCounts`).
    """

    sentences: int = 0
    dropped: Tally = field(default_factory=Tally)
    notes: Tally = field(default_factory=Tally)
    conversion: Any = None
    counts: Any = None

    def note(self, what: str, example: str, count: int = 1) -> None:
        """Record ``count`` events ``what`` that lose nothing but are worth saying (an absent
        annotator written as its source); keep ``example``."""
        self.notes.note(what, example, count)

    def merge(self, other: Report) -> None:
        """Add what ``other`` (the report of a later part of the same output) wrote,
        dropped and noted; merging the parts in order gives the report of one pass."""
        self.sentences += other.sentences
        self.dropped.merge(other.dropped)
        self.notes.merge(other.notes)
        if other.counts is not None:
            if self.counts is None:
                self.counts = type(other.counts)()
            self.counts.merge(other.counts)

    def drop(self, what: str, example: str, count: int = 1) -> None:
        """Record that ``count`` items of kind ``what`` were dropped; keep ``example``."""
        self.dropped.note(what, example, count)

    @property
    def losses(self) -> dict[str, Loss]:
        """What was dropped, by description, in the order first dropped."""
        return {what: Loss(count, list(self.dropped.examples.get(what, [])))
                for what, count in self.dropped.counts.items()}

    @property
    def lossless(self) -> bool:
        """True when nothing was dropped."""
        return not self.dropped

    def lines(self) -> list[str]:
        """The report as lines for people (one per kind of loss, with examples)."""
        out = []
        for what, loss in self.losses.items():
            out.append(f"dropped {loss.count} {what} (first: {'; '.join(loss.examples)})")
        for what, count in self.notes.counts.items():
            out.append(f"{count} {what} (first: {'; '.join(self.notes.examples[what])})")
        return out


def report_json(report: Report) -> dict[str, Any]:
    """A conversion's report as JSON-ready data: the conversion's own report when there is
    one (:meth:`to_dict` of a character → token or extraction report), then ``read``,
    ``written`` and ``difference`` (read minus written: positive is lost) of its counts,
    and what the writer dropped and noted (``writer_dropped``, ``writer_notes``: counts by
    description)."""
    out: dict[str, Any] = dict(report.conversion.to_dict()) if report.conversion is not None \
        else {}
    if report.counts is not None:
        out.update(report.counts.to_dict())
    out["writer_dropped"] = dict(report.dropped.counts)
    out["writer_notes"] = dict(report.notes.counts)
    return out
