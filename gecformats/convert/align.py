"""A system's text re-segmented onto the gold's sentences: :func:`align_lines`.

Real outputs rarely keep the gold's sentence boundaries: sentences are merged and split,
document-level systems return essays or paragraphs, detokenized text loses the line
structure.  :func:`align_lines` takes the gold's source sentences and the hypothesis' lines
and gives back one hypothesis line per gold sentence, each a slice of the hypothesis text
(its own tokens and white space, nothing re-tokenized), with every link that is not
one-to-one listed.

**Method.**

1. *Units.*  Each hypothesis line is cut after every candidate sentence end (``. ! ? …``,
   optionally followed by closing quotes or brackets, before white space; ``。！？``
   anywhere): the units.  A blank line is one empty unit.
2. *Anchors.*  A unit whose text (white space removed, casefolded:
   :func:`~gecformats.convert.trigram.flat`) equals that of exactly one gold sentence, and
   no other unit's, is an anchor; the longest chain of anchors in order on both sides is
   kept (a longest increasing subsequence).
3. *Near anchors.*  Where anchors are more than :data:`DIRECT` gold sentences or units
   apart (and the two counts are within a factor 2), each unit of the stretch is compared
   with the gold sentences around the place its characters put it at (:data:`WINDOW`
   either side); one that shares at least :data:`NEAR` of its character trigrams with one
   of them, :data:`MARGIN` more than with any other, and begins and ends as it does, is an
   anchor too.
4. *Links.*  Between consecutive anchors a dynamic programme (Gale–Church style) links gold
   sentences and units: 1–1, 1–0 (a gold sentence with no text), 0–1 (a unit matching
   nothing, dropped), 1–k (k units make one sentence) and k–1 (one unit holds k
   sentences, k ≤ :data:`MERGES`), k as large as the lengths allow (the k texts at most
   40 % longer than the one, flat).
   A link costs the character trigrams the two sides do not share (the symmetric
   difference of the trigram sets of their flat text, padded at both ends) plus a small
   penalty for what it does to the hypothesis' lines: joining two lines, cutting a unit,
   dropping text.  The programme looks only at the cells within :data:`BAND` units of
   where the best cell of the row before and the gold sentence's length (in characters)
   put its end.
5. *Cuts.*  Units linked to k gold sentences are cut at the token boundaries (each CJK
   character is a token) where each piece best matches its gold sentence (the trigram
   multisets, updated as the cut moves: linear in the units' length).

**Output.**  A gold sentence's text is the slice of the hypothesis it was linked to; a
gold sentence linked to exactly one whole line gets that line as it is (byte for byte:
an aligned file comes back unchanged), and pieces of different lines are joined with
one space, each without its surrounding white space.  A gold sentence with no text gets
an empty line.  A trailing CR is dropped from each line (a CRLF file aligns as its LF
twin).

**Bounds.**  Time and memory are linear in the text: every step but the anchor chain
(``n log n``) is, the programme's band has a fixed width and a link is only as long as
the lengths allow.  Refused (:class:`~gecformats.errors.GecFormatError`): a stretch of
over :data:`MAX_SPAN` gold sentences without an anchor (named at its first hypothesis
line), and an output in which most gold sentences (at least 10) get no text or text
sharing under 30 % of its character trigrams with them (the pipeline's sentence check):
neither is this gold's output.

>>> a = align_lines(["He go home .", "It rain .", "Bye ."],
...                 ["He goes home . It rains .", "Bye", "."])
>>> a.lines
['He goes home .', 'It rains .', 'Bye .']
>>> [(k.kind, k.sentences, k.hypothesis_lines) for k in a.links]
[('2-1', (0, 2), (0, 1)), ('1-2', (2, 3), (1, 3))]
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from gecformats.convert.trigram import flat, trigrams
from gecformats.errors import GecFormatError

DIRECT = 64
"""Gold sentences or units between anchors linked without looking for near anchors."""
MAX_SPAN = 5_000
"""The most gold sentences (of :data:`MIN_ANCHOR` characters or more) between two anchors:
past it the hypothesis reads like no gold sentence for too long and is refused."""
MERGES = 100
"""The most gold sentences one unit (the text between two candidate sentence ends) is cut
into."""
MIN_ANCHOR = 10
"""Texts shorter than this (flat characters) are never anchors: too likely to recur."""
NEAR = 0.8
"""The share of character trigrams (Dice) that makes a near anchor ..."""
MARGIN = 0.2
"""... when no other gold sentence near it comes within this much."""
WINDOW = 6
"""Gold sentences either side of the expected place that a near anchor is looked for in."""
BAND = 6
"""Units either side of where the dynamic programme looks for the end of a gold sentence:
of the place the best link of the sentence before and the sentence's length put it."""

