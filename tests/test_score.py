"""The scoring glue: gecformats.metrics.score (hypothesis reading, line counts, T lines, signature)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from conftest import FIXTURES, shared_file
from gecformats.errors import GecFormatError
from gecformats.metrics.score import (Scoring, Signature, count_lines, format_m2scorer, read_hypothesis,
                              score_files)

SCORE = FIXTURES / "score"
GOLD = SCORE / "sample.m2"
HYP = SCORE / "sample.hyp"


def test_sample_counts_and_choices() -> None:
    result = score_files(HYP, GOLD, per_sentence=True)
    assert (result.correct, result.proposed, result.gold, result.sentences) == (5, 6, 5, 4)
    assert [(c.annotator, c.correct, c.proposed, c.gold) for c in result.choices] == [
        (0, 2, 3, 2), (1, 2, 2, 2), (0, 0, 0, 0), (0, 1, 1, 1)]
    assert format_m2scorer(result) == (
        "Precision   : 0.8333\nRecall      : 1.0000\nF_0.5       : 0.8621")


def test_choices_only_when_asked() -> None:
    assert score_files(HYP, GOLD).choices == ()


def test_paper_example() -> None:
    """The M2 paper's example: 'The cat sat at mat .' → 'A cat sat on the mat .'."""
    result = score_files(SCORE / "cat.hyp", SCORE / "cat.m2")
    assert "%.4f %.4f %.4f" % (result.precision, result.recall, result.f) == "0.6667 1.0000 0.7143"


def test_signature() -> None:
    result = score_files(HYP, GOLD, beta=1.0, max_unchanged_words=3, ignore_whitespace_casing=True)
    assert str(result.signature) == (
        "metric:m2|scorer:maxmatch-0.1.0|beta:1|max-unchanged:3|ws-case:ignored"
        "|annotators:2|gecformats:0.1.0")
    assert str(Signature(0.25, 2, False, 1)).startswith("metric:m2|scorer:maxmatch-0.1.0|beta:0.25|")
    assert result.to_dict()["signature"] == str(result.signature)


def test_signature_segment_only_when_projecting() -> None:
    assert "segment" not in str(Signature(0.5, 2, False, 2))
    assert str(Signature(0.5, 2, False, 2, segment="project+char-1")) == (
        "metric:m2|scorer:maxmatch-0.1.0|beta:0.5|max-unchanged:2|ws-case:significant"
        "|segment:project+char-1|annotators:2|gecformats:0.1.0")
    project = FIXTURES / "project"
    result = score_files(project / "system.txt", project / "gold.m2", segment="project",
                         segmenter="char", segment_map={})
    assert "|segment:project+char-1+map-" in str(result.signature)


def test_options_change_the_score() -> None:
    assert score_files(HYP, GOLD, beta=1.0).f != score_files(HYP, GOLD).f


def test_crlf_hypothesis_scores_like_lf(tmp_path: Path) -> None:
    crlf = tmp_path / "crlf.hyp"
    crlf.write_bytes(HYP.read_bytes().replace(b"\n", b"\r\n"))
    assert score_files(crlf, GOLD) == score_files(HYP, GOLD)


def test_gzip_hypothesis(tmp_path: Path) -> None:
    gz = tmp_path / "sample.hyp.gz"
    gz.write_bytes(gzip.compress(HYP.read_bytes()))
    assert score_files(gz, GOLD) == score_files(HYP, GOLD)
    assert count_lines(gz) == 4


def test_hypothesis_lines_split_on_lf_only(tmp_path: Path) -> None:
    path = tmp_path / "h.txt"
    path.write_bytes(b"a\x0cb\r\n\xc2\x85c\nlast")
    assert list(read_hypothesis(path)) == [(1, "a\x0cb\r"), (2, "\x85c"), (3, "last")]
    assert count_lines(path) == 3
    path.write_bytes(b"a\n\n")
    assert [n for n, _ in read_hypothesis(path)] == [1, 2] and count_lines(path) == 2


def test_invalid_utf8_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.hyp"
    path.write_bytes(b"A cat sat on the mat .\nHe \xff went\n")
    with pytest.raises(GecFormatError, match=r"bad\.hyp:2: not valid UTF-8"):
        score_files(path, GOLD)


@pytest.mark.parametrize("content, message", [
    (b"one\ntwo\nthree\n", "3 hypothesis lines for 4 gold sentences"),
    (b"1\n2\n3\n4\n5\n", "5 hypothesis lines for 4 gold sentences"),
    (HYP.read_bytes() + b"\n", "5 hypothesis lines for 4 gold sentences"),  # trailing empty line
])
def test_line_count_mismatch(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "x.hyp"
    path.write_bytes(content)
    with pytest.raises(GecFormatError, match=message) as info:
        score_files(path, GOLD)
    assert str(info.value).startswith(f"{path}: ")


def test_cherrant_targets_refused(tmp_path: Path) -> None:
    gold = FIXTURES / "m2" / "cherrant.m2.char"
    hyp = tmp_path / "h.txt"
    hyp.write_text("x\n" * 50, encoding="utf-8")
    with pytest.raises(GecFormatError, match=r"--targets first") as info:
        score_files(hyp, gold)
    assert info.value.file == str(gold) and info.value.line is not None
    assert gold.read_text(encoding="utf-8").splitlines()[info.value.line - 1].startswith("T")


def test_scoring_yields_sentences_then_result() -> None:
    scoring = Scoring(HYP, GOLD)
    with pytest.raises(RuntimeError):
        scoring.result()
    scored = list(scoring)
    assert [s.number for s in scored] == [1, 2, 3, 4]
    assert scored[1].before == (2, 3, 2) and scored[1].hypothesis == "He went to school every day ."
    assert scoring.result().correct == 5


def test_progress_callback() -> None:
    seen: list[int] = []
    score_files(HYP, GOLD, progress=lambda s: seen.append(s.number))
    assert seen == [1, 2, 3, 4]


def test_conll14_amu_parity() -> None:
    conll = "corpora/conll14"
    result = score_files(shared_file(f"{conll}/official_submissions/AMU"),
                         shared_file(f"{conll}/conll14st-test-data/noalt/official-2014.combined.m2"))
    assert format_m2scorer(result) == (
        "Precision   : 0.4162\nRecall      : 0.2140\nF_0.5       : 0.3501")
    assert (result.correct, result.proposed, result.gold) == (509, 1223, 2378)
    assert result.signature.annotators == 2
