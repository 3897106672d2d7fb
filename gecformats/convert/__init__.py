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

from gecformats.convert.pipeline import convert

__all__ = ["convert"]
