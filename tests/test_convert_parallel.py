"""Text ↔ M2 conversions through `convert` and the CLI, on hand-written fixtures and on the
real data in ../shared (skipped when it is absent)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import FIXTURES, shared_file
from gecformats.convert import extract
from gecformats.cli import app
from gecformats.convert import convert
from gecformats.convert.extract import ExtractionReport
from gecformats.formats import m2, parallel
from gecformats.model import Parallel, Sentence
from gecformats.tokenize import get_tokenizer

EXTRACT = FIXTURES / "extract"
EN_SRC, EN_REF0, EN_REF1 = EXTRACT / "en.src", EXTRACT / "en.ref0", EXTRACT / "en.ref1"
ZH_TRAIN, ZH_CHERRANT = EXTRACT / "zh.train", EXTRACT / "zh.cherrant"

CONLL_SRC = "corpora/conll14/gecmetrics/conll14st-test.tok.src"
CONLL_M2 = "corpora/conll14/conll14st-test-data/noalt/official-2014.{}.m2"
CONLL_REF = "corpora/gec-ranking/reference_outputs/conll14.ref{}.alledits.txt"
NLPCC_GOLD = "corpora/nlpcc2018/gold.01.m2"


def run(*args: object) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def words(tokenizer: str, text: str) -> tuple[str, ...]:
    return tuple(t.text for t in get_tokenizer(tokenizer).tokenize(text))


def text_lines(path: Path) -> list[str]:
    with open(path, encoding="utf-8", newline="") as fh:
        return [line.rstrip("\n") for line in fh]


def edit_set(sentence: Sentence, annotator: bool = False) -> set[tuple[object, ...]]:
    return {(e.start, e.end, e.correction) + ((e.annotator,) if annotator else ())
            for e in sentence.edits}


# ------------------------------------------------------------------ fixtures: text → M2

EN_M2 = """\
S He go to school yesterday .
A 1 2|||R|||went|||REQUIRED|||-NONE-|||0
A 3 3|||M|||the|||REQUIRED|||-NONE-|||0
A 1 2|||R|||went|||REQUIRED|||-NONE-|||1

S This is a test .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1

S I like very much it .
A 2 5|||R:WO|||it very much|||REQUIRED|||-NONE-|||0
A 1 1|||M|||really|||REQUIRED|||-NONE-|||1
A 2 4|||U||||||REQUIRED|||-NONE-|||1

S The the cat sat on mat .
A 1 2|||U||||||REQUIRED|||-NONE-|||0
A 5 5|||M|||the|||REQUIRED|||-NONE-|||0
A 1 2|||U||||||REQUIRED|||-NONE-|||1

S She has a apple .
A 2 3|||R|||an|||REQUIRED|||-NONE-|||0
A 1 3|||R|||had an|||REQUIRED|||-NONE-|||1

