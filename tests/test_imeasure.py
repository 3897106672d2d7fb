"""gecformats.metrics.imeasure and `gecformats imeasure`: the I-measure as ieval.py computes it.

The expected outputs in fixtures/imeasure/ were printed by the original ieval.py
(mfelice/imeasure@fc79fdf, Python 2.7.18, numpy 1.16.6) on the hand-written gold.xml and
sys.txt beside them.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from conftest import FIXTURES, shared_file
from gecformats.cli import app
from gecformats.errors import GecFormatError
from gecformats.formats import ixml
from gecformats.metrics import imeasure as im

HERE = FIXTURES / "imeasure"
GOLD = HERE / "gold.xml"
SYS = HERE / "sys.txt"

RUNS = [
    ([], "expected.default.txt"),
    (["--per-sentence", "--no-mix"], "expected.nomix.per-sent.txt"),
    (["--per-sentence", "--optimise", "corpus", "--maximise", "cf", "--beta", "0.5",
      "--weight", "3"], "expected.corpus.cf.b0.5.w3.txt"),
    (["--per-sentence", "--maximise", "di"], "expected.di.per-sent.txt"),
]


@pytest.mark.parametrize("options, expected", RUNS, ids=[e for _, e in RUNS])
def test_the_originals_output_byte_for_byte(options, expected, monkeypatch):
    monkeypatch.chdir(HERE)  # the header names the files as given
    result = CliRunner().invoke(app, ["imeasure", "sys.txt", "--gold", "gold.xml", *options])
    assert result.exit_code == 0, result.output
    assert result.stdout == (HERE / expected).read_text(encoding="utf-8")


def test_search_gives_what_trying_every_reference_gives(monkeypatch):
    monkeypatch.chdir(HERE)
    args = ["imeasure", "sys.txt", "--gold", "gold.xml", "--per-sentence"]
    every = CliRunner().invoke(app, args)
    searched = CliRunner().invoke(app, [*args, "--enumerate-max", "0"])
    assert every.stdout == searched.stdout


def test_candidates_in_the_originals_order():
    gold = im.GoldSentence.from_loci(next(ixml.read_loci(GOLD)))
    # the order candgen.py gives (Python 2.7 dict order), checked with the original
    assert [" ".join(r) for r in im.candidates(gold)] == [
        "He went to school every day .", "He goes to school every day .",
        "He went to school every days .", "He goes to school every days ."]
    assert [" ".join(r) for r in im.candidates(gold, mix=False)] == [
        "He goes to school every day .", "He went to school every days ."]
    assert im.combinations(gold) == 4


def test_counts_of_each_column_kind():
    alignment = (["a", "b", "c", "d", "e"], ["a", "x", "c", "y", "z"], ["a", "x", "q", "w", "e"])
    # a: TN; b→x=x: TP; c=c≠q: FN; d→y≠w: TP det, FP+FN+FPN cor; e→z, ref e: FP
    assert im.counts(alignment) == (2, 1, 1, 1, 0, 1, 1, 2, 2, 1)


def test_scores_and_improvement():
    d, c = im.scores((2, 5, 0, 1, 0, 2, 5, 0, 1, 0), 1.0, 2.0, (0, 5, 0, 3, 0, 0, 5, 0, 3, 0))
    assert (round(c.p, 4), round(c.r, 4), round(c.wacc, 4), round(c.i, 4)) == (1.0, 0.6667, 0.9, 0.7333)
    assert im.improvement(0.5, 0.5) == 0.0 and im.improvement(1.0, 1.0) == 1.0
    assert im.improvement(0.4, 0.5) == pytest.approx(-0.2)


def _reference_alignment(s1, s2, s3):
    """align.py's three-way table and backtrace, written out plainly (the oracle of the
    banded version)."""
    gap, mis = 2, 3

    def cost(a, b):
        return 0 if a == b else mis

    def pair(a, b):
        t = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
        for j in range(len(b) + 1):
            t[0][j] = j * gap
        for i in range(1, len(a) + 1):
            t[i][0] = i * gap
            for j in range(1, len(b) + 1):
                t[i][j] = min(t[i - 1][j] + gap, t[i][j - 1] + gap, t[i - 1][j - 1] + cost(a[i - 1], b[j - 1]))
        return t

    n1, n2, n3 = len(s1), len(s2), len(s3)
    d = {}
    for (x, y, f), (a, b) in (((0, 1, 2), (s1, s2)), ((0, 2, 1), (s1, s3)), ((1, 2, 0), (s2, s3))):
        t = pair(a, b)
        for i in range(len(a) + 1):
            for j in range(len(b) + 1):
                key = [0, 0, 0]
                key[x], key[y] = i, j
                d[tuple(key)] = t[i][j] + (i + j) * gap
    for i in range(1, n1 + 1):
        for j in range(1, n2 + 1):
            for k in range(1, n3 + 1):
                a, b, c = s1[i - 1], s2[j - 1], s3[k - 1]
                d[i, j, k] = min(d[i - 1, j - 1, k - 1] + cost(a, b) + cost(a, c) + cost(b, c),
                                 d[i - 1, j - 1, k] + cost(a, b) + 2 * gap,
                                 d[i - 1, j, k - 1] + cost(a, c) + 2 * gap,
                                 d[i, j - 1, k - 1] + cost(b, c) + 2 * gap,
                                 d[i - 1, j, k] + 2 * gap, d[i, j - 1, k] + 2 * gap,
                                 d[i, j, k - 1] + 2 * gap)
    out = ([], [], [])
    i, j, k = n1, n2, n3
    while i or j or k:
        steps = [(1, 1, 1), (1, 1, 0), (1, 0, 1), (0, 1, 1), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
        for di, dj, dk in steps:
            if (di and not i) or (dj and not j) or (dk and not k):
                continue
            toks = [s1[i - 1] if di else "", s2[j - 1] if dj else "", s3[k - 1] if dk else ""]
            c = sum(cost(toks[p], toks[q]) if toks[p] and toks[q] else gap if toks[p] or toks[q] else 0
                    for p, q in ((0, 1), (0, 2), (1, 2)))
            if d[i, j, k] == d[i - di, j - dj, k - dk] + c:
                for m in range(3):
                    out[m].append(toks[m])
                i, j, k = i - di, j - dj, k - dk
                break
    return tuple(x[::-1] for x in out)


tokens = st.lists(st.sampled_from("abcd"), max_size=8)


@settings(max_examples=300, deadline=None)
@given(tokens.filter(bool), tokens, tokens)
def test_banded_alignment_equals_the_full_table(s1, s2, s3):
    assert im._three_way(s1, s2, s3) == _reference_alignment(s1, s2, s3)


def test_search_equals_enumeration_on_random_sentences():
    rng = random.Random(7)
    for _ in range(150):
        n = rng.randrange(2, 9)
        src = [rng.choice("abcd") for _ in range(n)]
        errors = []
        pos = 0
        while pos < n:
            if rng.random() < 0.5:
                end = min(n, pos + rng.choice((0, 1, 1, 2)))
                alts = tuple((str(a), ((pos, end, " ".join(rng.choice("abcdx") for _ in range(rng.randrange(3)))),))
                             for a in sorted(rng.sample(range(2), rng.randrange(1, 3))))
                errors.append((len(alts) == 2, alts))
                pos = end + 1
            else:
                pos += 1
        gold = im.GoldSentence(" ".join(src), 2, tuple(errors))
        hyp = [t if rng.random() < 0.7 else rng.choice("abcx") for t in src]
        for optimise in ("sentence", "corpus"):
            tried = im.IMeasure(optimise=optimise).add(gold, hyp)
            searched = im.IMeasure(optimise=optimise, enumerate_max=0).add(gold, hyp)
            assert (searched.counts, searched.base) == (tried.counts, tried.base)


def test_cli_json_tsv_and_several_systems(tmp_path):
    other = tmp_path / "other.txt"
    other.write_text("He go to school every days .\nNothing to change here .\n"
                     "She like the the music of radio .\nIts a good idea , i think so .\n",
                     encoding="utf-8")
    result = CliRunner().invoke(app, ["imeasure", str(SYS), str(other), "--gold", str(GOLD),
                                      "--format", "json", "--per-sentence"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [r["system"] for r in data["results"]] == ["sys.txt", "other.txt"]
    assert data["results"][0]["correction"]["tp"] == 7
    assert data["results"][1]["correction"]["i"] == 0.0  # the source itself: no change
    assert len(data["results"][0]["sentences"]) == 4
    assert data["signature"].startswith("metric:imeasure|maximise:cwacc|optimise:sentence|mix:yes")
    result = CliRunner().invoke(app, ["imeasure", str(SYS), "--gold", str(GOLD), "--format", "tsv"])
    lines = result.stdout.splitlines()
    assert lines[0].startswith("system\td_p") and lines[1].startswith("sys.txt\t77.78")
    assert lines[-1].startswith("# metric:imeasure")


def test_m2_gold_is_grouped_into_loci(tmp_path):
    m2 = tmp_path / "gold.m2"
    m2.write_text("S He go to school every days .\n"
                  "A 1 2|||SVA|||goes|||REQUIRED|||-NONE-|||0\n"
                  "A 5 6|||Nn|||day|||REQUIRED|||-NONE-|||0\n"
                  "A 1 2|||SVA|||went|||REQUIRED|||-NONE-|||1\n\n", encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("He goes to school every day .\n", encoding="utf-8")
    run = im.evaluate_files([str(hyp)], str(m2))[0].run
    assert run.sentences[0].reference == "He goes to school every day .".split()
    assert run.result()[0][1].tp == 2


@pytest.mark.parametrize("hyp_lines, message", [
    ("one line\n", "fewer lines"),
    ("1\n2\n3\n4\n5\n", "has 5 lines"),
])
def test_misaligned_hypotheses_are_an_error(tmp_path, hyp_lines, message):
    hyp = tmp_path / "hyp.txt"
    hyp.write_text(hyp_lines, encoding="utf-8")
    with pytest.raises(GecFormatError, match=message):
        im.evaluate_files([str(hyp)], str(GOLD))
    result = CliRunner().invoke(app, ["imeasure", str(hyp), "--gold", str(GOLD)])
    assert result.exit_code == 1 and message in result.output


def test_bad_maximise_is_a_usage_error():
    result = CliRunner().invoke(app, ["imeasure", str(SYS), "--gold", str(GOLD), "--maximise", "xf"])
    assert result.exit_code == 2
    with pytest.raises(ValueError):
        im.IMeasure(maximise="cq")


IMEASURE = "corpora/imeasure"
EXAMPLE_RUNS = [
    ([], "example.ieval.default.txt"),
    (["--per-sentence", "--no-mix"], "example.ieval.nomix.per-sent.txt"),
    (["--per-sentence", "--optimise", "corpus", "--maximise", "cf", "--beta", "0.5", "--weight", "3"],
     "example.ieval.corpus.cf.b0.5.w3.txt"),
]


@pytest.mark.parametrize("options, expected", EXAMPLE_RUNS, ids=[e for _, e in EXAMPLE_RUNS])
def test_the_package_example(options, expected, monkeypatch):
    root = shared_file(f"{IMEASURE}/example/gold.xml").parents[1]
    monkeypatch.chdir(root)
    result = CliRunner().invoke(app, ["imeasure", "example/sys.txt", "--gold", "example/gold.xml", *options])
    assert result.stdout == (root / "reference_outputs" / expected).read_text(encoding="utf-8")


def _conll_subset(tmp_path, n):
    from lxml import etree

    tree = etree.parse(str(shared_file(f"{IMEASURE}/official-2014.combined.m2.ieval.xml")))
    script = tree.getroot()[0]
    for extra in list(script)[n:]:
        script.remove(extra)
    gold = tmp_path / f"subset{n}.xml"
    tree.write(str(gold), xml_declaration=True, encoding="UTF-8")
    lines = shared_file("corpora/conll14/official_submissions/AMU").read_text(encoding="utf-8").split("\n")
    hyp = tmp_path / f"AMU.first{n}.txt"
    hyp.write_text("\n".join(lines[:n]) + "\n", encoding="utf-8")
    return gold, hyp


def test_conll2014_first_20_per_sentence(tmp_path, monkeypatch):
    _conll_subset(tmp_path, 20)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["imeasure", "AMU.first20.txt", "--gold", "subset20.xml",
                                      "--per-sentence"])
    expected = shared_file(f"{IMEASURE}/reference_outputs/conll14_first20_AMU.ieval.per-sent.txt")
    assert result.stdout == expected.read_text(encoding="utf-8")


def test_conll2014_first_100_overall(tmp_path):
    gold, hyp = _conll_subset(tmp_path, 100)
    result = CliRunner().invoke(app, ["imeasure", str(hyp), "--gold", str(gold)])
    expected = shared_file(f"{IMEASURE}/reference_outputs/conll14_first100_AMU.ieval.overall.txt")
    # the recorded file has a comment line instead of the header, and one more line end
    tables = expected.read_text(encoding="utf-8").split("OVERALL RESULTS", 1)[1]
    assert result.stdout.split("OVERALL RESULTS", 1)[1] == tables.rstrip("\n") + "\n\n"


def test_no_mix_reproduces_the_published_values():
    """Grundkiewicz et al.'s I-measure values of the CoNLL-2014 systems are ieval.py with
    -nomix on the converted test set (four of the 13 systems here; docs/reference/metrics/imeasure.md has all)."""
    published = {}
    for line in shared_file("corpora/conll14/gecmetrics/scores/system_imeasure.tsv").read_text(
            encoding="utf-8").splitlines():
        fields = line.split("\t")
        published[fields[3]] = fields[4]
    names = ["AMU", "IITB", "INPUT", "UFC"]
    systems = im.evaluate_files(
        [str(shared_file(f"corpora/conll14/official_submissions/{n}")) for n in names],
        str(shared_file(f"{IMEASURE}/official-2014.combined.m2.ieval.xml")), mix=False)
    assert [f"{s.run.result()[0][1].i * 100:.2f}" for s in systems] == [published[n] for n in names]


# ------------------------------------------------------------------ issue 22 (fuzzing)

EMPTY_XML = """<scripts>
  <script id="1">
    <sentence id="1" numann="1">
      <text>
      </text>
      <error-list>
      </error-list>
    </sentence>
    <sentence id="2" numann="1">
      <text>
        A b c .
      </text>
      <error-list>
      </error-list>
    </sentence>
  </script>
