"""GECCC (gecformats.formats.geccc): its M2 with .input/.gold/.meta, read and written back,
and the corpus' own text files from the M2 (spec formats-more.md §4, §8)."""

from __future__ import annotations

import io
import shutil
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from conftest import FIXTURES, shared_file
from gecformats.cli import app
from gecformats.errors import GecFormatError
from gecformats.formats import geccc, m2
from gecformats.model import Edit, Sentence

M2 = FIXTURES / "geccc" / "paragraph.m2"
SUFFIXES = (".m2", ".input", ".gold", ".meta")


def run(*args: object) -> object:
    return CliRunner().invoke(app, [str(a) for a in args])


def test_the_text_files_are_read_beside_the_m2() -> None:
    records = list(geccc.read(M2))
    assert [r.meta["document"] for r in records] == ["doc-1", "doc-2", "doc-2"]
    assert records[1].source[3] == geccc.MARKER  # ࿄ is a token, kept as text
    assert records[1].meta[geccc.GOLD_META].split("\t")[1] == "18.11. ࿄ Milá Anno,"
    assert sorted(records[0].annotators) == [0, 1] and sorted(records[2].annotators) == [0]
    assert not any(geccc.INPUT_META in r.meta for r in geccc.read(M2, with_companions=False))


def test_read_then_write_gives_the_four_files_back(tmp_path: Path) -> None:
    report = geccc.write(geccc.read(M2), tmp_path / "p.m2")
    for suffix in SUFFIXES:
        assert (tmp_path / f"p{suffix}").read_bytes() == M2.with_suffix(suffix).read_bytes()
    assert not report.notes and report.sentences == 3
    assert not M2.read_text().endswith("\n\n")  # GECCC: no empty line after the last block


def test_the_m2_alone_gives_input_and_gold_by_rule(tmp_path: Path) -> None:
    report = geccc.write(geccc.read(M2, with_companions=False), tmp_path / "p.m2")
    gold = (tmp_path / "p.gold").read_text().splitlines()
    assert gold == M2.with_suffix(".gold").read_text().splitlines()
    assert (tmp_path / "p.input").read_text().splitlines()[2] == "Mám rád „Praha“ (hlavně večer)."
    assert "records without a document id" in " ".join(report.lines())


def test_with_the_input_the_source_tokens_keep_its_spacing() -> None:
    record = list(geccc.read(M2))[2]
    bare = record.replace(meta={geccc.INPUT_META: record.meta[geccc.INPUT_META]})
    # the annotator removed the space before '.' without an edit: the M2 cannot say so
    assert geccc.gold_text(bare, 0) == "Mám rád „Prahu“ (hlavně večer) ."
    assert geccc.gold_text(record, 0) == "Mám rád „Prahu“ (hlavně večer)."  # stored column


def test_paragraph_markers_map_to_line_breaks() -> None:
    assert geccc.paragraphs("18.11. ࿄ Milá Anno,") == "18.11.\nMilá Anno,"


def test_a_short_text_file_is_an_error_naming_it(tmp_path: Path) -> None:
    for suffix in SUFFIXES:
        shutil.copy(M2.with_suffix(suffix), tmp_path / f"p{suffix}")
    (tmp_path / "p.meta").write_text("doc-1\n")
    with pytest.raises(GecFormatError, match="p.meta ends at line 1") as info:
        list(geccc.read(tmp_path / "p.m2"))
    assert info.value.line == 2
    result = run("validate", tmp_path / "p.m2", "--from", "geccc")
    assert "p.meta:2: line-count:" in result.stdout


