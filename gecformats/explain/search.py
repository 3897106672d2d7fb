"""The search: every setting known to move a metric, one factor at a time, then pairs, each
scored exactly, with the statistics shared where the settings allow.

The plan (:func:`plan`) maps every setting to the one pipeline run whose per-sentence
statistics it needs, a :class:`PassKey`: the gold file, the hypotheses' tokenization, the
unit and the metric options the statistics depend on.  What a setting changes beyond that
is done on the run's statistics, never by a new run:

* a factor of the corpus step alone (M2's, SentM2's, ERRANT's β, which drives the
  annotator choice but no lattice; GLEU+'s iterations and versions, which draw other
  references from the same per-reference statistics) is the metric's corpus step again,
  built with that value (:data:`~gecformats.explain.settings.CORPUS_STAGE`);
* "annotator ``K`` of the gold alone" is, for M2 and SentM2, each sentence's candidate of
  annotator ``K`` in the run against the whole gold (the lattice search is made per
  annotator), or where ``K`` is absent the candidate ``--absent`` gives it (the first
  annotator's, or one with no gold edit); where that cannot be had (an unusual annotator
  order, every annotator of a sentence with edits under ``source``), the setting gets its
  own run with ``--annotator K``.  The result equals ``score --annotator K`` (tested).

So a run serves every setting that shares its key: the default run serves β, each
annotator and their pairs; a ``max_unchanged_words`` run serves its pairs with β and the
annotators.  Runs are made one at a time and their statistics dropped once every setting
that needs them is scored: memory is one run's statistics.  A run covers every system at
once (the pipeline reads them in lockstep).

The budget counts runs: the singles' first (in :data:`~gecformats.explain.settings.ORDER`),
then the pairs', most promising first: a pair's estimate is the claim's distance from the
default score moved by both factors' single moves, summed over the systems with a claim.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from itertools import combinations, product
from typing import Any

from gecformats.errors import GecFormatError, UsageError
from gecformats.explain.settings import (ORDER, TOKENIZATIONS, Claim, Factor, Gold, Setting,
                                         metric_factors, stats_options, valid)

DEFAULT_BUDGET = 60
"""Pipeline runs one ``explain`` makes at most (each a few seconds on CoNLL-2014 for one
system, all systems at once)."""

RESTRICTABLE = ("m2", "sentm2")
"""Metrics whose "annotator alone" settings are taken from the whole gold's statistics."""


@dataclass(frozen=True)
class PassKey:
    """What one pipeline run is made of: the gold (``None``: as given), the hypotheses'
    tokenization (``None``: as given), the unit and the metric options that change the
    statistics."""

    gold: Gold | None
    tokenization: str | None
    unit: str | None
    options: tuple[tuple[str, Any], ...]


@dataclass
class Outcome:
    """One setting, scored: per system its value (of the column explained)."""

    setting: Setting
    scores: list[float]
    order: int
    """The setting's place in the plan (singles first): ties in distance keep it."""


@dataclass
class Explanation:
    """What :func:`explain` found.

    Attributes:
        metric, column: the metric (``--metric`` name) and the column of its values
            explained (``f``, ``gleu`` …); ``label`` names them (``M2 F0.5``).
        paths, names, gold: the hypotheses (as given), their system names, the gold.
        claims: per system its :class:`Claim`, or ``None``.
        outcomes: every setting scored, the defaults first.
        auto: per annotator of the gold, the policy ``--absent auto`` takes.
        detokenized: the paths of the detokenized hypotheses the commands name.
        runs: pipeline runs made; ``derived``: settings scored from another's run.
        left_out: what was not tried, each with why (budget, a run that failed, the NUS
            scorer's tag 3.2).
        seconds: how long the search took.
    """

    metric: str
    column: str
    label: str
    paths: list[str]
    names: list[str]
    gold: str
    claims: list[Claim | None]
    outcomes: list[Outcome]
    auto: dict[int, str] = field(default_factory=dict)
    detokenized: list[str] | None = None
    runs: int = 0
    derived: int = 0
    left_out: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def default(self) -> Outcome:
        """The outcome of gecformats' defaults."""
        return self.outcomes[0]

    def ranked(self, system: int) -> list[Outcome]:
        """Every outcome, nearest to system ``system``'s claim first (ties: fewer factors
        changed, then the plan's order).

        Raises:
            ValueError: the system has no claim.
        """
        claim = self.claims[system]
        if claim is None:
            raise ValueError(f"system {self.names[system]} has no claim")
        return sorted(self.outcomes, key=lambda o: (round(abs(o.scores[system] - claim.value), 12),
                                                    o.setting.size, o.order))

    def singles(self) -> list[Outcome]:
        """The outcomes that change one factor (the sensitivity table's rows)."""
        return [o for o in self.outcomes if o.setting.size == 1]

    def explains_most(self) -> tuple[Outcome, int] | None:
        """The setting that matches the most claims within rounding (ties: the smaller
        total distance, then fewer factors), and how many; ``None`` without claims."""
        claimed = [(s, c) for s, c in enumerate(self.claims) if c is not None]
        if not claimed:
            return None

        def key(o: Outcome) -> tuple[int, float, int, int]:
            hits = sum(c.matches(o.scores[s]) for s, c in claimed)
            gap = sum(abs(o.scores[s] - c.value) for s, c in claimed)
            return (-hits, round(gap, 12), o.setting.size, o.order)

        best = min(self.outcomes, key=key)
        return best, -key(best)[0]


