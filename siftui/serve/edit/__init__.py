"""The edit family's host side (EDITING.md): the reader the host talks to, the wait for
a person's approval, and the edit tools' entries."""