</scripts>
"""


@pytest.mark.parametrize("gold_name, gold_text", [
    ("gold.m2", "S \n\nS A b c .\n\n"),  # `S` with nothing
    ("gold.xml", EMPTY_XML),  # an empty <text>
])
def test_an_empty_source_sentence_scores_without_a_traceback(tmp_path, gold_name, gold_text):
    """ieval.py divides by zero on an empty sentence (Acc and WAcc of no column); gecformats
    takes them as 1, as P and R are 1 when their denominator is 0, so an empty sentence with
    an empty hypothesis adds nothing to the corpus and scores as perfect."""
    gold = tmp_path / gold_name
    gold.write_text(gold_text, encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("\nA b c .\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["imeasure", str(hyp), "--gold", str(gold), "--per-sentence"])
    assert result.exit_code == 0, result.output
    rows = [line.split() for line in result.stdout.splitlines() if line.startswith(("1 ", "Correction"))]
    assert rows[0][2:7] == ["0"] * 5 and rows[0][7:] == ["100.00"] * 8  # the empty sentence
    assert rows[-1][1:6] == ["0", "4", "0", "0", "0"]  # the corpus: sentence 2 only
    # a word in the hypothesis of an empty sentence is a false positive, below the baseline
    hyp.write_text("x\nA b c .\n", encoding="utf-8")
    run = im.evaluate_files([str(hyp)], str(gold))[0].run
    system, base = im.sentence_scores(run, run.sentences[0])
    assert (system[1].fp, system[1].wacc, base[1].wacc, system[1].i) == (1, 0.0, 1.0, -1.0)


def test_a_gold_without_sentences_is_an_error(tmp_path):
    gold = tmp_path / "gold.xml"
    gold.write_text("<scripts/>\n", encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("", encoding="utf-8")
    result = CliRunner().invoke(app, ["imeasure", str(hyp), "--gold", str(gold)])
    assert result.exit_code == 1 and "has no sentences" in result.output


@pytest.mark.parametrize("option, value", [
    ("--beta", "1e308"), ("--beta", "nan"), ("--beta", "0"), ("--beta", "-1"), ("--beta", "inf"),
    ("--weight", "-2"), ("--weight", "inf"), ("--weight", "nan"), ("--weight", "0"),
    ("--max-cells", "0"),
])
def test_bad_beta_weight_and_max_cells_are_usage_errors(tmp_path, option, value):
    """--beta 1e308 overflowed, --weight -2 divided by zero, --weight inf and --beta nan
    printed NaN with exit 0 (the issue's commands, on the default gold)."""
    result = CliRunner().invoke(app, ["imeasure", str(SYS), "--gold", str(GOLD), option, value])
    assert result.exit_code == 2, result.output
    assert option in result.output and "Traceback" not in result.output
    if option != "--max-cells":
        with pytest.raises(ValueError, match=option[2:]):
            im.IMeasure(**{option[2:]: float(value)})


def test_large_but_finite_beta_and_weight_give_numbers(tmp_path):
    for option in ("--beta", "--weight"):
        result = CliRunner().invoke(app, ["imeasure", str(SYS), "--gold", str(GOLD), option, "1e100",
                                          "--format", "json"])
        assert result.exit_code == 0, result.output
        assert "NaN" not in result.stdout and "Infinity" not in result.stdout


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from("abcdefgh"), max_size=11), st.lists(st.sampled_from("efghijkl"), max_size=11),
       st.lists(st.sampled_from("abcdefgh"), max_size=11))
