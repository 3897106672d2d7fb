"""I-measure XML (Felice & Briscoe 2015): error loci with mutually exclusive alternatives.

The gold format of the I-measure scorer (``formats.md`` §8)::

    <?xml version='1.0' encoding='UTF-8'?>
    <scripts>
      <script id="1">
        <sentence id="10" numann="2">
          <text>When we are diagonosed out with certain genetic disease , ...</text>
          <error-list>
            <error id="1" req="yes" type="Rloc-/Prep/Mec">
              <alt ann="0">
                <c end="4" start="3">diagnosed</c>
                <c end="5" start="4" />
              </alt>
              <alt ann="1">
                <c end="5" start="3">diagnosed</c>
              </alt>
            </error>
          </error-list>
        </sentence>
      </script>
    </scripts>

A ``<sentence>`` is a :class:`~gecformats.convert.loci.LocusSentence`: ``text`` is its tokens
(split on white space, so an indented ``<text>`` reads fine), each ``<error>`` a
:class:`~gecformats.convert.loci.Locus` (``id`` and ``type`` kept as strings, ``req`` ``yes`` or
``no``), each ``<alt>`` an :class:`~gecformats.convert.loci.Alternative` of annotator ``ann`` (an
integer) and each ``<c>`` a :class:`~gecformats.convert.loci.Change` of tokens ``[start, end)``; a
``<c>`` without text (``<c end="4" start="3" />`` or ``<c start="3" end="4"></c>``) is a
deletion.  ``numann`` is how many annotators saw the sentence, so an annotator counted there
without any ``<alt>`` said "no change".  Reading tolerates what real files do: several
``<script>`` elements, no ``DOCTYPE``, any indentation, attributes in any order.

:func:`read_loci` gives the loci as written; :func:`read` gives model
:class:`~gecformats.model.Sentence` s through :func:`gecformats.convert.loci.to_sentence`: each
annotator's alternatives become its edits, annotators counted in ``numann`` with no
alternative become noop annotators (the smallest unused ids), every edit's **type is its
locus's type** (``Wci/Prep`` for every edit of a merged locus: per-edit types are not in the
format), and ``Edit.meta`` records the locus (``ixml.error``, ``ixml.req``) and where each
``<c>`` stood (``ixml.order``) so that :func:`write` gives the same loci back, in the same
order.  A script id other than ``"1"`` is kept in ``Sentence.meta["ixml.script"]``.

:func:`write` writes model sentences: sentences read from this format keep their loci; any
other sentence (M2) is grouped into loci by :func:`gecformats.convert.loci.group` with
``grouping`` (``components``, the default, or ``imeasure``, the rule of the original
converter ``m2_to_ixml.py``).  Unlike that converter it keeps every ``||`` alternative (as
another ``<alt>`` of the same annotator), writes deletions as deletions (also NLPCC's
``-NONE-``) and needs no tokenizer (corrections are written as their tokens).

Layout written: that of ``official-2014.combined.m2.ieval.xml`` (the CoNLL-2014 test set
converted by the original converter): the declaration ``<?xml version='1.0'
encoding='UTF-8'?>``, two spaces of indentation per level, one element per line, attributes
in alphabetical order, an empty ``<error-list>`` as an opening and a closing line, a
deletion as ``<c end=".." start=".." />``; ``&``, ``<`` and ``>`` escaped.  Reading that
file and writing it back gives it byte for byte.  What a rewrite does not keep: the
indentation of other files (the package's ``example/gold.xml`` indents its ``<text>`` and
writes ``start`` before ``end``), comments, a ``DOCTYPE``, a missing ``id`` of a ``<script>``
(written ``"1"``) or of an ``<error>`` (written as its 1-based position), ``<error>``
elements without any ``<alt>`` and ``<alt>`` elements without ``<c>`` (the model has no
place for them; :mod:`gecformats.validate` reports the first).

What :func:`write` reports as dropped (never silently): ``OPTIONAL`` flags, comments other
than ``-NONE-``, ChERRANT alignments after the first of a reference, edits out of range,
duplicate edits and repeated ``||`` alternatives, detection-only edits, empty correction
tokens (M2 double spaces), the ids of annotators without edits when reading back would
number them differently, and sentences whose edits would read back differently or not at
all (``||`` alternatives of several edits of one annotator in one locus come back as one
edit over their span; see also the known limits of :func:`gecformats.convert.loci.to_sentence`).  Not reported, because nothing is lost: the type of each edit, whose types
all survive in the ``/``-joined locus type (read back, every edit of the locus has the
joined type).

>>> from gecformats.model import Edit, Sentence
>>> s = Sentence(("He", "go", "school"), {0: (Edit(1, 2, (("goes",),), "SVA"),
...                                           Edit(2, 2, (("to",),), "Prep")), 1: ()})
>>> print(dumps([s]), end="")
<?xml version='1.0' encoding='UTF-8'?>
<scripts>
  <script id="1">
    <sentence id="1" numann="2">
      <text>He go school</text>
      <error-list>
        <error id="1" req="no" type="SVA">
          <alt ann="0">
            <c end="2" start="1">goes</c>
          </alt>
        </error>
        <error id="2" req="no" type="Prep">
          <alt ann="0">
            <c end="2" start="2">to</c>
          </alt>
        </error>
      </error-list>
    </sentence>
  </script>
</scripts>
>>> [back] = read(dumps([s]).encode())
>>> back.annotators[0][0].corrections, back.annotators[1]
((('goes',),), ())
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Union

from lxml import etree

from gecformats.convert import loci
from gecformats import xmlsafe
from gecformats.errors import GecFormatError
from gecformats.formats._hoo import escape_text
from gecformats.io import open_binary, source_name, text_output
from gecformats.convert.loci import Alternative, Change, Locus, LocusSentence
from gecformats.model import MAX_ANNOTATORS, MAX_DIGITS, Edit, Sentence, make_edit
from gecformats.report import Report

NAME = "ixml"
SUFFIXES = (".ixml", ".ieval.xml", ".xml")
UNIT = "token"
"""``X.m2.ieval.xml`` (the original converter's output name), ``.ixml`` and plain ``.xml``
(HOO XML has no suffix of its own and is always named with ``--from``/``--to``)."""

SCRIPT_META = "ixml.script"
"""``Sentence.meta`` key: the id of the ``<script>`` a sentence was read from (only when it
is not ``"1"``)."""

ORDER_META = "ixml.order"
"""``Edit.meta`` key: ``"L.A.C"``, the positions (0-based) of the ``<error>``, ``<alt>`` and
``<c>`` an edit was read from (``"L.A"`` for an edit merged from several ``<alt>``)."""

DECLARATION = "<?xml version='1.0' encoding='UTF-8'?>"

XmlInput = Union[str, "os.PathLike[str]", bytes, IO[bytes], IO[str]]
"""What the readers accept: a path (``-`` is standard input, ``.gz`` is decompressed), the
document's bytes, or an open file."""

_INT = re.compile(r"\s*-?[0-9]+\s*")


@dataclass(frozen=True, slots=True)
class Lines:
    """The XML line numbers of one ``<sentence>`` and of its elements (parallel to the
    loci, alternatives and changes of its :class:`~gecformats.convert.loci.LocusSentence`)."""

    sentence: int | None
    loci: tuple[int | None, ...] = ()
    alternatives: tuple[tuple[int | None, ...], ...] = ()
    changes: tuple[tuple[tuple[int | None, ...], ...], ...] = ()


# --------------------------------------------------------------------------------------
# reading


def read_loci(source: XmlInput) -> Iterator[LocusSentence]:
    """Read I-measure XML sentence by sentence, as loci (streaming, constant memory).

    Args:
        source: a path, the document's bytes, or an open file.

    Yields:
        One :class:`~gecformats.convert.loci.LocusSentence` per ``<sentence>``, in document order,
        with loci, alternatives and changes in document order.

    Raises:
        GecFormatError: unsafe or malformed XML, a missing or non-numeric ``numann``,
            ``ann``, ``start`` or ``end``, a ``req`` other than ``yes``/``no``, or an
            unexpected element (file and line of the element named).
        OSError: the file cannot be opened.
    """
    for _number, _script, ls, _lines in read_checked(source, None):
        yield ls


def read(source: XmlInput) -> Iterator[Sentence]:
    """Read I-measure XML as model sentences (streaming); see the module documentation.

    Raises:
        GecFormatError: as :func:`read_loci`, and also for a change out of range of its
            sentence (kind ``offset-out-of-range``), two ``<error>`` elements of a sentence
            with the same id (``duplicate-id``) or two identical ``<alt>`` of one annotator
            in one ``<error>`` (``duplicate-edit``), which the model cannot hold.
    """
    name = name_of(source)
    for number, script, ls, lines in read_checked(source, None):
        yield model_sentence(ls, script, lines, name, number)


def read_checked(
    source: XmlInput, problems: list[tuple[int | None, GecFormatError]] | None
) -> Iterator[tuple[int, str, LocusSentence, Lines]]:
    """Read like :func:`read_loci` but record malformed elements instead of stopping.

    An ``<error>`` with a malformed part is left out (a sentence without usable
    ``text`` or ``numann`` is skipped) and ``(sentence_number, error)`` appended to
    ``problems``; XML that is not well-formed ends the reading with a ``syntax`` problem
    whose sentence number is ``None``.  With ``problems=None`` every error is raised.

    Yields:
        ``(number, script_id, locus_sentence, lines)``: the 1-based position of the
        sentence, the id of its ``<script>`` (``"1"`` when it has none), its loci and the
        line of each of its elements.
    """
    name = name_of(source)
    number = 0
    seen_root = False
    try:
        with _binary(source) as data:
            for element in xmlsafe.iterparse(data, ("sentence", "script", "scripts"), name=name):
                if element.tag != "sentence":
                    seen_root = True
                    continue
                number += 1
                parent = element.getparent()
                if parent is None or parent.tag != "script":
                    error = GecFormatError(f"sentence {number}: a <sentence> outside <script>",
                                           name, element.sourceline)
                    if problems is None:
                        raise error
                    problems.append((number, error))
                    continue
                script = parent.get("id") or "1"
                parsed = _parse_sentence(element, name, number, problems)
                if parsed is not None:
                    yield number, script, parsed[0], parsed[1]
    except GecFormatError as exc:
        if problems is None:
            raise
        problems.append((None, exc))
        return
    if number == 0 and not seen_root:
        error = GecFormatError("not I-measure XML: no <scripts>, <script> or <sentence> element",
                               name, None)
        if problems is None:
            raise error
        problems.append((None, error))


def name_of(source: XmlInput) -> str:
    """The name of ``source`` in error messages."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return "<string>"
    return source_name(source)  # type: ignore[arg-type]


@contextmanager
def _binary(source: XmlInput) -> Iterator[bytes | IO[bytes]]:
    if isinstance(source, (bytes, bytearray, memoryview)):
        yield bytes(source)
    elif isinstance(source, (str, os.PathLike)):
        with open_binary(source) as fh:
            yield fh
    elif isinstance(source, io.TextIOBase) or _is_text(source):
        buffer = getattr(source, "buffer", None)
        yield buffer if buffer is not None else source.read().encode("utf-8")  # type: ignore[union-attr]
    else:
        yield source  # type: ignore[misc]


def _is_text(fh: object) -> bool:
    mode = getattr(fh, "mode", "")
    return isinstance(mode, str) and "b" not in mode and hasattr(fh, "encoding")


def _parse_sentence(
    element: etree._Element,
    name: str,
    number: int,
    problems: list[tuple[int | None, GecFormatError]] | None,
) -> tuple[LocusSentence, Lines] | None:
    """One ``<sentence>``; ``None`` when it cannot be used at all."""

    def problem(el: etree._Element, message: str, kind: str = "syntax") -> None:
        error = GecFormatError(f"sentence {number}: {message}", name, el.sourceline, kind)
        if problems is None:
            raise error
        problems.append((number, error))

    ok = True
    numann = _number(element, "numann", problem, "<sentence>")
    if numann is not None and not 0 <= numann <= MAX_ANNOTATORS:
        problem(element, f"numann must be 0 to {MAX_ANNOTATORS}, not {numann}", "bad-number")
        numann = None
    if numann is None:
        ok = False
    _text_in(element, problem, "<sentence>")
    text_el = None
    errors_el = None
    for child in element:
        tag = child.tag
        if tag == "text" and text_el is None:
            text_el = child
        elif tag == "error-list" and errors_el is None:
            errors_el = child
        elif isinstance(tag, str):
            problem(child, f"unexpected element <{tag}> in <sentence>")
        _tail_in(child, problem, "<sentence>")
    if text_el is None:
        problem(element, "a <sentence> without <text>")
        return None
    for child in text_el:
        if isinstance(child.tag, str):
            problem(child, f"unexpected element <{child.tag}> in <text>")
    source = tuple((text_el.text or "").split())
    loci_out: list[Locus] = []
    locus_lines: list[int | None] = []
    alt_lines: list[tuple[int | None, ...]] = []
    change_lines: list[tuple[tuple[int | None, ...], ...]] = []
    if errors_el is not None:
        _text_in(errors_el, problem, "<error-list>")
        for error_el in errors_el:
            _tail_in(error_el, problem, "<error-list>")
            if error_el.tag != "error":
                if isinstance(error_el.tag, str):
                    problem(error_el, f"unexpected element <{error_el.tag}> in <error-list>")
                continue
            parsed = _parse_error(error_el, problem)
            if parsed is None:
                continue
            locus, lines = parsed
            loci_out.append(locus)
            locus_lines.append(error_el.sourceline)
            alt_lines.append(lines[0])
            change_lines.append(lines[1])
    if not ok:
        return None
    assert numann is not None
    ls = LocusSentence(source, tuple(loci_out), numann, element.get("id"), text_el.text or "")
    return ls, Lines(element.sourceline, tuple(locus_lines), tuple(alt_lines), tuple(change_lines))


Problem = Callable[..., None]


def _parse_error(
    error_el: etree._Element, problem: Problem
) -> tuple[Locus, tuple[tuple[int | None, ...], tuple[tuple[int | None, ...], ...]]] | None:
    get = error_el.get
    req = get("req")
    if req == "yes" or req == "no":
        pass
    elif req is None:
        problem(error_el, "an <error> without req")
        return None
    else:
        problem(error_el, f"req must be 'yes' or 'no', not {req!r}")
        return None
    _text_in(error_el, problem, "<error>")
    broken = False
    alternatives: list[Alternative] = []
    alt_lines: list[int | None] = []
    change_lines: list[tuple[int | None, ...]] = []
    for alt_el in error_el:
        _tail_in(alt_el, problem, "<error>")
        if alt_el.tag != "alt":
            if isinstance(alt_el.tag, str):
                problem(alt_el, f"unexpected element <{alt_el.tag}> in <error>")
            continue
        ann = _number(alt_el, "ann", problem, "<alt>")
        if ann is not None and abs(ann) >= MAX_ANNOTATORS:
            problem(alt_el, f"ann of <alt> is out of range (ids are below {MAX_ANNOTATORS})",
                    "bad-annotator")
            ann = None
        _text_in(alt_el, problem, "<alt>")
        changes: list[Change] = []
        lines: list[int | None] = []
        for c_el in alt_el:
            _tail_in(c_el, problem, "<alt>")
            if c_el.tag != "c":
                if isinstance(c_el.tag, str):
                    problem(c_el, f"unexpected element <{c_el.tag}> in <alt>")
                continue
            start = _number(c_el, "start", problem, "<c>")
            end = _number(c_el, "end", problem, "<c>")
            if len(c_el):
                for child in c_el:
                    if isinstance(child.tag, str):
                        problem(child, f"unexpected element <{child.tag}> in <c>")
            if start is None or end is None:
                broken = True
                continue
            text = c_el.text
            changes.append(Change(start, end, tuple(text.split()) if text else ()))
            lines.append(c_el.sourceline)
        if ann is None:
            broken = True
            continue
        alternatives.append(Alternative(ann, tuple(changes)))
        alt_lines.append(alt_el.sourceline)
        change_lines.append(tuple(lines))
    if broken:  # reported; a locus with a part left out would only cause false alarms
        return None
    locus = Locus(tuple(alternatives), req == "yes", get("type", ""), get("id"))
    return locus, (tuple(alt_lines), tuple(change_lines))


def _number(el: etree._Element, attribute: str, problem: Problem, what: str) -> int | None:
    value = el.get(attribute)
    if value is None:
        problem(el, f"a {what} without {attribute}")
        return None
    if not (value.isascii() and _INT.fullmatch(value)):
        problem(el, f"{attribute} of {what} must be an integer, not {value[:20]!r}", "bad-number")
        return None
    if len(value.strip().lstrip("-")) > MAX_DIGITS:
        problem(el, f"{attribute} of {what} has more than {MAX_DIGITS} digits", "bad-number")
        return None
    return int(value)


def _text_in(el: etree._Element, problem: Problem, what: str) -> None:
    text = el.text
    if text and not text.isspace():
        problem(el, f"text {text.strip()[:30]!r} directly in {what}")


def _tail_in(child: etree._Element, problem: Problem, what: str) -> None:
    tail = child.tail
    if tail and not tail.isspace():
        problem(child, f"text {tail.strip()[:30]!r} directly in {what}")


def model_sentence(ls: LocusSentence, script: str = "1", lines: Lines | None = None,
                   name: str | None = None, number: int | None = None) -> Sentence:
    """The model sentence of a locus sentence read from I-measure XML:
    :func:`gecformats.convert.loci.to_sentence`, plus the script id (``ixml.script``, when not
    ``"1"``) and the position of each edit's ``<error>``, ``<alt>`` and ``<c>``
    (``ixml.order``).

    Raises:
        GecFormatError: a change out of range (``offset-out-of-range``), two loci with the
            same id (``duplicate-id``) or two identical alternatives of one annotator in a
            locus (``duplicate-edit``); ``lines``, ``name`` and ``number`` (the sentence's
            position) locate it.
    """
    n = len(ls.source)
    where = f"sentence {number}: " if number is not None else ""
    seen: set[str] = set()
    for i, locus in enumerate(ls.loci):
        lid = locus.id if locus.id is not None else str(i + 1)
        if lid in seen:
            line = lines.loci[i] if lines is not None and i < len(lines.loci) else None
            raise GecFormatError(
                f"{where}a second <error> with the id {lid!r} (the loci of a sentence need "
                "distinct ids)", name, line, "duplicate-id")
        seen.add(lid)
        alts: set[tuple[int, tuple[Change, ...]]] = set()
        for j, alt in enumerate(locus.alternatives):
            if (alt.annotator, alt.changes) in alts:
                line = lines.alternatives[i][j] if lines is not None else None
                raise GecFormatError(
                    f"{where}error {lid}: annotator {alt.annotator} has two identical "
                    "alternatives", name, line, "duplicate-edit")
            alts.add((alt.annotator, alt.changes))
            for k, c in enumerate(alt.changes):
                if not 0 <= c.start <= c.end <= n:
                    line = None
                    if lines is not None:
                        try:
                            line = lines.changes[i][j][k]
                        except IndexError:
                            pass
                    raise GecFormatError(
                        f"{where}change {c.start} {c.end} does not fit the sentence's {n} tokens",
                        name, line, "offset-out-of-range")
    try:
        sentence = loci.to_sentence(ls)
    except ValueError as exc:
        raise GecFormatError(f"{where}the loci cannot be turned into edits ({exc})", name,
                             lines.sentence if lines is not None else None) from None
    sentence = _with_order(sentence, ls)
    if script != "1":
        sentence = sentence.replace(meta={**sentence.meta, SCRIPT_META: script})
    return sentence


def _with_order(sentence: Sentence, ls: LocusSentence) -> Sentence:
    """Record in each edit's meta where its change stood (``ixml.order``)."""
    single: dict[tuple[str, int, int, int, tuple[str, ...]], list[str]] = {}
    merged: dict[tuple[str, int], str] = {}
    for i, locus in enumerate(ls.loci):
        lid = locus.id if locus.id is not None else str(i + 1)
        count: dict[int, int] = {}
        for alt in locus.alternatives:
            count[alt.annotator] = count.get(alt.annotator, 0) + 1
        for j, alt in enumerate(locus.alternatives):
            if count[alt.annotator] > 1:
                merged.setdefault((lid, alt.annotator), f"{i}.{j}")
                continue
            for k, c in enumerate(alt.changes):
                single.setdefault((lid, alt.annotator, c.start, c.end, c.tokens), []).append(f"{i}.{j}.{k}")
    annotators = {}
    for annotator, edits in sentence.annotators.items():
        out = []
        for e in edits:
            lid = e.get_meta(loci.LOCUS_KEY) or ""
            order = merged.get((lid, annotator))
            if order is None and len(e.corrections) == 1:
                queue = single.get((lid, annotator, e.start, e.end, e.corrections[0]))
                if queue:
                    order = queue.pop(0)
            if order is not None:
                e = make_edit(e.start, e.end, e.corrections, e.type, e.required, e.comment,
                              e.annotator, e.meta + ((ORDER_META, order),))
            out.append(e)
        annotators[annotator] = tuple(out)
    return sentence.replace(annotators=annotators)


# --------------------------------------------------------------------------------------
# writing


def write(
    sentences: Iterable[Sentence],
    dest: str | os.PathLike[str] | IO[str],
    *,
    grouping: str = "components",
) -> Report:
    """Write model sentences as I-measure XML (streaming; a path appears whole or not at all).

    Sentences read from I-measure XML keep their loci (and their order); other sentences
    are grouped with ``grouping`` (``components`` or ``imeasure``, see
    :mod:`gecformats.convert.loci`).  Sentence ids are the model's ids, or the 1-based position;
    consecutive sentences with the same ``ixml.script`` meta share a ``<script>`` (id
    ``"1"`` by default).

    Returns:
        The :class:`~gecformats.report.Report`: sentences written and everything the format
        could not keep (see the module documentation).

    Raises:
        ValueError: an unknown grouping, a token that is empty or holds white space, a
            character XML cannot carry, or a sentence mixing edits with and without
            recorded loci.
    """
    if grouping not in loci.GROUPINGS:
        raise ValueError(f"unknown grouping {grouping!r} (known: {', '.join(loci.GROUPINGS)})")
    report = Report()

    def items() -> Iterator[tuple[str, str, LocusSentence]]:
        for n, sentence in enumerate(sentences, 1):
            ls = _loci_for_writing(sentence, grouping, report, n)
            report.sentences = n
            script = sentence.meta.get(SCRIPT_META, "1") if sentence.meta else "1"
            yield script, sentence.id if sentence.id is not None else str(n), ls

    with text_output(dest) as fh:
        _write_xml(items(), fh)
    return report


def dumps(sentences: Iterable[Sentence], *, grouping: str = "components") -> str:
    """The I-measure XML of ``sentences`` as a string (see :func:`write`)."""
    buffer = io.StringIO()
    write(sentences, buffer, grouping=grouping)
    return buffer.getvalue()


def write_loci(sentences: Iterable[LocusSentence], dest: str | os.PathLike[str] | IO[str],
               *, script: str = "1") -> Report:
    """Write locus sentences as they are, in one ``<script>`` (ids: the sentence's, or its
    1-based position; a locus without id gets its 1-based position)."""
    report = Report()

    def items() -> Iterator[tuple[str, str, LocusSentence]]:
        for n, ls in enumerate(sentences, 1):
            report.sentences = n
            yield script, ls.id if ls.id is not None else str(n), ls

    with text_output(dest) as fh:
        _write_xml(items(), fh)
    return report


def dumps_loci(sentences: Iterable[LocusSentence], *, script: str = "1") -> str:
    """The I-measure XML of locus sentences as a string (see :func:`write_loci`)."""
    buffer = io.StringIO()
    write_loci(sentences, buffer, script=script)
    return buffer.getvalue()


def _write_xml(items: Iterable[tuple[str, str, LocusSentence]], fh: IO[str]) -> None:
    fh.write(f"{DECLARATION}\n<scripts>\n")
    current: str | None = None
    for script, sid, ls in items:
        if script != current:
            if current is not None:
                fh.write("  </script>\n")
            fh.write(f"  <script id={_attr(script)}>\n")
            current = script
        fh.write(format_sentence(ls, sid))
    if current is None:
        fh.write('  <script id="1">\n')
    fh.write("  </script>\n</scripts>\n")


def format_sentence(ls: LocusSentence, id: str | None = None) -> str:
    """The ``<sentence>`` element of one locus sentence, indented as in a ``<script>``,
    with its final line end.

    Raises:
        ValueError: a token that is empty or holds white space, or a character XML cannot
            carry.
    """
    sid = id if id is not None else (ls.id or "1")
    lines = [f"    <sentence id={_attr(sid)} numann=\"{ls.numann}\">"]
    text = _tokens(ls.source, "source")
    lines.append(f"      <text>{text}</text>" if text else "      <text />")
    lines.append("      <error-list>")
    for k, locus in enumerate(ls.loci, 1):
        lid = locus.id if locus.id is not None else str(k)
        req = "yes" if locus.required else "no"
        lines.append(f"        <error id={_attr(lid)} req=\"{req}\" type={_attr(locus.type)}>")
        for alt in locus.alternatives:
            lines.append(f"          <alt ann=\"{alt.annotator}\">")
            for c in alt.changes:
                if c.tokens:
                    lines.append(f"            <c end=\"{c.end}\" start=\"{c.start}\">"
                                 f"{_tokens(c.tokens, 'correction')}</c>")
                else:
                    lines.append(f"            <c end=\"{c.end}\" start=\"{c.start}\" />")
            lines.append("          </alt>")
        lines.append("        </error>")
    lines.append("      </error-list>")
    lines.append("    </sentence>")
    return "\n".join(lines) + "\n"


def _tokens(tokens: tuple[str, ...], what: str) -> str:
    text = " ".join(tokens)
    if text.split() != list(tokens):
        raise ValueError(f"a {what} token is empty or contains white space: {tokens!r}")
    return escape_text(text, quote=False)


def _attr(value: str) -> str:
    value = escape_text(value, quote=True)
    return '"' + value.replace("\n", "&#10;").replace("\t", "&#9;") + '"'


# --------------------------------------------------------------------------------------
# model sentences → loci, with a report of what cannot be kept


def loci_for(sentence: Sentence, grouping: str = "components", report: Report | None = None,
             number: int = 0) -> LocusSentence:
    """The loci a sentence is written as (``write``): what the XML cannot hold left out
    (and reported in ``report``), then grouped by ``grouping``."""
    return _loci_for_writing(sentence, grouping, report if report is not None else Report(),
                             number)


def _loci_for_writing(sentence: Sentence, grouping: str, report: Report, n: int) -> LocusSentence:
    recorded = any(e.get_meta(loci.LOCUS_KEY) is not None
                   for edits in sentence.annotators.values() for e in edits)
    if recorded:
        return _restore_order(loci.loci_of(sentence, grouping), sentence)
    clean = _clean(sentence, report, n)
    ls = loci.group(clean, grouping)
    _check_read_back(clean, ls, report, n)
    return ls


def _clean(sentence: Sentence, report: Report, n: int) -> Sentence:
    """The sentence without what I-measure XML cannot hold (each loss reported)."""
    if sentence.targets:
        extra = sum(len(a) - 1 for a in sentence.targets.values())
        if extra:
            report.drop("alternative alignments (T lines after the first of a reference)",
                        f"sentence {n}", extra)
    size = len(sentence.source)
    annotators: dict[int, tuple[Edit, ...]] = {}
    changed = False
    for annotator, edits in sentence.annotators.items():
        kept: list[Edit] = []
        seen: set[tuple[int, int, tuple[tuple[str, ...], ...]]] = set()
        for e in edits:
            what = f"sentence {n}, annotator {annotator}, edit {e.start} {e.end}"
            if not e.required:
                report.drop("OPTIONAL flags (I-measure XML has no optional edits)", what)
            if e.comment != "-NONE-":
                report.drop("comments other than -NONE-", f"{what}: {e.comment!r}")
            if not 0 <= e.start <= e.end <= size:
                report.drop("edits out of range", f"{what} ({size} tokens)")
                changed = True
                continue
            if not e.corrections:
                report.drop("detection-only edits (no correction)", what)
                changed = True
                continue
            corrections = e.corrections
            if any("" in c for c in corrections):
                report.drop("empty tokens in corrections (M2 double spaces)", what)
                corrections = tuple(tuple(t for t in c if t) for c in corrections)
                e = make_edit(e.start, e.end, corrections, e.type, e.required, e.comment,
                              e.annotator, e.meta)
                changed = True
            if len(corrections) > 1 and len(set(corrections)) < len(corrections):
                report.drop("repeated || alternatives of an edit", what)
                corrections = tuple(dict.fromkeys(corrections))
                e = make_edit(e.start, e.end, corrections, e.type, e.required, e.comment,
                              e.annotator, e.meta)
                changed = True
            key = (e.start, e.end, corrections)
            if key in seen:
                report.drop("duplicate edits", what)
                changed = True
                continue
            seen.add(key)
            kept.append(e)
        annotators[annotator] = tuple(kept)
    return sentence.replace(annotators=annotators) if changed else sentence


def _edit_lists(sentence: Sentence) -> dict[int, list[tuple[int, int, tuple[tuple[str, ...], ...]]]]:
    """Each annotator's edits in offset order (insertions at one point keep their order)."""
    return {a: sorted(((e.start, e.end, e.corrections) for e in edits), key=lambda t: t[:2])
            for a, edits in sentence.annotators.items()}


def _check_read_back(sentence: Sentence, ls: LocusSentence, report: Report, n: int) -> None:
    """Report what reading the written loci back would not give as it was."""
    try:
        back = loci.to_sentence(ls)
    except ValueError as exc:
        report.drop("sentences that cannot be read back as edits", f"sentence {n}: {exc}")
        return
    if set(back.annotators) != set(sentence.annotators):
        lost = sorted(set(sentence.annotators) - set(back.annotators))
        report.drop("ids of annotators without edits (read back as the smallest unused ids)",
                    f"sentence {n}: annotators {', '.join(map(str, lost))}")
    original = _edit_lists(sentence)
    again = _edit_lists(back)
    for annotator, edits in original.items():
        if edits and again.get(annotator) != edits:
            report.drop("sentences whose edits read back differently (|| alternatives and other "
                        "edits of one annotator in one locus)",
                        f"sentence {n}, annotator {annotator}")
            break


def _restore_order(ls: LocusSentence, sentence: Sentence) -> LocusSentence:
    """Put the loci, alternatives and changes of recorded loci back in the order they were
    read in (``ixml.order``); :func:`gecformats.convert.loci.loci_of` sorts them."""
    orders: dict[tuple[str, int], list[tuple[tuple[int, ...], Edit]]] = {}
    for annotator, edits in sentence.annotators.items():
        for e in edits:
            order = e.get_meta(ORDER_META)
            if order is None:
                return ls
            try:
                key = tuple(int(p) for p in order.split("."))
            except ValueError:
                return ls
            orders.setdefault((e.get_meta(loci.LOCUS_KEY) or "", annotator), []).append((key, e))
    new_loci = []
    for locus in ls.loci:
        lid = locus.id or ""
        alts = []
        for position, alt in enumerate(locus.alternatives):
            recorded = orders.get((lid, alt.annotator), [])
            if not recorded:
                return ls
            alt_key = min(k[:2] for k, _ in recorded)
            changes = alt.changes
            if all(len(k) == 3 for k, _ in recorded) and len(recorded) == len(changes):
                changes = _reorder(changes, recorded) or changes
            alts.append(((alt_key, position), Alternative(alt.annotator, changes)))
        alts.sort(key=lambda item: item[0])
        locus_key = min((key for key, _ in alts), default=((0, 0), 0))[0][0]
        new_loci.append((locus_key, Locus(tuple(a for _, a in alts), locus.required, locus.type,
                                          locus.id)))
    new_loci.sort(key=lambda item: item[0])
    return LocusSentence(ls.source, tuple(locus for _, locus in new_loci), ls.numann, ls.id)


def _reorder(changes: tuple[Change, ...], recorded: list[tuple[tuple[int, ...], Edit]]
             ) -> tuple[Change, ...] | None:
    pool = list(recorded)
    keyed = []
    for c in changes:
        for i, (key, e) in enumerate(pool):
            if (e.start, e.end, e.correction) == (c.start, c.end, c.tokens):
                keyed.append((key[2], c))
                del pool[i]
                break
        else:
            return None
    keyed.sort(key=lambda item: item[0])
    return tuple(c for _, c in keyed)
