"""gecformats.metrics.cleme: CLEME and CLEME2.0 as THUKElab/CLEME @e90abea computes them.

Hand-written cases pin the chunk partition, the dependent and independent counts, the
length weights, the PRF and HEUO conventions and the reference choices;
../shared/reference/metrics/cleme holds the original's own numbers on the CoNLL-2014
systems (every variant and preset for 13 systems, per sentence for AMU, CAMB, CUUI), which
must come out to the last digit.
"""

from __future__ import annotations

import csv
import pickle
from functools import lru_cache
from pathlib import Path

import pytest

from conftest import shared_file
from gecformats.metrics.base import Hypothesis
from gecformats.metrics.cleme import (ADAPT, Cleme2Metric, ClemeMetric, Weigher, accuracy,
                                      heuo, parse_factors, partition, plain, prf, targets)
from gecformats.metrics.request import build_metrics
from gecformats.model import Edit, Sentence

SYSTEMS = ("AMU CAMB CUUI IITB INPUT IPN NTHU PKU POST RAC SJTU UFC UMC").split()
REFERENCE = "reference/metrics/cleme"
ERRANT = "reference/errant"


def hyp(text: str) -> Hypothesis:
    return Hypothesis(tuple(text.split()), text)


def sentence(source: str, *annotators: list[tuple[int, int, str]]) -> Sentence:
    return Sentence(tuple(source.split()), {
        k: tuple(Edit(s, e, (tuple(c.split()),), "X") for s, e, c in edits)
        for k, edits in enumerate(annotators)})


# ------------------------------------------------------------------ chunks


def test_touching_edits_merge_into_one_chunk():
    src = "a b c d".split()
    t1, _ = targets(src, [(1, 2, "R", "B", 0)])
    t2, _ = targets(src, [(2, 2, "M", "x", 0)])  # insertion where t1's edit ends
    chunks = partition(src, [t1[0], t2[0]])
    assert [c[2] for c in chunks[0]] == [1, 1, 2]
    assert chunks[0][1] == (("B",), True, 1) and chunks[1][1] == (("b", "x"), True, 1)
    assert chunks[0][2] == (("c", "d"), False, 2)


def test_an_insertion_chunk_of_its_own_and_none_correction():
    src = "a b c".split()
    t, ids = targets(src, [(-1, -1, "noop", "-NONE-", 0), (0, 1, "U", "-NONE-", 1),
                           (3, 3, "M", "d", 1)])
    assert ids == [0, 1] and t[0][0] == src and t[1][0] == ["b", "c", "d"]
    chunks = partition(src, t)
    assert [(c[0], c[1]) for c in chunks[1]] == [((), True), (("b", "c"), False), (("d",), True)]


def test_the_partition_refuses_an_edit_that_does_not_fit_and_never_loops():
    """An edit whose start is after its end (``A 5 4``) made the partition loop, growing
    without bound; one past the sentence's end gave a KeyError."""
    from gecformats.errors import GecFormatError

    src = "a b c d e f g".split()
    for edit, words in (((5, 4, "R", "x", 0), "starts after it ends"),
                        ((5, 9, "R", "x", 0), "does not fit the sentence's 7 tokens"),
                        ((-2, 1, "R", "x", 0), "does not fit")):
        t, _ = targets(src, [edit])
        with pytest.raises(GecFormatError, match=f"target 1's edit .*{words}"):
            partition(src, [(src, []), t[0]])
    with pytest.raises(ValueError, match="merge_distance"):
        partition(src, [(src, [])], merge_distance=-1)


def test_the_partition_is_linear_in_the_edits():
    """Each span finds its merged interval by a pointer, not a scan of all of them: 20,000
    edits take a fraction of a second (the scan: minutes)."""
    import time

    n = 40_000
    src = [f"w{i}" for i in range(n)]
    t, _ = targets(src, [(i, i + 1, "R", "x", 0) for i in range(0, n, 2)])
    started = time.process_time()
    chunks = partition(src, [t[0], (src, [])])
    assert len(chunks[0]) == n and sum(c[1] for c in chunks[0]) == n // 2
    assert time.process_time() - started < 10  # quadratic: about 200 million steps


