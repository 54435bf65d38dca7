"""`siftui reader`: the TUI as a person's PDF reader, beside the agents that edit its drafts."""
