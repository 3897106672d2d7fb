"""Property-based invariants of the bundled MaxMatch scorer (issue 3 item 5)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import maxmatch

# every test on both backends: the pure-Python path and the compiled core
pytestmark = pytest.mark.usefixtures("maxmatch_backend")

words = st.sampled_from(["a", "b", "c", "the", "A", "of"])
sentences = st.lists(words, max_size=8)


@st.composite
def golds(draw, n: int):
    gold = {}
    for ann in range(draw(st.integers(0, 3))):
        edits = []
        for _ in range(draw(st.integers(0, 4))):
            start = draw(st.integers(-1, n + 1))
            end = draw(st.integers(start, start + 2))
            corr = draw(st.lists(st.lists(words, max_size=2).map(" ".join), min_size=1,
                                 max_size=2))
            edits.append((start, end, tuple(corr)))
        gold[ann] = edits
    return gold


@st.composite
def sentence_cases(draw):
    src = draw(sentences)
    return src, draw(sentences), draw(golds(len(src)))


@settings(max_examples=200, deadline=None)
@given(sentence_cases())
def test_unchanged_hypothesis_proposes_nothing(case) -> None:
    src, _, gold = case
    for r in maxmatch.score_sentence(src, src, gold).annotators:
        assert r.edits == () and r.correct == 0


@settings(max_examples=200, deadline=None)
@given(sentence_cases(), st.integers(0, 3), st.booleans())
def test_count_bounds(case, limit, iwc) -> None:
    src, hyp, gold = case
    res = maxmatch.score_sentence(src, hyp, gold, max_unchanged_words=limit,
                                  ignore_whitespace_casing=iwc)
    for r in res.annotators:
        assert r.correct <= r.gold
        # "no duplicated edit": no system edit can match two gold edits
        if not any(a[:3] == b[:3] and set(a[3]) & set(b[3])
                   for i, a in enumerate(r.gold_edits) for b in r.gold_edits[i + 1:]):
            assert r.correct <= r.proposed
        # edits are left to right, non-overlapping, and rebuild the hypothesis
        rebuilt, pos = [], 0
        for start, end, orig, corr in r.edits:
            assert pos <= start <= end
            rebuilt += src[pos:start] + corr.split()
            assert orig == " ".join(src[start:end])
            pos = end
        if not iwc:
            assert rebuilt + src[pos:] == hyp


@settings(max_examples=60, deadline=None)
@given(st.lists(sentence_cases(), max_size=8), st.integers(1, 4),
       st.sampled_from([0.5, 1.0, 2.0]))
def test_chunking_and_streaming_do_not_matter(cases, chunk, beta) -> None:
    whole = maxmatch.score_corpus(cases, beta=beta)
    streamed = maxmatch.score_corpus(iter(cases), beta=beta)
    scorer = maxmatch.CorpusScorer(beta=beta)
    for k in range(0, len(cases), chunk):
        for item in cases[k:k + chunk]:
            scorer.add(*item)
    # evaluate first (e.g. in parallel), replay the greedy choice afterwards (spec §11.3)
    replay = maxmatch.CorpusScorer(beta=beta)
    results = [maxmatch.score_sentence(*item) for item in cases]
    for res in results:
        replay.add_result(res)
    assert whole == streamed == scorer.result() == replay.result()
    assert len(whole.sentences) == len(cases)
