"""The ``unicode`` tokenizer: language-neutral words and punctuation with exact spans."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from gecformats.tokenize import get_tokenizer

TOK = get_tokenizer("unicode")


def words(text: str) -> list[str]:
    return [t.text for t in TOK.tokenize(text)]


def test_ukrainian_words_apostrophes_hyphens_and_punctuation() -> None:
    assert words('"Я не є доктор" - сказав я: "Чому?".') == [
        '"', "Я", "не", "є", "доктор", '"', "-", "сказав", "я", ":", '"', "Чому", "?", '"', "."]
    assert words("м'ясо ім‘я п’ять будь-який") == ["м'ясо", "ім‘я", "п’ять", "будь-який"]
    assert words("вступ- 'так'") == ["вступ", "-", "'", "так", "'"]


def test_numbers_urls_runs_and_clusters() -> None:
    assert words("3.14 і 20,5 о 12:30") == ["3.14", "і", "20,5", "о", "12", ":", "30"]
    assert words("(див. https://uk.wikipedia.org/wiki/X_Y).") == [
        "(", "див", ".", "https://uk.wikipedia.org/wiki/X_Y", ")", "."]
    assert words("Що?! Ну...") == ["Що", "?!", "Ну", "..."]
    assert words("café naïve") == ["café", "naïve"]  # combining accents stay in the word
    assert words("ок 🧘\u200d♀\ufe0f!") == ["ок", "🧘\u200d♀\ufe0f", "!"]


def test_spans_are_exact() -> None:
    text = " Привіт,\u00a0світе!\n"
    for t in TOK.tokenize(text):
        assert text[t.start:t.end] == t.text


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60)
       | st.text(alphabet="аб'’-.,:/?! \n\u0301\u200d🧘♀\ufe0f1w", max_size=40))
def test_tokens_cover_the_non_space_characters_exactly_and_in_order(text: str) -> None:
    tokens = TOK.tokenize(text)
    covered = []
    last = 0
    for t in tokens:
        assert last <= t.start < t.end <= len(text)
        assert text[t.start:t.end] == t.text
        assert not any(ch.isspace() or ch == "\ufeff" for ch in t.text)
        covered.extend(range(t.start, t.end))
        last = t.end
    assert covered == [i for i, ch in enumerate(text) if not (ch.isspace() or ch == "\ufeff")]
