"""GLEU as a :class:`~gecformats.metrics.base.Metric` (`gecformats.metrics.gleu.GleuMetric`).

Scored the way the evaluation pipeline scores (the gold read once, ``setup`` first, one
``prepare`` per sentence and one ``sentence`` per system, in a pickled copy of the metric
as in a worker process), every version gives what ``gleu_files(..., gold=[GOLD])`` gives,
to the last bit, on the fixtures, on random gold files and on the CoNLL-2014 systems
(``../shared``).  Weighted corpus steps are checked against the definition written out
here; the NumPy resampler and swapper against the looping defaults, bit for bit.
"""

from __future__ import annotations

import functools
import math
import os
import pickle
import random
from pathlib import Path

import pytest

from conftest import FIXTURES, shared_file
from gecformats import formats
from gecformats.errors import GecFormatError, UsageError
from gecformats.metrics.base import Hypothesis, Totals, _Looping, _LoopingSwap
from gecformats.metrics.inputs import GoldFit, gold_field
from gecformats.metrics.gleu import (ABSENT, DEFAULT_ITERATIONS, GleuMetric, _gleu,
                                     _pairwise_sum, gleu_files)
from gecformats.metrics.score import read_hypothesis

# its tests share costly module state (a fixture or a cache): one xdist worker runs them all
pytestmark = pytest.mark.xdist_group("gleu_metric")

GLEU = FIXTURES / "gleu"
GOLD = GLEU / "gold.m2"
SYSTEMS = [GLEU / "system-a.txt", GLEU / "system-b.txt", GLEU / "unchanged.txt"]
CONFIGS = [("2015", 0.0), ("2015", 0.1), ("2016", 0.0), ("2016", 0.1), ("plus", None),
           ("plus-2016", None)]
IDS = [f"{v}-{lam}" if lam is not None else v for v, lam in CONFIGS]


def score(metric: GleuMetric, gold: Path | str, hypotheses: list[Path] | list[str]
          ) -> list[list[object]]:
    """The statistics of every system, as the pipeline makes them: setup on the metric,
    prepare and sentence on a pickled copy (a worker's)."""
    metric.setup(str(gold))
    worker = pickle.loads(pickle.dumps(metric))
    fit = GoldFit(str(gold))
    sentences = (fit.fit(n, s) for n, s in
                 enumerate(formats.get(formats.infer_input(gold)).read(gold), 1))
    lines = [[line for _, line in read_hypothesis(h)] for h in hypotheses]
    stats: list[list[object]] = [[] for _ in hypotheses]
    for i, sentence in enumerate(sentences):
        prepared = worker.prepare(sentence)
        for k in range(len(hypotheses)):
            line = lines[k][i]
            stats[k].append(worker.sentence(prepared, Hypothesis(tuple(line.split()), line)))
    assert all(len(s) == len(lines[0]) for s in stats)
    return stats


def options(version: str, lam: float | None, **more: object) -> dict[str, object]:
    out: dict[str, object] = {"version": version, "lam": lam, **more}
    if version.startswith("plus") and "iterations" not in more:
        out["iterations"] = 60  # the fixtures: fast, and not the default
    return out


def same_as_gleu_files(gold: Path | str, hypotheses: list, **opts: object) -> GleuMetric:
    """Assert that the metric gives gleu_files' scores, signature and notes."""
    metric = GleuMetric(**opts)  # type: ignore[arg-type]
    stats = score(metric, gold, hypotheses)
    files = {k: v for k, v in opts.items() if k not in ("gold_format",)}
    run = gleu_files(None, hypotheses, gold=[gold], **files)  # type: ignore[arg-type]
    assert [metric.corpus(s).values[0] for s in stats] == [r.score for r in run.results]
    # the metric's own signature, then what the pipeline adds about the inputs
    assert metric.signature() + "|" + gold_field(os.fspath(gold)) == str(run.signature)
    # the pipeline warns of gold edits past the end (GoldFit), the metric of the rest
    fit = GoldFit(os.fspath(gold))
    for n, sentence in enumerate(formats.get(formats.infer_input(gold)).read(gold), 1):
        fit.fit(n, sentence)
    assert sorted(metric.warnings() + fit.warnings()) == sorted(run.notes)
    return metric


