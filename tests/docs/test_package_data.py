"""Every file siftui reads besides its modules is installed with it: `pip install .`
copies only what pyproject.toml's package-data names (an editable install, which
the tests run on, reads the checkout and would never notice)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "siftui"


def test_every_data_file_is_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["siftui"]
    installed = {path for pattern in patterns for path in PACKAGE.glob(pattern)}
    data = {
        path
        for path in PACKAGE.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".py"
    }
    assert any(path.suffix == ".tcss" for path in data)
    assert sorted(map(str, data - installed)) == []
