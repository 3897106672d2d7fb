"""``gecformats convert``: one format to another, through the edit model."""

from __future__ import annotations

import os
from typing import Annotated, Any, Optional

import typer

from gecformats import formats
from gecformats.cli import _engine, app, user_errors, warn_reading
from gecformats.cli.options import SpacyModelOpt
from gecformats.cli.options import (ConvertAbsent, Deletion, EditTypes, EngineName,
                                    FromOpt, Grouping, Mapping, SplitterName, Targets,
                                    TokenizerName)
from gecformats.errors import UsageError, install_hint
from gecformats.io import write_json
from gecformats.report import report_json

InputArg = Annotated[str, typer.Argument(
    help="Input file ('-' for standard input, needs --from); for HOO a text or gold "
    "file of one document, or a directory with Raw/ and Gold/.")]
OutputArg = Annotated[str, typer.Argument(
    help="Output file ('-' for standard output); for HOO a directory.")]
ToOpt = Annotated[Optional[str], typer.Option(
    "--to", help="Format name (those of --from); inferred from the suffix if omitted.")]
DeletionOpt = Annotated[Deletion, typer.Option(
    help="M2 output: spell deletions as read (keep), as an empty field, or -NONE-.")]
TargetsOpt = Annotated[Targets, typer.Option(
    help="M2 output of ChERRANT files: keep T lines and every alignment; 'first' alignment "
    "of each reference only (what the NUS scorer reads); 'split' every alignment into an "
    "annotator of its own.")]
TokenizerOpt = Annotated[Optional[TokenizerName], typer.Option(
    help="HOO or parallel text → M2: how to tokenize (en: nltk Penn Treebank words, "
    "the default; zh: jieba; char; space; unicode: language-neutral words and punctuation). M2 → HOO or text: what the tokens are (zh/char "
    "are joined without spaces). M2 → M2: 'char' splits words into characters.")]
RefOpt = Annotated[Optional[list[str]], typer.Option(
    "--ref", metavar="REF.txt",
    help="--from parallel: a corrected file, line-aligned with INPUT (repeat for more "
    "references; reference k becomes annotator k). --from multigec: a refN .md file, "
    "joined by essay id.")]
AnnOpt = Annotated[Optional[list[str]], typer.Option(
    "--ann", metavar="FILE",
    help="--from nucle: a further annotator's SGML file of the same essays (repeat; file "
    "k is annotator k, INPUT annotator 0), combined the CoNLL way with --mapping conll. "
    "--from conll: the annotation file (.conll.ann; default INPUT.ann; repeat for more "
    "annotators). --from uagec: another annotator's NNNN.aK.ann of INPUT's document.")]
AltOpt = Annotated[Optional[list[str]], typer.Option(
    "--alt", metavar="FILE",
    help="--from nucle: a participants' alternative-annotation file (CoNLL-2014's "
    "alternative-team*.sgml: mistakes only, for the sentences it corrects another way); "
    "it annotates only those sentences (repeat for more).")]
AlternativeOpt = Annotated[int, typer.Option(
    min=0, help="M2 → text: which alternative correction (||) of each edit to apply.")]
AbsentOpt = Annotated[Optional[ConvertAbsent], typer.Option(
    "--absent", help="M2 → text: what an annotator absent from a sentence gets: the "
    "source, the first present annotator's correction ('first', right for the CoNLL-2014 "
    "combined file), or nothing ('skip', nlpcc only). Default: parallel and tsv "
    "write the source, or 'first' for a file that writes noop lines beside other "
    "annotators' edits (as that file); nlpcc leaves it out.")]
TypesOpt = Annotated[Optional[EditTypes], typer.Option(
    help="Text → M2: edit type names (errant: M/U/R/R:WO, the default for en and "
    "space; nlpcc: M/R/S/W, the default for zh and char).")]
SplitSubstitutionsOpt = Annotated[bool, typer.Option(
    help="Text → M2: an n → n token replacement becomes one edit per changed token "
    "(as CoNLL annotators wrote them) instead of one merged edit.")]
