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

from gecformats.model import Sentence


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


def format_stats(result: dict[str, Any]) -> str:
    """The result of :func:`stats` as text for people."""
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
