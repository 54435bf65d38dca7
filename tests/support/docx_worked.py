"""The Word worked example (docs/WORD.md): the exact content with out_cap 100,000, and its model."""

from siftui.core.word.model import DocxDoc, Para, Story, Table

WORKED = """\
[P1#515a  H1]            Master Services Agreement
[P2#ca49]                This Agreement is entered into as of {{EffectiveDate}}.
[P4#8775  H2]            Definitions
[T1  2×2 @after:P4]      | Term | Value |
                         | Fee | 10 \\| 20 |
[P5#3f00]                "Fee" means the amount in the order form. [comment:C1 by J. Doe]
[P6#ac86  List:ol L1]    1. First obligation
[P7#9793  List:ol L1]    2. Second obligation [ins by Jane]
[P8#c8a3  List:ul L2]    • in writing"""

# The worked example as the reader makes it (markers and list markers resolved).
WORKED_DOC = DocxDoc(
    "Master Services Agreement",
    {
        "body": Story(
            (
                Para("Master Services Agreement", heading=1),
                Para("This Agreement is entered into as of {{EffectiveDate}}."),
                Para(""),
                Para("Definitions", heading=2),
                Para('"Fee" means the amount in the order form. [comment:C1 by J. Doe]'),
                Para("1. First obligation", list="ol L1"),
                Para("2. Second obligation [ins by Jane]", list="ol L1"),
                Para("• in writing", list="ul L2"),
            ),
            (Table(4, ("| Term | Value |", "| Fee | 10 \\| 20 |"), 2),),
        )
    },
)
