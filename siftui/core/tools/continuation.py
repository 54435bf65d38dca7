"""How a tool's result names the call that goes on from it.

A continuation rule takes the arguments a call sent and the result it got (its
JSON object) and gives the next call's arguments, as an agent makes it, or None
when the result is the last of its kind. The evidence preview's ``n`` makes
that call; ``siftui log --report`` lists the results whose continuation was
never followed (page reads: :class:`ReadOn`; searches: :class:`WhileMore`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Continuation", "NextCursor", "Offset", "ReadOn", "WhileMore"]

Arguments = dict[str, Any]


class Continuation:
    """A rule for the call after a result."""

    def next_arguments(
        self, sent: Mapping[str, Any], result: Mapping[str, Any]
    ) -> Arguments | None:
        raise NotImplementedError


@dataclass(frozen=True)
class ReadOn(Continuation):
    """The result's ``next`` (``{page, offset}``) says where the text goes on: the next
    call reads the same document from there, with the ``kept`` keys the call sent."""

    kept: tuple[str, ...] = ()

    def next_arguments(
        self, sent: Mapping[str, Any], result: Mapping[str, Any]
    ) -> Arguments | None:
        step = result.get("next")
        if not isinstance(step, dict):
            return None
        arguments: Arguments = {"documentId": sent.get("documentId", result.get("documentId"))}
        arguments["page"] = step.get("page")
        arguments["offset"] = step.get("offset")
        arguments.update({key: sent[key] for key in self.kept if key in sent})
        return arguments


@dataclass(frozen=True)
class WhileMore(Continuation):
    """While ``hasMore`` is true, the next call is the result's ``key`` alone."""

    key: str

    def next_arguments(
        self, sent: Mapping[str, Any], result: Mapping[str, Any]
    ) -> Arguments | None:
        if result.get("hasMore") is not True:
            return None
        return {self.key: result.get(self.key)}


@dataclass(frozen=True)
class NextCursor(Continuation):
    """A ``nextCursor`` string: the next call names the result's document and it."""

    def next_arguments(
        self, sent: Mapping[str, Any], result: Mapping[str, Any]
    ) -> Arguments | None:
        cursor = result.get("nextCursor")
        if not isinstance(cursor, str):
            return None
        return {"documentId": result.get("documentId"), "cursor": cursor}


@dataclass(frozen=True)
class Offset(Continuation):
    """A ``nextOffset`` number: the next call names the result's ``key`` and that offset."""

    key: str

    def next_arguments(
        self, sent: Mapping[str, Any], result: Mapping[str, Any]
    ) -> Arguments | None:
        offset = result.get("nextOffset")
        if not isinstance(offset, int):
            return None
        return {self.key: result.get(self.key), "offset": offset}