# ================================================================== the same numbers


@pytest.mark.parametrize("version, lam", CONFIGS, ids=IDS)
def test_fixtures_equal_gleu_files(version, lam):
    same_as_gleu_files(GOLD, SYSTEMS, **options(version, lam))
    same_as_gleu_files(GOLD, SYSTEMS, **options(version, lam), mixed=True)


@pytest.mark.parametrize("version", ["2015", "plus"])
def test_default_iterations_and_mixed_bound(version):
    same_as_gleu_files(GOLD, SYSTEMS, version=version)
    metric = same_as_gleu_files(GOLD, SYSTEMS, version=version, mixed=True, max_references=2)
    assert "mixed references" in metric.warnings()[0]


ABSENT_M2 = """\
S a b c d e
A 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0
A 4 5|||R:X|||y|||REQUIRED|||-NONE-|||1

S f g h i j
A 1 2|||R:X|||z|||REQUIRED|||-NONE-|||0

S k l m n o

S p q r s t
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
A 0 1|||R:X|||P|||REQUIRED|||-NONE-|||1

S u v w
A 0 9|||R:X|||out|||REQUIRED|||-NONE-|||0
A 1 2|||R:X|||V|||REQUIRED|||-NONE-|||1
"""


@pytest.mark.parametrize("absent", ABSENT)
@pytest.mark.parametrize("noop", [True, False])
def test_absent_annotators_and_notes_equal_gleu_files(tmp_path, absent, noop):
    text = ABSENT_M2 if noop else ABSENT_M2.replace(
        "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n", "")
    gold = tmp_path / "absent.m2"
    gold.write_text(text)
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("x b c d e\nf g h i j\nk l m n o\nP q r s t\nu V w\n")
    for version, lam in CONFIGS:
        metric = same_as_gleu_files(gold, [hyp], **options(version, lam), absent=absent)
        assert any("references of annotators missing" in n for n in metric.warnings())
        assert not any("out-of-range" in n for n in metric.warnings())  # the edit 0 9: the
        # pipeline leaves it out before the metric sees it, and warns (GoldFit)


def random_gold(rng: random.Random, sentences: int) -> tuple[str, list[list[str]]]:
    """An M2 file of ``sentences`` random sentences (up to 3 annotators, some absent or
    noop, up to 3 edits each) and three hypothesis files' lines."""
    vocab = "a b c d e f g h".split()
    blocks, hyps = [], [[], [], []]
    for _ in range(sentences):
        src = [rng.choice(vocab) for _ in range(rng.randint(0, 9))]
        lines = ["S " + " ".join(src)]
        for k in range(3):
            if rng.random() < 0.25:
                continue
            edits, pos = [], 0
            for _ in range(rng.randint(0, 3)):
                start = rng.randint(pos, len(src))
                end = min(len(src), start + rng.randint(0, 2))
                new = " ".join(rng.choice(vocab) for _ in range(rng.randint(0, 2)))
                if start == end and not new:
                    continue
                edits.append(f"A {start} {end}|||R:X|||{new or '-NONE-'}|||REQUIRED|||-NONE-|||{k}")
                pos = end + 1
                if pos > len(src):
                    break
            lines += edits or [f"A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{k}"]
        blocks.append("\n".join(lines))
        for h in hyps:
            toks = list(src)
            for _ in range(rng.randint(0, 3)):
                where = rng.randint(0, len(toks))
                toks[where:where + rng.randint(0, 1)] = [rng.choice(vocab)] * rng.randint(0, 1)
            h.append(" ".join(toks) if rng.random() < 0.9 else "")
    return "\n\n".join(blocks) + "\n\n", hyps


