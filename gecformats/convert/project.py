"""Projection: segment raw (unsegmented) Chinese output the way an M2 gold file was segmented.

The NLPCC 2018 gold ``gold.01`` (spec §9) is segmented with PKUNLP, which cannot be installed;
re-segmenting a hypothesis wholesale with another segmenter turns every difference of
segmentation into edits (a perfect correction re-segmented with jieba scores F0.5 0.56).
Projection keeps the gold's own tokens wherever the hypothesis did not change the source and
segments only around the changes, preferring the cuts the gold file itself makes:

1. **normalise** the hypothesis as the gold was normalised (:func:`normalise`): drop U+FEFF
   and all white space, map ``：；（）`` to ``:;()`` (:data:`NLPCC_MAP`, configurable) where
   the gold shows that normalisation (:func:`gold_map`: a gold built by ``gecformats
   convert --tokenizer zh`` keeps its full-width characters, and so must the hypothesis);
2. **align** its characters to the gold source string, the ``S`` tokens joined without
   spaces (:func:`align`);
3. every changed stretch, widened to the whole gold tokens it touches plus ``context`` gold
   tokens on each side, is **re-segmented**; all other gold tokens are kept as they are;
4. the re-segmentation is a dynamic programme over a **phrase lexicon** (:class:`Lexicon`)
   built from the gold file: every run of one to four consecutive tokens of every gold source
   sentence and of every annotator's corrected sentence, with how often each character
   string was cut that way.  A stretch is covered by phrases, each scored by the log of the
   relative frequency of its cut among all occurrences of its characters in the gold text,
   minus a constant per phrase (longer phrases carry more context); inside the re-segmented
   stretch, crossing a gold token boundary or cutting a gold token between two characters
   the hypothesis left unchanged costs a penalty.  Character strings the lexicon does not
   know are segmented by a fallback segmenter: ``zh`` (jieba, the project's ``zh``
   tokenizer) or ``char`` (one token per character).

So a correction equal to a gold correction, in the same context, is cut as the gold cut it,
and anything else is cut by the statistics of the gold's own segmentation.  The result is
*approximately* the official segmentation (spec §9.4): measured figures are in
docs/tutorials/chinese.md.

>>> gold = m2.parse("S 我 喜欢 吃 苹果 。\\nA 2 3|||S|||吃 了|||REQUIRED|||-NONE-|||0\\n")
>>> projector = Projector(Lexicon.from_sentences(gold), segmenter="char")
>>> projector.project(gold[0].source, "我喜欢吃了苹果。")
['我', '喜欢', '吃', '了', '苹果', '。']
>>> projector.project(gold[0].source, "\\ufeff我 喜欢吃苹果。")
['我', '喜欢', '吃', '苹果', '。']
"""

from __future__ import annotations

import bisect
import difflib
import hashlib
import math
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gecformats.formats import m2
from gecformats.model import Sentence, span_order

NLPCC_MAP: Mapping[str, str] = {"：": ":", "；": ";", "（": "(", "）": ")"}
"""The characters PKUNLP changed in the NLPCC 2018 test set (spec §9.3): full-width colon,
semicolon and parentheses to ASCII."""

SEGMENTERS = ("zh", "char")
"""Fallback segmenters for character strings the lexicon does not know."""

IGNORED = "\ufeff"
"""Characters :func:`normalise` drops besides white space."""


# ------------------------------------------------------------------ normalisation


def parse_map(text: str) -> dict[str, str]:
    """A character map written as pairs of characters, ``"：:；;（(）)"`` → ``{"：": ":", …}``.

    The empty string is the empty map (no character is changed).

    Raises:
        ValueError: an odd number of characters, or one character mapped twice.

    >>> parse_map("：:；;")
    {'：': ':', '；': ';'}
    """
    if len(text) % 2:
        raise ValueError(f"a character map is pairs of characters (FROM TO ...); {text!r} has "
                         f"an odd number of characters ({len(text)})")
    out: dict[str, str] = {}
    for i in range(0, len(text), 2):
        src, dst = text[i], text[i + 1]
        if src in out and out[src] != dst:
            raise ValueError(f"character {src!r} is mapped twice ({out[src]!r} and {dst!r})")
        out[src] = dst
    return out


def format_map(mapping: Mapping[str, str]) -> str:
    """The pairs form of ``mapping`` (the inverse of :func:`parse_map`), in sorted order."""
    return "".join(k + v for k, v in sorted(mapping.items()))


