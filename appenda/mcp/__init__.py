"""Appenda's MCP server for desktop agent hosts, over stdio (issue 17, R-API-2).

Hosts that speak HTTP attach to ``/mcp/`` on the server itself instead (``appenda.mcp.http``).

Run it as the host's MCP server::

    python -m appenda.mcp --url http://127.0.0.1:8000 --token <API key> --workspace <workspace id>
                          [--bot <bot id>] [--reports-reads]

(``APPENDA_URL``, ``APPENDA_TOKEN``, ``APPENDA_WORKSPACE``, ``APPENDA_BOT`` may stand in for the
options, so that the token need not sit on a command line.) In a desktop host's config::

    {"mcpServers": {"appenda": {"command": "python",
        "args": ["-m", "appenda.mcp", "--url", "https://appenda.example.com",
                 "--token", "<API key>", "--workspace", "<workspace id>"]}}}

It is a client of the REST API (``httpx``; it does not import Django). One MCP session is one
turn: the turn starts on the first tool call (``POST …/turns/ {"kind": "chat"}``), and a new
one starts transparently when the API answers ``turn_unknown``. The tools are
``appenda_memory_save``, ``appenda_memory_search`` and ``appenda_memory_undo`` exactly as
``GET /api/v1/tools/?format=mcp`` serves them (fetched at startup, so they never drift), plus
``appenda_report_read {source, ref}`` through which the host reports what the turn read. An API
refusal (``{code, detail}``) is a tool error result whose text is ``code: detail``.

Safe by default: an MCP host cannot always report what it read (web pages, files, other
tools' results), so an MCP turn counts as tainted unless the host declares that it reports its
reads. Without ``--reports-reads`` (or ``APPENDA_MCP_REPORTS_READS=1``) the server reports one
read ``{"source": "tool", "ref": "mcp host: reads not reported"}`` right after starting each
turn, so every save of the session is held until a person keeps it (R-TAINT-2). With the flag
the normal rules apply: the host must call ``appenda_report_read`` for everything it reads
besides memory.
"""
