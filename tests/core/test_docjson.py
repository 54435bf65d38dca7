"""Doc JSON: the contract's form, round trips, and one clear message per malformed input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from siftui.core.doc import Doc, OutlineItem
from siftui.core.docjson import BadDocJson, doc_from_json, doc_to_json
from siftui.sources.load import LoadError, is_doc_json, load_doc_report
from siftui.sources.load_options import LoadOptions

DOC = Doc(
    title="  A   Thesis ",
    page_count=40,
    pages=("Text of page 1\nsecond line", "", "中文 \u00b7 ü\ttab", "\x00\x0c"),
    outline=(
        OutlineItem(1, "Intro", 1),
        OutlineItem(2, "Background", 2),
        OutlineItem(1, "Appendix", -1),
    ),
)

GOOD: dict[str, Any] = {
    "title": "T",
    "page_count": 3,
    "pages": ["one", "two"],
    "outline": [{"level": 1, "title": "Intro", "page": 1}],
}


def test_contract_shape() -> None:
    data = json.loads(doc_to_json(DOC))
    assert list(data) == ["title", "page_count", "pages", "outline"]
    assert data == {
        "title": DOC.title,
        "page_count": 40,
        "pages": list(DOC.pages),
        "outline": [
            {"level": 1, "title": "Intro", "page": 1},
            {"level": 2, "title": "Background", "page": 2},
            {"level": 1, "title": "Appendix", "page": -1},
        ],
    }


def test_round_trip() -> None:
    assert doc_from_json(doc_to_json(DOC)) == DOC
    empty = Doc(title="", page_count=0, pages=())
    assert doc_from_json(doc_to_json(empty)) == empty


def test_text_is_not_escaped() -> None:
    """CJK stays CJK in the file: a third of the size of \\uXXXX escapes."""
    assert "中文" in doc_to_json(DOC)


def test_source_key_is_written_and_ignored() -> None:
    source = {"path": "a.pdf", "size": 3, "sha256": "00", "extractor": "x"}
    text = doc_to_json(DOC, source)
    assert json.loads(text)["source"] == source
    assert doc_from_json(text) == DOC


def test_extra_keys_ignored() -> None:
    data = dict(GOOD, source={"path": "x"}, comment=[1, 2], title="T")
    data["outline"] = [dict(GOOD["outline"][0], colour="red")]
    doc = doc_from_json(json.dumps(data))
    assert doc == Doc("T", 3, ("one", "two"), (OutlineItem(1, "Intro", 1),))


def test_optional_keys() -> None:
    """title and outline may be left out; page_count and pages may not."""
    assert doc_from_json('{"page_count": 1, "pages": ["x"]}') == Doc("", 1, ("x",))


def test_lone_surrogate_survives_a_round_trip() -> None:
    doc = Doc("t", 1, ("bad \ud800 char",))
    assert doc_from_json(doc_to_json(doc)) == doc


@given(
    st.builds(
        Doc,
        title=st.text(),
        page_count=st.integers(min_value=3, max_value=10**6),
        pages=st.lists(st.text(), max_size=3).map(tuple),
        outline=st.lists(
            st.builds(OutlineItem, st.integers(-3, 9), st.text(), st.integers(-5, 10**6)),
            max_size=4,
        ).map(tuple),
    )
)
def test_round_trip_any_doc(doc: Doc) -> None:
    assert doc_from_json(doc_to_json(doc)) == doc


def _bad(data: Any) -> str:
    with pytest.raises(BadDocJson) as caught:
        doc_from_json(data if isinstance(data, str) else json.dumps(data))
    message = str(caught.value)
    assert "\n" not in message
    return message


def _with(**changes: Any) -> dict[str, Any]:
    data = dict(GOOD)
    for key, value in changes.items():
        if value is _DROP:
            del data[key]
        else:
            data[key] = value
    return data


_DROP = object()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (_with(title=5), 'key "title": expected a string'),
        (_with(title=None), 'key "title": expected a string'),
        (_with(page_count=_DROP), 'key "page_count": missing'),
        (_with(page_count="3"), 'key "page_count": expected a whole number >= 0'),
        (_with(page_count=3.0), 'key "page_count": expected a whole number >= 0'),
        (_with(page_count=True), 'key "page_count": expected a whole number >= 0'),
        (_with(page_count=-1), 'key "page_count": expected a whole number >= 0'),
        (_with(pages=_DROP), 'key "pages": missing'),
        (_with(pages="one"), 'key "pages": expected a list of strings'),
        (_with(pages=["one", 2]), 'key "pages[1]": expected a string'),
        (_with(pages=["a", "b", "c", "d"]), 'key "pages": 4 pages but "page_count" is 3'),
        (_with(outline={}), 'key "outline": expected a list'),
        (_with(outline=[[1, "x", 1]]), 'key "outline[0]": expected an object'),
        (
            _with(outline=[{"level": 1, "title": "a", "page": 1}, {"title": "b", "page": 2}]),
            'key "outline[1].level": missing',
        ),
        (_with(outline=[{"level": 1.5, "title": "a", "page": 1}]), 'key "outline[0].level"'),
        (_with(outline=[{"level": 1, "title": 7, "page": 1}]), 'key "outline[0].title"'),
        (_with(outline=[{"level": 1, "title": "a"}]), 'key "outline[0].page": missing'),
        (_with(outline=[{"level": 1, "title": "a", "page": "3"}]), 'key "outline[0].page"'),
        (_with(outline=[{"level": 1, "title": "a", "page": None}]), 'key "outline[0].page"'),
    ],
)
def test_malformed_names_the_key(data: dict[str, Any], message: str) -> None:
    assert _bad(data).startswith(message)


def test_first_wrong_key_is_named() -> None:
    """Several things wrong: the message is about the first, in the contract's key order."""
    data = {"title": 1, "page_count": "x", "pages": None}
    assert _bad(data) == 'key "title": expected a string'
    assert _bad({"pages": None, "page_count": -2}) == (
        'key "page_count": expected a whole number >= 0'
    )


