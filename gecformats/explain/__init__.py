"""Why a score differs from a paper's or another tool's: ``gecformats explain``.

A GEC score depends on a handful of settings: which gold (combined, one annotator, with
alternatives), ``max_unchanged_words``, β, case and whitespace, how the hypothesis was
tokenized, which edit extractor, which GLEU version, how absent annotators are treated,
whole essays or sentences.  gecformats reproduces each exactly, so it can try them all
against a claimed value: :func:`~gecformats.explain.search.explain` scores every setting
(each factor alone, then pairs), sharing the per-sentence statistics where a setting does
not change them; :mod:`~gecformats.explain.settings` names the settings, in words and as
the ``gecformats score`` command that reproduces each; :mod:`~gecformats.explain.render`
prints the ranking and the sensitivity table.
"""

from __future__ import annotations

from gecformats.explain.search import DEFAULT_BUDGET, Explanation, Outcome, explain
from gecformats.explain.settings import Claim, Gold, Setting, command, describe, parse_claim

__all__ = ["DEFAULT_BUDGET", "Claim", "Explanation", "Gold", "Outcome", "Setting", "command",
           "describe", "explain", "parse_claim"]