def test_banded_alignment_equals_the_full_table_on_unrelated_sequences(s1, s2, s3):
    """The band (pairwise prefix and suffix optima, Carrillo–Lipman) also when the
    hypothesis shares few or no tokens with the source, and for an empty source."""
    assert im._three_way(s1, s2, s3) == _reference_alignment(s1, s2, s3)


def _many_loci_sentence(rng, n=37, loci=10):
    """A sentence of ``n`` tokens with ``loci`` optional one-token corrections by two
    annotators (3^loci combinations; the search path), like CoNLL-2014 sentence 40."""
    src = [f"s{rng.randrange(60)}" for _ in range(n)]
    errors = tuple((False, (("0", ((p, p + 1, f"x{p}"),)), ("1", ((p, p + 1, f"y{p}"),))))
                   for p in range(1, n, n // loci)[:loci])
    return im.GoldSentence(" ".join(src), 2, errors), src


def test_an_unrelated_hypothesis_is_aligned_within_a_small_table():
    """A 37-token sentence against an unrelated 40-token hypothesis took 12.9 s: the band
    of each reference's table, bounded by gaps only, held the whole cube (37·41·38 cells).
    Bounded by the pairwise optima through each cell, it holds a few thousand, and the
    sentence's references share their pairwise tables."""
    rng = random.Random(22)
    gold, src = _many_loci_sentence(rng, loci=5)
    hyp = [f"h{rng.randrange(60)}" for _ in range(40)]
    ref = im.candidates(gold)[-1]
    budget = im.CellBudget(10**9)
    assert im.align(src, hyp, ref, budget) == _reference_alignment(src, hyp, ref)
    # all its tables, computed cells weighing COMPUTED: under half the cube alone (38·41·38)
    assert 10**9 - budget.left < im.COMPUTED * 38 * 41 * 38 // 2
    assert im.combinations(gold) > im.ENUMERATE_MAX
    searched = im.IMeasure(max_cells=20_000_000).add(gold, hyp)
    assert searched.searched
    tried = im.IMeasure(max_cells=None, enumerate_max=10**6).add(gold, hyp)
    assert (searched.counts, searched.base) == (tried.counts, tried.base)


def _long_case(tmp_path, extra=""):
    rng = random.Random(3)
    src = [f"w{rng.randrange(300)}" for _ in range(400)]
    gold = tmp_path / "long.m2"
    gold.write_text("S " + " ".join(src) + "\nA 3 4|||Vt|||zz|||REQUIRED|||-NONE-|||0\n\n",
                    encoding="utf-8")
    hyp = tmp_path / "long3.txt"
    hyp.write_text(" ".join(src * 3) + "\n" + extra, encoding="utf-8")
    return gold, hyp


def test_a_sentence_past_max_cells_is_refused_naming_it_and_the_option(tmp_path):
    """A 400-token sentence against 3 copies of itself took 97 s and 1.26 GB; the band of
    its table would hold about 130 million cells: refused before the table is made."""
    gold, hyp = _long_case(tmp_path)
    result = CliRunner().invoke(app, ["imeasure", str(hyp), "--gold", str(gold)])
    assert result.exit_code == 1 and result.stdout == ""
    message = result.output.strip()
    assert message.startswith(f"gecformats: {hyp}:1: sentence 1: ") and "--max-cells" in message
    assert len(message.splitlines()) == 1
    with pytest.raises(im.AlignmentTooLarge):
        im.align(["a"] * 50, ["b"] * 60, ["c"] * 50, im.CellBudget(1000))


def test_max_cells_default_is_the_librarys():
    import inspect

    from gecformats.cli.imeasure import imeasure

    default = inspect.signature(imeasure).parameters["max_cells"].default
    assert default == im.DEFAULT_MAX_CELLS == im.IMeasure().max_cells


def test_a_line_count_mismatch_is_found_before_scoring(tmp_path, monkeypatch):
    """A hypothesis file with one line too many ran 97 s before the count error."""
    gold, hyp = _long_case(tmp_path, extra="one line too many\n")

    def no_scoring(*_args, **_kwargs):
        raise AssertionError("scored before counting")

    monkeypatch.setattr(im.IMeasure, "add", no_scoring)
    result = CliRunner().invoke(app, ["imeasure", str(hyp), "--gold", str(gold)])
    assert result.exit_code == 1
    assert f"{hyp}: has 2 lines, {gold} has 1 sentences" in result.output


def test_a_huge_hypothesis_line_is_refused_before_its_tables_are_made(tmp_path, monkeypatch):
    """The fuzzer's cases: 1 MB of 'the ' or 'a b ' in one line of sys.txt (262,144 or
    524,288 tokens against a 9-token source) ran 8 s and 1 GB, or 32 s and 1.9 GB before
    the refusal; an upper bound of a table's cost is known before it is made: no table of
    the huge line is ever built."""
    sizes = []
    real = im._pair_table
    monkeypatch.setattr(im, "_pair_table", lambda a, b, *rest: sizes.append(max(len(a), len(b)))
                        or real(a, b, *rest))
    lines = SYS.read_text(encoding="utf-8").split("\n")
    lines[2] += " " + "the " * (1 << 18)
    hyp = tmp_path / "huge.txt"
    hyp.write_text("\n".join(lines), encoding="utf-8")
    result = CliRunner().invoke(app, ["imeasure", str(hyp), "--gold", str(GOLD), "--format", "tsv"])
    assert result.exit_code == 1 and result.stdout == ""
    assert f"{hyp}:3: sentence 3: " in result.output and "--max-cells" in result.output
    assert sizes and max(sizes) < 1_000  # the other sentences' tables only
