"""The built distribution: a wheel and an sdist made from the project's files alone, the wheel
installed into a fresh virtual environment and run outside the clone (score, report with its
templates, meta-eval, the Python API); one version number; the changelog names it.

The wheel is built without build isolation (offline: the test extra's setuptools) and
installed without its dependencies, which the fresh environment reads from the test
environment's site-packages (a ``.pth`` line: the editable install of the clone there is not
activated, its ``.pth`` files are not processed), so the test takes seconds.  One xdist
group: it runs beside the rest of the suite on one worker.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

import gecformats
from conftest import FIXTURES, ROOT

pytestmark = pytest.mark.xdist_group("packaging")

SOURCES = ["pyproject.toml", "README.md", "LICENSE", "CHANGELOG.md", "MANIFEST.in",
           "gecformats", "scorer"]
"""What the build reads: the project without its tests and fixtures."""


def _copy_sources(dest: Path) -> Path:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    dest.mkdir()
    for name in SOURCES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=ignore)
        else:
            shutil.copy2(src, dest / name)
    return dest


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The wheel and the sdist of a copy of the project's sources."""
    work = tmp_path_factory.mktemp("build")
    tree = _copy_sources(work / "tree")
    dist = work / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "--no-index", "-q", "-w", str(dist), str(tree)], check=True,
                   capture_output=True)
    subprocess.run([sys.executable, "-c", "import sys; from setuptools import build_meta; "
                    "build_meta.build_sdist(sys.argv[1])", str(dist)], cwd=tree, check=True,
                   capture_output=True)
    wheel, = dist.glob("*.whl")
    sdist, = dist.glob("*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


@pytest.fixture(scope="module")
def venv(built: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel installed (its dependencies read from the
    test environment)."""
    home = tmp_path_factory.mktemp("venv") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(home)], check=True)
    python = home / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; "
                                "print(sysconfig.get_paths()['purelib'])"], check=True,
                               capture_output=True, text=True).stdout.strip())
    (site / "_test_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    # --ignore-installed: where the test environment holds a (non-editable) install of
    # gecformats, pip would find it through the .pth line and install nothing (as in CI)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                    "--no-deps", "--no-index", "--ignore-installed", "-q",
                    str(built["wheel"])], check=True,
                   capture_output=True)
    return home


def _run(venv: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    return subprocess.run([str(venv / "bin" / args[0]), *args[1:]], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def test_the_wheel_holds_the_package_data(built: dict[str, Path]) -> None:
    names = zipfile.ZipFile(built["wheel"]).namelist()
    for needed in ("gecformats/py.typed", "gecformats/report/templates/report.html.j2",
                   "gecformats/report/templates/report.css",
                   "gecformats/report/templates/report.js", "gecformats/api.py",
                   "gecformats/metrics/sentences.py", "maxmatch/__init__.py",
                   "maxmatch/lattice.py", "maxmatch/py.typed"):
        assert needed in names, needed
    assert not [n for n in names if n.startswith(("tests/", "fixtures/"))]
    info = next(n for n in names if n.endswith(".dist-info/METADATA"))
    metadata = zipfile.ZipFile(built["wheel"]).read(info).decode()
    assert f"\nVersion: {gecformats.__version__}\n" in metadata
    assert "License-Expression: MIT" in metadata and "Project-URL: Changelog" in metadata
    assert "Typing :: Typed" in metadata
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    points = zipfile.ZipFile(built["wheel"]).read(entry).decode()
    assert "gecformats = gecformats.cli:main" in points and "maxmatch = " in points


def test_the_sdist_holds_the_sources(built: dict[str, Path]) -> None:
    with tarfile.open(built["sdist"]) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for needed in ("pyproject.toml", "README.md", "LICENSE", "CHANGELOG.md",
                   "gecformats/report/templates/report.html.j2", "gecformats/py.typed",
                   "scorer/maxmatch/search.py"):
        assert needed in names, needed


def test_one_version_number() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    first = re.search(r"^## (\S+)", changelog, re.M)
    assert first is not None and first.group(1) == gecformats.__version__
    assert 'dynamic = ["version"]' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def test_the_installed_wheel_runs_outside_the_clone(venv: Path, tmp_path: Path) -> None:
    for name in ("sample.hyp", "sample.m2"):
        shutil.copy2(FIXTURES / "score" / name, tmp_path / name)
    shutil.copytree(FIXTURES / "metaeval" / "seeda-tiny", tmp_path / "seeda")

    where = _run(venv, tmp_path, "python", "-c", "import gecformats, maxmatch; "
                 "print(gecformats.__file__); print(maxmatch.__file__)")
    assert where.returncode == 0, where.stderr
    assert all(line.startswith(str(venv)) for line in where.stdout.split()), where.stdout

    scored = _run(venv, tmp_path, "gecformats", "score", "sample.hyp", "--gold", "sample.m2",
                  "--format", "json", "-o", "table.tex")
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout)["f"] == pytest.approx(0.8620689655172415, abs=0)
    assert (tmp_path / "table.tex").read_text().startswith(r"\begin{tabular}")
    assert _run(venv, tmp_path, "maxmatch", "sample.hyp", "sample.m2").stdout.startswith(
        "Precision   : 0.8333")

    report = _run(venv, tmp_path, "gecformats", "report", "sample.hyp", "--gold", "sample.m2",
                  "-o", "report.html", "--quiet")
    assert report.returncode == 0, report.stderr
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<style>" in page and "<script>" in page

    meta = _run(venv, tmp_path, "gecformats", "meta-eval", "--dataset", "seeda", "--data",
                "seeda", "--gold", "seeda/gold.m2", "--ci", "0", "--format", "tsv", "--quiet")
    assert meta.returncode == 0, meta.stderr
    assert meta.stdout.startswith("metric\tconfig\thuman\tpearson")

    api = _run(venv, tmp_path, "python", "-c", "import gecformats; "
               "print(gecformats.score('sample.hyp', 'sample.m2').to_json())")
    assert api.returncode == 0 and api.stdout == scored.stdout
    version = _run(venv, tmp_path, "gecformats", "--version")
    assert version.stdout == f"gecformats {gecformats.__version__}\n"


def test_every_package_is_declared() -> None:
    """A subpackage missing from pyproject's list installs nowhere (gecformats.explain was:
    the installed `gecformats` failed to start)."""
    import tomllib

    from conftest import ROOT

    declared = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
                   ["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for p in (ROOT / "gecformats").rglob("__init__.py")}
    assert found <= declared, sorted(found - declared)
