"""How an answer leaves siftui: UTF-8 bytes, JSON, files that are never clobbered."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from siftui.render import Rendered


def encode_utf8(text: str) -> bytes:
    """UTF-8 bytes of ``text``; a lone surrogate (not encodable) becomes U+FFFD."""
    return text.encode("utf-8", "replace") if _has_surrogate(text) else text.encode("utf-8")


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def rendered_json(answer: Rendered) -> str:
    """The answer as `siftui render --json` prints it and the TUI's `j` copies it."""
    return json.dumps(
        {
            "content": answer.content,
            "map": answer.map,
            "first": answer.first,
            "last": answer.last,
            "grep_hits": answer.grep_hits,
            "note": answer.note,
        },
        ensure_ascii=False,
    )


def write_new_file(path: str | os.PathLike[str], data: bytes, *, overwrite: bool = False) -> None:
    """Write ``data`` atomically; an existing file is kept unless ``overwrite``.

    The bytes go to a temporary file beside the target first, so a crash or a
    full disk never leaves a half-written file under the user's name.
    """
    target = Path(path)
    if target.is_dir():
        raise IsADirectoryError(21, "is a directory", str(target))
    if not overwrite and target.exists():
        raise FileExistsError(17, "exists already; use --force to overwrite", str(target))
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or ".")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        if overwrite:
            os.replace(temporary, target)
        else:
            # link() refuses an existing name, so a file that appeared meanwhile survives.
            os.link(temporary, target)
            os.unlink(temporary)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