def explain(hypotheses: Sequence[str | os.PathLike[str]], gold: str | os.PathLike[str], *,
            metric: str = "m2", column: str | None = None,
            claims: Sequence[Claim | None] | None = None,
            variants: Sequence[str | os.PathLike[str]] = (), budget: int = DEFAULT_BUDGET,
            pairs: bool = True, factors: Sequence[str] | None = None, jobs: int = 1,
            variants_dir: str | None = None,
            progress: Callable[[int], None] | None = None,
            planned: Callable[[int], None] | None = None) -> Explanation:
    """Score ``hypotheses`` against ``gold`` under every setting known to move ``metric``:
    each factor alone, then (with claims and ``pairs``) each pair of factors, within
    ``budget`` pipeline runs.

    Args:
        hypotheses: system outputs (files; text or M2).
        gold: the gold file (token-level: M2, I-measure XML …).
        metric: a ``--metric`` name.
        column: the column explained (default: the metric's main one, F for M2).
        claims: per hypothesis its claimed value, or ``None`` (all ``None``: the
            sensitivity alone, no pairs).
        variants: other gold files to try instead of ``gold`` (a gold with alternatives,
            another annotation of the same sentences).
        budget: the most pipeline runs (at least 1: the defaults').
        pairs: also try pairs of factors (with claims).
        factors: only these factors (names of :data:`~gecformats.explain.settings.ORDER`;
            default: every factor of the metric).
        jobs: local processes of each run.
        variants_dir: where to write the detokenized hypotheses (kept, so that their
            commands run); default: a temporary folder, removed after.
        progress: called with 1 after each run.
        planned: called once with the number of runs planned (for a progress bar).

    Returns:
        An :class:`Explanation`.

    Raises:
        UsageError: an unknown metric, column or factor, standard input as a hypothesis
            or gold, a budget below 1, claims that do not match the hypotheses.
        GecFormatError: the defaults' run fails (bad input); another run's failure
            leaves its settings out (said in :attr:`Explanation.left_out`).
    """
    from gecformats.metrics.pipeline import system_names
    from gecformats.metrics.request import metric_class

    started = time.monotonic()
    paths = [os.fspath(h) for h in hypotheses]
    gold = os.fspath(gold)
    if not paths:
        raise UsageError("no hypothesis to explain")
    if "-" in paths or gold == "-" or "-" in [os.fspath(v) for v in variants]:
        raise UsageError("explain reads its inputs once per setting: give files, not "
                         "standard input")
    if budget < 1:
        raise UsageError(f"--budget must be at least 1, not {budget}")
    claimed: list[Claim | None] = list(claims) if claims is not None else [None] * len(paths)
    if len(claimed) != len(paths):
        raise UsageError(f"{len(claimed)} claims for {len(paths)} hypotheses")
    cls = metric_class(metric)
    column = column or cls.main
    if column not in cls.columns:
        raise UsageError(f"--column {column}: --metric {metric}'s columns are "
                         f"{', '.join(cls.columns)}")
    unknown = sorted(set(factors or ()) - set(ORDER))
    if unknown:
        raise UsageError(f"--factor {unknown[0]}: the factors are {', '.join(ORDER)}")
    scan = GoldScan(gold)
    text = not any(_is_m2(p) for p in paths)
    found = _factors(metric, cls, scan, [os.fspath(v) for v in variants], text)
    if factors is not None:
        found = [f for f in found if f.name in set(factors)]
    search = _Search(metric, cls, column, paths, gold, scan, jobs, progress)
    explanation = Explanation(metric, column, _label(cls, column), paths, system_names(paths),
                              gold, claimed, [], auto=scan.auto())
    if metric in RESTRICTABLE:
        explanation.left_out.append(
            "the NUS scorer's tag 3.2: gecformats scores as its master; the two differ only "
            "where a hypothesis inserts two or more tokens before the first source token "
            "(spec §10.1; on none of the 13 CoNLL-2014 outputs)")
    folder = None
    with ExitStack() as stack:
        if any(f.name == "tokenization" for f in found):
            folder = variants_dir or stack.enter_context(tempfile.TemporaryDirectory())
            search.detokenized = write_detokenized(paths, explanation.names, folder)
            explanation.detokenized = search.detokenized if variants_dir else \
                [os.path.join("DIR", os.path.basename(p)) for p in search.detokenized]
        singles = [Setting()] + [Setting(((f.name, v),)) for f in found for v in f.values
                                 if valid(metric, Setting(((f.name, v),)))]
        doubles = _pairs(metric, found) if pairs and any(claimed) else []
        search.run(singles, doubles, claimed, budget, planned)
    explanation.outcomes = search.outcomes
    explanation.runs = search.runs
    explanation.derived = len(search.outcomes) - search.runs
    # a temporary folder is named as the commands name it (the same output every run)
    explanation.left_out += [n.replace(folder, "DIR") if folder and not variants_dir else n
                             for n in search.left_out]
    explanation.seconds = time.monotonic() - started
    return explanation


