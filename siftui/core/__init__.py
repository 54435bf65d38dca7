"""Pure building blocks shared by siftui's tools (no I/O)."""
