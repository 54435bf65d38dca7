"""The one key list: the app's bindings, and from them the footer, palette and help."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType


@dataclass(frozen=True)
class Key:
    """One key of the app: what it is bound to and how each place names it."""

    key: str  # Textual's key name(s)
    action: str
    label: str  # the footer's word
    help: str  # one line for the help and the command palette
    shown: str  # the key as a user types it
    footer: bool = True
    priority: bool = False


KEYS: tuple[Key, ...] = (
    # Help and Quit first: at 80 columns the footer cuts its tail.
    Key("question_mark", "help", "Help", "Keys and what the view shows", "?"),
    Key("q", "quit", "Quit", "Quit siftui", "q"),
    # Only in a log replay (SiftApp.check_action hides it elsewhere, footer and palette).
    Key(
        "r",
        "log_report",
        "Report",
        "Log replay: how the agent used the tool, call by call",
        "r",
    ),
    Key(
        "F",
        "follow_log",
        "Follow",
        "Log replay: keep reading the log as the server appends calls (F again: stop)",
        "F",
    ),
    Key("c", "copy", "Copy", "Copy the answer, byte for byte, to the clipboard", "c"),
    Key(
        "j", "copy_json", "JSON", "Copy the answer as JSON, as siftui render --json prints it", "j"
    ),
    Key("s", "save", "Save", "Save the answer to a file", "s"),
    Key("slash", "focus_grep", "Grep", "Search with an RE2 pattern (smart case)", "/"),
    # One key, named as the open document's kind names its field (available() picks).
    Key("p", "focus_pages", "Pages", "Ask for a page range: a-b, a or a-", "p"),
    Key("p", "focus_range", "Range", "Word: ask for a paragraph range Pa..Pb, Pa or Pa..", "p"),
    Key(
        "a",
        "focus_anchor",
        "Anchor",
        "Word: ask for the paragraphs around an anchor P<n>#<hash> (Window: how many)",
        "a",
        footer=False,
    ),
    Key(
        "W",
        "focus_window",
        "Window",
        "Word: the Window input (how many paragraphs around the anchor; Enter asks)",
        "W",
        footer=False,
    ),
    Key(
        "S",
        "focus_scope",
        "Scope",
        "Word: the Scope input (body, footnotes, endnotes, comments, headers, footers)",
        "S",
        footer=False,
    ),
    Key("m", "map", "Map", "Back to the map or the full text (clears pages and grep)", "m"),
    Key("n", "follow", "Next", "Make the call the note names, as the agent would", "n"),
    Key("w", "walk", "Walk", "Every call an agent makes to read the whole document", "w"),
    Key("o", "open", "Open", "Open another document", "o"),
    Key(
        "e",
        "evidence",
        "Evidence",
        "Preview the evidence tools (pdf_open, pdf_page_read, ...) on this PDF; e: back",
        "e",
    ),
    Key(
        "d",
        "details",
        "Details",
        "The counter in full: the document, hidden and unreachable text, every agent",
        "d",
    ),
    Key(
        "h",
        "hidden",
        "Hidden",
        "List the text no reader of the page sees (Enter asks for its page)",
        "h",
        footer=False,
    ),
    Key("b", "history_back", "Back", "Back to the previous call", "b", footer=False),
    Key("f", "history_forward", "Forward", "Forward to the next call", "f", footer=False),
    Key("left_square_bracket", "outcap_down", "Cap-", "OutCap one step down", "[", footer=False),
    Key("right_square_bracket", "outcap_up", "Cap+", "OutCap one step up", "]", footer=False),
    Key(
        "u",
        "toggle_unit",
        "Unit",
        "OutCap in code points (runes) or UTF-8 bytes (bytes bound any byte-level tokenizer)",
        "u",
        footer=False,
    ),
    Key(
        "k",
        "focus_outcap",
        "OutCap",
        "The OutCap number input: 20000, 20,000, 20k, 1.5M (Enter asks for it)",
        "k",
        footer=False,
    ),
    Key("t", "toggle_ocr", "OCR", "OCR pages without text (Tesseract) on / off", "t", footer=False),
    Key("escape", "focus_view", "To view", "Back to the view from an input", "Esc", footer=False),
)


_EVIDENCE_KEYS: tuple[Key, ...] = (
    Key("question_mark", "help", "Help", "The preview's keys", "?"),
    Key("colon", "focus_call", "Call", "Type a call: tool name, space, JSON (Tab completes)", ":"),
    Key("n", "next_call", "Next", "Make the call the result names (next, hasMore, cursor)", "n"),
    Key("b", "walk_back", "Back", "The session's previous result", "b"),
    Key("f", "walk_forward", "Forward", "The session's next result", "f"),
    Key("v", "reading", "Reading", "Exact JSON / reading layout (Enter reads a reference)", "v"),
    Key("x", "narrow", "Narrow", "Read the piece's reference narrowed to the selected text", "x"),
    Key("c", "copy", "Copy", "Copy the result, exactly the lines siftui session prints", "c"),
    Key("j", "copy_json", "MCP JSON", "Copy the whole tool result as MCP JSON", "j"),
    Key("S", "save_script", "Save", "Save the session as a script siftui session replays", "S"),
    Key("escape", "focus_view", "To view", "Back to the view from the call line", "Esc", False),
)


def evidence_keys() -> tuple[Key, ...]:
    """The evidence preview's keys (siftui/tui/evidence/screen.py): ``e`` goes back to
    the read tool its entry names, whose module is imported with the preview, not at
    the TUI's start (the entries' classes cost a start a few milliseconds)."""
    from siftui.core.tools.read import READ_PDF

    back = Key("e", "leave", READ_PDF.name, f"Back to {READ_PDF.name} (the session is kept)", "e")
    return (_EVIDENCE_KEYS[0], back, *_EVIDENCE_KEYS[1:])


READER_KEYS: tuple[Key, ...] = (
    Key("question_mark", "help", "Help", "Keys and what the reader shows", "?"),
    Key("q", "quit", "Quit", "Quit the reader (drafts are kept on disk)", "q"),
    Key("o", "open", "Open", "Open a PDF in a new tab", "o"),
    Key("pagedown,space", "page_next", "Next", "The next page", "PgDn", priority=True),
    Key("pageup", "page_previous", "Prev", "The previous page", "PgUp", False, True),
    Key("home", "page_first", "First", "The first page", "Home", False, True),
    Key("end", "page_last", "Last", "The last page", "End", False, True),
    Key("alt+left", "back", "Back", "Back to the page before the newest jump", "alt+←"),
    Key("ctrl+z", "undo", "Undo", "Undo the draft's newest change (a new revision)", "ctrl+z"),
    Key("ctrl+y", "redo", "Redo", "Redo the change undone last (a new revision)", "ctrl+y"),
    Key(
        "delete", "delete", "Delete", "Delete the annotation chosen, with its replies", "Del", False
    ),
    Key(
        "D",
        "discard",
        "Discard",
        "Discard the draft: every unsaved change (asks first)",
        "D",
        False,
    ),
    Key("right_square_bracket", "tab_next", "Tab→", "The next tab", "]", footer=False),
    Key("left_square_bracket", "tab_previous", "←Tab", "The previous tab", "[", footer=False),
    Key("w", "close_tab", "Close", "Close the tab (its draft is kept)", "w", footer=False),
    Key("a", "side('annotations')", "Notes", "The page's annotations", "a", footer=False),
    Key("l", "side('outline')", "Outline", "The outline (Enter jumps there)", "l", footer=False),
    Key("f", "side('fields')", "Fields", "The page's form fields", "f", footer=False),
    Key("c", "side('calls')", "Calls", "The agent's calls and what each received", "c"),
    Key("r", "register", "Register", "The lines that register the reader with an agent", "r"),
)
"""`siftui reader`'s keys (siftui/tui/reader/screen.py)."""

