"""GLEU (`gecformats.metrics.gleu`, `gecformats gleu`): all four versions of cnap/gec-ranking.

The oracle below is written from ``../shared/spec/formats.md`` §11 alone, as naively as
possible (``Counter`` arithmetic, Python floats, sequential sums), and compared with
:mod:`gecformats.metrics.gleu` on random corpora; the reference code's own outputs over the 13
CoNLL-2014 systems (``../shared/corpora/gec-ranking/reference_outputs``) are reproduced
digit for digit when ``../shared`` is there.
"""

from __future__ import annotations

import functools
import gzip
import json
import math
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from conftest import FIXTURES, shared_file
from gecformats import __version__
from gecformats.cli import app
from gecformats.errors import GecFormatError
from gecformats.metrics.gleu import (Run, Scorer, Spread, _pairwise_sum, gleu, gleu_files, spread,
                             tokens)

# its tests share costly module state (a fixture or a cache): one xdist worker runs them all
pytestmark = pytest.mark.xdist_group("gleu")

GLEU = FIXTURES / "gleu"
SOURCE = GLEU / "source.txt"
REFS = [GLEU / "ref0.txt", GLEU / "ref1.txt"]
GOLD = GLEU / "gold.m2"
SYSTEM_A, SYSTEM_B, UNCHANGED = GLEU / "system-a.txt", GLEU / "system-b.txt", GLEU / "unchanged.txt"
VERSIONS = ["2015", "2016", "plus", "plus-2016"]
Z95 = 1.959963984540054


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)


# ================================================================== the oracle (spec §11)


def ngrams(toks: list[str], n: int) -> Counter:
    return Counter(tuple(toks[i:i + n]) for i in range(len(toks) + 1 - n))


def size(c: Counter) -> int:
    return sum(c.values())


class Undefined(Exception):
    """A negative summed 2015 numerator and no zero statistic: the reference code crashes."""


def corpus_gleu(stats: list[float], bp: float) -> float:
    """0 if any summed statistic is 0, else BP · exp(¼ Σ log(num/den))."""
    if any(x == 0 for x in stats):
        return 0.0
    total = 0.0
    for x, y in zip(stats[2::2], stats[3::2]):
        total = total + math.log(x / y)
    return bp * math.exp(total / 4)


def add(totals: list[float], row: list[float]) -> list[float]:
    return [a + b for a, b in zip(totals, row)]


def row_2015(src: str, refs: list[str], hyp: str, lam: float, order: int) -> list[float]:
    s_t, h_t, r_ts = src.split(), hyp.split(), [r.split() for r in refs]
    hlen = len(h_t)
    row: list[float] = [hlen, hlen]  # §11.1: the closest-length loop never moves rlen off hlen
    for n in range(1, order + 1):
        h, s = ngrams(h_t, n), ngrams(s_t, n)
        r = Counter()
        for ref in r_ts:
            r = r | ngrams(ref, n)  # per n-gram maximum over the references
        r_s, s_r = r - s, s - r  # multiset differences, positive parts
        row.append(size(h & r_s) + size(h & r) - lam * size(h & s_r))
        row.append(size(r_s) + max(hlen + 1 - n, 0))
    return row


def oracle_2015(source, references, hypotheses, lam=0.0, order=4):
    """Per hypothesis ``(score, negative)``; raises Undefined where the reference crashes.
    ``negative``: a negative summed numerator that the zero rule turned into 0."""
    out = []
    for hyp in hypotheses:
        totals = [0] * (2 * order + 2)
        for src, refs, h in zip(source, references, hyp):
            totals = add(totals, row_2015(src, refs, h, lam, order))
        negative = any(x < 0 for x in totals[2::2])
        if any(x == 0 for x in totals):
            out.append((0.0, negative))
        elif negative:
            raise Undefined
        else:
            out.append((corpus_gleu(totals, 1.0), False))  # BP always 1
    return out


def row_2016(src: str, refs: list[str], hyp: str, lam: float) -> list[float]:
    s_t, h_t, r_ts = src.split(), hyp.split(), [r.split() for r in refs]
    hlen = len(h_t)
    rlen = len(r_ts[0])
    for ref in r_ts[1:]:
        if abs(len(ref) - hlen) < abs(rlen - hlen):
            rlen = len(ref)
    row: list[float] = [hlen, rlen]
    for n in range(1, 5):
        h, s = ngrams(h_t, n), ngrams(s_t, n)
        r = Counter()
        for ref in r_ts:
            r = r | ngrams(ref, n)
        r_s = Counter({g: c for g, c in r.items() if g not in s})
        s_r = Counter({g: c for g, c in s.items() if g not in r})
        a = size(h & r_s)
        row.append(a + max(size(h & r) - lam * size(h & s_r), 0))
        row.append(a + max(hlen + 1 - n, 0))
    return row


def gleu_2016_stats(stats: list[float]) -> float:
    hlen, rlen = stats[0], stats[1]
    if any(x == 0 for x in stats):
        return 0.0
    return corpus_gleu(stats, math.exp(min(0.0, 1 - hlen / rlen)))  # penalises LONG output


def oracle_2016(source, references, hypotheses, lam=0.0):
    """Per hypothesis ``(score, sentence scores)``."""
    out = []
    for hyp in hypotheses:
        totals = [0] * 10
        sentences = []
        for src, refs, h in zip(source, references, hyp):
            row = row_2016(src, refs, h, lam)
            sentences.append(gleu_2016_stats(row))
            totals = add(totals, row)
        out.append((gleu_2016_stats(totals), sentences))
    return out


def row_plus(src: str, ref: str, hyp: str) -> list[int]:
    s_t, h_t, r_t = src.split(), hyp.split(), ref.split()
    hlen = len(h_t)
    row = [hlen, len(r_t)]
    for n in range(1, 5):
        h, s, r = ngrams(h_t, n), ngrams(s_t, n), ngrams(r_t, n)
        s_r = Counter({g: c for g, c in s.items() if g not in r})  # full source counts
        row.append(max(size(h & r) - size(h & s_r), 0))
        row.append(max(hlen + 1 - n, 0))
    return row


def gleu_plus_stats(stats: list[float], version: str, smooth: bool = False) -> float:
    if smooth:
        stats = [x if x != 0 else 1 for x in stats]
    if any(x == 0 for x in stats):
        return 0.0
    c, r = stats[0], stats[1]
    bp = 1 - r / c if version == "plus" else 1 - c / r  # plus-2016: the swapped lengths
    return corpus_gleu(stats, math.exp(min(0.0, bp)))


