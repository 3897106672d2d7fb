"""What the inline-annotation formats (UA-GEC ``.ann``, COWSL2H) share: one file holds one
annotator's edits of a document, so a writer picks the annotator to write."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

from gecformats.errors import UsageError
from gecformats.model import Document, Edit
from gecformats.report import Report


def annotators(document: Document) -> list[int]:
    """The annotator ids of a document (``meta["annotators"]``, else its edits'; ``[0]``)."""
    listed = document.meta.get("annotators")
    if listed:
        return [int(a) for a in listed.split(",")]
    return sorted({e.annotator for e in document.edits}) or [0]


def chosen_annotator(document: Document, annotator: int | None) -> int:
    """``annotator``, or the document's only annotator when it is ``None``.

    Raises:
        ValueError: several annotators and none named.
    """
    if annotator is not None:
        return annotator
    ids = annotators(document)
    if len(ids) > 1:
        raise ValueError(f"document {document.id}: {len(ids)} annotators; name one")
    return ids[0]


def one_file(name: str, document: Document, written: int, corpus: str) -> None:
    """Refuse to write ``document`` to the one annotated file ``name`` when that file cannot
    hold it: it is not the first document (``written`` documents were), or it has several
    annotators.  A user who names a file expects one file, not a folder of that name.

    Raises:
        UsageError: the message says what the data holds and to give a folder.
    """
    ids = annotators(document)
    if written or len(ids) > 1:
        what = "several documents" if written else f"{len(ids)} annotators"
        folder = os.path.splitext(name)[0] or "OUT"
        raise UsageError(f"{name}: one {corpus} annotated file holds one document of one "
                         f"annotator, and the data has {what}: give a folder (e.g. {folder}/), "
                         "which gets one file per document and annotator")


def ordered_edits(document: Document, annotator: int, key: Callable[[Edit], Any]
                  ) -> list[Edit]:
    """The edits of ``annotator`` in writing order (sorted by ``key``), each checked to lie
    in the text after the one before it: inline markup cannot hold overlapping edits.

    Raises:
        ValueError: an edit overlaps another or does not fit the text (naming it).
    """
    edits = sorted((e for e in document.edits if e.annotator == annotator), key=key)
    pos = 0
    for edit in edits:
        if not 0 <= pos <= edit.start <= edit.end <= len(document.text):
            raise ValueError(f"document {document.id}: edit {edit.start}-{edit.end} overlaps "
                             "another or does not fit the text")
        pos = edit.end
    return edits


def same_text_groups(documents: Iterable[Document]) -> list[list[Document]]:
    """``documents`` (the files of one document id, one per annotator) grouped by their
    original text, in order: a group's annotators merge into one document; files whose
    originals differ stay documents of their own."""
    groups: list[list[Document]] = []
    for document in documents:
        for group in groups:
            if group[0].text == document.text:
                group.append(document)
                break
        else:
            groups.append([document])
    return groups


def report_losses(document: Document, report: Report) -> None:
    """Report what inline annotated text has no place for: paragraph breaks, OPTIONAL
    marks, edit comments."""
    where = f"document {document.id}"
    if document.breaks:
        report.drop("paragraph breaks", where, len(document.breaks))
    optional = sum(not e.required for e in document.edits)
    if optional:
        report.drop("OPTIONAL marks (written as required edits)", where, optional)
    comments = sum(e.comment not in ("-NONE-", "") for e in document.edits)
    if comments:
        report.drop("edit comments", where, comments)
