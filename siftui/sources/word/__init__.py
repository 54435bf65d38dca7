"""The sources layer for Word documents: OOXML (a ZIP package of XML parts) to a DocxDoc.

Only this package reads OOXML (with lxml); everything it returns is a plain
siftui.core.word.model value.
"""