@pytest.mark.parametrize("cls", [ClemeMetric, Cleme2Metric])
def test_a_gold_edit_that_does_not_fit_is_the_golds_fault(cls, tmp_path: Path):
    from typer.testing import CliRunner

    from gecformats.cli import app
    from gecformats.errors import GecFormatError

    gold = Sentence(tuple("a b c".split()), {0: (Edit(5, 4, (("x",),), "R"),)})
    with pytest.raises(GecFormatError, match="the gold's edit 5 4 starts after it ends"):
        cls().prepare(gold)
    metric = cls()
    prepared = metric.prepare(Sentence(tuple("a b c".split())))
    bad = [(2, 7, "R", "x", 0)]
    with pytest.raises(GecFormatError, match="the hypothesis' edit 2 7 does not fit"):
        metric._stats(prepared, bad, False)
    # score: the pipeline's one policy for gold edits comes first (start after end refused
    # naming the gold's line, past the end left out with a warning); CLEME never sees them
    (tmp_path / "h.txt").write_text("a b c\n")
    for edit, code in (("5 4", 1), ("5 6", 0)):
        (tmp_path / "g.m2").write_text(f"S a b c\nA {edit}|||R|||x|||REQUIRED|||-NONE-|||0\n\n")
        result = CliRunner().invoke(app, ["score", str(tmp_path / "h.txt"), "--gold",
                                          str(tmp_path / "g.m2"), "--metric", cls.name])
        assert result.exit_code == code, result.output
        assert f"{tmp_path / 'g.m2'}" in result.stderr and "Error" not in result.output


# ------------------------------------------------------------------ counts


GOLD = sentence("a cat sit on mat", [(2, 3, "sat"), (4, 4, "the")], [(2, 3, "sits")])


def stats_of(metric, gold: Sentence, text: str):
    return metric.sentence(metric.prepare(gold), hyp(text))


def test_dependent_counts_per_reference():
    s = stats_of(ClemeMetric(weighting="none"), GOLD, "a cat sat on mat")
    assert [plain(c) for c in s.refs] == [(1, 0, 1, 3, 0, 0), (0, 1, 0, 4, 1, 0)]
    s = stats_of(ClemeMetric(weighting="none"), GOLD, "the cat sit on mat")
    assert [plain(c) for c in s.refs] == [(0, 1, 2, 3, 0, 1), (0, 1, 1, 4, 0, 1)]


def test_independent_counts_once_for_all_references():
    s = stats_of(ClemeMetric(assumption="independent", weighting="none"), GOLD,
                 "a cat sits on mat")
    # sits matches reference 1; the insertion only reference 0 wants is not all's: TN
    assert [plain(c) for c in s.refs] == [(1, 0, 0, 4, 0, 0)] * 2


def test_empty_references_are_dropped_unless_kept():
    gold = sentence("x y", [(0, 2, "")], [(0, 1, "z")])
    assert stats_of(ClemeMetric(), gold, "x y").annotators == (1,)
    assert stats_of(ClemeMetric(empty_refs="keep"), gold, "x y").annotators == (0, 1)
    only = sentence("x", [(0, 1, "")])
    assert stats_of(ClemeMetric(), only, "x").annotators == (0,)


# ------------------------------------------------------------------ scores


def test_prf_rounds_and_its_empty_conventions():
    assert prf(0, 0, 0) == (1.0, 1.0, 1.0)
    assert prf(0, 2, 0) == (0.0, 1.0, 0.0)
    assert prf(1, 2, 3) == (0.3333, 0.25, 0.3125)
    assert accuracy(0, 0, 0, 0) == 0.0 and accuracy(1, 1, 1, 1) == 0.5


def test_heuo_nothing_to_correct_scores_one_minus_hit():
    for name in ("corpus", "sentence", "class"):
        factors = parse_factors(name, "corpus", False)
        assert heuo(0, 0, 0, 0, factors)[4] == pytest.approx(1 - factors[0])
    assert parse_factors("adapt", "sentence", True) == ADAPT["sentence", True]
    assert parse_factors("0.25,0.25,0.25,0.25", "corpus", False) == (0.25,) * 4
    with pytest.raises(ValueError, match="sum to 1"):
        parse_factors("0.5,0.5,0.5,0.5", "corpus", False)
    with pytest.raises(ValueError, match="preset"):
        parse_factors("best", "corpus", False)


