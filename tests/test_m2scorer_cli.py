"""The `maxmatch` drop-in's fast path (gecformats.m2scorer_cli.fast_score): where it answers,
its answer is the full path's (gecformats' reader and Scoring); where it cannot, it gives way
(returns None) and the full path reports.  The command's behaviour is in test_cli_score."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import FIXTURES, shared_file
from gecformats.errors import GecFormatError
from gecformats.m2scorer_cli import Refused, fast_score
from gecformats.metrics.score import Scoring

# every test on both backends: the pure-Python path and the compiled core
pytestmark = pytest.mark.usefixtures("maxmatch_backend")

SCORE = FIXTURES / "score"
EDGE = "reference/m2scorer/edgecases"
CONLL = "corpora/conll14"
COMBINED = f"{CONLL}/conll14st-test-data/noalt/official-2014.combined.m2"


def full(hyp: Path, gold: Path, **options: object) -> tuple | None:
    """The full path's counts and scores, or None where it refuses the input."""
    scoring = Scoring(hyp, gold, **options)  # type: ignore[arg-type]
    try:
        for _ in scoring:
            pass
    except (GecFormatError, OSError):
        return None
    r = scoring.result()
    return r.correct, r.proposed, r.gold, r.precision, r.recall, r.f


def fast(hyp: Path, gold: Path, **options: object) -> tuple | None:
    r = fast_score(str(hyp), str(gold), **options)  # type: ignore[arg-type]
    return None if r is None else (r.correct, r.proposed, r.gold, r.precision, r.recall, r.f)


def test_fixture_is_taken_and_equal() -> None:
    hyp, gold = SCORE / "sample.hyp", SCORE / "sample.m2"
    assert fast(hyp, gold) is not None and fast(hyp, gold) == full(hyp, gold)


@pytest.mark.parametrize("options", [{"beta": 1.0}, {"max_unchanged_words": 0},
                                     {"ignore_whitespace_casing": True}])
def test_options_reach_the_scorer(options: dict) -> None:
    hyp, gold = SCORE / "sample.hyp", SCORE / "sample.m2"
    assert fast(hyp, gold, **options) == full(hyp, gold, **options)


def test_conll14_systems_equal() -> None:
    gold = shared_file(COMBINED)
    for system in ("AMU", "CAMB", "CUUI", "NTHU"):
        hyp = shared_file(f"{CONLL}/official_submissions/{system}")
        assert fast(hyp, gold) == full(hyp, gold) is not None


def test_edgecases_give_way_or_agree() -> None:
    folder = shared_file(EDGE)
    pairs = [(h, g) for h in sorted(folder.glob("*.hyp")) for g in [h.with_suffix(".m2")]
             if g.exists()]
    assert len(pairs) > 10
    taken = 0
    for hyp, gold in pairs:
        answer = fast(hyp, gold)
        if answer is not None:
            taken += 1
            assert answer == full(hyp, gold), hyp.name
    assert taken > len(pairs) // 2  # the common case is the fast path's


@pytest.mark.parametrize("gold, why", [
    ("S a b\nT0 a c\nA 1 2|||R|||c|||REQUIRED|||-NONE-|||0\n", "a ChERRANT T line"),
    ("S a b\nA 1 2|||R|||c|||MAYBE|||-NONE-|||0\n", "field 4"),
    ("S a b\nA 1 2|||R|||c|||REQUIRED|||-NONE-\n", "five fields"),
    ("S a b\nA 1 2|||R|||c|||REQUIRED|||x|||y|||0\n", "seven fields"),
    ("S a b\nA +1 2|||R|||c|||REQUIRED|||-NONE-|||0\n", "a signed offset"),
    ("S a b\nA 1 2|||R|||c|||REQUIRED|||-NONE-|||1000\n", "annotator out of range"),
    ("S a b\nA 1 2|||R|||c\u2028d|||REQUIRED|||-NONE-|||0\n", "a line break for NUS"),
    ("\ufeffS a b\nA 1 2|||R|||c|||REQUIRED|||-NONE-|||0\n", "a byte-order mark"),
    ("S a b\nB 1 2\n", "an unknown line"),
    ("A 1 2|||R|||c|||REQUIRED|||-NONE-|||0\n", "no S line"),
    ("S a b\n\nS c d\n", "two sentences for one hypothesis line"),
])
def test_gives_way(tmp_path: Path, gold: str, why: str) -> None:
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a c\n", encoding="utf-8")
    path = tmp_path / "gold.m2"
    path.write_text(gold, encoding="utf-8")
    assert fast(hyp, path) is None, why


