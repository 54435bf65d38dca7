"""DOCX.md's worked example: the exact content with out_cap 100,000."""

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