def test_length_weights_clip_and_reverse():
    w = Weigher(((2.0, 0.75, 1.25),) * 3, 2.0)
    assert w.weight(0, 2) == 1.0 and w.weight(1, 2) == 1.0
    assert w.weight(0, 9) == 1.25 and w.weight(1, 9) == 0.75  # long: TP up, FP down
    assert w.sums(((9,), (9, 1), (True, False), (), 3)) == (
        1.25, 0.75 + w.weight(1, 1), 0.0, 3.0, 0.75, w.weight(1, 1))


def test_corpus_choice_and_sentence_mean():
    metric = ClemeMetric(weighting="none")
    a = stats_of(metric, GOLD, "a cat sat on mat")
    b = stats_of(metric, GOLD, "a cat sit on mat")
    totals = metric.corpus([a, b], choices=True)
    assert totals.choices == (0, 1) and totals.counts == {"tp": 1, "fp": 0, "fn": 2, "tn": 7}
    sent = ClemeMetric(weighting="none", level="sentence").corpus([a, b], choices=True)
    assert sent.choices == (0, 1) and sent.values[2] == pytest.approx((0.8333 + 0.0) / 2)
    assert metric.corpus([a, b], [2, 0]).values == metric.corpus([a, a]).values


def test_cleme2_unchanged_sentence_is_one_minus_hit():
    metric = Cleme2Metric()
    plain_sentence = sentence("a b", [])
    totals = metric.corpus([stats_of(metric, plain_sentence, "a b")])
    assert totals.values == pytest.approx((0.55, 0.0, 0.0, 0.0, 0.0))


def test_options_signature_fields_and_pickling():
    c1, c2 = build_metrics(["cleme", "cleme2"], {"cleme-assumption": "independent",
                                                 "cleme2-factors": "class"},
                           {"cleme-assumption", "cleme2-factors"})
    assert c1.assumption == c2.assumption == "independent" and c2.factors == (0.5, 0.4, 0.05, 0.05)
    assert c1.signature().startswith("metric:cleme|code:e90abea|assumption:independent|")
    assert "|weights:none|" in c2.signature() and "|factors:class|" in c2.signature()
    assert pickle.loads(pickle.dumps(c1)).signature() == c1.signature()
    s = stats_of(c1, GOLD, "a cat sat on mat")
    totals = c1.corpus([s], choices=True)
    fields = c1.for_totals(totals).sentence_fields(s, totals.choices[0])
    assert fields["reference"] == 0 and fields["tp"] == pytest.approx(totals.counts["tp"])
    with pytest.raises(ValueError, match="unknown CLEME assumption"):
        ClemeMetric(assumption="both")
    with pytest.raises(Exception, match="cleme2"):
        build_metrics(["cleme"], {"cleme2-factors": "class"}, {"cleme2-factors"})


VARIANTS = [(cls, dict(assumption=a, level=lv, weighting=wt, **extra))
            for a in ("dependent", "independent") for lv in ("corpus", "sentence")
            for wt in ("none", "length", "length-sentence")
            for cls, extra in [(ClemeMetric, {}), *((Cleme2Metric, {"factors": f})
                                                     for f in ("corpus", "sentence", "class",
                                                               "adapt"))]]


def random_stats(metric, seed: int, n: int = 30) -> list:
    import random

    rng = random.Random(seed)
    words = "a cat sat sit on the mat dog".split()
    golds = [GOLD, sentence("the dog sit on a mat", [(2, 3, "sat"), (3, 4, "in")],
                            [(2, 3, "sits")], [(0, 1, "A")]),
             sentence("a cat", [(1, 2, "dog")])]
    out = []
    for _ in range(n):
        gold = rng.choice(golds)
        out.append(stats_of(metric, gold, " ".join(
            rng.choice(words) if rng.random() < 0.3 else w for w in gold.source)))
    return out


@pytest.mark.parametrize("cls, options", VARIANTS,
                         ids=[f"{c.name}-{'-'.join(o.values())}" for c, o in VARIANTS])
def test_resampler_gives_the_corpus_step_floats(cls, options):
    from gecformats.metrics.resampling import bootstrap_weights

    metric = cls(**options)
    stats = random_stats(metric, len(str(options)))
    weights = [*bootstrap_weights(len(stats), 40, 7), [0] * len(stats),
               [1] * len(stats), [3] + [0] * (len(stats) - 1)]
    assert metric.resampler(stats).scores(weights) == [metric.corpus(stats, list(w)).values
                                                       for w in weights]


def test_resampler_refuses_a_negative_weight():
    metric = ClemeMetric()
    stats = random_stats(metric, 1, 3)
    with pytest.raises(ValueError, match="negative"):
        metric.resampler(stats).scores([[1, -1, 1]])


