"""Counts that describe an annotation file: sentences, tokens, edits per annotator, types.

>>> import io
>>> from gecformats.formats import m2
>>> text = ("S A test\\nA 0 1|||ArtOrDet|||The|||REQUIRED|||-NONE-|||0\\n"
...         "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\\n\\n")
>>> stats(m2.read(io.StringIO(text)))["annotators"]
{'0': {'edits': 1, 'noop': 0}, '1': {'edits': 0, 'noop': 1}}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from gecformats.model import Parallel, Sentence


def stats(sentences: Iterable[Sentence]) -> dict[str, Any]:
    """Count what a stream of sentences holds (one pass, constant memory per sentence).

    Args:
        sentences: the sentences, e.g. ``m2.read(path)``.

    Returns:
        A JSON-ready dict: ``sentences`` and ``tokens`` (source tokens); ``annotators``,
        id (as a string, in numeric order) → ``{"edits": int, "noop": int}`` where ``noop``
        counts the sentences in which the annotator is present with no edits; ``types``,
        error type → number of edits (most frequent first); ``alternatives``, the number of
        edits with more than one alternative correction; ``alignments``, the number of
        ChERRANT alignments beyond each reference's first.
    """
    n_sentences = 0
    tokens = 0
    edits: Counter[int] = Counter()
    noops: Counter[int] = Counter()
    types: Counter[str] = Counter()
    alternatives = 0
    alignments = 0
    for sentence in sentences:
        n_sentences += 1
        tokens += len(sentence.source)
        for annotator, annotator_edits in sentence.annotators.items():
            if annotator_edits:
                edits[annotator] += len(annotator_edits)
                for edit in annotator_edits:
                    types[edit.type] += 1
                    if len(edit.corrections) > 1:
                        alternatives += 1
            else:
                noops[annotator] += 1
        for targets in sentence.targets.values():
            alignments += len(targets) - 1
    annotators = {
        str(a): {"edits": edits[a], "noop": noops[a]} for a in sorted(set(edits) | set(noops))
    }
    return {
        "sentences": n_sentences,
        "tokens": tokens,
        "annotators": annotators,
        "types": dict(types.most_common()),
        "alternatives": alternatives,
        "alignments": alignments,
    }


def text_stats(items: Iterable[Parallel]) -> dict[str, Any]:
    """Count what a stream of parallel sentences holds (the ``parallel``, ``tsv``, ``nlpcc``
    and ``cherrant`` formats; one pass, constant memory).

    Returns:
        A JSON-ready dict: ``sentences``; ``characters`` (of the sources); ``references``,
        position (as a string) → ``{"present": int, "unchanged": int, "absent": int}``
        where ``unchanged`` counts references equal to their source; ``without_references``,
        the sentences with none (NLPCC ``N = 0``).

    >>> text_stats([Parallel("a b", ("a b", "a c")), Parallel("x", ())])["references"]
    {'0': {'present': 1, 'unchanged': 1, 'absent': 0}, '1': {'present': 1, 'unchanged': 0, 'absent': 0}}
    """
    n_sentences = characters = empty = 0
    present: Counter[int] = Counter()
    unchanged: Counter[int] = Counter()
    absent: Counter[int] = Counter()
    for item in items:
        n_sentences += 1
        characters += len(item.source)
        empty += not item.references
        for k, ref in enumerate(item.references):
            if ref is None:
                absent[k] += 1
            else:
                present[k] += 1
                unchanged[k] += ref == item.source
    positions = sorted(set(present) | set(absent))
    return {
        "sentences": n_sentences,
        "characters": characters,
        "references": {str(k): {"present": present[k], "unchanged": unchanged[k],
                                "absent": absent[k]} for k in positions},
        "without_references": empty,
    }


def format_stats(result: dict[str, Any]) -> str:
    """The result of :func:`stats` or :func:`text_stats` as text for people."""
    if "characters" in result:
        return "\n".join([
            f"sentences     {result['sentences']}",
            f"characters    {result['characters']} (sources)",
            "references    " + (", ".join(
                f"{k}: {c['present']} ({c['unchanged']} unchanged, {c['absent']} absent)"
                for k, c in result["references"].items()) or "none"),
            f"without any   {result['without_references']} sentences",
        ])
    lines = [
        f"sentences     {result['sentences']}",
        f"tokens        {result['tokens']}",
        "annotators    " + (", ".join(
            f"{a}: {c['edits']} edits, {c['noop']} noop"
            for a, c in result["annotators"].items()) or "none"),
        f"alternatives  {result['alternatives']} edits with more than one correction",
    ]
    if result.get("alignments"):
        lines.append(f"alignments    {result['alignments']} alternative alignments (ChERRANT)")
    if result["types"]:
        lines.append("types")
        width = max(len(t) for t in result["types"]) + 2
        lines.extend(f"  {t or '(none)':<{width}}{count}" for t, count in result["types"].items())
    return "\n".join(lines)
