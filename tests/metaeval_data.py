"""A tiny SEEDA- and GJG15-shaped dataset folder, written by the tests (no real data)."""

from __future__ import annotations

from pathlib import Path

from gecformats.metaeval.datasets import GJG15_SYSTEMS, SEEDA_HUMANS, SEEDA_SYSTEMS

GOLD = """S The cat sat at mat .
A 3 4|||Prep|||on|||REQUIRED|||-NONE-|||0
A 4 4|||ArtOrDet|||the|||REQUIRED|||-NONE-|||0

S He go to school every days .
A 1 2|||SVA|||goes|||REQUIRED|||-NONE-|||0
A 5 6|||Noun|||day|||REQUIRED|||-NONE-|||0

S She like apples .
A 1 2|||SVA|||likes|||REQUIRED|||-NONE-|||0

S It is fine .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S We was late .
A 1 2|||SVA|||were|||REQUIRED|||-NONE-|||0

"""
SOURCES = ["The cat sat at mat .", "He go to school every days .", "She like apples .",
           "It is fine .", "We was late ."]
FIXED = ["The cat sat on the mat .", "He goes to school every day .", "She likes apples .",
         "It is fine .", "We were late ."]
SUBSET = [1, 2, 4]
"""0-based gold sentences of the tiny subset."""


def output(k: int) -> list[str]:
    """System k's output: the correction of the first k % 6 sentences, the source after."""
    done = k % 6
    return [FIXED[i] if i < done else SOURCES[i] for i in range(len(SOURCES))]


def write_seeda(root: Path) -> Path:
    """A SEEDA-shaped folder under ``root`` (and the gold at ``root/conll14/...``)."""
    seeda = root / "seeda"
    gold = root / "conll14" / "conll14st-test-data" / "noalt"
    gold.mkdir(parents=True)
    (gold / "official-2014.combined.m2").write_text(GOLD, encoding="utf-8")
    for folder in ("all", "subset"):
        (seeda / "outputs" / folder).mkdir(parents=True)
    for k, system in enumerate(SEEDA_SYSTEMS):
        lines = output(k)
        (seeda / "outputs" / "all" / f"{system}.txt").write_text("\n".join(lines) + "\n")
        (seeda / "outputs" / "subset" / f"{system}.txt").write_text(
            "\n".join(lines[i] for i in SUBSET) + "\n")
    (seeda / "subset_ids.txt").write_text("\n".join(map(str, SUBSET)) + "\n")
    (seeda / "scores" / "human").mkdir(parents=True)
    for h, name in enumerate(SEEDA_HUMANS):
        values = [((k % 6) * 0.1 + 0.01 * ((k + h) % 3)) for k in range(len(SEEDA_SYSTEMS))]
        (seeda / "scores" / "human" / f"{name}.txt").write_text(
            "".join(f"{v:.3f}\n" for v in values))
    (seeda / "data").mkdir()
    for name in ("edit", "sent"):
        (seeda / "data" / f"judgments_{name}.xml").write_text(JUDGMENTS)
    return seeda


JUDGMENTS = """<?xml version="1.0" encoding="UTF-8"?>
<appraise-results>
<error-correction-ranking-result source-language="err" id="tiny" target-language="cor">
  <ranking-item src-id="2" id="1" user="a">
    <translation system="T5" rank="1"/>
    <translation system="BART" rank="2"/>
    <translation system="PIE" rank="3"/>
  </ranking-item>
  <ranking-item src-id="5" id="2" user="b">
    <translation system="GPT-3.5" rank="1"/>
    <translation system="INPUT" rank="2"/>
  </ranking-item>
</error-correction-ranking-result>
</appraise-results>
"""
"""SEEDA-shaped judgments (src-id 1-based): with M2, item 1 gives in the alphabetical
order BART/PIE a metric tie (human prefers BART, the first), BART/T5 and PIE/T5
concordant pairs; item 2 (systems outside ``base``) a discordant pair."""


def write_gjg15(root: Path) -> Path:
    """A GJG15-shaped folder under ``root`` (outputs at ``root/conll14/official_submissions``)."""
    gjg = root / "gjg15"
    gjg.mkdir()
    subs = root / "conll14" / "official_submissions"
    subs.mkdir(parents=True)
    gold = root / "conll14" / "conll14st-test-data" / "noalt"
    gold.mkdir(parents=True, exist_ok=True)
    (gold / "official-2014.combined.m2").write_text(GOLD, encoding="utf-8")
    rows = ["system\tEW_score\tTS_score"]
    for k, system in enumerate(GJG15_SYSTEMS):
        (subs / system).write_text("\n".join(output(k)) + "\n")
        rows.append(f"{system}\t{0.4 + 0.02 * (k % 6) + 0.001 * k}\t{0.1 * (k % 4) - 0.1}")
    (gjg / "table3_human_rankings.tsv").write_text("\n".join(rows) + "\n")
    (gjg / "judgments.xml").write_text("<appraise-results/>\n")
    return gjg
