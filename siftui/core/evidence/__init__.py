"""The evidence tools' pure core (EVIDENCE.md E1-E11): no I/O, standard library only."""
