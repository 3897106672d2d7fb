"""gecformats.metrics.errant.ErrantMetric: ERRANT as a metric of the one interface.

The metric's corpus step must give what :func:`compare`/:func:`errant_files` give (and so
what ``errant_compare`` prints: tests/test_errant.py, and ERRANT's own numbers on the
CoNLL-2014 systems in ../shared/reference/errant); with weights, what :func:`errant_files`
gives on the expanded corpus written as files (sentence i written weights[i] times in
place): the brute-force oracle of a bootstrap resample.
"""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from maxmatch import split_hypothesis

from conftest import shared_file
from gecformats.errors import GecFormatError
from gecformats.formats import m2
from gecformats.metrics.base import Hypothesis, Totals
from gecformats.metrics.errant import MODES, ErrantMetric, _choose, _fixed, compare, errant_files
from gecformats.metrics.score import read_hypothesis
from test_errant import EXPECTED, HYP, NUCLE, REF, TEXT, options


def stats_of(metric: ErrantMetric, hyp: list, gold: list) -> list:
    """What the pipeline does: prepare each gold sentence, then the hypothesis' sentence."""
    return [metric.sentence(metric.prepare(g), Hypothesis((), "", h)) for h, g in zip(hyp, gold)]


def text_stats(metric: ErrantMetric, path: Path, gold: list) -> list:
    lines = [line for _, line in read_hypothesis(path)]
    return [metric.sentence(metric.prepare(g), Hypothesis(tuple(split_hypothesis(line)), line))
            for line, g in zip(lines, gold, strict=True)]


def blocks(text: str) -> list[str]:
    """The M2 blocks of ``text`` (each ending in a blank line)."""
    return [b.strip("\n") + "\n\n" for b in text.split("\n\n") if b.strip()]


def expanded(text: str, weights: list[int]) -> str:
    """The M2 file of the resampled corpus: block i written weights[i] times in place."""
    return "".join(b * w for b, w in zip(blocks(text), weights, strict=True))


def plain(totals: Totals) -> tuple:
    c = totals.counts
    return c["tp"], c["fp"], c["fn"], totals.values


# ------------------------------------------------------------------ the class


def test_class_attributes():
    assert (ErrantMetric.name, ErrantMetric.label, ErrantMetric.columns, ErrantMetric.main) == \
        ("errant", "ERRANT", ("precision", "recall", "f"), "f")
    assert ErrantMetric.options == {"beta", "errant-mode", "single", "multi", "filter", "cat",
                                    "extractor", "spacy-model"}
    assert ErrantMetric.needs_edits


