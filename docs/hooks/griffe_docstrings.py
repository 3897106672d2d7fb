"""A griffe extension for the API pages: the package's docstrings are written for ``help()``
and doctest (reST roles such as ``:class:`Sentence```, bare ``>>>`` examples); on the site
the roles become code and each run of ``>>>`` lines a Python console block, so that neither
is read as Markdown (``>>>`` would be a nested quotation, ``[0.5, 1.0]`` a link)."""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:class|func|mod|data|attr|meth|exc|obj):`~?([^`]+)`")
PROMPT = re.compile(r"^(\s*)>>> ")


def plain(text: str) -> str:
    """``text`` with reST roles as code spans and doctest examples fenced as ``pycon``."""
    text = ROLE.sub(lambda m: f"`{m.group(1)}`", text)
    out: list[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = PROMPT.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        indent = m.group(1)
        out.extend([f"{indent}```pycon"])
        while i < len(lines) and lines[i].strip() and lines[i].startswith(indent):
            out.append(lines[i])
            i += 1
        out.extend([f"{indent}```"])
    return "\n".join(out)


class PlainDocstrings(griffe.Extension):
    """Rewrite every docstring with :func:`plain` as griffe loads it."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = plain(obj.docstring.value)
