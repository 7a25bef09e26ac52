"""The web app: server-rendered pages for people (login, workspaces, Settings → Agents → Memory)."""
