"""Meta-evaluation: `gecformats.metrics.correlate` (scores files, r / rho / tau-b) and `gecformats correlate`."""

from __future__ import annotations

import gzip
import io
import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from conftest import FIXTURES, shared_file
from gecformats.cli import app
from gecformats.metrics.correlate import (Correlation, Scores, average_ranks, correlate, kendall,
                                  pearson, read_scores, spearman)
from gecformats.errors import GecFormatError, UsageError

HUMAN = FIXTURES / "gleu" / "human-napoles2015.tsv"
PAPER_ORDER = ["CAMB", "AMU", "RAC", "CUUI", "INPUT", "POST", "UFC", "SJTU", "IITB", "PKU",
               "UMC", "NTHU", "IPN"]
OUTPUTS = "corpora/gec-ranking/reference_outputs"
M2_SCORES = "corpora/conll14/gecmetrics/scores/system_m2score.tsv"


# --- exact oracles (rational arithmetic; one rounding at the end) --------------------------


def exact_pearson(x: list[float], y: list[float]) -> float:
    fx, fy = [Fraction(v) for v in x], [Fraction(v) for v in y]
    mx, my = sum(fx) / len(fx), sum(fy) / len(fy)
    sxy = sum((a - mx) * (b - my) for a, b in zip(fx, fy))
    sxx = sum((a - mx) ** 2 for a in fx)
    syy = sum((b - my) ** 2 for b in fy)
    return math.copysign(math.sqrt(sxy * sxy / (sxx * syy)), sxy) if sxy else 0.0


def exact_ranks(x: list[float]) -> list[Fraction]:
    # rank = 1 + number of smaller values + (number of other equal values) / 2
    return [1 + sum(v < a for v in x) + Fraction(sum(v == a for v in x) - 1, 2) for a in x]


def exact_spearman(x: list[float], y: list[float]) -> float:
    return exact_pearson(exact_ranks(x), exact_ranks(y))  # type: ignore[arg-type]


def exact_kendall(x: list[float], y: list[float]) -> float:
    c = d = tx = ty = 0
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            s = ((x[i] > x[j]) - (x[i] < x[j])) * ((y[i] > y[j]) - (y[i] < y[j]))
            if s > 0:
                c += 1
            elif s < 0:
                d += 1
            elif x[i] == x[j] and y[i] != y[j]:
                tx += 1
            elif y[i] == y[j] and x[i] != x[j]:
                ty += 1
    return (c - d) / math.sqrt((c + d + tx) * (c + d + ty))


# --- the coefficients ----------------------------------------------------------------------

COEFFICIENTS = [pearson, spearman, kendall]


@pytest.mark.parametrize("f", COEFFICIENTS)
def test_perfect_and_inverse(f) -> None:
    x = [0.1, 0.4, 0.2, 0.9, 0.5]
    assert f(x, x) == 1.0
    assert f(x, [-v for v in x]) == -1.0
    assert f([1, 2], [3, 4]) == 1.0


@pytest.mark.parametrize("f", [spearman, kendall])
def test_monotone_but_not_linear_is_perfect_for_rank_coefficients(f) -> None:
    x = [1.0, 2.0, 3.0, 4.0, 5.0]
    assert f(x, [v ** 3 for v in x]) == 1.0
    assert pearson(x, [v ** 3 for v in x]) < 1.0


def test_hand_computed_without_ties() -> None:
    # dx = -2 -1 0 1 2, dy = -1 -2 1 0 2: Sxy = 8, Sxx = Syy = 10 -> r = rho = 0.8;
    # 2 discordant pairs of 10 -> tau = (8 - 2) / 10
    x, y = [1, 2, 3, 4, 5], [2, 1, 4, 3, 5]
    assert pearson(x, y) == pytest.approx(0.8, abs=1e-15)
    assert spearman(x, y) == pytest.approx(0.8, abs=1e-15)
    assert kendall(x, y) == pytest.approx(0.6, abs=1e-15)


def test_hand_computed_with_ties() -> None:
    # ranks of x: 1 2.5 2.5 4; deviations -1.5 0 0 1.5 and -1.5 .5 -.5 1.5:
    # rho = 4.5 / sqrt(4.5 * 5) = sqrt(0.9); tau-b: C = 5, D = 0, one pair tied in x only:
    # 5 / sqrt(5 * 6)
    x, y = [1, 2, 2, 3], [1, 3, 2, 4]
    assert average_ranks(x) == [1.0, 2.5, 2.5, 4.0]
    assert spearman(x, y) == pytest.approx(math.sqrt(0.9), abs=1e-15)
    assert kendall(x, y) == pytest.approx(5 / math.sqrt(30), abs=1e-15)
    assert kendall(y, x) == kendall(x, y)


