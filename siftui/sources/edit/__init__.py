"""The edit tools' outside world: working copies of PDFs, their drafts on disk, and
the save (EDITING.md's working copy, E12-E15's PyMuPDF side, E19's write).

- ``registry.WorkingCopies``: one ``WorkingCopy`` per real path, shared; ``open(path,
  data)`` restores a kept draft of the same bytes (``OpenedCopy.note``, a ``DraftNote``
  whose ``message`` the reader shows) or keeps one of other bytes aside.
- ``working_copy.WorkingCopy``: ``revision``, ``unsaved``, ``annotations(page)``,
  ``glyphs(page)``, ``commit(expected, transaction)``, ``undo``/``redo``, ``discard``
  (the person's), ``changes()`` (the save dialog's), ``save(expected, shown_path)``,
  ``listen(callback)`` (a ``Revised`` per revision, ``told``), ``reading()`` (the
  draft's PyMuPDF document, to draw), ``warm(pages)`` (those pages' glyphs read in
  the background: call it for the pages refs were issued on). The pure tools of
  ``siftui.core.edit`` take it as their ``EditableCopy``.
- ``drafts.DraftStore``: the kept drafts, written atomically after every change.
- ``apply``: an operation applied to a PyMuPDF document; ``scan``: a page's
  annotations read from its objects; ``glyphs``: a page's characters and boxes;
  ``save``: the draft's bytes (incremental where MuPDF can) and the atomic write;
  ``documents``: PDFs opened without their outline, the one PyMuPDF lock, the
  background thread (old documents closed, pages warmed), the on-disk re-check.
"""
