"""gecformats: read, write, convert, check and score GEC evaluation data.

The Python front door (each function the command line's library path):

>>> import gecformats
>>> results = gecformats.score("fixtures/score/sample.hyp", "fixtures/score/sample.m2")
>>> print(results.signatures[0].split("|")[0], round(results.to_dict()["f"], 4))
metric:m2 0.8621

* :func:`score` → :class:`Results` (text, JSON, LaTeX, TSV, CSV, dict, pandas);
* :func:`read`, :func:`write`, :func:`convert`, :func:`validate`: the formats;
* :func:`sentence_scores`, :func:`sentence_scorer` → :class:`SentenceScore` s: per-sentence
  scores for training loops and reranking;
* errors: :class:`GecFormatError` (file and line), :class:`UsageError`; warnings:
  :class:`GecFormatWarning`.

``gecformats.convert`` and ``gecformats.validate`` are these functions, not the modules of
the same names: import from the modules themselves (``from gecformats.convert.pipeline
import convert``, ``from gecformats.validate import Problem``).
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from gecformats.api import (Results, convert, read, score, sentence_scorer,
                                sentence_scores, validate, write)
    from gecformats.errors import GecFormatError, GecFormatWarning, UsageError
    from gecformats.metrics.sentences import SentenceScore, SentenceScorer

__all__ = ["GecFormatError", "GecFormatWarning", "Results", "SentenceScore", "SentenceScorer",
           "UsageError", "__version__", "convert", "read", "score", "sentence_scorer",
           "sentence_scores", "validate", "write"]

_HOMES = {**dict.fromkeys(("Results", "convert", "read", "score", "sentence_scorer",
                           "sentence_scores", "validate", "write"), "gecformats.api"),
          **dict.fromkeys(("GecFormatError", "GecFormatWarning", "UsageError"),
                          "gecformats.errors"),
          **dict.fromkeys(("SentenceScore", "SentenceScorer"), "gecformats.metrics.sentences")}
"""Where each front-door name lives.  They load on first use (PEP 562), so that a command
such as ``gecformats m2scorer`` or ``maxmatch`` starts without the model and the metrics."""


def __getattr__(name: str) -> Any:
    """A front-door name, imported from its module on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'gecformats' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


_FUNCTIONS = ("convert", "validate")
"""Front-door functions named as a subpackage or module of this package."""


class _Package(types.ModuleType):
    """The package, whose ``convert`` and ``validate`` stay the functions: importing the
    subpackage ``gecformats.convert`` or the module ``gecformats.validate`` would otherwise
    bind their names here to the modules (the import system sets a submodule as an
    attribute of its package), and ``gecformats.convert(...)`` would stop working after
    any conversion."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _FUNCTIONS and isinstance(value, types.ModuleType):
            return  # the module stays in sys.modules, where imports find it
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