def test_kendall_tau_b_scipy_documentation_example() -> None:
    # scipy.stats.kendalltau's example: C = 2, D = 6, one pair tied in x only, one pair tied
    # in both (not counted): -4 / sqrt(9 * 8) = -sqrt(2) / 3 = -0.47140452079103173
    x, y = [12, 2, 1, 12, 2], [1, 4, 7, 1, 0]
    assert kendall(x, y) == pytest.approx(-math.sqrt(2) / 3, abs=1e-15)
    assert kendall(x, y) == pytest.approx(-0.47140452079103173, abs=1e-15)


def test_spearman_with_ties_in_both() -> None:
    # ranks 1 2 3 4 5 and 1 2 3.5 5 3.5 (mean 3): Sxy = 4 + 1 + 0 + 2 + 1 = 8, Sxx = 10,
    # Syy = 9.5; scipy.stats.spearmanr's documentation example
    x, y = [1, 2, 3, 4, 5], [5, 6, 7, 8, 7]
    assert average_ranks(y) == [1.0, 2.0, 3.5, 5.0, 3.5]
    assert spearman(x, y) == pytest.approx(8 / math.sqrt(95), abs=1e-15)
    assert spearman(x, y) == pytest.approx(0.8207826816681233, abs=1e-15)


def test_pearson_hand_computed_and_scale_free() -> None:
    # dx = -3 .. 3, dy = 5 4 -3 1 -1 -2 -4 (mean 5): Sxy = -15 - 8 + 3 + 0 - 1 - 4 - 12 = -37,
    # Sxx = 28, Syy = 72
    x, y = [1, 2, 3, 4, 5, 6, 7], [10, 9, 2, 6, 4, 3, 1]
    expected = -37 / math.sqrt(28 * 72)
    assert pearson(x, y) == pytest.approx(expected, abs=1e-15)
    assert pearson([v * 1e300 for v in x], y) == pytest.approx(expected, abs=1e-15)
    assert pearson([v * 1e-300 for v in x], y) == pytest.approx(expected, abs=1e-15)
    assert pearson([v + 1e9 for v in x], y) == pytest.approx(expected, abs=1e-12)


def test_extreme_magnitudes_do_not_overflow() -> None:
    assert pearson([1e308, -1e308, 5e307], [1, 2, 3]) == pytest.approx(
        exact_pearson([1e308, -1e308, 5e307], [1, 2, 3]), abs=1e-15)
    assert pearson([1e-320, 2e-320, 3e-320], [1, 2, 3]) == 1.0


@pytest.mark.parametrize("f", COEFFICIENTS)
@pytest.mark.parametrize("x, y, message", [
    ([1.0], [2.0], "at least 2"),
    ([], [], "at least 2"),
    ([1, 2, 3], [1, 2], "different lengths"),
    ([1, 1, 1], [1, 2, 3], "constant"),
    ([1, 2, 3], [4, 4, 4], "constant"),
    ([1, math.nan, 3], [1, 2, 3], "finite"),
    ([1, 2, 3], [1, math.inf, 3], "finite"),
])
def test_undefined_raises(f, x, y, message) -> None:
    with pytest.raises(ValueError, match=message):
        f(x, y)


# --- properties ----------------------------------------------------------------------------

any_floats = st.floats(allow_nan=False, allow_infinity=False)
small_ints = st.integers(-40, 40)


def pairs(elements: st.SearchStrategy, min_size: int = 2) -> st.SearchStrategy:
    return st.integers(min_size, 12).flatmap(
        lambda n: st.tuples(st.lists(elements, min_size=n, max_size=n),
                            st.lists(elements, min_size=n, max_size=n)))


def not_constant(*seqs: list[float]) -> bool:
    return all(len(set(s)) > 1 for s in seqs)


@settings(max_examples=150, deadline=None)
@given(pairs(any_floats))
def test_symmetric_and_bounded(xy) -> None:
    x, y = xy
    assume(not_constant(x, y))
    for f in COEFFICIENTS:
        value = f(x, y)
        assert -1.0 <= value <= 1.0
        assert f(y, x) == value