# link penalties, in character trigrams (a sentence has about a hundred)
_MISS = 4.0  # a gold sentence with no text
_EXTRA = 4.0  # a unit dropped
_BLANK = 0.5  # an empty unit (blank line) dropped, an empty gold sentence left without text
_JOIN = 2.0  # two lines joined into one sentence
_CUT = 2.0  # a unit cut in two
_SLACK = 0.4  # a link of several texts: the share by which its longer side may be longer
_UNLIKE, _INFORMATIVE = 0.3, 10  # as the pipeline's sentence check (metrics.inputs)
_PAD = "\n"  # never in a flat text: marks a text's two ends

# patterns, compiled where used (re.compile caches them): the CJK classes take milliseconds
# to compile, which scoring without --align never needs
_END = r"[.!?…][\"'”’»)\]]*(?=\s)|[。！？][”’」』）)]*"
_CJK = "\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\U00020000-\U0003ffff"
_ATOM = f"[{_CJK}]|[^\\s{_CJK}]+"
_INNER_END = r"[.!?…]+[”’»)\]]*(?=[^\s.!?…”’»)\]])"
"""A sentence end inside a token (``вас.Я``, ``сама..."Вона"``: no space after it in
the text): a place a unit may be cut too (a straight quote after it may open the next
sentence as well as close this one, so it goes with the next)."""
_ENDS = tuple(".!?…。！？")


@dataclass(frozen=True, slots=True)
class Link:
    """A link that is not one line for one sentence: gold sentences and the hypothesis
    lines their text came from.

    Attributes:
        kind: ``"G-H"``: G gold sentences, H hypothesis lines (``"2-1"``: a line cut in
            two; ``"1-2"``: two lines joined; ``"1-0"``: a sentence with no text; ``"0-1"``:
            a line dropped; ``"1-1"``: part of the line dropped).
        sentences: the gold sentences, 0-based ``(start, end)``, end exclusive.
        hypothesis_lines: the hypothesis lines, 0-based ``(start, end)``, end exclusive.
        gold: the gold sentences' source text (tokens joined by spaces).
        hypothesis: the hypothesis lines as they were.
        output: the lines given to the gold sentences.
    """

    kind: str
    sentences: tuple[int, int]
    hypothesis_lines: tuple[int, int]
    gold: tuple[str, ...]
    hypothesis: tuple[str, ...]
    output: tuple[str, ...]

    @property
    def what(self) -> str:
        """What the link did, in a word: ``cut`` (a line cut into sentences), ``joined``
        (lines joined into a sentence), ``regrouped`` (lines and sentences both several),
        ``trimmed`` (part of a line dropped), ``missing`` (sentences with no text) or
        ``dropped`` (lines given to no sentence)."""
        g, h = self.sentences[1] - self.sentences[0], self.hypothesis_lines[1] - self.hypothesis_lines[0]
        if not g or not h:
            return "dropped" if h else "missing"
        if g == 1 or h == 1:
            return "trimmed" if g == h else "joined" if g == 1 else "cut"
        return "regrouped"

    def to_dict(self) -> dict[str, Any]:
        """The link for JSON, with 1-based inclusive numbers (``[]`` for none)."""
        def span(r: tuple[int, int]) -> list[int]:
            return [r[0] + 1, r[1]] if r[1] > r[0] else []

        return {"kind": self.kind, "what": self.what, "sentences": span(self.sentences),
                "lines": span(self.hypothesis_lines), "gold": list(self.gold),
                "hypothesis": list(self.hypothesis), "output": list(self.output)}


_WHAT = ("cut", "joined", "regrouped", "trimmed", "missing", "dropped")


