"""The reading layout of an evidence result, as plain rows (no Textual).

Each tool's entry names its layout (siftui.core.tools.entry.ResultLayout): page
pieces under page markers with their ranges, search hits with their context
and the hit marked, outline items as an indented tree, a page image's size,
OCR marked as derived text; anything else as indented JSON. A row may carry
the reference it shows, which Enter reads with the evidence read tool.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from siftui.core.tools.entry import ResultLayout
from siftui.core.tools.evidence import OCR
from siftui.core.tools.table import entry_of
from siftui.tui.evidence.model import Result


@dataclass(frozen=True)
class Row:
    text: str
    role: str = "text"  # text, marker, hit, derived, tree, note
    ref: str | None = None
    mark: tuple[int, int] | None = None  # the hit's span in ``text``
    document: str | None = None


def _flat(text: str) -> str:
    return text.replace("\r", "").replace("\n", "⏎")


def _pieces(pages: list[Any], ref: str | None, document: str | None) -> list[Row]:
    rows: list[Row] = []
    for piece in pages:
        if not isinstance(piece, dict):
            continue
        piece_ref = piece.get("refId", ref)
        marker = f"--- page {piece.get('page')} [{piece.get('start')}-{piece.get('end')}]"
        rows.append(
            Row(
                f"{marker} {piece_ref or ''} ---".replace("  ", " "),
                "marker",
                piece_ref,
                None,
                document,
            )
        )
        rows.extend(
            Row(line, "text", piece_ref, None, document)
            for line in str(piece.get("text", "")).split("\n")
        )
    return rows


def _piece_rows(value: dict[str, Any], result: Result, document: str | None) -> list[Row] | None:
    if not isinstance(value.get("pages"), list):
        return None
    rows = _pieces(value["pages"], value.get("refId"), document)
    if isinstance(step := value.get("next"), dict):
        rows.append(
            Row(f"(continues at page {step.get('page')} offset {step.get('offset')}: n)", "note")
        )
    return rows


def _hit_rows(value: dict[str, Any], result: Result, document: str | None) -> list[Row] | None:
    if not isinstance(value.get("hits"), list):
        return None
    rows = [
        Row(
            f"{value.get('total')} hits for {value.get('query')!r} ({value.get('match')})",
            "note",
        )
    ]
    for hit in value["hits"]:
        before, text, after = (_flat(str(hit.get(k, ""))) for k in ("before", "text", "after"))
        head = f"p.{hit.get('page')} [{hit.get('start')}-{hit.get('end')}] {hit.get('refId')}: "
        start = len(head) + len(before)
        rows.append(
            Row(
                head + before + text + after,
                "hit",
                hit.get("refId"),
                (start, start + len(text)),
                document,
            )
        )
    if value.get("hasMore"):
        rows.append(Row("(more hits: n)", "note"))
    return rows


def _outline_rows(value: dict[str, Any], result: Result, document: str | None) -> list[Row] | None:
    if not isinstance(value.get("items"), list):
        return None
    rows = [Row(f"{value.get('total')} outline items", "note")]
    for item in value["items"]:
        level = item.get("level", 1) if isinstance(item.get("level"), int) else 1
        rows.append(Row(f"{'  ' * (level - 1)}{item.get('title')}  (p.{item.get('page')})", "tree"))
    if value.get("nextCursor"):
        rows.append(Row(f"(more items: n, cursor {value['nextCursor']})", "note"))
    return rows


def _image_rows(value: dict[str, Any], result: Result, document: str | None) -> list[Row] | None:
    if result.image is None:
        return None
    width, height = result.image
    return [
        Row(
            f"page image of page {value.get('page')}: "
            f"{width}x{height} px at {value.get('dpi')} dpi",
            "note",
        ),
        Row(f"imageHandle {value.get('imageHandle')} ({OCR.name} reads it)", "note"),
    ]


def _derived_rows(value: dict[str, Any], result: Result, document: str | None) -> list[Row] | None:
    if "text" not in value:
        return None
    ref = value.get("refId")
    rows = [
        Row(
            f"DERIVED TEXT: OCR ({value.get('engine')}) of {value.get('imageHandle')}, "
            f"page {value.get('page')}, not the PDF's text; {ref}",
            "derived",
            ref,
            None,
            document,
        )
    ]
    rows.extend(
        Row(line, "derived", ref, None, document) for line in str(value["text"]).split("\n")
    )
    if isinstance(value.get("nextOffset"), int):
        rows.append(Row(f"(continues at offset {value['nextOffset']}: n)", "note"))
    return rows


Drawing = Callable[[dict[str, Any], Result, str | None], list[Row] | None]

_DRAWN: dict[ResultLayout, Drawing] = {
    ResultLayout.PIECES: _piece_rows,
    ResultLayout.HITS: _hit_rows,
    ResultLayout.OUTLINE: _outline_rows,
    ResultLayout.IMAGE: _image_rows,
    ResultLayout.DERIVED: _derived_rows,
}
"""How each layout kind is drawn; None: the result is not of its shape (drawn as JSON)."""


def reading_rows(tool: str, result: Result, document: str | None = None) -> list[Row]:
    """The rows of ``result`` in its tool's layout (``document``: the document the call
    was about, for a result that does not name it: a search's hits are read on it)."""
    value = result.value()
    if not isinstance(value, dict):
        return [Row(line) for line in result.lines]
    document = value.get("documentId") or document
    entry = entry_of(tool)
    drawing = _DRAWN.get(entry.layout) if entry is not None else None
    rows = drawing(value, result, document) if drawing is not None else None
    if rows is not None:
        return rows
    return [Row(line) for line in json.dumps(value, ensure_ascii=False, indent=2).split("\n")]
