"""``--jobs 2`` on every error path, many times over, and killed mid-run (issue 34): the one
line and exit status every time, no hang, no traceback, no process or file left behind.

The runs are processes of their own: a driver (this file run as a script) imports
gecformats once and forks one child per run, several at a time, each in its own process
group and with its own TMPDIR; a child runs the command line and exits as the interpreter
does (atexit, garbage collection, module teardown), so an "Exception ignored" at shutdown
shows.  A run that has not ended after :data:`RUN_TIMEOUT` seconds is a hang; a process
of its group still there after it ended is a worker left behind.  The hang this guards
against came about one run in five under load: a pool stopped its workers with SIGTERM
right after forking them, and a child not yet set up lost the signal (see
``gecformats.dist._Workers``).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"

RUNS = 25
"""Runs of each error path."""
AT_ONCE = 4
"""Runs at the same time (load makes the races likelier)."""
RUN_TIMEOUT = 10.0
"""Seconds a run may take (each takes well under one alone)."""

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="process groups and /proc")


def _inputs(folder: Path) -> dict[str, tuple[list[str], str]]:
    """Each error path: its command line (run in ``folder``) and its one line's text."""
    score, ixml = FIXTURES / "score", FIXTURES / "imeasure"
    lines = (score / "sample.hyp").read_text(encoding="utf-8").splitlines()
    write = {
        "src": "a b c\nd e\nf\n",
        "longer": "a b c\nd e\nf\ng\n",
        "early": "a x|||y c\nd e\nf\ng\nh\n",  # sentence 1 cannot be written, then the count
        "lattice.hyp": " ".join("abcdefghij"[k * 7 % 10] for k in range(3000)) + "\n"
        + "\n".join(lines[1:]) + "\n",
        "long.txt": (ixml / "sys.txt").read_text(encoding="utf-8") + "one line too many\n",
    }
    for name, content in write.items():
        (folder / name).write_text(content, encoding="utf-8")
    (folder / "bad-ref").write_bytes(b"a b c\nd \xff e\nf\n")
    (folder / "bad.hyp").write_bytes("\n".join(lines[:2]).encode() + b"\ncaf\xe9 .\n"
                                     + lines[3].encode() + b"\n")
    gold = (score / "sample.m2").read_text(encoding="utf-8").rstrip("\n").rsplit("\n", 1)
    (folder / "bad.m2").write_text(gold[0] + "\nA 2 3|||Det\n\n", encoding="utf-8")
    jobs = ["--jobs", "2"]
    parallel = ["--from", "parallel", "--tokenizer", "space", *jobs]
    four = ["--metric", "m2", "--metric", "errant", "--metric", "gleu", "--metric", "sentm2"]
    return {
        "convert, a line too many": (
            ["convert", "src", "o.m2", "--ref", "longer", *parallel],
            "longer:4: longer has 4 lines but src has 3"),
        "convert, an earlier sentence": (
            ["convert", "src", "o.m2", "--ref", "early", *parallel], "sentence 1 cannot be written"),
        "convert, a reference not UTF-8": (
            ["convert", "src", "o.m2", "--ref", "bad-ref", *parallel], "bad-ref:2: not valid UTF-8"),
        "score, a hypothesis not UTF-8": (
            ["score", "bad.hyp", "--gold", str(score / "sample.m2"), *four, *jobs],
            "bad.hyp:3: not valid UTF-8"),
        "score, a sentence it cannot score": (
            ["score", "lattice.hyp", "--gold", str(score / "sample.m2"), *four, *jobs],
            "lattice.hyp:1: sentence 1: its edit lattice would have over"),
        "score, a malformed gold sentence": (
            ["score", str(score / "sample.hyp"), "--gold", "bad.m2", *four, *jobs],
            "bad.m2:19: an 'A' line has 6"),
        "imeasure, a line too many": (
            ["imeasure", "long.txt", "--gold", str(ixml / "gold.xml"), *jobs],
            "long.txt: has 5 lines"),
        "score with references, a line too many": (
            ["score", "src", "--source", "src", "--ref", "longer", *four, *jobs],
            "longer:4: longer has 4 lines but src has 3"),
    }