T2sOpt = Annotated[bool, typer.Option(
    "--t2s", help="Text → M2: convert references from traditional to simplified "
    "Chinese first (needs opencc, zhconv or hanziconv installed).")]
StripEdgesOpt = Annotated[bool, typer.Option(
    help="--from nlpcc: strip U+FEFF, U+200B, U+3000 and spaces at field edges.")]
JobsOpt = Annotated[int, typer.Option(
    "--jobs", "-j", min=0, help="Text → M2: worker processes (0: one per CPU); the "
    "output does not depend on it.")]
EngineOpt = Annotated[EngineName, typer.Option(
    "--engine", help="local (this machine, --jobs) or dask (a Dask "
    f"cluster: needs {install_hint('dask')}): text → M2, M2 → text, words → "
    "characters and HOO/NUCLE/BEA/FCE → M2 are shared out sentence by sentence, other "
    "conversions run whole on a worker; the output is the same.")]
SchedulerOpt = Annotated[Optional[str], typer.Option(
    "--scheduler", metavar="ADDRESS", help="--engine dask: the scheduler's address "
    "(tcp://host:8786); without it a local cluster is started and stopped.")]
WorkersOpt = Annotated[Optional[int], typer.Option(
    "--workers", min=1, help="--engine dask without --scheduler: local workers "
    "(default: one per CPU).")]
PartitionsOpt = Annotated[Optional[int], typer.Option(
    "--partitions", min=1, help="--engine dask: cut the input into this many tasks "
    "(default: tasks of 2,048 sentences).")]
ShardsOpt = Annotated[Optional[int], typer.Option(
    "--shards", min=0, help="Write OUTPUT as a folder of this many parts "
    "(part-00000.m2 …) with a manifest.json (counts, checksums, versions; complete only "
    "at the end); INPUT may then be a quoted glob of input files ('in/*.tsv'). 0: one "
    "part per input file, each converted on its own (on the Dask workers in parallel).")]
ResumeOpt = Annotated[bool, typer.Option(
    "--resume", help="With --shards: continue a run that stopped, keeping the "
    "parts its manifest lists with their checksums.")]
SentencesOpt = Annotated[SplitterName, typer.Option(
    help="HOO → M2: sentence splitting (punkt: line breaks + Punkt with "
    "a built-in abbreviation list; lines: one sentence per line).")]
TextOpt = Annotated[Optional[str], typer.Option(
    help="M2 → HOO: the original text file, or a directory of texts (its Raw/), one "
    "document each in name order; default: the tokens joined by spaces, one sentence per line.")]
ShrinkOpt = Annotated[Optional[bool], typer.Option(
    "--shrink/--no-shrink", help="HOO/NUCLE → M2: trim tokens an edit's original "
    "and correction share (as CoNLL did) instead of keeping the annotator's span; words → "
    "characters: trim shared characters. Default: on with --mapping conll.")]
MappingOpt = Annotated[Optional[Mapping], typer.Option(
    help="Characters → tokens: exact (the M2 edit does what the character edit "
    "does, without gluing words; the default for HOO) or conll (as the NUCLE → M2 "
    "conversion of CoNLL-2013/14, which it reproduces: the default for NUCLE).")]
GroupingOpt = Annotated[Grouping, typer.Option(
    help="I-measure XML output: how edits become loci (components: "
    "connected overlap; imeasure: the original m2_to_ixml rule).")]
ReportOpt = Annotated[Optional[str], typer.Option(
    "--report", metavar="R.json",
    help="Write a JSON report: the counts read and written, what was dropped, the "
    "cases of HOO or text → M2 and M2 → text.")]
QuietOpt = Annotated[bool, typer.Option(
    "--quiet", "-q", help="Print nothing unless something was lost.")]
StrictOpt = Annotated[bool, typer.Option(
    "--strict", help="Refuse any loss: exit 1, nothing written.")]


