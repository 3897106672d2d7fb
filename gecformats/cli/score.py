"""``gecformats score``: every metric, several systems, intervals and paired tests, one table.

The command only parses and prints: the metrics, the refusals of options no chosen metric
takes, the run and the outputs are :mod:`gecformats.metrics.request`'s.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from gecformats.cli import app
from gecformats.cli.options import Absent, AlignOpt, SentenceCheckOpt, SpacyModelOpt, UnitOpt
from gecformats.errors import install_hint
from gecformats.cli.options import (EngineName, EngineOpt, HypTokenizer, JobsOpt, MetricName,
                                    SchedulerOpt, ScoreFormat, SegmenterName, SegmentMode,
                                    WorkersOpt)

# ---------------------------------------------------------------- inputs and output
HypothesesArg = Annotated[list[str], typer.Argument(
    metavar="HYP...", help="System outputs: one tokenised sentence per line (.gz read "
    "transparently; '-' for standard input), or M2 files (their first annotator's edits); "
    "the first is the baseline of a paired test.")]
GoldOpt = Annotated[Optional[str], typer.Option(
    "--gold", help="The gold file (M2; or --gold-format). Or --source and --ref.")]
SourceOpt = Annotated[Optional[str], typer.Option(
    "--source", metavar="SRC", help="Instead of --gold: source sentences, one a line, "
    "with --ref.")]
RefOpt = Annotated[Optional[list[str]], typer.Option(
    "--ref", metavar="REF", help="With --source: a corrected text (repeat: reference k is "
    "annotator k).")]
GoldFormatOpt = Annotated[Optional[str], typer.Option(
    "--gold-format", metavar="FORMAT", help="The gold's format when its name does not tell "
    "(m2, ixml, conll).")]
MetricOpt = Annotated[Optional[list[MetricName]], typer.Option(
    "--metric", metavar="NAME", help="m2 (default), errant, gleu, imeasure, green, "
    "gotoscorer, sentm2, senterrant, cleme, cleme2. Repeat: a column group each.")]
FormatOpt = Annotated[ScoreFormat, typer.Option(
    "--format", help="text, json, tsv, csv or latex (a table); m2scorer (NUS's three "
    "lines; M2, one system), errant (errant_compare's; ERRANT, one system).")]
OutputsOpt = Annotated[Optional[list[str]], typer.Option(
    "--output", "-o", metavar="FILE", help="The table to FILE too, format by suffix: .txt "
    ".json .tsv .csv .tex (repeat; stdout: only a --format given).")]
PerSentenceOpt = Annotated[Optional[str], typer.Option(
    "--per-sentence", metavar="FILE.tsv", help="Each sentence's chosen candidate and counts "
    "per system and metric (TSV; '-': stdout).")]
TokenizeOpt = Annotated[Optional[HypTokenizer], typer.Option(
    "--tokenize", help="en: raw English, tokenized like the CoNLL gold; zh: raw Chinese "
    "against a `convert --tokenizer zh` gold.")]
SegmentOpt = Annotated[Optional[SegmentMode], typer.Option(
    "--segment", help="project: raw Chinese (NLPCC 2018), cut like the gold.")]
SegmenterOpt = Annotated[Optional[SegmenterName], typer.Option(
    "--segmenter", help="With --segment project: for strings the gold never cut (zh: "
    "jieba, default; char).")]
SegmentMapOpt = Annotated[Optional[str], typer.Option(
    "--segment-map", metavar="PAIRS", help="With --segment project: characters to replace "
    "(pairs FROM TO; '' for none; default: the NLPCC pairs the gold shows).")]
StrictOpt = Annotated[bool, typer.Option(
    "--strict", help="Warnings about the input (tokenization, gold edits past the end …) "
    "are errors.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]
AnnotatorOpt = Annotated[Optional[int], typer.Option(
    "--annotator", metavar="K", help="Score against annotator K of the gold alone.")]
AbsentOpt = Annotated[Optional[Absent], typer.Option(
    "--absent", help="--annotator, gleu: what an absent annotator gets (auto: by the gold's "
    "noop lines).")]
# ---------------------------------------------------------------- m2 (and errant)
BetaOpt = Annotated[Optional[float], typer.Option(
    "--beta", help="m2, sentm2, errant, senterrant: beta of F-beta (default 0.5).")]
MaxUnchangedOpt = Annotated[Optional[int], typer.Option(
    "--max-unchanged-words", help="m2, sentm2: most unchanged source tokens inside one "
    "system edit (default 2).")]
IgnoreWsOpt = Annotated[bool, typer.Option(
    "--ignore-whitespace-casing", help="m2, sentm2: ignore case- or space-only edits.")]
MaxEdgesOpt = Annotated[Optional[int], typer.Option(
    "--max-edges", min=1, help="m2, sentm2: most edges of one sentence's lattice (default "
    "2,500,000; ~310 bytes each); past it, an error.")]
ModeOpt = Annotated[Optional[str], typer.Option(
    "--mode", metavar="MODE", help="m2, sentm2: correction (default), recognition or "
    "detection (HOO's scores on the M2 lattice).")]
ErrantModeOpt = Annotated[Optional[str], typer.Option(
    "--errant-mode", metavar="MODE", help="errant, senterrant: cs (default), cse, ds or dt.")]
BonusOpt = Annotated[bool, typer.Option(
    "--bonus", help="m2, sentm2: credit optional edits left alone.")]
PerTypeOpt = Annotated[bool, typer.Option(
    "--per-type", help="m2: recall per gold error type (the exact M2 alignment and "
    "annotator choice); M2 hypotheses: precision per system type.")]
VerboseOpt = Annotated[bool, typer.Option(
    "--verbose", "-v", help="m2, one system: per sentence the source, hypothesis, edits and "
    "matches (standard error with --format json, tsv, csv, latex).")]
# ---------------------------------------------------------------- errant
SingleOpt = Annotated[bool, typer.Option("--single", help="errant, senterrant: only edits of "
                                         "at most one token on each side.")]
MultiOpt = Annotated[bool, typer.Option("--multi", help="errant, senterrant: only edits of "
                                        "two or more tokens on a side.")]
FilterOpt = Annotated[Optional[list[str]], typer.Option(
    "--filter", metavar="TYPE", help="errant, senterrant: leave out edits of this type "
    "(repeat).")]
CatOpt = Annotated[Optional[int], typer.Option(
    "--cat", min=1, max=3, help="errant: scores per category: 1 operation, 2 main type, 3 "
    "every type; needs ERRANT's types.")]
ExtractorOpt = Annotated[Optional[str], typer.Option(
    "--extractor", metavar="lcs|native|errant", help="Edits of text hypotheses and "
    "--ref golds: lcs (default), native (ERRANT's rules, no spaCy) or errant (ERRANT "
    f"itself; {install_hint('errant')}).")]
# ---------------------------------------------------------------- gleu
GleuVersionOpt = Annotated[Optional[str], typer.Option(
    "--gleu-version", metavar="VERSION", help="gleu: plus (default, GLEU+), plus-2016, plus-py3, "
    "2016 or 2015 (see `gecformats gleu --help`).")]
LambdaOpt = Annotated[Optional[float], typer.Option(
    "--lambda", help="gleu 2015/2016: the penalty weight of n-grams a reference changed.")]
IterationsOpt = Annotated[Optional[int], typer.Option(
    "--iterations", help="gleu: GLEU+ sampling iterations (default 500).")]
# ---------------------------------------------------------------- imeasure
MaximiseOpt = Annotated[Optional[str], typer.Option(
    "--maximise", metavar="ASPECT", help="imeasure: what the reference choice maximises "
    "(default cwacc: correction WAcc).")]
OptimiseOpt = Annotated[Optional[str], typer.Option(
    "--optimise", metavar="LEVEL", help="imeasure: sentence (default) or corpus.")]
# ---------------------------------------------------------------- green
GreenBetaOpt = Annotated[Optional[float], typer.Option(
    "--green-beta", metavar="BETA", help="green: beta of F-beta (default 2, gec-metrics').")]
GreenOrderOpt = Annotated[Optional[int], typer.Option(
    "--green-order", metavar="N", help="green: the highest n-gram order (default 4).")]
GreenUnitOpt = Annotated[Optional[str], typer.Option(
    "--green-unit", metavar="word|char", help="green: n-grams of words (default) or characters.")]
# ---------------------------------------------------------------- gotoscorer
GotoVersionOpt = Annotated[Optional[str], typer.Option(
    "--gotoscorer-version", metavar="V", help="gts (default), gec-metrics(-intended).")]
GotoWeightingOpt = Annotated[Optional[str], typer.Option(
    "--gotoscorer-weighting", metavar="W", help="weighted|none (default: as the original).")]
GotoRefOpt = Annotated[Optional[int], typer.Option(
    "--gotoscorer-ref", metavar="K", help="The gold annotator (default 0).")]
WeightsFromOpt = Annotated[Optional[list[str]], typer.Option(
    "--weights-from", metavar="SYS", help="A system that weighs (repeat; default: all).")]
WeightsOpt = Annotated[Optional[str], typer.Option(
    "--weights", metavar="FILE", help="Read weights (GTS file, gec-metrics JSON).")]
SaveWeightsOpt = Annotated[Optional[str], typer.Option(
    "--save-weights", metavar="FILE", help="Write them (FILE.json: gec-metrics').")]
# ---------------------------------------------------------------- cleme
ClemeAssumptionOpt = Annotated[Optional[str], typer.Option(
    "--cleme-assumption", metavar="MODE", help="dependent (default) or independent.")]
ClemeLevelOpt = Annotated[Optional[str], typer.Option(
    "--cleme-level", metavar="LEVEL", help="corpus (default) or sentence (SentCLEME).")]
ClemeWeightingOpt = Annotated[Optional[str], typer.Option(
    "--cleme-weighting", metavar="W", help="length (cleme), none (cleme2), length-sentence.")]
Cleme2FactorsOpt = Annotated[Optional[str], typer.Option(
    "--cleme2-factors", metavar="F", help="corpus (default)|sentence|class|adapt|H,W,U,O")]
# ---------------------------------------------------------------- statistics and engines
CiOpt = Annotated[bool, typer.Option(
    "--ci", help="95% bootstrap intervals of every metric's scores (each resample redoes the "
    "metric's own choice among references).")]
PairedBsOpt = Annotated[bool, typer.Option(
    "--paired-bs", help="Paired bootstrap test of each system against the first (sacrebleu).")]
PairedArOpt = Annotated[bool, typer.Option(
    "--paired-ar", help="Paired approximate randomisation test against the first system.")]
ResamplesOpt = Annotated[int, typer.Option("--resamples", min=1, help="Bootstrap resamples "
                                           "for --ci and --paired-bs.")]
TrialsOpt = Annotated[int, typer.Option("--trials", min=1, help="Trials of --paired-ar.")]
SeedOpt = Annotated[int, typer.Option("--seed", min=0, help="Seed of the resamples and trials (in the "
                                      "signature).")]
CorrectionOpt = Annotated[Optional[str], typer.Option(
    "--correction", metavar="holm|none", help="p values adjusted across the systems (default: "
    "holm with three systems or more).")]


@app.command()
def score(
    ctx: typer.Context, hypotheses: HypothesesArg, gold: GoldOpt = None,
    source: SourceOpt = None, ref: RefOpt = None, gold_format: GoldFormatOpt = None, metric: MetricOpt = None,
    output_format: FormatOpt = ScoreFormat.text, output: OutputsOpt = None,
    per_sentence: PerSentenceOpt = None,
    tokenize: TokenizeOpt = None, segment: SegmentOpt = None, segmenter: SegmenterOpt = None,
    segment_map: SegmentMapOpt = None, strict: StrictOpt = False,
    no_sentence_check: SentenceCheckOpt = False, align: AlignOpt = False,
    unit: UnitOpt = None, annotator: AnnotatorOpt = None, absent: AbsentOpt = None,
    quiet: QuietOpt = False,
    beta: BetaOpt = None, max_unchanged_words: MaxUnchangedOpt = None,
    ignore_whitespace_casing: IgnoreWsOpt = False, max_edges: MaxEdgesOpt = None,
    mode: ModeOpt = None, errant_mode: ErrantModeOpt = None, bonus: BonusOpt = False,
    per_type: PerTypeOpt = False,
    verbose: VerboseOpt = False, single: SingleOpt = False, multi: MultiOpt = False,
    filters: FilterOpt = None, cat: CatOpt = None, extractor: ExtractorOpt = None,
    spacy_model: SpacyModelOpt = None, gleu_version: GleuVersionOpt = None,
    lam: LambdaOpt = None, iterations: IterationsOpt = None, maximise: MaximiseOpt = None,
    optimise: OptimiseOpt = None, green_beta: GreenBetaOpt = None,
    green_order: GreenOrderOpt = None, green_unit: GreenUnitOpt = None,
    gotoscorer_version: GotoVersionOpt = None, gotoscorer_weighting: GotoWeightingOpt = None,
    gotoscorer_ref: GotoRefOpt = None, weights_from: WeightsFromOpt = None,
    weights: WeightsOpt = None, save_weights: SaveWeightsOpt = None,
    cleme_assumption: ClemeAssumptionOpt = None, cleme_level: ClemeLevelOpt = None,
    cleme_weighting: ClemeWeightingOpt = None, cleme2_factors: Cleme2FactorsOpt = None,
    ci: CiOpt = False, paired_bs: PairedBsOpt = False,
    paired_ar: PairedArOpt = False, resamples: ResamplesOpt = 1000, trials: TrialsOpt = 10000,
    seed: SeedOpt = 12345, correction: CorrectionOpt = None, jobs: JobsOpt = 1,
    engine: EngineOpt = EngineName.local, scheduler: SchedulerOpt = None,
    workers: WorkersOpt = None,
) -> None:
    """Score system outputs against a gold file with one or more metrics, each
    exactly as its original tool.

    Several systems make one table, a column group per metric; --ci, --paired-bs and
    --paired-ar work for every metric; an option no chosen metric takes is refused.
    Exit status: 0 scored, 1 bad input data, 2 bad usage.
    """
    from gecformats.cli.scoring import given_options, run_command

    run_command(ctx.params, given_options(ctx))


score.help_sections = [  # type: ignore[attr-defined]
    ("Inputs and output", ["gold", "source", "ref", "gold_format", "metric", "output_format", "output",
                           "per_sentence",
                           "tokenize", "segment", "segmenter", "segment_map", "strict",
                           "no_sentence_check", "align", "unit", "annotator", "absent",
                           "quiet"]),
    ("Intervals and tests (every metric)", ["ci", "paired_bs", "paired_ar", "resamples",
                                            "trials", "seed", "correction"]),
    ("Engines (same output)", ["jobs", "engine", "scheduler", "workers"]),
    ("M2 (--metric m2, sentm2)", ["beta", "max_unchanged_words", "ignore_whitespace_casing",
                                  "max_edges", "mode", "bonus", "per_type", "verbose"]),
    ("ERRANT (--metric errant, senterrant; also --beta)", [
        "errant_mode", "single", "multi", "filters", "cat", "extractor", "spacy_model"]),
    ("GLEU (--metric gleu)", ["gleu_version", "lam", "iterations"]),
    ("I-measure (--metric imeasure)", ["maximise", "optimise"]),
    ("GREEN (--metric green)", ["green_beta", "green_order", "green_unit"]),
    ("GoToScorer (--metric gotoscorer; also --extractor)", [
        "gotoscorer_version", "gotoscorer_weighting", "gotoscorer_ref", "weights_from",
        "weights", "save_weights"]),
    ("CLEME (--metric cleme, cleme2; neural weights not offered)",
     ["cleme_assumption", "cleme_level", "cleme_weighting", "cleme2_factors"]),
]
