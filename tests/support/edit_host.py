"""What the edit family's host tests share: a reader that approves every save at once,
and one call's JSON result (or its error line) on a host driven in process."""

from __future__ import annotations

import json
from concurrent.futures import Future
from typing import Any

from siftui.serve.host import ToolHost
from siftui.serve.tool_api import Session, TextBlock


class ApprovingReader:
    """A reader with no tabs that approves every save at once."""

    def tabs(self) -> list[Any]:
        return []

    def jump(self, tab_id: str, page: int, marks: tuple[Any, ...] = ()) -> int:
        raise LookupError(tab_id)

    def ask_save(self, path: str, revision: int, timeout: float) -> Future[bool]:
        decision: Future[bool] = Future()
        decision.set_result(True)
        return decision

    def save_ended(self, path: str, outcome: str, saved: bool) -> None:
        pass  # told nobody: no person reads this reader


def call(
    host: ToolHost, tool: str, arguments: dict[str, Any], session: Session | None = None
) -> Any:
    """The result's JSON, or the error line."""
    got = host.call(arguments, tool, session)
    if got.is_error:
        return f"error: {got.message}"
    block = got.blocks[-1]
    assert isinstance(block, TextBlock)
    return json.loads(block.text)
