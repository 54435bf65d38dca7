"""DocIndex: the page blocks made when asked for are the blocks, and their sizes known before."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from siftui.core.doc import Doc
from siftui.core.docindex import SEPARATOR, index_of, page_block

PAGE_TEXT = st.text(alphabet=st.sampled_from("ab \n\t\u00e9\u6f22\U0001f600\u3000"), max_size=12)


@given(st.lists(PAGE_TEXT, max_size=8))
def test_blocks_sizes_and_ends_agree_with_the_blocks(pages: list[str]) -> None:
    doc = Doc("t", len(pages), tuple(pages))
    index = index_of(doc)
    expected = tuple(page_block(n, text) for n, text in enumerate(pages, 1))
    assert index.block_sizes == tuple(map(len, expected))
    assert index.text_sizes == tuple(len(text.strip()) for text in pages)
    assert len(index.blocks) == len(expected) == index.extracted
    for start in range(-len(pages) - 1, len(pages) + 2):
        assert index.blocks[start:] == expected[start:]
        assert index.blocks[:start:2] == expected[:start:2]
    assert tuple(index.blocks) == expected
    assert [index.blocks[-n] for n in range(1, len(pages) + 1)] == list(reversed(expected))
    assert index.full() == SEPARATOR.join(expected)
    with pytest.raises(IndexError):
        index.blocks[len(pages)]
    with pytest.raises(IndexError):
        index.blocks[-len(pages) - 1]
