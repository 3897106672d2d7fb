"""gecformats.convert.project: scoring raw Chinese output against a gold segmented by another tool
(normalisation, alignment, lexicon, projection; score_files and `gecformats score --segment
project`; the NLPCC 2018 targets when ../shared is there)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from conftest import FIXTURES, shared_file
from gecformats.cli import app
from gecformats.errors import GecFormatError
from gecformats.formats import m2
from gecformats.convert.project import (NLPCC_MAP, Lexicon, Projector, align, corrected_tokens, format_map,
                                gold_map, normalise, parse_map, tokenizer_fits)
from gecformats.metrics.score import Scoring, score_files

# its tests share costly module state (a fixture or a cache): one xdist worker runs them all
pytestmark = pytest.mark.xdist_group("project")

PROJECT = FIXTURES / "project"
GOLD = PROJECT / "gold.m2"
SENTENCES = list(m2.read(GOLD))
SOURCES = [s.source for s in SENTENCES]
NLPCC = "corpora/nlpcc2018"


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return Lexicon.from_m2(GOLD)


@pytest.fixture(scope="module", params=["zh", "char"])
def projector(request: pytest.FixtureRequest, lexicon: Lexicon) -> Projector:
    return Projector(lexicon, segmenter=request.param)


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


# ------------------------------------------------------------------ normalisation


def test_normalise_drops_bom_and_all_white_space() -> None:
    assert normalise("\ufeff我 们\t住\u3000在\r\n") == "我们住在"
    assert normalise("a\ufeffb") == "ab"  # anywhere, not only at the start


def test_normalise_maps_the_four_pkunlp_characters_only() -> None:
    assert normalise("注意：（一）；，。？！“”") == "注意:(一);，。？！“”"
    assert normalise("注意：", {}) == "注意："
    assert normalise("a，b", {"，": ","}) == "a,b"


def test_parse_and_format_map() -> None:
    assert parse_map("：:；;（(）)") == dict(NLPCC_MAP)
    assert parse_map("") == {}
    assert parse_map(format_map(NLPCC_MAP)) == dict(NLPCC_MAP)
    with pytest.raises(ValueError, match="odd number"):
        parse_map("：:；")
    with pytest.raises(ValueError, match="mapped twice"):
        parse_map("：:：;")


# ------------------------------------------------------------------ alignment and lexicon


def test_align_covers_both_strings() -> None:
    ops = align("我喜欢苹果", "我很喜欢吃苹果")
    assert ops[0][1] == ops[0][3] == 0 and ops[-1][2] == 5 and ops[-1][4] == 7
    for (_, _, g2, _, h2), (_, g1, _, h1, _) in zip(ops, ops[1:]):
        assert (g2, h2) == (g1, h1)
    assert [op for op in ops if op[0] != "equal"] == [("insert", 1, 1, 1, 2),
                                                      ("insert", 3, 3, 4, 5)]


def test_corrected_tokens_applies_edits_literally() -> None:
    sentences = list(SENTENCES)
    assert corrected_tokens(sentences[2], 0) == "他 每 天 都 学习 汉语 两 个 小时 。".split()
    assert corrected_tokens(sentences[2], 1) == "他 每 天 都 在 学习 汉语 两 个 小时 。".split()
    assert corrected_tokens(sentences[0], 0) == list(sentences[0].source)  # no annotator
    odd = m2.parse("S a b c\nA 1 9|||S|||x y|||REQUIRED|||-NONE-|||0\n")[0]
    assert corrected_tokens(odd, 0) == ["a", "x", "y"]  # out of range: replaces the tail


def test_lexicon_counts_cuts_and_occurrences(lexicon: Lexicon) -> None:
    # 5 source sentences + 5 corrected ones (sentence 1 has none, sentence 3 two)
    assert lexicon.sentences == 10
    assert lexicon.cuts["特别是"] == ("特 别 是",)
    assert lexicon.counts["持 别 是"] == 1
    assert set(lexicon.cuts["都在学习"]) == {"都 在 学习"}
    assert lexicon.occurrences("每天") == 3  # in the source and the two corrections of 3 ...
    # ... and in no other place; strings across sentences are not counted
    assert lexicon.occurrences("。我") == 0
    long = Lexicon()
    long.add(["(Mediterranean", "港湾"])
    assert "(Mediterranean" in long.cuts  # a single token longer than max_chars is kept


# ------------------------------------------------------------------ projection


def test_unchanged_source_gives_the_gold_tokens(projector: Projector) -> None:
    for source, raw in zip(SOURCES, _lines(PROJECT / "source.txt")):
        assert projector.project(source, raw) == list(source)


def test_corrections_are_cut_as_the_gold_cut_them(projector: Projector) -> None:
    sentences = list(SENTENCES)
    assert projector.project(sentences[1].source, "我对中国文化很感兴趣，特别是京剧。") == \
        "我 对 中国 文化 很 感 兴趣 ， 特 别 是 京剧 。".split()
    assert projector.project(sentences[2].source, "他每天都在学习汉语两个小时。") == \
        "他 每 天 都 在 学习 汉语 两 个 小时 。".split()
    assert projector.project(sentences[3].source, "我们住在海景饭店（Hotel Miracosta）。") == \
        "我们 住 在 海景 饭店 (Hotel Miracosta) 。".split()


def test_spaces_bom_and_full_width_in_the_hypothesis(projector: Projector) -> None:
    source = SOURCES[0]
    for raw in ["\ufeff注意：明天的考试从九点开始。", "注意 : 明天 的 考试 从 九 点 开始 。",
                " 注意:明天的考试\u3000从九点开始。\r"]:
        assert projector.project(source, raw) == list(source)


def test_empty_hypothesis_and_empty_gold(projector: Projector) -> None:
    assert projector.project(SOURCES[0], "") == []
    assert projector.project(SOURCES[0], " \ufeff ") == []
    assert "".join(projector.project([], "我们住在北京")) == "我们住在北京"


def test_char_segmenter_cuts_unknown_strings_into_characters(lexicon: Lexicon) -> None:
    char = Projector(lexicon, segmenter="char")
    out = char.project(SOURCES[4], "这本书的内容很好看，我已经看完了。")
    assert out[:6] == ["这", "本", "书", "的", "内容", "很"] and out[6:8] == ["好", "看"]


def test_version_and_map(lexicon: Lexicon) -> None:
    assert Projector(lexicon, segmenter="char").version == "project+char-1"
    assert Projector(lexicon).version.startswith("project+zh-jieba-")
    other = Projector(lexicon, segmenter="char", mapping={})
    assert other.version.startswith("project+char-1+map-")
    assert other.project(SOURCES[0], "注意：明天的考试从九点开始。")[1] == "："
    with pytest.raises(ValueError, match="unknown segmenter"):
        Projector(lexicon, segmenter="jieba")


# ------------------------------------------------------------------ properties

HAN = st.characters(min_codepoint=0x4E00, max_codepoint=0x4E40)
TOKENS = st.lists(st.text(HAN, min_size=1, max_size=3), min_size=1, max_size=12)


@settings(max_examples=150, deadline=None)
@given(tokens=TOKENS, spaces=st.lists(st.integers(0, 40), max_size=4))
def test_property_gold_source_projects_to_gold_tokens(lexicon: Lexicon, tokens: list[str],
                                                       spaces: list[int]) -> None:
    text = "".join(tokens)
    for pos in sorted(spaces, reverse=True):
        pos = min(pos, len(text))
        text = text[:pos] + " \ufeff"[pos % 2] + text[pos:]
    assert Projector(lexicon, segmenter="char").project(tokens, text) == tokens


@settings(max_examples=150, deadline=None)
@given(tokens=TOKENS, data=st.data())
def test_property_tokens_spell_the_hypothesis_and_far_tokens_stay(
        lexicon: Lexicon, tokens: list[str], data: st.DataObject) -> None:
    projector = Projector(lexicon, segmenter="char", context=2)
    gold = "".join(tokens)
    start = data.draw(st.integers(0, len(gold)))
    end = data.draw(st.integers(start, len(gold)))
    new = data.draw(st.text(HAN, max_size=4))
    hyp = gold[:start] + new + gold[end:]
    out = projector.project(tokens, hyp)
    assert "".join(out) == hyp and all(out)
    # gold tokens more than `context` tokens before the first changed one are kept
    before, pos = 0, 0
    while before < len(tokens) and pos + len(tokens[before]) <= start:
        pos += len(tokens[before])
        before += 1
    keep = max(0, before - 3)
    assert out[:keep] == tokens[:keep]


# ------------------------------------------------------------------ scoring


def test_score_files_with_projection() -> None:
    result = score_files(PROJECT / "system.txt", GOLD, segment="project")
    assert (result.correct, result.proposed, result.gold) == (2, 4, 5)
    assert str(result.signature).startswith(
        "metric:m2|scorer:maxmatch-0.1.0|beta:0.5|max-unchanged:2|ws-case:significant"
        "|segment:project+zh-jieba-")
    source = score_files(PROJECT / "source.txt", GOLD, segment="project", segmenter="char")
    assert (source.precision, source.recall, source.f) == (1.0, 0.0, 0.0)
    assert "|segment:project+char-1|" in str(source.signature)
    corrected = score_files(PROJECT / "corrected.txt", GOLD, segment="project")
    # the gold edit 有 意 思 -> 有意思 only re-segments unchanged text: projection keeps
    # the gold's tokens there, so it cannot be matched
    assert (corrected.correct, corrected.proposed, corrected.gold) == (4, 4, 5)


def test_without_projection_the_signature_is_unchanged() -> None:
    result = score_files(PROJECT / "system.txt", GOLD)
    assert "segment" not in str(result.signature)
    assert result.correct == 2 and result.proposed == 9


def test_scored_sentence_shows_projected_tokens() -> None:
    scoring = Scoring(PROJECT / "system.txt", GOLD, segment="project", segment_map={"：": ":"})
    shown = [s.hypothesis for s in scoring]
    assert shown[1] == "我 对 中国 文化 很 感 兴趣 ， 特 别 是 京剧 。"
    assert "+map-" in str(scoring.result().signature)


def test_bad_segment_options() -> None:
    with pytest.raises(ValueError, match="segment mode"):
        Scoring(PROJECT / "system.txt", GOLD, segment="jieba")
    with pytest.raises(ValueError, match="segmenter"):
        Scoring(PROJECT / "system.txt", GOLD, segment="project", segmenter="pkunlp")
    with pytest.raises(GecFormatError, match="standard input"):
        list(Scoring(PROJECT / "system.txt", "-", segment="project"))


def test_line_count_mismatch_with_projection(tmp_path: Path) -> None:
    short = tmp_path / "short.txt"
    short.write_text("注意：明天的考试从九点开始。\n", encoding="utf-8")
    with pytest.raises(GecFormatError, match="1 hypothesis line for 5 gold sentences"):
        score_files(short, GOLD, segment="project")


# ------------------------------------------------------------------ command line


def _score(*args: object) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["score", *(str(a) for a in args)])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_cli_segment_project() -> None:
    code, out, _ = _score(PROJECT / "system.txt", "--gold", GOLD, "--segment", "project")
    assert code == 0
    lines = out.splitlines()
    assert lines[:4] == ["Precision  0.5000", "Recall     0.4000", "F0.5       0.4762",
                         "2 correct, 4 proposed, 5 gold edits in 5 sentences"]
    assert "|segment:project+zh-jieba-" in lines[4]
    code, out, _ = _score(PROJECT / "system.txt", "--gold", GOLD, "--segment", "project",
                          "--segmenter", "char", "--segment-map", "：:；;（(）)", "--format", "json")
    assert code == 0 and '"segment:project+char-1|' not in out and "|segment:project+char-1|" in out


def test_cli_segment_project_verbose_shows_tokens() -> None:
    code, out, _ = _score(PROJECT / "system.txt", "--gold", GOLD, "--segment", "project", "-v")
    assert code == 0
    assert "  hypothesis : 他 每 天 都 在 学习 汉语 两 个 小时 。" in out


def test_cli_segment_option_errors() -> None:
    code, _, err = _score(PROJECT / "system.txt", "--gold", GOLD, "--segmenter", "char")
    assert code == 2 and "needs --segment project" in err
    code, _, err = _score(PROJECT / "system.txt", "--gold", GOLD, "--segment", "project",
                          "--segment-map", "：")
    assert code == 2 and "odd number" in err
    code, _, err = _score(PROJECT / "system.txt", "--gold", GOLD, "--segment", "jieba")
    assert code == 2


# ------------------------------------------------------------------ NLPCC 2018 (../shared)

OFFICIAL = {  # the exact scorer on the PKUNLP-segmented files as they are
    "zlyang_ch5_ConvS2S+Char+Random.4ens.eo+lm.reranked.pkunlp.seg": (0.4448, 0.1806, 0.3441),
    "zlyang_ch6_M1+M2+M3.4ens.lm-rerank.char-merged.pkunlp.seg": (0.4820, 0.1851, 0.3649),
}


def _despaced(path: Path, tmp_path: Path) -> Path:
    out = tmp_path / (path.name + ".raw")
    out.write_text("".join(line.replace(" ", "") + "\n" for line in _lines(path)),
                   encoding="utf-8")
    return out


def _prf(result: object) -> tuple[float, float, float]:
    return tuple(round(x, 4) for x in (result.precision, result.recall, result.f))  # type: ignore[attr-defined]


def test_nlpcc_raw_source_scores_zero() -> None:
    gold = shared_file(f"{NLPCC}/gold.01.m2")
    result = score_files(shared_file(f"{NLPCC}/source.txt"), gold, segment="project")
    assert (result.precision, result.recall, result.f) == (1.0, 0.0, 0.0)
    assert result.proposed == 0


def test_nlpcc_oracle_despaced(tmp_path: Path) -> None:
    gold = shared_file(f"{NLPCC}/gold.01.m2")
    oracle = shared_file("reference/nlpcc2018/oracle-ann0.gold-tokens.txt")
    result = score_files(_despaced(oracle, tmp_path), gold, segment="project")
    assert result.f >= 0.97  # the reference on the gold's own tokens: 0.9763
    assert _prf(result) == (0.9705, 0.9731, 0.9711)


@pytest.mark.parametrize("name", sorted(OFFICIAL))
def test_nlpcc_systems_despaced_land_near_the_official_score(name: str, tmp_path: Path) -> None:
    gold = shared_file(f"{NLPCC}/gold.01.m2")
    system = shared_file(f"{NLPCC}/system-outputs/{name}")
    assert _prf(score_files(system, gold)) == OFFICIAL[name]
    projected = score_files(_despaced(system, tmp_path), gold, segment="project",
                            per_sentence=True)
    assert abs(projected.f - OFFICIAL[name][2]) <= 0.01


def test_nlpcc_segmentation_agreement() -> None:
    """How often the projection of a de-spaced PKUNLP-segmented output is PKUNLP's own."""
    gold = shared_file(f"{NLPCC}/gold.01.m2")
    projector = Projector(Lexicon.from_m2(gold))
    sentences = list(m2.read(gold))
    for name in OFFICIAL:
        lines = _lines(shared_file(f"{NLPCC}/system-outputs/{name}"))
        same = sum(projector.project(s.source, line) == line.split()
                   for s, line in zip(sentences, lines))
        assert same / len(sentences) >= 0.94