def test_validate_compares_the_text_files_with_the_m2(tmp_path: Path) -> None:
    for suffix in SUFFIXES:
        shutil.copy(M2.with_suffix(suffix), tmp_path / f"p{suffix}")
    gold = (tmp_path / "p.gold").read_text().replace("cigaretu, šla", "cigareta, šla")
    (tmp_path / "p.gold").write_text(gold.replace("Milá Anno, ࿄ 18.11.\t18.11. ࿄ Milá Anno,\n",
                                              "Milá Anno, ࿄ 18.11.\tX\tY\n"))
    out = run("validate", tmp_path / "p.m2", "--from", "geccc").stdout
    assert "p.gold:1: sentence 1: original-mismatch: gold column 1" in out
    assert "p.gold:2: sentence 2: field-count: 3 gold column(s) for 2 annotator(s)" in out
    assert run("validate", M2, "--from", "geccc").exit_code == 0


def test_stats_and_convert_report(tmp_path: Path) -> None:
    assert "M:OTHER" in run("stats", M2, "--from", "geccc").stdout
    result = run("convert", M2, tmp_path / "o.m2", "--from", "geccc", "--to", "geccc",
                 "--report", tmp_path / "r.json")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "o.gold").read_bytes() == M2.with_suffix(".gold").read_bytes()
    result = run("convert", M2, tmp_path / "out", "--from", "geccc", "--to", "parallel")
    assert (tmp_path / "out" / "annotator-1.txt").read_text().splitlines()[1] == \
        "18.11 . ࿄ Milá Anno ,"


TOKENS = st.sampled_from(["a", "b", ",", ".", "(", ")", "„", "“", geccc.MARKER, "slovo"])


@settings(max_examples=60, deadline=None)
@given(st.lists(TOKENS, min_size=1, max_size=8), st.data())
def test_written_files_read_back_to_the_same_records(tokens: list[str], data: st.DataObject
                                                     ) -> None:
    """Offsets survive: write (M2 + text files) then read gives the record, and every gold
    column is the corrected tokens with white space removed."""
    n = len(tokens)
    start = data.draw(st.integers(0, n))
    end = data.draw(st.integers(start, n))
    correction = tuple(data.draw(st.lists(TOKENS, max_size=3)))
    annotators = {0: (Edit(start, end, (correction,), "R:OTHER"),), 1: ()}
    record = Sentence(tuple(tokens), annotators, meta={"document": "d"})
    buffer = io.StringIO()
    geccc.write([record], buffer)
    [back] = geccc.read(io.StringIO(buffer.getvalue()))
    assert back.source == record.source and back.annotators == record.annotators
    for k in (0, 1):
        assert "".join(geccc.gold_text(record, k).split()) == "".join(record.corrected(k))


# ------------------------------------------------------------------- the corpus (../shared)

SPLITS = [(split, unit) for split in ("dev", "test") for unit in ("sentence", "paragraph")]


def _classes(record: Sentence, annotator: int, ours: str, gold: str) -> Counter[str]:
    """Why a gold column we wrote differs from the corpus' (white space only, always):
    per token whose preceding space differs, whether it is between two tokens of the source
    (the annotator changed spacing without an edit: the M2 cannot say so) or next to a
    token an edit wrote (our rule guessed)."""
    pieces = geccc.pieces(record, annotator)
    tokens = [t for t, _ in pieces]
    theirs = geccc.spacing(tokens, gold)
    if theirs is None:
        return Counter({"white space inside a token of the M2": 1})
    mine = geccc.spacing(tokens, ours)
    assert mine is not None
    found: Counter[str] = Counter()
    for i in range(1, len(tokens)):
        if mine[i] != theirs[i]:
            edited = pieces[i][1] is None or pieces[i - 1][1] is None
            found["next to an edit (rule)" if edited else "no edit (spacing-only change)"] += 1
    return found


@pytest.mark.parametrize("split, unit", SPLITS)
def test_the_corpus_round_trips_byte_for_byte(tmp_path: Path, split: str, unit: str) -> None:
    m2 = shared_file(f"corpora/geccc/data/{split}/{unit}.m2")
    result = run("convert", m2, tmp_path / f"{unit}.m2", "--from", "geccc", "--to", "geccc")
    assert result.exit_code == 0, result.output
    for suffix in SUFFIXES:
        assert (tmp_path / f"{unit}{suffix}").read_bytes() == m2.with_suffix(suffix).read_bytes()
    assert run("validate", m2, "--from", "geccc").exit_code == 0


