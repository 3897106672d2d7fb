"""The one exception type for malformed input."""

from __future__ import annotations


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
