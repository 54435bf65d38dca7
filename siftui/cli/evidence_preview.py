"""The TUI's evidence preview, answered by the server's own code.

The TUI may not import siftui.serve; the CLI may start it inside a command. So
``siftui FILE`` hands the app :func:`preview_factory`: each preview is a fresh
``ToolHost`` session of the evidence family rooted at the file's folder, the
same host ``siftui session`` and ``siftui mcp --tools evidence`` answer with
(with the same store limits: no hidden-text inspection, which only
``--warn-hidden`` uses), and each result comes back as the lines ``siftui
session`` prints and the MCP result the server sends. The document the app has
open is the one the session's store answers with for its file while the file
holds the same bytes: a worker would read the same document from them again
(0.4-0.5 s on a long PDF with a warm cache, in a process competing with the
app's for the cores).
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from siftui.core.render import DEFAULT_OUT_CAP

if TYPE_CHECKING:
    from siftui.serve.docstore import DocStore
    from siftui.serve.host import ToolHost
    from siftui.serve.tool_api import ToolAnswer
    from siftui.sources.log.rerun import Received, Setting
    from siftui.tui.evidence.model import OpenDocument, Result


def mcp_json(answer: ToolAnswer) -> str:
    """The whole tool result as the server sends it (``result`` of tools/call), shaped
    by the SDK's sieve for the protocol a stdio client negotiates: the SDK's model adds
    ``"resultType": "complete"``, which that wire does not carry."""
    from mcp_types.methods import serialize_server_result
    from mcp_types.version import LATEST_HANDSHAKE_VERSION

    from siftui.serve.mcp_server import to_result

    dumped = to_result(answer).model_dump(by_alias=True, exclude_none=True, mode="json")
    value = serialize_server_result("tools/call", LATEST_HANDSHAKE_VERSION, dumped)
    return json.dumps(value, ensure_ascii=False, indent=2)


def result_of(answer: ToolAnswer) -> Result:
    from siftui.serve.evidence.script import answer_lines
    from siftui.serve.tool_api import ImageBlock, TextBlock
    from siftui.tui.evidence.model import Result

    texts = (
        (answer.message,)
        if answer.is_error
        else tuple(block.text for block in answer.blocks if isinstance(block, TextBlock))
    )
    png = next((b.data for b in answer.blocks if isinstance(b, ImageBlock)), b"")
    size = None
    if len(png) >= 24:
        size = (int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big"))
    return Result(
        lines=tuple(answer_lines(answer)),
        texts=texts,
        mcp=partial(mcp_json, answer),  # the MCP modules: imported at the first `j`
        message=answer.message,
        image=size,
        png=png,
    )


def preview_store(document: OpenDocument | None) -> DocStore:
    """The store of ``siftui session`` without options (the same limits, no hidden-text
    inspection), answering with ``document`` for its file while the file is unchanged."""
    from siftui.serve.docstore import DocStore
    from siftui.serve.limits import StoreLimits
    from siftui.serve.loading import (
        ServedDoc,
        load_known,
        load_range_in_worker,
    )

    limits = StoreLimits(inspect_hidden=False)
    if document is None:
        return DocStore(limits)
    known = ServedDoc(document.doc, document.sha256, document.unreadable)
    loader = load_known(document.path, known)
    return DocStore(limits, loader=loader, range_loader=load_range_in_worker)


class HostPreview:
    """One fresh evidence session on one folder (``document``: the app's open one)."""

    def __init__(
        self,
        root: Path,
        out_cap: int = DEFAULT_OUT_CAP,
        document: OpenDocument | None = None,
    ) -> None:
        from siftui.serve.access import Roots
        from siftui.serve.host import ToolHost
        from siftui.serve.tool_api import ServedOptions

        self.host: ToolHost = ToolHost(
            Roots([str(root)]),
            ServedOptions(out_cap=out_cap),
            store=preview_store(document),
            families={"evidence"},
        )

    def call(self, tool: str, arguments: Any) -> Result:
        return result_of(self.host.call(arguments, tool))

    def close(self) -> None:
        self.host.store.shutdown()


def preview_factory(root: Path, document: OpenDocument | None = None) -> HostPreview:
    """The app's :data:`~siftui.tui.evidence.model.PreviewFactory`."""
    return HostPreview(root, document=document)


class HostRerun:
    """A fresh evidence session as a logged one was served, to re-run its calls."""

    def __init__(self, setting: Setting) -> None:
        from siftui.serve.access import Roots
        from siftui.serve.host import ToolHost
        from siftui.serve.tool_api import ServedOptions

        self.host: ToolHost = ToolHost(
            Roots([str(root) for root in setting.roots]),
            ServedOptions(
                out_cap=setting.out_cap, unit=setting.unit, warn_hidden=setting.warn_hidden
            ),
            families={"evidence"},
        )

    def call(self, tool: str, arguments: Any) -> Received:
        from siftui.sources.log.rerun import Received  # the log's modules: a replay's only

        answer = self.host.call(arguments, tool)
        if answer.result is None:
            return Received(message=answer.message)
        return Received(answer.result.text, answer.result.image)

    def close(self) -> None:
        self.host.store.shutdown()


def rerun_factory(setting: Setting) -> HostRerun:
    """The :data:`~siftui.sources.log.rerun.RerunFactory` of ``siftui log``."""
    return HostRerun(setting)
