"""Text helpers for one-line messages: no PyMuPDF here, so every layer may import them."""

from __future__ import annotations

import os

from siftui.core.text import collapse_whitespace, without_surrogates

# C0 and C1 controls start a terminal's escape sequences, and bidi controls reorder
# what it shows: a message quoting a name shows them, never obeys them.
_BIDI = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
_CONTROL = (
    {code: f"\\x{code:02x}" for code in (*range(32), *range(127, 160))}
    | {code: f"\\u{code:04x}" for code in _BIDI}
    | {ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t"}
)


def quoted(path: str | os.PathLike[str]) -> str:
    """A path as error messages show it: control characters escaped, so that a
    file name holding a newline cannot break the one-line message in two, nor an
    escape sequence or a bidi override act on the terminal that shows it."""
    return os.fspath(path).translate(_CONTROL)


def one_line(error: BaseException) -> str:
    """An error as one line of text: white space collapsed, its type if it says nothing."""
    text = collapse_whitespace(str(error))
    return text or type(error).__name__


def file_error(path: str | os.PathLike[str], error: OSError) -> str:
    """An OSError about ``path`` as one line: `<path>: No such file or directory`."""
    return f"{quoted(path)}: {error.strerror or one_line(error)}"


def encode_utf8(text: str) -> bytes:
    """UTF-8 bytes of ``text``; a lone surrogate (not encodable) becomes U+FFFD.

    One code point for one code point, so a length measured before encoding
    (the budget) still holds. Text from a broken PDF or a Doc JSON with a
    ``\\ud800`` escape can hold such surrogates; the output stays valid UTF-8.
    """
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return without_surrogates(text).encode("utf-8")