# ------------------------------------------------------------------ a gold gecformats built (issue 22)

COLON = PROJECT / "colon.train"  # NLPCC training lines whose sources keep the full-width colon


def _built_gold(train: Path, tmp_path: Path) -> tuple[Path, Path, Path]:
    """``convert TRAIN gold.m2 --from nlpcc --tokenizer zh``, with the raw sources and the
    raw first corrections (a perfect output) as hypothesis files."""
    gold = tmp_path / "gold.m2"
    result = CliRunner().invoke(app, ["convert", str(train), str(gold), "--from", "nlpcc",
                                      "--tokenizer", "zh"])
    assert result.exit_code == 0, result.stderr
    rows = [line.split("\t") for line in train.read_text(encoding="utf-8").splitlines()]
    source, perfect = tmp_path / "source.txt", tmp_path / "perfect.txt"
    source.write_text("".join(r[2] + "\n" for r in rows), encoding="utf-8")
    perfect.write_text("".join((r[3] if int(r[1]) else r[2]) + "\n" for r in rows), encoding="utf-8")
    return gold, source, perfect


def test_gold_map_follows_the_gold() -> None:
    assert gold_map(set("注意:明天")) == dict(NLPCC_MAP)
    assert gold_map(set("注意：明天(一)")) == {}  # one full-width character kept: no map
    assert gold_map(set("注意明天")) == {}  # no evidence either way
    assert gold_map(set("a;b"), {"；": ";"}) == {"；": ";"}
    lexicon = Lexicon.from_m2(GOLD)
    assert gold_map(lexicon.source_characters) == dict(NLPCC_MAP)


