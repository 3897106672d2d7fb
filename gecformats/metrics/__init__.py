"""Metrics over the edit model, each module with its text/JSON/TSV rendering beside it.

* :mod:`~gecformats.metrics.score`: MaxMatch (M2), through the bundled ``maxmatch`` scorer;
* :mod:`~gecformats.metrics.gleu`: GLEU (2015, 2016, GLEU+);
* :mod:`~gecformats.metrics.correlate`: meta-evaluation against human judgements;
* :mod:`~gecformats.metrics.stats`: counts of sentences, tokens, edits and types.

The registry of ``--metric`` names is here (:data:`METRICS`), with nothing else, so that the
command line names the metrics without importing them (:mod:`~gecformats.metrics.request`
builds and runs them).
"""

from __future__ import annotations

METRICS: dict[str, str] = {
    "m2": "gecformats.metrics.m2:M2Metric",
    "errant": "gecformats.metrics.errant:ErrantMetric",
    "gleu": "gecformats.metrics.gleu:GleuMetric",
    "imeasure": "gecformats.metrics.imeasure:IMeasureMetric",
    "green": "gecformats.metrics.green:GreenMetric",
    "sentm2": "gecformats.metrics.sentmean:SentM2Metric",
    "senterrant": "gecformats.metrics.sentmean:SentErrantMetric",
    "gotoscorer": "gecformats.metrics.gotoscorer:GoToScorerMetric",
    "cleme": "gecformats.metrics.cleme:ClemeMetric",
    "cleme2": "gecformats.metrics.cleme:Cleme2Metric",
}
"""``--metric`` name → its :class:`Metric` class (imported when used); the command line's
choices (``score``, ``report``, ``meta-eval``) are these names."""

ABSENT = ("auto", "source", "first")
"""GLEU's ``--absent`` policies, here so that the command line declares the option without
importing GLEU: what stands in for an annotator missing from a sentence of a gold file.  Its
source sentence, or the first present annotator's correction (the CoNLL-2014 combined file
leaves out annotator 1 where its edits equal annotator 0's, ``formats.md`` §2.2); ``auto``
decides per file: ``first`` when the file writes ``noop`` lines for an annotator who changed
nothing beside another annotator's edits (then a missing annotator did not mean "no
change": the combined file), else ``source``."""
