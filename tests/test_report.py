"""``gecformats report`` (issue 26): one self-contained HTML page whose every count is the
scorer's: the data embedded in the page is parsed and compared with ``score``'s per-sentence
table, corpus counts and ``--per-type`` counts (browser tests: test_report_browser.py)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES, ROOT, shared_file

SAMPLE_HYP = FIXTURES / "score" / "sample.hyp"
SAMPLE_GOLD = FIXTURES / "score" / "sample.m2"
CONLL_GOLD = "corpora/conll14/conll14st-test-data/noalt/official-2014.combined.m2"


def gecformats(*args: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gecformats", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT)


def page_data(html: str) -> dict[str, Any]:
    """The JSON the page embeds for its script."""
    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S)
    assert found, "no data element"
    return json.loads(found.group(1))


class _Table(HTMLParser):
    """The systems table's rows: system name → cell texts."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[str, list[str]] = {}
        self._in, self._row, self._cell = False, None, None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table" and ("id", "systems") in attrs:
            self._in = True
        elif self._in and tag == "tr" and any(k == "data-system" for k, _ in attrs):
            self._row = []
        elif self._row is not None and tag in ("td", "th"):
            self._cell = ""

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell += data

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(self._cell.strip())
            self._cell = None
        elif tag == "tr" and self._row:
            self.rows[self._row[0]] = self._row[1:]
            self._row = None
        elif tag == "table":
            self._in = False


def systems_table(html: str) -> dict[str, list[str]]:
    parser = _Table()
    parser.feed(html)
    return parser.rows


def per_sentence(path: Path) -> dict[tuple[str, int], dict[str, int]]:
    """``score --per-sentence`` of several systems: (system, sentence) → fields."""
    out = {}
    for line in path.read_text().splitlines()[1:]:
        number, system, metric, fields = line.split("\t")
        if metric == "m2":
            out[system, int(number)] = {k: int(v) for k, v in
                                        (f.split("=") for f in fields.split())}
    return out


def m2_scores(text: str) -> dict[str, Any]:
    """``score --format json`` of several M2 systems (a list) as ``{system: {"m2": …}}``."""
    return {row["system"]: {"m2": row} for row in json.loads(text)}


def check_exact(data: dict[str, Any], table: Path, scores: dict[str, Any]) -> None:
    """The page's per-sentence and corpus counts against ``score``'s."""
    from gecformats.report.build import corpus_counts

    rows = per_sentence(table)
    for s, system in enumerate(data["systems"]):
        for i, sentence in enumerate(data["sentences"], 1):
            hyp, k, c, p, g, edits, matched = sentence[2][s]
            fields = rows[system, i]
            annotator = sentence[1][k][0] if k >= 0 else -1
            assert (annotator, c, p, g) == (fields["annotator"], fields["correct"],
                                            fields["proposed"], fields["gold"]), (system, i)
            # the edits shown add up to the counts: p system edits, credits summing to c,
            # g gold edits of the chosen annotator, of which the credited ones
            assert len(edits) == p and sum(e[3] for e in edits) == c, (system, i)
            assert len(sentence[1][k][1]) == g and len(matched) <= c, (system, i)
        counts = scores[system]["m2"]
        assert data["totals"][s] == [counts["correct"], counts["proposed"], counts["gold"]]
    assert corpus_counts(data) == [tuple(t) for t in data["totals"]]


def check_heatmap(html: str, data: dict[str, Any], scores: dict[str, Any]) -> None:
    """Every heatmap cell's title against ``score --per-type``'s counts."""
    titles = re.findall(r'<g class="cell" data-type="([^"]*)" data-system="(\d+)">\s*'
                        r"<title>[^<]*: (\d+) of (\d+) gold edits matched", html)
    assert titles
    seen = set()
    for kind, s, matched, gold in titles:
        kind = kind.replace("&amp;", "&")
        system = data["systems"][int(s)]
        row = scores[system]["m2"]["per_type"]["types"].get(kind, {"gold": 0, "matched": 0})
        assert (int(matched), int(gold)) == (row["matched"], row["gold"]), (kind, system)
        seen.add((kind, system))
    for system in data["systems"]:
        for kind in scores[system]["m2"]["per_type"]["types"]:
            assert (kind, system) in seen


def check_overview(html: str, scores: dict[str, Any]) -> None:
    rows = systems_table(html)
    assert list(rows) == list(scores)
    for system, cells in rows.items():
        m2 = scores[system]["m2"]
        assert cells[:3] == [f"{m2[c]:.4f}" for c in ("precision", "recall", "f")]


