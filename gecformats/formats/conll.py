"""The CoNLL-2013/14 token release: ``.conll`` sentences with a ``.conll.ann`` beside them.

The NUS preprocessing of NUCLE and of the CoNLL-2013/14 test sets wrote, besides the M2
file, one token per line (a blank line after each sentence), tab-separated::

    nid  pid  sid  token-id  token  POS  head  relation  parse

and the annotation as mistakes over those tokens, one ``ANNOTATION`` block per annotated
sentence::

    <ANNOTATION>
    <MISTAKE nid="2" pid="0" sid="0" start_token="1" end_token="1">
    <TYPE>ArtOrDet</TYPE>
    <CORRECTION>the</CORRECTION>
    </MISTAKE>
    </ANNOTATION>

``nid`` is the essay, ``pid`` the paragraph and ``sid`` the sentence within it, all from 0
but ``nid``; ``start_token``/``end_token`` are the M2 span (an insertion has them equal) and
the correction is already tokenized (an empty one is a deletion).

Each sentence reads into a :class:`~gecformats.model.Sentence`: its tokens, ``id``
``"nid-pid-sid"``, ``meta`` ``conll.nid``/``conll.pid``/``conll.sid``, and one annotator per
annotation file (annotator *k* is the *k*-th file; the default is ``SOURCE.ann``).  As in
the CoNLL M2 files, a sentence no annotator has a mistake in has no annotator (no ``A``
line) and, where another has, an annotator without mistakes is present with none (a
``noop`` line).  The parse columns are not kept: the format is read only.

Both files stream in step: the annotation names sentences in the ``.conll`` file's order.
A malformed line, a token id out of sequence, a span outside its sentence, or a mistake for
a sentence the ``.conll`` file does not have (there) is an error naming file and line.

>>> import io
>>> sents = list(parse("1\\t0\\t0\\t0\\tHe\\n1\\t0\\t0\\t1\\tgo\\n\\n",
...                    ['<MISTAKE nid="1" pid="0" sid="0" start_token="1" end_token="2">\\n'
...                     '<TYPE>SVA</TYPE>\\n<CORRECTION>goes</CORRECTION>\\n</MISTAKE>\\n']))
>>> sents[0].source, sents[0].id, sents[0].annotators[0][0].corrections
(('He', 'go'), '1-0-0', (('goes',),))
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack
from typing import Any

from gecformats.errors import GecFormatError, UsageError
from gecformats.io import source_name, string_lines, text_lines
from gecformats.model import MAX_DIGITS, Edit, Sentence, make_edit
from gecformats.report import Report
from gecformats.io import own_lines

NAME = "conll"
UNIT = "token"
SUFFIXES: tuple[str, ...] = (".conll",)

Key = tuple[str, str, str]
"""A sentence's ``(nid, pid, sid)``."""

_MISTAKE = re.compile(r"<MISTAKE\s+([^>]*)>")
_ATTR = re.compile(r"([A-Za-z_]+)\s*=\s*\"([^\"]*)\"")
_FIELD = re.compile(r"<(TYPE|CORRECTION|COMMENT)>(.*?)</\1>", re.S)
_MISTAKE_ATTRS = ("nid", "pid", "sid", "start_token", "end_token")


def read(source: str | os.PathLike[str],
         *, ann: Sequence[str | os.PathLike[str]] | None = None) -> Iterator[Sentence]:
    """Stream the sentences of a ``.conll`` file with the mistakes of its annotation files.

    Args:
        source: the ``.conll`` file (``.gz`` read transparently).
        ann: the annotation files, one annotator each (default: ``SOURCE.ann``).

    Yields:
        One :class:`~gecformats.model.Sentence` per sentence of ``source``.

    Raises:
        UsageError: no annotation file given and ``SOURCE.ann`` does not exist.
        GecFormatError: malformed input or annotation out of step (``FILE:LINE: message``).
        OSError: a file cannot be read.
    """
    if not ann:
        default = os.fspath(source) + ".ann"
        if os.fspath(source) == "-" or not os.path.exists(default):
            raise UsageError(f"no annotation file: {default} does not exist; name the "
                             ".conll.ann file(s) with --ann")
        ann = [default]
    with ExitStack() as stack:
        # each file's bad byte is its own (not the last opened file's)
        tokens = own_lines(stack.enter_context(text_lines(source)), source)
        mistakes = [_mistakes(own_lines(stack.enter_context(text_lines(a)), a), source_name(a))
                    for a in ann]
        yield from _sentences(tokens, source_name(source), mistakes,
                              [source_name(a) for a in ann])


def parse(conll: str, *annotations: Iterable[str] | str) -> Iterator[Sentence]:
    """The sentences of ``.conll`` text and its annotations (texts or iterables of lines)."""
    streams = [_mistakes(string_lines(a, f"<annotation {k}>") if isinstance(a, str) else iter(a),
                         f"<annotation {k}>") for k, a in enumerate(annotations)]
    yield from _sentences(string_lines(conll, "<conll>"), "<conll>", streams,
                          [f"<annotation {k}>" for k in range(len(annotations))])


Mistake = tuple[Key, int, int, str, str, str | None, int]
"""``(key, start_token, end_token, type, correction, comment, line)``."""


