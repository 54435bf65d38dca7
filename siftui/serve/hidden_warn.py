"""`siftui mcp --warn-hidden`: the one line that tells an agent its answer holds hidden text.

Pure. Only the pages the answer shows count: a page range or a map, pages
first..last; a grep answer, the pages of the matching lines it shows (``p. N: ``),
not those of context lines or of hits left out. Only alarms count (every kind
but ``ocr_layer``, a scan's text layer, which is what the page shows).
"""

from __future__ import annotations

import re

from siftui.core.findings import Inspection, in_pages, warning_line
from siftui.core.render import Rendered

STILL_INSPECTING = (
    "warning: this file is still being inspected for hidden text; "
    "answers after the inspection say whether they contain text that is invisible on the page"
)
"""The --warn-hidden line of an answer given while the file's inspection still runs."""

_HIT = re.compile(r"^p\. ([0-9]+): ", re.MULTILINE | re.ASCII)


def shown_pages(rendered: Rendered, grep: bool) -> frozenset[int]:
    """The pages whose text the answer shows (for a grep answer: whose hits it shows)."""
    if grep:
        return frozenset(int(number) for number in _HIT.findall(rendered.content))
    if rendered.first < 1:
        return frozenset()
    return frozenset(range(rendered.first, rendered.last + 1))


def hidden_warning(rendered: Rendered, grep: bool, inspection: Inspection | None) -> str:
    """The --warn-hidden line for this answer, or "" when it shows no hidden text."""
    if inspection is None or not inspection.findings:
        return ""
    pages = shown_pages(rendered, grep)
    if not pages:
        return ""
    low, high = min(pages), max(pages)
    findings = [f for f in in_pages(inspection.findings, low, high) if f.page in pages]
    return warning_line(findings)
