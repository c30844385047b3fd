"""MCP server skin."""
