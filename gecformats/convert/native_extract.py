"""ERRANT-like edits without spaCy: the ``native`` extractor (``--extractor native``).

ERRANT (Bryant et al. 2017; errant 3.0.2) extracts edits in two steps, both of which read
spaCy's analysis of each token: an alignment (a Damerau-Levenshtein variant whose
substitution cost is lower for tokens with the same lemma or part of speech) and rules that
merge or split the adjacent non-matching steps of that alignment.  This module runs the
same two steps, rule for rule, on a guess of each token's word class and lemma made from
the token's string and its neighbours alone (:func:`words`): closed-class word lists,
suffixes, a few context rules, no tagger and no model.  Where the guess is right, the edits
are ERRANT's; where it is wrong, they may merge or split differently.  Measured on
CoNLL-2014 (``tests/bench/bench_extractors.py``) it gives ERRANT's edit set for about 98 %
of the source → reference pairs, against 82 % for the ``lcs`` extractor.

What ERRANT does, and what this module does for it:

* **Alignment** (ERRANT's ``alignment.py``).  Equal tokens match (cost 0); otherwise the
  cheapest of a deletion or an insertion (1), a substitution, and a transposition of k + 1
  tokens whose lower-cased multisets are equal (cost k: ``a b`` → ``B a``).  A substitution
  costs 0 when the tokens differ only in case, else 0.499 unless the lemmas are equal, plus
  0 for the same part of speech, 0.25 for two open classes (adjective, adverb, noun, verb),
  0.5 otherwise, plus the normalised character insertion/deletion distance.  So ``go`` →
  ``went`` aligns as one substitution even between other changes, and a case change is a
  free substitution.  The lemma and word class are :func:`words`' guesses.
* **Transpositions** are always their own edit (ERRANT: "T is always split"): ``very much
  like`` → ``like very much``; this is also how case-insensitive word order changes become
  one ``R:WO`` edit.
* **Runs of only deletions, or only insertions**, are one edit.
* **Other runs** (with a substitution) are tried from the widest sub-span down, as ERRANT's
  ``process_seq``:

  - a possessive ``'s`` or ``'`` (guessed: after a word that is not a pronoun such as
    ``it`` or ``there``, where ``'s`` is "is") at the start is split off; at the end it is
    merged with the token before it (``friends`` → ``friend 's``);
  - a span whose last tokens differ only in case is merged with the token before when that
    is punctuation (``, the`` → ``. The``: one edit) or, at the start of the run, when a
    one-token side is capitalised (``Cat`` → ``The big cat``);
  - tokens whose lower-cased letters are equal without spaces, hyphens and apostrophes are
    merged (``a cat`` → ``acat``, ``sub - way`` → ``subway``);
  - spans of unequal length whose tokens share one word class, or are all auxiliaries,
    particles and verbs, are merged (``will go`` → ``goes``, ``to eat`` → ``eating``);
  - two adjacent one-token substitutions are split; a substitution at either end of a
    two-step span whose characters are more than 75 % alike is split off (``eat food`` →
    ``ate the food``); a final determiner is split off (``its`` → ``it the``);
  - what remains is merged when it holds an open-class word, else kept as single steps.

* **Word classes** (:func:`words`) are ERRANT's coarse spaCy classes, guessed: punctuation
  and numbers by their characters; determiners, pronouns, auxiliaries, prepositions,
  conjunctions, particles and common adverbs and adjectives from short closed lists;
  ``this``/``that``/``to``/``have``/``do`` by their neighbour (``to go`` particle, ``to the``
  preposition); other words by suffix (``-ly`` adverb, ``-ing``/``-ed`` verb, ``-ous`` …
  adjective), then by context (after a modal, ``to``, a negation or a subject pronoun: a
  verb), else a noun; a word whose lemma is a verb on the other side of the pair is a verb
  too.  Lemmas strip regular suffixes and look up common irregular forms.

For speed, the alignment runs only on windows around the changed stretches that the
longest common subsequence leaves (with :data:`CONTEXT` unchanged tokens on each side),
which gives the whole-sentence alignment in all but 3 of the 19,680 CoNLL-2014 pairs
(references and 13 systems).  ERRANT's alignment is quadratic and its rules try every
sub-span of a run, so unrelated or huge sentences are bounded: a window past
:data:`MAX_CELLS` keeps the ``lcs`` spans, a run past :data:`MAX_RUN` steps is one edit, a
transposition is at most :data:`MAX_TRANSPOSITION` tokens long (none of which happens on
CoNLL-2014).

What string rules cannot know: spaCy's word classes in context (``that`` as determiner,
pronoun or conjunction; a verb in ``-s`` after a noun), lemmas of unlisted irregular
forms, and the parse of odd tokens (``&amp;``, quotes glued to words).  Those are most of
the remaining 2 % of reference sentences whose edits differ from ERRANT's.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

__all__ = ["Word", "words", "spans", "CONTEXT"]

CONTEXT = 3
"""Unchanged tokens kept on each side of a changed stretch when it is aligned (and the
shortest stretch of unchanged tokens that separates two windows)."""
MAX_CELLS = 10_000
"""The largest window (source tokens × target tokens) aligned as ERRANT aligns; a larger one
(unrelated or huge sentences) keeps the ``lcs`` extractor's spans: ERRANT's alignment is
quadratic in time and memory."""
MAX_RUN = 40
"""The longest run of non-matching alignment steps that the merging rules split; a longer
one becomes one edit (ERRANT's rules try every sub-span of a run: cubic)."""
MAX_TRANSPOSITION = 12
"""The longest transposition looked for (ERRANT has no bound; on CoNLL-2014 none is longer
than a few tokens)."""


class Word(NamedTuple):
    """What the alignment and the merging rules read of a token (ERRANT reads spaCy's)."""

    text: str
    lower: str
    pos: str
    """A guessed universal part-of-speech tag (``NOUN``, ``VERB``, ``DET``, ``PUNCT`` …)."""
    possessive: bool
    """A possessive ``'s`` or ``'`` (spaCy's tag ``POS``)."""
    lemma: str


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


DETERMINERS = _words("the a an every each another either neither no")
DEMONSTRATIVES = _words("this these those some any both all")
POSSESSIVES = _words("my your his her its our their whose")
PRONOUNS = _words(
    "there i you he she it we they me him us them myself yourself himself herself itself "
    "ourselves themselves yourselves mine yours hers ours theirs someone somebody something "
    "anyone anybody anything everyone everybody everything nobody nothing none who whom "
    "which what whatever whoever")
SUBJECTS = _words("i you he she it we they who")
PREPOSITIONS = _words(
    "in on at of for with by from about into onto upon over under between among through "
    "during before after above below across against along around behind beside besides "
    "beyond despite except inside outside near toward towards within without via per than "
    "like up out down off")
COORDINATORS = _words("and or but nor &")
SUBORDINATORS = _words("because if although though while whereas unless whether since once "
                       "as when how where why")
BE = _words("be am is are was were been being 'm 're")
HAVE_DO = _words("have has had having 've 'd do does did")
DO = _words("do does did")
MODALS = _words("will would shall should can could may might must 'll ca wo sha")
NEGATIONS = _words("not n't never")
ADVERBS = _words("very also too so just only even still already always often sometimes "
                 "usually then here now however therefore thus hence moreover furthermore "
                 "instead rather quite almost much well again ever yet really nowadays today")
ADJECTIVES = _words(
    "such more most less least good bad new old important different many other same own high "
    "low large small big able certain possible necessary social young few better best worse "
    "worst serious real true free hard easy clear sure whole human private personal major "
    "main public common difficult similar several various long short great little due aware "
    "likely unlikely early daily friendly lonely lovely costly elderly ugly holy silly only")
NOT_ADVERBS = _words("family supply apply reply rely july italy assembly ally fly belly jelly "
                     "bully")
VERBS = _words(
    "say get make go know take see come think look want give use find tell ask work seem "
    "feel try leave call need become put mean keep let begin help show hear play run move "
    "live believe bring happen write provide sit stand lose pay meet include continue set "
    "learn change lead understand watch follow stop create speak read allow add spend grow "
    "open walk win offer remember love consider appear buy wait serve die send expect build "
    "stay fall cut reach kill remain suggest raise pass sell require report decide pull "
    "affect prevent protect inform share carry choose face suffer cause reduce avoid "
    "increase solve improve explain develop accept born known made told")
CLITIC_HOSTS = _words("it he she that there what who let here where how")
"""Words after which ``'s`` is "is"/"has" (an auxiliary), not a possessive."""
IRREGULAR = dict(pair.split(":") for pair in (
    "is:be am:be are:be was:be were:be been:be being:be 'm:be 're:be has:have had:have "
    "having:have 've:have does:do did:do done:do went:go gone:go children:child "
    "people:person men:man women:woman 'll:will wo:will ca:can n't:not better:good best:good "
    "worse:bad worst:bad made:make took:take taken:take got:get gotten:get gave:give "
    "given:give found:find thought:think told:tell said:say knew:know known:know "
    "became:become came:come felt:feel left:leave kept:keep brought:bring began:begin "
    "begun:begin saw:see seen:see lost:lose paid:pay met:meet led:lead ran:run spent:spend "
    "built:build sent:send held:hold meant:mean chose:choose chosen:choose lives:life "
    "wives:wife lay:lie fell:fall fallen:fall them:they him:he her:she us:we me:i an:a"
).split())
SUFFIXES = (("ies", "y"), ("ied", "y"), ("sses", "ss"), ("ches", "ch"), ("shes", "sh"),
            ("xes", "x"), ("ing", ""), ("ed", ""), ("es", "e"), ("s", ""))
ADJECTIVE_SUFFIXES = ("ous", "ful", "ive", "able", "ible", "al", "ic", "less", "ish", "ary")
_PUNCT = re.compile(r"[^\w\s]+")
OPEN_ALIGN = frozenset({"ADJ", "ADV", "NOUN", "VERB"})
"""Open classes for the substitution cost (ERRANT's ``Alignment._open_pos``)."""
OPEN_MERGE = frozenset({"ADJ", "AUX", "ADV", "NOUN", "VERB"})
"""Open classes for merging (ERRANT's ``merger.open_pos``: auxiliaries too)."""
VERBAL = frozenset({"AUX", "PART", "VERB"})


@lru_cache(maxsize=16384)
def _lexical(lower: str) -> str:
    """The class of a lower-cased token out of context; ``AUX?``, ``TO``, ``THAT``, ``DEM``,
    ``VERB?`` and ``OPEN`` are decided by :func:`_tags` from the neighbours."""
    if _PUNCT.fullmatch(lower):
        return "PUNCT"
    if lower[:1].isdigit():
        return "NUM"
    for words_, tag in ((DETERMINERS, "DET"), (DEMONSTRATIVES, "DEM"), (POSSESSIVES, "PRON"),
                        (PRONOUNS, "PRON"), (BE, "AUX"), (MODALS, "AUX"), (HAVE_DO, "AUX?"),
                        (NEGATIONS, "PART"), (PREPOSITIONS, "ADP"), (COORDINATORS, "CCONJ"),
                        (SUBORDINATORS, "SCONJ"), (VERBS, "VERB?"), (ADVERBS, "ADV"),
                        (ADJECTIVES, "ADJ")):
        if lower in words_:
            return tag
    special = {"'s": "PART", "'": "PART", "to": "TO", "that": "THAT", "one": "NUM"}.get(lower)
    if special:
        return special
    if lower.endswith("ly") and lower not in NOT_ADVERBS:
        return "ADV"
    if lower.endswith(("ing", "ed")):
        return "VERB"
    if lower.endswith(ADJECTIVE_SUFFIXES):
        return "ADJ"
    return "OPEN"


def _tags(lowers: Sequence[str]) -> list[str]:
    """Guessed word classes of a sentence's lower-cased tokens (see the module docstring)."""
    lexical = [_lexical(w) for w in lowers]
    n = len(lowers)
    out = []
    for i, tag in enumerate(lexical):
        before = lexical[i - 1] if i else None
        word_before = lowers[i - 1] if i else ""
        after = lexical[i + 1] if i + 1 < n else None
        word_after = lowers[i + 1] if i + 1 < n else ""
        if tag == "AUX?":  # have, do: auxiliary before a verb, a negation or a subject
            tag = "AUX" if (after in ("VERB", "PART") or word_after in NEGATIONS
                            or word_after in SUBJECTS or word_after == "been") else "VERB"
        elif tag == "TO":
            tag = "ADP" if after in ("DET", "PRON", "NUM") or (
                after == "VERB" and word_after.endswith("ing")) else "PART"
        elif tag == "THAT":
            if after in ("OPEN", "ADJ") and before not in ("OPEN", "VERB", "ADJ"):
                tag = "DET"
            elif before in ("VERB", "ADJ", "OPEN") and after in ("PRON", "DET"):
                tag = "SCONJ"
            else:
                tag = "PRON"
        elif tag == "DEM":
            tag = "DET" if after in ("OPEN", "ADJ", "VERB?", "NUM") else "PRON"
        elif tag == "VERB?":
            tag = "NOUN" if before in ("DET", "ADJ") or word_before in POSSESSIVES else "VERB"
        elif tag == "VERB" and lowers[i].endswith("ing") and (
                before == "DET" or word_before in POSSESSIVES):
            tag = "NOUN"
        elif tag == "OPEN":
            verbal = (word_before in MODALS or word_before in DO or word_before in NEGATIONS
                      or word_before == "to" or word_before in SUBJECTS)
            tag = "VERB" if verbal else "NOUN"
        out.append(tag)
    return out


@lru_cache(maxsize=16384)
def _lemma(lower: str) -> str:
    """A guessed lemma: an irregular form's, else the word without a regular suffix."""
    irregular = IRREGULAR.get(lower)
    if irregular is not None:
        return irregular
    for suffix, replacement in SUFFIXES:
        if lower.endswith(suffix) and len(lower) - len(suffix) >= 3 and not lower.endswith("ss"):
            return lower[:-len(suffix)] + replacement
    return lower


def words(tokens: Sequence[str]) -> list[Word]:
    """What the alignment reads of each token of a sentence (word class and lemma guessed
    from the strings, see the module docstring)."""
    return list(_sentence_words(tuple(tokens)))


@lru_cache(maxsize=64)
def _sentence_words(tokens: tuple[str, ...]) -> tuple[Word, ...]:
    """:func:`words`, remembered for the last few sentences (a source is extracted against
    each of its references in turn)."""
    lowers = [t.lower() for t in tokens]
    out = []
    for i, (text, lower, tag) in enumerate(zip(tokens, lowers, _tags(lowers))):
        possessive = lower == "'s" or (lower == "'" and i > 0 and lowers[i - 1].endswith("s")
                                       and out[-1].pos in ("NOUN", "VERB"))
        if lower == "'s" and i and lowers[i - 1] in CLITIC_HOSTS:
            possessive, tag = False, "AUX"
        elif lower == "'" and not possessive:
            tag = "PUNCT"
        out.append(Word(text, lower, tag, possessive, _lemma(lower)))
    return tuple(out)


def _verbs_shared(side: list[Word], other: list[Word]) -> list[Word]:
    """``side`` with a guessed noun made a verb where its lemma is a verb on either side
    (``will reduce`` → ``reduces``: both verbs)."""
    verbs = {w.lemma for w in side if w.pos == "VERB"} | {w.lemma for w in other
                                                           if w.pos == "VERB"}
    return [w._replace(pos="VERB") if w.pos == "NOUN" and w.lemma in verbs else w for w in side]


# ------------------------------------------------------------------ alignment


@lru_cache(maxsize=65536)
def _indel(a: str, b: str) -> float:
    """The normalised character insertion/deletion distance (rapidfuzz's
    ``Indel.normalized_distance``, which ERRANT uses): 1 − 2·LCS / (|a| + |b|), the longest
    common subsequence counted with Hyyrö's bit-vector recurrence."""
    total = len(a) + len(b)
    if a == b or not total:
        return 0.0
    if len(b) > len(a):
        # the bit vectors over the shorter string, the loop over the longer (a token of a
        # megabyte against a word: a million small-integer steps, not ones on million-bit
        # integers); the LCS is symmetric
        a, b = b, a
    if not b:
        return 1.0
    masks: dict[str, int] = {}
    for i, char in enumerate(b):
        masks[char] = masks.get(char, 0) | (1 << i)
    if len(a) > 256:
        # a character that is not in b leaves the vector as it is: dropped before the loop
        a = re.sub(f"[^{re.escape(''.join(masks))}]+", "", a)
    full = (1 << len(b)) - 1
    v = full
    for char in a:
        u = v & masks.get(char, 0)
        v = ((v + u) | (v - u)) & full
        if not v:  # all of b matched: the LCS is b's length
            break
    common = len(b) - bin(v).count("1")
    return (total - 2 * common) / total


def _word_cost(o: Word, c: Word) -> float:
    """The lemma and class part of ERRANT's ``get_sub_cost`` (guessed), ``-1.0`` for tokens
    equal but for case (a substitution of cost 0)."""
    if o.lower == c.lower:
        return -1.0
    lemma_cost = 0 if o.lemma == c.lemma else 0.499
    if o.pos == c.pos:
        pos_cost = 0.0
    elif o.pos in OPEN_ALIGN and c.pos in OPEN_ALIGN:
        pos_cost = 0.25
    else:
        pos_cost = 0.5
    return lemma_cost + pos_cost


Step = tuple[str, int, int, int, int]
"""An alignment step ``(op, i1, i2, j1, j2)``: ``M`` match, ``S`` substitution, ``D``,
``I``, ``T<k>`` a transposition of k tokens, ``X`` merged steps."""


def alignment_tables(n: int, m: int) -> tuple[list[list[float]], list[list[str]]]:
    """ERRANT's cost and operation tables for ``n`` original and ``m`` corrected tokens,
    before the dynamic programme: the first row insertions, the first column deletions (one
    each), ``O`` elsewhere.  Shared by :func:`_alignment` and ERRANT's own aligner as
    :mod:`gecformats.convert.errant_extract` runs it."""
    cost = [[0.0] * (m + 1) for _ in range(n + 1)]
    ops = [["O"] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        cost[i][0] = cost[i - 1][0] + 1
        ops[i][0] = "D"
    for j in range(1, m + 1):
        cost[0][j] = cost[0][j - 1] + 1
        ops[0][j] = "I"
    return cost, ops


def _alignment(orig: Sequence[Word], cor: Sequence[Word]) -> list[Step]:
    """ERRANT's cheapest alignment of two token sequences (its ``Alignment.align`` and
    ``get_cheapest_align_seq``: the first cheapest of transposition, substitution,
    insertion, deletion; traced back from the end)."""
    n, m = len(orig), len(cor)
    o_low = [o.lower for o in orig]
    c_low = [c.lower for c in cor]
    cost, ops = alignment_tables(n, m)
    for i in range(n):
        word = orig[i]
        row, above, here_ops = cost[i + 1], cost[i], ops[i + 1]
        for j in range(m):
            if word.text == cor[j].text:
                row[j + 1] = above[j]
                here_ops[j + 1] = "M"
                continue
            delete = above[j + 1] + 1
            insert = row[j] + 1
            partial = _word_cost(word, cor[j])
            if partial < 0:
                substitute = above[j] + 0
            elif above[j] + partial > min(insert, delete):  # the characters cannot help
                substitute = float("inf")
            else:  # summed in ERRANT's order, for the same floating-point costs
                substitute = above[j] + (partial + _indel(word.text, cor[j].text))
            transpose = float("inf")
            k = 1
            while i - k >= 0 and j - k >= 0 and k < MAX_TRANSPOSITION and \
                    cost[i - k + 1][j - k + 1] != cost[i - k][j - k]:
                if sorted(o_low[i - k:i + 1]) == sorted(c_low[j - k:j + 1]):
                    transpose = cost[i - k][j - k] + k
                    break
                k += 1
            best = min(transpose, substitute, insert, delete)
            row[j + 1] = best
            here_ops[j + 1] = ("T" + str(k + 1) if best == transpose else "S" if best == substitute
                               else "I" if best == insert else "D")
    i, j = n, m
    steps: list[Step] = []
    while i + j:
        op = ops[i][j]
        if op in ("M", "S"):
            steps.append((op, i - 1, i, j - 1, j))
            i, j = i - 1, j - 1
        elif op == "D":
            steps.append((op, i - 1, i, j, j))
            i -= 1
        elif op == "I":
            steps.append((op, i, i, j - 1, j))
            j -= 1
        else:
            k = int(op[1:])
            steps.append((op, i - k, i, j - k, j))
            i, j = i - k, j - k
    steps.reverse()
    return steps


# ------------------------------------------------------------------ merging


def _merged(steps: Sequence[Step]) -> list[Step]:
    return [("X", steps[0][1], steps[-1][2], steps[0][3], steps[-1][4])] if steps else []


def _is_punct(word: Word) -> bool:
    return word.pos == "PUNCT" or word.text in string.punctuation


def _process(steps: list[Step], orig: Sequence[Word], cor: Sequence[Word]) -> list[Step]:
    """ERRANT's ``process_seq``: merge or split a run of adjacent D, I and S steps (the
    rules are listed in the module docstring)."""
    if len(steps) <= 1:
        return steps
    ops = [s[0] for s in steps]
    if set(ops) in ({"D"}, {"I"}) or len(steps) > MAX_RUN:
        return _merged(steps)
    content = False
    spans = sorted(combinations(range(len(steps)), 2), key=lambda x: x[1] - x[0], reverse=True)
    for start, end in spans:
        if "S" not in ops[start:end + 1]:
            continue
        o = orig[steps[start][1]:steps[end][2]]
        c = cor[steps[start][3]:steps[end][4]]
        if start == 0 and (o[0].possessive or c[0].possessive):
            return [steps[0]] + _process(steps[1:], orig, cor)
        if o[-1].possessive or c[-1].possessive:
            return (_process(steps[:end - 1], orig, cor) + _merged(steps[end - 1:end + 1])
                    + _process(steps[end + 1:], orig, cor))
        if o[-1].lower == c[-1].lower:
            if start == 0 and ((len(o) == 1 and c[0].text[:1].isupper())
                               or (len(c) == 1 and o[0].text[:1].isupper())):
                return _merged(steps[start:end + 1]) + _process(steps[end + 1:], orig, cor)
            if (len(o) > 1 and _is_punct(o[-2])) or (len(c) > 1 and _is_punct(c[-2])):
                return (_process(steps[:end - 1], orig, cor) + _merged(steps[end - 1:end + 1])
                        + _process(steps[end + 1:], orig, cor))
        joined_o = re.sub("['-]", "", "".join(w.lower for w in o))
        joined_c = re.sub("['-]", "", "".join(w.lower for w in c))
        classes = {w.pos for w in o} | {w.pos for w in c}
        if joined_o == joined_c or (len(o) != len(c) and (len(classes) == 1
                                                          or classes <= VERBAL)):
            return (_process(steps[:start], orig, cor) + _merged(steps[start:end + 1])
                    + _process(steps[end + 1:], orig, cor))
        if end - start < 2:
            split = (len(o) == len(c) == 2
                     or (ops[start] == "S" and 1 - _indel(o[0].text, c[0].text) > 0.75)
                     or (ops[end] == "S" and 1 - _indel(o[-1].text, c[-1].text) > 0.75))
            if split:
                return (_process(steps[:start + 1], orig, cor)
                        + _process(steps[start + 1:], orig, cor))
            if end == len(steps) - 1 and ((ops[-1] in ("D", "S") and o[-1].pos == "DET")
                                          or (ops[-1] in ("I", "S") and c[-1].pos == "DET")):
                return _process(steps[:-1], orig, cor) + [steps[-1]]
        if not classes.isdisjoint(OPEN_MERGE):
            content = True
    return _merged(steps) if content else steps


def _rule_edits(orig: Sequence[Word], cor: Sequence[Word]) -> list[tuple[int, int, int, int]]:
    """ERRANT's ``get_rule_edits`` on one alignment: the edits' spans, in order."""
    out: list[tuple[int, int, int, int]] = []
    run: list[Step] = []
    for step in _alignment(orig, cor) + [("M", 0, 0, 0, 0)]:
        if step[0] != "M" and step[0][0] != "T":
            run.append(step)
            continue
        if run:
            out.extend(s[1:] for s in _process(run, orig, cor))
            run = []
        if step[0] != "M":
            out.append(step[1:])
    return out


# ------------------------------------------------------------------ windows


def _windows(source: Sequence[str], target: Sequence[str]
             ) -> list[tuple[int, int, int, int]]:
    """Stretches to align separately: the changed spans of the longest common subsequence
    (:func:`gecformats.convert.extract.align`'s, without its word-order merge), joined
    when fewer than ``2 × CONTEXT`` unchanged tokens separate them, widened by
    :data:`CONTEXT` unchanged tokens on each side."""
    from gecformats.convert.extract import changed_spans

    out: list[list[int]] = []
    for i1, i2, j1, j2 in changed_spans(source, target):
        if out and i1 - out[-1][1] < 2 * CONTEXT:
            out[-1][1], out[-1][3] = i2, j2
        else:
            out.append([i1, i2, j1, j2])
    windows = []
    for i1, i2, j1, j2 in out:
        before = min(CONTEXT, i1, j1)
        after = min(CONTEXT, len(source) - i2, len(target) - j2)
        windows.append((i1 - before, i2 + after, j1 - before, j2 + after))
    return windows


def spans(source: Sequence[str], target: Sequence[str], *, whole: bool = False
          ) -> list[tuple[int, int, int, int]]:
    """The edits ERRANT would extract, as far as :func:`words`' guesses allow.

    Args:
        source, target: the token sequences.
        whole: align the whole sentences at once (slower; the default aligns windows
            around the changes, see the module docstring).

    Returns:
        ``(i1, i2, j1, j2)`` tuples in source order: ``source[i1:i2]`` becomes
        ``target[j1:j2]``; the spans do not overlap and applying them all gives ``target``.
    """
    if tuple(source) == tuple(target):
        return []
    orig, cor = words(source), words(target)
    orig, cor = _verbs_shared(orig, cor), _verbs_shared(cor, orig)
    if whole and len(orig) * len(cor) <= MAX_CELLS:
        return _rule_edits(orig, cor)
    out = []
    for i1, i2, j1, j2 in _windows(source, target):
        if (i2 - i1) * (j2 - j1) > MAX_CELLS:
            from gecformats.convert.extract import align

            out.extend((a + i1, b + i1, c + j1, d + j1)
                       for a, b, c, d in align(source[i1:i2], target[j1:j2]))
            continue
        out.extend((a + i1, b + i1, c + j1, d + j1)
                   for a, b, c, d in _rule_edits(orig[i1:i2], cor[j1:j2]))
    return out