"""


@pytest.mark.parametrize("tokenizer", ["space", "en"])
def test_parallel_to_m2(tmp_path: Path, tokenizer: str) -> None:
    out = tmp_path / "out.m2"
    code, _, err = run("convert", EN_SRC, out, "--from", "parallel", "--ref", EN_REF0,
                       "--ref", EN_REF1, "--tokenizer", tokenizer)
    assert code == 0, err
    assert out.read_text(encoding="utf-8") == EN_M2
    assert err.splitlines() == [
        "gecformats: 5 sentences, 10 references, 11 edits, 2 noop references, 1 spacing-only",
        f"gecformats: wrote 5 sentences to {out}",
    ]


def test_parallel_to_m2_default_tokenizer_is_en_and_jobs_do_not_matter(tmp_path: Path) -> None:
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}.m2"
        assert run("convert", EN_SRC, out, "--from", "parallel", "--ref", EN_REF0, "--ref",
                   EN_REF1, "--jobs", jobs)[0] == 0
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] == EN_M2.encode()


def test_parallel_to_m2_report(tmp_path: Path) -> None:
    out, report = tmp_path / "out.m2", tmp_path / "r.json"
    code, _, err = run("convert", EN_SRC, out, "--from", "parallel", "--ref", EN_REF0, "--ref",
                       EN_REF1, "--tokenizer", "space", "--report", report, "--quiet")
    # --quiet still says what was lost: a reference's spacing (issue 22)
    assert code == 0 and err.count("\n") == 1 and "1 spacing-only" in err
    data = json.loads(report.read_text(encoding="utf-8"))
    assert {k: data[k] for k in ("sentences", "references", "edits", "noops", "absent")} == {
        "sentences": 5, "references": 10, "edits": 11, "noops": 2, "absent": 0}
    assert data["counts"] == {"spacing-only": 1}
    assert data["examples"] == {"spacing-only": ["sentence 2, annotator 1"]}
    assert data["versions"] == {"tokenizer": "space-1"}


def test_types_and_split_substitutions_options(tmp_path: Path) -> None:
    out = tmp_path / "out.m2"
    assert run("convert", EN_SRC, out, "--from", "parallel", "--ref", EN_REF1, "--tokenizer",
               "space", "--types", "nlpcc", "--split-substitutions")[0] == 0
    blocks = out.read_text(encoding="utf-8").split("\n\n")
    assert blocks[0].splitlines()[1] == "A 1 2|||S|||went|||REQUIRED|||-NONE-|||0"
    assert blocks[2].splitlines()[1:] == ["A 1 1|||M|||really|||REQUIRED|||-NONE-|||0",
                                          "A 2 4|||R||||||REQUIRED|||-NONE-|||0"]
    assert blocks[4].splitlines()[1:] == ["A 1 2|||S|||had|||REQUIRED|||-NONE-|||0",
                                          "A 2 3|||S|||an|||REQUIRED|||-NONE-|||0"]


def test_parallel_folder_round_trip(tmp_path: Path) -> None:
    m2_file, folder, again = tmp_path / "a.m2", tmp_path / "folder", tmp_path / "b.m2"
    m2_file.write_text(EN_M2, encoding="utf-8")
    code, _, err = run("convert", m2_file, folder, "--to", "parallel")
    assert code == 0, err
    assert "gecformats: 5 sentences, 10 references, 11 edits, 2 noop references" in err
    assert sorted(p.name for p in folder.iterdir()) == ["annotator-0.txt", "annotator-1.txt",
                                                        "source.txt"]
    assert (folder / "source.txt").read_bytes() == EN_SRC.read_bytes()
    assert (folder / "annotator-0.txt").read_bytes() == EN_REF0.read_bytes()
    # the spacing-only difference of reference 1 is gone (it was reported on the way in)
    assert text_lines(folder / "annotator-1.txt") == [
        " ".join(line.split()) for line in text_lines(EN_REF1)]
    assert run("convert", folder, again, "--from", "parallel", "--tokenizer", "space")[0] == 0
    assert again.read_text(encoding="utf-8") == EN_M2


def test_m2_to_text_alternative(tmp_path: Path) -> None:
    src = tmp_path / "alt.m2"
    src.write_text("S He go to school by bus .\n"
                   "A 1 2|||Vt|||went||has gone|||REQUIRED|||-NONE-|||0\n"
                   "A 4 5|||Prep|||on|||OPTIONAL|||-NONE-|||0\n"
                   "A 1 2|||Vt|||goes|||REQUIRED|||-NONE-|||1\n\n", encoding="utf-8")
    for alternative, expected in (("0", "He went to school on bus ."),
                                  ("1", "He has gone to school on bus .")):
        out, report = tmp_path / f"out{alternative}.tsv", tmp_path / f"r{alternative}.json"
        code, _, err = run("convert", src, out, "--alternative", alternative, "--report", report)
        assert code == 0, err
        assert out.read_text(encoding="utf-8") == (
            f"He go to school by bus .\t{expected}\tHe goes to school by bus .\n")
        counts = json.loads(report.read_text(encoding="utf-8"))["counts"]
        assert counts == ({"no-alternative": 2} if alternative == "1" else {})


def test_m2_to_text_reports_bad_edits(tmp_path: Path) -> None:
    src = tmp_path / "bad.m2"
    src.write_text("S a b c\nA 0 1|||X|||x|||REQUIRED|||-NONE-|||0\n"
                   "A 0 2|||X|||y|||REQUIRED|||-NONE-|||0\nA 2 9|||X|||z|||REQUIRED|||-NONE-|||0\n\n",
                   encoding="utf-8")
    out, report = tmp_path / "out", tmp_path / "r.json"
    code, _, err = run("convert", src, out, "--to", "parallel", "--report", report)
    assert code == 0
    assert "1 out-of-range, 1 overlap" in err
    assert (out / "annotator-0.txt").read_text(encoding="utf-8") == "x b c\n"
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["examples"] == {"overlap": ["sentence 1, annotator 0: 0 2"],
                                "out-of-range": ["sentence 1, annotator 0: 2 9"]}


def test_m2_to_chinese_text_is_joined_without_spaces(tmp_path: Path) -> None:
    src = tmp_path / "zh.m2"
    src.write_text("S 他们 去 了 学校 ，\nA 2 3|||R|||-NONE-|||REQUIRED|||-NONE-|||0\n"
                   "A 4 5|||S|||。|||REQUIRED|||-NONE-|||0\n\n", encoding="utf-8")
    for tokenizer, expected in (("zh", "他们去了学校，\t他们去学校。\n"),
                                ("char", "他们去了学校，\t他们去学校。\n"),
                                ("space", "他们 去 了 学校 ，\t他们 去 学校 。\n")):
        out = tmp_path / f"{tokenizer}.tsv"
        assert run("convert", src, out, "--tokenizer", tokenizer)[0] == 0
        assert out.read_text(encoding="utf-8") == expected


def test_nlpcc_to_m2(tmp_path: Path) -> None:
    out = tmp_path / "out.m2"
    code, _, err = run("convert", ZH_TRAIN, out, "--from", "nlpcc", "--tokenizer", "char")
    assert code == 0, err
    assert "4 sentences, 4 references, 6 edits, 2 noop references" in err
    assert out.read_text(encoding="utf-8") == """\