@pytest.mark.parametrize("seed", range(6))
def test_random_gold_equals_gleu_files(tmp_path, seed):
    rng = random.Random(seed)
    text, hyps = random_gold(rng, rng.randint(1, 12))
    gold = tmp_path / "gold.m2"
    gold.write_text(text)
    paths = []
    for k, lines in enumerate(hyps):
        paths.append(tmp_path / f"h{k}.txt")
        paths[-1].write_text("\n".join(lines) + "\n")
    for version, lam in CONFIGS + [("2015", 0.5)]:
        for absent in ABSENT:
            try:
                same_as_gleu_files(gold, paths, **options(version, lam), absent=absent)
            except GecFormatError as exc:  # 2015 with a large λ: both refuse
                assert "undefined" in str(exc)
                with pytest.raises(GecFormatError, match="undefined"):
                    gleu_files(None, paths, gold=[gold], version=version, lam=lam)
        same_as_gleu_files(gold, paths, **options(version, lam), mixed=True)


def test_sentence_fields_are_the_sentence_level_scores():
    for version, lam in CONFIGS:
        metric = GleuMetric(**options(version, lam))  # type: ignore[arg-type]
        stats = score(metric, GOLD, SYSTEMS)
        run = gleu_files(None, SYSTEMS, gold=[GOLD], sentence_level=True,
                         **options(version, lam))  # type: ignore[arg-type]
        for per_system, result in zip(stats, run.results):
            totals = metric.corpus(per_system, choices=True)
            assert totals.choices == (0,) * len(per_system)
            fields = [metric.sentence_fields(s, c) for s, c in zip(per_system, totals.choices)]
            if version.startswith("plus"):
                assert [f["gleu"] for f in fields] == [s.mean for s in result.sentence_scores]
                assert [f["std"] for f in fields] == [s.std for s in result.sentence_scores]
            else:
                assert [f["gleu"] for f in fields] == list(result.sentence_scores)


def test_hypothesis_is_split_on_ascii_white_space_of_the_raw_line():
    metric = GleuMetric(version="2016")
    metric.setup(str(GOLD))
    prepared = metric.prepare(next(formats.get("m2").read(GOLD)))
    line = "He\u00a0goes to school\tevery  day ."
    stats = metric.sentence(prepared, Hypothesis(tuple(line.split()), line))
    assert stats[0] == 6  # "He\u00a0goes" is one token, as the reference code splits bytes


# ================================================================== the interface


def test_class_attributes_and_options():
    assert (GleuMetric.name, GleuMetric.label, GleuMetric.columns, GleuMetric.main) == \
        ("gleu", "GLEU", ("gleu",), "gleu")
    assert GleuMetric.options == {"gleu-version", "lambda", "order", "iterations", "mixed",
                                  "absent", "max-references"}
    for bad in ({"version": "2017"}, {"version": "plus", "lam": 0.1},
                {"version": "2016", "iterations": 5}, {"version": "2016", "order": 3},
                {"absent": "nobody"}, {"max_references": 0}, {"version": "2015", "lam": -1}):
        with pytest.raises(ValueError):
            GleuMetric(**bad)  # type: ignore[arg-type]


def test_setup_errors(tmp_path):
    with pytest.raises(UsageError, match="standard input"):
        GleuMetric().setup("-")
    with pytest.raises(ValueError, match="setup"):
        GleuMetric().prepare(next(formats.get("m2").read(GOLD)))
    bad = tmp_path / "bad.m2"
    bad.write_text("S a b\nA 0 5|||R:X|||c|||REQUIRED|||-NONE-|||0\n\n")
    # an edit past the end: the pipeline leaves it out of every metric's gold (GoldFit), so
    # setup's pass, which sees the gold as prepare() will, does not stop at it
    GleuMetric(mixed=True).setup(str(bad))
    with pytest.raises(GecFormatError, match="does not fit"):  # given to prepare() as is
        GleuMetric(mixed=True).prepare(next(formats.get("m2").read(bad)))