@pytest.mark.parametrize("kwargs, words", [
    ({"mode": "detection"}, "unknown ERRANT mode 'detection' (known: cs, cse, ds, dt)"),
    ({"single": True, "multi": True}, "single and multi exclude each other"),
    ({"beta": 0}, "beta must be a finite number > 0"),
    ({"beta": float("nan")}, "beta must be a finite number > 0"),
    ({"cat": 4}, "the category level is 1, 2 or 3"),
])
def test_options_are_validated(kwargs, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        ErrantMetric(**kwargs)


def test_signature_is_todays():
    metric = ErrantMetric(beta=1, mode="ds", single=True, filter=["UNK", "M:DET"])
    result = compare(m2.parse(HYP), m2.parse(REF), beta=1, mode="ds", single=True,
                     filter=["UNK", "M:DET"])
    assert metric.signature().startswith("metric:errant|mode:ds|beta:1|single|filter:M:DET,UNK|gecformats:")
    assert metric.signature("m2") == result.signature
    totals = metric.corpus(stats_of(metric, m2.parse(HYP), m2.parse(REF)))
    assert totals.extra["signature"] == result.signature and totals.extra["hyp"] == "m2"


# ------------------------------------------------------------------ equal to errant_compare


@pytest.mark.parametrize("flags", sorted(EXPECTED))
def test_corpus_is_compare_on_the_fixture(flags):
    kwargs, cat = options(flags)
    result = compare(m2.parse(HYP), m2.parse(REF), **kwargs)
    metric = ErrantMetric(cat=cat, **kwargs)
    totals = metric.corpus(stats_of(metric, m2.parse(HYP), m2.parse(REF)), choices=True)
    assert plain(totals) == (result.tp, result.fp, result.fn, result.scores)
    assert totals.extra["type_problem"] is None and not totals.extra["extracted"]
    if cat:
        assert totals.extra["categories"] == result.categories_at(cat)
    else:
        assert "categories" not in totals.extra
    # the per-sentence fields of the choices add up to the corpus counts
    stats = stats_of(metric, m2.parse(HYP), m2.parse(REF))
    fields = [metric.sentence_fields(s, c) for s, c in zip(stats, totals.choices)]
    assert len(totals.choices) == 4
    assert [sum(f[k] for f in fields) for k in ("tp", "fp", "fn")] == [result.tp, result.fp, result.fn]


def test_sentence_fields_name_the_pair():
    metric = ErrantMetric()
    stats = stats_of(metric, m2.parse(HYP), m2.parse(REF))
    assert stats[0][2:4] == ((0,), (0, 1))  # one hypothesis annotator, two references
    choices = metric.corpus(stats, choices=True).choices
    # sentence 1: annotator 1 of the reference has both of the hypothesis' edits
    assert choices[0] == 1
    assert metric.sentence_fields(stats[0], 1) == {"tp": 2, "fp": 0, "fn": 0,
                                                   "hyp_annotator": 0, "ref_annotator": 1}


def test_the_choice_breaks_ties_as_errant():
    """ERRANT's rule, hand-derived: the best F (rounded to 4 places) of the totals with the
    candidate, then more TP, fewer FP, fewer FN, then the first."""
    big = 100_000  # P and R of the totals round alike with one FP or FN more
    assert _choose([(0, 0, 0, ()), (1, 0, 0, ())], 0, 0, 0, 0.5) == 1  # F 1.0 both
    assert _choose([(0, 1, 0, ()), (0, 0, 0, ())], big, big, big, 0.5) == 1
    assert _choose([(0, 0, 1, ()), (0, 0, 0, ())], big, big, big, 0.5) == 1
    assert _choose([(0, 0, 0, ()), (0, 0, 0, ())], big, big, big, 0.5) == 0
    assert _choose([(0, 0, 0, ()), (3, 0, 0, ())], 1, 5, 1, 0.5) == 1  # a better F


counts = st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3), st.just(()))


@settings(max_examples=500, deadline=None)
@given(st.lists(counts, min_size=1, max_size=6), st.integers(0, 40), st.integers(0, 40),
       st.integers(0, 40), st.sampled_from([0.5, 1.0, 2.0]))
def test_a_fixed_choice_is_the_choice_whatever_the_totals(candidates, tp, fp, fn, beta):
    fixed = _fixed(candidates)
    if fixed >= 0:
        assert _choose(candidates, tp, fp, fn, beta) == fixed
    if len(candidates) == 1 or len(set(candidates)) == 1:
        assert fixed == 0


def test_a_tie_on_f_goes_to_more_true_positives_on_files():
    """Sentence 2's pairs, with the totals (1, 1, 1) of sentence 1: noop/noop (0, 0, 0)
    and the last pair (1, 1, 1) both give F 0.5; ERRANT keeps the one with more TP."""
    gold = ("S a b c\nA 0 1|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\n"
            "A 1 2|||R:NOUN|||y|||REQUIRED|||-NONE-|||0\n\n"
            "S a b c\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
            "A 0 1|||R:NOUN|||x|||REQUIRED|||-NONE-|||1\n"
            "A 1 2|||R:NOUN|||y|||REQUIRED|||-NONE-|||1\n")
    hyp = ("S a b c\nA 0 1|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\n"
           "A 2 3|||R:NOUN|||z|||REQUIRED|||-NONE-|||0\n\n"
           "S a b c\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
           "A 0 1|||R:NOUN|||x|||REQUIRED|||-NONE-|||1\n"
           "A 2 3|||R:NOUN|||z|||REQUIRED|||-NONE-|||1\n")
    metric = ErrantMetric()
    stats = stats_of(metric, m2.parse(hyp), m2.parse(gold))
    assert [c[:3] for c in stats[1][0]] == [(0, 0, 0), (0, 0, 2), (0, 2, 0), (1, 1, 1)]
    totals = metric.corpus(stats, choices=True)
    assert plain(totals)[:3] == (2, 2, 2) and totals.choices == (0, 3)
    result = compare(m2.parse(hyp), m2.parse(gold))
    assert (result.tp, result.fp, result.fn) == (2, 2, 2)


