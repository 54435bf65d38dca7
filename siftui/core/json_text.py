"""JSON text that crosses siftui's edge: read with one wording of why it cannot be, and
written so that any file name survives.

Reading. Python's reader refuses more than malformed text. Valid JSON nesting thousands
deep makes its parser recurse past the interpreter's limit (a RecursionError, which is
no ValueError), and a number of more than 4,300 digits is refused by its int conversion
(a plain ValueError naming an interpreter setting). Documents' JSON forms, call logs,
session scripts, audit records, cache entries, kept drafts and the reader's address
file all reach here, so each of them is refused in one line, as bad JSON, and never
ends in a traceback.

Writing. A file name that is not UTF-8 reaches Python as text holding lone surrogates
(its undecodable bytes, one each), which no UTF-8 encoder takes: written as it is, a
record naming such a file ended the write in a UnicodeEncodeError. :func:`json_line`
writes each lone surrogate as JSON's own escape (``\\udcff``), so the text is valid
UTF-8 and a reader gets the same string back, and with it the file's name as bytes
(:func:`os.fsencode`).
"""

from __future__ import annotations

import json
from typing import Any

from siftui.core.text import LONE_SURROGATE

__all__ = ["NotJson", "json_line", "json_or_none", "json_value"]


class NotJson(ValueError):
    """A text Python's JSON reader refuses; the message says why in one line."""


def json_value(text: str | bytes, error: type[ValueError] = NotJson) -> Any:
    """The value of the JSON text ``text``, or ``error("not valid JSON: ...")``: the
    reader's own reason and position for malformed text, and a line of ours each for
    bytes that are not UTF-8, nesting too deep and a number too long to read."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as problem:
        raise error(f"not valid JSON: {problem}") from None
    except UnicodeDecodeError:  # bytes given: the reader decodes them first
        raise error("not valid JSON: not UTF-8 text") from None
    except RecursionError:
        raise error("not valid JSON: nested too deeply") from None
    except ValueError:  # the only other one: an int of more digits than Python converts
        raise error("not valid JSON: a number too long to read") from None


def json_or_none(text: str | bytes) -> Any:
    """The value of the JSON text ``text``, or None when it is not JSON Python reads (a
    reader that takes only objects or arrays needs no more: JSON's null is None too)."""
    try:
        return json_value(text)
    except NotJson:
        return None


def json_line(value: Any) -> str:
    """``value`` as one line of JSON: non-ASCII text as it is, each lone surrogate as
    its ``\\uXXXX`` escape (JSON's syntax is ASCII, so one can only be inside a string,
    where the escape means the same code point)."""
    text = json.dumps(value, ensure_ascii=False)
    return LONE_SURROGATE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)
