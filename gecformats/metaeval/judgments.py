"""Human ranking judgments in Appraise XML: SEEDA, GJG15 and Napoles et al. (2015).

All three datasets ship their judgments in the XML that the Appraise annotation tool
exports: ``<ranking-item>`` elements (one per annotator per sentence) holding
``<translation system="A B" rank="r"/>`` children, rank 1 = best, ties allowed, and
identical outputs collapsed into one ``<translation>`` that lists several systems::

    <appraise-results>
      <error-correction-ranking-result ...>
        <ranking-item src-id="12" id="1" user="annotator1" ...>
          <translation system="T5 Riken-Tohoku" rank="1"/>
          <translation system="PIE" rank="2"/>
        </ranking-item>

What ``src-id`` means differs by dataset and is left to the caller (:class:`RankingItem`
keeps it as written):

* SEEDA (``data/judgments_edit.xml``, ``judgments_sent.xml``): **1-based** line of the full
  CoNLL-2014 test set; the line of the 391-sentence subset is
  ``subset_ids.index(src_id - 1)`` (:func:`subset_index`).
* GJG15 (``judgments.xml``): **0-based** line of the system outputs; 13 items are empty
  (no ``<translation>``, marked ``skipped``) and are yielded with no ranks.
* Napoles et al. 2015 (gec-ranking ``all_judgments.xml``): there is no ``src-id``; the item's
  ``id`` is the sentence index (it equals the ``srcIndex`` column of ``all_judgments.csv``)
  and is used instead.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import IO, Union

from lxml import etree

from gecformats import xmlsafe
from gecformats.errors import GecFormatError
from gecformats.io import open_binary

JudgmentSource = Union[str, "os.PathLike[str]", bytes, IO[bytes]]
"""What :func:`read_judgments` accepts: a path (``.gz`` is decompressed), the document's
bytes, or an open binary file."""


@dataclass(frozen=True, slots=True)
class RankingItem:
    """One annotator's ranking of the outputs for one sentence.

    Attributes:
        src_id: the sentence's ``src-id`` as written in the file (its ``id`` where the file
            has no ``src-id``); its base (0 or 1) depends on the dataset.
        ranks: ``(system, rank)`` pairs in document order, every system of a
            ``<translation>`` that lists several given that translation's rank (1 = best).
            Empty for an item without translations.
        judge: the ``user`` attribute (the annotator), or ``None``.
        item: the 0-based position of the ``<ranking-item>`` in the file.
        line: the 1-based line of the ``<ranking-item>`` start tag.
    """

    src_id: int
    ranks: tuple[tuple[str, int], ...]
    judge: str | None
    item: int
    line: int


def read_judgments(path: JudgmentSource, *, systems_split: str = " ") -> Iterator[RankingItem]:
    """Stream the ``<ranking-item>`` elements of an Appraise ranking XML file.

    Memory stays bounded whatever the file's size: each item is read, converted and
    dropped before the next.  The XML is parsed safely (:mod:`gecformats.xmlsafe`: no
    entities, no DTD, no network).

    Args:
        path: a path (``.gz`` is decompressed), the document's bytes, or an open binary file.
        systems_split: the separator between the system names of one ``<translation>``;
            the default ``" "`` splits at any run of whitespace.

    Yields:
        One :class:`RankingItem` per ``<ranking-item>``, in file order.

    Raises:
        GecFormatError: XML that is not well-formed, an item without a usable ``src-id``
            (or ``id``), a ``<translation>`` without ``system`` or with a ``rank`` that is
            not a positive integer, an empty system name, a system ranked twice in one
            item, or a document without any ``<ranking-item>``; the message names the file
            and line.
        OSError: the file cannot be opened or read.
    """
    if isinstance(path, (bytes, bytearray, memoryview)):
        yield from _items(bytes(path), "<string>", systems_split)
    elif isinstance(path, (str, os.PathLike)):
        name = os.fspath(path)
        with open_binary(name) as fh:
            yield from _items(fh, name, systems_split)
    else:
        yield from _items(path, str(getattr(path, "name", "<stream>")), systems_split)


def _items(data: bytes | IO[bytes], name: str, split: str) -> Iterator[RankingItem]:
    count = 0
    for element in xmlsafe.iterparse(data, "ranking-item", name=name):
        line = element.sourceline or 0
        yield _item(element, name, line, count, split)
        count += 1
    if count == 0:
        raise GecFormatError("not Appraise ranking XML: no <ranking-item> element", name)


def _item(element: etree._Element, name: str, line: int, count: int, split: str) -> RankingItem:
    attribute = "src-id" if element.get("src-id") is not None else "id"
    src_id = _integer(element.get(attribute), attribute, name, line, minimum=0)
    ranks: list[tuple[str, int]] = []
    seen: set[str] = set()
    for child in element:
        if child.tag != "translation":
            continue
        where = child.sourceline or line
        systems = child.get("system")
        if systems is None:
            raise GecFormatError("a <translation> without a system attribute", name, where)
        rank = _integer(child.get("rank"), "rank", name, where, minimum=1)
        names = systems.split() if split.isspace() else [s.strip() for s in systems.split(split)]
        if not names or any(not s for s in names):
            raise GecFormatError(f"an empty system name in system={systems!r}", name, where)
        for system in names:
            if system in seen:
                raise GecFormatError(f"system {system!r} is ranked twice in one <ranking-item>",
                                     name, where)
            seen.add(system)
            ranks.append((system, rank))
    return RankingItem(src_id, tuple(ranks), element.get("user"), count, line)


def _integer(value: str | None, attribute: str, name: str, line: int, *, minimum: int) -> int:
    if value is None:
        what = "src-id or id" if attribute == "id" else attribute
        raise GecFormatError(f"no {what} attribute", name, line)
    text = value.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 18 or int(text) < minimum:
        raise GecFormatError(f"{attribute}={value!r} is not an integer >= {minimum}", name, line)
    return int(text)


def subset_index(subset_ids: Sequence[int], *, one_based: bool = True,
                 name: str | None = None) -> Callable[[int], int]:
    """The map from a ``src-id`` to a line of a subset's per-sentence lists (SEEDA).

    Args:
        subset_ids: the 0-based full-set line of each subset line, in subset order (SEEDA's
            ``subset_ids.txt``).
        one_based: the ``src-id`` is 1-based (SEEDA); ``False`` for 0-based ids.
        name: the judgment file's name, for the error message.

    Returns:
        A function ``src_id -> subset line`` (``subset_ids.index(src_id - 1)`` for SEEDA).
        It raises :class:`GecFormatError` for a ``src-id`` that is not in the subset.
    """
    position = {line: k for k, line in enumerate(subset_ids)}
    shift = 1 if one_based else 0

    def index(src_id: int) -> int:
        try:
            return position[src_id - shift]
        except KeyError:
            raise GecFormatError(f"src-id {src_id} is not a sentence of the subset "
                                 f"({len(position)} sentences)", name) from None

    return index