def population(values: list[float]) -> tuple[float, float]:
    mean = sum(values) / len(values)
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


def oracle_plus(source, references, hypotheses, iterations=500, version="plus"):
    """Per hypothesis ``(mean, std, sentence (mean, std) over references)``."""
    if max(len(refs) for refs in references) == 1:
        iterations = 1
    draws = []
    for j in range(iterations):
        rng = random.Random(j * 101)
        draws.append([int(rng.random() * len(refs)) for refs in references])
    out = []
    for hyp in hypotheses:
        scores = []
        for ks in draws:
            totals = [0] * 10
            for src, refs, h, k in zip(source, references, hyp, ks):
                totals = add(totals, row_plus(src, refs[k], h))
            scores.append(gleu_plus_stats(totals, version))
        sentences = [population([gleu_plus_stats(row_plus(src, r, h), version, smooth=True)
                                 for r in refs])
                     for src, refs, h in zip(source, references, hyp)]
        out.append((*population(scores), sentences))
    return out


# ------------------------------------------------------------------ random corpora

VOCAB = ["a", "b", "c", "d", "."]
sentence = st.lists(st.sampled_from(VOCAB), min_size=0, max_size=8).map(" ".join)


@st.composite
def edited(draw, base: str) -> str:
    """``base`` with up to two tokens replaced, deleted or inserted."""
    toks = base.split()
    for _ in range(draw(st.integers(0, 2))):
        where = draw(st.integers(0, len(toks)))
        what = draw(st.sampled_from(["replace", "delete", "insert"]))
        if what == "insert" or where == len(toks):
            toks.insert(where, draw(st.sampled_from(VOCAB)))
        elif what == "replace":
            toks[where] = draw(st.sampled_from(VOCAB))
        else:
            del toks[where]
    return " ".join(toks)


@st.composite
def corpora(draw):
    """1–6 sentences, 1–3 references each, 1–3 hypotheses; references and hypotheses are
    mostly copies of the source or a reference with a few edits, so that n-grams overlap."""
    count = draw(st.integers(1, 6))
    source = [draw(sentence) for _ in range(count)]
    references = []
    for src in source:
        nrefs = draw(st.integers(1, 3))
        references.append([draw(st.one_of(edited(src), sentence)) for _ in range(nrefs)])
    hypotheses = [[draw(st.one_of(st.sampled_from([src, *refs]).flatmap(edited), sentence))
                   for src, refs in zip(source, references)]
                  for _ in range(draw(st.integers(1, 3)))]
    return source, references, hypotheses


@settings(max_examples=100, deadline=None)
@given(corpora(), st.sampled_from([0.0, 0.1, 0.5]), st.sampled_from([4, 4, 1, 2, 3, 5]),
       st.booleans())
def test_2015_matches_oracle(corpus, lam, order, sentence_level):
    source, references, hypotheses = corpus
    sentence_level = sentence_level and lam == 0  # 2015 has no -d; λ > 0 may crash per sentence
    try:
        expected = oracle_2015(source, references, hypotheses, lam, order)
    except Undefined:
        with pytest.raises(ValueError, match="λ"):
            gleu(source, references, hypotheses, version="2015", lam=lam, order=order)
        event("undefined (negative numerator)")
        return
    if any(negative for _, negative in expected):
        # spec: 0 (a zero statistic wins); gleu.py raises: test_2015_zero_wins_over_negative
        event("disputed: zero and negative numerator")
        return
    run = gleu(source, references, hypotheses, version="2015", lam=lam, order=order,
               sentence_level=sentence_level)
    assert [r.sentences for r in run.results] == [len(source)] * len(hypotheses)
    for result, (score, _) in zip(run.results, expected):
        event("zero" if score == 0 else "positive")
        assert close(result.score, score), (result.score, score)
        assert result.spread is None
    if sentence_level:
        for result, hyp in zip(run.results, hypotheses):
            want = [oracle_2015([s], [r], [[h]], 0.0, order)[0][0]
                    for s, r, h in zip(source, references, hyp)]
            assert all(close(a, b) for a, b in zip(result.sentence_scores, want, strict=True))


@settings(max_examples=100, deadline=None)
@given(corpora(), st.sampled_from([0.0, 0.1, 0.5]), st.booleans())
def test_2016_matches_oracle(corpus, lam, sentence_level):
    source, references, hypotheses = corpus
    run = gleu(source, references, hypotheses, version="2016", lam=lam,
               sentence_level=sentence_level)
    for result, (score, sentences) in zip(run.results, oracle_2016(source, references,
                                                                    hypotheses, lam)):
        event("zero" if score == 0 else "positive")
        assert close(result.score, score), (result.score, score)
        if sentence_level:
            assert all(close(a, b) for a, b in zip(result.sentence_scores, sentences, strict=True))


@pytest.mark.parametrize("version", ["plus", "plus-2016"])
@settings(max_examples=60, deadline=None)
@given(corpus=corpora(), iterations=st.integers(1, 20), sentence_level=st.booleans())
def test_plus_matches_oracle(version, corpus, iterations, sentence_level):
    source, references, hypotheses = corpus
    run = gleu(source, references, hypotheses, version=version, iterations=iterations,
               sentence_level=sentence_level)
    expected = oracle_plus(source, references, hypotheses, iterations, version)
    many = max(len(r) for r in references) > 1
    assert run.signature.iterations == (iterations if many else 1)
    for result, (mean, std, sentences) in zip(run.results, expected):
        event("zero" if mean == 0 else "positive" if std == 0 else "varies over iterations")
        assert close(result.score, mean), (result.score, mean)
        assert result.spread is not None and result.spread.mean == result.score
        assert math.isclose(result.spread.std, std, rel_tol=1e-9, abs_tol=1e-12)
        assert math.isclose(result.spread.low, mean - Z95 * std, rel_tol=1e-9, abs_tol=1e-12)
        assert math.isclose(result.spread.high, mean + Z95 * std, rel_tol=1e-9, abs_tol=1e-12)
        if sentence_level:
            assert len(result.sentence_scores) == len(source)
            for got, (m, s) in zip(result.sentence_scores, sentences):
                assert isinstance(got, Spread)
                assert close(got.mean, m) and math.isclose(got.std, s, rel_tol=1e-9, abs_tol=1e-12)


def test_2015_zero_wins_over_negative():
    # unigram numerator 0 + 0 - 0.5·1 < 0, but the bigram denominator is 0 (hlen = 1)
    run = gleu(["a"], [["b"]], [["a"]], version="2015", lam=0.5)
    assert run.results[0].score == 0.0


