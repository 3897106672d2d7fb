"""The ``zh`` tokenizer gives exactly jieba's words (the documentation's promise), checked against
``jieba.lcut`` on every NLPCC 2018 text in ../shared (each file of its SOURCE.md): the test
sources, the gold sources and every annotator's corrected sentence, both system outputs, the
training sample, ChERRANT's word and character re-processing of the gold (sources and
targets) and MuCGEC's copy of the test sources.  Each distinct text is compared once.

jieba also returns white space and U+FEFF as words of their own; the ``zh`` tokenizer drops
those (a token never is or holds only ignorable characters), so they are left out of
jieba's list before comparing."""

from __future__ import annotations

import logging

import pytest

from conftest import shared_file
from gecformats.formats import m2
from gecformats.tokenize import IGNORABLE, get_tokenizer

NLPCC = "corpora/nlpcc2018"


def nlpcc_texts() -> list[str]:
    base = shared_file(NLPCC)
    texts = [line.rstrip("\n") for line in (base / "source.txt").open(encoding="utf-8")]
    for sentence in m2.read(base / "gold.01.m2"):
        texts.append("".join(sentence.source))
        for k in sentence.annotators:
            try:
                texts.append("".join(sentence.corrected(k)))
            except ValueError:  # sentence 1682's edit past the end
                pass
    for output in sorted((base / "system-outputs").iterdir()):
        for line in output.open(encoding="utf-8"):  # de-spaced, and as segmented (spaces)
            texts += [line.rstrip("\n").replace(" ", ""), line.rstrip("\n")]
    for line in (base / "data.train.sample73.txt").open(encoding="utf-8"):
        texts += line.rstrip("\n").split("\t")[2:]
    for name in ("cherrant.nlpcc2018_official.ref.m2.word", "cherrant.nlpcc2018_official.ref.m2.char"):
        for sentence in m2.read(base / name):
            texts.append("".join(sentence.source))
            texts += ["".join(sentence.corrected(k)) for k in sentence.annotators]
    for line in (base / "mucgec_test_first2000.idsrc.tsv").open(encoding="utf-8"):
        texts.append(line.rstrip("\n").split("\t", 1)[1])
    return list(dict.fromkeys(texts))


def test_zh_gives_exactly_jiebas_words_on_nlpcc_2018() -> None:
    import jieba

    jieba.setLogLevel(logging.WARNING)
    tokenizer = get_tokenizer("zh")
    texts = nlpcc_texts()
    assert len(texts) > 7_500  # distinct texts (7,948)
    differ = []
    for text in texts:
        tokens = tokenizer.tokenize(text)
        assert all(text[t.start:t.end] == t.text for t in tokens)  # exact spans
        ours = [t.text for t in tokens]
        assert tokenizer.words(text) == ours  # the span-less path edit extraction takes
        theirs = [w for w in jieba.lcut(text) if not IGNORABLE.fullmatch(w)]
        if ours != theirs:
            differ.append((text, ours, theirs))
    assert differ == [], f"{len(differ)} of {len(texts)} texts differ, first: {differ[:2]}"


@pytest.mark.parametrize("text", ["\ufeff我们迎来了最和美的中秋佳节。", "他 说 English 很 好"])
def test_ignorable_and_space_words_of_jieba_are_dropped(text: str) -> None:
    import jieba

    ours = [t.text for t in get_tokenizer("zh").tokenize(text)]
    assert ours == [w for w in jieba.lcut(text) if not IGNORABLE.fullmatch(w)]


# ------------------------------------------------------------ jieba's HMM, in linear time

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from gecformats.tokenize import hmm_cut  # noqa: E402

HMM_ALPHABET = st.sampled_from([chr(c) for c in range(0x4E00, 0x4E00 + 400)] + list("ab1.%，。 "))


@given(st.text(HMM_ALPHABET, min_size=1, max_size=60))
@settings(max_examples=400, deadline=None)
def test_hmm_cut_is_jiebas_finalseg_cut(text):
    from jieba import finalseg

    assert list(hmm_cut(text)) == list(finalseg.cut(text))


def test_a_long_unknown_run_is_cut_in_linear_time():
    """jieba's Viterbi copies the best path at each character: 80,000 characters no word
    covers took 25 s (found by the fuzzer's huge-line mutation of an NLPCC file).  A ratio,
    not a time: four times the characters cost about four times as much (a quadratic cut
    sixteen times)."""
    import time

    def cost(n: int) -> float:
        started = time.process_time()
        assert "".join(hmm_cut("错" * n)) == "错" * n
        return time.process_time() - started

    cost(1_000)  # warm up (jieba's model)
    assert cost(80_000) < 8 * max(cost(20_000), 1e-3)
