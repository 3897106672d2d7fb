"""Tokenizers and sentence splitters that give the exact character span of every token.

Every tokenizer has a ``name``, a ``version`` string (recorded in signatures and conversion
reports) and ``tokenize(text) -> list[Token]``; a :class:`Token` is the token's text plus its
``[start, end)`` span in ``text``.  A sentence splitter has the same shape: its tokens are
sentences.  Get one by name with :func:`get_tokenizer` / :func:`get_splitter`.

Tokenizers (:data:`TOKENIZERS`):

``en``
    Penn-Treebank-style English words: nltk's ``NLTKWordTokenizer`` (the word tokenizer
    behind ``nltk.word_tokenize``), which needs no downloaded data.  The text treats its
    input as **one sentence** (only a final period is split off); split sentences first.
    The token text is always the **surface text** of the span: nltk turns ``"`` into
    ````` or ``''`` and the token keeps ``"``, as the CoNLL-2014 M2 files do.  So tokens
    are exact substrings of the input and can be found again in it.
``zh``
    jieba words (``jieba.tokenize``, HMM on).  Its dictionary cache is written under the
    user cache directory (``$XDG_CACHE_HOME/gecformats`` or ``~/.cache/gecformats``), not
    the system temporary directory.
``char``
    One token per character.
``space``
    Pre-tokenized text: maximal runs of non-space characters.
``unicode``
    Language-neutral words (Ukrainian, Czech, Spanish ...; :data:`UNICODE_TOKEN`): runs of
    letters, marks and digits, with word-internal apostrophes and hyphens, and each
    punctuation or symbol character alone (runs of ``.?!…`` and URLs are one token), with
    exact spans.  On UA-GEC it gives Stanza's tokens (the corpus' ``*-tokenized`` files)
    for 93.7 % of the sentences (``tests/test_uagec.py``).

No tokenizer ever makes a token of whitespace or of U+FEFF (zero width no-break space):
those characters separate tokens (``zh``, ``char``, ``space``) or are trimmed.

Sentence splitters (:data:`SPLITTERS`):

``punkt``
    Every line break ends a sentence (HOO, NUCLE and most corpora keep one paragraph or
    list item per line); within a line nltk's Punkt algorithm splits sentences with the
    parameters of :data:`PUNKT_ABBREVIATIONS`, a fixed list of English and academic
    abbreviations written for gecformats.  Nothing is trained at run time and nothing is
    downloaded, so the result depends only on the input, the nltk version and this list
    (both are in the splitter's ``version``).
``lines``
    Pre-split input: every non-blank line is one sentence.

>>> [t.text for t in get_tokenizer("en").tokenize('He said "no (really)".')]
['He', 'said', '"', 'no', '(', 'really', ')', '"', '.']
>>> get_tokenizer("en").tokenize("Hi there")[1]
Token(text='there', start=3, end=8)
>>> [s.text for s in get_splitter("punkt").tokenize("See e.g. Smith et al. in 2010. It works.")]
['See e.g. Smith et al. in 2010.', 'It works.']
"""

from __future__ import annotations

import bisect
import hashlib
import os
import re
import sys
from dataclasses import dataclass
from functools import cache
from math import inf, log
from pathlib import Path
from collections.abc import Iterator
from typing import Any, NamedTuple, Protocol

IGNORABLE = re.compile(r"[\s\ufeff]+")
"""Characters that never become (part of the edge of) a token: whitespace and U+FEFF."""

_TOKEN_RUN = re.compile(r"[^\s\ufeff]+")


class Token(NamedTuple):
    """A token (or a sentence) and its exact span ``text[start:end]`` in the input.

    A named tuple: cheap to make, because tokenizers make millions of them.
    """

    text: str
    start: int
    end: int


class Tokenizer(Protocol):
    """What every tokenizer and sentence splitter provides."""

    name: str
    version: str

    def tokenize(self, text: str) -> list[Token]:
        """The tokens of ``text`` in order, each with its span; spans never overlap."""
        ...


class SpaceTokenizer:
    """Pre-tokenized text: tokens are the runs of characters between whitespace."""

    name = "space"
    version = "1"

    def tokenize(self, text: str) -> list[Token]:
        """Split ``text`` on whitespace (and U+FEFF)."""
        return [Token(m.group(), m.start(), m.end()) for m in _TOKEN_RUN.finditer(text)]


