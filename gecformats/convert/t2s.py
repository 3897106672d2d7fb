"""Optional traditional → simplified Chinese conversion, through whatever converter is installed.

NLPCC 2018 training corrections contain traditional characters (讓, 來, 為 ...) while the
test data is simplified; ChERRANT converts references before extracting edits.  gecformats
never depends on a converter: :func:`converter` finds an installed one (OpenCC's Python
binding ``opencc``, its pure-Python reimplementation, ``zhconv`` or ``hanziconv``) and says
clearly when there is none.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from gecformats.errors import GecFormatError

INSTALL_HINT = ("pip install opencc-python-reimplemented (or opencc, zhconv, hanziconv)")


def converter() -> tuple[Callable[[str], str], str]:
    """An installed traditional → simplified converter and its name with version.

    Returns:
        ``(convert, name)``: ``convert(text)`` gives the simplified text.

    Raises:
        GecFormatError: no converter is installed (the message says how to install one).
    """
    try:
        opencc = import_module("opencc")
    except ImportError:
        pass
    else:
        cc = None
        for config in ("t2s", "t2s.json"):
            try:
                cc = opencc.OpenCC(config)
                break
            except Exception:  # the two packages spell the configuration differently
                continue
        if cc is not None:
            return cc.convert, f"opencc-{getattr(opencc, '__version__', '?')}"
    try:
        zhconv = import_module("zhconv")
    except ImportError:
        pass
    else:
        return (lambda text: zhconv.convert(text, "zh-cn")), f"zhconv-{getattr(zhconv, '__version__', '?')}"
    try:
        hanziconv = import_module("hanziconv")
    except ImportError:
        pass
    else:
        return hanziconv.HanziConv.toSimplified, "hanziconv"
    raise GecFormatError(f"traditional → simplified conversion needs a converter: {INSTALL_HINT}")