APPROVAL_KEYS: tuple[Key, ...] = (
    Key("y", "decide(True)", "Approve", "Write the draft over the file", "y"),
    Key("n,escape", "decide(False)", "Decline", "Keep the file as it is (the draft stays)", "n"),
)
"""The save dialog's only deciding keys (E19): no other key approves or declines."""


REPLAY_ONLY = frozenset({"log_report", "follow_log"})
RANGE_ACTIONS = frozenset({"focus_pages", "focus_range"})
"""`p`'s actions, one per kind's view (KindView.range_action)."""


APP_ACTIONS = frozenset(key.action for key in KEYS) - {"quit"}
"""The actions of the app's keys that act on the read tool's answer (all but quit)."""


FIELD_ACTIONS = {"focus_window": "window", "focus_scope": "scope"}
"""The keys of fields only some kinds have (Word's), and the field each focuses."""


def available(
    action: str,
    *,
    replay: bool,
    range_action: str,
    fields: frozenset[str] = frozenset(),
    preview: bool = False,
) -> bool:
    """Whether ``action``'s key acts now (a key that does not is left out of the footer and
    the palette): the report and follow keys in a log replay only, `p` named for the kind
    (``range_action``: the one its view shows), Window and Scope for a kind that has
    them (``fields``: the names of the fields its view shows). ``preview``: the evidence preview is
    shown, whose own keys are the only ones (App bindings reach every screen: `s` would
    save the read tool's answer behind it)."""
    if preview and action in APP_ACTIONS:
        return False
    if action in REPLAY_ONLY:
        return replay
    if action in FIELD_ACTIONS:
        return FIELD_ACTIONS[action] in fields
    if action in RANGE_ACTIONS:
        return action == range_action
    return True