def test_2015_negative_numerator_without_zero_is_refused_but_sentence_scores_are_0():
    # every statistic non-zero, the unigram numerator negative: the original crashes in log
    source, refs, hyps = ["a b c d e"], [["x b c d e"]], [["a b c d e"]]
    with pytest.raises(ValueError, match="λ=5"):
        gleu(source, refs, hyps, version="2015", lam=5.0)
    scorer = Scorer(1, version="2015", lam=5.0, sentence_level=True)
    scorer.add(tokens(source[0]), [tokens(refs[0][0])], [tokens(hyps[0][0])])
    assert scorer._per_sentence[0] == [0.0]


def test_oracle_sanity_against_fixture_values():
    # the oracle agrees with the value in gleu.py's docstring (a different computation path)
    src = SOURCE.read_text().splitlines()
    refs = list(zip(*(p.read_text().splitlines() for p in REFS)))
    hyp = SYSTEM_A.read_text().splitlines()
    assert f"{oracle_2015(src, refs, [hyp])[0][0]:.4f}" == "0.7041"
    assert round(oracle_plus(["She have a apple ."], [["She has an apple .",
                                                        "She has the apple ."]],
                             [["She has an apple ."]])[0][0], 4) == 0.484


# ================================================================== units


def test_tokens_split_on_ascii_white_space_only():
    assert tokens("a\u00a0b c\u3000d") == ("a\u00a0b".encode(), "c\u3000d".encode())
    assert tokens("a\rb\tc\x0bd\x0ce\nf  g") == (b"a", b"b", b"c", b"d", b"e", b"f", b"g")
    # Python 3's str.split() would split on these; Python 2's byte strings did not
    assert tokens("a\x1cb\x1fc\u0085d\u2028e") == ("a\x1cb\x1fc\u0085d\u2028e".encode(),)
    assert tokens(b"x \xa0y") == (b"x", b"\xa0y")
    assert tokens("") == () and tokens(" \t\r\n") == ()


def test_non_ascii_white_space_is_part_of_a_token():
    # "a b" with U+00A0 is one token: it matches neither reference token
    nbsp = gleu(["a b c d e"], [["a b c d e"]], [["a\u00a0b c d e"]], version="2016")
    plain = gleu(["a b c d e"], [["a b c d e"]], [["a b c d e"]], version="2016")
    assert plain.results[0].score == 1.0 and nbsp.results[0].score < 1.0


# the brevity penalty: with source = reference, a hypothesis that is a prefix of the reference
# (SHORT) or that extends it (LONG) has n-gram precisions 1 and (1/7)^(1/4) respectively
SHORT = (["a b c d e f g"], [["a b c d e f g"]], [["a b c d e"]])
LONG = (["a b c d e"], [["a b c d e"]], [["a b c d e f g"]])
P_LONG = (5 * 4 * 3 * 2 / (7 * 6 * 5 * 4)) ** 0.25
BP = math.exp(1 - 7 / 5)  # 7 tokens against 5


@pytest.mark.parametrize("version, short, long", [
    ("2015", 1.0, P_LONG),             # no brevity penalty at all
    ("2016", 1.0, P_LONG * BP),        # penalises the LONGER hypothesis
    ("plus", BP, P_LONG),              # BLEU's: penalises the SHORTER one
    ("plus-2016", 1.0, P_LONG * BP),   # swapped like 2016: the LONGER one
])
def test_brevity_penalty_direction(version, short, long):
    assert BP < 1
    assert close(gleu(*SHORT, version=version).results[0].score, short)
    assert close(gleu(*LONG, version=version).results[0].score, long)


def test_2015_short_and_long_hypotheses_get_no_brevity_penalty():
    # hand computation: source "a b c d", reference "a b c d e f" (R∖S = 2 n-grams per order),
    # hypothesis "a b c d": numerators 4 3 2 1, denominators 2+4 2+3 2+2 2+1; BP = 1 although
    # the hypothesis is 2 tokens short
    run = gleu(["a b c d"], [["a b c d e f"]], [["a b c d"]], version="2015")
    assert close(run.results[0].score, (1 / 15) ** 0.25)
    # 40 tokens against a 5-token reference: still no penalty (precisions only)
    run = gleu(["a b c d e"], [["a b c d e"]], [["a b c d e " * 8]], version="2015")
    expected = math.exp(sum(math.log(x / y) for x, y in [(5, 40), (4, 39), (3, 38), (2, 37)]) / 4)
    assert close(run.results[0].score, expected)


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("corpus", [
    (["a b c d"], [["a b c d"]], [[""]]),              # hlen = 0
    (["a b c"], [["a b c"]], [["a b c"]]),             # a 4-gram denominator of 0
    (["a b c d"], [["a b c d"]], [["w x y z"]]),       # every numerator 0
    (["a b c d", ""], [["a b c d", "a b c d"], [""]], [["w x y z", ""]]),
], ids=["empty", "short", "disjoint", "two-sentences"])
def test_any_zero_statistic_gives_zero(version, corpus):
    assert gleu(*corpus, version=version).results[0].score == 0.0


def test_plus_with_one_reference_per_sentence_runs_one_iteration():
    src, hyp = ["a b c d", "b c d a"], [["a b c d", "b c a d"]]
    one = gleu(src, [["a c b d"], ["b c d"]], hyp, iterations=50)
    assert one.signature.iterations == 1 and one.results[0].spread.std == 0.0
    two = gleu(src, [["a c b d"], ["b c d", "b d"]], hyp, iterations=50)
    assert two.signature.iterations == 50
    assert gleu(src, [["a c b d"], ["b c d", "b d"]], hyp).signature.iterations == 500
    assert "iterations:1|" in str(one.signature)


def test_spread_by_hand():
    values = [0.5, 0.25, 0.75, 1.0]
    s = spread(values)
    mean = 2.5 / 4
    std = math.sqrt(((0.5 - mean) ** 2 + (0.25 - mean) ** 2 + (0.75 - mean) ** 2
                     + (1.0 - mean) ** 2) / 4)
    assert (s.mean, s.std) == (mean, std)
    assert close(s.low, mean - Z95 * std) and close(s.high, mean + Z95 * std)
    assert s.to_dict() == {"mean": s.mean, "std": s.std, "ci95": [s.low, s.high]}
    assert spread([0.3]) == Spread(0.3, 0.0, 0.3, 0.3)
    with pytest.raises(ValueError):
        spread([])


