"""Helpers for the operations tests: a fresh worker heartbeat, a held note, metric samples."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

from ops.worker import heartbeat
from tests.factories import url
from tests.memories.helpers import start_turn, tool_save


def worker_alive() -> None:
    heartbeat("worker-test", in_process=False)


def held_save(client, workspace, **fields) -> dict:
    turn = start_turn(client, workspace)
    client.post(url(workspace, f"turns/{turn['id']}/reads/"), {"source": "web", "ref": "https://example.com"},
                format="json")
    saved = tool_save(client, workspace, turn["id"], **fields).json()
    assert saved["state"] == "held", saved
    return saved


def samples(text: str) -> dict[tuple[str, tuple], float]:
    """{(sample name, sorted labels): value} of a Prometheus exposition."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def sample(text: str, name: str, **labels) -> float:
    return samples(text).get((name, tuple(sorted(labels.items()))), 0.0)
