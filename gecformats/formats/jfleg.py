"""JFLEG's M2 dialect (``EACL_exp/m2converter/{dev,test}.ref.m2``; spec ``formats-more.md`` §2.2).

JFLEG's own M2 files were written by its unofficial ``m2converter.py``.  They are M2 in
syntax, so this reader is :func:`gecformats.formats.m2.read` plus the dialect's meaning:

* the labels are converter operation codes, with ``#Ins#`` and ``#Del#`` **inverted**:
  ``A i j|||#Ins#|||`` (empty correction) *deletes* tokens ``i..j-1`` ("inserted in the
  source"), ``A i i|||#Del#|||w`` *inserts* ``w``; ``#Rp#``/``#Ri#``/``#Rc#``/``#Rs#``
  replace.  Edits are classified by span and correction, as every M2 reader does; the labels
  are kept verbatim as types, so the file is written back as read;
* every block has the four annotators ``0``–``3`` (= ``ref0``–``ref3``): an annotator with
  no ``A`` line in a block (JFLEG writes none for a reference that differs from the source
  at most in letter case; 38 dev / 34 test blocks have no ``A`` line at all) is read as
  present with no edits, and remembered in ``Sentence.meta["jfleg.absent"]`` so that
  :func:`write` leaves it out again.

What the M2 cannot reproduce (:data:`WARNING`, printed whenever this format is read): the
converter compared lower-cased tokens, so letter-case corrections are lost (applying
annotator *k*'s edits gives ``ref{k}`` exactly for only 594–615 of 747 test lines), it
re-tokenised references with NLTK (``cannot`` → ``can not``), and a few lines are
misaligned (1 test, 16–18 dev).  The plain files are the references: read them with
``--from parallel FOLDER`` (:func:`gecformats.formats.parallel.jfleg_layout`).

>>> import io
>>> text = ("S New and new technology .\\nA 0 1|||#Ins#||||||REQUIRED|||-NONE-|||2\\n"
...         "A 1 1|||#Del#|||Newer|||REQUIRED|||-NONE-|||2\\n\\n")
>>> [s] = read(io.StringIO(text))
>>> sorted(s.annotators), s.meta["jfleg.absent"]
([0, 1, 2, 3], '0,1,3')
>>> " ".join(s.corrected(2))
'Newer and new technology .'
>>> out = io.StringIO(); _ = write([s], out); out.getvalue() == text
True
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import IO

from gecformats.formats import m2
from gecformats.io import Source
from gecformats.model import Sentence
from gecformats.report import Report

NAME = "jfleg"
SUFFIXES: tuple[str, ...] = ()  # JFLEG's files end in .ref.m2, which is also plain M2
UNIT = "token"

ANNOTATORS = 4
"""JFLEG's references per sentence (``ref0``–``ref3``)."""

ABSENT_META = "jfleg.absent"
"""``Sentence.meta`` key: the annotators the block had no line for (comma-separated)."""

WARNING = ("JFLEG's M2 is not its references: its converter dropped letter-case corrections "
           "(130-152 of 747 test sentences per reference), re-tokenised with NLTK ('cannot' "
           "-> 'can not') and misaligned a few lines (1 test, 16-18 dev); #Ins# deletes and "
           "#Del# inserts (labels kept as types); an annotator without a line in a block is "
           "read as unchanged. For GLEU and references use the plain files: --from parallel "
           "FOLDER (NAME.src, NAME.ref0-3)")
"""What reading this format cannot reproduce; the command line prints it as a warning."""


def read(source: Source) -> Iterator[Sentence]:
    """Read a JFLEG M2 file sentence by sentence (streaming).

    Args:
        source: a path (``.gz`` is decompressed, ``-`` is standard input) or an open file.

    Yields:
        One :class:`~gecformats.model.Sentence` per block with annotators ``0``–``3`` (and
        any higher one the file names); those without a line in the block have no edits and
        are listed in ``meta["jfleg.absent"]``.

    Raises:
        GecFormatError: malformed M2 (file and line named), or invalid UTF-8.
        OSError: the file cannot be opened.
    """
    for sentence in m2.read(source):
        yield complete(sentence)


def complete(sentence: Sentence) -> Sentence:
    """``sentence`` with annotators ``0``–``3`` all present (the absent ones with no edits,
    named in ``meta["jfleg.absent"]``); unchanged when none is absent."""
    absent = [k for k in range(ANNOTATORS) if k not in sentence.annotators]
    if not absent:
        return sentence
    # the file's annotators in its order, then the filled-in ones
    ordered = dict(sentence.annotators)
    ordered.update((k, ()) for k in absent)
    meta = {**sentence.meta, ABSENT_META: ",".join(map(str, absent))}
    return sentence.replace(annotators=ordered, meta=meta)


def write(sentences: Iterable[Sentence], dest: str | os.PathLike[str] | IO[str],
          *, deletion: str | None = None, targets: m2.TargetMode = "keep") -> Report:
    """Write sentences as JFLEG M2: plain M2 without the lines of the annotators a
    JFLEG block had none for (``meta["jfleg.absent"]``), so a file read is written back as
    it was (with an empty line after every block; ``test.ref.m2`` lacks its last one).

    Args:
        sentences: the sentences.
        dest: a path (``-`` is standard output) or an open text file.
        deletion, targets: as for :func:`gecformats.formats.m2.write`.

    Returns:
        The :class:`~gecformats.report.Report`.
    """
    return m2.write((_without_absent(s) for s in sentences), dest, deletion=deletion,
                    targets=targets)


def _without_absent(sentence: Sentence) -> Sentence:
    absent = sentence.meta.get(ABSENT_META)
    if not absent:
        return sentence
    gone = {int(k) for k in absent.split(",") if k.isdigit()}
    kept = {k: e for k, e in sentence.annotators.items() if k not in gone or e}
    return sentence.replace(annotators=kept)
