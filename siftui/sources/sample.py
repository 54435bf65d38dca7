"""The sample document bundled with siftui (opened by ``siftui`` without a file)."""

from __future__ import annotations

import tempfile
from importlib.resources import files
from pathlib import Path


def sample_path() -> Path:
    """The path of the bundled ``siftui/data/sample.pdf``.

    Installed as files (editable or wheel), the resource is a real file and its own
    path is returned. From a zipped install the bytes are copied once to the
    temporary directory, so that the path stays valid after this call.
    """
    resource = files("siftui") / "data" / "sample.pdf"
    if isinstance(resource, Path):
        return resource
    data = resource.read_bytes()
    copy = Path(tempfile.gettempdir()) / "siftui-sample.pdf"
    if not copy.is_file() or copy.read_bytes() != data:
        copy.write_bytes(data)
    return copy
