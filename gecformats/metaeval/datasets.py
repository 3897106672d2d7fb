"""The meta-evaluation datasets, from the folders the user has (the tool never downloads).

Three datasets, each a :class:`Dataset`: the systems (in the order the original code
visits them), their output files, the gold they are scored against, the system sets
(configurations), the human system scores and the judgment files of the sentence level.

* **SEEDA** (Kobayashi et al. 2024; ``--data`` = a copy of ``tmu-nlp/SEEDA``): 15 systems
  in alphabetical order; outputs ``outputs/subset/*.txt`` (the 391 judged sentences, the
  default, as SEEDA and gec-metrics score) or ``outputs/all/*.txt`` (``full=True``, all 1,312
  CoNLL-2014 test sentences); human scores ``scores/human/{EW,TS}_{edit,sent}.txt`` (one
  value per line, systems alphabetical); judgments ``data/judgments_{edit,sent}.xml``
  (``src-id`` 1-based); configurations ``base`` / ``+INPUT`` / ``+fluency`` / ``all``
  (:data:`SEEDA_CONFIGS`).
* **GJG15** (Grundkiewicz et al. 2015; ``--data`` = the ``grammatical/evaluation`` data
  folder): the 12 CoNLL-2014 teams and INPUT in gec-metrics' ``MetaEvalGJG.MODELS`` order
  (the paper's Table 3(b) order); outputs from the CoNLL-2014 ``official_submissions``;
  human scores = the paper's Table 3(b) Expected Wins and 3(c) TrueSkill, read from
  ``table3_human_rankings.tsv`` (the values gec-metrics hard-codes; the second copy of
  nusnlp/gecmetrics, ``system_human_*.tsv``, differs in the third decimal and is not used);
  judgments ``judgments.xml`` (``src-id`` 0-based; 13 items are empty).
* **Napoles et al. (2015)** (``--data`` = a copy of ``cnap/gec-ranking``): the same 13
  entries; the human ranking is the paper's Table 2 "Human" column (:data:`NAPOLES_RANKS`,
  as ``gecformats correlate`` with ``fixtures/gleu/human-napoles2015.tsv``; ranks negated,
  so higher is better).

The gold of every dataset is the CoNLL-2014 combined M2 (``official-2014.combined.m2``; by
default ``DATA/../conll14/conll14st-test-data/noalt/``).  For the SEEDA subset the gold is
the combined M2's blocks at ``subset_ids.txt``, in that order (:func:`subset_gold`).  In the
combined file annotator 1's lines are left out where they equal annotator 0's (224
sentences); M2 and ERRANT read that as "annotator 1 = annotator 0", but a reference built
from annotator 1 alone would be the uncorrected source (gec-metrics' ``REF1`` is, on 88
sentences); GLEU is therefore run with ``absent="first"`` (:data:`METRIC_OPTIONS`), which fills
the absent annotator with annotator 0's corrections: the ``alledits`` references of
gec-ranking.
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from gecformats.errors import GecFormatError, UsageError
from gecformats.io import numbered_lines

DATASETS = ("seeda", "gjg15", "napoles2015")
"""The ``--dataset`` names."""

SEEDA_SYSTEMS = ("BART", "BERT-fuse", "GECToR-BERT", "GECToR-ens", "GPT-3.5", "INPUT",
                 "LM-Critic", "PIE", "REF-F", "REF-M", "Riken-Tohoku", "T5", "TemplateGEC",
                 "TransGEC", "UEDIN-MS")
"""SEEDA's 15 systems, alphabetical (the order of its human score files)."""

SEEDA_CONFIGS: dict[str, frozenset[str]] = {
    "base": frozenset({"GPT-3.5", "INPUT", "REF-F"}),
    "+INPUT": frozenset({"GPT-3.5", "REF-F"}),
    "+fluency": frozenset({"INPUT"}),
    "all": frozenset(),
}
"""SEEDA's system sets (``utils/corr_*.py --systems``; gec-metrics ``Config(system=…)``;
``+fluency`` is SEEDA's ``+REF-F_GPT-3.5``) → the systems they drop."""

SEEDA_HUMANS = ("EW_edit", "EW_sent", "TS_edit", "TS_sent")
"""SEEDA's human system scores (Expected Wins / TrueSkill; SEEDA-E / SEEDA-S)."""