def report_and_score(tmp_path: Path, hyps: list[Any], gold: Any
                     ) -> tuple[Path, Path, str, dict[str, Any], dict[str, Any]]:
    """The report of ``hyps`` against ``gold`` and score's numbers of the same: the page's
    path, the per-sentence TSV, the page, score's M2 scores and the page's data."""
    out, table = tmp_path / "r.html", tmp_path / "ps.tsv"
    done = gecformats("report", *hyps, "--gold", gold, "-o", out, "-q")
    assert done.returncode == 0, done.stderr
    scored = gecformats("score", *hyps, "--gold", gold, "--per-type", "--format", "json",
                        "--per-sentence", table, "-q")
    assert scored.returncode == 0, scored.stderr
    html = out.read_text(encoding="utf-8")
    return out, table, html, m2_scores(scored.stdout), page_data(html)


def test_sample_report_is_exact_and_self_contained(tmp_path: Path) -> None:
    hyps = [SAMPLE_HYP, SAMPLE_GOLD]  # an M2 file is a hypothesis too (its first annotator)
    out, table, html, scores, data = report_and_score(tmp_path, hyps, SAMPLE_GOLD)
    check_exact(data, table, scores)
    check_heatmap(html, data, scores)
    check_overview(html, scores)
    # one file: nothing fetched (no src, no external href), no template syntax left
    assert not re.search(r"\ssrc=|<link|@import|url\(", html)
    assert not re.search(r'href="(?!#)', html)
    assert "{{" not in html and "{%" not in html
    assert "<title>GEC error analysis: sample.m2</title>" in html


def test_the_sentences_and_edits_are_the_scorers(tmp_path: Path) -> None:
    from gecformats.metrics.request import ScoreRequest, build_metrics
    from gecformats.report.build import build_report

    data = build_report(ScoreRequest([str(SAMPLE_HYP)], str(SAMPLE_GOLD),
                                     build_metrics([], {}, []))).payload
    first = data["sentences"][0]
    assert first[0] == "The cat sat at mat ."
    hyp, k, c, p, g, edits, matched = first[2][0]
    # AMU-like: "A" for "The" (FP), "on" for "at" and "the" inserted (TP) against annotator 0
    assert (hyp, first[1][k][0], c, p, g) == ("A cat sat on the mat .", 0, 2, 3, 2)
    assert edits == [[0, 1, "A", 0], [3, 4, "on", 1], [4, 4, "the", 1]]
    assert matched == [0, 1]
    assert first[1][0][1][1][:3] == [4, 4, "the||a"]
    unchanged = data["sentences"][2][2][0]
    assert unchanged[0] == 0  # the source, unchanged


def test_text_that_looks_like_markup_stays_text(tmp_path: Path) -> None:
    gold = tmp_path / "g.m2"
    gold.write_text("S a </script> <b>x</b> & b\nA 0 1|||ArtOrDet|||the|||REQUIRED|||-NONE-|||0\n\n")
    hyp = tmp_path / "h.txt"
    hyp.write_text("the </script> <b>x</b> & b\n")
    out = tmp_path / "r.html"
    done = gecformats("report", hyp, "--gold", gold, "-o", out, "--title", "<i>t</i>")
    assert done.returncode == 0, done.stderr
    html = out.read_text(encoding="utf-8")
    assert html.count("</script>") == 2  # the data's and the script's own ends
    assert "<b>x</b>" not in html and "<i>t</i>" not in html
    assert page_data(html)["sentences"][0][0] == "a </script> <b>x</b> & b"


@pytest.mark.parametrize("args, message", [
    (["--gold", SAMPLE_GOLD], "Missing option '--output'"),
    (["-o", "x.html"], "Missing option '--gold'"),
    (["--gold", SAMPLE_GOLD, "-o", "x.html", "--paired-bs"], "give two or more"),
])
def test_usage_errors(args: list[Any], message: str) -> None:
    done = gecformats("report", SAMPLE_HYP, *args)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_bad_data_is_one_line_and_nothing_written(tmp_path: Path) -> None:
    short = tmp_path / "short.txt"
    short.write_text("only one line\n")
    out = tmp_path / "r.html"
    done = gecformats("report", short, "--gold", SAMPLE_GOLD, "-o", out)
    assert done.returncode == 1 and done.stderr.startswith(f"gecformats: {short}:")
    assert not out.exists()