class CharTokenizer:
    """One token per character; whitespace and U+FEFF are dropped."""

    name = "char"
    version = "1"

    def tokenize(self, text: str) -> list[Token]:
        """Every non-space character of ``text`` as a token."""
        return [
            Token(ch, i, i + 1)
            for i, ch in enumerate(text)
            if not ch.isspace() and ch != "\ufeff"
        ]


class UnicodeTokenizer:
    """Language-neutral words with exact spans: runs of word characters, and every other
    non-space character alone (see :data:`UNICODE_WORD`)."""

    name = "unicode"
    version = "1"

    def __init__(self) -> None:
        import regex

        self._tokens = regex.compile(UNICODE_TOKEN).finditer

    def tokenize(self, text: str) -> list[Token]:
        """The words and punctuation/symbol characters of ``text``, in order.

        Every character that is not white space or U+FEFF falls in exactly one token.
        """
        return [Token(m.group(), m.start(), m.end()) for m in self._tokens(text)]


UNICODE_WORD = (r"[\p{L}\p{M}\p{N}]+"
                r"(?:(?:[\u200c\u200d'\-\u2018\u2019\u02bc]|(?<=\p{N})[.,](?=\p{N}))"
                r"[\p{L}\p{M}\p{N}]+)*")
"""A word of the ``unicode`` tokenizer: letters (``L``), marks (``M``, so that stress and
combining accents stay in their word) and digits/numbers (``N``), joined across a single
word-internal apostrophe (``'``, U+2018, U+2019, U+02BC: Ukrainian ``м'ясо``, ``ім‘я``;
English ``don't`` stays one word, unlike UD English), hyphen (``будь-який``,
``Нью-Йорку``, ``e-mail``: one word, as UD Ukrainian, Czech and Spanish keep them) or
zero-width (non-)joiner, and across ``.`` or ``,`` between digits (``3.14``, ``20,5``).
``:`` and ``/`` between digits split (``12 : 30``), as Stanza split UA-GEC.  A joiner at a
word's edge, or doubled, is punctuation of its own."""

_SPACE = "\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
# exactly the characters of str.isspace() and U+FEFF (the regex module's \s lacks \x1c-\x1f)

UNICODE_URL = (r"(?:[a-zA-Z][a-zA-Z0-9+.\-]*://|www\.)(?:[^" + _SPACE + r"]*"
               r"[^" + _SPACE + r".,;:!?)\]}'\"»])?")
"""A URL (``scheme://…`` or ``www.…``) is one token, as in UD; final punctuation is not
part of it."""

UNICODE_TOKEN = UNICODE_URL + "|" + UNICODE_WORD + r"|[.?!\u2026]+|(?=[^" + _SPACE + r"])\X"
"""A token of the ``unicode`` tokenizer: a :data:`UNICODE_URL`, a :data:`UNICODE_WORD`, a
run of sentence-final punctuation (``...``, ``?!``, ``!!!``: one token each, as in UD), or
any other single grapheme cluster that does not start with white space or U+FEFF
(punctuation, symbols, an emoji with its modifiers and joiners: each alone)."""


_QUOTES = {"``": ('"', "``", "''"), "''": ('"', "''", "``")}
"""nltk's rewritten quote tokens and the surface strings they may stand for."""


class EnglishTokenizer:
    """Penn-Treebank-style English words through nltk, with exact spans (no data needed)."""

    name = "en"

    def __init__(self) -> None:
        import nltk
        from nltk.tokenize.destructive import NLTKWordTokenizer

        self.version = f"nltk-{nltk.__version__}"
        self._words = NLTKWordTokenizer().tokenize

    def tokenize(self, text: str) -> list[Token]:
        """Tokenize ``text`` as one sentence; token texts are the surface strings.

        Raises:
            RuntimeError: nltk produced a token that cannot be found in the text (a bug to
                report: every rewrite nltk makes should be known here).
        """
        out: list[Token] = []
        pos = 0
        # nltk splits on white space only; U+FEFF becomes a space of the same length
        text = text.replace("\ufeff", " ")
        n = len(text)
        for word in self._words(text):
            while pos < n and text[pos].isspace():
                pos += 1
            if text.startswith(word, pos):
                end = pos + len(word)
            else:
                end = _rewritten(text, pos, word)
            if end <= pos:
                raise RuntimeError(f"cannot find token {word!r} at offset {pos} of {text!r}")
            out.append(Token(text[pos:end], pos, end))
            pos = end
        return out


