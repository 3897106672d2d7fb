"""Whether a hypothesis file's lines are the gold's sentences: checked while reading.

A system output that lost or gained one line, or that belongs to another test set, has
the gold's line count (or nearly) and scores a plausible number; every metric would print
it with exit 0.  :class:`Correspondence` looks at each line beside its gold source while
the pipeline reads them and refuses the file as soon as the correspondence breaks,
naming the first sentence where it does.

The measure: the share of character trigrams the two share (Dice's coefficient of the
sets of trigrams of the casefolded text with all white space removed, so tokenization,
detokenization and spacing do not count).  On the 13 CoNLL-2014 submissions and the 15
SEEDA outputs (GPT-3.5's fluency rewrites and the fluent human reference REF-F included)
99 % of the sentences share at least 0.42 of their trigrams with their source and REF-F's
lowest are a handful of merged sentences; a line set beside another sentence of the same
test set shares under 0.27 in 95 % of cases.  A sentence is **unlike** its source below
:data:`THRESHOLD`; sentences shorter than :data:`MIN_CHARS` characters (either side) say
nothing and are passed over.  Real outputs have isolated unlike sentences (NTHU's
CoNLL-2014 output has four lines that mix neighbouring sentences within six), so the file
is refused only when :data:`UNLIKE` of :data:`WINDOW` consecutive informative sentences are
unlike their sources: a line lost at sentence 700 is reported at sentence 700, a few
sentences after reading it.  A file with fewer than :data:`UNLIKE` informative sentences is
never refused.

Cost: one set of trigrams per gold source (shared by every system) and per line; the
window keeps :data:`WINDOW` × 2 sentences' trigrams, whatever the file's length.

>>> check = Correspondence("out.txt", "gold.m2")
>>> for n, (src, hyp) in enumerate([("He go home .", "He goes home .")] * 3, 1):
...     check.add(n, n, grams(src), hyp)
>>> round(similarity(grams("Thank you for your letter ."), grams("Thanks for the letter.")), 2)
0.5
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from gecformats.convert.trigram import flat as _flat, trigrams
from gecformats.errors import GecFormatError

THRESHOLD = 0.3
"""Below this share of shared character trigrams a line is unlike its gold source."""
MIN_CHARS = 10
"""Lines (and sources) with fewer non-space characters are passed over."""
WINDOW = 10
"""Consecutive informative sentences looked at together."""
UNLIKE = 6
"""Unlike sentences among :data:`WINDOW` that make the file refused."""
NEAR = 0.5
"""A line sharing this much with a neighbouring gold sentence is said to read like it."""

OPTION = "--no-sentence-check"
"""The option that turns the check off (named in the refusal)."""


Grams = tuple[str, frozenset[tuple[str, str, str]]]
"""A text as the check compares it: its characters without white space, casefolded, and
the set of their trigrams (empty below :data:`MIN_CHARS` characters)."""


def grams(text: str | Sequence[str]) -> Grams:
    """``text`` (a string or tokens) as the check compares it (:data:`Grams`)."""
    flat = _flat(text)
    if len(flat) < MIN_CHARS:
        return flat, frozenset()
    return flat, trigrams(flat)


def similarity(a: Grams, b: Grams) -> float:
    """Dice's coefficient of the trigram sets of two texts (1 for the same text, 0 when
    both are too short)."""
    if a[0] == b[0]:
        return 1.0
    total = len(a[1]) + len(b[1])
    return 2 * len(a[1] & b[1]) / total if total else 0.0


def surely_like(source: Grams, flat: str) -> bool:
    """Whether the text ``flat`` (:func:`~gecformats.convert.trigram.flat`) shares at least
    :data:`THRESHOLD` of its trigrams with ``source`` for sure, told from the start and the
    end the two have in common, without making its trigrams (most lines of a GEC output
    differ from their source in a few places: this is what makes the check cheap).

    The trigrams inside the common start or end are both texts'; the source's others are at
    most its ``k_s`` positions that reach into the middle where they differ, the line's
    others at most its ``k_h``: so at least ``c = |A| − k_s`` trigrams are shared and the
    line has at most ``c + k_h``, and Dice's coefficient is at least ``2c / (|A| + c +
    k_h)``.  ``False`` says nothing (the trigrams decide).

    >>> surely_like(grams("He go to school every day ."), "hegoestoschooleveryday.")
    True
    """
    text, known = source
    n, m = len(text), len(flat)
    start = _common_start(text, flat)
    end = min(_common_start(text[::-1], flat[::-1]), min(n, m) - start)
    inside = max(0, start - 2) + max(0, end - 2)  # positions inside the common start or end
    shared = len(known) - (n - 2 - inside)
    # a margin for the rounding of the division that similarity() makes
    return shared > 0 and 2 * shared > (THRESHOLD + 1e-9) * (len(known) + shared + m - 2 - inside)


def _common_start(a: str, b: str) -> int:
    """The length of the longest common prefix of ``a`` and ``b`` (by halving: slices
    compared in C, a few per line)."""
    low, high = 0, min(len(a), len(b))
    if a[:high] == b[:high]:
        return high
    while high - low > 1:  # a[:low] == b[:low], a[:high] != b[:high]
        middle = (low + high) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle
    return low


def align_hint(hypothesis: str, gold: str, source: bool = False) -> str:
    """The command that re-segments ``hypothesis`` onto the sentences of ``gold`` (a
    source text with ``source``): the ``hint`` of :class:`Correspondence`."""
    return (f"score it with --align, or re-segment it with `gecformats align {hypothesis} "
            f"{'--source' if source else '--gold'} {gold} -o ALIGNED.txt`")


class Correspondence:
    """The check of one hypothesis file against the gold, fed sentence by sentence.

    Args:
        name: the hypothesis file's name (in the refusal).
        gold: the gold's name (in the refusal).
        hint: the command that scores re-segmented output, named in the refusal.
    """

    def __init__(self, name: str, gold: str, hint: str = "") -> None:
        self.name, self.gold, self.hint = name, gold, hint
        self._window: deque[tuple[int, int, bool]] = deque(maxlen=WINDOW)
        self._seen: deque[tuple[int, Grams, Grams]] = deque(maxlen=2 * WINDOW)
        self.informative = self.unlike = 0
        self._bad = 0  # unlike sentences in the window

    def add(self, number: int, line: int | None, source: Grams,
            hypothesis: str | Sequence[str]) -> None:
        """Look at sentence ``number`` (the hypothesis' line ``line``): its gold source
        (:func:`grams`, made once for every system) and the hypothesis (text or tokens).

        Raises:
            GecFormatError: the lines stopped matching the gold's sentences (named at the
                first unlike sentence of the window that shows it).
        """
        flat = _flat(hypothesis)
        informative = bool(source[1]) and len(flat) >= MIN_CHARS
        if flat == source[0]:  # the source itself, as most lines of a GEC output are
            hyp: Grams = (flat, source[1])
        elif informative and surely_like(source, flat):
            # a line that is like its source: its trigrams are never looked at again (a
            # refusal looks at the unlike lines'), so they are not made
            hyp = (flat, frozenset())
        else:
            hyp = (flat, trigrams(flat) if len(flat) >= MIN_CHARS else frozenset())
        self._seen.append((number, source, hyp))
        if not informative:
            return
        bad = bool(hyp[1]) and similarity(source, hyp) < THRESHOLD
        self.informative += 1
        self.unlike += bad
        window = self._window
        if len(window) == WINDOW:
            self._bad -= window[0][2]
        window.append((number, line if line is not None else number, bad))
        self._bad += bad
        if bad and self._bad >= UNLIKE:
            raise self._refusal()

    def _refusal(self) -> GecFormatError:
        number, line, _ = next(w for w in self._window if w[2])
        shift = self._shift()
        if shift:
            lines = abs(shift)
            where = ("next sentence" if shift == 1 else "previous sentence" if shift == -1
                     else f"sentence {lines} {'further on' if shift > 0 else 'back'}")
            why = (f"each reads like the gold's {where} ({'a line' if lines == 1 else lines}"
                   f"{' lines' * (lines > 1)} {'missing' if shift > 0 else 'added'} "
                   f"near line {line}?)")
        else:
            why = "they read like no gold sentence near them (another test set?)"
        hint = f"; outputs with other sentence boundaries: {self.hint}" if self.hint else ""
        return GecFormatError(
            f"from sentence {number} on, the lines are not {self.gold}'s sentences: "
            f"{UNLIKE} of {WINDOW} share under {THRESHOLD:.0%} of their character trigrams "
            f"with their gold source, and {why}{hint}; to score it anyway: {OPTION}",
            self.name, line)

    def _shift(self) -> int:
        """The most common offset from an unlike line of the window to the gold sentence it
        reads like (sharing at least :data:`NEAR`), or 0 where none does."""
        sources = [(n, s) for n, s, _ in self._seen]
        votes: dict[int, int] = {}
        for number, _, bad in self._window:
            if not bad:
                continue
            hyp = next(h for n, _, h in self._seen if n == number)
            best, where = NEAR, None
            for n, source in sources:
                value = similarity(source, hyp)
                if n != number and value >= best:
                    best, where = value, n
            if where is not None:
                votes[where - number] = votes.get(where - number, 0) + 1
        return max(votes, key=lambda k: (votes[k], -abs(k))) if votes else 0


# ------------------------------------------------------------------ the gold's edits


class GoldFit:
    """One policy, applied once when the gold is read, for the gold edits that do not fit
    their sentence.

    * An edit past the sentence's end (``end`` beyond the last token) is left out of the
      score for every metric, as the NUS scorer leaves it out (so M2 keeps its number), and
      counted: :meth:`warnings` names how many, the first sentence and ``validate``
      (``score --strict`` makes it an error).
    * An edit that starts after it ends, or at a negative offset, means nothing: the gold is
      refused (no metric could say what it scored).

    Args:
        gold: the gold's name (in the warning and the refusal).
    """

    def __init__(self, gold: str) -> None:
        self.gold = gold
        self.past_end = 0
        self.first = 0

    def fit(self, number: int, sentence: Any) -> Any:
        """Sentence ``number`` of the gold, without its edits past the end.

        Raises:
            GecFormatError: an edit that starts after it ends or before the sentence.
        """
        annotators = getattr(sentence, "annotators", None)
        if not annotators:
            return sentence
        n = len(sentence.source)
        past = 0
        for annotator, edits in annotators.items():
            for e in edits:
                if e.start > e.end or e.start < 0:
                    raise GecFormatError(
                        f"sentence {number}: annotator {annotator}'s edit {e.start} {e.end} "
                        f"{'starts after it ends' if e.start >= 0 else 'starts before the sentence'}"
                        f": no metric can score it; `gecformats validate {self.gold}` lists "
                        "every problem", self.gold, _gold_line(self.gold, number))
                past += e.end > n
        if not past:
            return sentence
        self.past_end += past
        self.first = self.first or number
        kept = {a: tuple(e for e in edits if e.end <= n) for a, edits in annotators.items()}
        return replace(sentence, annotators=kept)

    def warnings(self) -> list[str]:
        """The warning of the edits left out (none when every edit fits)."""
        return [past_end_warning(self.gold, self.past_end, self.first)] if self.past_end \
            else []


class OneAnnotator:
    """One annotator of a gold alone (``score --annotator K``): each gold sentence keeps
    annotator ``K``'s edits only.  A sentence without annotator ``K`` where another annotator
    made edits gets, as GLEU's references of absent annotators (``--absent``), the first
    present annotator's edits (``first``: the CoNLL-2014 combined file leaves annotator 1
    out where its edits equal annotator 0's) or none (``source``); ``auto`` takes ``first``
    for a gold that writes ``noop`` lines beside other annotators' edits, else ``source``
    (:func:`~gecformats.convert.extract.noop_beside_edits`).  A sentence where nobody made
    an edit keeps none.

    Args:
        gold: the gold's name (in messages).
        annotator: ``K``.
        absent: ``auto``, ``first`` or ``source``.
        sentences: the gold's sentences, for the first pass (its annotators, the ``auto``
            policy).

    Raises:
        UsageError: an unknown policy, an annotator the gold does not have.
    """

    def __init__(self, gold: str, annotator: int, absent: str,
                 sentences: Iterable[Any]) -> None:
        from gecformats.convert.extract import noop_beside_edits
        from gecformats.errors import UsageError

        if absent not in ("auto", "first", "source"):
            raise UsageError(f"unknown absent-annotator policy {absent!r} (known: auto, "
                             "first, source)")
        seen: set[int] = set()
        explicit = False
        for sentence in sentences:
            seen.update(k for k in sentence.annotators if k >= 0)
            explicit = explicit or noop_beside_edits(sentence)
        if annotator not in seen:
            known = ", ".join(map(str, sorted(seen))) or "none"
            raise UsageError(f"--annotator {annotator}: {gold} has no annotator {annotator} "
                             f"(its annotators: {known})")
        self.gold, self.annotator, self.absent = gold, annotator, absent
        self.auto = "first" if explicit else "source"
        self.policy = absent if absent != "auto" else self.auto
        self.filled = 0

    def keep(self, sentence: Any, count: bool = False) -> Any:
        """``sentence`` with annotator ``K`` alone (see the class); ``count``: count it
        in :meth:`notes` when it lacked annotator ``K`` (once per sentence: the reading
        that scores)."""
        k = self.annotator
        annotators = sentence.annotators
        if k in annotators:
            return replace(sentence, annotators={k: annotators[k]})
        present = [a for a in sorted(annotators) if a >= 0]
        edits: tuple[Any, ...] = ()
        if any(annotators[a] for a in present):  # another annotator made edits
            self.filled += count
            if self.policy == "first":
                edits = tuple(replace(e, annotator=k) for e in annotators[present[0]])
        return replace(sentence, annotators={k: edits})

    def field(self) -> str:
        """The signature field: ``annotator:K``, with ``+absent-first`` or
        ``+absent-source`` when a sentence lacked annotator ``K``."""
        return f"annotator:{self.annotator}" + (f"+absent-{self.policy}" if self.filled else "")

    def notes(self) -> list[str]:
        """What was done to the sentences without annotator ``K`` (none when every
        sentence had it)."""
        if not self.filled:
            return []
        took = ("the first annotator's edits" if self.policy == "first" else "no edit "
                "(the source)")
        why = {("auto", "first"): " (--absent auto: the file writes 'noop' beside other "
                                  "annotators' edits, so a missing annotator repeats "
                                  "another's; --absent source for no edit)",
               ("auto", "source"): " (--absent auto: the file never writes 'noop' beside "
                                   "another annotator's edits; --absent first for the "
                                   "first annotator's)"}.get((self.absent, self.policy), "")
        count = self.filled
        return [f"{self.gold}: annotator {self.annotator} alone: {count} sentence"
                f"{'s' * (count != 1)} without annotator {self.annotator} where another "
                f"made edits took {took}{why}"]


def past_end_warning(gold: str, count: int, first: int) -> str:
    """The one warning of ``count`` gold edits past the end of their sentence, the first
    in sentence ``first`` (every metric and scorer gives it)."""
    return (f"{gold}: {count} gold edit{'s' * (count != 1)} past the end of "
            f"{'its' if count == 1 else 'their'} sentence (first: sentence {first}), left out "
            f"of the score by every metric, as the NUS scorer leaves "
            f"{'it' if count == 1 else 'them'} out; check the gold with "
            f"`gecformats validate {gold}` (score --strict refuses it)")


def _gold_line(gold: str, number: int) -> int | None:
    """The line of sentence ``number``'s ``S`` line in an M2 gold (``None`` when the gold is
    not a file of ``S`` lines, or is standard input)."""
    if gold == "-":
        return None
    from gecformats.io import numbered_lines

    seen = 0
    try:
        for line, text in numbered_lines(gold):
            if text[:2] == "S " or text == "S":
                seen += 1
                if seen == number:
                    return line
    except (OSError, GecFormatError):
        return None
    return None


# ------------------------------------------------------------------ the signature's inputs


def gold_field(path: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
               name: str | None = None) -> str:
    """The signature field naming the gold scored against: ``gold-file:NAME@HASH``, the
    file's base name (``name``'s, when the gold was made for the run from the file the
    user named; ``+N`` for N files more, as a source and its references) and the first 8 hex
    digits of the SHA-256 of the files' text (line ends as ``\\n``, a leading byte-order mark
    dropped: as the readers read it; no hash for standard input).  Two scores with the same
    field used the same gold.

    >>> gold_field("fixtures/score/sample.m2")
    'gold-file:sample.m2@7a2176dc'
    """
    import hashlib

    paths = [os.fspath(p) for p in ([path] if isinstance(path, (str, os.PathLike))
                                    else path)]
    first = name or paths[0]
    shown = (os.path.basename(first) or first) + (f"+{len(paths) - 1}" if len(paths) > 1
                                                  else "")
    if "-" in paths:
        return f"gold-file:{shown}"
    import io

    from gecformats.io import open_binary

    digest = hashlib.sha256()
    try:
        for p in paths:
            with open_binary(p) as fh:
                # the text as the readers read it: a CRLF file hashes as its LF twin
                text = io.TextIOWrapper(fh, encoding="utf-8", errors="surrogateescape",
                                        newline=None)
                first = True
                for block in iter(lambda: text.read(1 << 20), ""):
                    if first and block.startswith("\ufeff"):
                        block = block[1:]
                    first = False
                    digest.update(block.encode("utf-8", "surrogateescape"))
                text.detach()
    except OSError:
        return f"gold-file:{shown}"
    return f"gold-file:{shown}@{digest.hexdigest()[:8]}"
