"""The fast path of ``score`` (gecformats/cli/fast.py) and typer are twins: the table is the
typer command's, a command line the fast path takes it reads exactly as typer does (the same
values in the same order, the same options given), one typer refuses it leaves to typer, and
a run prints the same bytes and exits the same way either way."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT
from gecformats.cli import fast
from gecformats.cli.fast_spec import COMMANDS


def _typer_command(name: str):
    import typer.main

    from gecformats.cli import app, load_commands

    load_commands(name)
    return typer.main.get_command(app).get_command(None, name)  # type: ignore[attr-defined]


def typer_reading(name: str, args: list[str]) -> tuple[str, str] | None:
    """What typer makes of ``args``: click's values (repr, so that order and NaN compare)
    and the options given; ``None`` when it refuses them (or prints help)."""
    from gecformats.cli.scoring import given_options

    try:
        with _typer_command(name).make_context(name, list(args)) as ctx:
            return repr(list(ctx.params.items())), repr(given_options(ctx))
    except Exception:  # click's UsageError, BadParameter, Exit (--help): typer's own way
        return None


def fast_reading(name: str, args: list[str]) -> tuple[str, str] | None:
    parsed = fast.parse(name, args)
    return None if parsed is None else (repr(list(parsed[0].items())), repr(parsed[1]))


def test_the_table_is_the_typer_commands() -> None:
    """``python -m gecformats.cli.fast`` regenerates it after an option of score changes."""
    path = Path(fast.__file__).with_name("fast_spec.py")
    assert path.read_text(encoding="utf-8") == fast.spec_source(), \
        "gecformats/cli/fast_spec.py is stale: run python -m gecformats.cli.fast"


PLAIN = [
    ["h.txt", "--gold", "g.m2"],
    ["--gold=g.m2", "a", "b", "c", "--metric", "m2", "--metric=gleu", "--ci"],
    ["-", "--gold", "-", "-o", "x.json", "--output", "y.tsv", "-q", "--format", "latex"],
    ["a", "--", "--gold", "-v"],
    ["a", "--gold", "g", "--cat", "3", "--beta", "0.5", "--seed", "0", "--jobs", "2"],
    ["a", "--gold", "g", "--beta", "nan", "--resamples", "1_000", "--gold-format="],
    ["a", "--ref", "r1", "--ref", "r2", "--source", "s", "--filter", "R:NOUN", "--strict"],
]
LEFT_TO_TYPER = [
    [], ["--gold", "g"], ["--help"], ["a", "--help"], ["a", "-qv"], ["a", "-ox.json"],
    ["a", "--gold", "g", "--gold", "h"], ["a", "--ci", "--ci"], ["a", "--nosuch"],
    ["a", "--metric", "M2"], ["a", "--cat", "4"], ["a", "--jobs", "0"], ["a", "--seed", "-1"],
    ["a", "--beta", "x"], ["a", "--strict=1"], ["a", "--gold"], ["a", "--gold", "--ci"],
    ["a", "-h"], ["a", "--max-edges", "0"],
]


@pytest.mark.parametrize("args", PLAIN, ids=" ".join)
def test_a_plain_command_line_is_read_as_typer_reads_it(args: list[str]) -> None:
    reading = fast_reading("score", args)
    assert reading is not None
    assert reading == typer_reading("score", args)


@pytest.mark.parametrize("args", LEFT_TO_TYPER, ids=" ".join)
def test_what_the_table_does_not_settle_is_left_to_typer(args: list[str]) -> None:
    assert fast.parse("score", args) is None


ROWS = COMMANDS["score"]
_VALUES = ["a.m2", "x.json", "", "-", "-x", "0", "1", "3", "4", "-1", "0.5", "1e3", "nan",
           "inf", " 2 ", "1_0", "m2", "gleu", "text", "json", "local", "dask", "en", "=",
           *[c for row in ROWS if row[2] == "choice" for c in row[6]]]
_OPTIONS = [opt for row in ROWS for opt in (*row[1], *row[3])]
_TOKENS = st.one_of(
    st.sampled_from(_OPTIONS), st.sampled_from(_VALUES),
    st.builds(lambda o, v: f"{o}={v}", st.sampled_from(_OPTIONS), st.sampled_from(_VALUES)),
    st.sampled_from(["--", "--help", "-h", "-qv", "-o", "--nosuch", "--gold", "--metric"]),
    st.text(max_size=4))


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.lists(_TOKENS, max_size=10),
                 st.lists(_TOKENS, max_size=8).map(lambda rest: ["h.txt", *rest])))
def test_generated_command_lines_twins(args: list[str]) -> None:
    """Either the fast path leaves the command line to typer, or it reads what typer reads;
    it never takes one typer refuses."""
    reading = fast_reading("score", args)
    if reading is not None:
        assert reading == typer_reading("score", args)


def test_commands_without_a_fast_path_go_to_typer() -> None:
    assert not fast.run([])
    assert not fast.run(["convert", "a.m2"])
    assert not fast.run(["--version"])


# ---------------------------------------------------------------- whole runs, both ways
def _run(args: list[str], typer: bool, tmp_path: Path) -> tuple[int, bytes, bytes, dict]:
    env = {k: v for k, v in os.environ.items() if k != "GECFORMATS_NO_FAST"}
    if typer:
        env["GECFORMATS_NO_FAST"] = "1"
    out = tmp_path / ("typer" if typer else "fast")
    out.mkdir(exist_ok=True)
    done = subprocess.run([sys.executable, "-m", "gecformats", *args], cwd=out,
                          capture_output=True, env=env, timeout=120)
    files = {p.name: p.read_bytes() for p in out.iterdir()}
    return done.returncode, done.stdout, done.stderr, files


S = str(ROOT / "fixtures" / "score")
RUNS = [
    [f"{S}/sample.hyp", "--gold", f"{S}/sample.m2"],
    [f"{S}/sample.hyp", f"{S}/sample.hyp", "--gold", f"{S}/sample.m2", "--ci",
     "--resamples", "50", "--format", "json", "-o", "t.tsv", "--per-sentence", "p.tsv"],
    [f"{S}/sample.hyp", "--gold", f"{S}/sample.m2", "--metric", "gleu", "--mode", "detection"],
    [f"{S}/sample.hyp", "--gold", f"{S}/missing.m2"],
    [f"{S}/sample.hyp", "--gold", f"{S}/sample.m2", "-o", "t.xyz"],
    [f"{S}/sample.hyp", "--gold", f"{S}/sample.m2", "--per-sentence", "-", "-q"],
    [f"{S}/sample.hyp", "--gold", f"{S}/sample.m2", "--engine", "local", "--workers", "2"],
]


@pytest.mark.parametrize("args", RUNS, ids=lambda a: " ".join(x.rsplit("/", 1)[-1] for x in a))
def test_a_run_prints_the_same_either_way(args: list[str], tmp_path: Path) -> None:
    assert fast.parse("score", args) is not None  # these do take the fast path
    assert _run(args, False, tmp_path) == _run(args, True, tmp_path)


def _wait_until_open(pid: int, path: Path, seconds: float = 60) -> None:
    """Until process ``pid`` has ``path`` open (``/proc``; elsewhere a fixed wait)."""
    import time

    fds = Path(f"/proc/{pid}/fd")
    if not fds.is_dir():
        time.sleep(3)
        return
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            if any(os.path.realpath(fd) == os.path.realpath(path) for fd in fds.iterdir()):
                return
        except OSError:  # a descriptor closed while listed
            pass
        time.sleep(0.02)
    raise AssertionError(f"{path} never opened")


@pytest.mark.parametrize("typer", [False, True], ids=["fast", "typer"])
def test_ctrl_c_ends_either_way_alike(typer: bool) -> None:
    """Ctrl-C while ``score`` waits for its standard input: exit status 130 (the shell's
    for SIGINT), no message, no traceback."""
    import signal
    import time

    env = {k: v for k, v in os.environ.items() if k != "GECFORMATS_NO_FAST"}
    if typer:
        env["GECFORMATS_NO_FAST"] = "1"
    proc = subprocess.Popen([sys.executable, "-m", "gecformats", "score", "-", "--gold",
                             f"{S}/sample.m2"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    _wait_until_open(proc.pid, Path(f"{S}/sample.m2"))  # in the command's body
    time.sleep(0.2)  # reading standard input, which stays open
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert (proc.returncode, out, err) == (130, b"", b"")