# ------------------------------------------------------------------ the original's numbers


@lru_cache(maxsize=None)
def gold_prepared() -> tuple:
    from gecformats.formats import m2

    metric = ClemeMetric()
    return tuple(metric.prepare(g) for g in m2.read(shared_file(f"{ERRANT}/ref.m2")))


@lru_cache(maxsize=None)
def system_stats(system: str, assumption: str) -> tuple:
    from gecformats.formats import m2

    metric = ClemeMetric(assumption=assumption)
    hyps = m2.read(shared_file(f"{ERRANT}/hyp/{system}.m2"))
    return tuple(metric.sentence(p, Hypothesis((), "", h)) for p, h in zip(gold_prepared(), hyps))


def variant(row: dict[str, str]):
    """Our metric for one row of corpus_all_variants.tsv."""
    weigher, scorer, output = row["weigher"], row["scorer"], row["output"]
    level = "corpus" if "_corpus_" in output else "sentence"
    length = weigher != "none" and output.endswith("_weighted")
    common = dict(assumption=row["assumption"], level=level,
                  weighting="length" if length else "none",
                  length_preset="sentence" if weigher.startswith("length_sentence") else "code")
    if scorer == "prf":
        return ClemeMetric(**common), ("p", "r", "f", "acc", "tp", "fp", "fn", "tn")
    if scorer == "heuo_adapt":
        factors = "adapt" if length or not output.endswith("_weighted") else \
            ",".join(map(str, ADAPT[level, True]))
    else:
        factors = ",".join(scorer.split("_")[-4:])
    return (Cleme2Metric(factors=factors, **common),
            ("com", "hit", "err", "und", "ove", "tp", "fp", "fn", "tn", "fp_ne", "fp_un"))


