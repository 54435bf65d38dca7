"""The panels beside the page: its annotations, the outline, its form fields, and the
agent's calls with the exact result each received.

Every text from the file (a comment, an author, a title, a field's value) is shown
as plain text with its control characters made visible: never markup, never raw.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import DataTable, OptionList
from textual.widgets.option_list import Option

from siftui.core.reader import AnnotationRow, FieldRow, OutlineRow
from siftui.sources.log.calllog import LogEntry
from siftui.tui.display import escape_controls

COMMENT_SHOWN = 200
"""Characters of a comment the table shows (the rest is cut with an ellipsis)."""


def _cell(text: str, style: str = "") -> Text:
    return Text(escape_controls(text), style=style, no_wrap=True, overflow="ellipsis")


_Row = tuple[tuple[Text, ...], str | None]  # a row's cells and its key


def _refill(table: DataTable[Text], labels: tuple[str, ...], rows: list[_Row]) -> None:
    """The table's rows replaced by ``rows``, each column as wide as its label and its
    widest cell. The widths are set here: DataTable measures new rows when it is next
    idle, which under load came after the rows were drawn (a new annotation's id cut to
    "sift…" in a column still as wide as the row before it)."""
    widths = [
        max([len(label)] + [cells[index].cell_len for cells, _ in rows])
        for index, label in enumerate(labels)
    ]
    table.clear(columns=True)
    for label, width in zip(labels, widths, strict=True):
        table.add_column(label, width=width)
    for cells, key in rows:
        table.add_row(*cells, key=key)


class AnnotationsTable(DataTable[Text]):
    """The page's annotations: id, subtype, by whom (the agent's, or the file's own),
    author and comment. The row key is the annotation's id."""

    def __init__(self) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, id="annotations")

    LABELS = ("id", "type", "by", "author", "comment")

    def on_mount(self) -> None:
        self.add_columns(*self.LABELS)

    def show(self, rows: list[AnnotationRow]) -> None:
        chosen = self.chosen
        made: list[_Row] = []
        for row in rows:
            by = _cell("agent", "bold cyan") if row.by_agent else _cell("file", "dim")
            comment = row.comment[:COMMENT_SHOWN] + (
                "…" if len(row.comment) > COMMENT_SHOWN else ""
            )
            cells = (
                _cell(row.annotation_id),
                _cell(row.subtype),
                by,
                _cell(row.author),
                _cell(" ".join(comment.split())),
            )
            made.append((cells, row.annotation_id))
        _refill(self, self.LABELS, made)
        ids = [row.annotation_id for row in rows]
        if chosen in ids:
            self.move_cursor(row=ids.index(chosen))

    @property
    def chosen(self) -> str | None:
        """The id of the annotation the cursor is on (None: no row)."""
        if not self.row_count:
            return None
        try:
            key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key
        except Exception:  # the cursor is off the rows (a table just cleared)
            return None
        return key.value


class OutlineList(OptionList):
    """The draft's outline, indented by depth, each item the draft changed marked
    ("agent: added", "agent: renamed, moved", ...); choosing an item jumps to its page."""

    def __init__(self) -> None:
        super().__init__(id="outline", markup=False)
        self.pages: list[int | None] = []

    def show(self, rows: list[OutlineRow]) -> None:
        highlighted = self.highlighted
        self.clear_options()
        self.pages = [row.page for row in rows]
        self.add_options(
            Option(_outline_text(row), id=str(number)) for number, row in enumerate(rows)
        )
        if highlighted is not None and highlighted < len(rows):
            self.highlighted = highlighted


def _outline_text(row: OutlineRow) -> Text:
    text = Text("  " * (row.level - 1), no_wrap=True, overflow="ellipsis")
    if row.mark:
        text.append(f"[agent: {row.mark}] ", style="bold cyan")
    text.append(escape_controls(row.title))
    if row.page is not None:
        text.append(f"  · {row.page}")
    return text


class FieldsTable(DataTable[Text]):
    """The page's writable form fields: the label an agent's inspection gives each
    (F1, F2, …), name, type, the draft's value, and "agent" where the draft's value
    is not the file's (a fill waiting for a save)."""

    def __init__(self) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, id="fields")

    LABELS = ("label", "name", "type", "value", "by")

    def on_mount(self) -> None:
        self.add_columns(*self.LABELS)

    def show(self, rows: list[FieldRow]) -> None:
        made: list[_Row] = []
        for row in rows:
            by = _cell("agent", "bold cyan") if row.changed else _cell("file", "dim")
            value = _cell(row.value, "bold cyan" if row.changed else "")
            made.append(((_cell(row.label), _cell(row.name), _cell(row.kind), value, by), None))
        _refill(self, self.LABELS, made)


def call_result_text(entry: LogEntry, number: int) -> tuple[str, str]:
    """A logged call's title (its number, tool and arguments as sent) and the exact
    result the agent received (a refused call: the error's one line)."""
    title = f"call {number}: {entry.described}"
    if entry.received is None:
        return title, f"error: {entry.message}"
    return title, entry.received.content
