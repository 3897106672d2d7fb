"""gecformats.formats: the registry and the Format protocol every format module satisfies."""

from __future__ import annotations

import typing

import pytest

from gecformats import formats
from gecformats.errors import GecFormatError


@pytest.mark.parametrize("name", list(formats.FORMATS))
def test_every_module_satisfies_the_protocol(name: str) -> None:
    module = formats.FORMATS[name]
    assert isinstance(module, formats.Format)
    assert module.NAME == name
    assert module.UNIT in typing.get_args(formats.Unit)
    assert isinstance(module.SUFFIXES, tuple)
    # the registry's copy, which infer() reads without importing the module
    assert formats.SUFFIXES.get(name, ()) == module.SUFFIXES
    assert callable(module.read) and callable(module.write)


def test_suffixes_name_one_format_each() -> None:
    for name, module in formats.FORMATS.items():
        for suffix in module.SUFFIXES:
            assert formats.infer(f"file{suffix}") == name
            assert formats.infer(f"file{suffix}.gz") == name


def test_inferring_a_format_imports_no_reader() -> None:
    import subprocess
    import sys

    code = ("import sys; from gecformats import formats; formats.infer('gold.m2'); "
            "print(sorted(m for m in sys.modules if m.startswith(('gecformats.formats.', 'lxml'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(GecFormatError, match="known: m2, hoo2011"):
        formats.get("conllu")


def test_a_missing_file_is_missing_not_of_an_unknown_format(tmp_path) -> None:
    """A missing input without a telling suffix is bad input (exit 1: no such file), not a
    format the user should name (it was a usage error asking for --gold-format)."""
    missing = tmp_path / "gold"
    with pytest.raises(FileNotFoundError) as raised:
        formats.infer_input(missing, example="gecformats score HYP --gold GOLD --gold-format {format}")
    assert raised.value.filename == str(missing)
    assert formats.infer_input(tmp_path / "gold.m2") == "m2"  # the suffix still tells