def test_pairwise_sum_equals_fsum():
    rng = random.Random(7)
    lengths = [*range(0, 20), 127, 128, 129, 135, 255, 256, 257, 263, 511, 777, 1000]
    lengths += [rng.randrange(1001) for _ in range(30)]
    for n in lengths:
        values = [rng.uniform(-1, 1) for _ in range(n)]
        assert math.isclose(_pairwise_sum(values, 0, n), math.fsum(values), rel_tol=1e-12,
                            abs_tol=1e-12), n
        big = [rng.random() * 10 ** rng.randrange(-5, 3) for _ in range(n)]
        assert math.isclose(_pairwise_sum(big, 0, n), math.fsum(big), rel_tol=1e-12,
                            abs_tol=1e-12), n
        if n > 10:  # an offset into the sequence
            assert math.isclose(_pairwise_sum(values, 3, n - 5), math.fsum(values[3:n - 2]),
                                rel_tol=1e-12, abs_tol=1e-12)
    assert _pairwise_sum([], 0, 0) == 0.0


@pytest.mark.parametrize("options", [
    {"version": "plus", "lam": 0.1},
    {"version": "plus-2016", "lam": 0.0},
    {"version": "2015", "iterations": 10},
    {"version": "2016", "iterations": 10},
    {"version": "2016", "order": 3},
    {"version": "plus", "order": 5},
    {"version": "2015", "order": 0},
    {"version": "2015", "lam": -0.1},
    {"version": "2016", "lam": float("nan")},
    {"version": "2016", "lam": float("inf")},
    {"version": "plus", "iterations": 0},
    {"version": "2017"},
    {"version": "gleu+"},
])
def test_scorer_option_errors(options):
    with pytest.raises(ValueError):
        Scorer(1, **options)
    with pytest.raises(ValueError):
        gleu(["a b"], [["a b"]], [["a b"]], **options)


def test_scorer_accepts_what_it_should():
    assert Scorer(2, version="2015", order=6, lam=2.0).order == 6
    assert Scorer(1, version="2016", lam=0.0).lam == 0.0
    assert Scorer(1).version == "plus" and Scorer(1).iterations == 500


def test_2015_large_lambda_raises_value_error_mentioning_lambda():
    # numerators 4-λ, 3-λ, 2-λ, 1-λ (the unchanged "e" is S∖R), no zero statistic
    args = (["a b c d e"], [["a b c d x"]], [["a b c d e"]])
    assert gleu(*args, version="2015", lam=0.5).results[0].score > 0
    with pytest.raises(ValueError, match="λ"):
        gleu(*args, version="2015", lam=10.0)
    # 2016 clips each numerator at 0 instead of failing (here every one: the score is 0)
    assert gleu(*args, version="2016", lam=10.0).results[0].score == 0.0


def test_misaligned_in_memory_input():
    with pytest.raises(ValueError, match="same number of lines"):
        gleu(["a", "b"], [["a"], ["b"]], [["a"]], version="2015")
    with pytest.raises(ValueError, match="no reference"):
        gleu(["a"], [[]], [["a"]], version="2015")


@pytest.mark.parametrize("version, lam, iterations, present, absent", [
    ("2015", 0.1, None, ["version:2015", "code:24c806a", "n:4", "lambda:0.1"], ["iterations"]),
    ("2015", None, None, ["lambda:0|"], ["iterations"]),
    ("2016", 0.5, None, ["version:2016", "code:6ddf913", "n:4", "lambda:0.5"], ["iterations"]),
    ("plus", None, 7, ["version:plus|", "code:50b5032", "n:4", "iterations:7"], ["lambda"]),
    ("plus-2016", None, 3, ["version:plus-2016", "code:f0e2ee5", "iterations:3"], ["lambda"]),
])
def test_signature(version, lam, iterations, present, absent):
    run = gleu(["a b c", "d e"], [["a b c", "a c"], ["d e", "e"]], [["a b c", "d"]],
               version=version, lam=lam, iterations=iterations)
    text = str(run.signature)
    assert text.startswith("metric:gleu|")
    for part in [*present, "refs:2", "references:text", f"gecformats:{__version__}"]:
        assert part in text, (part, text)
    for part in absent:
        assert part not in text
    settings_ = run.signature.to_dict()
    assert settings_["version"] == version and settings_["refs"] == 2
    assert settings_["lambda"] == (None if version.startswith("plus") else (lam or 0.0))
    assert settings_["iterations"] == iterations


def test_run_to_dict():
    run = gleu(["a b c d", "e f g"], [["a b c x", "a b c d"], ["e f g", "e g"]],
               [["a b c x", "e f"], ["a b c d", "e f g"]], names=["one", "two"], iterations=5)
    data = run.to_dict()
    assert set(data) == {"results", "signature", "settings"}
    assert data["signature"] == str(run.signature)
    assert data["settings"] == run.signature.to_dict()
    assert [r["system"] for r in data["results"]] == ["one", "two"]
    for result, entry in zip(run.results, data["results"]):
        assert entry["hypothesis"] == result.hypothesis
        assert entry["score"] == result.score and entry["sentences"] == 2
        assert entry["std"] == result.spread.std
        assert entry["ci95"] == [result.spread.low, result.spread.high]
        assert "sentence_scores" not in entry
    json.dumps(data)
    plain = gleu(["a b c d"], [["a b c d"]], [["a b c d"]], version="2015").to_dict()
    assert set(plain["results"][0]) == {"hypothesis", "system", "score", "sentences"}
    assert plain["results"][0]["system"] == "1"
    per = gleu(["a b c d"], [["a b c d"]], [["a b c d"]], version="2016",
               sentence_level=True).to_dict()
    assert per["results"][0]["sentence_scores"] == [1.0]


# ================================================================== files


def write(path: Path, data: str | bytes) -> Path:
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


@pytest.mark.parametrize("version", VERSIONS)
def test_reference_files_equal_gold(version):
    hyps = [SYSTEM_A, SYSTEM_B, UNCHANGED]
    from_text = gleu_files(SOURCE, hyps, refs=REFS, version=version)
    from_gold = gleu_files(SOURCE, hyps, gold=[GOLD], version=version)
    assert [r.score for r in from_text.results] == [r.score for r in from_gold.results]
    assert from_gold.signature.references == "annotators" and from_gold.signature.refs == 2
    assert from_text.signature.references == "text"
    assert from_gold.notes == ()
    # the files scored as lines in memory
    src = SOURCE.read_text().splitlines()
    refs = list(zip(*(p.read_text().splitlines() for p in REFS)))
    mem = gleu(src, refs, [p.read_text().splitlines() for p in hyps], version=version)
    assert [r.score for r in mem.results] == [r.score for r in from_text.results]
    assert [r.system for r in from_text.results] == ["system-a.txt", "system-b.txt",
                                                     "unchanged.txt"]
    assert [r.hypothesis for r in from_text.results] == [str(p) for p in hyps]


