"""The agent mix for benchmarks/bench_load.py (locust, headless, 127.0.0.1 only).

Each user is an agent runtime (a bot's token) or a person's client (a person's token); one task
is one turn: start it, 0-2 reads recorded, 1-3 searches, 0-2 saves. Each user paces itself to
``LOAD_TURNS_PER_USER_PER_S``; the stages (users over time) come from ``LOAD_STAGES``
("seconds:users,seconds:users,…"), so the bench sets the sustained rate, then 3x, then back.

Every request is written to ``LOAD_LOG`` (JSON lines: time, name, status, ms, error) when the
run ends, so the bench computes its own per-phase figures.
"""

from __future__ import annotations

import json
import os
import random
import time

from locust import FastHttpUser, LoadTestShape, constant_pacing, events, task

TOKENS = json.loads(os.environ.get("LOAD_TOKENS", "[]"))  # [[token, workspace id, kind], …]
TURNS_PER_USER_PER_S = float(os.environ.get("LOAD_TURNS_PER_USER_PER_S", "0.5"))
STAGES = [tuple(int(x) for x in stage.split(":")) for stage in os.environ.get("LOAD_STAGES", "10:2").split(",")]
CLIENT_TIMEOUT = float(os.environ.get("LOAD_CLIENT_TIMEOUT", "30"))
WORDS = ("charts", "tone", "units", "meetings", "reports", "deadline", "coffee", "weekly", "summary", "budget")

_log: list[tuple] = []


@events.request.add_listener
def _record(request_type, name, response_time, response_length, response=None, exception=None, **kwargs):
    status = getattr(response, "status_code", 0) or 0
    code = ""
    if status >= 400:
        try:
            code = response.json().get("code", "")
        except Exception:  # noqa: BLE001 - a body that is not JSON has no code
            code = ""
    _log.append((time.time(), name, status, round(response_time, 2), code,
                 type(exception).__name__ if exception and not status else ""))


@events.quitting.add_listener
def _dump(environment, **kwargs):
    path = os.environ.get("LOAD_LOG")
    if path:
        with open(path, "w") as out:
            for row in _log:
                out.write(json.dumps(row) + "\n")


class Agent(FastHttpUser):
    wait_time = constant_pacing(1 / TURNS_PER_USER_PER_S)
    network_timeout = CLIENT_TIMEOUT
    connection_timeout = CLIENT_TIMEOUT

    def on_start(self):
        token, self.workspace, self.kind = random.choice(TOKENS)
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        self.base = f"/api/v1/workspaces/{self.workspace}/"

    def _post(self, path: str, body: dict, name: str):
        with self.client.post(self.base + path, data=json.dumps(body), headers=self.headers, name=name,
                              catch_response=True) as response:
            if response.status_code in (200, 201, 202, 409, 429, 503):
                response.success()  # a refusal with a code is an answer; the bench counts them
            return response

    @task
    def turn(self):
        started = self._post("turns/", {"kind": "chat"}, "turn start")
        if started.status_code != 201:
            return
        turn = started.json()["id"]
        for _ in range(random.randint(0, 2)):
            self._post(f"turns/{turn}/reads/", {"source": "file", "ref": f"notes-{random.randint(1, 50)}.md"},
                       "read")
        for _ in range(random.randint(1, 3)):
            self._post(f"turns/{turn}/memory_search/", {"query": " ".join(random.sample(WORDS, 2))}, "search")
        for _ in range(random.randint(0, 2)):
            word = random.choice(WORDS)
            self._post(f"turns/{turn}/memory_save/",
                       {"key": f"pref.{word}{random.randint(1, 40)}",
                        "value": f"Prefers {word} in short form, version {random.randint(1, 1000)}."}, "save")


class Stages(LoadTestShape):
    def tick(self):
        elapsed = self.get_run_time()
        for seconds, users in STAGES:
            if elapsed < seconds:
                return users, max(users, 1)
            elapsed -= seconds
        return None