def normalise(text: str, mapping: Mapping[str, str] = NLPCC_MAP) -> str:
    """``text`` normalised like the NLPCC gold: U+FEFF and every white-space character
    (``str.isspace``, including U+3000 and line ends) removed, then each character of
    ``mapping`` replaced by its value.

    >>> normalise("\\ufeff注意 ：（一） ；")
    '注意:(一);'
    """
    table = {ord(k): v for k, v in mapping.items()}
    kept = "".join(ch for ch in text if not ch.isspace() and ch not in IGNORED)
    return kept.translate(table)


# ------------------------------------------------------------------ alignment


Opcode = tuple[str, int, int, int, int]


def align(gold: str, hypothesis: str) -> list[Opcode]:
    """Align the characters of ``hypothesis`` to the gold source string ``gold``.

    Returns ``difflib``-style opcodes ``(tag, g1, g2, h1, h2)`` covering both strings in
    order: ``equal`` stretches (``gold[g1:g2] == hypothesis[h1:h2]``) and changes
    (``replace``, ``delete``, ``insert``).  The alignment is ``difflib.SequenceMatcher``'s
    (longest common blocks, recursively; no junk heuristic), after taking off the common
    prefix and suffix.

    >>> align("我喜欢苹果", "我爱苹果")
    [('equal', 0, 1, 0, 1), ('replace', 1, 3, 1, 2), ('equal', 3, 5, 2, 4)]
    """
    n, m = len(gold), len(hypothesis)
    pre = 0
    while pre < n and pre < m and gold[pre] == hypothesis[pre]:
        pre += 1
    suf = 0
    while suf < n - pre and suf < m - pre and gold[n - 1 - suf] == hypothesis[m - 1 - suf]:
        suf += 1
    ops: list[Opcode] = []
    if pre:
        ops.append(("equal", 0, pre, 0, pre))
    middle = difflib.SequenceMatcher(None, gold[pre:n - suf], hypothesis[pre:m - suf],
                                     autojunk=False)
    for tag, g1, g2, h1, h2 in middle.get_opcodes():
        ops.append((tag, g1 + pre, g2 + pre, h1 + pre, h2 + pre))
    if suf:
        ops.append(("equal", n - suf, n, m - suf, m))
    return ops


# ------------------------------------------------------------------ the lexicon


def corrected_tokens(sentence: Sentence, annotator: int) -> list[str]:
    """The source tokens of ``sentence`` with every edit of ``annotator`` applied, as the
    reference oracle file was made (``reference/README.md`` §2): edits from right to left in
    ``(start, end)`` order, offsets taken literally (an end beyond the sentence replaces the
    tail), deletions and empty tokens dropped."""
    out = list(sentence.source)
    edits = sentence.annotators.get(annotator, ())
    for edit in sorted(edits, key=span_order, reverse=True):
        if edit.start < 0 or edit.start > edit.end:
            continue
        out[edit.start:edit.end] = edit.correction
    return [t for t in out if t]


