"""The ``gecformats`` command line: thin wrappers around the library functions."""

from __future__ import annotations

import inspect
import json
import math
import os
import sys
import tempfile
from collections.abc import Iterable, Iterator
import contextlib
from contextlib import ExitStack, contextmanager
from enum import Enum
from typing import Any, Optional, TypeVar

import maxmatch
import typer
from typer.core import TyperCommand, TyperGroup, TyperOption

from gecformats import __version__, formats
from gecformats.convert.extract import ABSENT as EXTRACT_ABSENT
from gecformats.errors import GecFormatError, UsageError
from gecformats.metrics.gleu import ABSENT as GLEU_ABSENT, DEFAULT_VERSION, ORDER, VERSIONS as GLEU_VERSIONS
from gecformats.metrics.gleu import format_text as format_gleu, gleu_files
from gecformats.io import atomic_output
from gecformats.metrics.score import (ScoredSentence, Scoring, count_lines, describe_sentence,
                                      format_result, format_systems, score_systems,
                                      system_names, write_per_sentence)
from gecformats.metrics.stats import format_stats, stats as count_stats, text_stats
from gecformats.metrics import significance

def _no_flag_type(display: Any) -> Any:
    """``display_type_rich`` that shows nothing for a switch: typer's rich help would print
    ``<bool>`` beside ``--quiet``, as if it took a value."""

    def display_type_rich(self: Any, ctx: Any) -> Any:
        return None if getattr(self, "is_flag", False) and self.metavar is None else display(self, ctx)

    return display_type_rich


if hasattr(TyperOption, "display_type_rich"):
    TyperOption.display_type_rich = _no_flag_type(TyperOption.display_type_rich)  # type: ignore[method-assign]


class _OneLineErrors(TyperGroup):
    """The command group with usage errors on one line: ``gecformats: Invalid value for
    '--beta': ... (try 'gecformats score --help')`` and exit status 2, instead of a framed
    block, so that every error of every command has the same one-line form."""

    def main(self, args: Any = None, prog_name: str | None = None,  # type: ignore[override]
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except typer.Abort:
            if not standalone_mode:
                raise
            typer.echo("gecformats: aborted", err=True)
            sys.exit(BAD_DATA)
        except Exception as exc:
            # click's ClickException (typer >= 0.20 vendors click, so matched by its shape)
            if not standalone_mode or not hasattr(exc, "format_message") or not hasattr(exc, "exit_code"):
                raise
            ctx = getattr(exc, "ctx", None)
            if type(exc).__name__ == "NoArgsIsHelpError" and ctx is not None:
                typer.echo(ctx.get_help())
                sys.exit(USAGE)
            hint = f" (try '{ctx.command_path} --help')" if ctx is not None else ""
            typer.echo(f"gecformats: {exc.format_message()}{hint}", err=True)
            sys.exit(exc.exit_code)
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)


class _OnceEach(TyperCommand):
    """A command whose single-valued options may be given once: ``score --gold A --gold B``
    is a usage error (exit 2) naming the option, not a silent choice of B.  Options declared
    repeatable (lists: ``--ref``, ``--filter``) stay repeatable; flags count as given once
    whichever spelling (``--mix``/``--no-mix``) was used.  Every command of :data:`app` gets
    this class (see the end of the module)."""

    def make_parser(self, ctx: Any) -> Any:
        parser = super().make_parser(ctx)
        parse = parser.parse_args

        def parse_args(args: list[str]) -> Any:
            opts, rest, order = parse(args)
            seen: set[int] = set()
            for param in order:
                if (getattr(param, "param_type_name", "") != "option" or param.multiple
                        or getattr(param, "count", False) or param.is_eager):
                    continue
                if id(param) in seen:
                    names = " / ".join(f"'{n}'" for n in [*param.opts, *param.secondary_opts])
                    why = "give it once" if param.is_flag else "it takes one value"
                    ctx.fail(f"Option {names} given more than once: {why}")
                seen.add(id(param))
            return opts, rest, order

        parser.parse_args = parse_args
        return parser


app = typer.Typer(
    cls=_OneLineErrors,
    name="gecformats",
    help="Read, write, convert, check and score grammatical error correction data: M2, HOO, "
    "I-measure XML and parallel text; MaxMatch (M2) and GLEU scores, references, correlations.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # click's plain help, not Rich's tables: at 80 columns Rich squeezed the descriptions
    # into 17 characters (convert --help: 351 lines) and read "[dask]" as markup
    rich_markup_mode=None,
)


class Deletion(str, Enum):
    keep = "keep"
    empty = "empty"
    none = "none"


class Targets(str, Enum):
    keep = "keep"
    first = "first"
    split = "split"


class Grouping(str, Enum):
    components = "components"
    imeasure = "imeasure"


class EngineName(str, Enum):
    local = "local"
    dask = "dask"


class ScoreFormat(str, Enum):
    text = "text"
    json = "json"
    m2scorer = "m2scorer"
    errant = "errant"
    tsv = "tsv"
    latex = "latex"


class Mapping(str, Enum):
    exact = "exact"
    conll = "conll"


class Metric(str, Enum):
    m2 = "m2"
    errant = "errant"


class HypTokenizer(str, Enum):
    en = "en"
    zh = "zh"


class SegmentMode(str, Enum):
    project = "project"


class SegmenterName(str, Enum):
    zh = "zh"
    char = "char"


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn every problem a user can cause into one ``gecformats: FILE:LINE: message`` line on
    standard error and the exit status of the one convention of every command: 1 for bad
    input data (malformed, misaligned, unreadable or missing files), 2 for bad usage (an
    unknown format name, a format that cannot be inferred, an option that does not apply).
    """
    try:
        yield
    except BrokenPipeError:
        # the reader went away (`| head`): stop quietly, as Unix tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        raise typer.Exit(0) from None
    except GecFormatError as exc:
        typer.echo(f"gecformats: {exc}", err=True)
        raise typer.Exit(USAGE if isinstance(exc, UsageError) else BAD_DATA) from None
    except UnicodeDecodeError as exc:
        typer.echo(f"gecformats: not valid UTF-8 ({exc.reason})", err=True)
        raise typer.Exit(BAD_DATA) from None
    except OSError as exc:
        name = exc.filename if exc.filename is not None else ""
        reason = exc.strerror or str(exc)
        typer.echo(f"gecformats: {name}: {reason}" if name else f"gecformats: {reason}", err=True)
        raise typer.Exit(BAD_DATA) from None
    except (MemoryError, RecursionError) as exc:
        what = "out of memory" if isinstance(exc, MemoryError) else "input nested too deeply"
        typer.echo(f"gecformats: {what}: the input is too large or malformed for this command",
                   err=True)
        raise typer.Exit(BAD_DATA) from None


BAD_DATA = 1
"""Exit status for bad input data (malformed, misaligned, unreadable, missing)."""
USAGE = 2
"""Exit status for bad usage (unknown option or format, missing argument, bad value)."""


def _version(value: bool) -> None:
    if value:
        typer.echo(f"gecformats {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Read, write, convert, check and score grammatical error correction data."""


