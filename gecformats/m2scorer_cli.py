"""``maxmatch``: a drop-in for the NUS ``m2scorer`` command (spec §1, §9).

    maxmatch [OPTIONS] SYSTEM GOLD

Same options, same parsing (POSIX ``getopt``: options before the file names, ``--opt=value``
or ``--opt value``, unambiguous prefixes of long options), same three output lines, same
``-v`` trace as far as it can be reproduced.  Differences from the reference, all on inputs
where it fails or prints something it cannot mean:

* malformed input, and a missing or unreadable file, stop with ``maxmatch: FILE:LINE:
  message`` and exit status 1 (the reference's uncaught exception exits 1 too, with a
  traceback); a CRLF gold file is scored like the LF file;
* an unknown or ambiguous option prints the usage with the reason (exit status 1, like the
  reference's uncaught exception, but without a traceback); so does a ``--beta`` that is not
  a finite number above 0 (the reference prints ``F_nan : nan`` or divides by zero);
* ``-h``/``--help`` prints the usage on standard output and exits 0 (the reference knows no
  such option);
* a score that is impossible (a sentence credits more correct edits than the system
  proposed, as a gold edit listed twice makes the reference do) is printed as the reference
  prints it, with a warning on standard error;
* ``--very_verbose`` prints the ``-v`` trace only (the matrix and lattice dumps of §9.3 are
  not reproduced);
* in the ``-v`` trace, ``SOURCE`` is the source tokens joined by single spaces (the reference
  keeps the S line's internal spacing), and a gold correction is printed ``''`` when the edit
  spells its deletion ``-NONE-`` and ``u''`` when the field is empty; an edit that mixes both
  spellings among its alternatives prints them all the same way.
"""

from __future__ import annotations

import getopt
import re
import sys
from collections.abc import Iterator, Sequence
from typing import IO, TYPE_CHECKING

from maxmatch import (DEFAULT_MAX_EDGES, AnnotatorResult, CorpusResult, CorpusScorer,
                      LatticeError, LatticeTooLarge, f_counts, format_scores, shrink_edit, split_hypothesis)

if TYPE_CHECKING:
    from gecformats.metrics.score import ScoredSentence, ScoreResult, Scoring

# gecformats itself (its model, reader and scoring) is imported only when the fast path below
# gives way: a plain run of this command needs no more than the scorer, and starts in half
# the time without the rest

USAGE = f"""\
Usage: maxmatch [OPTIONS] proposed_sentences gold_source
where
  proposed_sentences   -   system output, sentence per line
  gold_source          -   source sentences with gold token edits
OPTIONS
  -v    --verbose                   -  print verbose output
        --very_verbose              -  same as --verbose (no lattice dumps)
        --max_unchanged_words N     -  Maximum unchanged words when extracting edits. Default 2.
        --beta B                    -  Beta value for F-measure (finite, above 0). Default 0.5.
        --ignore_whitespace_casing  -  Ignore edits that only affect whitespace and casing. Default no.
        --edge-limit N              -  Largest edit lattice of one sentence (memory, ~310 bytes
                                       an edge); past it: an error naming the sentence. Default {DEFAULT_MAX_EDGES}.
                                       (gecformats score --max-edges; not --max-…, which the
                                       reference's getopt reads as --max_unchanged_words)
  -h    --help                      -  print this usage and exit.
Exit status: 0 scored; 1 bad option or value, malformed, missing or unreadable file (as the
reference's uncaught exceptions); 255 not two file names (as the reference).
"""

