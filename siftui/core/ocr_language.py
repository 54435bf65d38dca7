"""OCR languages as people type them: Tesseract's codes (`eng`, `deu+eng`, `chi_sim`).

Pure: the syntax only. Whether a language is installed is asked of the Tesseract
data (siftui.sources.extract.ocr_unavailable_reason).
"""

from __future__ import annotations

import re

__all__ = ["DEFAULT_OCR_LANGUAGE", "check_ocr_language", "missing_languages"]

DEFAULT_OCR_LANGUAGE = "eng"
_CODE = r"[A-Za-z0-9_]{1,40}"
_LANGUAGES = re.compile(rf"{_CODE}(?:\+{_CODE}){{0,9}}", re.ASCII)


def check_ocr_language(text: str) -> str:
    """``text`` when it is one to ten of Tesseract's codes joined by ``+``, else
    ValueError with the one line to show."""
    if _LANGUAGES.fullmatch(text) is None:
        shown = text if len(text) <= 40 else text[:39] + "…"
        raise ValueError(
            f'invalid OCR language "{shown}": use Tesseract\'s codes, such as eng or deu+eng'
        )
    return text


def missing_languages(language: str, installed: list[str]) -> str | None:
    """The one line saying which codes of ``language`` are not among ``installed`` (what
    `tesseract --list-langs` lists), with what is and the Debian packages; None when
    all are."""
    missing = [code for code in language.split("+") if code not in installed]
    if not missing:
        return None
    named = ", ".join(f'"{code}"' for code in missing)
    packages = " ".join(f"tesseract-ocr-{code.lower().replace('_', '-')}" for code in missing)
    return (
        f"OCR language {named} {'is' if len(missing) == 1 else 'are'} not installed "
        f"(installed: {', '.join(installed) or 'none'}; Debian: apt-get install {packages})"
    )