def _rewritten(text: str, pos: int, word: str) -> int:
    """End of the surface string of an nltk-rewritten token at ``pos`` (``pos`` if none)."""
    for surface in _QUOTES.get(word, ()):
        if text.startswith(surface, pos):
            return pos + len(surface)
    return pos


def user_cache_dir() -> Path:
    """gecformats' cache directory under the user's cache directory (created on demand).

    ``$XDG_CACHE_HOME/gecformats`` or ``~/.cache/gecformats`` on POSIX systems,
    ``%LOCALAPPDATA%/gecformats/cache`` on Windows, ``~/Library/Caches/gecformats`` on
    macOS.
    """
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
        path = base / "gecformats" / "cache"
    elif sys.platform == "darwin":
        path = Path.home() / "Library" / "Caches" / "gecformats"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        path = base / "gecformats"
    path.mkdir(parents=True, exist_ok=True)
    return path


def hmm_cut(text: str) -> Iterator[str]:
    """``jieba.finalseg.cut(text)``, word for word, in linear time.

    jieba's Viterbi copies the whole best path of each state at each character, so a run
    of characters no dictionary word covers costs time quadratic in its length (80,000
    such characters: 25 s); this one keeps back-pointers and walks them once, with the
    same arithmetic in the same order and the same tie-breaking (``max`` of
    ``(probability, state)`` tuples), hence the same states.

    Args:
        text: the run of characters (Han, letters, digits, anything: split as jieba does).

    Returns:
        The words, as ``finalseg.cut`` yields them.
    """
    from jieba import finalseg

    for block in finalseg.re_han.split(text):
        if finalseg.re_han.match(block):
            for word in _hmm_words(block, finalseg):
                if word in finalseg.Force_Split_Words:
                    yield from word
                else:
                    yield word
        else:
            yield from (x for x in finalseg.re_skip.split(block) if x)


def _hmm_words(block: str, finalseg: Any) -> Iterator[str]:
    start_p, trans_p, emit_p = finalseg.start_P, finalseg.trans_P, finalseg.emit_P
    prev_status, min_float = finalseg.PrevStatus, finalseg.MIN_FLOAT
    probs = {y: start_p[y] + emit_p[y].get(block[0], min_float) for y in "BMES"}
    back: list[dict[str, str]] = []
    for char in block[1:]:
        new: dict[str, float] = {}
        pointers: dict[str, str] = {}
        for y in "BMES":
            em_p = emit_p[y].get(char, min_float)
            prob, state = max([(probs[y0] + trans_p[y0].get(y, min_float) + em_p, y0)
                               for y0 in prev_status[y]])
            new[y] = prob
            pointers[y] = state
        probs = new
        back.append(pointers)
    _, state = max((probs[y], y) for y in "ES")
    states = [state]
    for pointers in reversed(back):
        state = pointers[state]
        states.append(state)
    states.reverse()
    begin = nexti = 0
    for i, pos in enumerate(states):
        if pos == "B":
            begin = i
        elif pos == "E":
            yield block[begin:i + 1]
            nexti = i + 1
        elif pos == "S":
            yield block[i]
            nexti = i + 1
    if nexti < len(block):
        yield block[nexti:]


