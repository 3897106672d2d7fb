"""Tokenizers, sentence splitters and OffsetMap of gecformats.tokenize: exact spans."""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gecformats import tokenize as tk
from gecformats.tokenize import (
    ChineseTokenizer,
    OffsetMap,
    Token,
    TokenSpan,
    get_splitter,
    get_tokenizer,
)

# its tests share costly module state (a fixture or a cache): one xdist worker runs them all
pytestmark = pytest.mark.xdist_group("tokenize")

IGNORABLE_CHARS = "\ufeff"
"""Not whitespace for ``str.isspace`` but never (the edge of) a token either."""


def ignorable(ch: str) -> bool:
    return ch.isspace() or ch in IGNORABLE_CHARS


def squeeze(text: str) -> str:
    """``text`` without whitespace and U+FEFF."""
    return "".join(ch for ch in text if not ignorable(ch))


# Every whitespace character Python knows (str.isspace) besides the ones asked for by name.
EXTRA_SPACES = "\x0b\x0c\x1c\x1d\x1e\x1f\x85\u1680\u2000\u2003\u2009\u200a\u2028\u2029\u202f\u205f"
SPECIAL = list(
    "aZz09.,;:!?-&%$#@/"      # ASCII letters, digits, punctuation
    "\"'`()[]{}<>"            # quotes and brackets nltk rewrites or splits off
    "   \n\n\r\t"             # spaces, line breaks (CR and LF), tabs
    "\u3000\ufeff\u00a0"      # ideographic space, BOM / zero width no-break space, NBSP
    "中文的是我们。，“”「」"   # CJK characters and CJK punctuation
) + ["\r\n", "e.g.", "can't", "''", "``", "...", "Mr.", "et al.", "i.e."] + list(EXTRA_SPACES)


def texts(exclude: str = "", max_size: int = 40) -> st.SearchStrategy[str]:
    """Random text: mostly the characters above, sometimes any Unicode character."""
    pieces = st.one_of(
        st.sampled_from([p for p in SPECIAL if not any(c in exclude for c in p)]),
        st.characters(blacklist_categories=("Cs",), blacklist_characters=exclude),
    )
    return st.lists(pieces, max_size=max_size).map("".join)


def check_tokens(text: str, tokens: list[Token]) -> None:
    """Spans exact, strictly increasing, not overlapping; no token empty or padded."""
    prev_end = 0
    for tok in tokens:
        assert tok.text == text[tok.start:tok.end], (text, tok)
        assert prev_end <= tok.start < tok.end, (text, tokens)
        assert not ignorable(tok.text[0]) and not ignorable(tok.text[-1]), (text, tok)
        prev_end = tok.end


