"""MultiGEC-2025 essay files (gecformats.formats.multigec): the organisers' md_to_dict and
dict_to_md, split_to_parfiles and the local scorer's syntok reading, reproduced on their toy
files (../shared/corpora/multigec-2025/toy-fixtures-lattice/reference_outputs/)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from conftest import FIXTURES, shared_file
from gecformats.cli import app
from gecformats.errors import GecFormatError
from gecformats.formats import multigec
from gecformats.model import Parallel
from gecformats.validate import validate

TOY = "corpora/multigec-2025/toy-fixtures-lattice"
ORIG, REF1, REF2 = (FIXTURES / "multigec" / f"xx-toy-{v}-dev.md" for v in ("orig", "ref1", "ref2"))


def md_to_dict(md: str) -> dict[str, str]:
    """The organisers' reader, as the spec quotes it."""
    d = {}
    for essay in md.split("### essay_id = ")[1:]:
        ident, text = essay.split("\n", 1)
        d[ident] = text.strip("\n")
    return d


def dict_to_md(d: dict[str, str]) -> str:
    return "".join(f"### essay_id = {k}\n{v}\n\n" for k, v in d.items())


def run(*args: str) -> object:
    return CliRunner().invoke(app, [str(a) for a in args])


# ------------------------------------------------------------------ the organisers' outputs


def test_md_to_dict_of_every_toy_file() -> None:
    expected = json.loads(shared_file(f"{TOY}/reference_outputs/md_to_dict.json").read_text())
    for name, essays in expected.items():
        assert multigec.to_dict(shared_file(f"{TOY}/{name}")) == essays
        # the streaming reader gives the same essays in the same order (repeats read once)
        read = {p.id: p.source for p in multigec.read(shared_file(f"{TOY}/{name}"))}
        assert list(read.items()) == list(essays.items())


def test_dict_to_md_by_convert(tmp_path: Path) -> None:
    expected = shared_file(f"{TOY}/reference_outputs/dict_to_md.dummy-dummy-orig-dev.md")
    out = tmp_path / "out.md"
    assert run("convert", shared_file(f"{TOY}/dummy-dummy-orig-dev.md"), out).exit_code == 0
    assert out.read_bytes() == expected.read_bytes()


def test_split_to_parfiles_by_convert_to_parallel(tmp_path: Path) -> None:
    out = tmp_path / "par"
    result = run("convert", shared_file(f"{TOY}/dummy-dummy-orig-dev.md"), out, "--from",
                 "multigec", "--to", "parallel", "--ref", shared_file(f"{TOY}/dummy-dummy-hypo-dev.md"))
    assert result.exit_code == 0, result.output
    ref = f"{TOY}/reference_outputs/split_to_parfiles"
    assert (out / "source.txt").read_bytes() == \
        shared_file(f"{ref}.dummy-dummy-orig-dev.tmp").read_bytes()
    assert (out / "annotator-0.txt").read_bytes() == \
        shared_file(f"{ref}.dummy-dummy-hypo-as-ref1-dev.tmp").read_bytes()


def test_the_local_scorers_syntok_reading(tmp_path: Path) -> None:
    pytest.importorskip("syntok")
    expected = json.loads(shared_file(
        f"{TOY}/reference_outputs/eval_md_to_dict_pretokenized.dummy-dummy-orig-dev.json").read_text())
    read = multigec.read(shared_file(f"{TOY}/dummy-dummy-orig-dev.md"), unit="essay-syntok")
    assert {p.id: p.source for p in read} == expected
    out = tmp_path / "hypo.tsv"
    assert run("convert", shared_file(f"{TOY}/dummy-dummy-hypo-dev.md"), out, "--to", "tsv",
               "--unit", "essay-syntok").exit_code == 0
    assert out.read_bytes() == shared_file(
        f"{TOY}/reference_outputs/eval_pretokenized.dummy-dummy-hypo1-dev.tmp").read_bytes()


def test_syntok_rewrites_as_the_spec_says() -> None:
    pytest.importorskip("syntok")
    assert multigec.syntok_text("I don't e-mail z.B.\nyou.\n\n") == "I do not e -mail z . B . you . "


# ------------------------------------------------------------------ quirks, hand-written


