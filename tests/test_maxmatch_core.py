"""The compiled core (``maxmatch._core``, issue 37): which backend is in use, the fallback
without it, and the two backends compared directly, result for result and refusal for
refusal (the parity, unit, property and limit tests run on both as well)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import maxmatch
from conftest import in_ci


def _backend_of(env: dict[str, str], code: str = "") -> str:
    environ = {k: v for k, v in os.environ.items() if k != "MAXMATCH_PURE_PYTHON"} | env
    done = subprocess.run([sys.executable, "-c", f"{code}import maxmatch; print(maxmatch.backend())"],
                          capture_output=True, text=True, check=True, env=environ)
    return done.stdout.strip()


def _compiler() -> bool:
    cc = (sysconfig.get_config_var("CC") or "").split()
    return bool(cc) and shutil.which(cc[0]) is not None


def test_the_compiled_core_is_in_use_where_a_compiler_built_it() -> None:
    """pip install builds the core where a C compiler works (CI's does): an install that
    silently fell back to the pure path would pass every other test, 15 times slower."""
    if not _compiler() and not in_ci():
        pytest.skip("no C compiler: the pure path is the one installed")
    assert _backend_of({}) == "c"


def test_maxmatch_pure_python_forces_the_pure_path() -> None:
    assert _backend_of({"MAXMATCH_PURE_PYTHON": "1"}) == "python"
    assert _backend_of({"MAXMATCH_PURE_PYTHON": "0"}) == _backend_of({})


def test_without_the_core_the_pure_path_scores() -> None:
    """A build without a compiler installs the package without ``_core``: the import
    falls back (here the module is made unimportable), and scoring works."""
    hide = "import sys; sys.modules['maxmatch._core'] = None; "
    assert _backend_of({}, hide) == "python"
    code = (hide + "import maxmatch; r = maxmatch.score_sentence('a b'.split(), 'a c'.split(), "
            "{0: [(1, 2, ('c',))]}); print(r.annotators[0].matched)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "((1, 2, 'b', 'c'),)"
    with pytest.raises(ValueError, match="unknown backend"):
        maxmatch._set_backend("fortran")


def both(*args: object, **options: object) -> list[object]:
    """The result of ``score_sentence`` on each backend, or what it raised."""
    out: list[object] = []
    for name in ("python", "c"):
        previous = maxmatch._set_backend(name)
        try:
            out.append(maxmatch.score_sentence(*args, **options))  # type: ignore[arg-type]
        except (maxmatch.LatticeError, TypeError) as exc:
            out.append((type(exc), str(exc), getattr(exc, "edges", None),
                        getattr(exc, "limit", None)))
        finally:
            maxmatch._set_backend(previous)
    return out


@pytest.fixture
def core() -> None:
    """The comparisons need the compiled core: skipped without it (failed under CI)."""
    try:
        maxmatch._set_backend(maxmatch._set_backend("c"))
    except ImportError:
        if in_ci():
            pytest.fail("maxmatch._core was not built, but CI=true", pytrace=False)
        pytest.skip("maxmatch._core was not built")


words = st.sampled_from(["a", "b", "c", "the", "A"])


@st.composite
def cases(draw):
    source = draw(st.lists(words, max_size=14))
    if draw(st.booleans()) and source:  # a few edits of the source: long common stretches
        hypothesis = list(source)
        for _ in range(draw(st.integers(1, 3))):
            at = draw(st.integers(0, len(hypothesis)))
            hypothesis[at:at + draw(st.integers(0, 2))] = draw(st.lists(words, max_size=2))
    else:
        hypothesis = draw(st.lists(words, max_size=18))
    gold = {}
    for ann in draw(st.lists(st.integers(-1, 9), max_size=3, unique=True)):
        edits = []
        for _ in range(draw(st.integers(0, 5))):
            start = draw(st.integers(-1, len(source) + 1))
            end = draw(st.integers(start - 1, start + 2))
            if draw(st.booleans()):  # a correction the hypothesis holds: rewards, sweeps
                at = draw(st.integers(0, len(hypothesis)))
                corrections = (" ".join(hypothesis[at:at + draw(st.integers(0, 3))]),)
            else:
                corrections = tuple(draw(st.lists(st.lists(words, max_size=2).map(" ".join),
                                                  min_size=1, max_size=2)))
            edits.append((start, end, corrections))
        gold[ann] = edits
    return source, hypothesis, gold


@pytest.mark.usefixtures("core")
@settings(max_examples=400, deadline=None)
@given(cases(), st.integers(-1, 4), st.booleans(),
       st.one_of(st.none(), st.integers(0, 400), st.just(maxmatch.DEFAULT_MAX_EDGES)))
def test_the_backends_agree(case, limit, iwc, max_edges) -> None:
    """Every annotator's edits, credits and counts, and every refusal (its class, message,
    edges and limit: max_edges is often hit here) are the same on both backends."""
    source, hypothesis, gold = case
    python, c = both(source, hypothesis, gold, max_unchanged_words=limit,
                     ignore_whitespace_casing=iwc, max_edges=max_edges)
    assert python == c


@pytest.mark.usefixtures("core")
@pytest.mark.parametrize("source, hypothesis, gold", [
    (["a", "b"], ["a b", "c"], {0: [(0, 2, ("a b c",))]}),       # a space inside a token
    (["a", "b"], ["", "c"], {0: [(0, 1, ("",))]}),               # an empty token
    (["a", ""], ["a", "c"], {0: [(1, 2, ("c",))]}),              # an empty source token
    (["a b", "c"], ["a", "b", "c"], {0: [(0, 1, ("a b",))]}),
    (["a", "b"], ["a", "c"], {0: [(1, 2, ["c"])]}),              # corrections in a list
    (["a", "b"], ["a", "c", "d"], {0: [(1, 2, ("c d",)), (1, 2, ("c  d",)), (1, 2, (" c",))]}),
    (["a", "b"], ["a", "c"], {0: [(True, 2, ("c",))]}),          # a bool offset
    (["é", "Straße"], ["É", "strasse"], {0: [(0, 1, ("É",))], 1: [(1, 2, ("strasse",))]}),
])
def test_inputs_the_core_declines_are_scored_by_the_pure_path(source, hypothesis, gold) -> None:
    python, c = both(source, hypothesis, gold)
    assert python == c


@pytest.mark.usefixtures("core")
@pytest.mark.parametrize("options", [
    {"max_unchanged_words": 2.5}, {"max_unchanged_words": -3}, {"max_unchanged_words": 10 ** 30},
    {"max_edges": 0}, {"max_edges": -3}, {"max_edges": 1}, {"max_edges": 10 ** 30},
])
def test_odd_options_agree(options) -> None:
    python, c = both("a b c d".split(), "x b c y".split(), {0: [(0, 1, ("x",))]}, **options)
    assert python == c


@pytest.mark.usefixtures("core")
def test_the_refusal_of_a_lattice_past_the_limit_is_the_same() -> None:
    """Refused while the closure builds (not by the estimate): the same edge count."""
    source, hypothesis = "a b c d e f".split(), ["word"] * 60
    edges = len(maxmatch.build_lattice(source, hypothesis, 2, None).edges)
    for limit in (edges - 1, edges - 100, edges // 2, 200):
        python, c = both(source, hypothesis, {0: [(0, 1, ("x",))]}, max_edges=limit)
        assert python == c and python[0] is maxmatch.LatticeTooLarge  # type: ignore[index]
    python, c = both(source, hypothesis, {0: [(0, 1, ("x",))]}, max_edges=edges)
    assert python == c and isinstance(python, maxmatch.SentenceResult)
