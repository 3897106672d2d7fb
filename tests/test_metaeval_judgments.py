"""The Appraise ranking-XML reader (gecformats.metaeval.judgments): the hand-written fixture,
errors naming file and line, and the shapes of SEEDA, GJG15 and Napoles et al. 2015."""

from __future__ import annotations

import gzip
import io
from collections import Counter

import pytest

from conftest import FIXTURES, shared_file
from gecformats.errors import GecFormatError
from gecformats.metaeval.judgments import RankingItem, read_judgments, subset_index

FIXTURE = FIXTURES / "metaeval" / "judgments.xml"


def test_fixture_items_expand_collapsed_systems() -> None:
    items = list(read_judgments(FIXTURE))
    assert items[0] == RankingItem(2, (("A", 1), ("B", 1), ("C", 2), ("D", 3)), "ann1", 0, 5)
    assert items[2] == RankingItem(2, (("B", 2), ("C", 1), ("D", 1)), "ann2", 2, 15)
    assert items[3].ranks == () and items[3].item == 3 and items[3].line == 19


def test_sources_path_bytes_stream_and_gzip(tmp_path) -> None:
    data = FIXTURE.read_bytes()
    packed = tmp_path / "j.xml.gz"
    packed.write_bytes(gzip.compress(data))
    expected = list(read_judgments(FIXTURE))
    assert list(read_judgments(data)) == expected
    assert list(read_judgments(io.BytesIO(data))) == expected
    assert list(read_judgments(str(packed))) == expected


def test_systems_split() -> None:
    data = b'<r><ranking-item src-id="0"><translation system="A|B C" rank="1"/></ranking-item></r>'
    assert next(read_judgments(data, systems_split="|")).ranks == (("A", 1), ("B C", 1))
    assert next(read_judgments(data)).ranks == (("A|B", 1), ("C", 1))


def test_id_stands_in_for_a_missing_src_id() -> None:
    data = (b'<r><ranking-item id="62" user="annot2"><translation system="A" rank="4"/>'
            b'</ranking-item></r>')
    assert next(read_judgments(data)).src_id == 62


@pytest.mark.parametrize("data, message", [
    (b"", "not well-formed"),
    (b"<a/>", "no <ranking-item>"),
    (b"<a>\n<ranking-item src-id='x'/></a>", ":2: src-id='x' is not an integer"),
    (b"<a><ranking-item/></a>", "no src-id or id attribute"),
    (b"<a><ranking-item src-id='1'>\n<translation rank='0' system='A'/></ranking-item></a>",
     ":2: rank='0' is not an integer >= 1"),
    (b"<a><ranking-item src-id='1'><translation rank='1.5' system='A'/></ranking-item></a>",
     "rank='1.5'"),
    (b"<a><ranking-item src-id='1'><translation rank='1'/></ranking-item></a>", "without a system"),
    (b"<a><ranking-item src-id='1'><translation rank='1' system=' '/></ranking-item></a>",
     "empty system name"),
    (b"<a><ranking-item src-id='1'><translation rank='1' system='A'/>"
     b"<translation rank='2' system='B A'/></ranking-item></a>", "'A' is ranked twice"),
    (b'<!DOCTYPE a [<!ENTITY x "y">]><a><ranking-item src-id="1"/></a>', "refusing a DOCTYPE"),
])
def test_errors_are_one_line_with_file_and_line(data: bytes, message: str) -> None:
    with pytest.raises(GecFormatError) as caught:
        list(read_judgments(data))
    text = str(caught.value)
    assert text.startswith("<string>") and message in text and "\n" not in text


def test_subset_index() -> None:
    index = subset_index([11, 5, 40], name="j.xml")
    assert [index(12), index(6), index(41)] == [0, 1, 2]
    assert subset_index([11, 5], one_based=False)(5) == 1
    with pytest.raises(GecFormatError, match="j.xml: src-id 1 is not a sentence of the subset"):
        index(1)


@pytest.mark.parametrize("kind", ["edit", "sent"])
def test_seeda_shape(kind: str) -> None:
    items = list(read_judgments(shared_file(f"corpora/seeda/data/judgments_{kind}.xml")))
    ids = [int(x) for x in shared_file("corpora/seeda/subset_ids.txt").read_text().split()]
    assert len(items) == 600 and Counter(i.judge for i in items) == {
        "annotator1": 200, "annotator2": 200, "annotator3": 200}
    assert {i.src_id - 1 for i in items} == set(ids)  # 1-based
    index = subset_index(ids)
    assert all(0 <= index(i.src_id) < 391 for i in items)
    assert sum(len(i.ranks) for i in items) > 2808  # collapsed groups expanded
    assert all(len(i.ranks) >= 1 for i in items)


def test_gjg15_shape() -> None:
    items = list(read_judgments(shared_file("corpora/gjg15/judgments.xml")))
    assert len(items) == 2319
    assert sum(1 for i in items if not i.ranks) == 13
    assert len({i.src_id for i in items}) == 663 and max(i.src_id for i in items) == 1311
    assert {s for i in items for s, _ in i.ranks} == set(
        "AMU CAMB CUUI IITB IPN NTHU PKU POST RAC SJTU UFC UMC INPUT".split())


def test_napoles2015_shape() -> None:
    items = list(read_judgments(shared_file("corpora/gec-ranking/all_judgments.xml")))
    assert len(items) == 1534 and items[0].src_id == 62 and items[0].judge == "annot2"
    assert sum(1 for i in items if not i.ranks) == 78