def _label(cls: Any, column: str) -> str:
    """``M2 F0.5``, ``ERRANT P``, ``GLEU``: the metric and the column explained."""
    names = {"f": "F0.5" if "beta" in cls.options else "F", "precision": "P", "recall": "R",
             "i": "I"}
    if column == cls.main and column == cls.name:
        return cls.label
    return f"{cls.label} {names.get(column, column)}"


def _factors(metric: str, cls: Any, scan: GoldScan, variants: list[str], text: bool
             ) -> list[Factor]:
    """The factors of ``metric`` on this gold and these hypotheses (see the module)."""
    golds: list[Gold] = []
    if len(scan.ids) > 1:
        for k in scan.ids:
            golds.append(Gold(annotator=k))
            if scan.absent.get(k):  # sentences without K: the other policy too
                other = "source" if scan.auto().get(k) == "first" else "first"
                golds.append(Gold(annotator=k, absent=other))
    golds += [Gold(variant=v) for v in variants]
    out = [Factor("gold", tuple(golds))] if golds else []
    if text:
        out.append(Factor("tokenization", TOKENIZATIONS))
    if scan.documents:
        out.append(Factor("unit", ("document",)))
    return out + metric_factors(metric, cls.options, _errant_installed())


def _pairs(metric: str, factors: Sequence[Factor]) -> list[Setting]:
    """Every valid setting of two different factors, in the factors' order."""
    out = []
    for a, b in combinations(factors, 2):
        for va, vb in product(a.values, b.values):
            setting = Setting(((a.name, va),)).with_(b.name, vb)
            if valid(metric, setting):
                out.append(setting)
    return out


def _errant_installed() -> bool:
    """Whether ``--extractor errant`` can run here (errant, spaCy and a model)."""
    try:
        from gecformats.convert.errant_extract import cached

        cached(None)
    except (GecFormatError, ImportError):
        return False
    return True


def _is_m2(path: str) -> bool:
    from gecformats.metrics.pipeline import _looks_m2

    return _looks_m2(path)


class GoldScan:
    """One pass over the gold: its annotator ids, whether it writes ``noop`` lines beside
    other annotators' edits (what ``--absent auto`` takes), per annotator the sentences
    where it is absent while another made edits, and whether it knows documents.

    Raises:
        GecFormatError: a malformed gold.
    """

    def __init__(self, gold: str) -> None:
        from gecformats.convert.documents import document_id
        from gecformats.convert.extract import noop_beside_edits
        from gecformats.metrics.pipeline import gold_sentences

        ids: set[int] = set()
        explicit = documents = False
        lacking: list[set[int]] = []
        for sentence in gold_sentences(gold):
            present = {k for k in sentence.annotators if k >= 0}
            ids |= present
            explicit = explicit or noop_beside_edits(sentence)
            documents = documents or document_id(sentence) is not None
            lacking.append(present if any(sentence.annotators[k] for k in present) else set())
        self.ids = sorted(ids)
        self.explicit, self.documents = explicit, documents
        self.absent = {k: sum(k not in p for p in lacking if p) for k in self.ids}

    def auto(self) -> dict[int, str]:
        """Per annotator, the policy ``--absent auto`` takes (``first`` or ``source``)."""
        return {k: "first" if self.explicit else "source" for k in self.ids}