def test_every_error_path_of_jobs_many_times(tmp_path):
    cases = _inputs(tmp_path)
    runs = [(name, args) for name, (args, _) in cases.items() for _ in range(RUNS)]
    spec = tmp_path / "runs.json"
    spec.write_text(json.dumps({"folder": str(tmp_path), "runs": runs}), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.run([sys.executable, __file__, str(spec)], capture_output=True, text=True,
                          env=env, timeout=len(runs) * RUN_TIMEOUT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    results = json.loads(proc.stdout)
    problems = []
    for (name, _), (code, stderr, trouble) in zip(runs, results):
        expected = cases[name][1]
        if trouble or code != 1 or stderr.count("\n") != 1 \
                or not stderr.startswith("gecformats: ") or expected not in stderr:
            problems.append(f"{name}: exit {code}, {trouble or 'stderr'}: {stderr[-600:]!r}")
    assert not problems, f"{len(problems)} of {len(runs)} runs:\n" + "\n".join(problems[:10])


# --------------------------------------------------------------------------- killed runs


def _group(leader: int) -> list[int]:
    """The live processes of process group ``leader`` (zombies left out)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            if int(fields[2]) == leader and fields[0] != "Z":
                found.append(int(entry))
    return found


def _wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.parametrize("command, how", [
    ("convert", "SIGINT to the group"),   # Ctrl-C at a terminal
    ("convert", "SIGTERM"),
    ("convert", "SIGKILL"),               # nothing runs in the parent: the workers notice
    ("score", "SIGTERM"),                 # no handler there: the parent dies at once
    ("score", "SIGINT to the group"),
])
def test_a_killed_jobs_run_leaves_no_worker(tmp_path, command, how):
    if command == "convert":
        for name in ("source", "annotator-0", "annotator-1"):
            text = (FIXTURES / "parallel" / "en" / f"{name}.txt").read_text(encoding="utf-8")
            (tmp_path / f"{name}.txt").write_text(text * 5000, encoding="utf-8")
        args = ["convert", str(tmp_path), str(tmp_path / "o.m2"), "--from", "parallel"]
    else:
        gold = (FIXTURES / "score" / "sample.m2").read_text(encoding="utf-8").rstrip("\n")
        (tmp_path / "g.m2").write_text((gold + "\n\n") * 5000, encoding="utf-8")
        (tmp_path / "h.txt").write_text(
            (FIXTURES / "score" / "sample.hyp").read_text(encoding="utf-8") * 5000)
        args = ["score", str(tmp_path / "h.txt"), "--gold", str(tmp_path / "g.m2"),
                "--metric", "m2", "--metric", "gleu"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-m", "gecformats", *args, "--jobs", "2"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env=env, start_new_session=True)
    try:
        assert _wait_for(lambda: len(_group(proc.pid)) == 3, 30), "the workers never started"
        time.sleep(0.3)
        if how == "SIGINT to the group":
            os.killpg(proc.pid, signal.SIGINT)
        else:
            os.kill(proc.pid, getattr(signal, how))
        stderr = proc.communicate(timeout=RUN_TIMEOUT)[1]
        assert _wait_for(lambda: not _group(proc.pid), 5), f"left behind: {_group(proc.pid)}"
    finally:
        if _group(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert "Traceback" not in stderr and "Exception" not in stderr, stderr
    if how != "SIGKILL":
        assert not list(tmp_path.glob(".o.m2*")), "a temporary output left behind"
    if how == "SIGINT to the group":
        assert proc.returncode in (1, 130)
    elif how == "SIGTERM":
        assert proc.returncode in (128 + signal.SIGTERM, -signal.SIGTERM)


# --------------------------------------------------------------------------- the driver


def _drive(spec_path: str) -> None:
    """Run the command lines of a spec file, :data:`AT_ONCE` at a time, each in a forked
    child; print per run ``[exit status, standard error, trouble]`` as JSON, trouble being
    a hang, processes left in its group or files left in its TMPDIR ('' if none)."""
    import importlib
    import pkgutil

    import gecformats

    spec = json.loads(Path(spec_path).read_text(encoding="utf-8"))
    folder, runs = Path(spec["folder"]), spec["runs"]
    # every module once, here (the children are forked with them): a command imports what it
    # needs as it runs, and without bytecode files (PYTHONDONTWRITEBYTECODE) that is most
    # of a short run's time
    for module in pkgutil.walk_packages(gecformats.__path__, "gecformats."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    import gc

    import typer.main

    from gecformats.cli import app

    command = typer.main.get_command(app)  # as app() makes it, once
    gc.collect()
    gc.freeze()  # the children's collections leave the driver's objects alone

    results: list[list] = [[None, "", ""] for _ in runs]
    running: dict[int, tuple[int, float]] = {}
    following = 0
    while following < len(runs) or running:
        while following < len(runs) and len(running) < AT_ONCE:
            k = following
            following += 1
            scratch = folder / f"tmp-{k}"
            scratch.mkdir()
            pid = os.fork()
            if pid == 0:
                _child(command, runs[k][1], folder, folder / f"err-{k}", scratch)
            try:
                os.setpgid(pid, pid)
            except OSError:  # the child did it first
                pass
            running[pid] = (k, time.monotonic())
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            for other, (k, started) in list(running.items()):
                if time.monotonic() - started > RUN_TIMEOUT:
                    results[k][2] = f"hang (over {RUN_TIMEOUT:g} s)"
                    os.killpg(other, signal.SIGKILL)
            time.sleep(0.01)
            continue
        k, _ = running.pop(pid)
        results[k][0] = os.waitstatus_to_exitcode(status)
        results[k][1] = (folder / f"err-{k}").read_text(encoding="utf-8", errors="replace")
        left = _group(pid)
        if left:
            results[k][2] = results[k][2] or f"{len(left)} processes left in its group"
            os.killpg(pid, signal.SIGKILL)
        files = sorted(p.name for p in (folder / f"tmp-{k}").iterdir())
        if files:
            results[k][2] = results[k][2] or f"left in TMPDIR: {files}"
    print(json.dumps(results))


def _child(command: Any, args: list[str], folder: Path, stderr: Path, scratch: Path) -> None:
    """In a forked child: run ``gecformats ARGS`` and end as the interpreter ends: the exit
    functions, then the garbage (a generator finalized then prints "Exception ignored …");
    the modules' teardown, the same for every run and most of a short run's time, is
    left out."""
    import atexit
    import gc
    import tempfile
    import traceback

    code = 70
    try:
        os.setpgid(0, 0)
        os.chdir(folder)
        null = os.open(os.devnull, os.O_RDWR)
        err = os.open(stderr, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(null, 0)
        os.dup2(null, 1)
        os.dup2(err, 2)
        os.environ["TMPDIR"] = str(scratch)
        tempfile.tempdir = None
        try:
            command.main(args, prog_name="gecformats")
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
        except BaseException:
            traceback.print_exc()
            code = 1
        atexit._run_exitfuncs()
        gc.collect()
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)


if __name__ == "__main__":
    _drive(sys.argv[1])