@pytest.mark.parametrize("text", ["", "{", "not json", '{"a": 1,}', "{'a': 1}", "\ufeff{}"])
def test_not_json(text: str) -> None:
    assert _bad(text).startswith("not valid JSON: ")


@pytest.mark.parametrize("text", ["[]", '[{"page_count": 1}]', '"text"', "3", "null", "true"])
def test_not_an_object(text: str) -> None:
    assert _bad(text) == "not a Doc: expected a JSON object"


# --------------------------------------------------------------------------
# Files: how load_doc_report tells a Doc JSON from a document


def test_load_doc_json_file(tmp_path: Path) -> None:
    path = tmp_path / "doc.json"
    path.write_text(doc_to_json(DOC), encoding="utf-8")
    assert load_doc_report(path).doc == DOC
    assert load_doc_report(path, LoadOptions(max_pages=2)).doc == Doc(
        DOC.title, 40, DOC.pages[:2], DOC.outline
    )
    assert load_doc_report(path, LoadOptions(max_pages=99)).doc == DOC


def test_load_doc_json_with_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "doc.json"
    path.write_bytes(b"\xef\xbb\xbf" + doc_to_json(DOC).encode("utf-8"))
    assert load_doc_report(path).doc == DOC


def test_load_doc_json_after_long_white_space(tmp_path: Path) -> None:
    path = tmp_path / "doc.txt"  # not a .json name: found by its content
    path.write_text(" " * 500 + "\n" * 100 + doc_to_json(DOC), encoding="utf-8")
    assert is_doc_json(path)
    assert load_doc_report(path).doc == DOC


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"[1, 2]", "not a Doc: expected a JSON object"),
        (b'{"pages": []}', 'key "page_count": missing'),
        (b'{"page_count": 1, "pages": ["\xff"]}', "not a Doc JSON file (not UTF-8 text)"),
        (b"{not json", "not valid JSON: "),
    ],
)
def test_load_bad_doc_json(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "doc.json"
    path.write_bytes(content)
    with pytest.raises(LoadError) as caught:
        load_doc_report(path)
    assert str(caught.value).startswith(f"{path}: {message}")
    assert "\n" not in str(caught.value)