def test_fixture_values_against_oracle():
    src = SOURCE.read_text().splitlines()
    refs = list(zip(*(p.read_text().splitlines() for p in REFS)))
    hyps = [p.read_text().splitlines() for p in (SYSTEM_A, SYSTEM_B, UNCHANGED)]
    paths = [SYSTEM_A, SYSTEM_B, UNCHANGED]
    for lam in (0.0, 0.1):
        got = gleu_files(SOURCE, paths, refs=REFS, version="2015", lam=lam).results
        assert all(close(r.score, e) for r, (e, _) in zip(got, oracle_2015(src, refs, hyps, lam)))
        got = gleu_files(SOURCE, paths, refs=REFS, version="2016", lam=lam).results
        assert all(close(r.score, e) for r, (e, _) in zip(got, oracle_2016(src, refs, hyps, lam)))
    for version in ("plus", "plus-2016"):
        got = gleu_files(SOURCE, paths, refs=REFS, version=version, iterations=60).results
        assert all(close(r.score, e[0]) for r, e in zip(got, oracle_plus(src, refs, hyps,
                                                                          60, version)))


def test_hypothesis_with_a_line_fewer(tmp_path):
    lines = SYSTEM_A.read_text().splitlines()
    short = write(tmp_path / "short.txt", "\n".join(lines[:-1]) + "\n")
    with pytest.raises(GecFormatError) as info:
        gleu_files(SOURCE, [SYSTEM_A, short], refs=REFS, version="2015")
    assert info.value.file == str(short)
    assert "5 lines" in info.value.message and "6" in info.value.message
    assert str(SOURCE) in info.value.message
    longer = write(tmp_path / "long.txt", "\n".join(lines + ["extra"]) + "\n")
    with pytest.raises(GecFormatError) as info:
        gleu_files(SOURCE, [longer], refs=REFS)
    assert info.value.file == str(longer) and "7 lines" in info.value.message
    with pytest.raises(GecFormatError) as info:  # a reference file too
        gleu_files(SOURCE, [SYSTEM_A], refs=[REFS[0], short], version="2016")
    assert info.value.file == str(short)


def test_gzip_hypothesis(tmp_path):
    packed = tmp_path / "system-a.txt.gz"
    packed.write_bytes(gzip.compress(SYSTEM_A.read_bytes()))
    for version in VERSIONS:
        plain = gleu_files(SOURCE, [SYSTEM_A], refs=REFS, version=version)
        zipped = gleu_files(SOURCE, [packed], refs=REFS, version=version)
        assert zipped.results[0].score == plain.results[0].score
        assert zipped.results[0].system == "system-a.txt.gz"


def test_crlf_line_endings(tmp_path):
    def crlf(path: Path) -> Path:
        return write(tmp_path / path.name, path.read_bytes().replace(b"\n", b"\r\n"))

    src, refs, hyp = crlf(SOURCE), [crlf(p) for p in REFS], crlf(SYSTEM_B)
    for version in VERSIONS:
        plain = gleu_files(SOURCE, [SYSTEM_B], refs=REFS, version=version).results[0].score
        assert gleu_files(SOURCE, [hyp], refs=REFS, version=version).results[0].score == plain
        assert gleu_files(src, [hyp], refs=refs, version=version).results[0].score == plain


def test_lines_split_on_newline_only(tmp_path):
    # a form feed, NEL or U+2028 inside a line is not a line break (bytes split on \n only)
    lines = SYSTEM_A.read_text().splitlines()
    lines[0] = lines[0].replace(" to ", " to\u2028") + "\x0c\u0085"
    odd = write(tmp_path / "odd.txt", "\n".join(lines))  # and no final newline
    run = gleu_files(SOURCE, [odd], refs=REFS, version="2015")
    assert run.results[0].sentences == 6


def test_source_from_gold():
    for version in VERSIONS:
        given_ = gleu_files(SOURCE, [SYSTEM_A, SYSTEM_B], gold=[GOLD], version=version)
        derived = gleu_files(None, [SYSTEM_A, SYSTEM_B], gold=[GOLD], version=version)
        assert [r.score for r in derived.results] == [r.score for r in given_.results]


def test_mixed_references_from_gold():
    run = gleu_files(SOURCE, [SYSTEM_A, SYSTEM_B], gold=[GOLD], mixed=True, version="2016")
    assert run.signature.references == "mixed"
    assert "references:mixed" in str(run.signature)
    assert run.signature.refs >= 2
    assert all(0 < r.score <= 1 for r in run.results)
    plus = gleu_files(None, [SYSTEM_A], gold=[GOLD], mixed=True, iterations=20)
    assert plus.signature.references == "mixed" and 0 < plus.results[0].score <= 1


def test_file_option_errors():
    with pytest.raises(ValueError):
        gleu_files(SOURCE, [SYSTEM_A])  # neither refs nor gold
    with pytest.raises(ValueError):
        gleu_files(SOURCE, [SYSTEM_A], refs=REFS, gold=[GOLD])
    with pytest.raises(ValueError):
        gleu_files(SOURCE, [SYSTEM_A], refs=REFS, mixed=True)
    with pytest.raises(ValueError):
        gleu_files(None, [SYSTEM_A], refs=REFS)
    with pytest.raises(ValueError):
        gleu_files(SOURCE, [SYSTEM_A], gold=[GOLD], absent="nobody")
    with pytest.raises(ValueError):
        gleu_files(SOURCE, [], refs=REFS)
    with pytest.raises(OSError):
        gleu_files(SOURCE, [GLEU / "no-such-file.txt"], refs=REFS)


ABSENT_M2 = """\
S a b c d e
A 0 1|||R:X|||x|||REQUIRED|||-NONE-|||0
A 4 5|||R:X|||y|||REQUIRED|||-NONE-|||1

S f g h i j
A 1 2|||R:X|||z|||REQUIRED|||-NONE-|||0

S k l m n o

"""


