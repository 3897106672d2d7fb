"""gecformats align (gecformats.convert.align; issue 35): a system's text re-segmented onto
the gold's sentences, whatever its lines: merged and split sentences, paragraphs, whole
documents, missing and extra lines, Chinese without spaces; an aligned file comes back byte
for byte; and on CoNLL-2014 submissions cut up at random, the original lines and F0.5
come back (the longer runs: tests/bench/bench_align.py)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import shared_file
from gecformats.cli import app
from gecformats.convert import align as align_module
from gecformats.convert.align import align_lines, read_gold
from gecformats.errors import GecFormatError, UsageError

GOLD = ["The cat sat on the mat .", "Dogs bark at night .", "Birds sing in the morning .",
        "Fish swim in the sea .", "My brother like apples and oranges ."]
HYP = ["The cat sat on the mat .", "Dogs barks at night .", "Birds sing in the morning .",
       "Fish swim in the sea .", "My brother likes apples and oranges ."]
M2 = "".join(f"S {s}\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n" for s in GOLD)


def run(*args: object, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, [str(a) for a in args], input=input)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def write(path: Path, rows: list[str]) -> Path:
    path.write_text("".join(r + "\n" for r in rows), encoding="utf-8")
    return path


def kinds(alignment: align_module.Alignment) -> list[tuple[str, tuple[int, int], tuple[int, int]]]:
    return [(k.kind, k.sentences, k.hypothesis_lines) for k in alignment.links]


# ------------------------------------------------------------------ small cases


def test_aligned_output_comes_back_byte_for_byte() -> None:
    odd = ["  The cat sat on the mat .  ", "Dogs barks at night .\t", "", "Fish swim in the sea .",
           "My brother likes apples and oranges . Mr. Smith said so !"]
    a = align_lines(GOLD, odd)
    assert a.lines == odd and a.links == () and a.kept == 5


def test_merged_and_split_lines() -> None:
    hyp = [f"{HYP[0]} {HYP[1]}", "Birds sing in", "the morning .", HYP[3], HYP[4]]
    a = align_lines(GOLD, hyp)
    assert a.lines == HYP
    assert kinds(a) == [("2-1", (0, 2), (0, 1)), ("1-2", (2, 3), (1, 3))]
    assert [k.what for k in a.links] == ["cut", "joined"]
    assert a.summary("out.txt", "gold.m2") == (
        "out.txt: 5 lines onto 5 sentences of gold.m2: 2 kept as they were; 1 line cut into "
        "2 sentences, 1 sentence joined from 2 lines")


def test_one_paragraph_or_document_a_line() -> None:
    assert align_lines(GOLD, [" ".join(HYP)]).lines == HYP
    assert align_lines(GOLD, [" ".join(HYP[:2]), "", " ".join(HYP[2:])]).lines == HYP
    # sentence ends the units do not see (no final stop) are found by the cut
    gold = ["A title without a stop", *GOLD]
    assert align_lines(gold, ["A title without a stop " + " ".join(HYP)]).lines == ["A title without a stop", *HYP]


def test_split_off_ends_go_back_to_their_sentence() -> None:
    hyp = ["The cat sat on the mat", ". Dogs barks at night", ".", *HYP[2:]]
    assert align_lines(GOLD, hyp).lines == ["The cat sat on the mat .", "Dogs barks at night .", *HYP[2:]]
    # an exact sentence with its closing quote left on the line keeps the quote ...
    gold = ['He asked " why ?', 'Nobody knew the answer to that question .']
    hyp = ['He asked " why ? "', 'Nobody knew the answer to that question .']
    assert align_lines(gold, hyp).lines == hyp
    # ... unless the gold's next sentence opens with it
    gold[1] = '" ' + gold[1]
    assert align_lines(gold, hyp).lines == [hyp[0][:-2], '" ' + hyp[1]]


def test_a_line_cut_short_stays_its_sentence() -> None:
    # a long gold "sentence" (a paragraph, no space after its stops) and an output that
    # stops a third of the way in (BART on CoNLL-2014's paragraphs)
    parts = [f"Part {w} of the paragraph says something rather long about item {w}."
             for w in "one two three four five six".split()]
    gold = ["A short sentence comes before the paragraph .", "".join(parts)]
    hyp = ["A short sentence comes before the paragraph .", " ".join(parts[:2])]
    assert align_lines(gold, hyp).lines == hyp


def test_missing_and_extra_lines() -> None:
    a = align_lines(GOLD, [HYP[0], HYP[2], HYP[3], HYP[4]])
    assert a.lines == [HYP[0], "", *HYP[2:]]
    assert kinds(a) == [("1-0", (1, 2), (1, 1))] and a.links[0].what == "missing"
    extra = "Here is a line that belongs to no sentence of the gold at all"
    a = align_lines(GOLD, [HYP[0], extra, *HYP[1:]])
    assert a.lines == HYP
    assert kinds(a) == [("0-1", (1, 1), (1, 2))] and a.links[0].hypothesis == (extra,)
    assert align_lines(GOLD, []).lines == [""] * 5
    assert align_lines([], ["anything"]).lines == []


def test_blank_lines() -> None:
    # a blank line for a sentence stays; blank lines between paragraphs are dropped
    assert align_lines(GOLD, [HYP[0], "", *HYP[2:]]).lines == [HYP[0], "", *HYP[2:]]
    a = align_lines(GOLD, ["", HYP[0], HYP[1], "", " ".join(HYP[2:]), ""])
    assert a.lines == HYP
    assert {k.what for k in a.links} == {"dropped", "cut"}


def test_chinese_without_spaces() -> None:
    gold = [list("我们昨天去了北京。"), list("天气很好。"), list("我很高兴")]
    assert align_lines(gold, ["我们昨天去了北京。天气很好。我很高兴"]).lines == \
        ["我们昨天去了北京。", "天气很好。", "我很高兴"]
    # no sentence stop at all: cut between characters
    assert align_lines(gold, ["我们昨天去了北京天气很好我很高兴"]).lines == \
        ["我们昨天去了北京", "天气很好", "我很高兴"]


def test_crlf_aligns_as_its_lf_twin() -> None:
    hyp = [f"{HYP[0]} {HYP[1]}", *HYP[2:]]
    assert align_lines(GOLD, [h + "\r" for h in hyp]).lines == align_lines(GOLD, hyp).lines


def test_report_data() -> None:
    a = align_lines(GOLD, [f"{HYP[0]} {HYP[1]}", *HYP[2:]])
    data = a.to_dict()
    assert data["sentences"] == 5 and data["lines"] == 4 and data["kept"] == 3
    assert data["counts"] == {"cut": {"links": 1, "sentences": 2, "lines": 1}}
    assert data["links"] == [{"kind": "2-1", "what": "cut", "sentences": [1, 2], "lines": [1, 1],
                              "gold": GOLD[:2], "hypothesis": [f"{HYP[0]} {HYP[1]}"],
                              "output": HYP[:2]}]


def test_refuses_text_that_is_not_the_gold_output() -> None:
    other = [f"Sentence number {k} of some other test set entirely ." for k in range(30)]
    with pytest.raises(GecFormatError, match="not the gold's output"):
        align_lines(GOLD * 6, other, name="other.txt")


def test_refuses_a_stretch_past_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(align_module, "MAX_SPAN", 3)
    gold = [f"The {w} sentence stands here ." for w in "first second third fourth fifth".split()]
    hyp = [f"A {w} line stands there !" for w in "one two three four five".split()]
    with pytest.raises(GecFormatError) as info:
        align_lines([GOLD[0], *gold], [HYP[0], *hyp], name="h.txt")
    assert (info.value.file, info.value.line) == ("h.txt", 2)
    assert "at least every 3 gold sentences" in str(info.value)


def test_read_gold(tmp_path: Path) -> None:
    m2 = tmp_path / "gold.m2"
    m2.write_text(M2, encoding="utf-8")
    assert read_gold(str(m2)) == [tuple(s.split()) for s in GOLD]
    src = write(tmp_path / "src.txt", GOLD)
    assert read_gold(source=str(src)) == GOLD
    for bad in ({}, {"gold": str(m2), "source": str(src)},
                {"source": str(src), "gold_format": "m2"}):
        with pytest.raises(UsageError):
            read_gold(**bad)  # type: ignore[arg-type]


# ------------------------------------------------------------------ the command


def test_cli_writes_the_lines_and_the_report(tmp_path: Path) -> None:
    (tmp_path / "gold.m2").write_text(M2, encoding="utf-8")
    hyp = write(tmp_path / "hyp.txt", [" ".join(HYP[:3]), *HYP[3:]])
    out, report = tmp_path / "out.txt", tmp_path / "r.json"
    code, stdout, stderr = run("align", hyp, "--gold", tmp_path / "gold.m2", "-o", out,
                               "--report", report)
    assert code == 0 and stdout == ""
    assert out.read_text(encoding="utf-8") == "".join(h + "\n" for h in HYP)
    assert stderr.count("\n") == 1 and "1 line cut into 3 sentences" in stderr
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["hypothesis"] == str(hyp) and data["links"][0]["kind"] == "3-1"
    # --source, standard input and output; a file already aligned comes back as it was
    src = write(tmp_path / "src.txt", GOLD)
    code, stdout, stderr = run("align", "-", "--source", src, "-q",
                               input="".join(h + "\n" for h in HYP))
    assert (code, stdout, stderr) == (0, "".join(h + "\n" for h in HYP), "")


@pytest.mark.parametrize("args, status", [
    (["--gold", "{gold}", "--source", "{src}"], 2), ([], 2),
    (["--source", "{src}", "--gold-format", "m2"], 2), (["--gold", "{missing}"], 1),
    (["--gold", "{gold}", "--gold-format", "nope"], 2), (["--gold", "-"], 2)])
def test_cli_errors(tmp_path: Path, args: list[str], status: int) -> None:
    (tmp_path / "gold.m2").write_text(M2, encoding="utf-8")
    write(tmp_path / "src.txt", GOLD)
    hyp = write(tmp_path / "hyp.txt", HYP)
    out = tmp_path / "out.txt"
    names = {"gold": tmp_path / "gold.m2", "src": tmp_path / "src.txt",
             "missing": tmp_path / "none.m2"}
    if args == ["--gold", "-"]:
        hyp = "-"
    code, _, stderr = run("align", hyp, *[a.format(**names) for a in args], "-o", out)
    assert code == status and stderr.count("\n") == 1 and not out.exists()


def test_cli_bad_utf8_names_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "gold.m2").write_text(M2, encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_bytes(b"The cat sat .\nDogs \xff bark .\n")
    out = tmp_path / "out.txt"
    code, _, stderr = run("align", hyp, "--gold", tmp_path / "gold.m2", "-o", out)
    assert code == 1 and f"{hyp}:2:" in stderr and not out.exists()


def test_the_sentence_check_points_to_align(tmp_path: Path) -> None:
    shifted = [f"Line {k} of a system that lost one near the top of the file here ." for k in range(12)]
    gold = tmp_path / "gold.m2"
    gold.write_text("".join(f"S Sentence {k} of the gold that the system should have kept .\n"
                            "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
                            for k in range(12)), encoding="utf-8")
    hyp = write(tmp_path / "hyp.txt", shifted)
    for command in (["score"], ["gleu"]):
        code, _, stderr = run(*command, hyp, "--gold", gold)
        assert code == 1 and stderr.count("\n") == 1
        assert f"`gecformats align {hyp} --gold {gold} -o ALIGNED.txt`" in stderr


# ------------------------------------------------------------------ CoNLL-2014, cut up


CONLL = "corpora/conll14"
COMBINED = f"{CONLL}/conll14st-test-data/noalt/official-2014.combined.m2"


def merged_and_split(lines: list[str], rng: random.Random, share: float = 0.03) -> list[str]:
    """``lines`` with about ``share`` of them merged with the next (one space) and as many
    split at a space."""
    out, i = [], 0
    while i < len(lines):
        r = rng.random()
        if r < share and i + 1 < len(lines):
            out.append(f"{lines[i]} {lines[i + 1]}")
            i += 2
            continue
        spaces = [k for k, c in enumerate(lines[i]) if c == " "]
        if r < 2 * share and spaces:
            k = rng.choice(spaces)
            out += [lines[i][:k], lines[i][k + 1:]]
        else:
            out.append(lines[i])
        i += 1
    return out


def paragraphs(lines: list[str], rng: random.Random) -> list[str]:
    """``lines`` joined into paragraphs of 5 to 40 lines."""
    out, i = [], 0
    while i < len(lines):
        k = rng.randint(5, 40)
        out.append(" ".join(lines[i:i + k]))
        i += k
    return out


@pytest.fixture(scope="module")
def conll_gold() -> list:
    return read_gold(str(shared_file(COMBINED)))


@pytest.mark.parametrize("system", ["AMU", "CAMB"])
def test_conll14_submissions_cut_up_come_back(tmp_path: Path, conll_gold: list,
                                              system: str) -> None:
    path = shared_file(f"{CONLL}/official_submissions/{system}")
    original = path.read_text(encoding="utf-8").split("\n")[:-1]
    assert align_lines(conll_gold, original).lines == original
    files = [path]
    for seed in (1, 2):
        for cut in (merged_and_split, paragraphs):
            hyp = cut(original, random.Random(seed))
            assert len(hyp) != len(original)
            lines = align_lines(conll_gold, hyp).lines
            same = sum(a.strip() == b.strip() for a, b in zip(lines, original))
            assert len(lines) == len(original) and same >= 0.995 * len(original)
            if seed == 1 and cut is paragraphs and system == "AMU":
                files.append(write(tmp_path / f"{cut.__name__}.txt", lines))
    if len(files) > 1:  # the score of an aligned file, by the command line: the original's
        code, stdout, _ = run("score", *files, "--gold", shared_file(COMBINED), "--format", "json")
        assert code == 0
        f = [row["f"] for row in json.loads(stdout)]
        assert abs(f[1] - f[0]) <= 0.002