UnitOpt = Annotated[Optional[str], typer.Option(
    "--unit", metavar="essay|line|sentence|essay-syntok", help="--from multigec: what a "
    "sentence is: an essay (the default, as the shared task scored), a line, a sentence "
    "with the aligned part of each reference, or an essay as syntok tokenizes it (README).")]
ExtractorOpt = Annotated[str, typer.Option(
    "--extractor", metavar="lcs|native|errant", help="Text or documents → M2: lcs "
    "(gecformats' aligner), native (ERRANT's rules on guessed word classes) or errant "
    f"(ERRANT's own edits and types, as errant_parallel; {install_hint('errant')}).")]


@app.command()
def convert(
    input: InputArg,
    output: OutputArg,
    from_format: FromOpt = None,
    to_format: ToOpt = None,
    deletion: DeletionOpt = Deletion.keep,
    targets: TargetsOpt = Targets.keep,
    tokenizer: TokenizerOpt = None,
    refs: RefOpt = None,
    ann: AnnOpt = None,
    alt: AltOpt = None,
    alternative: AlternativeOpt = 0,
    absent: AbsentOpt = None,
    types: TypesOpt = None,
    split_substitutions: SplitSubstitutionsOpt = False,
    simplify: T2sOpt = False,
    strip_edges: StripEdgesOpt = False,
    jobs: JobsOpt = 1,
    engine: EngineOpt = EngineName.local,
    scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
    partitions: PartitionsOpt = None,
    shards: ShardsOpt = None,
    resume: ResumeOpt = False,
    sentences: SentencesOpt = SplitterName.punkt,
    text: TextOpt = None,
    shrink: ShrinkOpt = None,
    mapping: MappingOpt = None,
    grouping: GroupingOpt = Grouping.components,
    report_path: ReportOpt = None,
    quiet: QuietOpt = False, strict: StrictOpt = False,
    extractor: ExtractorOpt = "lcs",
    spacy_model: SpacyModelOpt = None, unit: UnitOpt = None,
) -> None:
    """Convert INPUT to OUTPUT (format → edit model → format). The output appears whole or not at all.

    HOO (character offsets) → M2 (tokens) tokenizes with --tokenizer and --sentences, prints a
    summary and lists in --report every edit that could not be carried over exactly.

    Parallel text (parallel, tsv, nlpcc, cherrant) → M2 extracts one annotator's edits per
    reference: `convert SRC.txt OUT.m2 --from parallel --ref REF1.txt --ref REF2.txt`.
    M2 → parallel writes OUTPUT/source.txt and OUTPUT/annotator-<id>.txt.
    """
    with user_errors():
        from_format, to_name = _format_names(input, output, from_format, to_format, refs, shards)
        options = _writer_options(to_name, deletion, targets, grouping, refs, ann, alt, strip_edges, unit)
        from gecformats.convert import convert as convert_file  # lazily: every format
        with _running(engine, jobs, scheduler, workers, partitions, shards, resume) as running, \
                _extraction_bar(input, from_format, refs, quiet or output == "-") as progress:
            report = convert_file(input, output, from_format=from_format, to_format=to_name,
                                  tokenizer=_value(tokenizer), sentences=sentences.value, text=text,
                                  shrink=shrink, mapping=_value(mapping), alternative=alternative,
                                  types=_value(types), absent=_value(absent), simplify=simplify,
                                  split_substitutions=split_substitutions, jobs=jobs,
                                  engine=running, shards=shards, resume=resume, progress=progress,
                                  extractor=extractor, spacy_model=spacy_model, strict=strict, **options)
        if report_path is not None:
            write_json(report_json(report), report_path)
    _print_report(report, output, to_name, report_path, quiet)


def _extraction_bar(input: str, from_format: str | None, refs: list[str] | None,
                    quiet: bool) -> Any:
    """A progress bar for edit extraction from a one-sentence-per-line text file (parallel
    text with --ref, tsv, nlpcc: the long conversion, ERRANT's above all), on a terminal
    only; else no bar."""
    from gecformats.cli import progress_bar
    from gecformats.metrics.score import count_lines

    lines = count_lines(input) if (refs or from_format in ("tsv", "nlpcc")) \
        and os.path.isfile(input) else None
    return progress_bar(lines, enabled=not quiet, label="extracting")