def test_absent_annotator(tmp_path):
    gold = write(tmp_path / "absent.m2", ABSENT_M2)
    # sentence 2 left unchanged: with annotator 1 = the source, "g" is no longer S∖R
    hyp = write(tmp_path / "hyp.txt", "x b c d e\nf g h i j\nk l m n o\n")
    source = ["a b c d e", "f g h i j", "k l m n o"]
    hyps = [hyp.read_text().splitlines()]
    for version, lam in (("2015", 0.1), ("2016", 0.1), ("plus", None)):
        as_source = gleu_files(None, [hyp], gold=[gold], version=version, lam=lam)
        want = gleu(source, [["x b c d e", "a b c d y"], ["f z h i j", "f g h i j"],
                             ["k l m n o", "k l m n o"]], hyps, version=version, lam=lam)
        assert as_source.results[0].score == want.results[0].score
        assert len(as_source.notes) == 1
        assert "1 references" in as_source.notes[0] and "the source" in as_source.notes[0]
        assert str(gold) in as_source.notes[0]
        as_first = gleu_files(None, [hyp], gold=[gold], version=version, lam=lam,
                              absent="first")
        want = gleu(source, [["x b c d e", "a b c d y"], ["f z h i j", "f z h i j"],
                             ["k l m n o", "k l m n o"]], hyps, version=version, lam=lam)
        assert as_first.results[0].score == want.results[0].score
        assert len(as_first.notes) == 1 and "first annotator" in as_first.notes[0]
        assert as_first.results[0].score != as_source.results[0].score


def test_sentence_without_a_lines_gives_no_note(tmp_path):
    gold = write(tmp_path / "complete.m2", ABSENT_M2.split("\n\n", 1)[0] + "\n\nS k l m n o\n\n")
    hyp = write(tmp_path / "hyp.txt", "x b c d e\nk l m n o\n")
    for absent in ("source", "first"):
        run = gleu_files(None, [hyp], gold=[gold], version="2015", absent=absent)
        assert run.notes == ()
        want = gleu(["a b c d e", "k l m n o"], [["x b c d e", "a b c d y"],
                                                 ["k l m n o", "k l m n o"]],
                    [hyp.read_text().splitlines()], version="2015")
        assert run.results[0].score == want.results[0].score


# ================================================================== CLI


def cli(*args: object) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["gleu", *(str(a) for a in args)])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


BASE = ("--source", SOURCE, "--ref", REFS[0], "--ref", REFS[1])


@pytest.mark.parametrize("version", VERSIONS)
def test_cli_text(version):
    code, out, _ = cli(*BASE, "--version", version, SYSTEM_A, SYSTEM_B)
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 3
    run = gleu_files(SOURCE, [SYSTEM_A, SYSTEM_B], refs=REFS, version=version)
    assert lines[2] == f"# {run.signature}" and lines[2].startswith("# metric:gleu|")
    for line, result in zip(lines, run.results):
        system, score = line.split("\t")
        assert system == result.system
        if version.startswith("plus"):
            assert re.fullmatch(r"\d\.\d{6}", score) and score == "%f" % result.score
        else:
            assert score == "%.12g" % result.score  # Python 2's str(): 12 significant digits
            assert re.fullmatch(r"0\.\d{1,12}", score) and score != repr(result.score)


def test_cli_ci():
    code, out, _ = cli(*BASE, "--version", "plus", "--ci", SYSTEM_A)
    assert code == 0
    cells = out.splitlines()[0].split("\t")
    assert len(cells) == 4 and cells[0] == "system-a.txt"
    assert re.fullmatch(r"\d\.\d{6}", cells[2]) and re.fullmatch(r"\(-?\d\.\d{3},\d\.\d{3}\)", cells[3])
    code, _, err = cli(*BASE, "--version", "2015", "--ci", SYSTEM_A)
    assert code == 2 and "--ci" in err


def test_cli_json_in_argument_order():
    code, out, _ = cli(*BASE, "--version", "2016", "--lambda", "0.1", "--format", "json",
                       UNCHANGED, SYSTEM_B, SYSTEM_A)
    assert code == 0
    data = json.loads(out)
    assert [r["system"] for r in data["results"]] == ["unchanged.txt", "system-b.txt",
                                                      "system-a.txt"]
    run = gleu_files(SOURCE, [UNCHANGED, SYSTEM_B, SYSTEM_A], refs=REFS, version="2016", lam=0.1)
    assert data == json.loads(json.dumps(run.to_dict()))
    assert data["settings"]["lambda"] == 0.1


def test_cli_sentence_level():
    code, out, _ = cli(*BASE, "--version", "2016", "--sentence-level", SYSTEM_A)
    assert code == 0
    lines = out.splitlines()
    assert [line.split("\t")[:2] for line in lines[:6]] == [["system-a.txt", str(n)]
                                                            for n in range(1, 7)]
    assert lines[6].startswith("system-a.txt\tcorpus\t") and lines[7].startswith("# metric:gleu|")
    code, out, _ = cli(*BASE, "--sentence-level", "--format", "json", "--iterations", "10",
                       SYSTEM_A)
    assert code == 0
    result = json.loads(out)["results"][0]
    assert len(result["sentence_scores"]) == 6
    assert set(result["sentence_scores"][0]) == {"mean", "std", "ci95"}
    code, out, _ = cli(*BASE, "--sentence-level", "--ci", "--iterations", "10", SYSTEM_A)
    assert code == 0 and all(len(line.split("\t")) == 5 for line in out.splitlines()[:6])


def test_cli_errors(tmp_path):
    short = write(tmp_path / "short.txt", "a\nb\n")
    code, out, err = cli(*BASE, SYSTEM_A, short)
    assert code == 1 and f"{short}:" in err and out == ""
    code, _, err = cli(*BASE, tmp_path / "missing.txt")
    assert code == 1 and "missing.txt" in err
    code, _, err = cli("--source", SOURCE, SYSTEM_A)
    assert code == 2
    code, _, err = cli(*BASE, "--lambda", "0.1", SYSTEM_A)
    assert code == 2 and "λ" in err
    code, _, _ = cli(*BASE, "--version", "2016", "--order", "3", SYSTEM_A)
    assert code == 2


def test_cli_gold_and_notes(tmp_path):
    gold = write(tmp_path / "absent.m2", ABSENT_M2)
    hyp = write(tmp_path / "hyp.txt", "x b c d e\nf z h i j\nk l m n o\n")
    code, out, err = cli("--gold", gold, "--version", "2015", hyp)
    assert code == 0 and "note:" in err and "1 references" in err
    assert out.splitlines()[-1].startswith("# metric:gleu|version:2015")
    assert "references:annotators" in out


# ================================================================== ../shared: exact reproduction

SYSTEMS = "AMU CAMB CUUI IITB INPUT IPN NTHU PKU POST RAC SJTU UFC UMC".split()
OUTPUTS = "corpora/gec-ranking/reference_outputs"
CONLL = "corpora/conll14"
NOALT = f"{CONLL}/conll14st-test-data/noalt"
CONFIGS = [("2015", 0.0), ("2015", 0.1), ("2016", 0.0), ("2016", 0.1), ("plus", None),
           ("plus-2016", None)]
