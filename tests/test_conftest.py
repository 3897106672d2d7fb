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
    pytester.makeconftest((Path(conftest.__file__)).read_text(encoding="utf-8")
                          .replace('SHARED = ROOT.parent / "shared"', 'SHARED = ROOT / "absent"'))
    pytester.makepyfile("""
        import pytest

        @pytest.mark.shared("corpora/x")
        def test_needs_data():
            pass
    """)
    monkeypatch.setenv("CI", "true")
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(errors=1)  # fails in set-up
    monkeypatch.delenv("CI")
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(skipped=1)