def test_other_metrics_share_the_table(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    done = gecformats("report", SAMPLE_HYP, "--gold", SAMPLE_GOLD, "-o", out, "--metric", "gleu",
                      "--ci", "--resamples", "30", "-q")
    assert done.returncode == 0, done.stderr
    html = out.read_text(encoding="utf-8")
    assert '<th colspan="4" class="group">M2</th>' in html  # added first: the sentences' metric
    assert 'class="group">GLEU</th>' in html and "95% CI" in html


def test_score_never_imports_jinja2() -> None:
    code = ("import sys; from gecformats.cli import app; from typer.testing import CliRunner; "
            f"CliRunner().invoke(app, ['score', {str(SAMPLE_HYP)!r}, '--gold', "
            f"{str(SAMPLE_GOLD)!r}]); print('jinja2' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.stdout.strip() == "False", done.stderr


def test_templates_are_package_data() -> None:
    from importlib import resources

    folder = resources.files("gecformats.report").joinpath("templates")
    assert {p.name for p in folder.iterdir()} >= {"report.html.j2", "report.css", "report.js"}
    text = (ROOT / "pyproject.toml").read_text()
    assert '"gecformats.report"' in text and "templates/*" in text


def test_conll14_report_is_exact_and_small(tmp_path: Path) -> None:
    gold = shared_file(CONLL_GOLD)
    systems = sorted(shared_file("corpora/conll14/official_submissions").iterdir())
    assert len(systems) == 13
    out, table, html, scores, data = report_and_score(tmp_path, systems, gold)
    assert len(data["sentences"]) == 1312
    check_exact(data, table, scores)
    check_heatmap(html, data, scores)
    check_overview(html, scores)
    assert out.stat().st_size <= 10_000_000


def test_errant_categories_across_systems(tmp_path: Path) -> None:
    """With --metric errant --cat 2 the overview has ERRANT's recall per category, its
    counts those of score's categories for each system."""
    gold = FIXTURES / "m2" / "errant.m2"
    out = tmp_path / "r.html"
    done = gecformats("report", gold, gold, "--gold", gold, "-o", out, "--metric", "errant",
                      "--cat", "2", "-q")
    assert done.returncode == 0, done.stderr
    html = out.read_text(encoding="utf-8")
    assert 'id="errant-heatmap"' in html and "--cat 2" in html
    scored = gecformats("score", gold, "--gold", gold, "--metric", "errant", "--cat", "2",
                        "--format", "json")
    cats = json.loads(scored.stdout)["categories"]
    for category, counts in cats.items():
        tp, fn = counts["tp"], counts["fn"]
        assert f'data-category="{category}" data-system="0"' in html
        assert f"{category} · errant.m2: {tp} of {tp + fn} reference edits matched" in html \
            or f"{category} · {gold}: {tp} of {tp + fn} reference edits matched" in html
    plain = tmp_path / "p.html"
    assert gecformats("report", gold, "--gold", gold, "-o", plain, "-q").returncode == 0
    assert 'id="errant-heatmap"' not in plain.read_text(encoding="utf-8")


def test_text_references_as_the_gold(tmp_path: Path) -> None:
    """--source/--ref, as score takes them: the gold extracted from text references."""
    files = {}
    for name, text in (("src", "He go to school .\nShe like apple .\n"),
                       ("ref", "He goes to school .\nShe likes apples .\n"),
                       ("hyp", "He goes to school .\nShe like apples .\n")):
        files[name] = tmp_path / name
        files[name].write_text(text, encoding="utf-8")
    out = tmp_path / "r.html"
    done = gecformats("report", files["hyp"], "--source", files["src"], "--ref", files["ref"],
                      "-o", out, "-q")
    assert done.returncode == 0, done.stderr
    data = page_data(out.read_text(encoding="utf-8"))
    scored = json.loads(gecformats("score", files["hyp"], "--source", files["src"], "--ref",
                                   files["ref"], "--format", "json").stdout)
    assert data["totals"] == [[scored["correct"], scored["proposed"], scored["gold"]]] \
        == [[1, 2, 2]]  # "like apple" → "likes apples" is one gold edit
    assert "gold:extracted-lcs" in out.read_text(encoding="utf-8")


def test_the_page_explains_its_colours_counts_and_untyped_false_positives() -> None:
    """Issue 34: a colour key under each heatmap (fills from the heatmap's own colour
    function), c/p/g named where the counts are shown, and why a gold type with Outcome FP
    finds nothing (false positives carry no gold type)."""
    from gecformats.metrics.request import ScoreRequest, build_metrics
    from gecformats.report.html import _colour, render_html
    from gecformats.report.build import build_report

    gold = FIXTURES / "m2" / "errant.m2"
    html = render_html(build_report(ScoreRequest(
        [str(gold)], str(gold), build_metrics(["m2", "errant"], {"cat": 2}, ["cat"]))))
    for key, unit in (("heatmap-legend", "gold edits"), ("errant-legend", "reference edits")):
        legend = re.search(rf'<p class="legend heat-legend" id="{key}">(.*?)</p>', html, re.S)
        assert legend, key
        text = re.sub(r"<[^>]+>", "", legend.group(1)).replace("&nbsp;", " ")
        assert " ".join(text.split()) == (f"Colour: recall 0 0.5 1 · no {unit} of the type · "
                                          f"each cell: matched/all {unit} of the type")
        fills = re.findall(r'style="background: (#[0-9a-f]{6})"', legend.group(1))
        assert fills == [_colour(0), _colour(0.5), _colour(1), _colour(None)]
    assert "c/p/g</b> correct (credited) / proposed system edits / gold edits of the chosen " \
        "annotator" in html
    assert ">c/p/g ' + r[2]" in html  # each system's counts, in the script
    assert '<option value="FP">FP (not credited; no gold type)</option>' in html
    note = re.search(r'<p class="note" id="fp-note">(.*?)</p>', html, re.S)
    assert note and "False positives carry no gold type" in note.group(1)
    assert "set Gold type to any to list them" in html
