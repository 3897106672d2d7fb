"""tests/conftest.py: a test that needs ../shared skips without it, but fails under CI=true."""

from __future__ import annotations

from pathlib import Path

import pytest

import conftest


@pytest.mark.parametrize("value", ["true", "TRUE", "1", "yes"])
def test_missing_shared_data_fails_under_ci(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                            value: str) -> None:
    monkeypatch.setattr(conftest, "SHARED", tmp_path / "absent")
    monkeypatch.setenv("CI", value)
    with pytest.raises(pytest.fail.Exception, match="CI must have the shared data"):
        conftest.shared_file("corpora/conll14")


@pytest.mark.parametrize("value", [None, "", "false", "0"])
def test_missing_shared_data_skips_elsewhere(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                             value: str | None) -> None:
    monkeypatch.setattr(conftest, "SHARED", tmp_path / "absent")
    if value is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", value)
    with pytest.raises(pytest.skip.Exception, match="not available"):
        conftest.shared_file("corpora/conll14")


def test_the_shared_mark_goes_through_the_same_check(pytester: pytest.Pytester,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A generated module run by pytest with the real conftest (its ../shared made absent):
    shared_file in a test, the shared mark on a test and on a parameter (the way tests that
    build their parameters from ../shared stand in for them) all fail under CI=true and skip
    otherwise; nothing else in the run is affected."""
    pytester.makeconftest((Path(conftest.__file__)).read_text(encoding="utf-8")
                          .replace('SHARED = ROOT.parent / "shared"', 'SHARED = ROOT / "absent"'))
    pytester.makepyfile("""
        import pytest
        from conftest import shared_file

        def test_reads_data():
            shared_file("corpora/x/file.txt").read_text()

        @pytest.mark.shared("corpora/x")
        def test_needs_data():
            pass

        @pytest.mark.parametrize("row", [pytest.param(None, marks=pytest.mark.shared("x/rows"))])
        def test_rows(row):
            pass

        def test_without_data():
            pass
    """)
    for value in ("true", "Yes", "1"):
        monkeypatch.setenv("CI", value)
        result = pytester.runpytest("-p", "no:cacheprovider")
        result.assert_outcomes(passed=1, failed=1, errors=2)  # the marks fail in set-up
        result.stdout.fnmatch_lines(["*CI must have the shared data*"])
    monkeypatch.delenv("CI")
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1, skipped=3)
