"""The edit family's entries: E12-E20 of EDITING.md, one :class:`ToolEntry` each.

They are served only by a host (siftui reader, or `siftui session --tools
evidence,edit` as a host with no reader): siftui.serve.edit binds their handlers
to the host's shared working copies and the reader attached. Values whose rules
the tools word themselves (a color, a target, a region, a comment's length) are
checked by the tools, with EDITING.md's messages; the schemas hold the keys and
their JSON types.
"""

from __future__ import annotations

from siftui.core.tools.continuation import NextCursor
from siftui.core.tools.entry import Family, Logged, ToolEntry
from siftui.core.tools.schema import array_of, boolean, integer, object_of, string

__all__ = [
    "ANNOTATION_CREATE",
    "ANNOTATION_DELETE",
    "ANNOTATION_LIST",
    "ANNOTATION_UPDATE",
    "BOOKMARK_EDIT",
    "EDIT_TOOLS",
    "FAMILY",
    "FORM_FILL",
    "FORM_INSPECT",
    "PAGE_JUMP",
    "SAVE",
]

FAMILY = Family(
    "edit",
    "siftui also serves the edit tools of a person's siftui reader, on one shared draft: "
    "pdf_annotation_list, then pdf_annotation_create (a highlight of a refId's exact text, "
    "or a note on a page region), _update and _delete, each with the expectedRevision the "
    "last answer gave; pdf_bookmark_edit adds, renames, moves and deletes bookmarks; "
    "pdf_form_inspect shows a page's form fields labelled F1, F2, … and "
    "pdf_form_fill fills them by label; pdf_save asks the person to approve writing the "
    "draft over the file; pdf_page_jump shows a page in the reader.",
    unknown_tool='unknown tool "{name}"',
)

_BOUND = " Every result is at most {out_cap:,} {unit} of JSON (the server's limit)."
_WRITE = (
    " Give expectedRevision, the revision the last answer gave: another one is refused "
    "and nothing changes."
)
_EDITED = Logged(session=True, refusals=True)
_DOCUMENT = string()
_REVISION = integer()

