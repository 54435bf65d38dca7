"""Damaged PDFs built from raw objects: a page tree with cycles, a cut file,
attachments-only encryption, a file MuPDF cannot open."""

from __future__ import annotations

from collections.abc import Collection

from support.hostile import raw_pdf

NOT_A_PDF = b"just some text\nnot a PDF at all\n"

_FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def _content(text: bytes) -> bytes:
    stream = b"BT /F1 12 Tf 72 720 Td (%s) Tj ET" % text
    return b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream)


def page_text(number: int) -> str:
    """What get_text() gives for a readable page of :func:`page_tree_pdf`."""
    return f"Page {number} text\n"


def page_tree_pdf(pages: int, cyclic: Collection[int]) -> bytes:
    """``pages`` pages; each page in ``cyclic`` (1-based) is a /Pages node whose
    only kid is itself: MuPDF counts it as a page and raises "cycle in page
    tree" when it is loaded. The others read as :func:`page_text`."""
    objects: dict[int, bytes] = {3: _FONT}
    kids: list[int] = []
    number = 4
    for page in range(1, pages + 1):
        kids.append(number)
        if page in cyclic:
            objects[number] = b"<< /Type /Pages /Parent 2 0 R /Kids [%d 0 R] /Count 1 >>" % number
            number += 1
            continue
        objects[number] = (
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % (number + 1)
        )
        objects[number + 1] = _content(b"Page %d text" % page)
        number += 2
    objects[1] = b"<< /Type /Catalog /Pages 2 0 R >>"
    refs = b" ".join(b"%d 0 R" % kid for kid in kids)
    objects[2] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (refs, pages)
    return raw_pdf([objects[i] for i in range(1, max(objects) + 1)])


def catalog_last_pdf() -> bytes:
    """One page, its content stream first and the page tree and catalog last,
    as many writers order them: a cut through its middle loses every page."""
    filler = b"BT /F1 12 Tf 72 720 Td (Text of the only page) Tj ET\n" + b"% filler\n" * 200
    return raw_pdf(
        [
            b"<< /Length %d >>\nstream\n%s\nendstream" % (len(filler), filler),
            _FONT,
            b"<< /Type /Page /Parent 4 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /Font << /F1 2 0 R >> >> /Contents 1 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Catalog /Pages 4 0 R >>",
        ],
        root=5,
    )


def cut_pdf(fraction: float = 0.5) -> bytes:
    """:func:`catalog_last_pdf` cut to ``fraction`` of its bytes."""
    data = catalog_last_pdf()
    return data[: int(len(data) * fraction)]


def no_pages_pdf() -> bytes:
    """A whole, undamaged PDF whose page tree is empty."""
    return raw_pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"])


def encrypted_attachment_pdf(*, only_attachments: bool = True) -> bytes:
    """One page of plain text and one embedded file, under a standard security
    handler (V 4, R 4) whose crypt filter is for embedded files only (/EFF,
    /AuthEvent /EFOpen; /StmF and /StrF /Identity), as Acrobat writes them.
    With ``only_attachments`` false, streams and strings use the filter too.
    /O and /U match no password, so opening it always needs one."""
    data = b"attachment bytes" * 2
    plain = b"/Identity" if only_attachments else b"/StdCF"
    encrypt = (
        b"<< /Filter /Standard /V 4 /R 4 /Length 128 /P -4 "
        b"/CF << /StdCF << /CFM /AESV2 /AuthEvent /EFOpen /Length 16 >> >> "
        b"/StmF %s /StrF %s /EFF /StdCF /O <%s> /U <%s> >>" % (plain, plain, b"11" * 32, b"22" * 32)
    )
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R "
        b"/Names << /EmbeddedFiles << /Names [(a.txt) 6 0 R] >> >> >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        _content(b"Attachments only"),
        _FONT,
        b"<< /Type /Filespec /F (a.txt) /UF (a.txt) /EF << /F 7 0 R >> >>",
        b"<< /Type /EmbeddedFile /Length %d >>\nstream\n%s\nendstream" % (len(data), data),
        encrypt,
    ]
    file_id = b"<00112233445566778899aabbccddeeff>"
    return raw_pdf(objects, trailer=b"/Encrypt 8 0 R /ID [%s %s]" % (file_id, file_id))