def test_quirks_of_md_to_dict() -> None:
    md = ("before\n### essay_id = a b \n\n\n  text \n\n\nmore ### essay_id = x\ny\n"
          "### essay_id = a b \n  text \n\n\nmore \n### essay_id = \n\t\n")
    assert multigec.to_dict(io.StringIO(md)) == md_to_dict(md)
    assert [(p.id, p.source) for p in multigec.read(io.StringIO(md))] == list(md_to_dict(md).items())
    crlf = md.replace("\n", "\r\n")
    assert multigec.to_dict(io.StringIO(crlf)) == md_to_dict(md)


def test_a_repeat_with_another_text_is_an_error_naming_both_lines() -> None:
    md = "### essay_id = 1\nA\n\n### essay_id = 2\nB\n\n### essay_id = 1\nC\n\n"
    with pytest.raises(GecFormatError, match="repeats line 1 with another text") as error:
        list(multigec.read(io.StringIO(md)))
    assert error.value.line == 7
    assert multigec.to_dict(io.StringIO(md)) == {"1": "C", "2": "B"}  # md_to_dict's last
    kinds = [(p.line, p.kind) for p in validate(io.StringIO(md), "multigec")]
    assert kinds == [(7, "duplicate-id")]


@pytest.mark.parametrize("md, line", [("### essay_id = 1", 1),
                                      ("x\n### essay_id = 1 ### essay_id = 2\nt\n", 2)])
def test_a_header_without_a_line_break_is_an_error_file_line(md: str, line: int) -> None:
    with pytest.raises(GecFormatError) as error:
        list(multigec.read(io.StringIO(md)))
    assert error.value.line == line and "md_to_dict fails" in str(error.value)
    assert [(p.line, p.kind) for p in validate(io.StringIO(md), "multigec")][0] == (line, "syntax")


def test_references_are_joined_by_id_in_any_order_and_may_be_partial() -> None:
    items = list(multigec.read(ORIG, refs=[REF1, REF2]))
    assert [(p.id, p.source, p.references) for p in items] == [
        ("1", "He go to school.\nShe like it.", ("He goes to school.\nShe likes it.",
                                                 "He went to school.\nShe liked it.")),
        ("2", "I has a cat.", ("I have a cat.", None)),
        ("3", "All good here.", ("All good here.", None))]


def test_line_unit() -> None:
    items = list(multigec.read(ORIG, refs=[REF1, REF2], unit="line"))
    assert [(p.id, p.source, p.references) for p in items][:2] == [
        ("1:1", "He go to school.", ("He goes to school.", "He went to school.")),
        ("1:2", "She like it.", ("She likes it.", "She liked it."))]
    [whole] = multigec.split_lines(Parallel("a\nb", ("a b",), "9"))
    assert whole.source == "a b" and "multigec.unsplit" in whole.meta


def test_convert_to_m2_and_report(tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    result = run("convert", ORIG, tmp_path / "o.m2", "--ref", REF1, "--ref", REF2, "--from",
                 "multigec", "--tokenizer", "space", "--report", report)
    assert result.exit_code == 0, result.output
    data = json.loads(report.read_text())
    assert data["sentences"] == 3 and data["absent"] == 2
    blocks = (tmp_path / "o.m2").read_text().split("\n\n")
    assert blocks[0].startswith("S He go to school. She like it.\n")


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.text("ab1 \t\n#=", max_size=6).filter(lambda s: "\n" not in s),
                          st.text("ab #\t\n\r=é", max_size=20)), max_size=5))
def test_write_then_read_is_md_to_dict(essays: list[tuple[str, str]]) -> None:
    """Whatever is written reads back as md_to_dict reads the same bytes; what it cannot
    hold is refused or reported, never silently changed."""
    items = [Parallel(text, (), ident) for ident, text in essays]
    out = io.StringIO()
    try:
        report = multigec.write(items, out)
    except GecFormatError:
        assert any(multigec.HEADER in t or multigec.HEADER in i for i, t in essays)
        return
    text = out.getvalue()
    assert multigec.to_dict(io.StringIO(text)) == md_to_dict(text.replace("\r\n", "\n").replace("\r", "\n"))
    lossless = not report.dropped and len({i for i, _ in essays}) == len(essays)
    if lossless:
        assert [(p.id, p.source) for p in multigec.read(io.StringIO(text))] == essays
        assert text == dict_to_md(dict(essays))