def plain(value: object) -> bool:
    if isinstance(value, tuple):
        return all(plain(v) for v in value)
    return type(value) in (int, float)


@pytest.mark.parametrize("version, lam", CONFIGS, ids=IDS)
def test_statistics_are_plain_and_picklable(version, lam):
    metric = GleuMetric(**options(version, lam))  # type: ignore[arg-type]
    stats = score(metric, GOLD, SYSTEMS)
    for per_system in stats:
        assert all(plain(s) for s in per_system)
        assert pickle.loads(pickle.dumps(per_system)) == per_system
    if version.startswith("plus"):
        assert all(len(s) == 2 and all(len(v) == 10 for v in s) for s in stats[0])
    else:
        assert all(len(s) == 10 for s in stats[0])
    copy = pickle.loads(pickle.dumps(metric))
    assert copy.signature() == metric.signature() and copy.warnings() == metric.warnings()
    assert copy.corpus(stats[0]) == metric.corpus(stats[0])
    prepared = metric.prepare(next(formats.get("m2").read(GOLD)))
    assert pickle.loads(pickle.dumps(prepared)).refs == prepared.refs


def test_corpus_totals():
    metric = GleuMetric(version="2016", lam=0.1)
    totals = metric.corpus(score(metric, GOLD, SYSTEMS)[0])
    assert isinstance(totals, Totals) and totals.choices == ()
    assert list(totals.counts)[:4] == ["hlen", "rlen", "num1", "den1"]
    plus = GleuMetric(iterations=7)
    totals = plus.corpus(score(plus, GOLD, SYSTEMS)[0])
    assert totals.counts == {"iterations": 7} and set(totals.extra) == {"std", "ci95"}
    assert plus.corpus([]).values == (0.0,)


# ================================================================== weights


def by_definition(metric: GleuMetric, stats: list, weights: list[int]) -> float:
    """The weighted corpus GLEU written out from its definition (see GleuMetric)."""
    if not metric.version.startswith("plus"):
        width = len(stats[0])
        totals = [sum(w * s[c] for s, w in zip(stats, weights)) for c in range(width)]
        return _gleu(totals, swapped=True) if metric.version == "2016" or any(
            t == 0 for t in totals) or all(t >= 0 for t in totals[2::2]) else math.nan
    sizes = [len(s) for s in stats]
    runs = (metric.iterations or DEFAULT_ITERATIONS) if max(sizes) > 1 else 1
    values = []
    for j in range(runs):
        u = random.Random(j * 101).random
        draws = [int(u() * r) for r in sizes]
        totals = [sum(w * s[d][c] for s, w, d in zip(stats, weights, draws))
                  for c in range(len(stats[0][0]))]
        values.append(_gleu(totals, metric.version == "plus-2016"))
    return _pairwise_sum(values, 0, len(values)) / len(values)


@pytest.mark.parametrize("version, lam", CONFIGS, ids=IDS)
def test_weighted_corpus_by_definition(version, lam):
    metric = GleuMetric(**options(version, lam))  # type: ignore[arg-type]
    stats = score(metric, GOLD, SYSTEMS)
    rng = random.Random(3)
    for per_system in stats:
        n = len(per_system)
        assert metric.corpus(per_system, [1] * n) == metric.corpus(per_system)
        for _ in range(5):
            weights = [rng.choice([0, 0, 1, 1, 2, 3]) for _ in range(n)]
            got = metric.corpus(per_system, weights).values[0]
            want = by_definition(metric, per_system, weights)
            assert got == want or math.isclose(got, want, rel_tol=1e-12)
            if lam == 0.0 or version.startswith("plus"):
                assert got == want  # whole numbers: the sums are exact in any order
            if not version.startswith("plus"):  # no draws: the same as copying sentences
                copies = [s for s, w in zip(per_system, weights) for _ in range(w)]
                assert math.isclose(metric.corpus(copies).values[0], got, rel_tol=1e-12)


