"""The ZIP package of a .docx: parts read within limits, parsed safely, found by relationship.

Untrusted input stays bounded: a part is read at most MAX_PART_BYTES inflated
(a zip bomb stops there, whatever its header claims), the package at most
MAX_TOTAL_BYTES, a part with more than MAX_ELEMENTS tags is not parsed, and
the XML parser neither expands entities, nor loads DTDs, nor reads the network,
nor nests deeper than libxml2's 256 levels.
"""

from __future__ import annotations

import posixpath
import zipfile
import zlib
from typing import IO, Any

from lxml import etree

from siftui.sources.word.names import PKG_REL, STRICT_TO_TRANSITIONAL

MAX_PART_BYTES = 64 * 1024 * 1024
MAX_TOTAL_BYTES = 256 * 1024 * 1024
MAX_ELEMENTS = 2_000_000
# Word writes a few dozen parts; a package of very many is not one to walk.
MAX_PARTS = 10_000
_CHUNK = 1024 * 1024

OFFICE_DOCUMENT = "/officeDocument"


class PackageError(Exception):
    """The package or its main part cannot be read; ``str(error)`` is one line."""


class PartError(Exception):
    """One part cannot be read; the reader goes on without it, with a note."""


def _parser() -> Any:
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )


class Package:
    """An open .docx: its part names and a bounded reader for them."""

    def __init__(self, source: str | IO[bytes]) -> None:
        try:
            self._zip = zipfile.ZipFile(source)
        except zipfile.BadZipFile:
            raise PackageError(
                "not a Word document (.docx): not a ZIP package "
                "(an encrypted document or an old binary .doc?)"
            ) from None
        except (ValueError, NotImplementedError, RuntimeError) as error:
            raise PackageError(f"not a readable ZIP package: {error}") from None
        infos = self._zip.infolist()
        if len(infos) > MAX_PARTS:
            self._zip.close()
            raise PackageError(f"not a Word document one can read: more than {MAX_PARTS:,} parts")
        self.names = {info.filename.lstrip("/"): info for info in infos}
        # Part names are case-insensitive in OPC: find them whatever their case.
        self._folded = {name.lower(): name for name in self.names}
        self.read_total = 0

    def close(self) -> None:
        self._zip.close()

    def find(self, name: str) -> str | None:
        name = name.lstrip("/")
        return name if name in self.names else self._folded.get(name.lower())

    def read(self, name: str) -> bytes:
        """The part's inflated bytes, or PartError when missing, broken or too large."""
        found = self.find(name)
        if found is None:
            raise PartError(f"{name}: no such part")
        info = self.names[found]
        if info.flag_bits & 0x1:
            raise PartError(f"{name}: encrypted")
        chunks: list[bytes] = []
        size = 0
        try:
            with self._zip.open(info) as stream:
                while True:
                    chunk = stream.read(_CHUNK)
                    if not chunk:
                        break
                    size += len(chunk)
                    if size > MAX_PART_BYTES:
                        raise PartError(
                            f"{name}: inflates past {_mib(MAX_PART_BYTES)} "
                            "(a zip bomb, or too large to read)"
                        )
                    if self.read_total + size > MAX_TOTAL_BYTES:
                        raise PartError(
                            f"{name}: the package inflates past "
                            f"{_mib(MAX_TOTAL_BYTES)} (a zip bomb, or too large)"
                        )
                    chunks.append(chunk)
        except (
            zipfile.BadZipFile,
            zlib.error,
            OSError,
            EOFError,
            ValueError,
            NotImplementedError,
        ) as error:
            raise PartError(f"{name}: a broken ZIP entry ({_first_line(error)})") from None
        except RuntimeError as error:  # zipfile: a password is required
            raise PartError(f"{name}: {_first_line(error)}") from None
        self.read_total += size
        return b"".join(chunks)

    def xml(self, name: str) -> Any:
        """The part's root element, or PartError."""
        data = self.read(name)
        if data.count(b"<") > MAX_ELEMENTS:
            raise PartError(f"{name}: more than {MAX_ELEMENTS:,} XML elements (too large to read)")
        for strict, transitional in STRICT_TO_TRANSITIONAL:
            if strict in data:
                data = data.replace(strict, transitional)
        try:
            root = etree.fromstring(data, _parser())
        except etree.XMLSyntaxError as error:
            raise PartError(f"{name}: broken XML ({_first_line(error)})") from None
        if root is None:
            raise PartError(f"{name}: no XML content")
        return root

    def relationships(self, part: str) -> dict[str, tuple[str, str]]:
        """Id -> (type, target part name) of the part's internal relationships."""
        folder, base = posixpath.split(part)
        rels_name = posixpath.join(folder, "_rels", base + ".rels")
        if self.find(rels_name) is None:
            return {}
        root = self.xml(rels_name)
        found: dict[str, tuple[str, str]] = {}
        for rel in root.iter(f"{{{PKG_REL}}}Relationship"):
            if rel.get("TargetMode", "Internal") != "Internal":
                continue
            target = rel.get("Target", "")
            if target.startswith("/"):
                name = posixpath.normpath(target.lstrip("/"))
            else:
                name = posixpath.normpath(posixpath.join(folder, target))
            found[rel.get("Id", "")] = (rel.get("Type", ""), name)
        return found

    def main_part(self) -> str:
        """The main document part's name (word/document.xml in nearly every file)."""
        try:
            rels = self.relationships("")
        except PartError:
            rels = {}
        for kind, name in rels.values():
            if kind.endswith(OFFICE_DOCUMENT) and self.find(name) is not None:
                return name
        if self.find("word/document.xml") is not None:
            return "word/document.xml"
        raise PackageError("not a Word document (.docx): the package has no main document part")


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):g} MiB"


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