def test_projection_against_a_gold_built_with_jieba(tmp_path: Path) -> None:
    """Issue 22 item 6: the default map turned the gold's own `：` into `:`, so the unchanged
    source proposed edits and a perfect output scored below 1."""
    gold, source, perfect = _built_gold(COLON, tmp_path)
    assert "：" in gold.read_text(encoding="utf-8")
    code, out, _ = _score(source, "--gold", gold, "--segment", "project")
    assert code == 0 and "0 correct, 0 proposed, 6 gold edits" in out
    assert "|segment:project+zh-jieba-0.42.1+map-none|" in out
    code, out, _ = _score(perfect, "--gold", gold, "--segment", "project")
    assert code == 0 and out.splitlines()[2] == "F0.5       1.0000"
    # asked for, the map still applies
    code, out, _ = _score(source, "--gold", gold, "--segment", "project", "--segment-map", "：:")
    assert code == 0 and "0 proposed" not in out


def test_tokenize_zh_against_a_gold_built_with_jieba(tmp_path: Path) -> None:
    gold, source, perfect = _built_gold(COLON, tmp_path)
    code, out, err = _score(perfect, "--gold", gold, "--tokenize", "zh")
    assert code == 0, err
    assert out.splitlines()[:4] == ["Precision  1.0000", "Recall     1.0000", "F0.5       1.0000",
                                    "6 correct, 6 proposed, 6 gold edits in 6 sentences"]
    assert "|segment:tokenize+zh-jieba-" in out
    code, out, _ = _score(source, "--gold", gold, "--tokenize", "zh")
    assert code == 0 and "0 correct, 0 proposed" in out


