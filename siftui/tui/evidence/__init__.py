"""The evidence preview: a session of the evidence tools, answered by the server's own code."""