S 我 在 家 里 一 个 人 学 习 中 文 。
A 4 7|||S|||自|||REQUIRED|||-NONE-|||0
A 8 9|||R||||||REQUIRED|||-NONE-|||0

S 我 是 里 阿 德 ， 来 自 以 色 列 。
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S 他 们 去 了 学 校 ，
A 3 4|||R||||||REQUIRED|||-NONE-|||0
A 6 7|||S|||。|||REQUIRED|||-NONE-|||0
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1

S 他 来 了 ， 我 很 高 兴 。
A 1 2|||S|||來|||REQUIRED|||-NONE-|||0
A 7 8|||S|||興|||REQUIRED|||-NONE-|||0

"""
    zh = tmp_path / "zh.m2"
    assert run("convert", ZH_TRAIN, zh, "--from", "nlpcc", "--tokenizer", "zh")[0] == 0
    for s, p in zip(m2.read(zh), extract_items(ZH_TRAIN, "nlpcc")):
        assert s.source == words("zh", p.source)
        for k, ref in enumerate(p.references or (p.source,)):
            assert s.corrected(k) == words("zh", ref)
        assert {e.type for e in s.edits} <= {"M", "R", "S", "W"}


def test_nlpcc_strip_edges(tmp_path: Path) -> None:
    train = tmp_path / "edges.train"
    train.write_text("1\t1\t我在家。\t\u3000我在家。 \n", encoding="utf-8")
    for flag, counts in (((), {"spacing-only": 1}), (("--strip-edges",), {})):
        out, report = tmp_path / "out.m2", tmp_path / "r.json"
        code, _, err = run("convert", train, out, "--from", "nlpcc", "--tokenizer", "char",
                           "--report", report, *flag)
        assert code == 0, err
        assert out.read_text(encoding="utf-8") == (
            "S 我 在 家 。\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n")
        assert json.loads(report.read_text(encoding="utf-8"))["counts"] == counts


def extract_items(path: Path, fmt: str) -> list[Parallel]:
    from gecformats import formats

    return list(formats.get(fmt).read(path))


def test_cherrant_to_m2(tmp_path: Path) -> None:
    out, report = tmp_path / "out.m2", tmp_path / "r.json"
    code, _, err = run("convert", ZH_CHERRANT, out, "--from", "cherrant", "--tokenizer", "char",
                       "--report", report)
    assert code == 0, err
    assert out.read_text(encoding="utf-8") == """\
S 这 样 ， 你 就 会 尝 到 泰 国 人 死 爱 的 味 道 。
A 11 13|||W|||爱 死|||REQUIRED|||-NONE-|||0
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1

S 我 在 家 里 。

S 他 们 去 了 学 校 ，
A 3 4|||R||||||REQUIRED|||-NONE-|||0
A 6 7|||S|||。|||REQUIRED|||-NONE-|||0

