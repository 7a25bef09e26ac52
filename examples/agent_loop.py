"""A runnable agent loop against Appenda, with a fake model (a scripted function, no network
besides Appenda itself).

    APPENDA_URL=http://localhost:8000 APPENDA_TOKEN=apd_… APPENDA_WORKSPACE=<id> \
        python examples/agent_loop.py
    python examples/agent_loop.py <url> <token> <workspace>

It starts a turn, gives the model its context, lets the model save, search and undo its save,
then reads the workspace's first table in the turn (which taints it: the save after that waits
for a person) — printing what a person would see at each step.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

try:
    from appenda_client import Appenda, AppendaError, Refused
except ImportError:  # run from a checkout without `pip install ./clients/python`
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "clients" / "python"))
    from appenda_client import Appenda, AppendaError, Refused


def fake_model(step: str, seen: dict[str, Any]) -> dict[str, Any]:
    """Stands in for an LLM: given what happened so far, the next tool call it would make."""
    script = {
        "start": {"tool": "memory_save", "key": "pref.tone", "value": "Keep replies short."},
        "saved": {"tool": "memory_search", "query": "tone"},
        "searched": {"tool": "memory_undo", "change": seen.get("first_change")},
        "undone": {"tool": "read_table"},
        "read": {"tool": "memory_save", "key": "pref.format", "value": "Answer in bullet points."},
    }
    return script.get(step, {"tool": "done"})


def settings(argv: list[str]) -> tuple[str, str, str]:
    if len(argv) == 4:
        return argv[1], argv[2], argv[3]
    missing = [name for name in ("APPENDA_URL", "APPENDA_TOKEN", "APPENDA_WORKSPACE") if not os.environ.get(name)]
    if missing:
        raise SystemExit(f"Set {', '.join(missing)} (or pass: url token workspace).")
    return os.environ["APPENDA_URL"], os.environ["APPENDA_TOKEN"], os.environ["APPENDA_WORKSPACE"]


def run(url: str, token: str, workspace: str) -> int:
    seen: dict[str, Any] = {}
    with Appenda(url, token) as client, client.turn(workspace, kind="chat") as turn:
        print(f"Turn {turn.id} started; memory is {turn.context.memory}, "
              f"{len(turn.context.notes)} note(s) in context.")
        step = "start"
        while True:
            call = fake_model(step, seen)
            tool = call["tool"]
            if tool == "done":
                break
            if tool == "memory_save":
                try:
                    saved = turn.save(call["key"], call["value"])
                except Refused as refusal:
                    print(f"Not saved ({refusal.code}): {refusal.detail}")
                    return 1
                print(f"{call['key']}: {saved.show}")
                if step == "start":
                    seen["first_change"] = saved.undo_change
                step = "saved" if step == "start" else "saved_after_read"
            elif tool == "memory_search":
                found = turn.search(call["query"], limit=5)
                print(f"Found {len(found.notes)} note(s) for {call['query']!r}: "
                      + ", ".join(f"{n.key} = {n.value}" for n in found.notes))
                step = "searched"
            elif tool == "read_table":
                tables = client.tables(workspace)
                if tables:
                    rows = turn.records(tables[0]["id"])
                    print(f"Read {len(rows)} record(s) of table {tables[0]['name']!r}; "
                          "saves in this turn now wait for a person.")
                else:
                    turn.read("tool", "no tables in this workspace")
                    print("No tables here; reported a tool read instead.")
                step = "read"
            elif tool == "memory_undo":
                undone = turn.undo(call["change"])
                print(f"Undo of the first save: {undone.show}")
                step = "undone"
    return 0


def main(argv: list[str]) -> int:
    try:
        return run(*settings(argv))
    except AppendaError as error:
        print(f"Appenda answered {error.status} {error.code}: {error.detail}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