GJG15_SYSTEMS = ("AMU", "RAC", "CAMB", "CUUI", "POST", "UFC", "PKU", "UMC", "IITB", "SJTU",
                 "INPUT", "NTHU", "IPN")
"""GJG15's 13 entries in gec-metrics' ``MetaEvalGJG.MODELS`` order (Table 3(b))."""

NAPOLES_RANKS = {"CAMB": 1, "AMU": 2, "RAC": 3, "CUUI": 4, "INPUT": 5, "POST": 6, "UFC": 7,
                 "SJTU": 8, "IITB": 9, "PKU": 10, "UMC": 11, "NTHU": 12, "IPN": 13}
"""Napoles, Sakaguchi, Post & Tetreault (ACL 2015), Table 2, column "Human" (their
"source" is INPUT): rank 1 = best."""

METRIC_OPTIONS: dict[str, dict[str, Any]] = {"gleu": {"absent": "first"}}
"""Options the meta-evaluation gives a metric (on the combined CoNLL-2014 M2)."""

COMBINED = os.path.join("conll14", "conll14st-test-data", "noalt", "official-2014.combined.m2")
"""Where the combined gold is, relative to the parent of ``--data``."""
SUBMISSIONS = os.path.join("conll14", "official_submissions")
"""Where the CoNLL-2014 outputs are, relative to the parent of ``--data``."""


@dataclass
class Dataset:
    """One meta-evaluation dataset, as read from its folder.

    Attributes:
        name: ``seeda``, ``gjg15`` or ``napoles2015``.
        systems: every system, in the original's order.
        outputs: system → its output file (one sentence per line).
        gold: the combined CoNLL-2014 M2 file.
        lines: the 0-based gold sentences the outputs correspond to, in order (the SEEDA
            subset), or ``None`` for every sentence.
        configs: configuration → the systems it keeps, in :attr:`systems` order.
        humans: human score name → system → score (higher is better).
        judgments: sentence-level judgment name (``SEEDA-E`` …) → its XML file.
        src_base: what a judgment's ``src-id`` counts from: 1 (SEEDA) or 0 (GJG15); the
            line of the outputs is ``src_id - src_base``, or its position in :attr:`lines`.
        notes: what a reader of the results should know about this dataset.
        human_sources: human score name → (judgment name, ``EW`` or ``TS``): how
            ``--human judgments`` computes it from :attr:`judgments`.
    """

    name: str
    systems: tuple[str, ...]
    outputs: dict[str, str]
    gold: str
    lines: tuple[int, ...] | None
    configs: dict[str, tuple[str, ...]]
    humans: dict[str, dict[str, float]]
    judgments: dict[str, str] = field(default_factory=dict)
    src_base: int = 0
    notes: list[str] = field(default_factory=list)
    human_sources: dict[str, tuple[str, str]] = field(default_factory=dict)


def default_gold(data: str) -> str:
    """The combined CoNLL-2014 M2 beside a dataset folder: ``DATA/../`` + :data:`COMBINED`."""
    return os.path.join(os.path.dirname(os.path.abspath(data)), COMBINED)


def load(name: str, data: str, *, gold: str | None = None, outputs: str | None = None,
         full: bool = False) -> Dataset:
    """Read dataset ``name`` from its folder ``data``.

    Args:
        name: one of :data:`DATASETS`.
        data: the dataset's folder (SEEDA: the repository copy; GJG15: the folder with
            ``judgments.xml`` and ``table3_human_rankings.tsv``; napoles2015: gec-ranking).
        gold: the combined CoNLL-2014 M2 (default :func:`default_gold`).
        outputs: the folder of the CoNLL-2014 system outputs (GJG15, napoles2015; default
            ``DATA/../conll14/official_submissions``).
        full: SEEDA: the outputs on all 1,312 sentences instead of the 391 judged ones.

    Returns:
        The :class:`Dataset`.

    Raises:
        UsageError: an unknown dataset, ``full`` or ``outputs`` where they do not apply.
        GecFormatError: a missing file or folder, a malformed human score file.
    """
    if name not in DATASETS:
        raise UsageError(f"unknown dataset {name!r} (known: {', '.join(DATASETS)})")
    if not os.path.isdir(data):
        raise GecFormatError("no such dataset folder", data)
    gold = gold or default_gold(data)
    _exists(gold, "the combined CoNLL-2014 M2 (give it with --gold)")
    if name == "seeda":
        if outputs is not None:
            raise UsageError("--outputs is for gjg15 and napoles2015 (SEEDA has its outputs)")
        return _seeda(data, gold, full)
    if full:
        raise UsageError(f"--full is for seeda ({name} is scored on every sentence)")
    outputs = outputs or os.path.join(os.path.dirname(os.path.abspath(data)), SUBMISSIONS)
    return _gjg15(data, gold, outputs) if name == "gjg15" else _napoles(data, gold, outputs)