ANNOTATION_LIST = ToolEntry(
    name="pdf_annotation_list",
    family=FAMILY.name,
    title="List annotations",
    description="The draft's annotations (of one page, or all in page order): id, page, "
    "subtype, rectPdf, color, comment, author, inReplyTo and whether the edit tools take "
    "it, at most limit at a time (default 100); continue with {{documentId, cursor}}." + _BOUND,
    input_schema=object_of(
        {
            "documentId": _DOCUMENT,
            "page": integer(),
            "limit": integer(1, 500),
            "cursor": string(),
        },
        "documentId",
    ),
    stale_checked=True,
    continuation=NextCursor(),
    logged=Logged(session=True),
)
ANNOTATION_CREATE = ToolEntry(
    name="pdf_annotation_create",
    family=FAMILY.name,
    title="Annotate",
    description="Make a Highlight, Underline, StrikeOut or Squiggly over exactly the text "
    'of a refId (target {{"kind": "reference", "refId"}}: one annotation per page, quads '
    'from the page\'s own glyphs), or a Text note on a region (target {{"kind": '
    '"pdf-region", "page", "rectPdf": [l, b, r, t]}} in PDF points); color "#rrggbb" '
    "(default #ffff00), comment up to 2000 units. An identical annotation is reused; an "
    "overlapping one of the same subtype is refused." + _WRITE + _BOUND,
    input_schema=object_of(
        {
            "documentId": _DOCUMENT,
            "expectedRevision": _REVISION,
            "subtype": string(),
            "target": {"type": "object", "additionalProperties": True},
            "color": string(),
            "comment": string(),
        },
        "documentId",
        "expectedRevision",
        "subtype",
        "target",
    ),
    read_only=False,
    idempotent=False,
    stale_checked=True,
    logged=_EDITED,
)
ANNOTATION_UPDATE = ToolEntry(
    name="pdf_annotation_update",
    family=FAMILY.name,
    title="Change an annotation",
    description="Change an annotation's color or comment in place (its id, author, rect "
    "and replies stay)." + _WRITE + _BOUND,
    input_schema=object_of(
        {
            "documentId": _DOCUMENT,
            "expectedRevision": _REVISION,
            "annotationId": string(),
            "color": string(),
            "comment": string(),
        },
        "documentId",
        "expectedRevision",
        "annotationId",
    ),
    read_only=False,
    idempotent=False,
    stale_checked=True,
    logged=_EDITED,
)
ANNOTATION_DELETE = ToolEntry(
    name="pdf_annotation_delete",
    family=FAMILY.name,
    title="Delete an annotation",
    description="Delete an annotation and its replies, in one step." + _WRITE + _BOUND,
    input_schema=object_of(
        {"documentId": _DOCUMENT, "expectedRevision": _REVISION, "annotationId": string()},
        "documentId",
        "expectedRevision",
        "annotationId",
    ),
    read_only=False,
    idempotent=False,
    stale_checked=True,
    logged=_EDITED,
)
BOOKMARK_EDIT = ToolEntry(
    name="pdf_bookmark_edit",
    family=FAMILY.name,
    title="Edit bookmarks",
    description="Apply 1-100 operations to the outline in order, all or none: "
    '{{"op": "outline-add", "title", "page", "parentId"?, "index"?}}, {{"op": '
    '"outline-update", "outlineId", "title"?, "page"?}} (a new title keeps the '
    'destination and style), {{"op": "outline-delete", "outlineId"}} (with its subtree), '
    '{{"op": "outline-move", "outlineId", "parentId"?, "index"}}; ids are '
    "pdf_bookmark_list's outlineIds, added items get new ones; index is 0-based among "
    "the siblings." + _WRITE + _BOUND,
    input_schema=object_of(
        {
            "documentId": _DOCUMENT,
            "expectedRevision": _REVISION,
            "operations": {
                "type": "array",
                "items": object_of(
                    {
                        "op": string(),
                        "outlineId": string(),
                        "title": string(1, 500),
                        "page": integer(),
                        "parentId": string(),
                        "index": integer(),
                    },
                    "op",
                ),
                "minItems": 1,
                "maxItems": 100,
            },
        },
        "documentId",
        "expectedRevision",
        "operations",
    ),
    read_only=False,
    idempotent=False,
    stale_checked=True,
    logged=_EDITED,
)
FORM_INSPECT = ToolEntry(
    name="pdf_form_inspect",
    family=FAMILY.name,
    title="Inspect a page's form",
    description="A page's form fields as one snapshot: first an image of the page (96 dpi, "
    "drawn without field appearances, values or annotations) with a label F1, F2, … inside "
    "each writable field's box, then the JSON list of those fields in the same order "
    "(name, type, valueType, options, optionLabels, required, maxLength; their values with "
    "includeValues). Fill them by label with pdf_form_fill and the inspectionId." + _BOUND,
    input_schema=object_of(
        {"documentId": _DOCUMENT, "page": integer(), "includeValues": boolean()},
        "documentId",
        "page",
    ),
    stale_checked=True,
    logged=Logged(session=True),
)
FORM_FILL = ToolEntry(
    name="pdf_form_fill",
    family=FAMILY.name,
    title="Fill a form",
    description="Fill fields of an inspected page by their labels, all or nothing: a string "
    "for text, radio and combobox (radio and a fixed combobox: one of its options), true or "
    'false for a checkbox, a list of options for a listbox; clear with "", false or []. A '
    "field shown by several labels is given once. The values are read back from the draft. "
    "An inspection goes out of date when its page or one of its fields changes: inspect "
    "again." + _WRITE + _BOUND,
    input_schema=object_of(
        {
            "inspectionId": string(),
            "expectedRevision": _REVISION,
            "fields": array_of({"type": "object", "additionalProperties": True}, 1, 200),
        },
        "inspectionId",
        "expectedRevision",
        "fields",
    ),
    read_only=False,
    idempotent=False,
    stale_checked=True,
    logged=_EDITED,
)
SAVE = ToolEntry(
    name="pdf_save",
    family=FAMILY.name,
    title="Ask to save",
    description="Ask the person in siftui reader to approve writing the draft over the "
    "file; the call waits for their decision (progress notifications meanwhile). Only "
    "the person approves; the draft is kept whatever they decide." + _WRITE + _BOUND,
    input_schema=object_of(
        {"documentId": _DOCUMENT, "expectedRevision": _REVISION},
        "documentId",
        "expectedRevision",
    ),
    read_only=False,
    idempotent=False,
    stale_checked=True,
    logged=_EDITED,
)
PAGE_JUMP = ToolEntry(
    name="pdf_page_jump",
    family=FAMILY.name,
    title="Show a page in the reader",
    description="Show a page of an open document, or the first page of a refId's text, in "
    "the siftui reader tab that shows it (give tabId when several do; pdf_current lists "
    "the tabs). Each jump is one step of the tab's back history; a jump never opens a tab."
    + _BOUND,
    input_schema=object_of(
        {"documentId": _DOCUMENT, "page": integer(), "refId": string(), "tabId": string()},
        "documentId",
    ),
    read_only=False,
    idempotent=False,
    stale_checked=True,
    logged=Logged(session=True),
)

EDIT_TOOLS: tuple[ToolEntry, ...] = (
    ANNOTATION_LIST,
    ANNOTATION_CREATE,
    ANNOTATION_UPDATE,
    ANNOTATION_DELETE,
    BOOKMARK_EDIT,
    FORM_INSPECT,
    FORM_FILL,
    SAVE,
    PAGE_JUMP,
)
"""E12-E20, in EDITING.md's order."""
