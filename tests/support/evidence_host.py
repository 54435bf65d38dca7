"""One session of the evidence tools on a tool host, driven in process as one MCP
connection drives it (the host the server and `siftui session` share)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from siftui.serve.access import Roots
from siftui.serve.docstore import DocStore
from siftui.serve.evidence.connection import EvidenceConnection
from siftui.serve.evidence.files import Files
from siftui.serve.host import ToolHost
from siftui.serve.tool_api import ServedOptions, Session, TextBlock, ToolAnswer


class Driver:
    """One session of the evidence tools on a host, as one MCP connection is."""

    def __init__(self, host: ToolHost) -> None:
        self.host = host
        self.session = Session()

    def call(self, tool: str, arguments: Any) -> ToolAnswer:
        return self.host.call(arguments, tool, self.session)


def connect(folder: Path, store: DocStore, **kwargs: Any) -> Driver:
    host = ToolHost(
        Roots([folder]), ServedOptions(out_cap=100_000), store=store, families={"evidence"}
    )
    driver = Driver(host)
    if kwargs:
        driver.session.state["evidence"] = EvidenceConnection(
            Files(host.settings.roots, store), 100_000, **kwargs
        )
    return driver


def said(answer: ToolAnswer) -> str:
    """The one line of an error, or the JSON text of a result."""
    if answer.is_error:
        return answer.message
    last = answer.blocks[-1]
    assert isinstance(last, TextBlock)
    return last.text


def text_of(connection: Driver, tool: str, arguments: object) -> str:
    answer = connection.call(tool, arguments)
    assert not answer.is_error, answer.message
    return said(answer)