def test_plus_draws_stay_with_the_sentence_positions():
    """A resample keeps each position's draws: its score differs from scoring the
    resampled file (which would draw anew), but equals the definition."""
    metric = GleuMetric(iterations=50)
    stats = score(metric, GOLD, SYSTEMS)[0]
    weights = [0, 2, 0, 1, 3, 0][:len(stats)]
    copies = [s for s, w in zip(stats, weights) for _ in range(w)]
    assert metric.corpus(stats, weights).values[0] == by_definition(metric, stats, weights)
    assert metric.corpus(copies).values[0] != metric.corpus(stats, weights).values[0]


# ================================================================== resampler and swapper


def check_fast(metric: GleuMetric, stats: list[list], rows: int, rng: random.Random) -> None:
    """The NumPy resampler and swapper give the looping defaults' values, bit for bit."""
    n = len(stats[0])
    weights = [[rng.choice([0, 0, 1, 1, 1, 2, 5]) for _ in range(n)] for _ in range(rows)]
    weights.append([1] * n)
    for per_system in stats:
        fast = same(lambda: metric.resampler(per_system).scores(weights),
                    lambda: _Looping(metric, per_system).scores(weights))
        if fast is not None:
            assert fast[-1] == metric.corpus(per_system).values
    swaps = [[rng.randint(0, 1) for _ in range(n)] for _ in range(rows)]
    swaps += [[0] * n, [1] * n]
    for a, b in zip(stats, stats[1:] + stats[:1]):
        same(lambda: metric.swapper(a, b).scores(swaps),
             lambda: _LoopingSwap(metric, a, b).scores(swaps))


def same(fast, slow):
    """``fast()`` equals ``slow()``, or both refuse (GLEU 2015 with a negative numerator)."""
    try:
        want = slow()
    except GecFormatError as exc:
        assert "undefined" in str(exc)
        with pytest.raises(GecFormatError, match="undefined"):
            fast()
        return None
    got = fast()
    assert got == want
    return got


@pytest.mark.parametrize("version, lam", CONFIGS, ids=IDS)
def test_resampler_and_swapper_equal_the_loops_on_the_fixtures(version, lam):
    metric = GleuMetric(**options(version, lam))  # type: ignore[arg-type]
    check_fast(metric, score(metric, GOLD, SYSTEMS), 20, random.Random(5))


@pytest.mark.parametrize("seed", range(8))
def test_resampler_and_swapper_equal_the_loops_on_random_gold(tmp_path, seed):
    rng = random.Random(100 + seed)
    text, hyps = random_gold(rng, rng.randint(1, 40))
    gold = tmp_path / "gold.m2"
    gold.write_text(text)
    paths = []
    for k, lines in enumerate(hyps):
        paths.append(tmp_path / f"h{k}.txt")
        paths[-1].write_text("\n".join(lines) + "\n")
    for version, lam in CONFIGS:
        for mixed in (False, True):
            metric = GleuMetric(**options(version, lam), mixed=mixed)  # type: ignore[arg-type]
            stats = score(metric, gold, paths)
            check_fast(metric, stats, 6, rng)


