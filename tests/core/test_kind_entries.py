"""A document kind is one entry: no module outside the kind entries tests the kind.

Every module of the package, in every folder, is parsed. Outside the kind table
(``core/kinds.py``, ``core/kind_entry.py``, ``sources/kinds.py`` and its detection half
``sources/detect.py``) and each kind's own modules (:data:`KIND_HOMES`: for Word its
packages ``core/word/`` and ``sources/word/``, its CLI side ``cli/word.py`` and its read
tool ``serve/docx_tool.py``; for a PDF its entry ``core/pdf_kind.py``, its opening in
MuPDF ``sources/pdf_open.py``, its Doc JSON's reader ``sources/load.py`` and its read
tool ``serve/pdf_tool.py``), a *kind test* fails:

- a kind entry named (``PDF``, ``WORD``, ``PdfKind``, ``WordKind``): ``kind is WORD``,
  ``PDF.doc(x)``, ``WORD.options(x)``, ``PDF.expect(x)``, ``WORD.walk(...)``;
- a predicate or table of one kind's files (``is_docx``, ``is_word``, ``is_doc_json``,
  ``is_doc_json_bytes``, ``is_docx_json``, ``is_pdf_head``, ``DOCX_SUFFIXES``);
- a kind's name or suffix as a string (``kind == "pdf"``, ``load(path, "docx")``,
  ``suffix != ".pdf"``): a string constant that is a kind's name or suffix, except a
  docstring, MuPDF's own ``filetype=`` (its vocabulary, not a kind of siftui's) and
  the names :data:`ALLOWED` lists;
- a ``word`` flag: a parameter or keyword argument called ``word``, or an attribute
  ``word`` assigned (``RequestBar.word``).

The rest of siftui asks the entry (``kind_of(doc or options)``, ``kind_of_file``,
``kind_of_bytes``, ``kind_named``) and what it answers, so a third kind is a new
entry and its package, not a branch in thirty modules.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import siftui

PACKAGE = Path(siftui.__file__).parent

KIND_HOMES = (
    "core/kinds.py",
    "core/kind_entry.py",
    "sources/kinds.py",
    "sources/detect.py",
    "core/word/",
    "sources/word/",
    "cli/word.py",
    "serve/docx_tool.py",
    "core/pdf_kind.py",
    "sources/pdf_open.py",
    "sources/load.py",
    "serve/pdf_tool.py",
)
"""The kind table and each kind's own modules (paths under siftui/)."""

ALLOWED = frozenset({("sources/log/report.py", "'docx'")})
"""(module, what): the call log's key for a Word call's arguments (``docx``), a name in
the log's format (files written before stay readable), which the report reads."""

ENTRY_NAMES = frozenset({"PDF", "WORD", "PdfKind", "WordKind"})
KIND_PREDICATES = frozenset(
    {
        "is_docx",
        "is_word",
        "is_doc_json",
        "is_doc_json_bytes",
        "is_docx_json",
        "is_pdf_head",
        "DOCX_SUFFIXES",
    }
)
KIND_STRINGS = frozenset({"pdf", "docx", ".pdf", ".docx"})


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring constants of ``tree`` (module, class, function)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                found.add(id(value))
    return found


def _filetypes(tree: ast.AST) -> set[int]:
    """The ids of the constants given as MuPDF's ``filetype=``."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.keyword) and node.arg == "filetype"
    }


def kind_tests(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Each kind test of ``tree`` (see the module's docstring), with its line."""
    docstrings = _docstrings(tree) | _filetypes(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in ENTRY_NAMES | KIND_PREDICATES:
            yield node.lineno, node.id
        elif isinstance(node, ast.Attribute) and node.attr in ENTRY_NAMES | KIND_PREDICATES:
            yield node.lineno, node.attr
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name in ENTRY_NAMES | KIND_PREDICATES:
                    yield node.lineno, f"import {alias.name}"
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value in KIND_STRINGS and id(node) not in docstrings:
                yield node.lineno, repr(node.value)
        elif isinstance(node, ast.arg) and node.arg == "word":
            yield node.lineno, "word parameter"
        elif isinstance(node, ast.keyword) and node.arg == "word":
            yield node.value.lineno, "word="
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and target.attr == "word":
                    yield node.lineno, ".word assigned"


def is_home(relative: str) -> bool:
    return any(
        relative.startswith(home) if home.endswith("/") else relative == home for home in KIND_HOMES
    )


def kind_tests_outside(root: Path) -> list[str]:
    """``path:line: what`` for each kind test outside the kind homes under ``root``."""
    found: list[str] = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        if is_home(relative):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for line, what in sorted(set(kind_tests(tree))):
            if (relative, what) not in ALLOWED:
                found.append(f"{relative}:{line}: {what}")
    return found


def test_no_kind_test_outside_the_kind_entries() -> None:
    assert kind_tests_outside(PACKAGE) == []


def test_every_kind_home_exists() -> None:
    for home in KIND_HOMES:
        assert (PACKAGE / home).exists(), home


def test_the_guard_finds_a_kind_test_anywhere(tmp_path: Path) -> None:
    """The walk is recursive and sees each form of a kind test; prose is not one."""
    package = tmp_path / "pkg"
    (package / "deep" / "deeper").mkdir(parents=True)
    (package / "deep" / "deeper" / "entry.py").write_text(
        "from siftui.core.kinds import WORD\n"
        "def f(kind, doc):\n    return kind is WORD or PDF.doc(doc)\n"
    )
    (package / "deep" / "names.py").write_text(
        "from siftui.sources.load import is_doc_json\n"
        'def g(kind, path):\n    return kind == "pdf" or path.suffix == ".docx"\n'
    )
    (package / "flags.py").write_text(
        "class Bar:\n"
        "    def show(self, values, *, word):\n        self.word = word\n"
        "def h(bar):\n    bar.show({}, word=True)\n"
    )
    (package / "prose.py").write_text(
        '"""A pdf or a docx is read."""\nX = "a .pdf file"\nopen(stream=b"", filetype="pdf")\n'
    )
    found = kind_tests_outside(package)
    assert found == [
        "deep/deeper/entry.py:1: import WORD",
        "deep/deeper/entry.py:3: PDF",
        "deep/deeper/entry.py:3: WORD",
        "deep/names.py:1: import is_doc_json",
        "deep/names.py:3: '.docx'",
        "deep/names.py:3: 'pdf'",
        "flags.py:2: word parameter",
        "flags.py:3: .word assigned",
        "flags.py:5: word=",
    ]