def corpus_rows() -> list[dict[str, str]]:
    with open(shared_file(f"{REFERENCE}/corpus_all_variants.tsv"), encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def values(metric, totals) -> dict[str, float]:
    names = ("p", "r", "f", "acc") if metric.name == "cleme" else ("com", "hit", "err", "und", "ove")
    return {**dict(zip(names, totals.values)), **totals.counts}


@pytest.mark.shared(ERRANT)
@pytest.mark.parametrize("assumption", ["dependent", "independent"])
def test_resampler_on_a_conll_system(assumption):
    from gecformats.metrics.resampling import bootstrap_weights

    stats = system_stats("AMU", assumption)
    weights = bootstrap_weights(len(stats), 8, 5)
    for metric in (ClemeMetric(assumption=assumption),
                   ClemeMetric(assumption=assumption, level="sentence",
                               weighting="length-sentence"),
                   Cleme2Metric(assumption=assumption),
                   Cleme2Metric(assumption=assumption, weighting="length", factors="adapt")):
        assert metric.resampler(stats).scores(weights) == [
            metric.corpus(stats, list(w)).values for w in weights], metric


@pytest.mark.shared(ERRANT)
@pytest.mark.shared(REFERENCE)
def test_main_variants_of_four_systems():
    # the bench (tests/bench/bench_cleme.py) checks all 13; four keep the suite fast
    for row in corpus_rows():
        if row["system"] not in ("AMU", "INPUT", "POST", "UFC"):
            continue
        main = (row["weigher"], row["scorer"], row["output"]) in (
            ("length", "prf", "prf_corpus_weighted"),
            ("none", "heuo_readme_corpus_0.45_0.35_0.15_0.05", "heuo_corpus_unweighted"),
            ("length", "heuo_readme_corpus_0.45_0.35_0.15_0.05", "heuo_corpus_weighted"))
        if not main:
            continue
        metric, keys = variant(row)
        got = values(metric, metric.corpus(system_stats(row["system"], row["assumption"])))
        for k in keys:
            assert got[k] == float(row[k]), (row["system"], row["assumption"], row["scorer"], k)


@pytest.mark.shared(ERRANT)
@pytest.mark.shared(REFERENCE)
@pytest.mark.parametrize("system", ["AMU", "POST"])
def test_every_variant_and_preset(system):
    for row in corpus_rows():
        if row["system"] != system:
            continue
        metric, keys = variant(row)
        got = values(metric, metric.corpus(system_stats(system, row["assumption"])))
        for k in keys:
            assert got[k] == float(row[k]), (row["assumption"], row["weigher"], row["scorer"],
                                             row["output"], k)


@pytest.mark.shared(ERRANT)
@pytest.mark.shared(REFERENCE)
@pytest.mark.parametrize("assumption", ["dependent", "independent"])
def test_every_sentence_of_amu(assumption):
    with open(shared_file(f"{REFERENCE}/per_sentence/AMU.{assumption}.tsv"), encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    stats = system_stats("AMU", assumption)
    names = {"com": "combined", "err": "wrong", "und": "under", "ove": "over"}
    presets = {"classdefault": "class", "readme_corpus": "corpus",
               "readme_sentence": "sentence", "adapt": "adapt"}
    for weighting, tag in (("none", "unw"), ("length", "len")):
        checks = [(ClemeMetric(assumption=assumption, level="sentence", weighting=weighting),
                   f"prf_{tag}", ("tp", "fp", "fn", "tn", "p", "r", "f", "acc"))]
        checks += [(Cleme2Metric(assumption=assumption, level="sentence", weighting=weighting,
                                 factors=factors), f"heuo_{preset}_{tag}",
                    ("com", "hit", "err", "und", "ove")) for preset, factors in presets.items()]
        for metric, prefix, keys in checks:
            totals = metric.corpus(stats, choices=True)
            describe = metric.for_totals(totals)
            for i, (s, choice) in enumerate(zip(stats, totals.choices)):
                fields = describe.sentence_fields(s, choice)
                for k in keys:
                    assert fields[names.get(k, k)] == float(rows[i][f"{prefix}_{k}"]), (i + 1, prefix, k)
    weigher = ClemeMetric(assumption=assumption).weigher(stats)
    for i, s in enumerate(stats):
        assert int(rows[i]["n_refs_kept"]) == len(s.refs)
        for ref, counts in zip(s.annotators, s.refs):
            for name, n, w in zip(("tp", "fp", "fn", "tn", "fp_ne", "fp_un"), plain(counts),
                                  weigher.sums(counts)):
                assert (n, w) == (float(rows[i][f"ref{ref}_{name}"]),
                                  float(rows[i][f"ref{ref}_len_w_{name}"])), (i + 1, ref, name)


@pytest.mark.shared(ERRANT)
@pytest.mark.shared(REFERENCE)
def test_the_length_weigher_bias():
    with open(shared_file(f"{REFERENCE}/length_weigher_bias.tsv"), encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    for row in rows[:4]:
        stats = system_stats(row["system"], row["assumption"])
        assert ClemeMetric().weigher(stats).bias == float(row["bias_avg_changed_ref_chunk_len"])


def head(path: Path, out: Path, blocks: int) -> str:
    """The first ``blocks`` M2 blocks of ``path``, written to ``out``."""
    out.write_text("\n\n".join(path.read_text(encoding="utf-8").split("\n\n")[:blocks]) + "\n",
                   encoding="utf-8")
    return str(out)


@pytest.mark.shared(ERRANT)
def test_cli_with_ci_paired_test_and_per_sentence(tmp_path: Path):
    from typer.testing import CliRunner

    from gecformats.cli import app

    out = tmp_path / "sent.tsv"
    gold = head(shared_file(f"{ERRANT}/ref.m2"), tmp_path / "ref.m2", 200)
    paths = [head(shared_file(f"{ERRANT}/hyp/{s}.m2"), tmp_path / f"{s}.m2", 200)
             for s in ("AMU", "CAMB")]
    args = ["score", *paths, "--gold", gold, "--metric", "cleme", "--metric", "cleme2"]
    plain_run = CliRunner().invoke(app, args)
    assert plain_run.exit_code == 0, plain_run.output
    result = CliRunner().invoke(app, [*args, "--ci", "--resamples", "10", "--paired-bs",
                                      "--per-sentence", str(out)])
    assert result.exit_code == 0, result.output
    assert "metric:cleme|" in result.output and "metric:cleme2|" in result.output
    table = plain_run.output.splitlines()[2]
    assert table.split()[0] == "AMU" and table.split()[3] in result.output
    lines = out.read_text().splitlines()
    assert lines[1].startswith("1\tAMU\tcleme\treference=0 ")
    refused = CliRunner().invoke(app, ["score", *paths, "--gold", gold, "--cleme2-factors", "class"])
    assert refused.exit_code == 2 and "cleme2" in refused.output