def test_unsegmented_warning_recommends_what_fits_the_gold(tmp_path: Path) -> None:
    gold, source, _ = _built_gold(COLON, tmp_path)
    code, _, err = _score(source, "--gold", gold)
    assert code == 0
    assert "--tokenize zh" in err and "--segment project" not in err
    assert tokenizer_fits(s.source for s in m2.read(gold))
    # a gold segmented otherwise (PKUNLP-like): projection
    code, _, err = _score(PROJECT / "source.txt", "--gold", GOLD)
    assert code == 0 and "--segment project" in err and "--tokenize zh" not in err
    assert not tokenizer_fits(s.source for s in m2.read(GOLD))


def test_nlpcc_training_sample_gold_built_with_jieba(tmp_path: Path) -> None:
    """The original commands of issue 22 item 6 on the 73 NLPCC 2018 training lines."""
    gold, source, perfect = _built_gold(shared_file(f"{NLPCC}/data.train.sample73.txt"), tmp_path)
    unchanged = score_files(source, gold, segment="project")
    assert unchanged.proposed == 0
    assert score_files(perfect, gold, tokenize="zh").f == 1.0
    projected = score_files(perfect, gold, segment="project")
    assert projected.f > 0.95  # 0.92 with the NLPCC map; projection itself is approximate
    # the PKUNLP gold keeps the whole map
    assert gold_map(Lexicon.from_m2(shared_file(f"{NLPCC}/gold.01.m2")).source_characters) == dict(NLPCC_MAP)