def write_detokenized(paths: Sequence[str], names: Sequence[str], folder: str) -> list[str]:
    """Each hypothesis detokenized (its tokens, as the M2 scorer splits a line, joined by
    :func:`gecformats.convert.retokenize.detokenize`: no space before closing punctuation
    and clitics, none after opening brackets), one line per line, written to
    ``folder/NAME.detok``; returns their paths.

    Raises:
        GecFormatError: a hypothesis that cannot be read.
    """
    from maxmatch import split_hypothesis

    from gecformats.convert.retokenize import detokenize
    from gecformats.io import atomic_output
    from gecformats.metrics.score import read_hypothesis

    os.makedirs(folder, exist_ok=True)
    bases = [os.path.basename(n) for n in names]
    if len(set(bases)) < len(bases):  # names that are whole paths: numbered
        bases = [f"{k + 1}-{b}" for k, b in enumerate(bases)]
    out = []
    for path, base in zip(paths, bases):
        target = os.path.join(folder, base + ".detok")
        with atomic_output(target) as fh:
            for _, line in read_hypothesis(path):
                fh.write(detokenize(split_hypothesis(line)) + "\n")
        out.append(target)
    return out


class _Search:
    """The runs and the settings scored from them (see the module)."""

    def __init__(self, metric: str, cls: Any, column: str, paths: list[str], gold: str,
                 scan: GoldScan, jobs: int, progress: Callable[[int], None] | None) -> None:
        self.metric, self.cls, self.paths, self.gold = metric, cls, paths, gold
        self.index = cls.columns.index(column)
        self.auto = scan.auto()
        self.jobs, self.progress = jobs, progress
        self.detokenized: list[str] = []
        self.outcomes: list[Outcome] = []
        self.left_out: list[str] = []
        self.runs = 0
        self.order: dict[Setting, int] = {}
        self.failed: set[Setting] = set()

    # ---------------------------------------------------------------- the plan

    def key(self, setting: Setting, restricted: bool = True) -> tuple[PassKey, Gold | None]:
        """The run a setting needs, and the annotator to restrict its statistics to
        (``None``: none); ``restricted=False``: the setting's own run."""
        gold = setting.get("gold")
        restrict = None
        if restricted and gold is not None and gold.annotator is not None \
                and self.metric in RESTRICTABLE and setting.get("unit") is None:
            restrict, gold = gold, None
        return PassKey(gold, setting.get("tokenization"), setting.get("unit"),
                       stats_options(self.metric, setting)), restrict

    def run(self, singles: list[Setting], doubles: list[Setting], claims: list[Claim | None],
            budget: int, planned: Callable[[int], None] | None) -> None:
        """Score ``singles`` (the defaults first), then ``doubles`` most promising first,
        within ``budget`` runs."""
        for n, s in enumerate(singles + doubles):
            self.order.setdefault(s, n)
        waiting: dict[PassKey, list[Setting]] = {}
        for s in singles + doubles:
            waiting.setdefault(self.key(s)[0], []).append(s)
        first = list(dict.fromkeys(self.key(s)[0] for s in singles))
        rest = [k for k in waiting if k not in set(first)]
        if planned is not None:
            planned(min(budget, len(first) + len(rest)))
        spent = 0
        for key in first:
            if spent >= budget:
                break
            spent += 1
            self._serve(key, waiting.pop(key), waiting, rest)
        rest = [k for k in dict.fromkeys(rest) if k in waiting]
        while rest and spent < budget:
            estimate = self._estimator(claims)  # with the singles scored so far
            # singles left for their own run (a restriction that could not be had) first
            rest.sort(key=lambda k: min((s.size, estimate(s)) for s in waiting[k]))
            key = rest.pop(0)
            spent += 1
            self._serve(key, waiting.pop(key), waiting, rest)
            rest = [k for k in rest if k in waiting]
        done = {o.setting for o in self.outcomes} | self.failed
        for kind, group in (("single", singles), ("pair", doubles)):
            skipped = sum(s not in done for s in group)
            if skipped:
                self.left_out.append(f"{skipped} {kind} setting{'s' * (skipped != 1)} past "
                                     f"the budget of {budget} runs (--budget)")
        self.outcomes.sort(key=lambda o: o.order)

    def _estimator(self, claims: list[Claim | None]) -> Callable[[Setting], float]:
        """A pair's estimated distance to the claims (see the module)."""
        by = {o.setting: o.scores for o in self.outcomes}
        base = self.outcomes[0].scores if self.outcomes else []

        def estimate(setting: Setting) -> float:
            total = 0.0
            for s, claim in enumerate(claims):
                if claim is None:
                    continue
                value = base[s]
                for change in setting.changes:
                    single = by.get(Setting((change,)))
                    if single is None:
                        return float("inf")
                    value += single[s] - base[s]
                total += abs(value - claim.value)
            return total

        return estimate

    # ---------------------------------------------------------------- one run

    def _serve(self, key: PassKey, settings: list[Setting],
               waiting: dict[PassKey, list[Setting]], rest: list[PassKey]) -> None:
        """Make the run ``key`` and score every setting that needs it; a setting whose
        restriction fails waits for its own run."""
        try:
            run = self._evaluate(key)
        except UsageError:
            raise
        except GecFormatError as exc:
            if key == self.key(Setting())[0]:
                raise
            self.failed.update(settings)
            self.left_out.append(f"{_short(settings[0])}"
                                 + (f" (and {len(settings) - 1} settings sharing its run)"
                                    if len(settings) > 1 else "") + f": {exc}")
            return
        finally:
            self.runs += 1
            if self.progress is not None:
                self.progress(1)
        for setting in settings:
            _, restrict = self.key(setting)
            scores = self._scores(setting, run, restrict)
            if scores is None:  # the restriction cannot be had: its own run
                own = self.key(setting, restricted=False)[0]
                waiting.setdefault(own, []).append(setting)
                if own not in rest:
                    rest.append(own)
                continue
            self.outcomes.append(Outcome(setting, scores, self.order[setting]))

    def _evaluate(self, key: PassKey) -> Any:
        """The pipeline run of ``key``, every system at once."""
        from gecformats.metrics.pipeline import evaluate

        metric = self._metric(dict(key.options))
        hyps = self.detokenized if key.tokenization in ("detok", "detok+en") else self.paths
        gold = key.gold.variant if key.gold is not None and key.gold.variant else self.gold
        annotator = key.gold.annotator if key.gold is not None else None
        absent = key.gold.absent if key.gold is not None else "auto"
        return evaluate(hyps, gold, [metric], jobs=self.jobs, unit=key.unit,
                        tokenize="en" if key.tokenization in ("en", "detok+en") else None,
                        annotator=annotator, absent=absent)

    def _metric(self, options: dict[str, Any]) -> Any:
        from gecformats.metrics.request import build_metrics

        return build_metrics([self.metric], options, list(options))[0]

    def _scores(self, setting: Setting, run: Any, restrict: Gold | None) -> list[float] | None:
        """Per system, the setting's value from ``run``'s statistics (``None``: the
        restriction to one annotator cannot be had)."""
        options = setting.options()
        same = dict(stats_options(self.metric, setting)) == options and restrict is None
        if same:
            return [t.values[self.index] for t in run.totals[0]]
        metric = self._metric(options)
        out = []
        for stats in run.stats[0]:
            if restrict is not None and restrict.annotator is not None:
                k = restrict.annotator
                stats = restricted(stats, k, restrict.absent if restrict.absent != "auto"
                                   else self.auto.get(k, "source"))
                if stats is None:
                    return None
            out.append(metric.corpus(stats).values[self.index])
        return out