def test_resampler_edge_cases():
    # one reference per sentence: one iteration; two identical references: 500 equal ones
    metric = GleuMetric(iterations=40)
    one = [((3, 3, 2, 3, 1, 2, 0, 1, 0, 0),), ((4, 5, 3, 4, 2, 3, 1, 2, 1, 1),)]
    twin = [(s[0], s[0]) for s in one]
    zeros = [((0, 2, 0, 0, 0, 0, 0, 0, 0, 0), (0, 3, 0, 0, 0, 0, 0, 0, 0, 0))] * 2
    vary = [((3, 3, 2, 3, 1, 2, 1, 1, 1, 1), (3, 4, 3, 3, 2, 2, 1, 1, 1, 1)),
            ((4, 5, 3, 4, 2, 3, 1, 2, 1, 1), (4, 2, 1, 4, 1, 3, 1, 2, 1, 1))]
    # the last rows' totals pass 2**24: sums in double precision, not single
    rows = [[1, 1], [2, 0], [0, 2], [0, 0], [100_000, 3], [2**20, 2**21], [2**23, 2**23 + 1]]
    # not GLEU+'s (a denominator that depends on the reference): the general path
    odd = [((3, 3, 2, 3, 1, 2, 1, 1, 1, 1), (3, 4, 3, 4, 2, 2, 1, 1, 1, 1))] * 2
    for stats in (one, twin, zeros, twin + zeros, one + twin, vary, vary + zeros + one, odd):
        rows_n = [r + [1] * (len(stats) - 2) for r in rows]
        assert metric.resampler(stats).scores(rows_n) == _Looping(metric, stats).scores(rows_n)
    assert metric.corpus(one).counts == {"iterations": 1}
    assert metric.corpus(twin).counts == {"iterations": 40}
    empty = metric.resampler([]).scores([[]])
    assert empty == [metric.corpus([]).values]


def test_resampler_refuses_what_2015_refuses():
    metric = GleuMetric(version="2015", lam=1.0)
    stats = [(3, 3, -1.0, 2, 1.0, 1, 1.0, 1, 1.0, 1)]
    with pytest.raises(GecFormatError, match="undefined"):
        metric.corpus(stats)
    with pytest.raises(GecFormatError, match="undefined"):
        metric.resampler(stats).scores([[1]])


# ================================================================== ../shared: CoNLL-2014

CONLL = "corpora/conll14"
COMBINED = f"{CONLL}/conll14st-test-data/noalt/official-2014.combined.m2"
NAMES = "AMU CAMB CUUI IITB INPUT IPN NTHU PKU POST RAC SJTU UFC UMC".split()


@functools.lru_cache(maxsize=None)
def conll(version: str, lam: float | None) -> tuple[GleuMetric, list[list]]:
    metric = GleuMetric(version=version, lam=lam)
    hyps = [shared_file(f"{CONLL}/official_submissions/{s}") for s in NAMES]
    return metric, score(metric, shared_file(COMBINED), hyps)


@pytest.mark.parametrize("version, lam", CONFIGS, ids=IDS)
def test_conll14_combined_gold_equals_gleu_files(version, lam):
    metric, stats = conll(version, lam)
    hyps = [shared_file(f"{CONLL}/official_submissions/{s}") for s in NAMES]
    run = gleu_files(None, hyps, gold=[shared_file(COMBINED)], version=version, lam=lam)
    assert [metric.corpus(s).values[0] for s in stats] == [r.score for r in run.results]
    assert metric.signature() + "|" + gold_field(shared_file(COMBINED)) == str(run.signature)
    assert metric.warnings() == list(run.notes) and "88 references" in run.notes[0]
    if version == "plus":
        assert "%f" % metric.corpus(stats[0]).values[0] == "0.583256"  # AMU, as the original


@pytest.mark.parametrize("version, lam", [("plus", None), ("plus-2016", None), ("2015", 0.1),
                                          ("2016", 0.0)])
def test_conll14_resampler_and_swapper(version, lam):
    metric, stats = conll(version, lam)
    check_fast(metric, stats[:3], 2, random.Random(9))
    n = len(stats[0])
    rng = random.Random(1)
    weights = [[0] * n for _ in range(40)]
    for row in weights:
        for _ in range(n):
            row[rng.randrange(n)] += 1
    fast = metric.resampler(stats[0]).scores(weights)
    assert fast[:2] == [metric.corpus(stats[0], w).values for w in weights[:2]]
    assert len({v for v, in fast}) > 30  # resamples differ