def test_tokenize_zh_against_a_gold_segmented_otherwise_warns() -> None:
    code, out, err = _score(PROJECT / "corrected.txt", "--gold", GOLD, "--tokenize", "zh")
    assert code == 0 and "|segment:tokenize+zh-jieba-" in out
    assert "the gold's sources are not jieba's words" in err and "--segment project" in err
    code, _, err = _score(PROJECT / "corrected.txt", "--gold", GOLD, "--tokenize", "zh", "--strict")
    assert code == 1 and "not jieba's words" in err


def test_a_hypothesis_line_past_the_bound_is_refused_at_once(tmp_path: Path) -> None:
    """Fuzz case (zh-project, a 1 MiB line, seed 269899949): 20 s of segmentation before the
    lattice bound refused it; now the line's own bound refuses it at once, located."""
    from typer.testing import CliRunner

    from gecformats.cli import app
    from gecformats.convert.project import MAX_PROJECTED

    gold = Path(__file__).parent.parent / "fixtures" / "project" / "gold.m2"
    sentences = sum(1 for line in gold.read_text(encoding="utf-8").splitlines()
                    if line.startswith("S "))
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("他们\n" + "错" * (MAX_PROJECTED + 1) + "\n" + "他们\n" * (sentences - 2),
                   encoding="utf-8")
    result = CliRunner().invoke(app, ["score", str(hyp), "--gold", str(gold), "--segment",
                                      "project"])
    assert result.exit_code == 1
    assert f"{hyp}:2: a hypothesis of 100,001 characters" in result.output
