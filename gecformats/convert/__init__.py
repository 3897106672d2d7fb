"""Model → model operations, and the file conversion that chains them.

* :mod:`~gecformats.convert.retokenize`: character-offset documents (HOO) ↔ token sentences;
* :mod:`~gecformats.convert.extract`: edits from parallel text;
* :mod:`~gecformats.convert.chars`: word-level → character-level M2;
* :mod:`~gecformats.convert.project`: raw Chinese output onto a segmented gold;
* :mod:`~gecformats.convert.t2s`: traditional → simplified Chinese;
* :mod:`~gecformats.convert.loci`: edits ↔ error loci; :mod:`~gecformats.convert.refs`:
  every reference the loci allow;
* :mod:`~gecformats.convert.pipeline`: :func:`convert`, a file in one format to a file in
  another (format → model → format).
"""

from __future__ import annotations

from typing import Any

__all__ = ["convert"]


def __getattr__(name: str) -> Any:
    # convert() pulls in every format and operation: imported when first asked for, so that
    # importing one operation (score needs project) stays cheap
    if name == "convert":
        from gecformats.convert.pipeline import convert

        return convert
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