@dataclass(frozen=True, slots=True)
class Alignment:
    """The hypothesis re-segmented: :attr:`lines` (one per gold sentence) and the
    :attr:`links` that are not one whole line for one sentence.

    Attributes:
        lines: the hypothesis text of each gold sentence, in order.
        links: every link that is not one-to-one, in order.
        hypothesis_lines: how many lines the hypothesis had.
        kept: gold sentences that got one whole hypothesis line as it was.
        unlike: output lines sharing under 30 % of their trigrams with their gold sentence
            (both at least 10 characters): text the alignment could not place well.
    """

    lines: list[str]
    links: tuple[Link, ...]
    hypothesis_lines: int
    kept: int
    unlike: int = 0

    def counts(self) -> dict[str, dict[str, int]]:
        """For each :attr:`Link.what` found: how many links, gold sentences and lines."""
        counts: dict[str, dict[str, int]] = {}
        for link in self.links:
            c = counts.setdefault(link.what, {"links": 0, "sentences": 0, "lines": 0})
            c["links"] += 1
            c["sentences"] += link.sentences[1] - link.sentences[0]
            c["lines"] += link.hypothesis_lines[1] - link.hypothesis_lines[0]
        return {w: counts[w] for w in _WHAT if w in counts}

    def summary(self, hypothesis: str = "hypothesis", gold: str = "gold") -> str:
        """One line: the lines, the sentences, what became of them."""
        def n(count: int, word: str) -> str:
            return f"{count:,} {word}{'s' * (count != 1)}"

        parts = []
        for what, c in self.counts().items():
            parts.append({
                "cut": f"{n(c['lines'], 'line')} cut into {n(c['sentences'], 'sentence')}",
                "joined": f"{n(c['sentences'], 'sentence')} joined from {c['lines']:,} lines",
                "regrouped": f"{n(c['sentences'], 'sentence')} regrouped from "
                             f"{n(c['lines'], 'line')}",
                "trimmed": f"{n(c['lines'], 'line')} partly dropped",
                "missing": f"{n(c['sentences'], 'sentence')} with no text",
                "dropped": f"{n(c['lines'], 'line')} dropped"}[what])
        text = (f"{hypothesis}: {n(self.hypothesis_lines, 'line')} onto "
                f"{n(len(self.lines), 'sentence')} of {gold}: {self.kept:,} kept as "
                f"{'it was' if self.kept == 1 else 'they were'}")
        text += f"; {', '.join(parts)}" if parts else ""
        if self.unlike:
            text += (f"; {n(self.unlike, 'sentence')} still unlike {'its' if self.unlike == 1 else 'their'} gold source")
        return text

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON data: counts and every link (:meth:`Link.to_dict`)."""
        return {"sentences": len(self.lines), "lines": self.hypothesis_lines,
                "kept": self.kept, "unlike": self.unlike, "counts": self.counts(),
                "links": [k.to_dict() for k in self.links]}


def align_lines(gold_sources: Iterable[str | Sequence[str]], hypothesis_lines: Iterable[str],
                *, name: str = "<hypothesis>",
                progress: Callable[[int], None] | None = None) -> Alignment:
    """Re-segment a hypothesis onto the gold's sentences (the method: module docstring).

    Args:
        gold_sources: each gold sentence's source, as tokens or as a string.
        hypothesis_lines: the hypothesis' lines, without line ends (a trailing ``\\r`` is
            dropped); any segmentation: a sentence, a paragraph or a document a line.
        name: the hypothesis' name, in errors.
        progress: called with the number of gold sentences just done, as they are done.

    Returns:
        The :class:`Alignment`: one line per gold sentence, and the links.

    Raises:
        GecFormatError: a stretch of over :data:`MAX_SPAN` gold sentences reads like no
            gold sentence (named at its first hypothesis line), or most of the output is
            unlike its gold sentences: not this gold's output.
    """
    return _Aligner(gold_sources, hypothesis_lines, name, progress).run()


def read_gold(gold: str | None = None, *, source: str | None = None,
              gold_format: str | None = None) -> list[str | Sequence[str]]:
    """The gold sentences to align onto, from ``gold`` (any format gecformats reads:
    the sentences of a token format, the source texts of a text format, the documents of
    a character format; ``gold_format`` when the name does not tell) or from ``source``
    (plain text, one sentence a line).

    Raises:
        UsageError: neither or both of ``gold`` and ``source``; a format that cannot be
            told.
        GecFormatError: the file cannot be read as its format.
    """
    from gecformats import formats
    from gecformats.errors import UsageError
    from gecformats.io import numbered_lines

    if (gold is None) == (source is None):
        raise UsageError("give the gold's sentences with --gold GOLD or --source SRC (one)")
    if source is not None:
        if gold_format is not None:
            raise UsageError("--gold-format is for --gold; --source is plain text")
        return [line for _, line in numbered_lines(source)]
    name = gold_format or formats.infer_input(
        gold, f"gecformats align HYP --gold {gold} --gold-format {{format}}")
    items: list[str | Sequence[str]] = []
    for item in formats.get(name).read(gold):
        items.append(item.text if hasattr(item, "text") and not hasattr(item, "source")
                     else item.source)
    return items


def write_alignment(alignment: Alignment, output: str, report: str | None = None, *,
                    hypothesis: str = "<hypothesis>", gold: str = "<gold>") -> None:
    """Write the aligned lines to ``output`` (``-``: standard output) and, with ``report``,
    the report as JSON (:meth:`Alignment.to_dict` with the two files' names); each
    whole or not at all."""
    from gecformats.io import atomic_output, write_json

    with atomic_output(output) as fh:
        for line in alignment.lines:
            fh.write(line)
            fh.write("\n")
    if report is not None:
        write_json({"hypothesis": hypothesis, "gold": gold, **alignment.to_dict()}, report)


class _Aligner:
    """The state of one alignment: gold flats, units, and the links found."""

    def __init__(self, gold_sources: Iterable[str | Sequence[str]], lines: Iterable[str],
                 name: str, progress: Callable[[int], None] | None) -> None:
        self.name, self.progress = name, progress
        self.gold_text: list[str] = []
        self.gold: list[str] = []
        for source in gold_sources:
            self.gold_text.append(source if isinstance(source, str) else " ".join(source))
            self.gold.append(flat(source))
        self.lines = [line[:-1] if line.endswith("\r") else line for line in lines]
        # the units: line, start, end (characters of the line, white space stripped), flat
        self.u_line: list[int] = []
        self.u_start: list[int] = []
        self.u_end: list[int] = []
        self.u_flat: list[str] = []
        for number, line in enumerate(self.lines):
            self._units(number, line)
        # the links: (gold start, gold end, unit start, unit end), in order
        self.links: list[tuple[int, int, int, int]] = []

    def _units(self, number: int, line: str) -> None:
        start = 0
        cuts = [m.end() for m in re.compile(_END).finditer(line)]
        cuts.append(len(line))
        found = False
        for cut in cuts:
            piece = line[start:cut]
            stripped = piece.strip()
            if stripped:
                lead = start + len(piece) - len(piece.lstrip())
                self.u_line.append(number)
                self.u_start.append(lead)
                self.u_end.append(lead + len(stripped))
                self.u_flat.append(flat(stripped))
                found = True
            start = cut
        if not found:  # a blank line: one empty unit
            self.u_line.append(number)
            self.u_start.append(0)
            self.u_end.append(0)
            self.u_flat.append("")

    # ------------------------------------------------------------------ anchors

    def _anchors(self) -> list[tuple[int, int]]:
        """The longest in-order chain of units equal to exactly one gold sentence (and no
        other unit), without a short unit beside them on their line (the end of the
        sentence, split off: ``second. .``), and without the lone ones whose neighbours
        agree on another offset (a line of the gold's text in the wrong place)."""
        once: dict[str, int] = {}
        for g, text in enumerate(self.gold):
            if len(text) >= MIN_ANCHOR:
                once[text] = -1 if text in once else g
        seen = Counter(text for text in self.u_flat if once.get(text, -1) >= 0)
        pairs = [(once[text], u) for u, text in enumerate(self.u_flat)
                 if seen.get(text) == 1 and self._alone(u)]
        return _steady(_chain(pairs))

    def _alone(self, u: int) -> bool:
        """Whether unit ``u`` has no short unit beside it on its line."""
        line, units = self.u_line[u], self.u_flat
        return not any(0 <= v < len(units) and self.u_line[v] == line
                       and len(units[v]) < MIN_ANCHOR for v in (u - 1, u + 1))

    def _near(self, g0: int, g1: int, u0: int, u1: int) -> list[tuple[int, int]]:
        """Near anchors in a stretch: units sharing at least :data:`NEAR` of their trigrams
        with a gold sentence about where their characters put them."""
        gold_ends, total = [], 0
        for g in range(g0, g1):
            total += len(self.gold[g])
            gold_ends.append(total)
        unit_total = sum(len(self.u_flat[u]) for u in range(u0, u1))
        if not total or not unit_total:
            return []
        ratio = total / unit_total
        cache: dict[int, frozenset[tuple[str, str, str]]] = {}
        pairs, done = [], 0
        for u in range(u0, u1):
            text = self.u_flat[u]
            middle = (done + len(text) / 2) * ratio
            done += len(text)
            if len(text) < MIN_ANCHOR or not self._alone(u):
                continue
            at = g0 + min(bisect_right(gold_ends, middle), g1 - g0 - 1)
            mine = trigrams(text)
            scores = []
            for g in range(max(g0, at - WINDOW), min(g1, at + WINDOW + 1)):
                if g not in cache:
                    cache[g] = trigrams(self.gold[g])
                theirs = cache[g]
                both = len(mine) + len(theirs)
                scores.append((2 * len(mine & theirs) / both if both else 0.0, g))
            for g in [g for g in cache if g < at - WINDOW]:
                del cache[g]
            scores.sort(reverse=True)
            if scores and scores[0][0] >= NEAR and (
                    len(scores) == 1 or scores[0][0] - scores[1][0] >= MARGIN):
                other = self.gold[scores[0][1]]
                # a piece of a split sentence reads like it too: both ends must match
                if other[:2] == text[:2] and other[-2:] == text[-2:]:
                    pairs.append((scores[0][1], u))
        return _chain(pairs)

    # ------------------------------------------------------------------ stretches

    def run(self) -> Alignment:
        """Anchors, the stretches between them, the cut units, the output."""
        g_prev, u_prev = 0, 0
        for g, u in [*self._anchors(), (len(self.gold), len(self.u_flat))]:
            self._stretch(g_prev, g, u_prev, u, near=True)
            if g < len(self.gold):
                self.links.append((g, g + 1, u, u + 1))
            if self.progress is not None:
                self.progress(min(g + 1, len(self.gold)) - g_prev)
            g_prev, u_prev = g + 1, u + 1
        return self._output()

    def _stretch(self, g0: int, g1: int, u0: int, u1: int, near: bool) -> None:
        n, m = g1 - g0, u1 - u0
        if not n or not m:
            self.links.extend((g, g + 1, u0, u0) for g in range(g0, g1))
            self.links.extend((g0, g0, u, u + 1) for u in range(u0, u1))
            return
        if near and max(n, m) > DIRECT and n <= 2 * m and m <= 2 * n:
            anchors = self._near(g0, g1, u0, u1)
            if anchors:
                for g, u in [*anchors, (g1, u1)]:
                    self._stretch(g0, g, u0, u, near=False)
                    if g < g1:
                        self.links.append((g, g + 1, u, u + 1))
                    g0, u0 = g + 1, u + 1
                return
        if sum(len(self.gold[g]) >= MIN_ANCHOR for g in range(g0, g1)) > MAX_SPAN:
            raise GecFormatError(
                f"from this line on, no sentence of the text is equal or near to exactly one "
                f"of the gold sentences {g0 + 1:,} to {g1:,}; align needs one at least "
                f"every {MAX_SPAN:,} gold sentences: is this the gold's output?",
                self.name, self.u_line[u0] + 1)
        self._programme(g0, g1, u0, u1)

    def _programme(self, g0: int, g1: int, u0: int, u1: int) -> None:
        """The links of a stretch between anchors, by dynamic programming over the cells
        within :data:`BAND` units of where the best cell of the row before and the gold
        sentence's length put the sentence's end."""
        n, m = g1 - g0, u1 - u0
        gold, units, lines = self.gold, self.u_flat, self.u_line
        glen, ulen = [0], [0]  # flat characters before each gold sentence and unit
        for g in range(g0, g1):
            glen.append(glen[-1] + len(gold[g]))
        for u in range(u0, u1):
            ulen.append(ulen[-1] + len(units[u]))
        # the band: each row looks at BAND units either side of where the previous row's
        # best cell and the gold sentence's length (in the units' characters) put it
        ratio = ulen[m] / glen[n] if glen[n] and ulen[m] else 0.0
        lo: list[int] = []
        hi: list[int] = []
        empty: frozenset[tuple[str, str, str]] = frozenset()
        # trigram sets of each text padded at both ends; row i, column j: the i-th gold
        # sentence, the j-th unit
        gsets = [empty] + [_padded(gold[g]) for g in range(g0, g1)]
        usets = [empty] + [_padded(units[u]) for u in range(u0, u1)]
        inf = float("inf")
        cost: list[list[float]] = []
        back: list[list[tuple[int, int]]] = []  # the link into each cell: (gold, units)
        for i in range(n + 1):
            row: list[float] = []
            brow: list[tuple[int, int]] = []
            cost.append(row)
            back.append(brow)
            g = gsets[i]
            lg, glength = len(g), glen[i] - glen[i - 1] if i else 0
            prev = cost[i - 1] if i else []
            plo, phi = (lo[i - 1], hi[i - 1]) if i else (0, -1)
            if i:
                # the best cell of the row before, counting what is left to link at least
                # its difference in length (else leaving text for later looks cheapest)
                left = (glen[n] - glen[i - 1]) * ratio - ulen[m]
                start = plo + min(range(len(prev)),
                                  key=lambda k: prev[k] + 0.5 * abs(left + ulen[plo + k]))
                middle = (bisect_left(ulen, ulen[start] + glength * ratio) if ratio
                          else start + round(m / n))
                # both ends never move back: a cell left of the row before's is unreachable
                low = max(plo, min(middle - BAND, phi))
                high = max(phi, min(m, middle + BAND))
            else:
                low, high = 0, min(m, BAND)
            lo.append(low)
            hi.append(m if i == n else high)
            for j in range(lo[i], hi[i] + 1):
                best, link = inf, (0, 0)
                if i:
                    if plo <= j <= phi:  # 1-0: a gold sentence with no text
                        best, link = prev[j - plo] + lg + (_MISS if glength else _BLANK), (1, 0)
                    if j and plo < j <= phi + 1:  # 1-1
                        u = usets[j]
                        c = prev[j - 1 - plo] + lg + len(u) - 2 * len(g & u)
                        if c < best:
                            best, link = c, (1, 1)
                if j > lo[i]:  # 0-1: a unit dropped
                    c = row[-1] + len(usets[j]) + (_EXTRA if ulen[j] > ulen[j - 1] else _BLANK)
                    if c < best:
                        best, link = c, (0, 1)
                elif not i:
                    best = 0.0
                if i and j:
                    # 1-b: units j - b .. j - 1 joined into gold sentence i
                    grow = None
                    for b in range(max(2, j - phi), j - plo + 1):
                        length = ulen[j] - ulen[j - b]
                        if length - glength > _SLACK * length + 10:
                            break
                        c = prev[j - b - plo] + _JOIN * (lines[u0 + j - 1] - lines[u0 + j - b])
                        if c + lg - length >= best:  # the units have at most `length` trigrams
                            continue
                        if grow is None:
                            grow = _Growing(units, u0 + j - 1, usets[j], g)
                        c += grow.distance(u0 + j - b)
                        if c < best:
                            best, link = c, (1, b)
                    # a-1: unit j cut into gold sentences i - a .. i - 1
                    length = ulen[j] - ulen[j - 1]
                    grow = None
                    for a in range(2, min(i, MERGES) + 1 if length else 0):
                        together = glen[i] - glen[i - a]
                        if together - length > _SLACK * together + 10:
                            break
                        if j - 1 > hi[i - a]:  # and past every row above
                            break
                        k = j - 1 - lo[i - a]
                        if k < 0:
                            continue
                        c = cost[i - a][k] + _CUT * (a - 1)
                        if c + len(usets[j]) - together >= best:  # at most `together` trigrams
                            continue
                        if grow is None:
                            grow = _Growing(gold, g0 + i - 1, g, usets[j])
                        c += grow.distance(g0 + i - a)
                        if c < best:
                            best, link = c, (a, 1)
                row.append(best)
                brow.append(link)
        found = []
        i, j = n, m
        while i or j:
            a, b = back[i][j - lo[i]]
            found.append((g0 + i - a, g0 + i, u0 + j - b, u0 + j))
            i, j = i - a, j - b
        self.links.extend(reversed(found))

    # ------------------------------------------------------------------ output

    def _output(self) -> Alignment:
        # the pieces of each gold sentence: (line, start, end)
        pieces: list[list[tuple[int, int, int]]] = [[] for _ in self.gold]
        for g0, g1, u0, u1 in self.links:
            if g1 - g0 == 1:
                pieces[g0].extend((self.u_line[u], self.u_start[u], self.u_end[u])
                                  for u in range(u0, u1) if self.u_flat[u] or u1 - u0 == 1)
            elif g1 - g0 > 1:
                for g, slices in zip(range(g0, g1), self._cut(g0, g1, u0, u1)):
                    pieces[g].extend(slices)
        users = Counter(line for sentence in pieces for line in {p[0] for p in sentence})
        out: list[str] = []
        whole: list[bool] = []
        for sentence in pieces:
            text, is_whole = self._text(sentence, users)
            out.append(text)
            whole.append(is_whole)
        links = self._report(out, whole, pieces)
        unlike = empty = informative = 0
        for g, text in enumerate(out):
            a, b = flat(text), self.gold[g]
            if len(b) < _INFORMATIVE:
                continue
            informative += 1
            if len(a) < _INFORMATIVE:
                empty += 1
            elif a != b:
                x, y = trigrams(a), trigrams(b)
                unlike += 2 * len(x & y) < _UNLIKE * (len(x) + len(y))
        if unlike + empty >= _INFORMATIVE and 2 * (unlike + empty) > informative:
            raise GecFormatError(
                f"{unlike + empty:,} of the {informative:,} gold sentences get no text or text "
                f"sharing under {_UNLIKE:.0%} of its character trigrams with them: this is not "
                "the gold's output", self.name)
        return Alignment(out, tuple(links), len(self.lines), sum(whole), unlike)

    def _text(self, sentence: list[tuple[int, int, int]], users: Counter[int]
              ) -> tuple[str, bool]:
        """A gold sentence's text from its pieces, and whether it is one whole line."""
        slices: list[list[int]] = []
        for line, start, end in sentence:
            if slices and slices[-1][0] == line:
                slices[-1][2] = end
            else:
                slices.append([line, start, end])
        if len(slices) == 1:
            line, start, end = slices[0]
            text = self.lines[line]
            if users[line] == 1 and text[start:end] == text.strip():
                return text, True
        parts = [self.lines[line][start:end] for line, start, end in slices]
        return " ".join(p for p in parts if p), False

    def _cut(self, g0: int, g1: int, u0: int, u1: int) -> list[list[tuple[int, int, int]]]:
        """Units ``u0 .. u1 - 1`` cut into one piece per gold sentence ``g0 .. g1 - 1`` at
        the token boundaries where each piece best matches its sentence; each piece as its
        slices ``(line, start, end)``, one per line it takes text from (none: no text)."""
        atoms = [(a, b, text.casefold(), text[0].isupper(), line)
                 for u in range(u0, u1)
                 for line in (self.u_line[u],)
                 for a, b, text in _atoms(self.lines[line], self.u_start[u], self.u_end[u])]
        result: list[list[tuple[int, int, int]]] = []
        first = 0
        for k in range(g0, g1):
            cut = len(atoms) if k == g1 - 1 else \
                _best_cut(atoms, first, self.gold[k], "".join(self.gold[k + 1:g1]))
            slices: list[tuple[int, int, int]] = []
            for start, end, _, _, line in atoms[first:cut]:
                if slices and slices[-1][0] == line:
                    slices[-1] = (line, slices[-1][1], end)
                else:
                    slices.append((line, start, end))
            result.append(slices)
            first = cut
        return result

    def _report(self, out: list[str], whole: list[bool],
                pieces: list[list[tuple[int, int, int]]]) -> list[Link]:
        """The links that are not one whole line for one sentence: the gold sentences and
        hypothesis lines connected through shared lines, grouped."""
        groups: list[list[int]] = []  # [gold start, gold end, line start, line end]
        missing: list[list[int]] = []  # sentences with no text since the last group
        for g0, g1, u0, u1 in self.links:
            if u1 == u0:
                if missing and missing[-1][1] == g0:
                    missing[-1][1] = g1
                else:
                    at = groups[-1][3] if groups else 0
                    missing.append([g0, g1, at, at])
                continue
            first, last = self.u_line[u0], self.u_line[u1 - 1] + 1
            if groups and groups[-1][3] > first:  # shares a line with the group before
                groups[-1][1], groups[-1][3] = g1, last
            else:
                groups.extend(missing)
                groups.append([g0, g1, first, last])
            missing = []
        groups.extend(missing)
        links = []
        for g0, g1, l0, l1 in groups:
            if g1 - g0 == 1 and l1 - l0 == 1 and whole[g0]:
                continue
            links.append(Link(f"{g1 - g0}-{l1 - l0}", (g0, g1), (l0, l1),
                              tuple(self.gold_text[g0:g1]), tuple(self.lines[l0:l1]),
                              tuple(out[g0:g1])))
        return links


def _atoms(line: str, start: int, end: int) -> Iterator[tuple[int, int, str]]:
    """The tokens of ``line[start:end]`` a unit may be cut between (``(start, end,
    text)``): each CJK character, each run of other non-space characters, and such a run
    cut after a sentence end inside it (:data:`_INNER_END`)."""
    for m in re.compile(_ATOM).finditer(line, start, end):
        at = m.start()
        for inner in re.compile(_INNER_END).finditer(line, m.start(), m.end()):
            yield at, inner.end(), line[at:inner.end()]
            at = inner.end()
        if at < m.end():
            yield at, m.end(), line[at:m.end()]


def _padded(text: str) -> frozenset[tuple[str, str, str]]:
    return trigrams(_PAD + text + _PAD)


class _Growing:
    """The trigram set of a text that grows by texts put before it (padded at both ends),
    and its distance to a fixed set: the trigrams in one and not the other."""

    def __init__(self, texts: list[str], index: int, start: frozenset[tuple[str, str, str]],
                 other: frozenset[tuple[str, str, str]]) -> None:
        self.texts, self.first = texts, index  # the text put first so far
        self.grams = set(start)  # ``texts[index]``'s padded trigrams
        self.head = (texts[index] + _PAD)[:2]  # the two characters after the start pad
        self.other = other
        self.common = len(self.grams & other)

    def distance(self, first: int) -> int:
        """The distance once ``texts[first]`` ... (up to the text put first so far) are
        put before the text."""
        while self.first > first:
            self.first -= 1
            self._put(self.texts[self.first])
        return len(self.grams) + len(self.other) - 2 * self.common

    def _put(self, text: str) -> None:
        head = self.head
        if len(head) == 2:  # the start pad's trigram is inside the text now
            old = (_PAD, head[0], head[1])
            self.grams.discard(old)
            self.common -= old in self.other
        joined = _PAD + text + head
        new = set(zip(joined, joined[1:], joined[2:]))
        new -= self.grams
        self.grams |= new
        self.common += len(new & self.other)
        self.head = (text + head)[:2]


def _chain(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest chain of ``(gold, unit)`` pairs increasing in both, from pairs sorted
    by unit (each unit once)."""
    tails: list[int] = []
    at: list[int] = []
    before = [-1] * len(pairs)
    for k, (g, _) in enumerate(pairs):
        pos = bisect_left(tails, g)
        if pos == len(tails):
            tails.append(g)
            at.append(k)
        else:
            tails[pos], at[pos] = g, k
        before[k] = at[pos - 1] if pos else -1
    chain = []
    k = at[-1] if at else -1
    while k >= 0:
        chain.append(pairs[k])
        k = before[k]
    return chain[::-1]


def _steady(chain: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``chain`` without the anchors whose offset (gold − unit) differs from that of both
    neighbours when the neighbours agree."""
    keep = []
    for k, (g, u) in enumerate(chain):
        if 0 < k < len(chain) - 1:
            before = chain[k - 1][0] - chain[k - 1][1]
            if before == chain[k + 1][0] - chain[k + 1][1] != g - u:
                continue
        keep.append((g, u))
    return keep


def _best_cut(atoms: list[tuple[int, int, str, bool, int]], first: int, left: str,
              right: str) -> int:
    """The atom index (``first`` ≤ index ≤ ``len(atoms)``) where atoms ``first ..`` are best
    cut into a piece matching ``left`` and the rest matching ``right``: the fewest
    trigrams of either piece not in its text and of its text not in the piece (multisets),
    ties going to a cut after a sentence end, then before a capital, then to the first."""
    text = "".join(a[2] for a in atoms[first:])
    want_l, want_r = Counter(zip(left, left[1:], left[2:])), Counter(zip(right, right[1:], right[2:]))
    grams = list(zip(text, text[1:], text[2:]))
    have_l: Counter[tuple[str, str, str]] = Counter()
    have_r = Counter(grams)
    diff_l = sum(want_l.values())
    diff_r = sum((have_r - want_r).values()) + sum((want_r - have_r).values())
    best = (diff_l + diff_r, True, True, first)
    p = 0  # characters of text in the left piece
    for k in range(first, len(atoms)):
        for _ in range(len(atoms[k][2])):
            p += 1
            if p - 3 >= 0:  # the trigram ending here enters the left piece
                t = grams[p - 3]
                diff_l += 1 if have_l[t] >= want_l[t] else -1
                have_l[t] += 1
            if p - 1 < len(grams):  # the trigram starting at p - 1 leaves the right piece
                t = grams[p - 1]
                diff_r += -1 if have_r[t] > want_r[t] else 1
                have_r[t] -= 1
        after_end = not atoms[k][2].endswith(_ENDS)
        before_capital = not (k + 1 < len(atoms) and atoms[k + 1][3])
        best = min(best, (diff_l + diff_r, after_end, before_capital, k + 1))
    return best[3]