FORMAT_HELP = f"Format name ({', '.join(formats.FORMATS)}); inferred from the suffix if omitted."


ConvertAbsent = Enum("ConvertAbsent", [(a, a) for a in EXTRACT_ABSENT], type=str)  # type: ignore[misc]


class TokenizerName(str, Enum):
    en = "en"
    zh = "zh"
    char = "char"
    space = "space"


class EditTypes(str, Enum):
    errant = "errant"
    nlpcc = "nlpcc"


class SplitterName(str, Enum):
    punkt = "punkt"
    lines = "lines"


@app.command()
def convert(
    input: str = typer.Argument(
        ..., help="Input file ('-' for standard input, needs --from); for HOO a text or gold "
        "file of one document, or a directory with Raw/ and Gold/."
    ),
    output: str = typer.Argument(..., help="Output file ('-' for standard output); for HOO a directory."),
    from_format: Optional[str] = typer.Option(None, "--from", help=FORMAT_HELP),
    to_format: Optional[str] = typer.Option(None, "--to", help=FORMAT_HELP),
    deletion: Deletion = typer.Option(
        Deletion.keep, help="M2 output: spell deletions as read (keep), as an empty field, or -NONE-."
    ),
    targets: Targets = typer.Option(
        Targets.keep,
        help="M2 output of ChERRANT files: keep T lines and every alignment; 'first' alignment "
        "of each reference only (what the NUS scorer reads); 'split' every alignment into an "
        "annotator of its own.",
    ),
    tokenizer: Optional[TokenizerName] = typer.Option(
        None, help="HOO or parallel text → M2: how to tokenize (en: nltk Penn Treebank words, "
        "the default; zh: jieba; char; space). M2 → HOO or text: what the tokens are (zh/char "
        "are joined without spaces). M2 → M2: 'char' splits words into characters."
    ),
    refs: Optional[list[str]] = typer.Option(
        None, "--ref", metavar="REF.txt",
        help="--from parallel: a corrected file, line-aligned with INPUT (repeat for more "
        "references; reference k becomes annotator k).",
    ),
    ann: Optional[list[str]] = typer.Option(
        None, "--ann", metavar="FILE",
        help="--from nucle: a further annotator's SGML file of the same essays (repeat; file "
        "k is annotator k, INPUT annotator 0), combined the CoNLL way with --mapping conll. "
        "--from conll: the annotation file (.conll.ann; default INPUT.ann; repeat for more "
        "annotators).",
    ),
    alt: Optional[list[str]] = typer.Option(
        None, "--alt", metavar="FILE",
        help="--from nucle: a participants' alternative-annotation file (CoNLL-2014's "
        "alternative-team*.sgml: mistakes only, for the sentences it corrects another way); "
        "it annotates only those sentences (repeat for more).",
    ),
    alternative: int = typer.Option(
        0, min=0, help="M2 → text: which alternative correction (||) of each edit to apply."
    ),
    absent: Optional[ConvertAbsent] = typer.Option(
        None, "--absent", help="M2 → text: what an annotator absent from a sentence gets: the "
        "source, the first present annotator's correction ('first', right for the CoNLL-2014 "
        "combined file), or nothing ('skip', nlpcc only). Default: parallel and tsv "
        "write the source, or 'first' for a file that writes noop lines beside other "
        "annotators' edits (as that file); nlpcc leaves it out.",
    ),
    types: Optional[EditTypes] = typer.Option(
        None, help="Text → M2: edit type names (errant: M/U/R/R:WO, the default for en and "
        "space; nlpcc: M/R/S/W, the default for zh and char)."
    ),
    split_substitutions: bool = typer.Option(
        False, help="Text → M2: an n → n token replacement becomes one edit per changed token "
        "(as CoNLL annotators wrote them) instead of one merged edit."
    ),
    simplify: bool = typer.Option(
        False, "--t2s", help="Text → M2: convert references from traditional to simplified "
        "Chinese first (needs opencc, zhconv or hanziconv installed)."
    ),
    strip_edges: bool = typer.Option(
        False, help="--from nlpcc: strip U+FEFF, U+200B, U+3000 and spaces at field edges."
    ),
    jobs: int = typer.Option(
        1, "--jobs", "-j", min=0, help="Text → M2: worker processes (0: one per CPU); the "
        "output does not depend on it."
    ),
    engine: EngineName = typer.Option(
        EngineName.local, "--engine", help="local (this machine, --jobs) or dask (a Dask "
        "cluster: needs pip install 'gecformats[dask]'): text → M2, M2 → text, words → "
        "characters and HOO/NUCLE/BEA/FCE → M2 are shared out sentence by sentence, other "
        "conversions run whole on a worker; the output is the same."
    ),
    scheduler: Optional[str] = typer.Option(
        None, "--scheduler", metavar="ADDRESS", help="--engine dask: the scheduler's address "
        "(tcp://host:8786); without it a local cluster is started and stopped."
    ),
    workers: Optional[int] = typer.Option(
        None, "--workers", min=1, help="--engine dask without --scheduler: local workers "
        "(default: one per CPU)."
    ),
    partitions: Optional[int] = typer.Option(
        None, "--partitions", min=1, help="--engine dask: cut the input into this many tasks "
        "(default: tasks of 2,048 sentences)."
    ),
    shards: Optional[int] = typer.Option(
        None, "--shards", min=0, help="Write OUTPUT as a folder of this many parts "
        "(part-00000.m2 …) with a manifest.json (counts, checksums, versions; complete only "
        "at the end); INPUT may then be a quoted glob of input files ('in/*.tsv'). 0: one "
        "part per input file, each converted on its own (on the Dask workers in parallel)."
    ),
    resume: bool = typer.Option(
        False, "--resume", help="With --shards: continue a run that stopped, keeping the "
        "parts its manifest lists with their checksums."
    ),
    sentences: SplitterName = typer.Option(
        SplitterName.punkt, help="HOO → M2: sentence splitting (punkt: line breaks + Punkt with "
        "a built-in abbreviation list; lines: one sentence per line)."
    ),
    text: Optional[str] = typer.Option(
        None, help="M2 → HOO: the original text file, or a directory of texts (its Raw/), one "
        "document each in name order; default: the tokens joined by spaces, one sentence per line."
    ),
    shrink: Optional[bool] = typer.Option(
        None, "--shrink/--no-shrink", help="HOO/NUCLE → M2: trim tokens an edit's original "
        "and correction share (as CoNLL did) instead of keeping the annotator's span; words → "
        "characters: trim shared characters. Default: on with --mapping conll."
    ),
    mapping: Optional[Mapping] = typer.Option(
        None, help="Characters → tokens: exact (the M2 edit does what the character edit "
        "does, without gluing words; the default for HOO) or conll (as the NUCLE → M2 "
        "conversion of CoNLL-2013/14, which it reproduces: the default for NUCLE)."
    ),
    grouping: Grouping = typer.Option(
        Grouping.components, help="I-measure XML output: how edits become loci (components: "
        "connected overlap; imeasure: the original m2_to_ixml rule)."
    ),
    report_path: Optional[str] = typer.Option(
        None, "--report", metavar="R.json",
        help="HOO or text → M2, M2 → text: write the conversion report (counts, tool versions "
        "and cases: widened, dropped, inconsistent, unannotatable ...) as JSON.",
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing unless something was dropped."),
) -> None:
    """Convert INPUT to OUTPUT (format → edit model → format). The output appears whole or not at all.

    HOO (character offsets) → M2 (tokens) tokenizes with --tokenizer and --sentences and
    prints a one-line summary; every edit that could not be carried over exactly is listed
    in the --report file.

    Parallel text (parallel, tsv, nlpcc, cherrant) → M2 extracts one annotator's edits per
    reference: `convert SRC.txt OUT.m2 --from parallel --ref REF1.txt --ref REF2.txt`.
    M2 → parallel writes OUTPUT/source.txt and OUTPUT/annotator-<id>.txt.
    """
    options: dict[str, object] = {}
    to_name = to_format
    with user_errors():
        if from_format is None and not refs:
            from_format = formats.infer_input(
                input, f"gecformats convert {input} {output} --from {{format}}")
        if to_format is None and output == "-":
            to_format = from_format if formats.get(from_format or "m2").UNIT == "token" else "m2"
        to_name = to_format or _output_format(output, shards)
        if to_name == "m2":
            options["deletion"] = {"keep": None, "empty": "", "none": "-NONE-"}[deletion.value]
            options["targets"] = targets.value
        if to_name == "ixml":
            options["grouping"] = grouping.value
        if refs:
            options["refs"] = refs
        if ann:
            options["ann"] = ann
        if alt:
            options["alt"] = alt
        if strip_edges:
            options["strip_edges"] = True
        from gecformats.convert import convert as convert_file  # lazily: every format

        if resume and shards is None:
            raise UsageError("--resume continues a --shards run")
        if engine is EngineName.local and (scheduler or workers or partitions):
            raise UsageError("--scheduler, --workers and --partitions need --engine dask")
        if engine is EngineName.dask and jobs != 1:
            raise UsageError("--jobs is for --engine local; a Dask cluster has its workers")
        with _engine(engine, scheduler, workers, partitions) as running:
            report = convert_file(input, output, from_format=from_format, to_format=to_name,
                                  tokenizer=tokenizer.value if tokenizer else None,
                                  sentences=sentences.value, text=text, shrink=shrink,
                                  mapping=mapping.value if mapping else None,
                                  alternative=alternative, types=types.value if types else None,
                                  absent=absent.value if absent else None,
                                  split_substitutions=split_substitutions, simplify=simplify,
                                  jobs=jobs, engine=running, shards=shards,
                                  resume=resume, **options)
        if report.conversion is not None and report_path is not None:
            report.conversion.write_json(report_path)
    # -q keeps the summary when it tells of something dropped
    if report.conversion is not None and (not quiet or report.conversion.dropped):
        typer.echo(f"gecformats: {_conversion_summary(report.conversion, report_path)}", err=True)
    overlaps = _kept_overlaps(report.conversion)
    if overlaps:
        typer.echo(f"gecformats: warning: {overlaps} sentences keep overlapping edits of one "
                   "annotator, as the annotation has them (so do the organisers' M2 files): "
                   f"`gecformats validate {output}` lists them; --mapping exact resolves them",
                   err=True)
    for line in report.lines():
        typer.echo(f"gecformats: {line}", err=True)
    if not quiet:
        typer.echo(f"gecformats: wrote {report.sentences} {_unit_name(to_name)} to {output}", err=True)


def _conversion_summary(conversion: Any, report_path: str | None) -> str:
    """The one-line summary of a conversion: for characters → tokens with the mapping used
    and where its cases (widened, dropped, inconsistent ...) are listed."""
    line = conversion.summary()
    if not hasattr(conversion, "mapping"):  # text ↔ tokens: an ExtractionReport
        return line
    if conversion.mapping:
        flags = conversion.mapping.split()
        line += f"; --mapping {flags[0]}" + (" --shrink" if "shrink" in flags else "")
    if report_path is not None:
        line += f"; every case in {report_path}"
    elif conversion.cases:
        line += "; every case listed with --report R.json"
    return line


def _kept_overlaps(conversion: Any) -> int:
    """How many sentences the conll mapping wrote with overlapping edits of one annotator."""
    if conversion is None or not getattr(conversion, "mapping", "").startswith("conll"):
        return 0
    return sum(n for reason, n in conversion.reasons("inconsistent").items()
               if "overlap" in reason)


def _engine(engine: EngineName, scheduler: str | None, workers: int | None,
            partitions: int | None) -> Any:
    """The Dask engine to run in (a context manager), or a null one for the local path."""
    if engine is EngineName.local:
        return contextlib.nullcontext(None)
    from gecformats.dist import Engine

    return Engine(scheduler, workers=workers, partitions=partitions)


def _output_format(output: str, shards: int | None) -> str:
    """The format ``convert`` writes to ``output`` without ``--to``: from its suffix.

    Raises:
        UsageError: the suffix says nothing; with ``--shards``, the message says that OUTPUT
            is a folder whose parts' format comes from ``--to``.
    """
    try:
        return formats.infer(output)
    except UsageError:
        if shards is None:
            raise
        raise UsageError(f"with --shards, {output!r} is a folder of parts whose format comes "
                         f"from --to: add e.g. --to m2 (formats: {', '.join(formats.FORMATS)})"
                         ) from None


def _unit_name(format_name: str | None) -> str:
    module = formats.FORMATS.get(format_name or "")
    return "documents" if module is not None and module.UNIT == "char" else "sentences"


@app.command()
def stats(
    file: str = typer.Argument(..., help="Annotation file ('-' for standard input)."),
    from_format: Optional[str] = typer.Option(None, "--from", help=FORMAT_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Count sentences, tokens, edits and noop lines per annotator, and error types (for
    parallel text: sentences, characters and references per position)."""
    with user_errors():
        reader = formats.get(from_format or formats.infer_input(
            file, f"gecformats stats {file} --from {{format}}"))
        if reader.UNIT == "char":
            raise GecFormatError(f"stats counts tokens; convert {reader.NAME} data to M2 first "
                                 f"(gecformats convert {file} OUT.m2 --from {reader.NAME})")
        if reader.UNIT == "text":
            result = text_stats(reader.read(file))
        else:
            result = count_stats(reader.read(file))
    typer.echo(json.dumps(result, ensure_ascii=False, indent=2) if as_json else format_stats(result))


@app.command()
def validate(
    file: str = typer.Argument(..., help="Annotation file ('-' for standard input)."),
    from_format: Optional[str] = typer.Option(None, "--from", help=FORMAT_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print JSON: {\"problems\": [...]}."),
) -> None:
    """Report every problem with file, line, sentence and kind.

    Exit status: 0 clean, 1 problems found or the file cannot be read, 2 bad usage.
    """
    from gecformats.validate import validate as validate_file  # lazily: every format

    problems = []
    with user_errors():
        fmt = from_format or formats.infer_input(file, f"gecformats validate {file} --from {{format}}")
        for problem in validate_file(file, fmt):
            problems.append(problem)
            if not as_json:
                typer.echo(str(problem))
    if as_json:
        typer.echo(json.dumps({"problems": [p.to_dict() for p in problems]}, ensure_ascii=False, indent=2))
    elif not problems:
        typer.echo(f"{file}: no problems found", err=True)
    raise typer.Exit(1 if problems else 0)


class RefsFormat(str, Enum):
    lines = "lines"
    tsv = "tsv"
    jsonl = "jsonl"


@app.command()
def refs(
    input: str = typer.Argument(..., help="I-measure XML or M2 file ('-' for standard input, needs --from)."),
    from_format: Optional[str] = typer.Option(None, "--from", help=FORMAT_HELP),
    mix: bool = typer.Option(
        True, "--mix/--no-mix",
        help="Combine the alternatives of all loci (default), or one reference per annotator.",
    ),
    counts: bool = typer.Option(
        False, "--count", help="Print how many distinct references each sentence has instead "
        "(exact, or the product bound when there are more combinations than --max)."
    ),
    max: Optional[int] = typer.Option(
        None, "--max", min=1,
        help="With --count, enumerate at most N combinations for an exact count (default "
        "1,000,000); without it, the same as --max-references.",
    ),
    max_references: Optional[int] = typer.Option(
        None, "--max-references", min=0, metavar="N",
        help="At most N distinct references per sentence (default 10,000, as gleu; 0 for "
        "all); the sentences cut are reported.",
    ),
    output_format: RefsFormat = typer.Option(
        RefsFormat.lines, "--format",
        help="lines (one reference per line, an empty line after each sentence), tsv "
        "(sentence<TAB>reference) or jsonl.",
    ),
    grouping: Grouping = typer.Option(
        Grouping.components, help="M2 input: how edits become loci (components: connected "
        "overlap; imeasure: the original converter's rule)."
    ),
    output: str = typer.Option("-", "--output", "-o", help="Output file (written whole or not at all)."),
) -> None:
    """Every reference an annotation allows, from mutually exclusive alternatives (streamed).

    Sentence ids are those of the XML, or 1-based for M2. Nothing is written to a file
    unless the whole input was read.
    """
    from gecformats.convert.refs import (DEFAULT_REFERENCES, Count, capped_note,
                                         read as read_loci, write_references)

    if max_references is not None and (counts or max is not None):
        raise typer.BadParameter("caps the references written: not with --count or --max",
                                 param_hint="'--max-references'")
    limit = max_references if max_references is not None else max
    capped: list[tuple[str | None, Count]] = []
    with user_errors():
        from_format = from_format or formats.infer_input(
            input, f"gecformats refs {input} --from {{format}}", ("ixml", "m2", "conll"))
        sentences = read_loci(input, from_format, grouping.value)
        with atomic_output(output) as fh:
            write_references(sentences, fh, mix=mix, max=limit, format=output_format.value,
                             counts=counts, capped=capped)
    if capped:
        note = capped_note(capped, DEFAULT_REFERENCES if limit is None else limit)
        typer.echo(f"gecformats: note: {note}", err=True)


@app.command()
def score(
    hypotheses: list[str] = typer.Argument(
        ..., metavar="HYP...", help="System outputs, one tokenised sentence per line (.gz read "
        "transparently; '-' for standard input); several are scored against the gold read once."
    ),
    gold: str = typer.Option(..., "--gold", help="The M2 gold file."),
    beta: float = typer.Option(0.5, help="Beta of F-beta (also drives the per-sentence annotator choice)."),
    max_unchanged_words: int = typer.Option(
        2, help="Largest number of unchanged source tokens inside one system edit."
    ),
    ignore_whitespace_casing: bool = typer.Option(
        False, "--ignore-whitespace-casing", help="Ignore system edits that only change case or spacing."
    ),
    output_format: ScoreFormat = typer.Option(
        ScoreFormat.text, "--format",
        help="text (for people), json, m2scorer (the NUS scorer's three lines, byte for byte; "
        "one system), tsv or latex (a table).",
    ),
    per_sentence: Optional[str] = typer.Option(
        None, "--per-sentence", metavar="FILE.tsv",
        help="Write the chosen annotator and its counts per sentence (TSV; '-' for standard output).",
    ),
    tokenize: Optional[HypTokenizer] = typer.Option(
        None, "--tokenize", help="en: the hypotheses are raw English; tokenize them like the "
        "CoNLL gold (nltk Penn Treebank words) before scoring (recorded in the signature). zh: "
        "raw Chinese against a gold made by `convert --tokenizer zh` (jieba, the same words)."
    ),
    per_type: bool = typer.Option(
        False, "--per-type", help="Also give, per gold error type, the gold edits, the matched "
        "ones and the recall (after the exact M2 alignment and annotator choice), and the "
        "proposed edits that matched nothing (text and json; one system)."
    ),
    strict: bool = typer.Option(
        False, "--strict", help="A hypothesis that looks tokenized unlike the gold (untokenized "
        "English, unsegmented Chinese), or an impossible score (a gold edit listed twice), is "
        "an error (exit 1), not a warning."
    ),
    metric: Metric = typer.Option(
        Metric.m2, "--metric", help="m2: MaxMatch, as the NUS m2scorer; errant: ERRANT's span "
        "metrics, as errant_compare (HYP is an M2 file, or text whose edits are extracted)."
    ),
    mode: Optional[str] = typer.Option(
        None, "--mode", metavar="MODE",
        help="m2: correction (the default: the M2 score), recognition (a system edit with a "
        "gold edit's exact span counts, whatever its correction) or detection (a system edit "
        "overlapping a gold edit counts), the HOO scores on the M2 lattice. errant: cs (the "
        "default), cse, ds or dt, as errant_compare's -cs -cse -ds -dt."
    ),
    single: bool = typer.Option(False, "--single", help="errant: only edits of at most one "
                                "token on each side (errant_compare -single)."),
    multi: bool = typer.Option(False, "--multi", help="errant: only edits of two or more tokens "
                               "on a side (errant_compare -multi)."),
    filters: Optional[list[str]] = typer.Option(
        None, "--filter", metavar="TYPE", help="errant: leave out edits of this type "
        "(repeatable; errant_compare -filt)."),
    cat: Optional[int] = typer.Option(
        None, "--cat", min=1, max=3, help="errant: per-category scores: 1 operation (R, M, U), "
        "2 main type (NOUN), 3 every type (errant_compare -cat); needs ERRANT's types (OP:CAT) "
        "in the gold."),
    bonus: bool = typer.Option(
        False, "--bonus", help="Credit optional gold edits (M2 OPTIONAL) that the system left "
        "alone, as HOO's scores with bonus."
    ),
    ci: bool = typer.Option(
        False, "--ci", help="Give 95% bootstrap intervals of P, R and F (sentences resampled "
        "with replacement; each resample redoes the scorer's annotator choice)."
    ),
    paired_bs: bool = typer.Option(
        False, "--paired-bs", help="Paired bootstrap resampling test of each system's F against "
        "the first system's (the baseline), as sacrebleu: a p value per system."
    ),
    paired_ar: bool = typer.Option(
        False, "--paired-ar", help="Paired approximate randomisation test against the first "
        "system, as sacrebleu: a p value per system."
    ),
    resamples: int = typer.Option(
        significance.DEFAULT_RESAMPLES, "--resamples", min=1,
        help="Bootstrap resamples for --ci and --paired-bs."
    ),
    trials: int = typer.Option(
        significance.DEFAULT_TRIALS, "--trials", min=1, help="Trials of --paired-ar."
    ),
    seed: int = typer.Option(
        significance.DEFAULT_SEED, "--seed", min=0, help="Seed of the resamples and trials (in the "
        "signature with the test and the number of resamples)."
    ),
    max_edges: int = typer.Option(
        maxmatch.DEFAULT_MAX_EDGES, "--max-edges", min=1,
        help="The largest edit lattice one sentence may have (about 310 bytes per edge); a "
        "sentence past it stops scoring with an error naming it, never a different score.",
    ),
    verbose: bool = typer.Option(
        False, "--verbose", "-v",
        help="Show per sentence the source, hypothesis, system edits, gold edits and matches "
        "(on standard error with --format json).",
    ),
    segment: Optional[SegmentMode] = typer.Option(
        None, "--segment",
        help="project: HYPOTHESIS is raw Chinese text (NLPCC 2018); normalise it like the gold, "
        "keep the gold's tokens where it is unchanged and segment the changes like the gold "
        "(approximately the official PKUNLP segmentation).",
    ),
    segmenter: Optional[SegmenterName] = typer.Option(
        None, "--segmenter",
        help="With --segment project: segmenter for strings the gold never cut (zh: jieba, the "
        "default; char: one token per character).",
    ),
    segment_map: Optional[str] = typer.Option(
        None, "--segment-map", metavar="PAIRS",
        help="With --segment project: characters to replace, as pairs FROM TO ('' for none). "
        "Default: those of the NLPCC 2018 gold's normalisation (full-width colon, semicolon "
        "and brackets to ASCII) that the gold's sources show: TO present, FROM never.",
    ),
    engine: EngineName = typer.Option(
        EngineName.local, "--engine", help="local, or dask: the alignments on a Dask cluster "
        "(the annotator choice stays in order here; same result)."),
    scheduler: Optional[str] = typer.Option(
        None, "--scheduler", metavar="ADDRESS", help="--engine dask: the scheduler's address; "
        "without it a local cluster is started and stopped."),
    workers: Optional[int] = typer.Option(
        None, "--workers", min=1, help="--engine dask without --scheduler: local workers."),
) -> None:
    """Score system outputs against an M2 gold file with MaxMatch (M2), exactly like the NUS m2scorer.

    Several outputs are scored against the gold read once, one row each (text, json: a list
    of the single-system objects, tsv, latex). Nothing is printed or written unless the whole input is scored (a line-count mismatch is
    found at the end). Exit status: 0 scored, 1 bad input data (malformed, misaligned or
    unreadable), 2 bad usage.
    """
    if not math.isfinite(beta) or beta <= 0:
        raise typer.BadParameter(f"must be a finite number > 0, not {beta}", param_hint="'--beta'")
    if max_unchanged_words < 0:
        raise typer.BadParameter(f"must be 0 or more, not {max_unchanged_words}",
                                 param_hint="'--max-unchanged-words'")
    if per_type and output_format not in (ScoreFormat.text, ScoreFormat.json):
        raise typer.BadParameter("goes with --format text or json", param_hint="'--per-type'")
    if tokenize is not None and segment is not None:
        raise typer.BadParameter("--tokenize and --segment exclude each other",
                                 param_hint="'--tokenize'")
    if per_sentence == "-" and output_format is not ScoreFormat.text:
        raise typer.BadParameter(f"standard output already carries the {output_format.value} "
                                 "score; write the per-sentence table to a file",
                                 param_hint="'--per-sentence -'")
    if metric is Metric.errant:
        _score_errant(hypotheses, gold, output_format, mode=mode or "cs", beta=beta,
                      single=single, multi=multi, filters=filters or [], cat=cat,
                      refused={"--bonus": bonus, "--per-type": per_type, "--ci": ci,
                               "--paired-bs": paired_bs, "--paired-ar": paired_ar,
                               "--per-sentence": per_sentence is not None,
                               "--verbose": verbose, "--tokenize": tokenize is not None,
                               "--segment": segment is not None,
                               "--ignore-whitespace-casing": ignore_whitespace_casing,
                               "--engine": engine is not EngineName.local})
        return
    for given, flag in ((single, "--single"), (multi, "--multi"), (bool(filters), "--filter"),
                        (cat is not None, "--cat"),
                        (output_format is ScoreFormat.errant, "--format errant")):
        if given:
            raise typer.BadParameter("goes with --metric errant", param_hint=f"'{flag}'")
    from gecformats.metrics.modes import MODES

    mode = mode or "correction"
    if mode not in MODES:
        raise typer.BadParameter(f"{mode!r} is not one of {', '.join(MODES)}",
                                 param_hint="'--mode'")
    if per_type and (mode != "correction" or bonus):
        raise typer.BadParameter("goes with the M2 score (no --mode, no --bonus)",
                                 param_hint="'--per-type'")
    if paired_bs and paired_ar:
        raise typer.BadParameter("choose one paired test", param_hint="'--paired-bs' / '--paired-ar'")
    test = "paired-bs" if paired_bs else "paired-ar" if paired_ar else None
    if test is not None and len(hypotheses) < 2:
        raise typer.BadParameter("compares systems with the first one (the baseline): give "
                                 "two or more", param_hint=f"'--{test}'")
    if output_format is ScoreFormat.m2scorer and (ci or test):
        raise typer.BadParameter("has no room for intervals or p values",
                                 param_hint="'--format m2scorer'")
    if engine is EngineName.local and (scheduler or workers):
        raise typer.BadParameter("needs --engine dask", param_hint="'--scheduler' / '--workers'")
    if engine is EngineName.dask and (mode != "correction" or bonus):
        raise typer.BadParameter("scores the M2 correction score only", param_hint="'--engine'")
    with user_errors(), _engine(engine, scheduler, workers, None) as running:
        resampling = dict(ci=ci, test=test, resamples=resamples, trials=trials, seed=seed)
        if len(hypotheses) > 1:
            for given, flag in ((per_sentence is not None, "--per-sentence"), (verbose, "--verbose"),
                                (per_type, "--per-type"),
                                (output_format is ScoreFormat.m2scorer, "--format m2scorer")):
                if given:
                    raise typer.BadParameter("is for one system; score the others separately",
                                             param_hint=f"'{flag}'")
            _score_systems(hypotheses, gold, output_format, strict, beta=beta,
                           max_unchanged_words=max_unchanged_words,
                           ignore_whitespace_casing=ignore_whitespace_casing, max_edges=max_edges,
                           segment=segment, segmenter=segmenter, segment_map=segment_map,
                           tokenize=tokenize.value if tokenize else None, resampling=resampling,
                           mode=mode, bonus=bonus, engine=running)
            return
        hypothesis = hypotheses[0]
        scoring = _scoring(hypothesis, gold, beta=beta, max_unchanged_words=max_unchanged_words,
                           ignore_whitespace_casing=ignore_whitespace_casing,
                           per_sentence=per_sentence is not None, segment=segment,
                           max_edges=max_edges, tokenize=tokenize.value if tokenize else None,
                           per_type=per_type, keep_counts=ci, mode=mode, bonus=bonus,
                           segmenter=segmenter, segment_map=segment_map, engine=running)
        with ExitStack() as stack:
            # the trace is held back until the counts are known to match (no partial output)
            trace = stack.enter_context(tempfile.SpooledTemporaryFile(8 << 20, "w+", encoding="utf-8")) if verbose else None
            with user_errors():
                for scored in _with_progress(scoring, hypothesis, enabled=not verbose):
                    if trace is not None:
                        trace.write(describe_sentence(scored))
                result = significance.resample([scoring.result()], **resampling)[0]
                _input_warnings([result], strict)
                if per_sentence is not None:
                    with atomic_output(per_sentence) as fh:
                        write_per_sentence(result, fh)
            if trace is not None:
                trace.seek(0)
                out = sys.stderr if output_format is ScoreFormat.json else sys.stdout
                for chunk in iter(lambda: trace.read(1 << 16), ""):
                    typer.echo(chunk, file=out, nl=False)
        if output_format in (ScoreFormat.tsv, ScoreFormat.latex):
            typer.echo(format_systems(system_names([hypothesis]), [result], output_format.value))
        else:
            typer.echo(format_result(result, output_format.value))
        for number in result.warnings[:1]:
            typer.echo(f"gecformats: {gold}: sentence {number} (and {len(result.warnings) - 1} more) has "
                       "annotator ids the NUS scorer may visit in another order", err=True)


def _score_errant(hypotheses: list[str], gold: str, output_format: ScoreFormat, *, mode: str,
                  beta: float, single: bool, multi: bool, filters: list[str],
                  cat: Optional[int], refused: dict[str, bool]) -> None:
    """The ``score --metric errant`` command: one system, as ``errant_compare``."""
    from gecformats.metrics import errant

    if mode not in errant.MODES:
        raise typer.BadParameter(f"{mode!r} is not one of {', '.join(errant.MODES)} "
                                 "with --metric errant", param_hint="'--mode'")
    if single and multi:
        raise typer.BadParameter("--single and --multi exclude each other",
                                 param_hint="'--single' / '--multi'")
    for flag, given in refused.items():
        if given:
            raise typer.BadParameter("goes with --metric m2", param_hint=f"'{flag}'")
    if len(hypotheses) > 1:
        raise typer.BadParameter("--metric errant scores one system at a time",
                                 param_hint="'HYP...'")
    if output_format not in (ScoreFormat.text, ScoreFormat.json, ScoreFormat.errant):
        raise typer.BadParameter("--metric errant gives text, json or errant",
                                 param_hint="'--format'")
    with user_errors():
        result = errant.errant_files(hypotheses[0], gold, mode=mode, beta=beta, single=single,
                                     multi=multi, filter=filters)
        problem = result.type_problem(cat) if cat else None
        if problem is not None:
            raise GecFormatError(problem[0], (hypotheses[0], gold)[problem[1]])
    if result.extracted:
        typer.echo(f"gecformats: warning: {errant.extraction_warning(hypotheses[0])}", err=True)
    if output_format is ScoreFormat.errant:
        typer.echo(errant.format_errant(result, cat), nl=False)
    elif output_format is ScoreFormat.json:
        typer.echo(json.dumps(result.to_dict(cat), ensure_ascii=False, indent=2))
    else:
        typer.echo(errant.format_text(result, cat))


def _input_warnings(results: list[Any], strict: bool) -> None:
    """Print why a hypothesis looks tokenized unlike the gold, and what makes the gold's
    number doubtful (each once); with ``strict``, stop (1) on the first of the former and on
    an impossible score."""
    for warning in (w for r in results for w in r.input_warnings):
        if strict:
            raise GecFormatError(warning)
        typer.echo(f"gecformats: warning: {warning}", err=True)
    shown: set[str] = set()
    for r in results:
        for warning in r.gold_warnings:
            if strict and r.impossible and "overstated" in warning:
                raise GecFormatError(warning)
            if warning not in shown:
                shown.add(warning)
                typer.echo(f"gecformats: warning: {warning}", err=True)


def _score_systems(hypotheses: list[str], gold: str, output_format: ScoreFormat, strict: bool, *,
                   segment: Optional[SegmentMode], segmenter: Optional[SegmenterName],
                   segment_map: Optional[str], resampling: dict[str, Any],
                   **options: object) -> None:
    """The ``score`` command for several systems: one table (with intervals and p values
    when ``resampling`` asks for them)."""
    first = _scoring(hypotheses[0], gold, segment=segment, segmenter=segmenter,
                     segment_map=segment_map, **options)
    with user_errors():
        try:
            results = score_systems(hypotheses, gold, segment=first.segment,
                                    segmenter=first.segmenter, segment_map=first.segment_map,
                                    keep_counts=bool(resampling["ci"] or resampling["test"]),
                                    **options)
        except GecFormatError:
            raise
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        _input_warnings(results, strict)
        results = significance.resample(results, **resampling)
    typer.echo(format_systems(system_names(hypotheses), results, output_format.value))


def _scoring(hypothesis: str, gold: str, *, segment: Optional[SegmentMode],
             segmenter: Optional[SegmenterName], segment_map: Optional[str],
             **options: object) -> Scoring:
    """The :class:`Scoring` of the ``score`` command; a bad segmentation option exits 2 with
    a usage message."""
    if segment is None and (segmenter is not None or segment_map is not None):
        raise typer.BadParameter("needs --segment project", param_hint="'--segmenter' / '--segment-map'")
    mapping = None
    if segment_map is not None:
        from gecformats.convert.project import parse_map

        try:
            mapping = parse_map(segment_map)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="'--segment-map'") from None
    return Scoring(hypothesis, gold, segment=segment.value if segment is not None else None,
                   segmenter=segmenter.value if segmenter is not None else "zh",
                   segment_map=mapping, **options)  # type: ignore[arg-type]


def _with_progress(scoring: Scoring, hypothesis: str, enabled: bool) -> Iterator[ScoredSentence]:
    """``scoring``'s sentences, with a progress bar on standard error if it is a terminal."""
    total = count_lines(hypothesis) if enabled and sys.stderr.isatty() else None
    if total is None:
        yield from scoring
        return
    yield from with_progress(scoring, total)


def with_progress(items: Iterable[T], total: int, label: str = "scoring") -> Iterator[T]:
    """``items``, with a progress bar on standard error that starts once the first item is
    ready: set-up (loading jieba, reading the gold) is not counted against the first item,
    so the estimated time left is the per-item rate times the items left."""
    it = iter(items)
    first = next(it, _NOTHING)
    if first is _NOTHING:
        return
    with typer.progressbar(length=total, label=label, file=sys.stderr) as bar:
        bar.update(1)
        yield first  # type: ignore[misc]
        for item in it:
            bar.update(1)
            yield item


_NOTHING = object()
T = TypeVar("T")


# choices named once, in the library
GleuVersion = Enum("GleuVersion", [(v, v) for v in GLEU_VERSIONS], type=str)  # type: ignore[misc]
Absent = Enum("Absent", [(a, a) for a in GLEU_ABSENT], type=str)  # type: ignore[misc]


class IevalOptimise(str, Enum):
    sentence = "sentence"
    corpus = "corpus"


class TextOrJson(str, Enum):
    text = "text"
    json = "json"


@app.command()
def gleu(
    hypotheses: list[str] = typer.Argument(
        ..., metavar="HYP...", help="System outputs, one tokenised sentence per line ('-': standard input)."
    ),
    source: Optional[str] = typer.Option(
        None, "--source", help="The source sentences, one tokenised sentence per line "
        "(optional with --gold: the gold's source sentences)."
    ),
    ref: list[str] = typer.Option(
        [], "--ref", metavar="REF", help="A reference file, line-aligned with the source (repeat for several)."
    ),
    gold: list[str] = typer.Option(
        [], "--gold", metavar="GOLD", help="Generate the references from an M2 or I-measure XML gold "
        "file instead (repeatable): each annotator's corrected text, or with --mixed every "
        "combination of alternatives."
    ),
    version: GleuVersion = typer.Option(
        GleuVersion(DEFAULT_VERSION), "--version", help="2015: GLEU of the ACL 2015 paper (code 24c806a); "
        "2016: the corrected denominator (6ddf913); plus: GLEU+ with the brevity-penalty fix "
        "(50b5032); plus-2016: GLEU+ as first released (f0e2ee5)."
    ),
    lam: Optional[float] = typer.Option(
        None, "--lambda", help="Versions 2015 and 2016: weight of the penalty for n-grams left "
        "unchanged where a reference changed them (default 0)."
    ),
    order: int = typer.Option(ORDER, "--order", help="Version 2015 only: highest n-gram order (its mean keeps 1/4)."),
    iterations: Optional[int] = typer.Option(
        None, "--iterations", help="GLEU+: sampling iterations (default 500; 1 when every sentence has one reference)."
    ),
    mixed: bool = typer.Option(False, "--mixed", help="With --gold: all mixed references, not one per annotator."),
    absent: Absent = typer.Option(
        Absent("auto"), "--absent", help="With --gold: what an annotator missing from a sentence "
        "where another made edits gets: the source, or the first annotator's correction "
        "('first', right for the CoNLL-2014 combined file, which omits duplicate lists). "
        "auto: 'first' for a file that writes noop lines beside other annotators' edits (as "
        "that file), else 'source'; the note says which."
    ),
    max_references: int = typer.Option(
        10_000, "--max-references", help="With --mixed: the most references used per sentence (reported)."
    ),
    gold_format: Optional[str] = typer.Option(None, "--gold-format", help=FORMAT_HELP),
    sentence_level: bool = typer.Option(
        False, "--sentence-level", help="Also score each sentence (GLEU+: the mean, deviation "
        "and interval over its references of the smoothed sentence GLEU)."
    ),
    ci: bool = typer.Option(
        False, "--ci", help="GLEU+, text output: add the standard deviation over iterations and the 95% interval."
    ),
    output_format: TextOrJson = typer.Option(
        TextOrJson.text, "--format", help="text (SYSTEM<TAB>SCORE lines and a '#' signature line) or json."
    ),
) -> None:
    """Score system outputs with GLEU, in the version you name (the signature says which).

    Reproduces the original cnap/gec-ranking code of each version digit for digit.  Text
    output is SYSTEM<TAB>SCORE per hypothesis (the file's base name), ready for `gecformats
    correlate`; json is {"results": [{"hypothesis", "system", "score", ...}], "signature",
    "settings"}.  Notes on generated references go to standard error.  Exit status: 0
    scored, 1 bad input data (malformed, misaligned or unreadable), 2 bad usage.
    """
    if ci and not version.value.startswith("plus"):
        raise typer.BadParameter("only GLEU+ samples (use --version plus)", param_hint="'--ci'")
    with user_errors():
        try:
            run = gleu_files(source, hypotheses, refs=ref, gold=gold, mixed=mixed,
                             gold_format=gold_format, version=version.value, lam=lam,
                             order=order, iterations=iterations,
                             sentence_level=sentence_level, max_references=max_references,
                             absent=absent.value)
        except GecFormatError:
            raise
        except ValueError as exc:
            typer.echo(f"gecformats: {exc}", err=True)
            raise typer.Exit(2) from None
    for note in run.notes:
        typer.echo(f"gecformats: note: {note}", err=True)
    if output_format is TextOrJson.json:
        typer.echo(json.dumps(run.to_dict(), ensure_ascii=False, indent=2))
    else:
        typer.echo(format_gleu(run, ci=ci))


class IevalFormat(str, Enum):
    ieval = "ieval"
    json = "json"
    tsv = "tsv"


@app.command()
def imeasure(
    hypotheses: list[str] = typer.Argument(
        ..., metavar="HYP...", help="System outputs, one tokenised sentence per line; several "
        "are scored against the gold read once."
    ),
    gold: str = typer.Option(..., "--gold", help="The gold: I-measure XML, or M2 (grouped into "
                             "loci as 'convert --to ixml --grouping imeasure' does)."),
    gold_format: Optional[str] = typer.Option(None, "--gold-format", help="ixml or m2 (default: "
                                              "from the suffix or first line)."),
    maximise: str = typer.Option(
        "cwacc", "--maximise", help="What the reference of each sentence maximises (ieval's "
        "-max:): d (detection) or c (correction) followed by tp, tn, fp, fn, p, r, f, acc, "
        "wacc or i."),
    optimise: IevalOptimise = typer.Option(
        IevalOptimise.sentence, "--optimise", help="Choose each sentence's reference by its "
        "own scores, or by the running corpus totals (ieval's -opt:)."),
    no_mix: bool = typer.Option(False, "--no-mix", help="One reference per annotator instead "
                                "of every mix of alternatives (ieval's -nomix)."),
    beta: float = typer.Option(1.0, "--beta", help="Beta of F (ieval's -b:)."),
    weight: float = typer.Option(2.0, "--weight", help="Weight w of WAcc (ieval's -w:)."),
    per_sentence: bool = typer.Option(False, "--per-sentence", help="Also give each "
                                      "sentence's results (ieval's -per-sent)."),
    enumerate_max: int = typer.Option(
        64, "--enumerate-max", min=0, help="Sentences with more reference combinations "
        "than this are scored by a search over their loci instead of trying every reference "
        "(the original's way; it cannot finish CoNLL-2014 sentence 333's 2^34)."),
    max_cells: int = typer.Option(
        80_000_000, "--max-cells", min=1, help="The most alignment-table cells one sentence "
        "may fill (a computed one counts 4; at most about 12 bytes and 0.1 µs each); a sentence "
        "past it (a hypothesis several times longer than its source) stops scoring with an "
        "error naming it, never a different score."),
    output_format: IevalFormat = typer.Option(
        IevalFormat.ieval, "--format", help="ieval: the original's tables, byte for byte (one "
        "block per system); json: the numbers and the signature; tsv: one row per system."),
) -> None:
    """Score systems with the I-measure (Felice & Briscoe 2015), as ieval.py does.

    Exit status: 0 scored, 1 bad input data, 2 bad usage.
    """
    from gecformats.metrics import imeasure as im  # lazily

    try:
        im.check_maximise(maximise.lower())
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--maximise'") from None
    for hint, value in (("'--beta'", beta), ("'--weight'", weight)):
        if not 0 < value <= im.MAX_PARAMETER:  # also false for NaN
            raise typer.BadParameter(f"must be a number > 0 and at most {im.MAX_PARAMETER:g}, "
                                     f"not {value}", param_hint=hint)
    with user_errors():
        systems = im.evaluate_files(hypotheses, gold, gold_format=gold_format,
                                    maximise=maximise.lower(), optimise=optimise.value,
                                    mix=not no_mix, beta=beta, weight=weight,
                                    enumerate_max=enumerate_max, max_cells=max_cells)
    if output_format is IevalFormat.json:
        typer.echo(json.dumps(im.to_json(systems, per_sentence), ensure_ascii=False, indent=2))
    elif output_format is IevalFormat.tsv:
        typer.echo(im.format_tsv(systems), nl=False)
    else:
        typer.echo("".join(im.format_ieval(s, gold, per_sentence) for s in systems), nl=False)


@app.command()
def correlate(
    scores: str = typer.Argument(
        ..., help="The metric's scores: what 'gecformats score', 'gleu' or 'imeasure' write "
        "(text, TSV with a header, JSON), or 'SYSTEM VALUE' per line ('-' for standard input)."
    ),
    human: str = typer.Argument(
        ..., help="The human judgements, same format; a header 'system<TAB>rank' marks ranks "
        "(e.g. fixtures/gleu/human-napoles2015.tsv)."
    ),
    column: Optional[str] = typer.Option(
        None, "--column", metavar="NAME",
        help="The column (or JSON key) of SCORES to correlate, by its header name, e.g. f, "
        "precision, recall, c_i. Default: the metric's main score (F0.5 of score, GLEU, I of "
        "imeasure), or the only column of numbers.",
    ),
    human_column: Optional[str] = typer.Option(
        None, "--human-column", metavar="NAME",
        help="The column of HUMAN to correlate with (default: as for --column; 'rank').",
    ),
    exclude: Optional[list[str]] = typer.Option(
        None, "--exclude", metavar="NAME",
        help="Leave this system out of both (repeat for more), e.g. INPUT; the table then "
        "shows the correlations with and without it.",
    ),
    output_format: TextOrJson = typer.Option(
        TextOrJson.text, "--format", help="text (the columns read, then a table, 3 decimals) "
        "or json."
    ),
) -> None:
    """Correlate a metric's system scores with human judgements: Pearson r, Spearman rho,
    Kendall tau-b (tie-corrected, as scipy.stats computes them).

    Systems are matched by name (the first field of each line; blank lines and '#' lines
    are ignored; a first line whose second field is not a number is a header naming the
    columns). The value is the column --column names, by default the metric's main score; a
    table with several columns of numbers and none known as the main score is refused.
    Values are scores, higher = better, unless the column is 'rank': ranks (1 = best)
    are negated before correlating, so a positive correlation always means that the metric
    agrees with the humans. Every system must be in both files (or be --exclude'd). The
    first line of the output names the columns read.

    Exit status: 0 done, 1 bad input data (malformed or unreadable files, systems that do
    not match), 2 bad usage (a column that is not there, or a table whose column must be
    named).
    """
    from gecformats.metrics.correlate import (correlate as correlate_scores, correlation_json,
                                              describe_columns, format_table, read_scores)

    excluded = list(dict.fromkeys(exclude or ()))
    everything = None
    with user_errors():
        metric_scores = read_scores(scores, column)
        human_scores = read_scores(human, human_column, option="--human-column")
        result = correlate_scores(metric_scores, human_scores, exclude=excluded)
        if excluded:
            try:
                everything = correlate_scores(metric_scores, human_scores)
            except GecFormatError as exc:  # e.g. an excluded system is in one file only
                typer.echo(f"gecformats: no row for all systems: {exc}", err=True)
    if output_format is TextOrJson.json:
        columns = {"metric": metric_scores.column, "human": human_scores.column}
        typer.echo(json.dumps(correlation_json(result, everything, columns),
                              ensure_ascii=False, indent=2))
    else:
        typer.echo(format_table(result, everything, excluded,
                                describe_columns(metric_scores, human_scores)))


def _reflow(doc: str) -> str:
    """A docstring with each paragraph on one line: Rich keeps single line breaks after the
    first paragraph, which wraps ``--help`` text raggedly."""
    paragraphs = inspect.cleandoc(doc).split("\n\n")
    return "\n\n".join(" ".join(p.split()) for p in paragraphs)


for _info in app.registered_commands:
    # every command: a single option given once (on top of a command's own class, if any)
    _cls = _info.cls or TyperCommand
    if not issubclass(_cls, _OnceEach):
        _info.cls = _OnceEach if _cls is TyperCommand else type(_cls.__name__, (_OnceEach, _cls), {})
    if _info.callback is not None and _info.callback.__doc__:
        _info.callback.__doc__ = _reflow(_info.callback.__doc__)


def main() -> None:
    """Entry point of the ``gecformats`` console script."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
