"""The ``gecformats`` command line: thin wrappers around the library functions."""

from __future__ import annotations

import contextlib
import inspect
import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Optional, TypeVar

import typer
from typer.core import TyperCommand, TyperGroup, TyperOption

from gecformats import __version__, formats
from gecformats.errors import GecFormatError, UsageError
from gecformats.cli.options import (FORMAT_HELP, ConvertAbsent, Deletion, EditTypes, EngineName,
                                    Grouping, Mapping, SplitterName, Targets, TokenizerName)


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


from gecformats.cli import stats  # noqa: E402, F401  (registers it here)


from gecformats.cli import validate  # noqa: E402, F401  (registers it here)


from gecformats.cli import refs  # noqa: E402, F401  (registers it here)


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

# registers `score` here, after refs (the order of --help), once the machinery it uses is defined
from gecformats.cli import score  # noqa: E402, F401


from gecformats.cli import gleu  # noqa: E402, F401  (registers it here)


from gecformats.cli import imeasure  # noqa: E402, F401  (registers it here)


from gecformats.cli import correlate  # noqa: E402, F401  (registers it here)


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