@pytest.fixture(scope="module")
def zh(tmp_path_factory: pytest.TempPathFactory) -> ChineseTokenizer:
    """A zh tokenizer whose jieba cache lives in a temporary directory, not ~/.cache."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
        tokenizer = ChineseTokenizer()
        tokenizer.tokenize("中文")  # jieba loads its dictionary on first use
    return tokenizer


def make(name: str, zh: ChineseTokenizer) -> tk.Tokenizer:
    if name == "zh":
        return zh
    return get_splitter(name) if name in tk.SPLITTERS else get_tokenizer(name)




# --------------------------------------------------------------------- all tokenizers


@pytest.mark.parametrize("name", ["en", "char", "space", "punkt", "lines"])
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_spans_are_exact_and_trimmed(name: str, zh: ChineseTokenizer, data: st.DataObject) -> None:
    text = data.draw(texts())
    check_tokens(text, make(name, zh).tokenize(text))


@settings(max_examples=60, deadline=None)
@given(text=texts())
def test_zh_spans_are_exact_and_trimmed(zh: ChineseTokenizer, text: str) -> None:
    tokens = zh.tokenize(text)
    check_tokens(text, tokens)
    # jieba never puts whitespace inside a word and the trimmed characters are all dropped
    assert not any(ignorable(ch) for tok in tokens for ch in tok.text), (text, tokens)
    assert "".join(t.text for t in tokens) == squeeze(text)


def test_tokenizer_registry() -> None:
    assert set(tk.TOKENIZERS) == {"en", "zh", "char", "space", "unicode"}
    assert set(tk.SPLITTERS) == {"punkt", "lines"}
    assert get_tokenizer("en") is get_tokenizer("en")
    assert get_tokenizer("space").name == "space" and get_splitter("punkt").name == "punkt"


def test_unknown_names_are_refused_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match="unknown tokenizer 'xx'") as err:
        get_tokenizer("xx")
    assert all(name in str(err.value) for name in ("en", "zh", "char", "space"))
    with pytest.raises(ValueError, match="unknown sentence splitter 'en'") as err:
        get_splitter("en")
    assert "punkt" in str(err.value) and "lines" in str(err.value)


@pytest.mark.parametrize("name", ["en", "zh", "char", "space", "punkt", "lines"])
def test_versions(name: str, zh: ChineseTokenizer) -> None:
    version = make(name, zh).version
    assert isinstance(version, str) and version.strip() == version != ""
    if name in ("en", "punkt"):
        assert version.startswith("nltk-")
    if name == "punkt":
        assert "+abbrev-" in version
    if name == "zh":
        assert version.startswith("jieba-")


def test_empty_and_blank_text_give_no_tokens(zh: ChineseTokenizer) -> None:
    for name in ("en", "zh", "char", "space", "punkt", "lines"):
        tokenizer = make(name, zh)
        bom = "" if name == "en" else "\ufeff"  # en: see test_en_leading_bom_is_trimmed
        for text in ("", " ", "\n\n", " \t\u3000\u00a0\r\n" + bom):
            assert tokenizer.tokenize(text) == [], (name, text)


# ------------------------------------------------------------------------------- en


def en_texts(tokens: list[Token]) -> list[str]:
    return [t.text for t in tokens]


def test_en_quotes_and_brackets_keep_their_surface_text() -> None:
    text = 'He said "no (really)".'
    tokens = get_tokenizer("en").tokenize(text)
    assert en_texts(tokens) == ["He", "said", '"', "no", "(", "really", ")", '"', "."]
    check_tokens(text, tokens)
    assert [t.start for t in tokens if t.text == '"'] == [8, 20]


@pytest.mark.parametrize("text, expected", [
    ('"Hi," she said.', ['"', "Hi", ",", '"', "she", "said", "."]),
    ("''Hi'' she said", ["''", "Hi", "''", "she", "said"]),
    ("``Hi'' she said", ["``", "Hi", "''", "she", "said"]),
    ('(""x"")', ["(", '"', '"', "x", '"', '"', ")"]),
    ("It's `quoted' here", ["It", "'s", "`", "quoted", "'", "here"]),
    ('a\n"b"', ["a", '"', "b", '"']),
    ("[x] {y} <z>", ["[", "x", "]", "{", "y", "}", "<", "z", ">"]),
])
def test_en_quote_variants(text: str, expected: list[str]) -> None:
    tokens = get_tokenizer("en").tokenize(text)
    assert en_texts(tokens) == expected
    check_tokens(text, tokens)


@pytest.mark.parametrize("text, expected", [
    ("I can't go.", ["I", "ca", "n't", "go", "."]),
    ("We won't, they cannot.", ["We", "wo", "n't", ",", "they", "can", "not", "."]),
    ("It's John's.", ["It", "'s", "John", "'s", "."]),
])
def test_en_contractions(text: str, expected: list[str]) -> None:
    tokens = get_tokenizer("en").tokenize(text)
    assert en_texts(tokens) == expected
    check_tokens(text, tokens)


def test_en_final_period_split_abbreviation_kept() -> None:
    en = get_tokenizer("en")
    assert en_texts(en.tokenize("Use e.g. this.")) == ["Use", "e.g.", "this", "."]
    assert en_texts(en.tokenize("x.")) == ["x", "."]
    assert en_texts(en.tokenize("Dr. Smith left.")) == ["Dr.", "Smith", "left", "."]
    # one sentence: only the final period is split off
    assert en_texts(en.tokenize("A cat. A dog.")) == ["A", "cat.", "A", "dog", "."]


def test_en_spans_with_surrounding_whitespace() -> None:
    text = "  Hi\tthere,\u3000you\u00a0 .\n"
    tokens = get_tokenizer("en").tokenize(text)
    assert tokens == [Token("Hi", 2, 4), Token("there", 5, 10), Token(",", 10, 11),
                      Token("you", 12, 15), Token(".", 17, 18)]
    assert get_tokenizer("en").tokenize("Hi there")[1] == Token("there", 3, 8)


EN_PIECES = st.sampled_from([
    "can't", "won't", "cannot", "gonna", "'tis", "'s", "n't", "''", "``", '"', "'", "`",
    "(", ")", "[", "]", ".", "...", "e.g.", "Mr.", "a", "Bob", " ", "  ", "\n", "\t", "-",
    "--", "&", "$", ",", ";", ":", "?", "!", "1.5", "U.S.", "\u3000", "\u00a0", "中", "«",
    "»", "“", "”", "‘", "’", "%", "@",
])


@settings(max_examples=200, deadline=None)
@given(text=st.one_of(st.lists(EN_PIECES, max_size=20).map("".join),
                      texts()))
def test_en_tokens_concatenate_to_the_text_without_whitespace(text: str) -> None:
    tokens = get_tokenizer("en").tokenize(text)
    check_tokens(text, tokens)
    assert "".join(en_texts(tokens)) == squeeze(text)


@pytest.mark.parametrize("text", ["\ufeff", "\ufeffHello world", "a \ufeffb"])
def test_en_leading_bom_is_trimmed(text: str) -> None:
    tokens = get_tokenizer("en").tokenize(text)
    check_tokens(text, tokens)
    assert "".join(en_texts(tokens)) == squeeze(text)


@pytest.mark.parametrize("text", ["a\ufeff", "Hello\ufeff world"])
def test_en_trailing_bom_is_trimmed(text: str) -> None:
    check_tokens(text, get_tokenizer("en").tokenize(text))


# -------------------------------------------------------------------------- splitters


def sentences(name: str, text: str) -> list[str]:
    tokens = get_splitter(name).tokenize(text)
    check_tokens(text, tokens)
    return [t.text for t in tokens]


@pytest.mark.parametrize("text, expected", [
    ("See e.g. Smith et al. in 2010. It works.", ["See e.g. Smith et al. in 2010.", "It works."]),
    ("Results i.e. The good ones. Next.", ["Results i.e. The good ones.", "Next."]),
    ("As Fig. 3 shows, it works. Yes.", ["As Fig. 3 shows, it works.", "Yes."]),
    ("Smith et al. Found it. Then more.", ["Smith et al. Found it.", "Then more."]),
    ("Use e.g. Python. Or i.e. Java.", ["Use e.g. Python.", "Or i.e. Java."]),
    ("Mr. Smith went. He came.", ["Mr. Smith went.", "He came."]),
    ("Hello there. How are you? Fine!", ["Hello there.", "How are you?", "Fine!"]),
])
def test_punkt_abbreviations_do_not_end_a_sentence(text: str, expected: list[str]) -> None:
    assert sentences("punkt", text) == expected


def test_punkt_docstring_example_spans() -> None:
    text = "See e.g. Smith et al. in 2010. It works."
    assert get_splitter("punkt").tokenize(text) == [
        Token("See e.g. Smith et al. in 2010.", 0, 30), Token("It works.", 31, 40)]


@pytest.mark.parametrize("text, expected", [
    ("one\ntwo", ["one", "two"]),
    ("no period here\nnext line", ["no period here", "next line"]),
    ("see e.g.\nThis", ["see e.g.", "This"]),
    ("a\r\nb\rc\n", ["a", "b", "c"]),
    ("A.\n\n\nB.", ["A.", "B."]),
    ("  Yes. No.  \n \t\u3000\u00a0\ufeff\n\n  C  ", ["Yes.", "No.", "C"]),
])
def test_punkt_line_breaks_end_sentences_blank_lines_ignored(text: str, expected: list[str]) -> None:
    assert sentences("punkt", text) == expected


def test_punkt_spans_across_lines() -> None:
    text = " Hi there.  Bye.\r\n\r\n\tNext line\n"
    assert get_splitter("punkt").tokenize(text) == [
        Token("Hi there.", 1, 10), Token("Bye.", 12, 16), Token("Next line", 21, 30)]


def test_punkt_abbreviation_list() -> None:
    for abbrev in ("e.g", "i.e", "al", "fig", "eq", "cf"):
        assert abbrev in tk.PUNKT_ABBREVIATIONS
    assert all(a == a.lower() and not a.endswith(".") for a in tk.PUNKT_ABBREVIATIONS)


def test_lines_one_sentence_per_non_blank_line() -> None:
    text = "  a b.  c.  \r\n\r\n\t d\u3000\n\u00a0\n\ufeff\ne\rf"
    assert get_splitter("lines").tokenize(text) == [
        Token("a b.  c.", 2, 10), Token("d", 18, 19), Token("e", 25, 26), Token("f", 27, 28)]


@pytest.mark.parametrize("name", ["punkt", "lines"])
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_splitters_keep_every_character_and_every_line_break(name: str, data: st.DataObject) -> None:
    text = data.draw(texts())
    tokens = get_splitter(name).tokenize(text)
    check_tokens(text, tokens)
    assert squeeze("".join(t.text for t in tokens)) == squeeze(text)
    assert not any("\n" in t.text or "\r" in t.text for t in tokens)
    if name == "lines":
        lines = [line for line in re.split(r"\r\n|\r|\n", text) if squeeze(line)]
        assert len(tokens) == len(lines)


@pytest.mark.parametrize("text", ["a\x1f", "a\u2003", "a\u2009\nb", "\u3000中文\u202f"])
def test_lines_trims_all_trailing_whitespace(text: str) -> None:
    check_tokens(text, get_splitter("lines").tokenize(text))


# ------------------------------------------------------------------------------- zh


def test_zh_spaces_never_become_tokens(zh: ChineseTokenizer) -> None:
    text = "我们 是\u3000中国人\ufeff。 \t\u00a0他\r\n说：“ 好 ”"
    tokens = zh.tokenize(text)
    check_tokens(text, tokens)
    assert "".join(t.text for t in tokens) == squeeze(text)
    assert all(squeeze(t.text) == t.text for t in tokens)
    assert [t.text for t in zh.tokenize("我们是中国人")] == ["我们", "是", "中国", "人"]


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="XDG_CACHE_HOME is POSIX")
def test_zh_jieba_cache_goes_to_the_user_cache_dir(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    xdg = tmp_path / "xdg"
    systmp = tmp_path / "systmp"
    systmp.mkdir()
    monkeypatch.setenv("XDG_CACHE_HOME", str(xdg))
    monkeypatch.setattr(tempfile, "tempdir", str(systmp))
    assert tempfile.gettempdir() == str(systmp)

    tokenizer = ChineseTokenizer()
    assert [t.text for t in tokenizer.tokenize("我们是中国人")] == ["我们", "是", "中国", "人"]

    cache_dir = tk.user_cache_dir()
    assert cache_dir == xdg / "gecformats" and cache_dir.is_dir()
    assert tokenizer._jieba.tmp_dir == str(cache_dir)
    assert tokenizer._jieba.cache_file is None  # so jieba writes tmp_dir/jieba.cache
    assert (cache_dir / "jieba.cache").is_file()
    assert list(systmp.iterdir()) == []


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="XDG_CACHE_HOME is POSIX")
def test_user_cache_dir_without_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert tk.user_cache_dir() == tmp_path / ".cache" / "gecformats"
    assert (tmp_path / ".cache" / "gecformats").is_dir()


# ----------------------------------------------------------------------- char, space


def test_char_one_token_per_non_space_character() -> None:
    text = "a b\u3000中\ufeff\t.\u00a0\n"
    assert get_tokenizer("char").tokenize(text) == [
        Token("a", 0, 1), Token("b", 2, 3), Token("中", 4, 5), Token(".", 7, 8)]


@settings(max_examples=100, deadline=None)
@given(text=texts())
def test_char_and_space_properties(text: str) -> None:
    chars = get_tokenizer("char").tokenize(text)
    assert [t.text for t in chars] == [c for c in text if not ignorable(c)]
    assert all(t.end == t.start + 1 for t in chars)
    words = get_tokenizer("space").tokenize(text)
    assert [t.text for t in words] == [w for w in re.split(r"[\s\ufeff]+", text) if w]


# -------------------------------------------------------------------------- OffsetMap

#          0123456789012345
SPACED = "the cat  sat\t中文"
SPACED_MAP = OffsetMap(get_tokenizer("space").tokenize(SPACED), len(SPACED))  # the cat sat 中文


@pytest.mark.parametrize("start, end, expected", [
    (0, 3, (0, 1, False)),     # exact "the"
    (4, 7, (1, 2, False)),     # exact "cat"
    (0, 12, (0, 3, False)),    # exact "the cat  sat"
    (13, 15, (3, 4, False)),   # exact "中文"
    (5, 7, (1, 2, True)),      # "at": inside "cat"
    (4, 6, (1, 2, True)),      # "ca"
    (1, 10, (0, 3, True)),     # "he cat  s"
    (14, 15, (3, 4, True)),    # "文"
    (3, 4, (1, 1, False)),     # one space: insertion before "cat"
    (7, 9, (2, 2, False)),     # two spaces: insertion before "sat"
    (12, 13, (3, 3, False)),   # the tab
    (3, 7, (1, 2, False)),     # " cat": leading space snaps
    (4, 9, (1, 2, False)),     # "cat  ": trailing spaces snap
    (2, 9, (0, 2, True)),      # "e cat  "
    (0, 0, (0, 0, False)),     # insertion points
    (4, 4, (1, 1, False)),
    (7, 7, (2, 2, False)),
    (8, 8, (2, 2, False)),
    (15, 15, (4, 4, False)),
    (5, 5, (1, 2, True)),      # an empty range inside "cat" is that token
    (0, 15, (0, 4, False)),
])
def test_char_to_token(start: int, end: int, expected: tuple[int, int, bool]) -> None:
    assert SPACED_MAP.char_to_token(start, end) == TokenSpan(*expected)


def test_char_to_token_refuses_reversed_range() -> None:
    with pytest.raises(ValueError, match="start > end"):
        SPACED_MAP.char_to_token(5, 4)


def test_token_to_char() -> None:
    assert SPACED_MAP.token_to_char(1, 3) == (4, 12)
    assert SPACED_MAP.token_to_char(0, 4) == (0, 15)
    assert SPACED_MAP.token_to_char(2, 2) == (9, 9)
    assert SPACED_MAP.token_to_char(4, 4) == (15, 15)
    for bad in [(-1, 0), (2, 1), (0, 5), (5, 5)]:
        with pytest.raises(IndexError):
            SPACED_MAP.token_to_char(*bad)


def test_offset_map_without_tokens() -> None:
    empty = OffsetMap([])
    assert empty.char_to_token(0, 0) == TokenSpan(0, 0, False)
    assert empty.char_to_token(0, 3) == TokenSpan(0, 0, False)
    assert empty.token_to_char(0, 0) == (0, 0)


def test_offset_map_docstring_example() -> None:
    m = OffsetMap(get_tokenizer("space").tokenize("the cat  sat"))
    assert m.char_to_token(4, 7) == TokenSpan(1, 2, False)
    assert m.char_to_token(5, 7) == TokenSpan(1, 2, True)
    assert m.char_to_token(7, 9) == TokenSpan(2, 2, False)
    assert m.token_to_char(1, 3) == (4, 12)


@st.composite
def spaced_tokens(draw: st.DrawFn) -> tuple[str, list[Token]]:
    """Random tokens joined by random (non-empty) whitespace, with their spans."""
    words = draw(st.lists(st.text(st.sampled_from(list("ab.,'\"中文")), min_size=1, max_size=4),
                          max_size=8))
    space = st.text(st.sampled_from(list(" \t\n\r\u3000\u00a0\ufeff")), max_size=3)
    text = draw(space)
    tokens = []
    for k, word in enumerate(words):
        if k:
            text += draw(space.filter(bool))
        tokens.append(Token(word, len(text), len(text) + len(word)))
        text += word
    text += draw(space)
    return text, tokens


@settings(max_examples=150, deadline=None)
@given(case=spaced_tokens(), data=st.data())
def test_token_ranges_round_trip(case: tuple[str, list[Token]], data: st.DataObject) -> None:
    text, tokens = case
    assert get_tokenizer("space").tokenize(text) == tokens
    m = OffsetMap(tokens, len(text))
    i = data.draw(st.integers(0, len(tokens)))
    j = data.draw(st.integers(i, len(tokens)))
    start, end = m.token_to_char(i, j)
    if i < j:
        assert (start, end) == (tokens[i].start, tokens[j - 1].end)
        assert m.char_to_token(start, end) == TokenSpan(i, j, False)
    else:
        assert m.char_to_token(start, end) == TokenSpan(i, i, False)


@settings(max_examples=150, deadline=None)
@given(case=spaced_tokens(), data=st.data())
def test_any_char_range_maps_to_a_covering_token_range(case: tuple[str, list[Token]],
                                                       data: st.DataObject) -> None:
    text, tokens = case
    m = OffsetMap(tokens, len(text))
    a = data.draw(st.integers(0, len(text)))
    b = data.draw(st.integers(a, len(text)))
    span = m.char_to_token(a, b)
    assert 0 <= span.start <= span.end <= len(tokens)
    # every non-whitespace character of [a, b) lies in a token of the range
    for pos in range(a, b):
        if not ignorable(text[pos]):
            k = next(k for k, t in enumerate(tokens) if t.start <= pos < t.end)
            assert span.start <= k < span.end, (text, a, b, span)
    # no token of the range lies wholly outside [a, b) unless it holds a boundary
    for t in tokens[span.start:span.end]:
        assert t.start < b and t.end > a or t.start < a < t.end, (text, a, b, span)
    # widened exactly when a boundary falls strictly inside a token
    inside = any(t.start < a < t.end or t.start < b < t.end for t in tokens)
    assert span.widened == inside
    if not span.widened and span.start < span.end:
        lo, hi = m.token_to_char(span.start, span.end)
        assert a <= lo < hi <= b
    if not squeeze(text[a:b]) and not span.widened:
        assert span.start == span.end  # whitespace only: an insertion point


def test_punkt_scans_a_long_line_without_nltks_clock(monkeypatch) -> None:
    """Newer nltk stops each regular expression after 5 s of wall time (``nltk.redos``);
    Punkt scans a whole line with one, so a megabyte essay line failed or not by the load of
    the machine.  The splitter lifts that limit for that scan (nltk's own linear pattern)."""
    redos = pytest.importorskip("nltk.redos")
    monkeypatch.setattr(redos, "DEFAULT_TIMEOUT", 0.05)
    text = "He go home. She go too. " * 5000
    sentences = tk.PunktSplitter().tokenize(text)
    assert len(sentences) == 10_000 and sentences[-1].text == "She go too."