def bindings(keys: tuple[Key, ...] = KEYS) -> list[BindingType]:
    return [
        Binding(
            key.key,
            key.action,
            key.label,
            show=key.footer,
            key_display=key.shown,
            priority=key.priority,
        )
        for key in keys
    ]


def system_commands(
    app: App[Any],
    keys: tuple[Key, ...] = KEYS,
    namespace: str = "",
    acts: Callable[[str], bool | None] | None = None,
) -> Iterator[SystemCommand]:
    """The command palette's entries, with the keys as typed: "Grep (/)", "Cap+ (])".
    ``namespace``: where the actions are ("screen." for keys bound on a screen);
    ``acts``: whether an action acts now (default: the app's check_action)."""
    check = acts if acts is not None else (lambda action: app.check_action(action, ()))
    for key in keys:
        if key.action not in ("quit", "focus_view") and check(key.action):
            yield SystemCommand(
                f"{key.label} ({key.shown})",
                key.help,
                lambda action=namespace + key.action: app.run_action(action),
            )


def help_markdown() -> str:
    """The help text; its key table is made from :data:`KEYS`."""
    rows = "\n".join(f"| `{key.shown}` | {key.help} |" for key in KEYS)
    return f"""\
# siftui

The pane shows **exactly** the string an agent receives from a bounded
"read this PDF" tool (read_docx for a Word document), for the request above it
and OutCap. `c` copies it byte for byte.

| key | does |
|---|---|
{rows}
| `ctrl+p` | Command palette (every key above is there too) |

**Page strip**: click a page (or arrows and Enter on it) to ask for it.
`×` no text, `!` a page that could not be read, `◆` text no reader of the page
sees (`h` lists it), `»` a tail no pages= call shows at this OutCap.

**Word documents** are asked by Range (`P3..P9`), Anchor (`P12#1a2b`) and
Window, Grep and Scope (body, footnotes, endnotes, comments, headers, footers).
The strip shows paragraphs (headings marked); click an anchor in the view, or
press Enter for the first one in view, to ask for the paragraphs around it.

**OutCap** is the budget in code points ("runes"), or in UTF-8 bytes (`u`, or
the button beside the entry: a bytes budget bounds the tokens of any
byte-level tokenizer, every token being at least one byte). Drag the slider,
use the arrow keys on it, or type an exact number (`20k`, `1.5M`, `20,000`).
`~tokens` is runes / 4, the contract's estimate; the token line beside it
gives real o200k_base and cl100k_base counts. On a short terminal the counter
folds into two lines; `d` shows it in full.

**Calls**: an answer you ask for is a call an agent makes: Enter in a field,
`n`, `m`, `b`/`f`, the strip, the walk, a step or a release of the slider, the
unit. What you type or drag on the way is not. The calls line adds them up; in
a log replay it counts the log's calls.

Arrows, Page Up / Page Down and the mouse wheel scroll this help; Escape closes it.
"""


def reader_help_markdown() -> str:
    """The reader's help text; its key table is made from :data:`READER_KEYS`."""
    rows = "\n".join(f"| `{key.shown}` | {key.help} |" for key in READER_KEYS)
    return f"""\
# siftui reader

A PDF reader that an agent works in too: every change the agent makes (through the
edit tools) is in the **draft** you see, never in the file, until you approve a save.

| key | does |
|---|---|
{rows}
| `ctrl+p` | Command palette (every key above is there too) |

**The page** is the draft's page, annotations drawn. Beside it: the page's
annotations (`agent` marks the ones the agent made; the others are the file's own),
the outline, the page's form fields, and the agent's calls, each with the exact result
it received.

**The line under the page** says the revision (each change, yours or the agent's, is
one) and whether the draft holds unsaved changes.

**A save** only happens when you approve it: the dialog shows the file and the draft's
changes against it. `y` approves, `n` or Escape declines; no other key decides.

Arrows, Page Up / Page Down and the mouse wheel scroll this help; Escape closes it.
"""


def evidence_help_markdown() -> str:
    """The evidence preview's help text; its key table is made from :func:`evidence_keys`."""
    rows = "\n".join(f"| `{key.shown}` | {key.help} |" for key in evidence_keys())
    return f"""\
# siftui: the evidence tools

A session of the evidence tools (pdf_open, pdf_page_read, pdf_keyword_search, ...)
on the PDF open, rooted at its folder: each result is **exactly** the text the
server sends (`siftui session` prints the same lines).

| key | does |
|---|---|
{rows}
| `q` | Quit siftui |
| `ctrl+p` | Command palette (every key above is there too) |

**The call line** (`:`) takes a tool's name, a space and its JSON arguments; Tab
completes tool names and argument keys. A refused call shows its one line under
it, and the result shown stays.

Arrows, Page Up / Page Down and the mouse wheel scroll this help; Escape closes it.
"""
