"""The length pseudo-metric of gec-metrics' meta-evaluation tests (``--metric length``).

gec-metrics checks its SEEDA and GJG15 meta-evaluation with a metric that knows nothing of
correction: a sentence scores the number of characters of its output line (trailing white
space removed), a system the **sum** over its sentences.  It is a baseline (a metric that
correlates no better than output length says little) and the reference every number of
``../shared/reference/meta-eval`` was checked with.

>>> from gecformats.metrics.base import Hypothesis
>>> metric = LengthMetric()
>>> stats = [metric.sentence(None, Hypothesis(("a",), "a cat  ")),
...          metric.sentence(None, Hypothesis((), ""))]
>>> metric.corpus(stats).values, metric.corpus(stats, [2, 0]).values
((5.0,), (10.0,))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gecformats import __version__
from gecformats.metrics.base import Hypothesis, Metric, Totals
from gecformats.model import Sentence


class LengthMetric(Metric):
    """Output length in characters: ``len(line.rstrip())`` per sentence, summed."""

    name = "length"
    label = "Length"
    columns = ("length",)
    main = "length"

    def prepare(self, gold: Sentence) -> None:
        """Nothing: the gold is not looked at."""
        return None

    def sentence(self, prepared: Any, hypothesis: Hypothesis) -> int:
        """The hypothesis line's length in characters, trailing white space removed."""
        return len(hypothesis.line.rstrip())

    def corpus(self, stats: Sequence[int], weights: Sequence[int] | None = None, *,
               choices: bool = False) -> Totals:
        """The weighted sum of the sentence lengths."""
        if weights is None:
            total = sum(stats)
        else:
            total = sum(s * w for s, w in zip(stats, weights))
        return Totals((float(total),), {"characters": total},
                      tuple(0 for _ in stats) if choices and weights is None else ())

    def signature(self) -> str:
        """``metric:length|unit:characters|gecformats:VERSION``."""
        return f"metric:length|unit:characters|gecformats:{__version__}"

    def resampler(self, stats: Sequence[int]) -> Any:
        """Every resample's sum at once (a matrix product: exact integer sums)."""
        return _Sums(stats)


class _Sums:
    def __init__(self, stats: Sequence[int]) -> None:
        import numpy as np

        self.values = np.asarray(list(stats), dtype=np.int64)

    def scores(self, weights: Any) -> list[tuple[float, ...]]:
        import numpy as np

        sums = np.asarray(weights, dtype=np.int64) @ self.values
        return [(float(s),) for s in sums]
