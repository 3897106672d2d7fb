"""The fuzz test of issue 13: mutated fixtures through every command end in a result or a
clean one-line error, never a traceback, hang, memory blow-up or partial output; scores in
range; and twins agree (CRLF input, ``--shards``, ``--engine dask``).

One full round of seeded cases (``fuzzing.full_round()``, about 1,600: every command of
every target under every mutation once, where 3,000 cases drawn at random left some of
these triples out and ran others many times) in two child processes under an address-space
limit; ``tests/bench/bench_fuzz.py`` runs the long version.  A failure lists each case's
command, mutation and seed: rerun one with ``fuzzing.run_case(target, command, seed,
mutation=NAME)`` (NAME the mutation's first word).
"""

from __future__ import annotations

import json

import fuzzing

CASES = fuzzing.full_round()
SEED = 2026
try:
    import distributed  # noqa: F401
    DASK = True
except ImportError:  # the Dask twins need the optional extra
    DASK = False


def test_the_cases_cover_every_command_under_every_mutation() -> None:
    planned = {(t.name, tuple(c), m) for t, c, _, m in fuzzing.cases(CASES, SEED)}
    pairs = sum(len(t.commands) for t in fuzzing.TARGETS)
    assert len(planned) == CASES == pairs * len(fuzzing.MUTATIONS)


def test_mutated_inputs_give_a_result_or_a_clean_error() -> None:
    summary = fuzzing.run_in_children(CASES, SEED, dask=DASK)
    assert summary.cases == CASES
    shown = "\n".join(json.dumps(f, ensure_ascii=False)[:600] for f in summary.failures[:20])
    assert summary.failures == [], f"{len(summary.failures)} failing cases:\n{shown}"
    assert summary.counts.get("ok", 0) > CASES // 10  # the mutations leave much still readable


def test_every_target_command_runs_cleanly_unmutated(tmp_path) -> None:
    """The fixtures themselves: exit 0 for every command (the baseline the mutations move
    away from), except where a command needs what the fixture lacks."""
    from typer.testing import CliRunner

    from gecformats.cli import app

    for target in fuzzing.TARGETS:
        source = fuzzing.FIXTURES / target.file
        for command in target.commands:
            args = fuzzing._expand(command, source, tmp_path / f"{target.name}-out")
            if command[0] == "maxmatch":
                result = fuzzing._drop_in(args[1:])
            elif command[0] in fuzzing.LIBRARY_COMMANDS:
                result = fuzzing._library(args)
            else:
                result = CliRunner().invoke(app, args)
            assert result.exception is None or isinstance(result.exception, SystemExit), args
            assert result.exit_code in (0, 1), (args, result.stderr)


def test_swap_mutation_takes_numbers_past_the_int_string_limit() -> None:
    """The swap mutation once stopped a child with a traceback on a 4,844-digit number
    (Python's int-string conversion limit); it makes the start a longer number instead."""
    import random

    end = b"9" * 5000
    data = b"A 1 " + end + b"|||X|||y|||REQUIRED|||-NONE-|||0\n"
    for seed in range(8):
        out = fuzzing.m_swap(random.Random(seed), data)
        assert out != data and len(out) >= len(data)