def test_gives_way_on_stdin_gzip_and_missing(tmp_path: Path) -> None:
    gold = SCORE / "sample.m2"
    assert fast_score("-", str(gold)) is None
    assert fast_score(str(tmp_path / "x.gz"), str(gold)) is None
    assert fast_score(str(tmp_path / "missing"), str(gold)) is None


def test_a_lattice_past_the_limit_is_refused_not_redone(tmp_path: Path) -> None:
    """The full path would stop at the same sentence: the fast path reports it (issue 22)."""
    hyp, gold = SCORE / "sample.hyp", SCORE / "sample.m2"
    with pytest.raises(Refused) as info:
        fast_score(str(hyp), str(gold), max_edges=1)
    assert info.value.number == 1 and info.value.failure[0] == "too-large"


def test_plain_run_imports_neither_model_nor_dataclasses() -> None:
    """The point of the fast path: the command starts with the scorer alone."""
    code = ("import sys, io; from gecformats.m2scorer_cli import run; "
            f"assert run([{str(SCORE / 'sample.hyp')!r}, {str(SCORE / 'sample.m2')!r}], "
            "io.StringIO(), sys.stderr) == 0; "
            "print(sorted(m for m in ('dataclasses', 'gecformats.model', 'gecformats.formats.m2')"
            " if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --------------------------------------------------------------- generated files

TOKENS = st.sampled_from(["a", "b", "the", "cat", ".", ",", "-NONE-", "é", "x y"])
FIELD = st.sampled_from(["", " ", "b", " b ", "-NONE-", "a||b", "-NONE-||a", " a || ", "||",
                         "a  b", "the cat", "noop", "x|y"])


@st.composite
def a_line(draw: st.DrawFn, length: int) -> str:
    start = draw(st.integers(-1, length + 1))
    end = draw(st.integers(-1, length + 1))
    etype = draw(st.sampled_from(["R:NOUN", "noop", " noop ", "", "U"]))
    required = draw(st.sampled_from(["REQUIRED", "OPTIONAL", " REQUIRED ", "\tREQUIRED", "X"]))
    annotator = draw(st.sampled_from(["0", "1", "2", "01", " 0", "1000", "-1", "x"]))
    offsets = draw(st.sampled_from([f"{start} {end}", f"{start}  {end}", f"{start}\t{end}",
                                    f"+{start} {end}", f"{start}"]))
    line = f"A {offsets}|||{etype}|||{draw(FIELD)}|||{required}|||-NONE-|||{annotator}"
    return draw(st.sampled_from([line, line, line, line, line + " ", line + "|||0"]))


@st.composite
def m2_file(draw: st.DrawFn) -> tuple[str, str]:
    blocks, hyps = [], []
    for _ in range(draw(st.integers(1, 4))):
        source = draw(st.lists(TOKENS, min_size=0, max_size=6))
        lines = ["S " + " ".join(source) if source else "S"]
        lines += draw(st.lists(a_line(len(source)), max_size=4))
        blocks.append("\n".join(lines))
        hyps.append(" ".join(draw(st.lists(TOKENS, max_size=7))))
    extra = draw(st.sampled_from(["", "", "", "\n", "extra\n"]))
    return "\n\n".join(blocks) + "\n", "\n".join(hyps) + "\n" + extra


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(m2_file())
def test_generated_files_give_way_or_agree(tmp_path: Path, files: tuple[str, str]) -> None:
    gold_text, hyp_text = files
    gold, hyp = tmp_path / "g.m2", tmp_path / "h.txt"
    gold.write_text(gold_text, encoding="utf-8")
    hyp.write_text(hyp_text, encoding="utf-8")
    answer = fast(hyp, gold)
    if answer is not None:
        assert answer == full(hyp, gold)