MEASURED = {  # (split, unit): (input by rule, gold columns M2 + .input, gold columns M2 alone)
    ("dev", "sentence"): (659, 1142, 1124), ("dev", "paragraph"): (228, 427, 408),
    ("test", "sentence"): (1151, 2446, 2400), ("test", "paragraph"): (336, 808, 751),
}


@pytest.mark.parametrize("split, unit", SPLITS)
def test_the_m2_gives_the_corpus_input_and_gold(tmp_path: Path, split: str, unit: str) -> None:
    """The oracle (§8): M2 → .input/.gold equal the corpus' files with white space removed,
    always; how many are equal as they are is measured and every difference classified."""
    m2 = shared_file(f"corpora/geccc/data/{split}/{unit}.m2")
    inputs = m2.with_suffix(".input").read_text(encoding="utf-8").splitlines()
    golds = [line.split("\t") for line in m2.with_suffix(".gold").read_text(encoding="utf-8")
             .splitlines()]
    shutil.copy(m2, tmp_path / "x.m2")
    shutil.copy(m2.with_suffix(".input"), tmp_path / "x.input")
    alone = list(geccc.read(m2, with_companions=False))
    with_input = list(geccc.read(tmp_path / "x.m2"))
    assert len(alone) == len(inputs) == len(golds)
    squeeze = "".join
    ours_input = [geccc.input_text(r) for r in alone]
    assert all(squeeze(a.split()) == squeeze(b.split()) for a, b in zip(ours_input, inputs))
    equal_input = sum(a == b for a, b in zip(ours_input, inputs))
    counts: Counter[str] = Counter()
    classes: Counter[str] = Counter()
    for bare, record, gold in zip(alone, with_input, golds):
        assert len(gold) == len(record.annotators)
        for k, column in zip(sorted(record.annotators), gold):
            ours = geccc.gold_text(record, k)
            rule = geccc.gold_text(bare, k)
            assert squeeze(ours.split()) == squeeze(column.split()) == squeeze(rule.split())
            counts["columns"] += 1
            counts["equal with .input"] += ours == column
            counts["equal from M2 alone"] += rule == column
            if ours != column:
                found = _classes(record, k, ours, column)
                classes.update(found)
                counts["columns: " + " + ".join(sorted(found))] += 1
    print(f"\n{split}/{unit}: .input by rule {equal_input}/{len(inputs)}; gold columns "
          f"with .input {counts['equal with .input']}/{counts['columns']}, M2 alone "
          f"{counts['equal from M2 alone']}/{counts['columns']}; differing spaces: "
          f"{dict(classes)}; columns {dict(counts)}")
    assert (equal_input, counts["equal with .input"], counts["equal from M2 alone"]) == \
        MEASURED[(split, unit)]
    assert set(classes) <= {"no edit (spacing-only change)", "next to an edit (rule)"}


@pytest.mark.parametrize("split, level, expected", [
    ("dev", "sentence", 674), ("dev", "paragraph", 244),
    ("test", "sentence", 1187), ("test", "paragraph", 372),
])
def test_unicode_tokenizer_against_the_m2_tokens(split: str, level: str, expected: int) -> None:
    """The table of docs/reference/formats/geccc.md: the unicode tokenizer on the .input
    lines gives the M2's own source tokens for about 90 % of the sentences (nltk's English:
    85 %)."""
    from gecformats.tokenize import get_tokenizer

    base = shared_file(f"corpora/geccc/data/{split}/{level}.m2")
    tok = get_tokenizer("unicode")
    inputs = base.with_suffix(".input").read_text(encoding="utf-8").split("\n")
    same = sum(tuple(t.text for t in tok.tokenize(line)) == tuple(s.source)
               for s, line in zip(m2.read(base), inputs))
    assert same == expected
