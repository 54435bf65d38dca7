"""The edit tools' pure core (EDITING.md's working copy and E12-E15): no I/O.

How the host serves them (``siftui.sources.edit`` holds the PyMuPDF side):

1. ``WorkingCopies`` (``siftui.sources.edit.registry``), one per host:
   ``opened = copies.open(real_path, data)`` when a session opens a file (or a reader
   tab shows it); ``opened.copy`` is the file's ``WorkingCopy``, shared;
   ``opened.note`` a ``DraftNote`` when a kept draft was restored or kept aside
   (``note.message`` is the line the reader shows). ``copies.release(real_path)``
   on pdf_close / a tab's close (the draft stays on disk).
2. The tools take the session's state, the copy (any ``copy.EditableCopy``) and the
   wire arguments in snake_case, and return the result dict in EDITING.md's key
   order or raise ``EvidenceError`` (one line, EDITING.md's words):

   - ``tools_list.annotation_list(state, copy, document_id, page=, limit=, cursor=)``
   - ``tools_annotations.annotation_create(state, copy, document_id, Create(
     expected_revision, subtype, target, color, comment))`` (``target`` the wire
     object as given: its kind, refId, page and rectPdf are checked here)
   - ``tools_annotations.annotation_update(..., Update(expected_revision,
     annotation_id, color, comment))``
   - ``tools_annotations.annotation_delete(..., expected_revision=, annotation_id=)``

   ``Create`` and ``Update`` are the checked arguments as one value
   (``Create.asked(arguments, tool)`` builds one from the wire mapping). Each takes
   ``tool`` (the name of what made the change: the served entry's name, or the
   reader's action such as ``"reader: delete"``; the tool's names are spelt in their
   entries only) and ``origin`` ("agent" or "person") for the transaction it makes:
   the reader deletes an annotation through ``annotation_delete`` with
   ``origin="person"``.
3. The copy itself: ``revision``, ``unsaved``, ``can_undo``/``can_redo``,
   ``undo()``/``redo()`` (a revision each), ``discard()`` (the person's),
   ``changes()`` (a ``DraftChanges`` for the save dialog), ``rewrites_whole``
   (why a save rewrites the file whole, "" when it appends), ``save(expected,
   shown_path)`` (E19's re-checks and atomic write, returning ``Saved``),
   ``listen(callback)`` (a ``Revised`` after every revision; returns the unsubscriber),
   ``reading()`` (the draft's PyMuPDF document, to draw), ``annotations(page)``.

Modules, each with one job:

- ``operations``: operations and transactions as plain data (JSON for the drafts).
- ``history``: revision, undo and redo; the revision messages.
- ``annotations``: ``Annotation`` (E12's item), ``DraftChanges`` (draft vs file).
- ``placement``: a native reference's pieces placed on the page's glyphs as quads.
- ``geometry``: equal and overlapping annotations.
- ``targets``: E13's subtype, target, color, comment and region checks.
- ``copy``: ``EditableCopy``, what the tools need of a working copy.
- ``tools_list``: E12 with cursors; ``tools_annotations``: E13-E15.
"""