def _sentences(lines: Iterator[str], name: str, streams: list[Iterator[Mistake]],
               ann_names: list[str]) -> Iterator[Sentence]:
    """Group the token lines into sentences and attach each annotator's mistakes."""
    pending: list[Mistake | None] = [next(s, None) for s in streams]
    seen: set[Key] = set()
    tokens: list[str] = []
    key: Key | None = None
    first = 0

    def finish() -> Sentence:
        assert key is not None
        if key in seen:
            raise GecFormatError(f"sentence nid={key[0]} pid={key[1]} sid={key[2]} appears "
                                 "twice", name, first)
        seen.add(key)
        per: dict[int, tuple[Edit, ...]] = {}
        for k, stream in enumerate(streams):
            edits = []
            while pending[k] is not None and pending[k][0] == key:  # type: ignore[index]
                m = pending[k]
                assert m is not None
                edits.append(_edit(m, len(tokens), k, ann_names[k]))
                pending[k] = next(stream, None)
            per[k] = tuple(edits)
            _check_order(pending[k], seen, ann_names[k])
        annotators = per if any(per.values()) else {}
        return Sentence(tuple(tokens), annotators, id="-".join(key),
                        meta={"conll.nid": key[0], "conll.pid": key[1], "conll.sid": key[2]})

    for lineno, line in enumerate(lines, 1):
        line = line.rstrip("\r\n")
        if not line.strip():
            if tokens:
                yield finish()
                tokens, key = [], None
            continue
        fields = line.split("\t")
        if len(fields) < 5:
            raise GecFormatError(f"{len(fields)} tab-separated fields, expected at least 5 "
                                 "(nid, pid, sid, token id, token, …)", name, lineno,
                                 "field-count")
        this = (fields[0], fields[1], fields[2])
        if not tokens:
            key, first = this, lineno
        elif this != key:
            raise GecFormatError(f"a token of sentence {'-'.join(this)} inside sentence "
                                 f"{'-'.join(key or this)} (a blank line must end a sentence)",
                                 name, lineno)
        if fields[3] != str(len(tokens)):
            raise GecFormatError(f"token id {fields[3]!r}, expected {len(tokens)}", name,
                                 lineno, "bad-number")
        if not fields[4] or any(c.isspace() for c in fields[4]):
            raise GecFormatError(f"token {fields[4]!r} is empty or holds white space", name,
                                 lineno)
        tokens.append(fields[4])
    if tokens:
        yield finish()
    for k, m in enumerate(pending):
        if m is not None:
            raise GecFormatError(f"a mistake for sentence nid={m[0][0]} pid={m[0][1]} "
                                 f"sid={m[0][2]}, which {name} does not have (or not after "
                                 "the sentences before it)", ann_names[k], m[6])


def _check_order(m: Mistake | None, seen: set[Key], name: str) -> None:
    """A mistake naming a sentence already passed is out of order."""
    if m is not None and m[0] in seen:
        raise GecFormatError(f"a mistake for sentence nid={m[0][0]} pid={m[0][1]} "
                             f"sid={m[0][2]} after later sentences' (the annotation must "
                             "follow the .conll file's order)", name, m[6])


def _edit(m: Mistake, length: int, annotator: int, name: str) -> Edit:
    key, start, end, etype, correction, comment, line = m
    if not start <= end <= length:
        raise GecFormatError(f"start_token={start} end_token={end} does not fit sentence "
                             f"{'-'.join(key)} of {length} tokens", name, line,
                             "offset-out-of-range")
    meta: tuple[tuple[str, str], ...] = (("conll.line", str(line)),)
    if comment is not None:
        meta += (("conll.comment", comment),)
    return make_edit(start, end, (tuple(correction.split()),), etype, True, "-NONE-",
                     annotator, meta)


def _mistakes(lines: Iterator[str], name: str) -> Iterator[Mistake]:
    """The mistakes of a ``.conll.ann`` file in file order."""
    block: list[str] = []
    first = 0
    for lineno, line in enumerate(lines, 1):
        stripped = line.strip()
        if block:
            block.append(line)
            if "</MISTAKE>" in stripped:
                yield _mistake("".join(block), name, first)
                block = []
            continue
        if stripped.startswith("<MISTAKE"):
            block, first = [line], lineno
            if "</MISTAKE>" in stripped:
                yield _mistake(line, name, first)
                block = []
        elif stripped not in ("", "<ANNOTATION>", "</ANNOTATION>"):
            raise GecFormatError(f"expected <ANNOTATION>, <MISTAKE> or a blank line, found "
                                 f"{stripped[:40]!r}", name, lineno)
    if block:
        raise GecFormatError("the MISTAKE is not closed (</MISTAKE> missing)", name, first)


def _mistake(text: str, name: str, line: int) -> Mistake:
    head = _MISTAKE.match(text.lstrip())
    if head is None:
        raise GecFormatError("malformed <MISTAKE> tag", name, line)
    attrs = dict(_ATTR.findall(head.group(1)))
    for attr in _MISTAKE_ATTRS:
        if attr not in attrs:
            raise GecFormatError(f"<MISTAKE> without {attr}", name, line)
    for attr in ("start_token", "end_token"):
        value = attrs[attr]
        if not (value.isascii() and value.isdigit()) or len(value) > MAX_DIGITS:
            raise GecFormatError(f"<MISTAKE> {attr}={value!r} is not a number", name, line,
                                 "bad-number")
    fields = {tag: value for tag, value in _FIELD.findall(text)}
    return ((attrs["nid"], attrs["pid"], attrs["sid"]), int(attrs["start_token"]),
            int(attrs["end_token"]), fields.get("TYPE", "").strip(),
            fields.get("CORRECTION", "").strip(), fields.get("COMMENT"), line)


def write(sentences: Any, dest: str | os.PathLike[str], **_: Any) -> Report:
    """The ``.conll`` release is read only (its POS and parse columns are not in the model).

    Raises:
        UsageError: always.
    """
    raise UsageError(f"the CoNLL .conll format is read only: write {os.fspath(dest)} as M2")