def test_write_references_beside_the_original(tmp_path: Path) -> None:
    out = tmp_path / "xx-toy-orig-dev.md"
    result = run("convert", ORIG, out, "--from", "multigec", "--ref", REF1, "--ref", REF2)
    assert result.exit_code == 0, result.output
    assert out.read_text() == dict_to_md(md_to_dict(ORIG.read_text()))
    assert multigec.to_dict(tmp_path / "xx-toy-ref1-dev.md") == md_to_dict(REF1.read_text())
    assert (tmp_path / "xx-toy-ref2-dev.md").read_text() == REF2.read_text()
    assert multigec.reference_path("out.md", 1).name == "out.ref2.md"


def test_stats_and_validate_cli() -> None:
    assert "sentences     3" in run("stats", ORIG).stdout
    assert run("validate", ORIG).exit_code == 0


def test_sentence_unit_carries_the_boundaries_across_the_alignment() -> None:
    from gecformats.formats.multigec import split_sentences
    from gecformats.model import Parallel

    essay = Parallel("He go home she go too. It is fine.\nNext line here.",
                     ("He goes home. She goes too. It is fine.\nNext line here.",
                      "He went home, she too. It's fine.\nNext line.", None), "7", {})
    got = [(p.id, p.source, p.references) for p in split_sentences(essay)]
    assert got == [
        ("7:s1", "He go home she go too.", ("He goes home. She goes too.", "He went home, she too.", None)),
        ("7:s2", "It is fine.", ("It is fine.", "It's fine.", None)),
        ("7:s3", "Next line here.", ("Next line here.", "Next line.", None)),
    ]


def test_sentence_unit_keeps_a_rewritten_boundary_whole() -> None:
    from gecformats.formats.multigec import split_sentences
    from gecformats.model import Parallel

    essay = Parallel("I came. Home was far.", ("I came home, far away.",), "3", {})
    [only] = split_sentences(essay)
    assert (only.source, only.references, only.meta["multigec.merged"]) == \
        ("I came. Home was far.", ("I came home, far away.",), "1")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "c.", "d", "E", "f.", "\n"]), min_size=1, max_size=25),
       st.lists(st.sampled_from(["a", "b", "c.", "d", "E", "f.", "x", "\n"]), max_size=25))
def test_sentence_unit_covers_every_word(src: list[str], ref: list[str]) -> None:
    """The sentences' words, in order, are the essay's, and so are each reference's."""
    from gecformats.formats.multigec import split_sentences
    from gecformats.model import Parallel

    source, reference = " ".join(src).strip(), " ".join(ref).strip()
    if not source.split():
        return
    items = split_sentences(Parallel(source, (reference,), "1", {}))
    assert [w for p in items for w in p.source.split()] == source.split()
    assert [w for p in items for w in (p.references[0] or "").split()] == reference.split()


def test_sentence_unit_work_grows_linearly_with_the_essay() -> None:
    """An essay of n sentences with a reference corrected throughout: four times the
    sentences take about four times the CPU (the sentence starts were found by a scan from
    the first word, and the reference aligned as one n² table: 156 KB took 219 s and 13 GB;
    now ~2 s).  A loose ratio of the two sizes' CPU time, never an absolute time; the
    bound on the alignment's own work is tests/test_extract.py's."""
    import random
    import time

    from gecformats.formats.multigec import split_sentences

    def essay(n: int) -> Parallel:
        rng = random.Random(n)
        words = "cat dog house tree car book river town friend school".split()
        src, ref = [], []
        for _ in range(n):
            a, b = rng.choice(words), rng.choice(words)
            src.append(f"He go to the {a} with {b}.")
            ref.append(f"He goes to the {a} with {b}.")
        return Parallel(" ".join(src), (" ".join(ref),), "1", {})

    def cpu(n: int) -> float:
        item = essay(n)
        best = float("inf")
        for _ in range(2):
            started = time.process_time()
            items = split_sentences(item)
            best = min(best, time.process_time() - started)
        assert len(items) == n and items[-1].references[0].startswith("He goes to the ")
        return best

    small, large = cpu(1_500), cpu(6_000)
    assert large / small < 8, (small, large)  # linear: about 4; quadratic: 16


def test_sentence_unit_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "s.tsv"
    result = CliRunner().invoke(app, ["convert", str(FIXTURES / "multigec" / "xx-toy-orig-dev.md"),
                                      str(out), "--from", "multigec", "--unit", "sentence",
                                      "--ref", str(FIXTURES / "multigec" / "xx-toy-ref1-dev.md")])
    assert result.exit_code == 0, result.output
    rows = out.read_text(encoding="utf-8").splitlines()
    assert len(rows) > 2 and all("\t" in r for r in rows)
