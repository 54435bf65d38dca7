"""Serving the read tool to agents: the MCP server, its roots, document store and call log."""