def _exists(path: str, what: str) -> str:
    if not os.path.exists(path):
        raise GecFormatError(f"not found: {what}", path)
    return path


def _seeda(data: str, gold: str, full: bool) -> Dataset:
    folder = os.path.join(data, "outputs", "all" if full else "subset")
    outputs = {s: _exists(os.path.join(folder, f"{s}.txt"), f"SEEDA output of {s}")
               for s in SEEDA_SYSTEMS}
    ids_path = _exists(os.path.join(data, "subset_ids.txt"), "SEEDA's subset ids")
    subset = tuple(_integers(ids_path))
    humans = {h: read_column(os.path.join(data, "scores", "human", f"{h}.txt"), SEEDA_SYSTEMS)
              for h in SEEDA_HUMANS}
    configs = {c: tuple(s for s in SEEDA_SYSTEMS if s not in dropped)
               for c, dropped in SEEDA_CONFIGS.items()}
    judgments = {f"SEEDA-{k[0].upper()}": os.path.join(data, "data", f"judgments_{k}.xml")
                 for k in ("edit", "sent")}
    notes = ["outputs/subset/LM-Critic.txt was a copy of PIE.txt until SEEDA commit 082e663 "
             "(2024-12-14); SEEDA's published M2/GLEU correlations reproduce only with that "
             "old file"]
    sources = {h: (f"SEEDA-{h[3].upper()}", h[:2]) for h in SEEDA_HUMANS}
    return Dataset("seeda", SEEDA_SYSTEMS, outputs, gold, None if full else subset, configs,
                   humans, judgments, 1, notes, sources)


def _gjg15(data: str, gold: str, folder: str) -> Dataset:
    outputs = {s: _exists(os.path.join(folder, s), f"CoNLL-2014 output of {s} (--outputs)")
               for s in GJG15_SYSTEMS}
    table = _exists(os.path.join(data, "table3_human_rankings.tsv"), "GJG15 Table 3")
    humans = {"EW": read_table(table, "EW_score", GJG15_SYSTEMS),
              "TS": read_table(table, "TS_score", GJG15_SYSTEMS)}
    return Dataset("gjg15", GJG15_SYSTEMS, outputs, gold, None, {"all": GJG15_SYSTEMS},
                   humans, {"GJG15": os.path.join(data, "judgments.xml")},
                   0,
                   ["human scores: the paper's Table 3(b)/(c) (as gec-metrics), not the "
                    "nusnlp/gecmetrics copy"], {"EW": ("GJG15", "EW"), "TS": ("GJG15", "TS")})


def _napoles(data: str, gold: str, folder: str) -> Dataset:
    systems = tuple(NAPOLES_RANKS)
    outputs = {s: _exists(os.path.join(folder, s), f"CoNLL-2014 output of {s} (--outputs)")
               for s in systems}
    _exists(os.path.join(data, "all_judgments.csv"), "gec-ranking's judgments")
    humans = {"rank": {s: -float(r) for s, r in NAPOLES_RANKS.items()}}
    return Dataset("napoles2015", systems, outputs, gold, None,
                   {"all": systems, "-INPUT": tuple(s for s in systems if s != "INPUT")},
                   humans, notes=["human: Napoles et al. (2015) Table 2 ranks, negated"])


def _integers(path: str) -> Iterator[int]:
    for number, text in numbered_lines(path):
        if text.strip():
            try:
                yield int(text)
            except ValueError:
                raise GecFormatError(f"expected an integer, found {text.strip()!r}", path,
                                     number) from None


