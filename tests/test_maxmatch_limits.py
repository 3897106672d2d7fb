"""The scorer's bound (issue 13): a sentence whose lattice would pass ``max_edges`` is refused
with a clear error, never scored differently, and never exhausts memory."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import maxmatch
from gecformats.cli import app
from gecformats.m2scorer_cli import run as m2scorer_run

# every test on both backends: the pure-Python path and the compiled core
pytestmark = pytest.mark.usefixtures("maxmatch_backend")

SOURCE = "a b c d e f".split()
GOLD = {0: [(0, 1, ("x",))], 1: [(2, 3, ("word",))]}


def test_below_the_limit_the_result_is_the_unbounded_one() -> None:
    hyp = ["word"] * 60
    bounded = maxmatch.score_sentence(SOURCE, hyp, GOLD)
    unbounded = maxmatch.score_sentence(SOURCE, hyp, GOLD, max_edges=None)
    assert bounded == unbounded


def test_past_the_limit_the_sentence_is_refused() -> None:
    lat = maxmatch.build_lattice(SOURCE, ["word"] * 60, 2, None)
    with pytest.raises(maxmatch.LatticeTooLarge) as info:
        maxmatch.score_sentence(SOURCE, ["word"] * 60, GOLD, max_edges=len(lat.edges) - 1)
    assert info.value.limit == len(lat.edges) - 1 and info.value.edges > info.value.limit
    assert isinstance(info.value, maxmatch.LatticeError)
    # exactly at the limit: scored
    maxmatch.score_sentence(SOURCE, ["word"] * 60, GOLD, max_edges=len(lat.edges))


def test_corpus_scorer_passes_the_limit_on() -> None:
    scorer = maxmatch.CorpusScorer(max_edges=100)
    with pytest.raises(maxmatch.LatticeTooLarge):
        scorer.add(SOURCE, ["word"] * 60, GOLD)


def test_the_default_fits_conll_2014() -> None:
    assert maxmatch.DEFAULT_MAX_EDGES > 155_461 * 10  # the largest CoNLL-2014 lattice (NTHU 41)


@pytest.fixture
def pathological(tmp_path: Path) -> tuple[Path, Path]:
    gold = tmp_path / "gold.m2"
    gold.write_text("S a b c d e f\nA 0 1|||X|||x|||REQUIRED|||-NONE-|||0\n\n")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text(" ".join(["word"] * 1000) + "\n")  # a MemoryError before the bound
    return hyp, gold


def test_score_command_names_the_sentence_and_the_option(pathological: tuple[Path, Path]) -> None:
    hyp, gold = pathological
    result = CliRunner().invoke(app, ["score", str(hyp), "--gold", str(gold), "--max-edges", "50000"])
    assert result.exit_code == 1 and result.stdout == ""
    # refused before building: 1,000 changed tokens give at least 500,500 edges (min_edges)
    assert f"{hyp}:1: sentence 1: its edit lattice would have over 50,000 edges" in result.stderr
    assert "--max-edges" in result.stderr and result.stderr.count("\n") == 1


def test_drop_in_takes_the_option(pathological: tuple[Path, Path]) -> None:
    import io

    hyp, gold = pathological
    out, err = io.StringIO(), io.StringIO()
    assert m2scorer_run(["--edge-limit", "50000", str(hyp), str(gold)], out, err) == 1
    assert "over 50,000 edges" in err.getvalue() and out.getvalue() == ""
    assert m2scorer_run(["--edge-limit", "0", str(hyp), str(gold)], out, err) == 1


LIMITED = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))
from gecformats.cli import main
sys.argv = ["gecformats", "score", sys.argv[1], "--gold", sys.argv[2]]
main()
"""


def test_the_default_bound_keeps_memory_under_1_5_gb(pathological: tuple[Path, Path]) -> None:
    """1,000 repeated words against a 6-token source: a MemoryError before the bound; now
    the default limit stops it cleanly inside a 1.5 GB address space."""
    hyp, gold = pathological
    done = subprocess.run([sys.executable, "-c", LIMITED, str(hyp), str(gold)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stderr[-500:]
    assert "its edit lattice has over 2,500,000 edges" in done.stderr
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr


# ------------------------------------- refused by an estimate, before anything is built (issue 22)

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from("abc"), max_size=10), st.lists(st.sampled_from("abcd"), max_size=20),
       st.integers(0, 3))