REFERENCE_SETS = {
    "allrefs": {"refs": [f"{OUTPUTS}/conll14.ref0.alledits.txt",
                         f"{OUTPUTS}/conll14.ref1.alledits.txt"]},
    "noUm": {"refs": [f"{CONLL}/gecmetrics/refs/conll14st-test.tok.trg0",
                      f"{CONLL}/gecmetrics/refs/conll14st-test.tok.trg1"]},
    "gold": {"gold": [f"{NOALT}/official-2014.0.m2", f"{NOALT}/official-2014.1.m2"]},
    "combined-first": {"gold": [f"{NOALT}/official-2014.combined.m2"], "absent": "first"},
}


def expected_scores(version: str, lam: float | None, refset: str) -> dict[str, str]:
    suffix = "noUm" if refset == "noUm" else "allrefs"
    name = {"2015": f"gleu_v2015_l{lam}", "2016": "gleu_v2016mar",
            "plus": "gleu_gleuplus_50b5032", "plus-2016": "gleu_gleuplus_f0e2ee5"}[version]
    out = {}
    for line in shared_file(f"{OUTPUTS}/{name}.{suffix}.txt").read_text().splitlines():
        cells = line.split()
        if version == "2016":
            if float(cells[1]) == lam:
                out[cells[0]] = cells[2]
        else:
            out[cells[0]] = cells[1]
    assert sorted(out) == sorted(SYSTEMS)
    return out


def shared_inputs() -> tuple[Path, list[Path]]:
    source = shared_file(f"{CONLL}/gecmetrics/conll14st-test.tok.src")
    return source, [shared_file(f"{CONLL}/official_submissions/{s}") for s in SYSTEMS]


@functools.lru_cache(maxsize=None)
def shared_run(refset: str, version: str, lam: float | None, absent: str | None = None) -> Run:
    source, hyps = shared_inputs()
    options = dict(REFERENCE_SETS[refset])
    for key in ("refs", "gold"):
        if key in options:
            options[key] = [shared_file(p) for p in options[key]]
    if absent is not None:
        options["absent"] = absent
    return gleu_files(source, hyps, version=version, lam=lam, **options)


def printed(version: str, score: float) -> str:
    return "%f" % score if version.startswith("plus") else "%.12g" % score


# every expected output with the allrefs files and with references generated from the two
# single-annotator M2 files (issue 7 asks for both); each version once (λ = 0.1) with the
# noUm files, and two with the combined file, so that the file stays fast (each case
# scores the 13 systems in ~1 s)
ONE_EACH = [("2015", 0.1), ("2016", 0.1), ("plus", None), ("plus-2016", None)]
CASES = ([("allrefs", version, lam) for version, lam in CONFIGS]
         + [("noUm", version, lam) for version, lam in ONE_EACH]
         + [("gold", version, lam) for version, lam in CONFIGS]
         + [("combined-first", "2016", 0.1), ("combined-first", "plus-2016", None)])


@pytest.mark.parametrize("refset, version, lam", CASES,
                         ids=[f"{r}-{v}-{l}" if l is not None else f"{r}-{v}" for r, v, l in CASES])
def test_reproduces_reference_outputs(refset, version, lam):
    expected = expected_scores(version, lam, refset)
    run = shared_run(refset, version, lam)
    assert [r.system for r in run.results] == SYSTEMS
    got = {r.system: printed(version, r.score) for r in run.results}
    assert got == expected
    assert all(r.sentences == 1312 for r in run.results)
    if version.startswith("plus"):
        assert run.signature.iterations == 500
    if refset == "combined-first":
        assert len(run.notes) == 1 and "88 references" in run.notes[0]
    else:
        assert run.notes == ()


def test_combined_gold_without_first_policy_differs():
    expected = expected_scores("2015", 0.1, "allrefs")
    run = shared_run("combined-first", "2015", 0.1, absent="source")
    got = {r.system: printed("2015", r.score) for r in run.results}
    assert got != expected
    assert len(run.notes) == 1 and "88 references" in run.notes[0]
    assert "the source" in run.notes[0] and "'first'" in run.notes[0]


def test_cli_reproduces_2015_over_conll14():
    expected = expected_scores("2015", 0.0, "allrefs")
    source, hyps = shared_inputs()
    refs = REFERENCE_SETS["allrefs"]["refs"]
    code, out, _ = cli("--version", "2015", "--source", source, "--ref", shared_file(refs[0]),
                       "--ref", shared_file(refs[1]), "--format", "json", *hyps)
    assert code == 0
    data = json.loads(out)
    assert [r["system"] for r in data["results"]] == SYSTEMS
    assert {r["system"]: "%.12g" % r["score"] for r in data["results"]} == expected
    assert data["settings"]["version"] == "2015" and data["settings"]["lambda"] == 0.0


def test_generated_references_equal_the_alledits_files():
    from gecformats.metrics.gleu import _gold_references

    gold = [shared_file(p) for p in REFERENCE_SETS["gold"]["gold"]]
    texts = [shared_file(p).read_text(encoding="utf-8").splitlines()
             for p in REFERENCE_SETS["allrefs"]["refs"]]
    notes: list[str] = []
    generated = list(_gold_references(gold, None, False, 0, "source", notes))
    assert [refs for _, refs in generated] == [list(pair) for pair in zip(*texts)]
    assert notes == []


# ================================================================== --absent auto (issue 22)

NOOP_M2 = ABSENT_M2.replace("S k l m n o\n", "S k l m n o\n\nS p q r s t\n"
                            "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
                            "A 0 1|||R:X|||P|||REQUIRED|||-NONE-|||1\n")


def test_absent_auto_reads_the_file(tmp_path):
    """A file that writes noop lines beside another annotator's edits (as the CoNLL-2014
    combined file) did not mean "no change" by leaving an annotator out: auto takes 'first';
    a file without them keeps 'source'."""
    gold = write(tmp_path / "noop.m2", NOOP_M2)
    hyp = write(tmp_path / "hyp.txt", "x b c d e\nf g h i j\nk l m n o\np q r s t\n")
    auto = gleu_files(None, [hyp], gold=[gold], version="2015")
    first = gleu_files(None, [hyp], gold=[gold], version="2015", absent="first")
    source = gleu_files(None, [hyp], gold=[gold], version="2015", absent="source")
    assert auto.results[0].score == first.results[0].score != source.results[0].score
    assert "first annotator's correction (--absent auto" in auto.notes[0]
    assert auto.signature.references == "annotators+absent-first"
    assert "'first' policy, the default (auto) for this file" in source.notes[0]
    plain = write(tmp_path / "absent.m2", ABSENT_M2)
    hyp3 = write(tmp_path / "h3.txt", "x b c d e\nf g h i j\nk l m n o\n")
    auto = gleu_files(None, [hyp3], gold=[plain], version="2015")
    assert "taken as the source (--absent auto" in auto.notes[0]
    assert auto.signature.references == "annotators+absent-source"