def test_the_stats_are_small_plain_and_picklable():
    metric = ErrantMetric(cat=3, mode="dt")
    gold = m2.parse(REF)
    prepared = [metric.prepare(g) for g in gold]
    stats = stats_of(metric, m2.parse(HYP), gold)

    def is_plain(value) -> bool:
        if isinstance(value, tuple):
            return all(is_plain(v) for v in value)
        return isinstance(value, (int, str))

    assert all(is_plain(s) for s in stats)
    assert pickle.loads(pickle.dumps(stats)) == stats
    assert pickle.loads(pickle.dumps(prepared)) == prepared
    copy = pickle.loads(pickle.dumps(metric))
    assert copy.corpus(stats) == metric.corpus(stats)
    # without --cat, no per-type counts are carried
    assert all(c[3] == () for s in stats_of(ErrantMetric(), m2.parse(HYP), gold) for c in s[0])


def test_a_different_source_is_refused_without_a_file():
    metric = ErrantMetric()
    other = m2.parse("S Something else .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n")[0]
    with pytest.raises(GecFormatError) as caught:
        metric.sentence(metric.prepare(m2.parse(REF)[0]), Hypothesis((), "", other))
    assert caught.value.file is None
    assert caught.value.message.startswith("the hypothesis source differs from the gold's: token 1")


@pytest.mark.parametrize("hyp, args, side, start", [
    (HYP, {"mode": "cse"}, 1, "--errant-mode cse compares the types of both sides"),
    (HYP, {"cat": 1}, 1, "--cat 1 groups the types by ERRANT's operation"),
    (HYP, {"mode": "cse", "cat": 2}, 1, "--errant-mode cse compares"),  # cse first, as today
    (NUCLE, {"cat": 2}, 1, "--cat 2 groups"),
    (NUCLE, {"mode": "cse", "cat": 3}, None, None),
])
def test_type_problems_as_today(hyp, args, side, start):
    metric = ErrantMetric(**args)
    extra = metric.corpus(stats_of(metric, m2.parse(hyp), m2.parse(NUCLE))).extra
    if side is None:
        assert extra["type_problem"] is None
    else:
        message, blamed = extra["type_problem"]
        assert blamed == side and message.startswith(start)
        assert extra["kinds"][1]["other"] == ("SVA", 1)


def test_a_text_hypothesis_is_extracted(tmp_path):
    path = tmp_path / "hyp.txt"
    path.write_text(TEXT, encoding="utf-8")
    ref = tmp_path / "ref.m2"
    ref.write_text(REF, encoding="utf-8")
    result = errant_files(str(path), str(ref))
    metric = ErrantMetric(cat=1)
    stats = text_stats(metric, path, m2.parse(REF))
    totals = metric.corpus(stats)
    assert plain(totals) == (result.tp, result.fp, result.fn, result.scores) == (4, 3, 4, (0.5714, 0.5, 0.5556))
    assert totals.extra["extracted"] and totals.extra["hyp"] == "extracted-lcs"
    assert totals.extra["signature"] == result.signature
    assert totals.extra["categories"] == result.categories_at(1)
    assert all(s[6] and s[4] == () for s in stats)
    problem = ErrantMetric(cat=2).corpus(text_stats(ErrantMetric(cat=2), path, m2.parse(REF)))
    assert problem.extra["type_problem"] == result.type_problem(2)


# ------------------------------------------------------------------ weights: the oracle


