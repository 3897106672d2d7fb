"""A plain ``score`` (issue 37's start-up) never imports what only other runs need: the
re-segmentation (``--align``), the documents (``--unit document``), the workers and the
cluster (``--jobs``, ``--engine dask``), the writers' report, the decompressors (a ``.gz``
file).  Checked at the end of the whole run, in a fresh process: a module imported late in
the run costs as much as one imported at start-up."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT

AT_EXIT = """
import atexit, json, os, sys

atexit.register(lambda: open(os.environ["LEAN_OUT"], "w").write(json.dumps(sorted(sys.modules))))
if sys.argv[1] == "cli":
    sys.argv = ["gecformats", *sys.argv[2:]]
    from gecformats.cli import main
    main()
else:
    import gecformats
    print(gecformats.score(sys.argv[3], gold=sys.argv[5]))
"""

NOT_NEEDED = {"gecformats.convert.align", "gecformats.convert.documents", "gecformats.dist",
              "gecformats.report", "gzip"}
"""What a plain run imported before (``--align``, ``--unit document``, ``--jobs``/``--engine``,
the writers, ``.gz`` files need them; the plain run does not)."""


def _modules(tmp_path, how: str) -> set[str]:
    out = tmp_path / "modules.json"
    run = subprocess.run([sys.executable, "-c", AT_EXIT, how, "score", "fixtures/score/sample.hyp",
                          "--gold", "fixtures/score/sample.m2"], cwd=ROOT,
                         capture_output=True, text=True, env={**os.environ, "LEAN_OUT": str(out)})
    assert run.returncode == 0, run.stderr
    assert "F0.5       0.8621" in run.stdout
    return set(json.loads(out.read_text()))


@pytest.mark.parametrize("how", ["cli", "api"])
def test_a_plain_score_imports_only_what_it_uses(tmp_path, how: str) -> None:
    modules = _modules(tmp_path, how)
    assert "gecformats.metrics.pipeline" in modules  # the run did happen
    assert not NOT_NEEDED & modules, sorted(NOT_NEEDED & modules)
    # the command line's fast path (gecformats/cli/fast.py) never loads typer, nor shutil's
    # bz2 and lzma with it
    assert not {"typer", "bz2", "lzma"} & modules, sorted({"typer", "bz2", "lzma"} & modules)


def test_a_gzipped_m2_hypothesis_is_still_read_as_m2(tmp_path) -> None:
    """gzip is imported where a ``.gz`` name is read: a gzipped M2 hypothesis is still told
    from text by its first lines, and scores as the file it holds."""
    import gzip

    from typer.testing import CliRunner

    from gecformats import formats
    from gecformats.cli import app

    gold = ROOT / "fixtures/score/sample.m2"
    zipped = tmp_path / "sample.m2.gz"
    zipped.write_bytes(gzip.compress(gold.read_bytes()))
    assert formats._head(zipped) == formats._head(gold) == gold.read_text(encoding="utf-8")
    plain = CliRunner().invoke(app, ["score", str(gold), "--gold", str(gold)])
    packed = CliRunner().invoke(app, ["score", str(zipped), "--gold", str(gold)])
    assert plain.exit_code == packed.exit_code == 0 and packed.stdout == plain.stdout
    assert "an M2 hypothesis" in packed.stderr