def test_cli_gleu_combined_gold_restores_the_references():
    """Issue 22 item 7: `gleu AMU --gold official-2014.combined.m2` gave 0.589812 (absent
    annotator 1 taken as the source); the default now reads the file and gives the
    original's all-references score."""
    combined = shared_file(f"{NOALT}/official-2014.combined.m2")
    amu = shared_file(f"{CONLL}/official_submissions/AMU")
    code, out, err = cli(amu, "--gold", combined)
    assert code == 0
    assert out.splitlines()[0] == "AMU\t0.583256"
    assert expected_scores("plus", None, "allrefs")["AMU"] == "0.583256"
    assert "88 references" in err and "--absent auto" in err
    assert "references:annotators+absent-first" in out
    code, out, err = cli(amu, "--gold", combined, "--absent", "source")
    assert code == 0 and out.splitlines()[0] == "AMU\t0.589812" and "'first' policy" in err


# ================================================================== plus-py3 (JFLEG's eval/gleu.py under Python 3)


def _py3_oracle(src: list[list[str]], refs: list[list[list[str]]], hyp: list[list[str]],
                iterations: int = 500) -> float:
    """JFLEG's ``eval/gleu.py`` (GLEU+ code) as it runs under Python 3: ``random.seed(j*101)``
    then ``randint(0, R-1)`` per sentence, written from that script."""
    def stats(i: int, r: int) -> list[int]:
        h, ref = hyp[i], refs[i][r]
        out = [len(h), len(ref)]
        for n in range(1, 5):
            hn, rn, sn = ngrams(h, n), ngrams(ref, n), ngrams(src[i], n)
            diff = Counter({g: c for g, c in sn.items() if g not in rn})
            out += [max(size(hn & rn) - size(hn & diff), 0), max(len(h) + 1 - n, 0)]
        return out

    def score(st: list[int]) -> float:
        if any(x == 0 for x in st):
            return 0.0
        c, r = st[:2]
        lp = sum(math.log(x / y) for x, y in zip(st[2::2], st[3::2])) / 4
        return math.exp(min(0, 1 - r / c) + lp)

    scores = []
    for j in range(iterations):
        rng = random.Random(j * 101)
        tot = [0] * 10
        for i in range(len(hyp)):
            tot = [a + b for a, b in zip(tot, stats(i, rng.randint(0, len(refs[i]) - 1)))]
        scores.append(score(tot))
    import numpy as np

    return float(np.mean(scores))


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_plus_py3_equals_the_python3_run_of_the_plus_code(seed: int) -> None:
    rng = random.Random(seed)
    words = "a b c d e f".split()
    n = rng.randint(1, 8)
    src = [[rng.choice(words) for _ in range(rng.randint(1, 6))] for _ in range(n)]
    refs = [[[rng.choice(words) for _ in range(rng.randint(1, 6))]
             for _ in range(rng.randint(1, 4))] for _ in range(n)]
    hyp = [[rng.choice(words) for _ in range(rng.randint(1, 6))] for _ in range(n)]
    run = gleu([" ".join(s) for s in src], [[" ".join(r) for r in rs] for rs in refs],
               [[" ".join(h) for h in hyp]], version="plus-py3", iterations=30)
    expected = _py3_oracle(src, refs, hyp, 30) if max(len(r) for r in refs) > 1 else \
        _py3_oracle(src, refs, hyp, 1)
    assert close(run.results[0].score, expected)


def test_plus_py3_in_the_pipeline_equals_gecformats_gleu() -> None:
    """``score --metric gleu --gleu-version plus-py3`` (GleuMetric's draws, and the
    resampler's) gives the digits of ``gecformats gleu --version plus-py3``."""
    direct = gleu_files(SOURCE, [SYSTEM_A], gold=[GOLD], version="plus-py3")
    result = CliRunner().invoke(app, ["score", str(SYSTEM_A), "--gold", str(GOLD), "--metric",
                                      "gleu", "--gleu-version", "plus-py3", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert close(json.loads(result.stdout)["system-a.txt"]["gleu"]["gleu"], direct.results[0].score)
    plus = gleu_files(SOURCE, [SYSTEM_A], gold=[GOLD], version="plus")
    assert direct.results[0].score != plus.results[0].score  # other draws
    boot = CliRunner().invoke(app, ["score", str(SYSTEM_A), "--gold", str(GOLD), "--metric",
                                    "gleu", "--gleu-version", "plus-py3", "--ci",
                                    "--resamples", "20"])
    assert boot.exit_code == 0, boot.output


JFLEG_SOURCE_GLEU = {  # eval/gleu.py under Python 3 (reference_outputs/) and JFLEG's README
    "dev": ("0.381965", "0.009597", "(0.363,0.401)", "0.382146"),
    "test": ("0.404740", "0.007721", "(0.390,0.420)", "0.405430"),
}


@pytest.mark.parametrize("split", ["dev", "test"])
def test_jfleg_source_gleu_plus_py3_is_eval_gleu_and_plus_is_the_readme(split: str) -> None:
    folder = shared_file(f"corpora/jfleg/{split}")
    expected = shared_file("corpora/jfleg/reference_outputs/gleu_source_as_hypothesis.txt")
    mean, std, ci, readme = JFLEG_SOURCE_GLEU[split]
    assert f"[['{mean}', '{std}', '{ci}']]" in expected.read_text()
    args = ["gleu", str(folder / f"{split}.src"), "--source", str(folder / f"{split}.src"),
            *[a for k in range(4) for a in ("--ref", str(folder / f"{split}.ref{k}"))]]
    py3 = CliRunner().invoke(app, [*args, "--version", "plus-py3", "--ci"])
    assert py3.stdout.splitlines()[0] == f"{split}.src\t{mean}\t{std}\t{ci}"
    plus = CliRunner().invoke(app, args)
    assert plus.stdout.splitlines()[0] == f"{split}.src\t{readme}"  # README: 38.21 / 40.54