def test_weights_are_the_expanded_corpus_on_the_fixture(tmp_path):
    rng = random.Random(7)
    for trial in range(40):
        weights = [rng.randint(0, 3) for _ in range(4)]
        kwargs, cat = options(rng.choice(sorted(EXPECTED)))
        metric = ErrantMetric(cat=cat, **kwargs)
        stats = stats_of(metric, m2.parse(HYP), m2.parse(REF))
        hyp, ref = tmp_path / "hyp.m2", tmp_path / "ref.m2"
        hyp.write_text(expanded(HYP, weights), encoding="utf-8")
        ref.write_text(expanded(REF, weights), encoding="utf-8")
        if not any(weights):
            totals = metric.corpus(stats, weights)
            assert plain(totals)[:3] == (0, 0, 0)
            continue
        result = errant_files(str(hyp), str(ref), **kwargs)
        totals = metric.corpus(stats, weights)
        assert plain(totals) == (result.tp, result.fp, result.fn, result.scores), (weights, kwargs)
        if cat:
            assert totals.extra["categories"] == result.categories_at(cat)


def test_weights_of_ones_are_the_corpus():
    metric = ErrantMetric(cat=2)
    stats = stats_of(metric, m2.parse(HYP), m2.parse(REF))
    one, corpus = metric.corpus(stats, [1] * 4), metric.corpus(stats)
    assert plain(one) == plain(corpus) and one.extra["categories"] == corpus.extra["categories"]
    assert "type_problem" not in one.extra  # the corpus-level checks are made on the corpus
    with pytest.raises(ValueError, match="without weights"):
        metric.corpus(stats, [1] * 4, choices=True)
    with pytest.raises(ValueError, match="negative"):
        metric.corpus(stats, [1, -1, 1, 1])


def test_the_default_resampler_and_swapper():
    metric = ErrantMetric()
    a = stats_of(metric, m2.parse(HYP), m2.parse(REF))
    b = stats_of(metric, m2.parse(REF), m2.parse(REF))
    rows = [[1, 0, 2, 1], [0, 0, 0, 4]]
    def rows_of(values):
        return [tuple(map(float, v)) for v in values]
    assert rows_of(metric.resampler(a).scores(rows)) == [metric.corpus(a, r).values for r in rows]
    xs, ys = metric.swapper(a, b).scores([[0, 0, 0, 0], [1, 1, 1, 1]])
    xs, ys = rows_of(xs), rows_of(ys)
    assert xs == [metric.corpus(a).values, metric.corpus(b).values] and ys == xs[::-1]


TYPES = ["R:NOUN", "M:DET", "U:DET", "R:VERB:SVA", "UNK"]
WORDS = ["a", "the", "b c", "x"]


@st.composite
def m2_pair(draw):
    """A small gold and a hypothesis M2 text on the same sources (1-4 annotators each)."""
    gold, hyp = [], []
    for _ in range(draw(st.integers(1, 5))):
        n = draw(st.integers(1, 5))
        source = "S " + " ".join(f"w{i}" for i in range(n))
        sides = []
        for most in (3, 2):
            lines = []
            for coder in range(draw(st.integers(1, most))):
                edits = draw(st.lists(st.tuples(st.integers(0, n), st.integers(0, 2),
                                                st.sampled_from(TYPES), st.sampled_from(WORDS + [""])),
                                      max_size=3))
                if not edits:
                    lines.append(f"A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{coder}")
                for start, length, etype, cor in edits:
                    end = min(n, start + length)
                    cor = cor or ("x" if start == end else "")
                    lines.append(f"A {start} {end}|||{etype}|||{cor}|||REQUIRED|||-NONE-|||{coder}")
            sides.append("\n".join([source, *lines]) + "\n\n")
        gold.append(sides[0])
        hyp.append(sides[1])
    return "".join(hyp), "".join(gold)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(m2_pair(), st.data())
def test_weights_are_the_expanded_corpus_property(pair, data):
    hyp_text, gold_text = pair
    n = len(blocks(gold_text))
    weights = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    mode = data.draw(st.sampled_from(MODES))
    beta = data.draw(st.sampled_from([0.5, 1.0, 2.0]))
    metric = ErrantMetric(beta=beta, mode=mode, cat=3)
    stats = stats_of(metric, m2.parse(hyp_text), m2.parse(gold_text))
    assert pickle.loads(pickle.dumps(stats)) == stats
    totals = metric.corpus(stats, weights)
    if not any(weights):
        assert plain(totals)[:3] == (0, 0, 0)
        return
    try:
        result = compare(m2.parse(expanded(hyp_text, weights)), m2.parse(expanded(gold_text, weights)),
                         beta=beta, mode=mode)
    except GecFormatError:  # cse on types of two schemes: refused, the counts are still equal
        return
    assert plain(totals) == (result.tp, result.fp, result.fn, result.scores)
    assert totals.extra["categories"] == result.categories