class Lexicon:
    """How a segmenter cut character strings: the phrase statistics of segmented sentences.

    A *phrase* is a run of one to ``max_tokens`` consecutive tokens of one sentence, at most
    ``max_chars`` characters long unless it is a single token.  The lexicon records, for each character string, every way it
    was cut into phrase tokens and how often, and can count the occurrences of any string in
    the sentences' text (also where its ends fall inside tokens).

    Build it with :meth:`add` (one token sequence at a time) or :meth:`from_sentences` /
    :meth:`from_m2` (every gold source sentence and every annotator's corrected sentence).
    """

    def __init__(self, max_tokens: int = 4, max_chars: int = 10) -> None:
        self.max_tokens = max_tokens
        self.max_chars = max_chars
        self.counts: dict[str, int] = {}
        """Phrase (tokens joined by single spaces) → how often it was seen."""
        self.cuts: dict[str, tuple[str, ...]] = {}
        """Character string → its phrases (the ways it was cut)."""
        self.sentences = 0
        self.source_characters: set[str] = set()
        """The characters of the gold source sentences (:meth:`from_sentences`), which
        :func:`gold_map` reads."""
        self._texts: list[str] = []
        self._text = ""
        self._bigrams: dict[str, list[int]] = {}
        self._occurrences: dict[str, int] = {}

    def add(self, tokens: Sequence[str]) -> None:
        """Record one segmented sentence (its tokens in order; empty tokens are ignored)."""
        toks = [t for t in tokens if t]
        counts, cuts = self.counts, self.cuts
        for i in range(len(toks)):
            string = ""
            for k in range(i, min(len(toks), i + self.max_tokens)):
                string += toks[k]
                if len(string) > self.max_chars and k > i:
                    break
                phrase = " ".join(toks[i:k + 1])
                count = counts.get(phrase)
                if count is None:
                    counts[phrase] = 1
                    cuts[string] = cuts.get(string, ()) + (phrase,)
                else:
                    counts[phrase] = count + 1
        self._texts.append("".join(toks))
        self._text = ""
        self._occurrences.clear()
        self.sentences += 1

    def occurrences(self, string: str) -> int:
        """How often ``string`` occurs in the text of the recorded sentences (within one
        sentence, wherever its ends fall; overlapping occurrences count)."""
        count = self._occurrences.get(string)
        if count is None:
            if not self._text:
                self._index()
            text = self._text
            if len(string) < 2:
                count = text.count(string) if string else 0
            else:
                count = sum(1 for p in self._bigrams.get(string[:2], ()) if text.startswith(string, p))
            self._occurrences[string] = count
        return count

    def _index(self) -> None:
        self._text = text = "\n".join(self._texts)
        bigrams: dict[str, list[int]] = {}
        for p in range(len(text) - 1):
            bigrams.setdefault(text[p:p + 2], []).append(p)
        self._bigrams = bigrams

    @classmethod
    def from_sentences(cls, sentences: Iterable[Sentence], **options: Any) -> Lexicon:
        """The lexicon of M2 gold sentences: each source sentence and, for each annotator,
        the source with that annotator's edits applied (:func:`corrected_tokens`)."""
        lexicon = cls(**options)
        characters = lexicon.source_characters
        for sentence in sentences:
            lexicon.add(sentence.source)
            characters.update(*sentence.source)
            for annotator, edits in sentence.annotators.items():
                if edits:
                    lexicon.add(corrected_tokens(sentence, annotator))
        return lexicon

    @classmethod
    def from_m2(cls, path: str | os.PathLike[str], **options: Any) -> Lexicon:
        """:meth:`from_sentences` over an M2 file, read streaming.

        Raises:
            GecFormatError: the file is malformed.
            OSError: the file cannot be read.
        """
        return cls.from_sentences(m2.read(path), **options)


def gold_map(characters: Iterable[str] | set[str],
             mapping: Mapping[str, str] = NLPCC_MAP) -> dict[str, str]:
    """``mapping`` when the gold's source sentences show it was applied, else ``{}``.

    ``characters`` are the characters of the gold's sources
    (:attr:`Lexicon.source_characters`).  The map was applied when they hold none of the
    characters it replaces and at least one of those it writes: NLPCC 2018's ``gold.01``
    (PKUNLP) has ``:;()`` and never ``：；（）`` in its sources.  One replaced character in the
    sources shows that the gold kept them (a gold made by ``gecformats convert --from nlpcc
    --tokenizer zh`` keeps the raw text's ``：``): then nothing is mapped, as the gold's own
    corrections were not mapped either.  Neither kind present is no evidence: nothing is
    mapped (the map could only change characters the hypothesis brought in).  Only the
    sources count: annotators' corrections were never normalised (``gold.01`` has one ``：``
    in an edit).

    >>> gold_map(set("国资委:分类"))
    {'：': ':', '；': ';', '（': '(', '）': ')'}
    >>> gold_map(set("国资委：分类(一)"))
    {}
    """
    chars = characters if isinstance(characters, (set, frozenset)) else set(characters)
    if any(k in chars for k in mapping) or not any(v in chars for v in mapping.values()):
        return {}
    return dict(mapping)


FIT_SAMPLE = 100
"""Chinese gold source sentences :func:`tokenizer_fits` looks at."""

FIT_SHARE = 0.9
"""The share of them the tokenizer must reproduce exactly (a gold made by ``convert
--tokenizer zh``: all of them; NLPCC 2018's PKUNLP ``gold.01``: about one in five)."""


def tokenizer_fits(sources: Iterable[Sequence[str]], name: str = "zh",
                   sample: int = FIT_SAMPLE, share: float = FIT_SHARE) -> bool:
    """Whether the gold's source sentences look segmented by tokenizer ``name`` (``zh``:
    jieba, the words of ``gecformats convert --tokenizer zh``): it reproduces the tokens of
    at least ``share`` of the first ``sample`` sources that contain Chinese characters
    (from their characters joined without spaces).  Then ``score --tokenize zh`` segments a
    raw hypothesis exactly as the gold was segmented, and projection is not needed."""
    from gecformats.tokenize import get_tokenizer

    tokenizer = get_tokenizer(name)
    seen = agreed = 0
    for source in sources:
        if not _HAN.search("".join(source)):
            continue
        seen += 1
        agreed += [t.text for t in tokenizer.tokenize("".join(source))] == [t for t in source if t]
        if seen >= sample:
            break
    return seen > 0 and agreed >= share * seen