def _short(setting: Setting) -> str:
    from gecformats.explain.settings import describe

    return describe(setting)


def restricted(stats: Iterable[Any], annotator: int, policy: str) -> list[Any] | None:
    """M2 statistics (:class:`~gecformats.metrics.m2.M2Stats` per sentence, against the
    whole gold) as against annotator ``annotator`` alone (``score --annotator``): each
    sentence's candidate of that annotator; where it is absent, ``policy`` ``first`` takes
    the first annotator's candidate (the ids in the scorer's ascending order) and
    ``source`` one with no gold edit.  ``None`` when that cannot be had: ids outside the
    scorer's known order, or (``source``) a sentence where every annotator has edits.
    Exact because the lattice search is made per annotator: annotator ``K``'s counts do
    not depend on the others'."""
    out = []
    for s in stats:
        if s.nonstandard:
            return None
        if annotator in s.annotators:
            k = s.annotators.index(annotator)
        elif policy == "first" or not s.counts:
            k = 0
        else:
            k = next((i for i, c in enumerate(s.counts) if c[2] == 0), -1)
            if k < 0:
                return None
        if not s.counts:
            out.append(s)
            continue
        types = (s.types[k],) if s.types is not None else None
        out.append(s._replace(counts=(s.counts[k],), annotators=(annotator,), types=types,
                              details=None))
    return out
