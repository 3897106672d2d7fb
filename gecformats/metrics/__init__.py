"""Metrics over the edit model, each module with its text/JSON/TSV rendering beside it.

* :mod:`~gecformats.metrics.score`: MaxMatch (M2), through the bundled ``maxmatch`` scorer;
* :mod:`~gecformats.metrics.gleu`: GLEU (2015, 2016, GLEU+);
* :mod:`~gecformats.metrics.correlate`: meta-evaluation against human judgements;
* :mod:`~gecformats.metrics.stats`: counts of sentences, tokens, edits and types.
"""

from __future__ import annotations
