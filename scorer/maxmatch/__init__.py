"""maxmatch: the MaxMatch (M2) scorer of Dahlmeier & Ng (2012), standard library only.

Reproduces the NUS m2scorer (master ``cb874a7``, Python 2.7) bit for bit: same per-sentence
annotator choice and counts, same precision, recall and F.  Public API:

* :func:`score_sentence` — one sentence, every annotator;
* :func:`score_corpus` / :class:`CorpusScorer` — greedy annotator choice and P/R/F, streamed;
* :func:`split_hypothesis` — the reference's tokenisation of a hypothesis line;
* :func:`backend` — ``"c"`` when the compiled core (``maxmatch._core``, built by ``pip
  install`` where a C compiler works) scores sentences, ``"python"`` for the pure-Python
  path (the reference, and the fallback; ``MAXMATCH_PURE_PYTHON=1`` forces it).  Both give
  the same results bit for bit.
"""

from __future__ import annotations

from ._text import PY27_WHITESPACE, equals_ignore_whitespace_casing, py27_lower, split_hypothesis
from .corpus import (AnnotatorResult, _set_backend, backend, CorpusResult, CorpusScorer, GoldEdit,
                     NormalisedGold, SentenceChoice,
                     SentenceResult, choose_annotator, choose_counts, f_counts, format_scores, iter_choices, normalise_gold,
                     precision_recall_f, score_corpus, score_sentence)
from .lattice import DEFAULT_MAX_EDGES, MAX_CELLS, Lattice, LatticeError, LatticeTooLarge, build_lattice
from .match import edit_matches, match_edits, shrink_edit

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_MAX_EDGES", "MAX_CELLS", "LatticeTooLarge", "PY27_WHITESPACE", "AnnotatorResult", "CorpusResult", "CorpusScorer", "GoldEdit", "Lattice", "LatticeError",
    "NormalisedGold", "SentenceChoice", "SentenceResult", "backend", "build_lattice", "choose_annotator", "choose_counts",
    "edit_matches", "equals_ignore_whitespace_casing", "f_counts", "format_scores", "iter_choices", "match_edits",
    "normalise_gold", "precision_recall_f", "py27_lower", "score_corpus", "score_sentence",
    "shrink_edit", "split_hypothesis", "__version__",
]