def test_min_edges_is_a_lower_bound(source: list[str], hyp: list[str], unchanged: int) -> None:
    """The estimate never refuses a sentence the scorer would score: it is at most the edge
    count the closure reaches, for every unchanged-word limit."""
    lat = maxmatch.lattice.base_lattice(source, hyp)
    maxmatch.lattice.close_lattice(lat, unchanged, None)
    assert maxmatch.lattice.min_edges(source, hyp) <= len(lat.edges)


HUGE = """
import resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, (1_000_000_000, 1_000_000_000))
start = time.process_time()
if sys.argv[1] == "score":
    from gecformats.cli import main
    sys.argv = ["gecformats", "score", sys.argv[2], "--gold", sys.argv[3]]
else:
    from gecformats.m2scorer_cli import main
    sys.argv = ["maxmatch", sys.argv[2], sys.argv[3]]
try:
    main()
finally:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"{time.process_time() - start:.2f} {peak}", file=sys.stderr)
"""


@pytest.mark.parametrize("command", ["score", "maxmatch"])
def test_a_3_mb_line_is_refused_at_once(tmp_path: Path, command: str) -> None:
    """Issue 22: a 3 MB hypothesis line against a 9-token source took 28 s and 4.2 GB before
    the refusal (the drop-in twice: fast path, then full path).  Now refused by min_edges
    before any matrix is built: measured 0.9 s and 70 MB; bounded here by 1 GB of address
    space (a peak, not a time)."""
    gold = tmp_path / "gold.m2"
    gold.write_text("S a b c d e f g h i\nA 0 1|||X|||x|||REQUIRED|||-NONE-|||0\n\n")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text(" ".join(f"w{i % 1000}" for i in range(600_000)) + "\n")
    assert hyp.stat().st_size > 2_500_000
    done = subprocess.run([sys.executable, "-c", HUGE, command, str(hyp), str(gold)],
                          capture_output=True, text=True, timeout=300)
    *lines, measured = done.stderr.splitlines()
    assert done.returncode == 1 and done.stdout == "", done.stderr[-500:]
    assert len(lines) == 1 and f"{hyp}:1: sentence 1: its edit lattice would have over 2,500,000 edges" in lines[0]
    _seconds, peak_kb = measured.split()
    assert int(peak_kb) < 1_000_000


def test_the_drop_in_does_not_redo_a_refused_sentence(pathological: tuple[Path, Path],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from gecformats.metrics import score as score_module

    def never(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the full path ran again")

    monkeypatch.setattr(score_module.Scoring, "__init__", never)
    hyp, gold = pathological
    out, err = io.StringIO(), io.StringIO()
    assert m2scorer_run(["--edge-limit", "1000", str(hyp), str(gold)], out, err) == 1
    assert err.getvalue() == (f"maxmatch: {hyp}:1: sentence 1: its edit lattice would have over "
                              "1,000 edges (at least 500,500; the limit, max_edges): too many of "
                              "the hypothesis' tokens differ from the source's; raise the limit "
                              "(gecformats score --max-edges, maxmatch --edge-limit) above 1,000 "
                              "only with the memory for it (about 310 bytes per edge)\n")


def test_long_sides_are_refused_before_their_matrices(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two 5,000-token sides with one change have a small lattice but matrices of 25 million
    cells (4,000 a side took 500 MB): refused before they are built, unless max_edges is off."""
    from maxmatch import lattice

    def never(*_args: object) -> None:
        raise AssertionError("the matrices were built")

    monkeypatch.setattr(lattice, "base_lattice", never)
    source = [f"w{i % 997}" for i in range(5_000)]
    hyp = source[:2_500] + ["CHANGED"] + source[2_501:]
    with pytest.raises(maxmatch.LatticeTooLarge, match=r"its edit matrices would have 25,010,001 "
                       r"cells \(5,000 source by 5,000 hypothesis tokens\), over the 25,000,000"):
        maxmatch.score_sentence(source, hyp, GOLD)
    assert maxmatch.MAX_CELLS == 25_000_000
