"""Optional traditional → simplified conversion: gecformats.convert.t2s (no converter is a dependency)."""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import FIXTURES
from gecformats.convert import t2s
from gecformats.cli import app
from gecformats.convert import convert
from gecformats.errors import GecFormatError
from gecformats.formats import m2

ZH_TRAIN = FIXTURES / "extract" / "zh.train"
CONVERTERS = ("opencc", "zhconv", "hanziconv")
TABLE = str.maketrans({"來": "来", "興": "兴", "讓": "让", "為": "为"})


def no_converters(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hide every converter (a None entry in sys.modules makes the import fail)."""
    for name in CONVERTERS:
        monkeypatch.setitem(sys.modules, name, None)


def fake_zhconv(monkeypatch: pytest.MonkeyPatch, calls: list[tuple[str, str]]) -> None:
    no_converters(monkeypatch)
    module = types.ModuleType("zhconv")

    def convert(text: str, locale: str) -> str:
        calls.append((text, locale))
        return text.translate(TABLE)

    module.convert = convert  # type: ignore[attr-defined]
    module.__version__ = "9.9"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "zhconv", module)


def test_no_converter_installed_in_this_environment() -> None:
    if any(importlib.util.find_spec(name) is not None for name in CONVERTERS):
        pytest.skip("a converter is installed here")
    with pytest.raises(GecFormatError) as info:
        t2s.converter()
    assert t2s.INSTALL_HINT in str(info.value)
    assert "pip install" in str(info.value)


def test_no_converter_gives_the_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    no_converters(monkeypatch)
    with pytest.raises(GecFormatError, match="needs a converter: pip install opencc"):
        t2s.converter()


def test_fake_zhconv_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, str]] = []
    fake_zhconv(monkeypatch, calls)
    simplify, name = t2s.converter()
    assert name == "zhconv-9.9"
    assert simplify("他來了，我很高興。") == "他来了，我很高兴。"
    assert calls == [("他來了，我很高興。", "zh-cn")]


def test_opencc_comes_first_and_either_config_spelling_works(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_zhconv(monkeypatch, [])
    opencc = types.ModuleType("opencc")
    configs: list[str] = []

    class OpenCC:
        def __init__(self, config: str) -> None:
            configs.append(config)
            if config != "t2s.json":  # the C++ binding wants the file name
                raise ValueError(config)

        def convert(self, text: str) -> str:
            return text.translate(TABLE)

    opencc.OpenCC = OpenCC  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "opencc", opencc)
    simplify, name = t2s.converter()
    assert name == "opencc-?" and configs == ["t2s", "t2s.json"]
    assert simplify("讓") == "让"


def test_unusable_opencc_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_zhconv(monkeypatch, [])
    opencc = types.ModuleType("opencc")

    def broken(config: str) -> None:
        raise OSError("no configuration files")

    opencc.OpenCC = broken  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "opencc", opencc)
    assert t2s.converter()[1] == "zhconv-9.9"


def test_hanziconv(monkeypatch: pytest.MonkeyPatch) -> None:
    no_converters(monkeypatch)
    module = types.ModuleType("hanziconv")
    module.HanziConv = types.SimpleNamespace(toSimplified=lambda text: text.translate(TABLE))  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "hanziconv", module)
    simplify, name = t2s.converter()
    assert name == "hanziconv" and simplify("為") == "为"


def test_convert_simplifies_references_only(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls: list[tuple[str, str]] = []
    fake_zhconv(monkeypatch, calls)
    out = tmp_path / "out.m2"
    report = convert(ZH_TRAIN, out, from_format="nlpcc", tokenizer="char", simplify=True)
    # the sources are never converted: only the 4 references went through the converter
    assert [text for text, _ in calls] == ["我在家里自学中文。", "他们去学校。", "他们去了学校，",
                                           "他來了，我很高興。"]
    conversion = report.conversion
    assert conversion.versions["simplifier"] == "zhconv-9.9"
    assert conversion.counts["simplified"] == 1
    last = list(m2.read(out))[-1]
    assert last.source == tuple("他来了，我很高兴。")
    assert last.annotators == {0: ()}  # 來/興 simplified: the reference equals the source
    assert conversion.noops == 3


def test_a_traditional_source_stays_traditional(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake_zhconv(monkeypatch, [])
    src, ref = tmp_path / "src.txt", tmp_path / "ref.txt"
    src.write_text("他來了\n", encoding="utf-8")
    ref.write_text("他來了\n", encoding="utf-8")
    out = tmp_path / "out.m2"
    convert(src, out, from_format="parallel", refs=[ref], tokenizer="char", simplify=True)
    [s] = m2.read(out)
    assert s.source == ("他", "來", "了")
    assert [(e.start, e.end, e.correction) for e in s.annotators[0]] == [(1, 2, ("来",))]


def test_simplified_examples_name_the_sentence_number(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    fake_zhconv(monkeypatch, [])
    src, ref = tmp_path / "src.txt", tmp_path / "ref.txt"
    src.write_text("我\n他來了\n", encoding="utf-8")
    ref.write_text("我\n他來了\n", encoding="utf-8")
    report = convert(src, tmp_path / "out.m2", from_format="parallel", refs=[ref],
                     tokenizer="char", simplify=True)
    assert report.conversion.examples["simplified"] == ["sentence 2"]


def test_cli_t2s_without_a_converter(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    no_converters(monkeypatch)
    out = tmp_path / "out.m2"
    result = CliRunner().invoke(app, ["convert", str(ZH_TRAIN), str(out), "--from", "nlpcc",
                                      "--tokenizer", "zh", "--t2s"])
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        "gecformats: traditional → simplified conversion needs a converter: " + t2s.INSTALL_HINT)
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_cli_t2s_with_a_converter(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake_zhconv(monkeypatch, [])
    out = tmp_path / "out.m2"
    report = tmp_path / "r.json"
    result = CliRunner().invoke(app, ["convert", str(ZH_TRAIN), str(out), "--from", "nlpcc",
                                      "--tokenizer", "char", "--t2s", "--report", str(report)])
    assert result.exit_code == 0, result.stderr
    assert "1 simplified" in result.stderr
    assert '"simplifier": "zhconv-9.9"' in report.read_text(encoding="utf-8")