def _format_names(input: str, output: str, from_format: str | None, to_format: str | None,
                  refs: list[str] | None, shards: int | None) -> tuple[str | None, str]:
    """The formats ``convert`` reads and writes: ``--from`` (inferred from INPUT unless
    ``--ref`` gives parallel text) and ``--to`` (for standard output, INPUT's format if it
    is tokens, else M2; otherwise inferred from OUTPUT).

    Raises:
        UsageError: a format that cannot be inferred.
    """
    if from_format is None and not refs:
        from_format = formats.infer_input(
            input, f"gecformats convert {input} {output} --from {{format}}")
    warn_reading(from_format)
    if to_format is None and output == "-":
        to_format = from_format if formats.get(from_format or "m2").UNIT == "token" else "m2"
    return from_format, to_format or _output_format(output, shards)


def _writer_options(to_name: str, deletion: Deletion, targets: Targets, grouping: Grouping,
                    refs: list[str] | None, ann: list[str] | None, alt: list[str] | None,
                    strip_edges: bool, unit: str | None = None) -> dict[str, object]:
    """The keyword options of the library's ``convert`` that only some formats take: those
    of the M2 and I-measure XML writers, the further inputs given and the MultiGEC unit."""
    options: dict[str, object] = {}
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
    if unit is not None:
        options["unit"] = unit
    return options


def _running(engine: EngineName, jobs: int, scheduler: str | None, workers: int | None,
             partitions: int | None, shards: int | None, resume: bool) -> Any:
    """The engine of the run (:func:`gecformats.cli._engine`), once the options are known to
    go together (:func:`_refuse_combinations`)."""
    _refuse_combinations(engine, jobs, scheduler, workers, partitions, shards, resume)
    return _engine(engine, scheduler, workers, partitions)


def _refuse_combinations(engine: EngineName, jobs: int, scheduler: str | None,
                         workers: int | None, partitions: int | None, shards: int | None,
                         resume: bool) -> None:
    """Refuse the options that do not go together.

    Raises:
        UsageError: ``--resume`` without ``--shards``, a Dask option without ``--engine
            dask``, or ``--jobs`` with it.
    """
    if resume and shards is None:
        raise UsageError("--resume continues a --shards run")
    if engine is EngineName.local and (scheduler or workers or partitions):
        raise UsageError("--scheduler, --workers and --partitions need --engine dask")
    if engine is EngineName.dask and jobs != 1:
        raise UsageError("--jobs is for --engine local; a Dask cluster has its workers")


def _value(choice: Any) -> str | None:
    """The name an optional choice stands for, or None."""
    return choice.value if choice else None


def _print_report(report: Any, output: str, to_name: str, report_path: str | None,
                  quiet: bool) -> None:
    """Tell on standard error what the conversion did: its summary (with ``quiet`` only if
    something was dropped), kept overlaps, the report's lines and what was written."""
    # -q keeps the summary when it tells of something dropped
    if report.conversion is not None and (not quiet or report.conversion.dropped):
        typer.echo(f"gecformats: {_conversion_summary(report.conversion, report_path)}", err=True)
    if report.counts is not None:  # even with -q
        where = f"every count in {report_path}" if report_path is not None \
            else "every count with --report R.json"
        for lost, what, strict in ((True, "fewer", "; --strict refuses this"), (False, "more", "")):
            line = report.counts.summary(lost=lost)
            if line:
                typer.echo(f"gecformats: the output holds {what} than the input: {line} "
                           f"({where}{strict})", err=True)
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
    """What ``format_name`` holds: documents (the formats of character offsets) or sentences."""
    module = formats.FORMATS.get(format_name or "")
    return "documents" if module is not None and module.UNIT == "char" else "sentences"
