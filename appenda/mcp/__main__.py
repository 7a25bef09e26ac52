"""``python -m appenda.mcp``: the stdio MCP server (see ``appenda.mcp``)."""

from appenda.mcp.server import main

if __name__ == "__main__":
    raise SystemExit(main())