_HAN = re.compile("[\u4e00-\u9fff]")


# ------------------------------------------------------------------ projection


MAX_PROJECTED = 100_000
"""The longest hypothesis line (in characters) :meth:`Projector.project` segments: its
dynamic programme is linear but costs about 20 µs a character, and a "sentence" this long is
a file that is not one sentence per line; past it ``score --segment project`` refuses the
line (FILE:LINE) at once."""


class Projector:
    """Segment hypotheses like the gold: see the module documentation for the method.

    Args:
        lexicon: the gold's phrase statistics (:meth:`Lexicon.from_m2`).
        segmenter: fallback for strings the lexicon does not know: ``zh`` (jieba) or
            ``char`` (one token per character).
        mapping: the normalisation map (:data:`NLPCC_MAP`; ``{}`` for none).
        context: gold tokens re-segmented on each side of a change.
        phrase_cost: cost of each phrase (higher prefers fewer, longer phrases).
        cross_cost: cost of a token crossing a gold token boundary between two characters
            the hypothesis left unchanged.
        split_cost: cost of cutting a gold token between two unchanged characters.
        unknown_score: score of a fallback token (a string the lexicon never saw).

    Raises:
        ValueError: an unknown segmenter.
    """

    def __init__(self, lexicon: Lexicon, *, segmenter: str = "zh",
                 mapping: Mapping[str, str] = NLPCC_MAP, context: int = 3,
                 phrase_cost: float = 1.0, cross_cost: float = 3.0, split_cost: float = 2.0,
                 unknown_score: float = -3.0) -> None:
        if segmenter not in SEGMENTERS:
            raise ValueError(f"unknown segmenter {segmenter!r} (known: {', '.join(SEGMENTERS)})")
        self.lexicon = lexicon
        self.segmenter = segmenter
        self.mapping = dict(mapping)
        self.context = context
        self.phrase_cost = phrase_cost
        self.cross_cost = cross_cost
        self.split_cost = split_cost
        self.unknown_score = unknown_score
        self._fallback = None
        if segmenter == "zh":
            from gecformats.tokenize import get_tokenizer

            self._fallback = get_tokenizer("zh")
        self._scores: dict[str, tuple[tuple[tuple[str, ...], float], ...]] = {}

    @property
    def version(self) -> str:
        """What the projection depends on, for a signature: ``project+zh-jieba-0.42.1``
        (``+map-none`` for the empty map, ``+map-`` and a digest for another map than
        :data:`NLPCC_MAP`)."""
        fallback = (f"zh-{self._fallback.version}" if self._fallback is not None else "char-1")
        text = f"project+{fallback}"
        if not self.mapping:
            text += "+map-none"
        elif self.mapping != dict(NLPCC_MAP):
            digest = hashlib.sha1(format_map(self.mapping).encode()).hexdigest()[:8]
            text += f"+map-{digest}"
        return text

    def normalise(self, hypothesis: str) -> str:
        """:func:`normalise` with this projector's map."""
        return normalise(hypothesis, self.mapping)

    def project(self, gold_tokens: Sequence[str], hypothesis: str) -> list[str]:
        """The tokens of ``hypothesis`` (raw text: spaces, BOMs and full-width characters
        are normalised first), segmented like ``gold_tokens``, the gold source sentence.

        The tokens joined without spaces are always the normalised hypothesis; where the
        hypothesis leaves the gold source unchanged (away from any change by more than
        ``context`` tokens) the tokens are the gold's own.
        """
        gold = "".join(gold_tokens)
        hyp = self.normalise(hypothesis)
        if gold == hyp:
            return [t for t in gold_tokens if t]
        tokens = [t for t in gold_tokens if t]
        bounds = [0]
        for t in tokens:
            bounds.append(bounds[-1] + len(t))
        is_bound = set(bounds)
        token_length = {bounds[k]: len(t) for k, t in enumerate(tokens)}
        gold_of = [-1] * len(hyp)   # hypothesis character -> aligned gold character
        hyp_of = [-1] * len(gold)   # gold character -> aligned hypothesis character
        regions: list[list[int]] = []
        count = len(tokens)
        for tag, g1, g2, h1, h2 in align(gold, hyp):
            if tag == "equal":
                for k in range(g2 - g1):
                    gold_of[h1 + k] = g1 + k
                    hyp_of[g1 + k] = h1 + k
                continue
            first = _token_at(bounds, g1)
            last = first if g1 == g2 and g1 in is_bound else _token_after(bounds, g2)
            start, end = max(0, first - self.context), min(count, last + self.context)
            if regions and start <= regions[-1][1]:
                regions[-1][1] = max(regions[-1][1], end)
            else:
                regions.append([start, end])
        out: list[str] = []
        done = 0
        for start, end in regions:
            out.extend(tokens[done:start])
            g1, g2 = bounds[start], bounds[end]
            h1 = hyp_of[g1 - 1] + 1 if g1 > 0 else 0
            h2 = hyp_of[g2] if g2 < len(gold) else len(hyp)
            if h2 > h1:
                out.extend(self._segment(hyp, h1, h2, gold_of, is_bound, token_length))
            done = end
        out.extend(tokens[done:])
        return out

    # -- the dynamic programme

    def _segment(self, hyp: str, h1: int, h2: int, gold_of: list[int], is_bound: set[int],
                 token_length: dict[int, int]) -> list[str]:
        text = hyp[h1:h2]
        n = len(text)
        # kind[k] for the position between text[k-1] and text[k]: 1 = a gold boundary between
        # unchanged characters, 2 = inside a gold token between unchanged characters
        kind = [0] * (n + 1)
        for k in range(1, n):
            a, b = gold_of[h1 + k - 1], gold_of[h1 + k]
            if a >= 0 and b == a + 1:
                kind[k] = 1 if b in is_bound else 2
        max_chars = self.lexicon.max_chars
        fallback = self._fallback_words(text)
        # unchanged gold tokens longer than the lexicon's phrases stay candidates
        for k in range(n):
            g = gold_of[h1 + k]
            length = token_length.get(g, 0)
            if length > max_chars and k + length <= n and gold_of[h1 + k + length - 1] == g + length - 1:
                fallback.setdefault(k, set()).add(k + length)
        best = [-math.inf] * (n + 1)
        back: list[tuple[int, tuple[str, ...]]] = [(0, ())] * (n + 1)
        best[0] = 0.0
        for i in range(n):
            here = best[i]
            if here == -math.inf:
                continue
            if kind[i] == 2:
                here -= self.split_cost
            ends = set(range(i + 1, min(n, i + max_chars) + 1))
            ends.update(j for j in fallback.get(i, ()) if j > i + max_chars)
            for j in sorted(ends):
                options = self._phrases(text[i:j])
                if not options and (j == i + 1 or j in fallback.get(i, ())):
                    options = (((text[i:j],), self.unknown_score),)
                for cut, score in options:
                    value = here + score - self.phrase_cost - self._costs(cut, i, j, kind)
                    if value > best[j]:
                        best[j] = value
                        back[j] = (i, cut)
        out: list[tuple[str, ...]] = []
        j = n
        while j > 0:
            i, cut = back[j]
            out.append(cut)
            j = i
        return [t for cut in reversed(out) for t in cut]

    def _costs(self, cut: tuple[str, ...], i: int, j: int, kind: list[int]) -> float:
        cost = 0.0
        cuts = set()
        pos = i
        for t in cut[:-1]:
            pos += len(t)
            cuts.add(pos)
        for k in range(i + 1, j):
            if k in cuts:
                if kind[k] == 2:
                    cost += self.split_cost
            elif kind[k] == 1:
                cost += self.cross_cost
        return cost

    def _phrases(self, string: str) -> tuple[tuple[tuple[str, ...], float], ...]:
        """The lexicon's cuts of ``string``, each with log(count / (occurrences + 0.5))."""
        found = self._scores.get(string)
        if found is None:
            phrases = self.lexicon.cuts.get(string)
            if not phrases:
                found = ()
            else:
                total = self.lexicon.occurrences(string) + 0.5
                counts = self.lexicon.counts
                found = tuple((tuple(p.split(" ")), math.log(counts[p] / total)) for p in phrases)
            self._scores[string] = found
        return found

    def _fallback_words(self, text: str) -> dict[int, set[int]]:
        """Start → ends of the fallback segmenter's words of ``text``."""
        if self._fallback is None:
            return {}
        words: dict[int, set[int]] = {}
        for token in self._fallback.tokenize(text):
            words.setdefault(token.start, set()).add(token.end)
        return words


def _token_at(bounds: list[int], pos: int) -> int:
    """The index of the gold token containing character ``pos`` (or starting at it)."""
    return max(0, bisect.bisect_right(bounds, pos) - 1)


def _token_after(bounds: list[int], pos: int) -> int:
    """The index of the first gold token starting at or after character ``pos``."""
    return bisect.bisect_left(bounds, pos)