"""
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["counts"] == {"unannotatable": 1}
    assert data["examples"] == {"unannotatable": ["sentence 2, annotator 0"]}
    assert (data["references"], data["noops"]) == (3, 1)


def test_tsv_to_m2_and_back(tmp_path: Path) -> None:
    tsv = tmp_path / "in.tsv"
    tsv.write_text("He go home .\tHe goes home .\tHe went home .\n\"\t\" .\n", encoding="utf-8")
    out, back = tmp_path / "out.m2", tmp_path / "back.tsv"
    assert run("convert", tsv, out, "--tokenizer", "space")[0] == 0
    assert out.read_text(encoding="utf-8") == (
        "S He go home .\nA 1 2|||R|||goes|||REQUIRED|||-NONE-|||0\n"
        "A 1 2|||R|||went|||REQUIRED|||-NONE-|||1\n\n"
        "S \"\nA 1 1|||M|||.|||REQUIRED|||-NONE-|||0\n\n")
    assert run("convert", out, back)[0] == 0
    assert back.read_bytes() == tsv.read_bytes()


def test_m2_to_m2_by_characters(tmp_path: Path) -> None:
    src = tmp_path / "w.m2"
    src.write_text("S 我 喜欢 看书\nA 2 3|||S|||看报|||REQUIRED|||-NONE-|||0\n"
                   "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n\n", encoding="utf-8")
    for flag, edit in (((), "A 3 5|||S|||看 报"), (("--shrink",), "A 4 5|||S|||报")):
        out = tmp_path / "c.m2"
        code, _, err = run("convert", src, out, "--tokenizer", "char", *flag)
        assert code == 0, err
        assert out.read_text(encoding="utf-8") == (
            f"S 我 喜 欢 看 书\n{edit}|||REQUIRED|||-NONE-|||0\n"
            "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n\n")
        assert "1 sentences, 1 edits" in err


# ------------------------------------------------------------------ CLI errors


@pytest.mark.parametrize("tokenizer", ["en", "zh", "space"])
def test_m2_to_m2_cannot_retokenize(tmp_path: Path, tokenizer: str) -> None:
    out = tmp_path / "out.m2"
    code, _, err = run("convert", FIXTURES / "m2" / "conll14.m2", out, "--tokenizer", tokenizer)
    assert code == 2  # usage
    assert err.strip() == (f"gecformats: M2 → M2 can only split words into characters "
                           f"(--tokenizer char), not re-tokenize with '{tokenizer}'")
    assert list(tmp_path.iterdir()) == []


def test_text_and_hoo_do_not_convert(tmp_path: Path) -> None:
    code, _, err = run("convert", EN_SRC, tmp_path / "hoo", "--from", "parallel", "--ref",
                       EN_REF0, "--to", "hoo2011")
    assert code == 2  # usage
    assert err.strip() == "gecformats: no conversion between parallel and hoo2011: convert through M2"
    hoo = FIXTURES / "hoo2011"
    code, _, err = run("convert", hoo, tmp_path / "out.tsv", "--from", "hoo2011")
    assert code == 2
    assert err.strip() == "gecformats: no conversion between hoo2011 and tsv: convert through M2"
    assert list(tmp_path.iterdir()) == []


def test_convert_function_refuses_text_to_hoo(tmp_path: Path) -> None:
    from gecformats.errors import GecFormatError

    with pytest.raises(GecFormatError, match="no conversion between tsv and hoo2012"):
        convert(ZH_TRAIN, tmp_path / "x", from_format="tsv", to_format="hoo2012")


# ------------------------------------------------------------------ ../shared: CoNLL-2014


@pytest.mark.parametrize("k", [0, 1])
def test_conll14_m2_to_parallel_gives_the_published_references(tmp_path: Path, k: int) -> None:
    gold = shared_file(CONLL_M2.format(k))
    expected = shared_file(CONLL_REF.format(k))
    source = shared_file(CONLL_SRC)
    out = tmp_path / "out"
    code, _, err = run("convert", gold, out, "--to", "parallel")
    assert code == 0, err
    # in official-2014.1.m2 the annotator id is 0 as well
    assert sorted(p.name for p in out.iterdir()) == ["annotator-0.txt", "source.txt"]
    assert (out / "annotator-0.txt").read_bytes() == expected.read_bytes()
    assert (out / "source.txt").read_bytes() == source.read_bytes()


@pytest.mark.parametrize("tokenizer", ["space", "en"])
def test_conll14_extraction_reproduces_every_reference(tmp_path: Path, tokenizer: str) -> None:
    src = shared_file(CONLL_SRC)
    refs = [shared_file(CONLL_REF.format(k)) for k in (0, 1)]
    items = list(parallel.read(src, refs=refs))
    report = ExtractionReport()
    found = list(extract.sentences(items, tokenizer, report=report))
    assert len(found) == len(items) == 1312
    for p, s in zip(items, found):
        assert s.source == words(tokenizer, p.source)
        for k, ref in enumerate(p.references):
            assert s.corrected(k) == words(tokenizer, ref)
    assert (report.sentences, report.references, report.noops) == (1312, 2624, 547)
    # the same through the M2 file the CLI writes (two workers), read back
    out = tmp_path / "out.m2"
    code, _, err = run("convert", src, out, "--from", "parallel", "--ref", refs[0], "--ref",
                       refs[1], "--tokenizer", tokenizer, "--jobs", "2")
    assert code == 0, err
    back = list(m2.read(out))
    assert [(s.source, dict(s.annotators)) for s in back] == [
        (s.source, dict(s.annotators)) for s in found]
    for p, s in zip(items, back):
        for k, ref in enumerate(p.references):
            assert s.corrected(k) == words(tokenizer, ref)


def test_conll14_agreement_with_the_gold_edits(capsys: pytest.CaptureFixture[str]) -> None:
    src = shared_file(CONLL_SRC)
    expected = {  # (sentences with identical edit sets, gold edits matched, gold edits)
        (0, False): (1033, 1681, 2391), (0, True): (1064, 1814, 2391),
        (1, False): (938, 2452, 3317), (1, True): (983, 2645, 3317),
    }
    found = {}
    for k in (0, 1):
        gold = list(m2.read(shared_file(CONLL_M2.format(k))))
        items = list(parallel.read(src, refs=[shared_file(CONLL_REF.format(k))]))
        for split in (False, True):
            ours = list(extract.sentences(items, "space", split_substitutions=split))
            same = matched = total = 0
            for g, s in zip(gold, ours, strict=True):
                g_set, s_set = edit_set(g), edit_set(s)
                same += g_set == s_set
                matched += len(g_set & s_set)
                total += len(g_set)
            found[k, split] = (same, matched, total)
    with capsys.disabled():
        print()
        for (k, split), (same, matched, total) in found.items():
            print(f"conll14 ref{k} {'split ' if split else 'merged'}: {same} of 1312 sentences "
                  f"with identical edit sets, {matched} of {total} gold edits matched")
    assert found == expected


# ------------------------------------------------------------------ ../shared: NLPCC 2018


def _nlpcc_items() -> tuple[list[Sentence], list[Parallel], ExtractionReport]:
    gold = list(m2.read(shared_file(NLPCC_GOLD)))
    report = ExtractionReport()
    items = list(extract.parallels(gold, joiner="", report=report))
    return gold, items, report


def test_nlpcc_gold_to_text_report() -> None:
    gold, items, report = _nlpcc_items()
    assert len(items) == 2000
    assert all(p.source == "".join(s.source) for s, p in zip(gold, items))
    # 17 sentences without A lines have no reference; 1215 and 1945 only annotator 1
    assert sum(1 for p in items if not p.references) == 17
    assert [n for n, p in enumerate(items, 1) if p.references[:1] == (None,)] == [1215, 1945]
    assert (report.references, report.absent) == (2242, 2)
    assert report.counts == {"out-of-range": 1, "overlap": 1}
    assert report.examples == {"out-of-range": ["sentence 1682, annotator 0: 19 202"],
                               "overlap": ["sentence 1104, annotator 0: 1 2"]}


@pytest.mark.parametrize("tokenizer", ["zh", "char"])
def test_nlpcc_extraction_reproduces_every_reference(tokenizer: str) -> None:
    _gold, items, _ = _nlpcc_items()
    report = ExtractionReport()
    found = list(extract.sentences(items, tokenizer, report=report))
    for p, s in zip(items, found):
        assert s.source == words(tokenizer, p.source)
        assert sorted(s.annotators) == (list(p.present()) if p.references else [0])
        for k in p.present():
            assert s.corrected(k) == words(tokenizer, p.references[k])
        assert {e.type for e in s.edits} <= {"M", "R", "S", "W"}
    assert (report.sentences, report.references, report.noops, report.absent) == (
        2000, 2242, 17, 2)


def test_nlpcc_raw_source_against_the_oracle() -> None:
    raw = text_lines(shared_file("corpora/nlpcc2018/source.txt"))
    oracle = [line.replace(" ", "")
              for line in text_lines(shared_file("reference/nlpcc2018/oracle-ann0.gold-tokens.txt"))]
    assert len(raw) == len(oracle) == 2000
    assert sum("\ufeff" in line for line in raw) == 7
    report = ExtractionReport()
    found = list(extract.sentences((Parallel(s, (o,)) for s, o in zip(raw, oracle)), "zh",
                                   report=report))
    for line, ref, s in zip(raw, oracle, found):
        assert not any(t.isspace() or "\ufeff" in t or " " in t for t in s.source)
        assert "".join(s.source) == line.replace("\ufeff", "").replace(" ", "")
        assert s.corrected(0) == words("zh", ref)
    assert report.sentences == 2000 and report.references == 2000


def test_nlpcc_text_round_trip_through_files(tmp_path: Path) -> None:
    gold = shared_file(NLPCC_GOLD)
    folder, out = tmp_path / "folder", tmp_path / "out.m2"
    code, _, err = run("convert", gold, folder, "--to", "parallel", "--tokenizer", "char")
    assert code == 0, err
    assert "1 out-of-range, 1 overlap" in err
    code, _, err = run("convert", folder, out, "--from", "parallel", "--tokenizer", "char")
    assert code == 0, err
    texts = list(parallel.read(folder))
    back = list(m2.read(out))
    assert len(back) == len(texts) == 2000
    for p, s in zip(texts, back):
        assert s.source == tuple(p.source)
        for k in p.present():
            assert "".join(s.corrected(k)) == p.references[k]


def test_nlpcc_words_to_characters(tmp_path: Path) -> None:
    gold_path = shared_file(NLPCC_GOLD)
    out, report_path = tmp_path / "char.m2", tmp_path / "r.json"
    code, _, err = run("convert", gold_path, out, "--tokenizer", "char", "--report", report_path)
    assert code == 0, err
    report = json.loads(report_path.read_text(encoding="utf-8"))
    assert (report["sentences"], report["counts"]) == (2000, {"out-of-range": 1})
    assert report["examples"] == {"out-of-range": ["sentence 1682, annotator 0: 19 202"]}
    word_level, char_level = list(m2.read(gold_path)), list(m2.read(out))
    assert len(char_level) == 2000
    word_report, char_report = ExtractionReport(), ExtractionReport()
    for n, (w, c) in enumerate(zip(word_level, char_level, strict=True), 1):
        assert c.source == tuple("".join(w.source))
        assert list(c.annotators) == list(w.annotators)
        assert (extract.to_parallel(c, joiner="", report=char_report, number=n)
                == extract.to_parallel(w, joiner="", report=word_report, number=n))
    # the word level leaves out 1682's out-of-range edit when applying; the char file lacks it
    assert word_report.counts == {"out-of-range": 1, "overlap": 1}
    assert char_report.counts == {"overlap": 1}  # 1104's duplicated edit is still there


def test_nlpcc_cherrant_words_to_characters(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    word = shared_file("corpora/nlpcc2018/cherrant.nlpcc2018_official.ref.m2.word")
    char = list(m2.read(shared_file("corpora/nlpcc2018/cherrant.nlpcc2018_official.ref.m2.char")))
    counts = {}
    for flag in ((), ("--shrink",)):
        out = tmp_path / "out.m2"
        code, _, err = run("convert", word, out, "--tokenizer", "char", *flag)
        assert code == 0, err
        ours = list(m2.read(out))
        assert [s.source for s in ours] == [s.source for s in char]
        counts[bool(flag)] = sum(edit_set(a, True) == edit_set(b, True)
                                 for a, b in zip(ours, char, strict=True))
        if flag:  # the alternative alignments come along
            assert sum(len(ts) for s in ours for ts in s.targets.values()) == sum(
                len(ts) for s in m2.read(word) for ts in s.targets.values())
    with capsys.disabled():
        print(f"\nChERRANT word → char: {counts[False]} of 2000 sentences with identical edit "
              f"sets, {counts[True]} with --shrink")
    assert counts == {False: 1093, True: 1728}


def test_nlpcc_training_sample_to_m2(tmp_path: Path) -> None:
    sample = shared_file("corpora/nlpcc2018/data.train.sample73.txt")
    out, report_path = tmp_path / "out.m2", tmp_path / "r.json"
    code, _, err = run("convert", sample, out, "--from", "nlpcc", "--to", "m2", "--tokenizer",
                       "zh", "--report", report_path)
    assert code == 0, err
    assert "73 sentences, 86 references" in err and "25 noop references" in err
    report = json.loads(report_path.read_text(encoding="utf-8"))
    assert {k: report[k] for k in ("sentences", "references", "noops", "absent", "counts")} == {
        "sentences": 73, "references": 86, "noops": 25, "absent": 0, "counts": {}}
    items = list(m2.read(out))
    texts = extract_items(sample, "nlpcc")
    assert len(items) == len(texts) == 73
    n0 = [p for p in texts if not p.references]
    assert len(n0) == 24 and all(p.meta.get("nlpcc.n") == "0" for p in n0)
    for p, s in zip(texts, items):
        assert s.source == words("zh", p.source)
        if not p.references:
            assert dict(s.annotators) == {0: ()}
        for k, ref in enumerate(p.references):
            assert s.corrected(k) == words("zh", ref)
    assert sum(1 for s in items for edits in s.annotators.values() if not edits) == 25


@pytest.mark.parametrize(("option", "message"), [
    (("--t2s",), "--t2s applies only to text → M2"),
    (("--types", "nlpcc"), "--types applies only to text → M2"),
    (("--split-substitutions",), "--split-substitutions applies only to text → M2"),
    (("--jobs", "2"), "--jobs applies only to text → M2"),
])
def test_extraction_options_are_refused_elsewhere(tmp_path: Path, option: tuple[str, ...],
                                                  message: str) -> None:
    out = tmp_path / "out"
    code, _, err = run("convert", FIXTURES / "m2" / "conll14.m2", out, "--to", "parallel", *option)
    assert code == 2 and message in err
    assert not out.exists()


def test_alternative_is_refused_outside_m2_to_text(tmp_path: Path) -> None:
    code, _, err = run("convert", EN_SRC, tmp_path / "o.m2", "--from", "parallel", "--ref",
                       EN_REF0, "--alternative", "1")
    assert code == 2 and "--alternative applies only to M2 → text" in err


def test_character_level_extraction_against_cherrant() -> None:
    # each gold.01 reference re-extracted at character level gives ChERRANT's own char-level
    # edit set (its first alignment) for 1,831 of the 2,000 sentences
    gold = m2.read(shared_file(NLPCC_GOLD))
    char = m2.read(shared_file("corpora/nlpcc2018/cherrant.nlpcc2018_official.ref.m2.char"))
    same = 0
    for g, c in zip(gold, char):
        ours = extract.extract(extract.to_parallel(g, joiner=""), "char")
        same += {k: sorted((e.start, e.end, e.correction) for e in edits)
                 for k, edits in ours.annotators.items()} == {
                 k: sorted((e.start, e.end, e.correction) for e in edits)
                 for k, edits in c.annotators.items()}
    assert same == 1831


# ------------------------------------------------------------- --absent (issue 13)

ABSENT_M2 = ("S a b\nA 0 1|||X|||x|||REQUIRED|||-NONE-|||0\nA 1 2|||X|||y|||REQUIRED|||-NONE-|||1\n\n"
             "S c d\nA 0 1|||X|||z|||REQUIRED|||-NONE-|||1\n\n"
             "S e f\nA 1 2|||X|||w|||REQUIRED|||-NONE-|||0\n\n")


@pytest.mark.parametrize("absent, expected0, expected1", [
    (None, "x b\nc d\ne w\n", "a y\nz d\ne f\n"),
    ("source", "x b\nc d\ne w\n", "a y\nz d\ne f\n"),
    ("first", "x b\nz d\ne w\n", "a y\nz d\ne w\n"),
])
def test_absent_annotators_in_m2_to_text(tmp_path: Path, absent: str | None, expected0: str,
                                         expected1: str) -> None:
    gold = tmp_path / "gold.m2"
    gold.write_text(ABSENT_M2)
    out = tmp_path / "out"
    code, _, err = run("convert", gold, out, "--to", "parallel",
                       *(["--absent", absent] if absent else []))
    assert code == 0
    assert (out / "annotator-0.txt").read_text() == expected0
    assert (out / "annotator-1.txt").read_text() == expected1
    assert "dropped" not in err  # an absent annotator is not lost data
    if absent:
        assert "2 references of annotators absent from a sentence" in err and f"--absent {absent}" in err


def test_absent_skip_is_for_formats_that_can_leave_a_reference_out(tmp_path: Path) -> None:
    gold = tmp_path / "gold.m2"
    gold.write_text(ABSENT_M2)
    for to in ("parallel", "tsv"):
        code, _, err = run("convert", gold, tmp_path / "out", "--to", to, "--absent", "skip")
        assert code == 2 and "--absent skip" in err
    code, _, _ = run("convert", gold, tmp_path / "out.train", "--absent", "skip")
    assert code == 0
    assert run("convert", EN_SRC, tmp_path / "o.m2", "--from", "parallel", "--ref", EN_REF0,
               "--absent", "first")[0] == 2


def test_absent_first_reproduces_the_conll_2014_reference_files(tmp_path: Path) -> None:
    from conftest import shared_file

    combined = shared_file("corpora/conll14/conll14st-test-data/noalt/official-2014.combined.m2")
    ref1 = next(shared_file("corpora/gec-ranking").rglob("conll14.ref1.alledits.txt"))
    out = tmp_path / "out"
    assert run("convert", combined, out, "--to", "parallel", "--absent", "first")[0] == 0
    assert (out / "annotator-1.txt").read_bytes() == ref1.read_bytes()


# ------------------------------------------------------------- a missing reference (issue 22)


def test_parallel_without_ref_is_an_error(tmp_path: Path) -> None:
    """`convert src x.m2 --from parallel` with no --ref wrote a noop block per line."""
    out = tmp_path / "x.m2"
    code, _, err = run("convert", EN_SRC, out, "--from", "parallel")
    assert code == 2 and "--ref REF" in err and not out.exists()
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "source.txt").write_text(EN_SRC.read_text())
    code, _, err = run("convert", folder, out, "--from", "parallel")
    assert code == 1 and "no annotator-<k>.txt" in err and not out.exists()
    assert run("convert", EN_SRC, out, "--from", "parallel", "--ref", EN_REF0)[0] == 0


def test_tsv_without_any_reference_column_is_an_error(tmp_path: Path) -> None:
    sources = tmp_path / "sources.tsv"
    sources.write_text("He go home .\nShe is here .\n")
    out = tmp_path / "x.m2"
    code, _, err = run("convert", sources, out, "--tokenizer", "space")
    assert code == 1 and "sources.tsv:1: no line has a reference column" in err
    assert not out.exists()


def test_tsv_lines_without_a_reference_are_counted(tmp_path: Path) -> None:
    """Some lines without a reference column (a sentence judged correct, as gecformats'
    own tsv writes an M2 sentence without A lines) and empty reference fields are extracted
    as before, and counted in the summary."""
    data = tmp_path / "some.tsv"
    data.write_text("He go home .\tHe goes home .\nShe is here .\nIt rain .\t\n")
    out = tmp_path / "x.m2"
    code, _, err = run("convert", data, out, "--tokenizer", "space")
    assert code == 0
    assert "1 lines without a reference column: a noop annotator 0" in err
    assert "1 empty references of a non-empty source: the whole sentence deleted" in err
    blocks = out.read_text().split("\n\n")
    assert blocks[1] == "S She is here .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0"


def test_absent_default_follows_the_file(tmp_path: Path) -> None:
    """Issue 22 item 7, M2 → text: a file that writes noop lines beside other annotators'
    edits (the CoNLL-2014 combined file) gets 'first' by default; one without keeps the
    source (test_absent_annotators_in_m2_to_text)."""
    gold = tmp_path / "gold.m2"
    gold.write_text(ABSENT_M2 + "S g h\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
                    "A 0 1|||X|||v|||REQUIRED|||-NONE-|||1\n\n")
    out = tmp_path / "out"
    code, _, err = run("convert", gold, out, "--to", "parallel")
    assert code == 0
    assert (out / "annotator-0.txt").read_text() == "x b\nz d\ne w\ng h\n"
    assert (out / "annotator-1.txt").read_text() == "a y\nz d\ne w\nv h\n"
    assert "2 references of annotators absent from a sentence (--absent auto: wrote the first" in err
    code, _, err = run("convert", gold, tmp_path / "o.tsv", "--absent", "source")
    assert code == 0 and (tmp_path / "o.tsv").read_text().splitlines()[1] == "c d\tc d\tz d"


def test_combined_conll_gold_gives_the_reference_files_by_default(tmp_path: Path) -> None:
    from conftest import shared_file

    combined = shared_file("corpora/conll14/conll14st-test-data/noalt/official-2014.combined.m2")
    ref1 = next(shared_file("corpora/gec-ranking").rglob("conll14.ref1.alledits.txt"))
    out = tmp_path / "out"
    assert run("convert", combined, out, "--to", "parallel")[0] == 0
    assert (out / "annotator-1.txt").read_bytes() == ref1.read_bytes()


def test_extraction_reports_progress_per_sentence(tmp_path):
    """convert's progress callback (the CLI's bar on a terminal) hears of every sentence
    extracted; the output does not depend on it."""
    from gecformats.convert import convert as convert_file

    src, ref = tmp_path / "s.txt", tmp_path / "r.txt"
    src.write_text("a b\nc d\ne f\n", encoding="utf-8")
    ref.write_text("a x\nc d\ne\n", encoding="utf-8")
    steps: list[int] = []
    convert_file(src, tmp_path / "p.m2", from_format="parallel", refs=[str(ref)],
                 tokenizer="space", progress=steps.append)
    convert_file(src, tmp_path / "q.m2", from_format="parallel", refs=[str(ref)],
                 tokenizer="space")
    assert steps == [1, 1, 1]
    assert (tmp_path / "p.m2").read_bytes() == (tmp_path / "q.m2").read_bytes()