@settings(max_examples=150, deadline=None)
@given(pairs(st.floats(-1e6, 1e6, allow_nan=False)))
def test_matches_exact_rational_computation(xy) -> None:
    x, y = xy
    assume(not_constant(x, y))
    assert pearson(x, y) == pytest.approx(exact_pearson(x, y), abs=1e-12)
    assert spearman(x, y) == pytest.approx(exact_spearman(x, y), abs=1e-12)
    assert kendall(x, y) == pytest.approx(exact_kendall(x, y), abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(pairs(small_ints))
def test_matches_exact_with_many_ties(xy) -> None:
    x, y = [[v % 4 for v in s] for s in xy]  # few distinct values: ties everywhere
    assume(not_constant(x, y))
    assert spearman(x, y) == pytest.approx(exact_spearman(x, y), abs=1e-12)
    assert kendall(x, y) == pytest.approx(exact_kendall(x, y), abs=1e-12)


INCREASING = [lambda v: v ** 3, lambda v: math.exp(v / 8), lambda v: -1 / (v + 100), lambda v: 3 * v - 7]


@settings(max_examples=100, deadline=None)
@given(pairs(small_ints), st.sampled_from(INCREASING), st.sampled_from(INCREASING))
def test_rank_coefficients_invariant_under_monotone_transforms(xy, g, h) -> None:
    x, y = xy
    assume(not_constant(x, y))
    gx, hy = [g(v) for v in x], [h(v) for v in y]
    for f in (spearman, kendall):
        assert f(gx, hy) == f(x, y)
        assert f([-v for v in gx], hy) == -f(x, y)  # decreasing: the sign flips


@settings(max_examples=100, deadline=None)
@given(pairs(small_ints), st.floats(0.01, 100), st.integers(-1000, 1000))
def test_pearson_invariant_under_positive_affine_maps(xy, a, b) -> None:
    x, y = xy
    assume(not_constant(x, y))
    assert pearson([a * v + b for v in x], y) == pytest.approx(pearson(x, y), abs=1e-12)
    assert pearson([-a * v + b for v in x], y) == pytest.approx(-pearson(x, y), abs=1e-12)


# --- reading -------------------------------------------------------------------------------


def write(tmp_path: Path, text: str, name: str = "scores.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_read_plain_space_separated(tmp_path: Path) -> None:
    path = write(tmp_path, "B 0.5\nA   0.75 extra fields\n\n  C\t 1e-1\n")
    scores = read_scores(path)
    assert scores == Scores({"B": 0.5, "A": 0.75, "C": 0.1}, False, str(path), "column 2")
    assert list(scores.values) == ["B", "A", "C"]


def test_read_tab_lines_keep_spaces_in_names(tmp_path: Path) -> None:
    scores = read_scores(write(tmp_path, "system one\t1\tignored\nsystem two\t2\n"))
    assert scores.values == {"system one": 1.0, "system two": 2.0}


@pytest.mark.parametrize("header, ranks", [("system\trank", True), ("System RANK", True),
                                           ("system\tranks", True), ("system\tscore", False),
                                           ("name gleu", False)])
def test_read_header(tmp_path: Path, header: str, ranks: bool) -> None:
    scores = read_scores(write(tmp_path, f"# a comment\n\n{header}\nA 1\nB 2\n"))
    assert scores.ranks is ranks
    assert scores.values == {"A": 1.0, "B": 2.0}


def test_read_comments_bom_crlf_and_gzip(tmp_path: Path) -> None:
    text = "\ufeff# made by hand\r\n  # indented comment\r\nA\t1\r\nB\t2\r\n"
    assert read_scores(write(tmp_path, text)).values == {"A": 1.0, "B": 2.0}
    gz = tmp_path / "scores.txt.gz"
    gz.write_bytes(gzip.compress(text.encode("utf-8")))
    assert read_scores(gz).values == {"A": 1.0, "B": 2.0}
    assert read_scores(io.StringIO("A 3\nB 4\n")).values == {"A": 3.0, "B": 4.0}


def test_read_fixture() -> None:
    human = read_scores(HUMAN)
    assert human.ranks
    assert list(human.values) == PAPER_ORDER
    assert list(human.values.values()) == [float(k) for k in range(1, 14)]


@pytest.mark.parametrize("text, line, message", [
    ("A 1\nB\n", 2, "found 1 field"),
    ("system rank\nA one\n", 2, "not a finite number: 'one'"),
    ("A 1\nsystem score\n", 2, "not a finite number"),
    ("A 1\nB nan\n", 2, "not a finite number"),
    ("A 1\nB -inf\n", 2, "not a finite number"),
    ("# c\nA 1\nB 2\nA 3\n", 4, r"system A is listed twice \(first on line 2\)"),
    ("A 1\n\t2\n", 2, "empty system name"),
])
def test_read_errors_name_file_and_line(tmp_path: Path, text: str, line: int, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(GecFormatError, match=message) as info:
        read_scores(path)
    assert (info.value.file, info.value.line) == (str(path), line)
    assert str(info.value).startswith(f"{path}:{line}: ")


@pytest.mark.parametrize("text", ["", "\n# only a comment\n", "system\trank\n"])
def test_read_no_systems(tmp_path: Path, text: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(GecFormatError, match="no systems") as info:
        read_scores(path)
    assert info.value.file == str(path)


def test_read_gleu_json(tmp_path: Path) -> None:
    data = {"results": [
        {"hypothesis": "out/AMU", "system": "AMU", "score": 0.6, "sentences": 3},
        {"hypothesis": "out/sub/CAMB", "score": 0.7, "sentences": 3},
        {"hypothesis": "-", "system": "stdin run", "score": 1, "sentences": 3},
    ], "signature": "metric:gleu"}
    scores = read_scores(write(tmp_path, "\n  " + json.dumps(data, indent=2), "g.json"))
    assert scores.values == {"AMU": 0.6, "CAMB": 0.7, "stdin run": 1.0}
    assert scores.ranks is False


@pytest.mark.parametrize("text, line, message", [
    ('{"results": [\n{"system": "A", "score": 1},\n]}', 3, "not valid JSON"),
    ('{"scores": []}', None, '"results" list'),
    ('{"results": []}', None, "no systems"),
    ('{"results": [{"score": 1}]}', None, 'entry 1 has no "system"'),
    ('{"results": [{"system": "A", "score": "1"}]}', None, "entry 1 \\(A\\): \"score\" is not"),
    ('{"results": [{"system": "A", "score": true}]}', None, "not a finite number"),
    ('{"results": [{"system": "A", "score": 1}, {"system": "A", "score": 2}]}', None,
     "entry 2: system A is listed twice \\(first in entry 1\\)"),
])
def test_read_json_errors(tmp_path: Path, text: str, line: int | None, message: str) -> None:
    path = write(tmp_path, text, "g.json")
    with pytest.raises(GecFormatError, match=message) as info:
        read_scores(path)
    assert (info.value.file, info.value.line) == (str(path), line)


# --- alignment -----------------------------------------------------------------------------

METRIC = {"A": 0.64, "B": 0.58, "C": 0.61, "D": 0.50}


def test_correlate_negates_ranks_only() -> None:
    ranks = Scores({"A": 1, "C": 2, "B": 3, "D": 4}, ranks=True, file="h.tsv")
    agree = correlate(METRIC, ranks)
    assert (agree.pearson > 0, agree.spearman, agree.kendall) == (True, 1.0, 1.0)
    as_scores = correlate(METRIC, Scores(ranks.values, ranks=False))
    assert (as_scores.spearman, as_scores.kendall) == (-1.0, -1.0)
    assert as_scores.pearson == -agree.pearson
    # a metric given as ranks is negated too
    metric_ranks = Scores({"A": 1, "C": 2, "B": 3, "D": 4}, ranks=True)
    assert correlate(metric_ranks, ranks).pearson == 1.0


def test_correlate_result_fields() -> None:
    human = {"D": 1.0, "C": 3.0, "B": 2.0, "A": 4.0}
    result = correlate(METRIC, human)
    assert isinstance(result, Correlation)
    assert result.systems == ("A", "B", "C", "D")  # the metric's order
    assert result.n == 4 and result.excluded == ()
    assert result.pearson == pytest.approx(exact_pearson([.64, .58, .61, .5], [4, 2, 3, 1]), abs=1e-15)
    assert result.spearman == 1.0 and result.kendall == 1.0
    assert result.to_dict() == {"n": 4, "pearson": result.pearson, "spearman": 1.0,
                                "kendall": 1.0, "systems": ["A", "B", "C", "D"], "excluded": []}
    with pytest.raises(AttributeError):
        result.n = 5  # type: ignore[misc]


def test_exclusion() -> None:
    human = Scores({"A": 1, "B": 2, "C": 3, "D": 4, "E": 5}, ranks=True, file="h.tsv")
    metric = {**METRIC, "E": 0.9}
    result = correlate(metric, human, exclude=["E", "B", "E"])
    assert result.systems == ("A", "C", "D") and result.excluded == ("E", "B")
    assert result.spearman == 1.0
    # a system in only one of the two may be excluded
    assert correlate(METRIC, human, exclude=["E"]).n == 4
    with pytest.raises(GecFormatError, match="cannot exclude Z: it is neither in metric scores nor in h.tsv"):
        correlate(metric, human, exclude=["Z"])


def test_systems_in_one_file_only() -> None:
    human = Scores({"A": 1, "B": 2, "C": 3}, ranks=True, file="human.tsv")
    with pytest.raises(GecFormatError, match=r"no value for system D \(listed in m.txt\)") as info:
        correlate(Scores(METRIC, file="m.txt"), human)
    assert info.value.file == "human.tsv"
    extra = Scores({"A": 1, "B": 2, "C": 3, "D": 4, "X": 5, "Y": 6}, ranks=True, file="human.tsv")
    with pytest.raises(GecFormatError, match=r"no value for systems X, Y \(listed in human.tsv\)") as info:
        correlate(Scores(METRIC, file="m.txt"), extra)
    assert str(info.value).startswith("m.txt: ")


def test_too_few_systems_and_constant_values() -> None:
    with pytest.raises(GecFormatError, match=r"at least 3 systems to correlate, got 2 \(A, B\)"):
        correlate({"A": 1, "B": 2}, {"A": 2, "B": 1})
    with pytest.raises(GecFormatError, match="at least 3 systems to correlate, got 2"):
        correlate(METRIC, {"A": 1, "B": 2, "C": 3, "D": 4}, exclude=["A", "B"])
    flat = Scores({"A": 1, "B": 1, "C": 1, "D": 1}, ranks=True, file="flat.tsv")
    with pytest.raises(GecFormatError, match="undefined because all values in flat.tsv are equal"):
        correlate(METRIC, flat)
    with pytest.raises(GecFormatError, match="all values in metric scores are equal"):
        correlate({"A": 1, "B": 1, "C": 1, "D": 2}, {"A": 4, "B": 3, "C": 2, "D": 1}, exclude=["D"])


# --- command line --------------------------------------------------------------------------


def run(*args: object, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["correlate", *(str(a) for a in args)], input=input)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    metric = write(tmp_path, "A 0.64\nB 0.58\nC 0.61\nD 0.50\nINPUT 0.55\n", "metric.txt")
    human = write(tmp_path, "# ranks\nsystem\trank\nA\t1\nB\t2\nC\t3\nD\t4\nINPUT\t5\n", "human.tsv")
    return metric, human


def test_cli_text(files: tuple[Path, Path]) -> None:
    code, out, err = run(*files)
    expected = correlate(read_scores(files[0]), read_scores(files[1]))
    assert code == 0 and err == ""
    assert out == (f"column 2 ({files[0]}) against rank ({files[1]}, 1 = best)\n"
                   "systems                 n  pearson  spearman  kendall\n"
                   f"all                     5{expected.pearson:>9.3f}{expected.spearman:>10.3f}"
                   f"{expected.kendall:>9.3f}\n")


def test_cli_text_with_and_without(files: tuple[Path, Path]) -> None:
    code, out, _ = run(*files, "--exclude", "INPUT")
    assert code == 0
    lines = out.splitlines()[1:]
    assert [line.split()[:2] for line in lines] == [["systems", "n"], ["all", "5"], ["without", "INPUT"]]
    assert lines[2].split()[2:] == ["4", "0.836", "0.800", "0.667"]
    assert len({len(line) for line in lines}) == 1  # aligned columns


def test_cli_json(files: tuple[Path, Path]) -> None:
    code, out, _ = run(*files, "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"n", "pearson", "spearman", "kendall", "systems", "excluded", "columns"}
    assert data["columns"] == {"metric": "column 2", "human": "rank"}
    assert data["systems"] == ["A", "B", "C", "D", "INPUT"] and data["excluded"] == []
    code, out, _ = run(*files, "--format", "json", "--exclude", "INPUT", "--exclude", "B")
    data = json.loads(out)
    assert data["n"] == 3 and data["excluded"] == ["INPUT", "B"]
    assert data["spearman"] == 1.0 and data["kendall"] == 1.0
    assert set(data["all"]) == {"n", "pearson", "spearman", "kendall"} and data["all"]["n"] == 5
    assert out.startswith('{\n  "n": 3,')


def test_cli_standard_input(files: tuple[Path, Path]) -> None:
    code, out, _ = run("-", files[1], "--format", "json", input=files[0].read_text())
    assert code == 0 and json.loads(out)["n"] == 5


def test_cli_excluded_system_in_one_file_only(tmp_path: Path, files: tuple[Path, Path]) -> None:
    human = write(tmp_path, "system rank\nA 1\nB 2\nC 3\nD 4\n", "four.tsv")
    code, out, err = run(files[0], human, "--exclude", "INPUT")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()[1:]] == ["systems", "without"]
    assert "no row for all systems" in err


def test_cli_exit_codes(tmp_path: Path, files: tuple[Path, Path]) -> None:
    bad = write(tmp_path, "A 1\nB two\n", "bad.txt")
    code, out, err = run(bad, files[1])
    assert (code, out) == (1, "")
    assert err == f"gecformats: {bad}:2: the value of B is not a finite number: 'two'\n"
    code, _, err = run(files[0], files[1], "--exclude", "NOPE")
    assert code == 1 and "cannot exclude NOPE" in err
    code, _, err = run(tmp_path / "missing.txt", files[1])
    assert code == 1 and "missing.txt: No such file or directory" in err
    code, _, _ = run(files[0], files[1], "--format", "xml")
    assert code == 2  # usage error


def test_cli_help_states_the_conventions() -> None:
    result = CliRunner().invoke(app, ["correlate", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    for phrase in ("rank", "negated", "positive correlation", "agrees with the humans"):
        assert phrase in text


# --- real data: the CoNLL-2014 systems against Napoles et al. (2015) -------------------------


def gleu_file(tmp_path: Path, name: str = "gleu_v2015_l0.0.allrefs.txt") -> Path:
    """A copy of a reference GLEU output (``SYSTEM score`` per line) in tmp_path."""
    path = tmp_path / name
    path.write_text(shared_file(f"{OUTPUTS}/{name}").read_text(encoding="utf-8"), encoding="utf-8")
    return path


def rounded(result: Correlation) -> tuple[int, float, float]:
    return result.n, round(result.pearson, 3), round(result.spearman, 3)


def test_gleu_2015_against_the_paper_ranking(tmp_path: Path) -> None:
    metric = read_scores(gleu_file(tmp_path))
    human = read_scores(HUMAN)
    assert sorted(metric.values) == sorted(PAPER_ORDER) and not metric.ranks
    everything = correlate(metric, human)
    assert rounded(everything) == (13, 0.498, 0.555)
    # 13 systems, no ties: rho = 1 - 6 * sum(d^2) / (n^3 - n), here sum(d^2) = 162;
    # tau = (C - D) / 78 with C - D = 36
    assert everything.spearman == pytest.approx(1 - 6 * 162 / 2184, abs=1e-15)
    assert everything.kendall == pytest.approx(36 / 78, abs=1e-15)
    without = correlate(metric, human, exclude=["INPUT"])
    assert rounded(without) == (12, 0.484, 0.517)
    assert without.kendall == pytest.approx(28 / 66, abs=1e-15)
    assert without.systems == tuple(s for s in metric.values if s != "INPUT")


def test_gleu_reference_file_read_directly() -> None:
    path = shared_file(f"{OUTPUTS}/gleu_v2015_l0.0.allrefs.txt")
    metric = read_scores(path)
    assert len(metric.values) == 13 and metric.values["CUUI"] == pytest.approx(0.64593176709)
    assert rounded(correlate(metric, read_scores(HUMAN))) == (13, 0.498, 0.555)


@pytest.mark.parametrize("name, all13, without_input", [
    ("gleu_v2015_l0.0.noUm.txt", (0.478, 0.555), (0.462, 0.517)),
    ("gleu_v2015_l0.1.allrefs.txt", (0.563, 0.588), (0.557, 0.552)),
    ("gleu_gleuplus_50b5032.allrefs.txt", (0.583, 0.341), (0.634, 0.420)),
    ("gleu_gleuplus_50b5032.noUm.txt", (0.578, 0.324), (0.620, 0.392)),
    ("gleu_gleuplus_f0e2ee5.allrefs.txt", (0.486, 0.407), (0.531, 0.503)),
])
def test_reference_outputs_match_correlations_txt(name: str, all13: tuple[float, float],
                                                  without_input: tuple[float, float]) -> None:
    metric, human = read_scores(shared_file(f"{OUTPUTS}/{name}")), read_scores(HUMAN)
    assert rounded(correlate(metric, human)) == (13, *all13)
    assert rounded(correlate(metric, human, exclude=["INPUT"])) == (12, *without_input)


@pytest.mark.parametrize("lam, all13, without_input", [
    ("0.0", (-0.120, -0.077), (-0.205, -0.133)),
    ("0.1", (-0.074, -0.033), (-0.150, -0.084)),
])
def test_gleu_2016_three_columns(tmp_path: Path, lam: str, all13: tuple[float, float],
                                 without_input: tuple[float, float]) -> None:
    source = shared_file(f"{OUTPUTS}/gleu_v2016mar.allrefs.txt")
    rows = [line.split() for line in source.read_text(encoding="utf-8").splitlines() if line.strip()]
    with pytest.raises(GecFormatError, match="2 columns of numbers .* no header"):  # lambda, score
        read_scores(source)
    path = tmp_path / f"gleu2016-{lam}.txt"
    path.write_text("".join(f"{system} {score}\n" for system, lam_, score in rows if lam_ == lam))
    metric, human = read_scores(path), read_scores(HUMAN)
    assert rounded(correlate(metric, human)) == (13, *all13)
    assert rounded(correlate(metric, human, exclude=["INPUT"])) == (12, *without_input)


def test_m2_scores(tmp_path: Path) -> None:
    rows = [line.split("\t") for line in
            shared_file(M2_SCORES).read_text(encoding="utf-8").splitlines() if line.strip()]
    assert {row[0] for row in rows} == {"m2score"} and len(rows) == 13
    path = tmp_path / "m2.tsv"
    path.write_text("system\tm2\n" + "".join(f"{row[3]}\t{row[4]}\n" for row in rows))
    metric, human = read_scores(path), read_scores(HUMAN)
    assert not metric.ranks
    assert rounded(correlate(metric, human)) == (13, 0.413, 0.522)
    assert rounded(correlate(metric, human, exclude=["INPUT"])) == (12, 0.575, 0.657)


def test_cli_on_real_data(tmp_path: Path) -> None:
    code, out, err = run(gleu_file(tmp_path), HUMAN, "--exclude", "INPUT")
    assert code == 0 and err == ""
    assert out.splitlines()[2:] == [
        "all                    13    0.498     0.555    0.462",
        "without INPUT          12    0.484     0.517    0.424",
    ]


def test_json_with_an_over_long_number_is_a_clean_error(tmp_path):
    """The fuzz test's bea case, checked in the other JSON reader too."""
    from gecformats.errors import GecFormatError
    from gecformats.metrics.correlate import read_scores

    path = tmp_path / "scores.json"
    path.write_text('{"results": [' + "9" * 5000 + "]}", encoding="utf-8")
    with pytest.raises(GecFormatError, match="not valid JSON"):
        read_scores(path)


# --- issue 22: correlate reads what score, gleu and imeasure write -------------------------

SCORE_FIXTURES = FIXTURES / "score"
COMBINED = "corpora/conll14/conll14st-test-data/noalt/official-2014.combined.m2"


def score_cli(*args: object) -> str:
    result = CliRunner().invoke(app, ["score", *(str(a) for a in args)])
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.fixture
def three_systems(tmp_path: Path) -> tuple[list[Path], Path]:
    """Three outputs for fixtures/score/sample.m2 whose precision and F0.5 rank them in
    opposite orders, and human ranks that follow F0.5."""
    from gecformats.formats.m2 import read as m2_read

    sources = [" ".join(s.source) for s in m2_read(SCORE_FIXTURES / "sample.m2")]
    best = SCORE_FIXTURES / "sample.hyp"  # P 0.8333 R 1 F0.5 0.8621
    lines = best.read_text(encoding="utf-8").splitlines()
    middle = tmp_path / "middle.txt"  # only the first sentence's corrections: P 1, R low
    middle.write_text("\n".join(lines[:1] + sources[1:]) + "\n", encoding="utf-8")
    worst = tmp_path / "worst.txt"  # nothing corrected: P 1, R 0, F 0
    worst.write_text("\n".join(sources) + "\n", encoding="utf-8")
    human = write(tmp_path, "system\trank\nsample.hyp\t1\nmiddle.txt\t2\nworst.txt\t3\n", "human.tsv")
    return [best, middle, worst], human


@pytest.mark.parametrize("fmt", ["tsv", "json"])
def test_score_output_correlates_its_f_by_default(tmp_path: Path, three_systems, fmt: str) -> None:
    """The issue's command: `score SYS... --gold G --format tsv > m2.tsv; correlate m2.tsv
    human.tsv` read the precision column; it reads F0.5 and says so (json was refused)."""
    systems, human = three_systems
    table = write(tmp_path, score_cli(*systems, "--gold", SCORE_FIXTURES / "sample.m2",
                                      "--format", fmt), f"m2.{fmt}")
    scores = read_scores(table)
    assert scores.column == "F0.5" and not scores.ranks
    assert list(scores.values) == ["sample.hyp", "middle.txt", "worst.txt"]
    assert scores.values["sample.hyp"] == pytest.approx(0.8621, abs=5e-5)
    code, out, err = run(table, human)
    assert code == 0 and err == ""
    assert out.splitlines()[0] == f"F0.5 ({table}) against rank ({human}, 1 = best)"
    assert out.splitlines()[2].split()[1:] == ["3", f"{correlate(scores, read_scores(human)).pearson:.3f}",
                                               "1.000", "1.000"]
    # precision ranks them the other way round: only when asked for
    code, out, _ = run(table, human, "--column", "precision", "--format", "json")
    data = json.loads(out)
    assert data["columns"] == {"metric": "precision", "human": "rank"}
    assert data["spearman"] < 0
    assert read_scores(table, "p").column == "precision" and read_scores(table, "F").column == "F0.5"


def test_score_tsv_with_intervals_and_p_values_is_read(tmp_path: Path, three_systems) -> None:
    systems, human = three_systems
    table = write(tmp_path, score_cli(*systems, "--gold", SCORE_FIXTURES / "sample.m2",
                                      "--format", "tsv", "--ci", "--paired-bs",
                                      "--resamples", "20"), "m2.tsv")
    assert read_scores(table).column == "F0.5"
    assert read_scores(table, "recall").values["worst.txt"] == 0.0
    code, out, _ = run(table, human)
    assert code == 0 and out.splitlines()[2].split()[3:] == ["1.000", "1.000"]


def test_one_system_json_is_refused(tmp_path: Path) -> None:
    single = write(tmp_path, score_cli(SCORE_FIXTURES / "sample.hyp", "--gold",
                                       SCORE_FIXTURES / "sample.m2", "--format", "json"), "one.json")
    code, out, err = run(single, HUMAN)
    assert (code, out) == (1, "")
    assert err.startswith(f"gecformats: {single}: the score of a single system") and "\n" not in err[:-1]


@pytest.mark.parametrize("text, message", [
    ("A 1 2\nB 2 3\nC 3 1\n", r"2 columns of numbers \(column 2, column 3\) and no header line"),
    ("system\ta\tb\nA\t1\t2\nB\t2\t3\nC\t3\t1\n", r"2 columns of numbers \(a, b\) and none is a known"),
    ('[{"system": "A", "x": 1, "y": 2}, {"system": "B", "x": 2, "y": 1}]', r"2 numeric values per system \(x, y\)"),
])
def test_several_numeric_columns_without_a_choice_are_refused(tmp_path: Path, text: str,
                                                              message: str) -> None:
    path = write(tmp_path, text, "many.txt")
    with pytest.raises(UsageError, match=message + ".*choose one with --column NAME"):
        read_scores(path)
    code, out, err = run(path, HUMAN)
    assert (code, out) == (2, "") and err.count("\n") == 1 and "--column NAME" in err


def test_unknown_column_and_no_header(tmp_path: Path, files: tuple[Path, Path]) -> None:
    table = write(tmp_path, "system\tprecision\tF0.5\nA\t.1\t.2\nB\t.2\t.1\nC\t.3\t.3\n", "t.tsv")
    code, out, err = run(table, files[1], "--column", "recall")
    assert (code, out) == (2, "")
    assert err == (f"gecformats: {table}: --column recall: no such column (the columns are "
                   "precision, F0.5)\n")
    code, _, err = run(files[0], files[1], "--column", "f")
    assert code == 2 and "no header line naming its columns" in err
    code, _, err = run(table, files[1], "--human-column", "score")
    assert code == 2 and "--human-column score: no such column (the columns are rank)" in err


def test_a_named_column_of_a_headed_table(tmp_path: Path) -> None:
    table = write(tmp_path, "system\ta\tb\nA\t1\t2\nB\t2\t3\nC\t3\t1\n", "t.tsv")
    assert read_scores(table, "B").values == {"A": 2.0, "B": 3.0, "C": 1.0}
    human = write(tmp_path, "system\tmu\tsd\trank\nA\t3\t.1\t1\nB\t2\t.1\t2\nC\t1\t.1\t3\n", "h.tsv")
    assert read_scores(human).column == "rank" and read_scores(human).ranks
    assert read_scores(human, "mu").ranks is False


def test_gleu_and_imeasure_outputs_are_read(tmp_path: Path) -> None:
    gleu = FIXTURES / "gleu"
    args = ["gleu", "--gold", str(gleu / "gold.m2"), str(gleu / "system-a.txt"),
            str(gleu / "unchanged.txt")]
    with_ci = write(tmp_path, CliRunner().invoke(app, [*args, "--ci"]).stdout, "g.txt")
    scores = read_scores(with_ci)  # score, std and an interval: the signature says gleu
    assert scores.column == "score" and scores.values == {"system-a.txt": 0.648455,
                                                          "unchanged.txt": 0.409432}
    as_json = write(tmp_path, CliRunner().invoke(app, [*args, "--format", "json"]).stdout, "g.json")
    assert read_scores(as_json).values["system-a.txt"] == pytest.approx(0.648455, abs=1e-6)
    im = ["imeasure", str(FIXTURES / "imeasure" / "sys.txt"), "--gold",
          str(FIXTURES / "imeasure" / "gold.xml")]
    tsv = write(tmp_path, CliRunner().invoke(app, [*im, "--format", "tsv"]).stdout, "i.tsv")
    js = write(tmp_path, CliRunner().invoke(app, [*im, "--format", "json"]).stdout, "i.json")
    assert read_scores(tsv).column == "c_i" and read_scores(js).column == "correction.i"
    assert read_scores(tsv).values["sys.txt"] == pytest.approx(100 * read_scores(js).values["sys.txt"], abs=5e-3)
    assert read_scores(js, "c_i").values == read_scores(js).values
    assert read_scores(tsv, "d_f").values == {"sys.txt": 82.35}


@pytest.mark.shared(COMBINED)
@pytest.mark.parametrize("fmt", ["tsv", "json"])
def test_conll14_score_then_correlate(tmp_path: Path, fmt: str) -> None:
    """The issue's numbers: F0.5 gives Spearman 0.522 (the published M2 scores' value,
    test_m2_scores), not precision's 0.599."""
    systems = sorted(shared_file("corpora/conll14/official_submissions").iterdir())
    table = write(tmp_path, score_cli(*systems, "--gold", shared_file(COMBINED), "--format", fmt),
                  f"m2.{fmt}")
    code, out, err = run(table, HUMAN)
    assert code == 0 and err == ""
    assert out.splitlines()[0].startswith("F0.5 (")
    assert out.splitlines()[2].split()[1:] == ["13", "0.413", "0.522", "0.333"]
    code, out, _ = run(table, HUMAN, "--column", "precision")
    assert out.splitlines()[2].split()[3] == "0.599"


def test_score_text_table_is_read_when_its_columns_line_up(tmp_path: Path, three_systems) -> None:
    systems, human = three_systems
    gold = SCORE_FIXTURES / "sample.m2"
    text = write(tmp_path, score_cli(*systems, "--gold", gold), "m2.txt")
    assert read_scores(text).column == "F0.5"
    assert read_scores(text, "p").values == read_scores(text, "precision").values
    tsv = write(tmp_path, score_cli(*systems, "--gold", gold, "--format", "tsv"), "m2.tsv")
    assert read_scores(text).values == read_scores(tsv).values
    with_ci = write(tmp_path, score_cli(*systems, "--gold", gold, "--ci", "--resamples", "20"),
                    "ci.txt")
    code, out, err = run(with_ci, human)
    assert (code, out) == (1, "")
    assert "do not line up" in err and "--format tsv or json" in err