LONG_OPTIONS = ["verbose", "very_verbose", "max_unchanged_words=", "beta=",
                "ignore_whitespace_casing", "edge-limit=", "help"]


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``maxmatch`` console script; exits with the status."""
    sys.exit(run(sys.argv[1:] if argv is None else list(argv), sys.stdout, sys.stderr))


def run(args: list[str], out: IO[str], err: IO[str]) -> int:
    """Parse ``args`` like the reference, score, print to ``out``; return the exit status.

    255: wrong number of file names (usage on ``err``); 1: bad option or value, malformed,
    missing or unreadable input (the reference's uncaught exceptions exit 1); 0: scored, or
    ``--help`` (usage on ``out``).
    """
    try:
        opts, files = getopt.getopt(args, "vh", LONG_OPTIONS)
        if any(name in ("-h", "--help") for name, _ in opts):
            out.write(USAGE)
            return 0
        options = _options(opts)
    except (getopt.GetoptError, ValueError) as exc:
        err.write(f"maxmatch: {exc}\n{USAGE}")
        return 1
    if len(files) != 2:
        err.write(USAGE)
        return 255
    verbose = options.pop("verbose")
    if not verbose:
        try:
            fast = _fast(files[0], files[1], **options)  # type: ignore[arg-type]
        except Refused as exc:  # the full path would stop there too: no second attempt
            from gecformats.metrics.score import lattice_failure

            err.write(f"maxmatch: {lattice_failure(files[0], exc.number, exc.failure)}\n")
            return 1
        if fast is not None:
            result, notes = fast
            out.write(format_scores(result) + "\n")
            for warning in notes:
                err.write(f"maxmatch: warning: {warning}\n")
            return 0
    from gecformats.errors import GecFormatError
    from gecformats.metrics.score import Scoring

    scoring = Scoring(files[0], files[1], **options)  # type: ignore[arg-type]
    try:
        if verbose:
            result = _traced(scoring, out)
        else:
            for _ in scoring:
                pass
            result = scoring.result()
    except GecFormatError as exc:
        err.write(f"maxmatch: {exc}\n")
        return 1
    except OSError as exc:
        name = exc.filename if exc.filename is not None else ""
        err.write(f"maxmatch: {name}: {exc.strerror or exc}\n")
        return 1
    if verbose:
        out.write(final_trace(result))
    out.write(format_scores(result) + "\n")
    for warning in result.gold_warnings:
        err.write(f"maxmatch: warning: {warning}\n")
    return 0


# ------------------------------------------------------------------ the fast path

#: Characters that end a line for the NUS scorer (str.splitlines) but not for gecformats:
#: the M2 reader refuses them, with a message the full path gives
_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029\ufeff]")


#: The longest line the fast path reads, in bytes: gecformats.io.MAX_LINE (not imported,
#: for the start-up time); a longer line gives way, and the full path refuses it
_MAX_LINE = 10 * 1024 * 1024


def _bounded(fh: IO[bytes]) -> Iterator[bytes]:
    """The lines of ``fh`` split on b"\\n", each read with a bounded ``readline``: a line
    longer than :data:`_MAX_LINE` is never held whole (:class:`_GiveWay` instead)."""
    limit = _MAX_LINE
    readline = fh.readline
    while True:
        raw = readline(limit + 1)
        if not raw:
            return
        if len(raw) > limit and raw[-1:] != b"\n":
            raise _GiveWay
        yield raw


class _GiveWay(Exception):
    """The fast path met something it leaves to the full path (an error to report, a rare
    form); nothing has been printed yet."""


class Refused(Exception):
    """The scorer refused sentence ``number`` (``failure`` as
    :func:`gecformats.metrics.score.lattice_failure` takes it): the full path would stop at
    the same sentence with the same error, so it is reported without a second attempt."""

    def __init__(self, number: int, failure: tuple[str, str, int]) -> None:
        super().__init__(number, failure)
        self.number = number
        self.failure = failure


def fast_score(hypothesis: str, gold: str, *, beta: float = 0.5, max_unchanged_words: int = 2,
               ignore_whitespace_casing: bool = False,
               max_edges: int | None = DEFAULT_MAX_EDGES) -> CorpusResult | None:
    """Score plain files with the scorer alone, or ``None`` when the full path must do it.

    The common case (two plain UTF-8 files, well-formed M2 with ``S`` and ``A`` lines only,
    as many hypothesis lines as gold sentences) is read here, straight into the scorer's
    input, without gecformats' model and reader.  Anything else (standard input, ``.gz``,
    ``T`` lines, a malformed or unusual line, a byte-order mark, a sentence the scorer
    refuses, different counts, an unreadable file) returns ``None``, and the caller scores
    with :class:`gecformats.metrics.score.Scoring`, which reports errors exactly.  Where it
    answers, the answer is the full path's (tested on CoNLL-2014 systems, the NUS edge cases
    and generated files).  Options as for ``Scoring`` (``max_edges=None``: no bound).

    Raises:
        Refused: the scorer refused a sentence (its lattice is past ``max_edges``, or the
            reference would crash on it); the full path would stop there with the same error.
    """
    fast = _fast(hypothesis, gold, beta=beta, max_unchanged_words=max_unchanged_words,
                 ignore_whitespace_casing=ignore_whitespace_casing, max_edges=max_edges)
    return None if fast is None else fast[0]


def _fast(hypothesis: str, gold: str, *, beta: float = 0.5, max_unchanged_words: int = 2,
          ignore_whitespace_casing: bool = False, max_edges: int | None = DEFAULT_MAX_EDGES
          ) -> tuple[CorpusResult, list[str]] | None:
    """:func:`fast_score` with the warnings the full path gives about the gold (edits past
    their sentence's end, an impossible score), or ``None``."""
    if "-" in (hypothesis, gold) or hypothesis.endswith(".gz") or gold.endswith(".gz"):
        return None
    scorer = CorpusScorer(beta=beta, max_unchanged_words=max_unchanged_words,
                          ignore_whitespace_casing=ignore_whitespace_casing,
                          keep_sentences=False, max_edges=max_edges)
    past_end = [0, 0]  # edits, first sentence
    impossible = [0, 0]  # sentences, first sentence
    number = 0
    try:
        with open(hypothesis, "rb") as hyp, open(gold, "rb") as ref:
            lines = _bounded(hyp)  # split on b"\n" only, as the full path reads it (spec §3)
            for number, (source, edits) in enumerate(_gold_blocks(_bounded(ref)), 1):
                raw = next(lines, None)
                if raw is None:
                    raise _GiveWay
                line = raw.decode("utf-8")
                n = len(source)
                beyond = sum(1 for kept in edits.values() for e in kept if e[0] > n or e[1] > n)
                if beyond:
                    past_end[0] += beyond
                    past_end[1] = past_end[1] or number
                _, choice = scorer.add(source, split_hypothesis(line), edits)
                if choice.correct > min(choice.proposed, choice.gold):
                    impossible[0] += 1
                    impossible[1] = impossible[1] or number
            if next(lines, None) is not None:
                raise _GiveWay
    except (_GiveWay, OSError, UnicodeDecodeError):
        return None
    except LatticeError as exc:
        raise Refused(number, ("too-large", str(exc), exc.limit)
                      if isinstance(exc, LatticeTooLarge) else ("lattice", str(exc), 0)) from None
    result = scorer.result()
    notes = []
    if past_end[0] or impossible[0]:
        from gecformats.metrics.score import impossible_warning, past_end_warning

        if past_end[0]:
            notes.append(past_end_warning(gold, *past_end))
        if impossible[0]:
            notes.append(impossible_warning(gold, *impossible, result, hypothesis))
    return result, notes


def _gold_blocks(lines: Iterator[bytes]) -> Iterator[tuple[list[str], dict[int, list]]]:
    """``(source tokens, {annotator: [(start, end, corrections)]})`` per M2 block, as
    :func:`gecformats.metrics.score.maxmatch_gold` gives them; raises :class:`_GiveWay` on
    anything but ``S`` and well-formed ``A`` lines (see :func:`fast_score`)."""
    block: list[str] = []
    for raw in lines:
        line = raw.decode("utf-8").rstrip("\r\n \t")
        if line:
            block.append(line)
        elif block:
            yield _gold_block(block)
            block = []
    if block:
        yield _gold_block(block)


def _gold_block(block: list[str]) -> tuple[list[str], dict[int, list]]:
    first = block[0]
    if not (first == "S" or first[:2] == "S ") or _BREAKS.search(first):
        raise _GiveWay
    edits: dict[int, list] = {}
    for line in block[1:] if len(block) > 1 else ():
        fields = line[2:].split("|||")
        offsets = fields[0].split(" ")
        # taken: "A start end|||type|||corrections|||REQUIRED|||comment|||annotator" with
        # plain ASCII integers (at most 15 characters, annotator below 1000) and no line
        # break character; the rest goes to the full path, which refuses or reads it
        if (line[:2] != "A " or len(fields) != 6 or len(offsets) != 2
                or not all(_integer(n) for n in offsets)
                or not (fields[5].isascii() and fields[5].isdigit() and len(fields[5]) <= 3)
                or fields[3].strip(" ") not in ("REQUIRED", "OPTIONAL")
                or _BREAKS.search(line)):
            raise _GiveWay
        kept = edits.setdefault(int(fields[5]), [])
        if fields[1] == "noop":  # the annotator is there, with no edit
            continue
        field = fields[2]
        if field == "-NONE-":
            corrections: tuple[str, ...] = ("",)
        elif "||" in field:
            corrections = tuple("" if piece == "-NONE-" else piece.strip()
                                for piece in field.split("||"))
        else:
            corrections = (field.strip(),)
        kept.append((int(offsets[0]), int(offsets[1]), corrections))
    return split_hypothesis(first[2:]), edits


def _integer(text: str) -> bool:
    digits = text[1:] if text[:1] == "-" else text
    return len(text) <= 15 and digits.isascii() and digits.isdigit()


def _traced(scoring: Scoring, out: IO[str]) -> ScoreResult:
    """Score with the ``-v`` trace, written to ``out`` only once both files are known to
    have the same number of sentences (spooled to a temporary file until then)."""
    import tempfile  # only the trace needs it: a plain run starts faster without

    with tempfile.SpooledTemporaryFile(8 << 20, "w+", encoding="utf-8") as trace:
        for scored in scoring:
            trace.write(sentence_trace(scored, scoring.beta))
        result = scoring.result()
        trace.seek(0)
        for chunk in iter(lambda: trace.read(1 << 16), ""):
            out.write(chunk)
    return result


def _options(opts: list[tuple[str, str]]) -> dict[str, object]:
    """The reference's option values: ``int()`` and ``float()`` parses (§1).

    Raises:
        ValueError: a bad number, or an option given twice (the reference keeps the last
            ``--beta`` silently; ``-v``, ``--verbose`` and ``--very_verbose`` are one option).
    """
    options: dict[str, object] = {"verbose": False, "beta": 0.5, "max_unchanged_words": 2,
                                  "ignore_whitespace_casing": False}
    seen: dict[str, str] = {}
    for name, value in opts:
        key = "verbose" if name in ("-v", "--very_verbose") else name.lstrip("-")
        if key in seen:
            again = "" if seen[key] == name else f" (the same option as {seen[key]})"
            raise ValueError(f"option {name}{again} given more than once: give it once")
        seen[key] = name
        if name in ("-v", "--verbose", "--very_verbose"):
            options["verbose"] = True
        elif name == "--max_unchanged_words":
            options["max_unchanged_words"] = int(value)
        elif name == "--beta":
            options["beta"] = float(value)
            if not 0 < options["beta"] < float("inf"):  # type: ignore[operator]
                raise ValueError(f"--beta must be a finite number above 0, not {value}")
        elif name == "--ignore_whitespace_casing":
            options["ignore_whitespace_casing"] = True
        elif name == "--edge-limit":
            options["max_edges"] = int(value)
            if options["max_edges"] < 1:  # type: ignore[operator]
                raise ValueError(f"--edge-limit must be at least 1, not {value}")
    return options


# ------------------------------------------------------------------ the -v trace (§9.2)


def sentence_trace(scored: ScoredSentence, beta: float) -> str:
    """The reference's ``-v`` lines of one sentence: one block per annotator, then the
    ``>> Chosen Annotator`` line and an empty line."""
    from gecformats.metrics.py2order import py2_float

    c0, p0, g0 = scored.before
    lines: list[str] = []
    for ann in scored.result.annotators:
        c, p, g = c0 + ann.correct, p0 + ann.proposed, g0 + ann.gold
        golds = _gold_reprs(scored, ann)
        lines.append(f">> Annotator: {ann.annotator}")
        lines.extend(_marker_lines(ann))
        lines += [
            f"SOURCE        : {' '.join(scored.source)}",
            f"HYPOTHESIS    : {scored.hypothesis}",
            f"EDIT SEQ      : {_py2_list(_edit_repr(shrink_edit(e)) for e in ann.edits)}",
            f"GOLD EDITS    : {_py2_list(golds)}",
            f"CORRECT EDITS : {_py2_list(_edit_repr(e) for e in ann.matched)}",
            f"# correct     : {c}",
            f"# proposed    : {p}",
            f"# gold        : {g}",
            f"precision     : {py2_float(c / p if p else 1.0)}",
            f"recall        : {py2_float(c / g if g else 1.0)}",
            f"f_{beta:.1f}         : {py2_float(f_counts(c, p, g, beta))}",
            "-" * 43,
        ]
    lines += [f">> Chosen Annotator for line {scored.number} : {scored.choice.annotator}", ""]
    return "\n".join(lines) + "\n"


def final_trace(result: ScoreResult) -> str:
    """The ``-v`` block printed before the three result lines."""
    from gecformats.metrics.py2order import py2_float

    return (f"CORRECT EDITS  : {result.correct}\nPROPOSED EDITS : {result.proposed}\n"
            f"GOLD EDITS     : {result.gold}\nP = {py2_float(result.precision)}\n"
            f"R = {py2_float(result.recall)}\nF_{result.beta:.1f} = {py2_float(result.f)}\n")


def _marker_lines(ann: AnnotatorResult) -> list[str]:
    """``!``, ``&`` and ``*`` lines of credited deletions and insertions next to another
    edit, one per credit, as the reference's matching loop prints them (§9.2)."""
    lines = []
    for e in ann.matched:
        nxt = [shrink_edit(x) for x in ann.edits if e[1] == x[0]]
        prev = [shrink_edit(x) for x in ann.edits if e[0] == x[1]]
        if e[0] != e[1]:
            keep = [x for x in nxt + prev if x[0] == x[1]]
        else:
            keep = [x for x in nxt + prev if x[0] < x[1] and x[3] == ""]
        if not keep:
            continue
        adjacent = any(x[0] == g[0] and x[1] == g[1] and x[2] == g[2] and x[3] in g[3]
                       for x in keep for g in ann.gold_edits)
        if e[0] < e[1] and not e[3].strip():
            lines.append(f"{'!' if adjacent else '&'} {_edit_repr(e)}")
        elif e[0] == e[1]:
            lines.append(f"{'!' if adjacent else '*'} {_edit_repr(e)}")
    return lines


def _edit_repr(edit: tuple[int, int, str, str]) -> str:
    # strings from the data are unicode (u'...'); the empty strings the scorer makes are str
    return f"({edit[0]}, {edit[1]}, {_py2_str(edit[2])}, {_py2_str(edit[3])})"


def _gold_reprs(scored: ScoredSentence, ann: AnnotatorResult) -> list[str]:
    """The annotator's gold list, ``(start, end, original, [corrections])`` each.  A deletion
    spelled ``-NONE-`` becomes the scorer's own ``''``; an empty field stays ``u''``."""
    from gecformats.formats.m2 import DELETION_META

    n = len(scored.source)
    model = [e for e in scored.gold.annotators.get(ann.annotator, ())
             if 0 <= e.start <= n and 0 <= e.end <= n]  # the scorer's range filter (§2.4)
    reprs = []
    for i, (start, end, orig, corrections) in enumerate(ann.gold_edits):
        unicode_empty = i < len(model) and DELETION_META not in model[i].meta
        corrs = _py2_list(_py2_str(c, unicode_empty) for c in corrections)
        reprs.append(f"({start}, {end}, {_py2_str(orig)}, {corrs})")
    return reprs


def _py2_list(items) -> str:  # type: ignore[no-untyped-def]
    return "[" + ", ".join(items) + "]"


def _py2_str(text: str, unicode_empty: bool = False) -> str:
    """Python 2 ``repr`` of a string from the data: ``u'...'``, or ``''`` when empty."""
    if not text and not unicode_empty:
        return "''"
    quote = '"' if "'" in text and '"' not in text else "'"
    out = []
    for ch in text:
        cp = ord(ch)
        if ch == "\\" or ch == quote:
            out.append("\\" + ch)
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif cp < 0x20 or 0x7F <= cp <= 0xFF:
            out.append(f"\\x{cp:02x}")
        elif cp > 0xFFFF:
            out.append(f"\\U{cp:08x}")
        elif cp > 0xFF:
            out.append(f"\\u{cp:04x}")
        else:
            out.append(ch)
    return f"u{quote}{''.join(out)}{quote}"


if __name__ == "__main__":  # pragma: no cover
    main()