# ------------------------------------------------------------------ real data

ERRANT = "reference/errant"


def _errant_numbers() -> dict[str, tuple[int, int, int, float, float, float]]:
    rows = shared_file(f"{ERRANT}/errant_compare_default.tsv").read_text().splitlines()[1:]
    return {r.split("\t")[0]: tuple(int(x) if i < 3 else float(x)
                                    for i, x in enumerate(r.split("\t")[1:])) for r in rows}


@pytest.mark.shared(ERRANT)
def test_conll14_systems_are_errants_numbers():
    """The 13 CoNLL-2014 systems' M2 files (errant_parallel) against ref.m2: the metric's
    corpus step, errant_files and errant_compare (the TSV) agree, count for count."""
    expected = _errant_numbers()
    ref = shared_file(f"{ERRANT}/ref.m2")
    gold = list(m2.read(ref))
    metric = ErrantMetric()
    prepared = [metric.prepare(g) for g in gold]
    for system, numbers in expected.items():
        path = shared_file(f"{ERRANT}/hyp/{system}.m2")
        stats = [metric.sentence(p, Hypothesis((), "", h)) for p, h in zip(prepared, m2.read(path))]
        totals = metric.corpus(stats)
        assert (*plain(totals)[:3], *totals.values) == numbers, system
        if system in ("AMU", "CAMB"):
            result = errant_files(str(path), str(ref))
            assert (result.tp, result.fp, result.fn, *result.scores) == numbers


@pytest.mark.shared(ERRANT)
def test_conll14_weights_are_the_expanded_corpus(tmp_path):
    """A bootstrap-like resample of 300 CoNLL-2014 sentences (two reference annotators,
    so the choice depends on the running totals), written as files and scored."""
    ref_text = shared_file(f"{ERRANT}/ref.m2").read_text(encoding="utf-8")
    hyp_text = shared_file(f"{ERRANT}/hyp/CAMB.m2").read_text(encoding="utf-8")
    ref_blocks, hyp_blocks = blocks(ref_text)[:300], blocks(hyp_text)[:300]
    metric = ErrantMetric(cat=3)
    stats = stats_of(metric, m2.parse("".join(hyp_blocks)), m2.parse("".join(ref_blocks)))
    assert sum(s[1] < 0 for s in stats) > 20  # choices that depend on the totals
    rng = random.Random(2014)
    for trial in range(3):
        weights = [rng.choice([0, 0, 1, 1, 1, 2, 2, 3, 5]) for _ in stats]
        hyp, ref = tmp_path / "hyp.m2", tmp_path / "ref.m2"
        hyp.write_text(expanded("".join(hyp_blocks), weights), encoding="utf-8")
        ref.write_text(expanded("".join(ref_blocks), weights), encoding="utf-8")
        result = errant_files(str(hyp), str(ref))
        totals = metric.corpus(stats, weights)
        assert plain(totals) == (result.tp, result.fp, result.fn, result.scores)
        assert totals.extra["categories"] == result.categories


@pytest.mark.shared("corpora/conll14/official_submissions/AMU")
def test_conll14_amu_text_is_extracted_as_errant_files_does():
    gold_path = shared_file("corpora/conll14/conll14st-test-data/noalt/official-2014.combined.m2")
    hyp = shared_file("corpora/conll14/official_submissions/AMU")
    metric = ErrantMetric()
    totals = metric.corpus(text_stats(metric, hyp, list(m2.read(gold_path))))
    assert (*plain(totals)[:3], totals.values[2]) == (438, 774, 1884, 0.3054)
    assert totals.extra["extracted"] and "|hyp:extracted-lcs|" in totals.extra["signature"]
