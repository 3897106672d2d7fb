"""The one exception type for malformed input."""

from __future__ import annotations

from collections.abc import Sequence


class GecFormatError(ValueError):
    """Malformed or unusable input, located by file and line (or XML element).

    Attributes:
        file: the input's name as the user gave it (``"<stdin>"`` or ``"<string>"`` for
            in-memory input), or ``None`` when unknown.
        line: 1-based line number, or ``None`` when the problem is not tied to a line.
        message: what is wrong, in words a user can act on.
        kind: a word for the class of problem, from the vocabulary of
            :mod:`gecformats.validate` (``syntax`` unless said otherwise).

    ``str(error)`` is ``FILE:LINE: message`` (parts that are unknown are left out), the
    one-line form the CLI prints.
    """

    def __init__(
        self, message: str, file: str | None = None, line: int | None = None, kind: str = "syntax"
    ) -> None:
        self.file = file
        self.line = line
        self.message = message
        self.kind = kind
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = ""
        if self.file is not None:
            where = f"{self.file}:"
            if self.line is not None:
                where += f"{self.line}:"
        elif self.line is not None:
            where = f"line {self.line}:"
        # one line, always: a message may quote a parser's multi-line text, or a name with
        # any character str.splitlines() breaks at (\x1e, \x85, \u2028 ...)
        message = " ".join(self.message.splitlines()) if self.message else self.message
        return f"{where} {message}" if where else message

    def __reduce__(self) -> tuple[type, tuple[str, str | None, int | None, str]]:
        return (type(self), (self.message, self.file, self.line, self.kind))


class UsageError(GecFormatError):
    """The request itself is wrong, whatever the data: an unknown format name, a format
    that cannot be inferred from a file name, an option that does not apply to the
    conversion asked for.  The CLI exits 2 for these (1 for bad data)."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None,
                 kind: str = "usage") -> None:
        super().__init__(message, file, line, kind)


USER_ERRORS: tuple[type[BaseException], ...] = (GecFormatError, OSError, UnicodeError,
                                                 MemoryError, RecursionError)
"""What a task raises for bad input (what the CLI prints as one line): in
:mod:`gecformats.dist`, sent back to the client as a result and raised there, never
retried; :func:`gecformats.io.chunks` ends its tasks with it."""


class GecFormatWarning(UserWarning):
    """What makes a number doubtful without making it wrong (a tokenization that differs
    from the gold's, gold edits past the end of their sentence …): the warnings the command
    line prints on standard error, issued by the Python API (:func:`gecformats.score`,
    :func:`gecformats.sentence_scores`) with the :mod:`warnings` module, so that
    ``warnings.simplefilter("error", GecFormatWarning)`` makes them errors (as ``score
    --strict``) and ``"ignore"`` silences them."""


def install_hint(extra: str) -> str:
    """What to run for gecformats' optional extra ``extra`` (``errant``, ``dask`` ...), for
    the messages and help texts that name it: the registry's form, and the form that works in
    a clone of the repository (the registry's fails there until the package is published).

    >>> install_hint("errant")
    "pip install 'gecformats[errant]', or from a clone pip install '.[errant]'"
    """
    return f"pip install 'gecformats[{extra}]', or from a clone pip install '.[{extra}]'"


_SPLIT_OFF = frozenset({",", ".", "!", "?", ";", ":", ")", "''", "``", "n't", "'s", "'re", "'ve",
                        "'ll", "'m", "'d", "-LRB-", "-RRB-", "，", "。", "！", "？", "；", "："})
"""Tokens that, standing alone after the first, show a text tokenized already."""


def source_difference(hypothesis: Sequence[str], gold: Sequence[str], context: int = 4) -> str:
    """Where the source tokens of one sentence first differ between a hypothesis M2 file and
    the gold, for an error message: the first differing token of each, with ``context``
    tokens on both sides, and, when the two hold the same characters tokenized differently
    and the gold's text looks tokenized already, the option that keeps the tokens.

    >>> print(source_difference("life , we never know when the '' potential bomb ' ' will".split(),
    ...                         "life , we never know when the ''potential bomb' ' will".split()))
    token 8 is "''" in the hypothesis, "''potential" in the gold ("… never know when the '' potential bomb ' ' …" vs "… never know when the ''potential bomb' ' will"); the same characters tokenized differently, and the gold is tokenized already: if the hypothesis text was too, make its M2 with 'gecformats convert … --tokenizer space', which keeps its tokens
    """
    at = next((i for i, (h, g) in enumerate(zip(hypothesis, gold)) if h != g),
              min(len(hypothesis), len(gold)))

    def show(tokens: Sequence[str]) -> str:
        start, end = max(0, at - context), min(len(tokens), at + 1 + context)
        shown = " ".join(tokens[start:end])
        return repr(("… " if start else "") + shown + (" …" if end < len(tokens) else ""))

    def token(tokens: Sequence[str]) -> str:
        return f'"{tokens[at]}"' if at < len(tokens) else "the end"

    message = (f"token {at + 1} is {token(hypothesis)} in the hypothesis, {token(gold)} in the "
               f"gold ({show(hypothesis)} vs {show(gold)})")
    if "".join(hypothesis) == "".join(gold):
        message += "; the same characters tokenized differently"
        if any(t in _SPLIT_OFF for t in gold[1:]):
            message += (", and the gold is tokenized already: if the hypothesis text was too, "
                        "make its M2 with 'gecformats convert … --tokenizer space', which "
                        "keeps its tokens")
    return message
