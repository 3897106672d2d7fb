"""What a conversion wrote and what it could not carry over.

Writers fill a :class:`Report`: how many sentences they wrote and, for every kind of
information the target format cannot hold, how often it was dropped and the first few
examples.  The CLI prints it, so that nothing is ever lost silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MAX_EXAMPLES = 3
"""How many examples of each loss a report keeps."""


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
        losses: what was dropped, by description (e.g. ``"alternative alignments"``).
        conversion: set by :func:`gecformats.convert.convert` when the conversion changed
            the offset unit: the :class:`~gecformats.convert.retokenize.ConversionReport`.
    """

    sentences: int = 0
    losses: dict[str, Loss] = field(default_factory=dict)
    conversion: Any = None

    def drop(self, what: str, example: str, count: int = 1) -> None:
        """Record that ``count`` items of kind ``what`` were dropped; keep ``example``."""
        loss = self.losses.setdefault(what, Loss())
        loss.count += count
        if len(loss.examples) < MAX_EXAMPLES:
            loss.examples.append(example)

    @property
    def lossless(self) -> bool:
        """True when nothing was dropped."""
        return not self.losses

    def lines(self) -> list[str]:
        """The report as lines for people (one per kind of loss, with examples)."""
        out = []
        for what, loss in self.losses.items():
            out.append(f"dropped {loss.count} {what} (first: {'; '.join(loss.examples)})")
        return out