def read_column(path: str, systems: tuple[str, ...]) -> dict[str, float]:
    """SEEDA's human score file: one number per line, one line per system of ``systems``
    (in that order).

    Raises:
        GecFormatError: the file is missing, a line is not a finite number, or the number
            of values differs from the number of systems.
    """
    _exists(path, "a human score file")
    values = []
    for number, text in numbered_lines(path):
        if not text.strip():
            continue
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            raise GecFormatError(f"expected a number, found {text.strip()!r}", path, number)
        values.append(value)
    if len(values) != len(systems):
        raise GecFormatError(f"{len(values)} values for {len(systems)} systems", path)
    return dict(zip(systems, values))


def read_table(path: str, column: str, systems: tuple[str, ...]) -> dict[str, float]:
    """Column ``column`` of a TSV with a header and a ``system`` first column, for every
    system of ``systems`` (in that order).

    Raises:
        GecFormatError: no such column, a system missing, a value that is not a number.
    """
    header: list[str] | None = None
    found: dict[str, float] = {}
    for number, text in numbered_lines(path):
        fields = text.rstrip("\r\n").split("\t")
        if not text.strip():
            continue
        if header is None:
            header = fields
            if column not in header:
                raise GecFormatError(f"no column {column!r}", path, number)
            continue
        try:
            value = float(fields[header.index(column)])
        except (ValueError, IndexError):
            value = math.nan
        if not math.isfinite(value):
            raise GecFormatError(f"no number in column {column!r}", path, number)
        found[fields[0]] = value
    missing = [s for s in systems if s not in found]
    if missing:
        raise GecFormatError(f"no {column} for {', '.join(missing)}", path)
    return {s: found[s] for s in systems}


@contextmanager
def subset_gold(gold: str, lines: tuple[int, ...] | None) -> Iterator[str]:
    """The gold to score against: ``gold`` itself, or (``lines`` given) a temporary M2 file
    of its blocks at those 0-based sentence numbers, in that order, removed afterwards.

    An error about the temporary file raised inside the ``with`` block names ``gold`` and
    the line of ``gold`` it comes from instead (the temporary file is gone by the time a
    user reads the message).

    Raises:
        GecFormatError: a line number past the gold's last sentence.
    """
    if lines is None:
        yield gold
        return
    blocks: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    for number, text in numbered_lines(gold):
        if text.strip():
            current.append((number, text.rstrip("\r\n")))
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    bad = [k for k in lines if not 0 <= k < len(blocks)]
    if bad:
        raise GecFormatError(f"subset sentence {bad[0]} is past the gold's {len(blocks)} "
                             "sentences", gold)
    origin: list[int | None] = [None]  # temporary line (1-based) -> gold line
    for k in lines:
        origin += [number for number, _ in blocks[k]] + [None]
    with tempfile.TemporaryDirectory(prefix="gecformats-metaeval-") as folder:
        path = os.path.join(folder, "subset.m2")
        with open(path, "w", encoding="utf-8") as out:
            out.write("\n\n".join("\n".join(t for _, t in blocks[k]) for k in lines) + "\n\n")
        try:
            yield path
        except GecFormatError as exc:
            if exc.file != path and path not in exc.message:
                raise
            where = f"{gold} (its sentences at the subset ids)"
            line = exc.line
            if exc.file == path:
                line = origin[line] if line is not None and 0 < line < len(origin) else None
            raise GecFormatError(exc.message.replace(path, where),
                                 gold if exc.file == path else exc.file, line,
                                 exc.kind) from None


def kept(dataset: Dataset, config: str) -> tuple[str, ...]:
    """The systems of ``config``.

    Raises:
        UsageError: an unknown configuration.
    """
    if config not in dataset.configs:
        raise UsageError(f"unknown configuration {config!r} for {dataset.name} (known: "
                         f"{', '.join(dataset.configs)})")
    return dataset.configs[config]


def human_values(dataset: Dataset, human: str, systems: tuple[str, ...]) -> list[float]:
    """The human scores of ``systems`` under ``human``."""
    scores: Mapping[str, float] = dataset.humans[human]
    return [scores[s] for s in systems]
