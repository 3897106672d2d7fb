"""``gecformats meta-eval --extractor``: the metrics that extract edits from the outputs'
text (errant, senterrant) get ``gecformats score``'s --extractor and --spacy-model; with the
default lcs aligner a warning, once, names the option that gives ERRANT's edits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gecformats.cli import app
from gecformats.errors import UsageError
from gecformats.metaeval.run import build
from metaeval_data import write_seeda

runner = CliRunner()


@pytest.fixture(scope="module")
def seeda(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_seeda(tmp_path_factory.mktemp("seeda"))


def _run(seeda: Path, *args: str) -> tuple[int, dict, str]:
    out = runner.invoke(app, ["meta-eval", "--dataset", "seeda", "--data", str(seeda), "--ci",
                              "0", "--config", "all", "--format", "json", *args])
    return out.exit_code, json.loads(out.stdout) if out.exit_code == 0 else {}, out.stderr


def _signatures(data: dict) -> dict[str, str]:
    return {m["metric"]: m["signature"] for m in data["metrics"]}


def test_native_reaches_errant_and_senterrant(seeda: Path) -> None:
    code, data, err = _run(seeda, "--metric", "errant", "--metric", "senterrant", "--metric",
                           "m2", "--extractor", "native")
    assert code == 0 and "warning" not in err
    signatures = _signatures(data)
    assert "hyp:extracted-native" in signatures["errant"]
    assert "hyp:extracted-native" in signatures["senterrant"]
    assert "extracted" not in signatures["m2"]


def test_default_lcs_warns_once_with_the_fix(seeda: Path) -> None:
    code, data, err = _run(seeda, "--metric", "errant", "--metric", "senterrant")
    assert code == 0 and "hyp:extracted-lcs" in _signatures(data)["errant"]
    warnings = [line for line in err.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "--extractor errant" in warnings[0]
    assert "--metric errant, --metric senterrant" in warnings[0]
    code, _, err = _run(seeda, "--metric", "m2", "--metric", "length")
    assert code == 0 and "warning" not in err


def test_extractor_without_a_taker_is_a_usage_error(seeda: Path) -> None:
    code, _, err = _run(seeda, "--metric", "m2", "--extractor", "native")
    assert code == 2 and "--extractor goes with --metric errant" in err
    with pytest.raises(UsageError, match="--spacy-model goes with"):
        build(["gleu"], spacy_model="en_core_web_sm")
    with pytest.raises(UsageError, match="extractor"):
        build(["errant"], extractor="bert")


def test_errant_extractor(seeda: Path) -> None:
    pytest.importorskip("errant")
    pytest.importorskip("spacy")
    code, data, err = _run(seeda, "--metric", "senterrant", "--extractor", "errant")
    if code != 0 and "spaCy" in err:
        pytest.skip(f"no spaCy pipeline: {err.strip()}")
    assert code == 0 and "hyp:extracted-errant" in _signatures(data)["senterrant"]