class ChineseTokenizer:
    """jieba words with character spans; spaces, U+3000 and U+FEFF never become tokens."""

    name = "zh"

    def __init__(self) -> None:
        import logging

        import jieba

        jieba.setLogLevel(logging.WARNING)
        self.version = f"jieba-{jieba.__version__}"
        self._jieba = jieba.Tokenizer()
        self._jieba.tmp_dir = str(user_cache_dir())
        self._blocks = jieba.re_han_default.split
        self._is_han = jieba.re_han_default.match
        self._cache: dict[str, tuple[tuple[str, ...], tuple[int, ...]]] = {}
        self._logp: dict[str, float | None] = {}
        self._runs: dict[str, tuple[str, ...]] = {}

    def _cut_han(self, block: str) -> tuple[str, ...]:
        """jieba's ``Tokenizer.__cut_DAG`` (dictionary DAG, best route, HMM for unknown runs)
        on one block of Han characters, letters and digits, with the same floating-point
        arithmetic in the same order (so the same words), about twice as fast: the DAG
        and the route are built in one right-to-left pass, and the log-probability of every
        dictionary word is computed once, when the first block is cut."""
        jb = self._jieba
        table = self._logp  # dictionary entry → log-probability, None for a mere prefix
        if not table:
            jb.check_initialized()
            logtotal = log(jb.total)
            table.update((w, log(f) - logtotal if f else None) for w, f in jb.FREQ.items())
        freq = jb.FREQ
        logtotal = log(jb.total)
        n = len(block)
        score = [0.0] * (n + 1)
        nxt = [0] * (n + 1)
        for k in range(n - 1, -1, -1):
            best_score = -inf
            best_x = -1
            i = k
            frag = block[k]
            while i < n:
                lp = table.get(frag, False)
                if lp is False:  # not even a prefix of a dictionary word
                    break
                if lp is not None:
                    value = lp + score[i + 1]
                    # jieba takes max((value, x), ...): on a tie the larger x, and x grows here
                    if value >= best_score:
                        best_score = value
                        best_x = i
                i += 1
                frag = block[k:i + 1]
            if best_x < 0:  # no dictionary word starts here: the character alone
                best_score, best_x = log(freq.get(block[k]) or 1) - logtotal + score[k + 1], k
            score[k] = best_score
            nxt[k] = best_x
        words: list[str] = []
        buf = ""
        x = 0
        while x < n:
            y = nxt[x] + 1
            if y - x == 1:
                buf += block[x]
            else:
                if buf:
                    words.extend(self._unknown(buf))
                    buf = ""
                words.append(block[x:y])
            x = y
        if buf:
            words.extend(self._unknown(buf))
        return tuple(words)

    def _unknown(self, buf: str) -> tuple[str, ...]:
        """A run of single characters: jieba's HMM segmentation unless it is a known word
        (cached: the same runs come back again and again)."""
        if len(buf) == 1:
            return (buf,)
        words = self._runs.get(buf)
        if words is None:
            if len(self._runs) >= _BLOCK_CACHE:
                self._runs.clear()
            words = self._runs[buf] = (
                tuple(buf) if self._jieba.FREQ.get(buf) else tuple(hmm_cut(buf)))
        return words

    def tokenize(self, text: str) -> list[Token]:
        """Segment ``text`` into words (HMM on), trimming ignorable characters from them.

        jieba cuts every block of its ``re_han_default`` pattern (a run of Han characters,
        Latin letters and digits, or a run of anything else) on its own, so the words of
        each block are cached: a corrected sentence shares most blocks with its source and
        only the changed ones are segmented again.  The result is exactly
        ``jieba.tokenize(text)``.
        """
        out: list[Token] = []
        start = 0
        for block in self._blocks(text):
            if not block:
                continue
            words, starts = self._block(block)
            for word, a in zip(words, starts):
                out.append(Token(word, start + a, start + a + len(word)))
            start += len(block)
        return out

    def words(self, text: str) -> list[str]:
        """The texts of :meth:`tokenize`'s tokens, faster (edit extraction needs no spans)."""
        out: list[str] = []
        for block in self._blocks(text):
            if block:
                out.extend(self._block(block)[0])
        return out

    def _block(self, block: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """The words of one jieba block (ignorable characters trimmed, words of white space
        or U+FEFF left out) and where each starts in the block; cached."""
        found = self._cache.get(block)
        if found is not None:
            return found
        if len(self._cache) >= _BLOCK_CACHE:
            self._cache.clear()
        words: tuple[str, ...]
        starts: list[int] = []
        start = 0
        if self._is_han(block):  # no white space in a Han block: nothing to trim
            words = self._cut_han(block)
            for word in words:
                starts.append(start)
                start += len(word)
        else:
            kept = []
            for word in self._jieba.cut(block):
                m = _TOKEN_RUN.search(word)
                if m is not None:
                    kept.append(word[m.start():_rstripped(word)])
                    starts.append(start + m.start())
                start += len(word)
            words = tuple(kept)
        found = self._cache[block] = (words, tuple(starts))
        return found


_BLOCK_CACHE = 100_000
"""How many jieba blocks :class:`ChineseTokenizer` keeps (then it starts afresh)."""


PUNKT_ABBREVIATIONS = frozenset("""
a.k.a al approx apr art aug ave b.a b.sc bros c ca cap cf ch chap co col conf corp cp d.c dec
def dept diss dr e.g ed eds eng eq eqn eqs esp est et etc ex feb fig figs fn gen gov govt hon
i.e ibid inc incl intl jan jr jul jun lit lt ltd m.a m.sc mar max min misc mr mrs ms mt n.b
no nos nov oct op p.m a.m pp ph.d phd pl pres prof ps pt ref refs rep resp rev sec secs sect
sep sept sgt so-called sr st supp tab tbl tel trans u.k u.s u.s.a univ viz vol vols vs w.r.t
""".split())
"""The abbreviations (lower case, no final period) the ``punkt`` splitter never ends a
sentence after, such as ``e.g``, ``i.e``, ``al``, ``fig``, ``eq`` and ``cf``."""


class PunktSplitter:
    """Sentences: line breaks, then nltk Punkt with a fixed abbreviation list."""

    name = "punkt"

    def __init__(self) -> None:
        import nltk
        from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer

        params = PunktParameters()
        params.abbrev_types = set(PUNKT_ABBREVIATIONS)
        digest = hashlib.sha1(" ".join(sorted(PUNKT_ABBREVIATIONS)).encode()).hexdigest()[:8]
        self.version = f"nltk-{nltk.__version__}+abbrev-{digest}"
        self._punkt = PunktSentenceTokenizer(params, lang_vars=_punkt_variables())

    def tokenize(self, text: str) -> list[Token]:
        """The sentences of ``text``, trimmed of surrounding whitespace."""
        out: list[Token] = []
        for line in _lines(text):
            for start, end in self._punkt.span_tokenize(line.text):
                piece = line.text[start:end]
                m = _TOKEN_RUN.search(piece)
                if m is None:
                    continue
                first = start + m.start()
                last = start + _rstripped(piece)
                out.append(Token(line.text[first:last], line.start + first, line.start + last))
        return out


def _punkt_variables() -> Any:
    """Punkt's English language variables, its scan of a whole line for sentence ends
    without the wall-clock limit newer nltk puts on every regular expression (``nltk.redos``:
    5 s, then a ``TimeoutError``): a long line (a MultiGEC essay of megabytes) on a busy
    machine would fail or not by the clock.  The pattern is nltk's own and linear."""
    from nltk.tokenize.punkt import PunktLanguageVars

    try:
        from nltk import redos
    except ImportError:  # nltk before its regular-expression guard: nothing to lift
        return PunktLanguageVars()

    class Untimed(PunktLanguageVars):
        def period_context_re(self) -> Any:
            if not hasattr(self, "untimed"):
                self.untimed = redos.compile(super().period_context_re(), timeout=None)
            return self.untimed

    return Untimed()


class LineSplitter:
    """Pre-split input: each non-blank line is one sentence."""

    name = "lines"
    version = "1"

    def tokenize(self, text: str) -> list[Token]:
        """Every non-blank line of ``text``, trimmed of surrounding whitespace."""
        return _lines(text)


def _lines(text: str) -> list[Token]:
    out = []
    for m in re.finditer(r"[^\n\r]+", text):
        line = m.group()
        inner = _TOKEN_RUN.search(line)
        if inner is None:
            continue
        tail = _rstripped(line)
        out.append(Token(line[inner.start():tail], m.start() + inner.start(), m.start() + tail))
    return out


def _rstripped(text: str) -> int:
    """The length of ``text`` without trailing white space and U+FEFF."""
    m = _TRAILING.search(text)
    return m.start() if m else len(text)


_TRAILING = re.compile(r"[\s\ufeff]+\Z")


JOINED_TOKENIZERS = frozenset({"zh", "char"})
"""Tokenizers whose tokens are written without spaces between them (Chinese text)."""

TOKENIZERS = {"en": EnglishTokenizer, "zh": ChineseTokenizer, "char": CharTokenizer,
              "space": SpaceTokenizer, "unicode": UnicodeTokenizer}
"""Tokenizer name → class."""

SPLITTERS = {"punkt": PunktSplitter, "lines": LineSplitter}
"""Sentence splitter name → class."""


@cache
def get_tokenizer(name: str) -> Tokenizer:
    """The (shared) tokenizer called ``name``.

    Raises:
        ValueError: no such tokenizer (the message lists the known ones).
    """
    return _get(TOKENIZERS, name, "tokenizer")


@cache
def get_splitter(name: str) -> Tokenizer:
    """The (shared) sentence splitter called ``name``.

    Raises:
        ValueError: no such splitter (the message lists the known ones).
    """
    return _get(SPLITTERS, name, "sentence splitter")


def _get(table: dict[str, type], name: str, what: str) -> Tokenizer:
    try:
        cls = table[name]
    except KeyError:
        raise ValueError(f"unknown {what} {name!r} (known: {', '.join(table)})") from None
    return cls()  # type: ignore[no-any-return]


@dataclass(frozen=True, slots=True)
class TokenSpan:
    """The token range ``[start, end)`` a character range maps to.

    ``widened`` is true when a boundary fell inside a token and the range grew to cover
    the whole token.
    """

    start: int
    end: int
    widened: bool


class OffsetMap:
    """Character ↔ token offsets for one tokenized text.

    >>> m = OffsetMap(get_tokenizer("space").tokenize("the cat  sat"))
    >>> m.char_to_token(4, 7)              # "cat"
    TokenSpan(start=1, end=2, widened=False)
    >>> m.char_to_token(5, 7)              # "at": inside "cat", widened
    TokenSpan(start=1, end=2, widened=True)
    >>> m.char_to_token(7, 9)              # two spaces: snaps to an insertion before "sat"
    TokenSpan(start=2, end=2, widened=False)
    >>> m.token_to_char(1, 3)
    (4, 12)
    """

    __slots__ = ("tokens", "_starts", "_ends", "_length")

    def __init__(self, tokens: list[Token], length: int | None = None) -> None:
        """Build the map from tokens in text order (``length``: the text's length)."""
        self.tokens = tokens
        self._starts = [t.start for t in tokens]
        self._ends = [t.end for t in tokens]
        self._length = length if length is not None else (self._ends[-1] if tokens else 0)

    def char_to_token(self, start: int, end: int) -> TokenSpan:
        """Map the character range ``[start, end)`` to a token range.

        A boundary inside a token widens the range to that whole token (``widened``); a
        boundary in whitespace snaps to the nearest token edge inside the range (so a
        range of whitespace only becomes an insertion point).  ``start == end`` gives an
        insertion point (or, inside a token, that token).

        Raises:
            ValueError: ``start > end``.
        """
        if start > end:
            raise ValueError(f"character range {start} {end} has start > end")
        widened = False
        # First token that ends after start: start falls inside it or before it.
        i = bisect.bisect_right(self._ends, start)
        if i < len(self.tokens) and self._starts[i] < start:
            widened = True
        # Tokens that start before end: the last one is inside the range or holds end.
        j = bisect.bisect_left(self._starts, end)
        if j > 0 and self._ends[j - 1] > end:
            widened = True
        if start == end and not widened:
            return TokenSpan(i, i, False)
        if j < i:  # whitespace-only range
            j = i
        return TokenSpan(i, j, widened)

    def token_to_char(self, start: int, end: int) -> tuple[int, int]:
        """The character range of tokens ``[start, end)``; an insertion point maps to the
        start of token ``start`` (or the end of the last token at the end of the text).

        Raises:
            IndexError: the token range is outside the text.
        """
        n = len(self.tokens)
        if not 0 <= start <= end <= n:
            raise IndexError(f"token range {start} {end} is outside 0..{n}")
        if start == end:
            pos = self._starts[start] if start < n else (self._ends[-1] if n else 0)
            return (pos, pos)
        return (self._starts[start], self._ends[end - 1])
