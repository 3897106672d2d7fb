"""Find every problem in an annotation file, not just the first.

Each problem names the file, the line, the 1-based sentence number and a *kind* from a
fixed vocabulary (:data:`KINDS`):

``syntax``
    a line or block the format does not allow (it is skipped; checking goes on);
``offset-out-of-range``
    an edit with ``start < 0``, ``end`` past the sentence, or ``start > end``;
``duplicate-edit``
    an annotator lists the same edit (offsets and corrections) twice;
``overlap``
    two edits of one annotator overlap (an insertion overlaps a span it falls strictly
    inside; two insertions at one point do not overlap);
``identity-edit``
    a correction equals the text it replaces, so it changes nothing;
``bad-annotator``
    a missing or non-integer annotator id, or one that contradicts its ChERRANT ``T`` line.

>>> import io
>>> text = "S a b c\\nA 1 2|||X|||b|||REQUIRED|||-NONE-|||0\\nA 5 6|||X|||d|||REQUIRED|||-NONE-|||0\\n"
>>> [p.kind for p in validate(io.StringIO(text))]
['identity-edit', 'offset-out-of-range']
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass

from gecformats.errors import GecFormatError
from gecformats.formats import m2
from gecformats.io import Source, source_name
from gecformats.model import Edit, Sentence

KINDS = (
    "syntax",
    "offset-out-of-range",
    "duplicate-edit",
    "overlap",
    "identity-edit",
    "bad-annotator",
)


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem found in a file.

    Attributes:
        file: the file's name.
        line: 1-based line number of the offending line.
        sentence: 1-based number of the sentence (block) it belongs to, or ``None``.
        kind: one of :data:`KINDS`.
        message: what is wrong.
    """

    file: str
    line: int | None
    sentence: int | None
    kind: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:" if self.line is not None else f"{self.file}:"
        sentence = f" sentence {self.sentence}:" if self.sentence is not None else ""
        return f"{where}{sentence} {self.kind}: {self.message}"

    def to_dict(self) -> dict[str, object]:
        """The problem as a JSON-ready dict (keys file, line, sentence, kind, message)."""
        return asdict(self)


def validate(source: Source, format: str = "m2") -> Iterator[Problem]:
    """Check an annotation file and yield every problem found, in file order.

    Args:
        source: a path or an open file.
        format: the file's format (only ``m2`` so far).

    Yields:
        :class:`Problem` s, streaming (the file is never loaded whole).

    Raises:
        OSError: the file cannot be opened or read.
        GecFormatError: the file is not text (invalid UTF-8), or the format is unknown.
    """
    if format != "m2":
        raise GecFormatError(f"cannot validate format {format!r} (known: m2)")
    name = source_name(source)
    syntax: list[tuple[int, GecFormatError]] = []
    for number, sentence, edit_lines in m2.read_checked(source, syntax):
        # the syntax problems of this block (and of skipped blocks before it) come first
        yield from _drain(syntax, name)
        yield from check_sentence(sentence, name, number, edit_lines)
    yield from _drain(syntax, name)


def _drain(errors: list[tuple[int, GecFormatError]], name: str) -> Iterator[Problem]:
    for number, error in errors:
        yield Problem(name, error.line, number, error.kind, error.message)
    errors.clear()


def check_sentence(
    sentence: Sentence,
    file: str,
    number: int,
    edit_lines: Mapping[int, Sequence[int]] | None = None,
) -> Iterator[Problem]:
    """Check the edits of one sentence; yield its problems in line order.

    Args:
        sentence: the sentence.
        file: the file name to report.
        number: the 1-based sentence number to report.
        edit_lines: per annotator, the line number of each edit (``None``: unknown).
    """
    n = len(sentence.source)
    found: list[tuple[int, int, Problem]] = []

    def report(line: int | None, order: int, kind: str, message: str) -> None:
        found.append((line or 0, order, Problem(file, line, number, kind, message)))

    for annotator, edits in sentence.annotators.items():
        lines = edit_lines.get(annotator, ()) if edit_lines else ()
        seen: dict[tuple[int, int, tuple[tuple[str, ...], ...]], int] = {}
        in_range: list[tuple[int, Edit]] = []
        for i, edit in enumerate(edits):
            line = lines[i] if i < len(lines) else None
            what = f"annotator {annotator}, edit {edit.start} {edit.end}"
            if edit.start < 0 or edit.end > n or edit.start > edit.end:
                why = ("starts after it ends" if edit.start > edit.end
                       else f"does not fit the sentence's {n} tokens")
                report(line, i, "offset-out-of-range", f"{what} {why}")
                continue
            key = (edit.start, edit.end, edit.corrections)
            if key in seen:
                first = seen[key]
                report(line, i, "duplicate-edit",
                       f"{what} repeats the edit of " + (f"line {first}" if first else "an earlier line"))
                continue
            seen[key] = line or 0
            original = sentence.source[edit.start:edit.end]
            for alt in edit.corrections:
                if alt == original:
                    change = (f"replaces {' '.join(original)!r} with itself" if original
                              else "inserts nothing")
                    report(line, i, "identity-edit", f"{what} {change}"
                           + (f" (type {edit.type})" if edit.type else ""))
                    break
            for alt in edit.corrections:
                if "" in alt:
                    report(line, i, "syntax", f"{what}: a double space inside the correction "
                           f"{' '.join(alt)!r} (the NUS scorer can never match it)")
                    break
            for j, other in in_range:
                if _overlap(edit, other):
                    other_line = lines[j] if j < len(lines) else None
                    report(line, i, "overlap", f"{what} overlaps edit {other.start} {other.end}"
                           + (f" of line {other_line}" if other_line else ""))
                    break
            in_range.append((i, edit))
    found.sort(key=lambda item: (item[0], item[1]))
    for _, _, problem in found:
        yield problem


def _overlap(a: Edit, b: Edit) -> bool:
    if a.start == a.end and b.start == b.end:
        return False
    if a.start == a.end:
        return b.start < a.start < b.end
    if b.start == b.end:
        return a.start < b.start < a.end
    return a.start < b.end and b.start < a.end
